package transport

import (
	"strconv"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/phrase"
	"github.com/gpubot/gpubot/knowledge"
)

// TestHungLLMHoldsNoAnswerWorker: with the harness's 8 answer workers and a
// model that never answers, 20 slash commands are all answered with their
// templates at once: a worker hands each rephrase to the phraser's pool and
// moves on. (Waiting on the model, 8 workers would need three rounds of its
// deadline for 20 commands.)
func TestHungLLMHoldsNoAnswerWorker(t *testing.T) {
	h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
	llm := bottest.NewOpenAI(t)
	llm.SetDefault(bottest.OpenAIReply{Hang: true})
	const deadline = 3 * time.Second
	h.app.cfg.Phraser = phrase.New(phrase.Config{BaseURL: llm.BaseURL(), Model: "m", Timeout: deadline, Concurrency: 50, BreakAfter: 100}, nil)
	start := time.Now()
	for i := range 20 {
		h.slash(t, "fit 13b lora", "r"+strconv.Itoa(i), "trig-hang-"+strconv.Itoa(i))
	}
	h.slack.WaitCalls(t, bottest.ResponseURLMethod, 20)
	if took := time.Since(start); took > deadline {
		t.Errorf("20 templates took %v with a hung model; the model's deadline is %v", took, deadline)
	}
	if n := len(llm.Requests()); n > 20 {
		t.Errorf("%d calls to the model, want at most one per command", n)
	}
	h.settle()
	if n := len(h.slack.Calls(bottest.ResponseURLMethod)); n != 20 {
		t.Errorf("%d response_url posts, want the 20 templates and no rephrase", n)
	}
}
