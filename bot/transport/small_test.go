package transport

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
)

// "thanks", "hi" and "ok" in a DM got "I can't answer that"; they get a
// short friendly reply in the asker's language, over either transport.
func TestSmallTalkInADMGetsAFriendlyReply(t *testing.T) {
	h := newHarness(t, nil)
	h.event(t, "Ev1", bottest.Msg("D1", "im", "U1", "1.000001", "thanks!"))
	h.event(t, "Ev2", bottest.Msg("D1", "im", "U1", "1.000002", "ok"))
	sock := runSocket(t, h)
	sock.Send(t, "events_api", "env-1", json.RawMessage(bottest.EventCallback("Ev3", bottest.Msg("D1", "im", "U1", "1.000003", "谢谢"))))
	sock.WaitAck(t, "env-1")
	h.event(t, "Ev4", bottest.Msg("D1", "im", "U1", "1.000004", "ok so what about the weather")) // not courtesy
	h.settle()
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 4 {
		t.Fatalf("%d replies, want 4", len(posts))
	}
	want := []string{"Happy to help!", "Happy to help!", "不客气！", "I couldn't read that"}
	got := map[string]string{}
	for _, p := range posts {
		got[p.Form.Get("text")[:min(len(p.Form.Get("text")), 14)]] = p.Form.Get("text")
	}
	for _, w := range want {
		found := false
		for _, p := range posts {
			found = found || strings.HasPrefix(p.Form.Get("text"), w)
		}
		if !found {
			t.Errorf("no reply starting %q among %q", w, got)
		}
	}
	if asked := h.bot.Asked(); len(asked) != 1 {
		t.Errorf("the bot was asked %q; courtesy needs no answer", asked)
	}
}

// A thread reply also sent to the channel (subtype thread_broadcast) was
// ignored; it is read like any reply in its thread.
func TestThreadBroadcastRepliesAreRead(t *testing.T) {
	h := newHarness(t, nil)
	h.slash(t, "listen on", "on", "t1")
	h.settle()
	ev := bottest.Msg("C1", "channel", "U1", "1.000009", "fit 13b lora")
	ev["subtype"], ev["thread_ts"] = "thread_broadcast", "1.000001"
	h.event(t, "Ev1", ev)
	h.settle()
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 1 || posts[0].Form.Get("thread_ts") != "1.000001" {
		t.Fatalf("%d replies to a broadcast thread reply, want 1 in its thread", len(posts))
	}
}
