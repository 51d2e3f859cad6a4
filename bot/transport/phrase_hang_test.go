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
// model that never answers (its deadline a minute away), 20 slash commands
// all get their template answers: a worker hands each rephrase to the
// phraser's pool and moves on. Waiting on the model, 8 workers would answer
// 8 and then sit for a minute (WaitCalls gives up after 10 s).
func TestHungLLMHoldsNoAnswerWorker(t *testing.T) {
	h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
	llm := bottest.NewOpenAI(t) // closed first at cleanup, which ends the hung calls
	llm.SetDefault(bottest.OpenAIReply{Hang: true})
	h.app.cfg.Phraser = phrase.New(phrase.Config{BaseURL: llm.BaseURL(), Model: "m", Timeout: time.Minute, Concurrency: 50, BreakAfter: 100}, nil)
	for i := range 20 {
		h.slash(t, "fit 13b lora", "r"+strconv.Itoa(i), "trig-hang-"+strconv.Itoa(i))
	}
	posts := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 20)
	per := map[string]int{}
	for _, p := range posts {
		if per[p.Path]++; per[p.Path] > 1 { // the answer, then a rephrase
			t.Errorf("a replacement was posted by a model that never answers: %s", p.Body)
		}
	}
	if n := len(llm.Requests()); n > 20 {
		t.Errorf("%d calls to the model, want at most one per command", n)
	}
}
