package transport

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/knowledge"
)

// With the real bot and router: an opted-in channel gets answers to
// confident GPU questions only, with only the buttons the engine can honour.
func TestAmbientQuestionsWithTheRealRouter(t *testing.T) {
	kb, err := knowledge.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, bot.New(bot.Config{FX: 7.2}, kb, nil))
	h.slash(t, "listen on", "on", "t1")
	h.settle()

	h.event(t, "Ev1", bottest.Msg("C1", "channel", "U1", "1.000001", "13b 模型 LoRA 微调要多大显存"))
	h.event(t, "Ev2", bottest.Msg("C1", "channel", "U1", "1.000002", "lunch anyone?"))
	h.event(t, "Ev3", bottest.Msg("C1", "channel", "U1", "1.000003", "can someone help me with the VPN"))
	h.settle()
	calls := h.slack.Calls("chat.postMessage")
	if len(calls) != 1 {
		t.Fatalf("%d replies, want 1 (to the GPU question only)", len(calls))
	}
	f := calls[0].Form
	if f.Get("thread_ts") != "1.000001" || !strings.Contains(f.Get("text"), "13B") {
		t.Errorf("reply thread %s text %q", f.Get("thread_ts"), f.Get("text"))
	}
	buttonValue(t, []byte(f.Get("blocks")), actWorking)
	if strings.Contains(f.Get("blocks"), actBits) {
		t.Error("an 8-bit button on a LoRA answer; the engine refuses 8-bit LoRA")
	}
}
