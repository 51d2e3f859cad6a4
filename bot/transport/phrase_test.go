package transport

import (
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/phrase"
	"github.com/gpubot/gpubot/knowledge"
)

func phraseHarness(t *testing.T, reply string) (*harness, *bottest.OpenAI) {
	t.Helper()
	h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
	llm := bottest.NewOpenAI(t)
	llm.SetDefault(bottest.OpenAIReply{Text: reply})
	h.app.cfg.Phraser = phrase.New(phrase.Config{BaseURL: llm.BaseURL(), Model: "m", Timeout: 5 * time.Second}, nil)
	return h, llm
}

// faithful keeps the fit's essential figures (bot's intent table): the memory and
// the headline's card count.
const faithful = "A 13B LoRA fine-tune needs about 31.01 GB per replica: one H100 SXM is enough."

func TestFaithfulRephraseUpdatesTheMentionReply(t *testing.T) {
	h, llm := phraseHarness(t, faithful)
	h.event(t, "Ev1", bottest.Msg("D1", "im", "U1", "1.000001", "/gpu fit 13b lora"))
	h.settle()
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 1 {
		t.Fatalf("%d posts, want 1", len(posts))
	}
	if !strings.Contains(posts[0].Form.Get("text"), "31.01 GB") {
		t.Errorf("the template was not posted first: %q", posts[0].Form.Get("text"))
	}
	ups := h.slack.Calls("chat.update")
	if len(ups) != 1 {
		t.Fatalf("%d chat.update calls, want 1", len(ups))
	}
	if got := ups[0].Form.Get("text"); got != faithful {
		t.Errorf("updated text = %q, want the rephrase", got)
	}
	if len(llm.Requests()) != 1 {
		t.Errorf("%d model calls, want 1", len(llm.Requests()))
	}
}

func TestChangedNumberKeepsTheTemplate(t *testing.T) {
	h, _ := phraseHarness(t, "A 13B LoRA fine-tune needs about 45 GB per replica.")
	h.event(t, "Ev1", bottest.Msg("D1", "im", "U1", "1.000001", "/gpu fit 13b lora"))
	h.settle()
	if n := len(h.slack.Calls("chat.postMessage")); n != 1 {
		t.Fatalf("%d posts, want 1", n)
	}
	if n := len(h.slack.Calls("chat.update")); n != 0 {
		t.Errorf("%d updates after an unfaithful rephrase, want 0", n)
	}
}

func TestSlashRephraseReplacesTheResponse(t *testing.T) {
	h, _ := phraseHarness(t, faithful)
	h.slash(t, "fit 13b lora", "r1", "trig1")
	h.settle()
	var got []map[string]any
	for _, c := range h.slack.Calls(bottest.ResponseURLMethod) {
		if strings.HasSuffix(c.Path, "/r1") {
			got = append(got, c.JSON(t))
		}
	}
	if len(got) != 2 {
		t.Fatalf("%d response_url posts, want the template then its replacement", len(got))
	}
	if got[1]["replace_original"] != true || got[1]["text"] != faithful {
		t.Errorf("second response = %v, want replace_original with the rephrase", got[1])
	}
}
