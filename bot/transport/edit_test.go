package transport

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/ledger"
)

// An edited question updates its answer: the bot's reply is changed in
// place (chat.update, same ts) with the new question's answer and a note
// that it was updated — in a DM over HTTP, in a mention's thread over
// Socket Mode. An edit of a message the bot never answered, an edit that
// leaves the text as it was (an unfurl), and a redelivered edit do nothing.
func TestEditedQuestionUpdatesItsAnswer(t *testing.T) {
	h := newHarness(t, nil)
	h.event(t, "Ev1", bottest.Msg("D1", "im", "U1", "1.000001", "fit 13b"))
	h.settle()
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 1 || !strings.HasPrefix(posts[0].Form.Get("text"), "13B inference") {
		t.Fatalf("first answer %v", posts)
	}
	replyTS := h.slack.Messages("D1")[0].TS
	for _, id := range []string{"Ev2", "Ev2"} { // the second is Slack's retry
		h.event(t, id, bottest.Edited("D1", "im", "U1", "1.000001", "", "fit 13b", "fit 13b lora", "1.000009"))
		h.settle()
	}
	ups := h.slack.Calls("chat.update")
	if len(ups) != 1 {
		t.Fatalf("%d chat.update calls for one edit, want 1", len(ups))
	}
	f := ups[0].Form
	if f.Get("channel") != "D1" || f.Get("ts") != replyTS || !strings.HasPrefix(f.Get("text"), "13B LoRA") {
		t.Errorf("update %s %s %q, want D1 %s with the LoRA answer", f.Get("channel"), f.Get("ts"), f.Get("text"), replyTS)
	}
	if !strings.Contains(f.Get("blocks"), "Updated for your edited question") {
		t.Errorf("updated blocks do not say why: %s", f.Get("blocks"))
	}
	if n := len(h.slack.Calls("chat.postMessage")); n != 1 {
		t.Errorf("%d posts, want the first answer only (the edit updates it)", n)
	}

	// Nothing for: text unchanged; a message the bot never answered.
	h.event(t, "Ev3", bottest.Edited("D1", "im", "U1", "1.000001", "", "fit 13b lora", "fit 13b lora", "1.000010"))
	h.event(t, "Ev4", bottest.Edited("C9", "channel", "U1", "5.000001", "", "lunch?", "fit 13b", "5.000002"))
	h.settle()
	if n := len(h.slack.Calls("chat.update")); n != 1 {
		t.Errorf("%d updates, want still 1", n)
	}

	// A mention in a channel, edited, over Socket Mode: its thread reply changes.
	h.event(t, "Ev5", bottest.Mention("C1", "U2", "2.000001", "<@UBOT> fit 13b lora"))
	h.settle()
	var reply bottest.Message
	for _, m := range h.slack.Messages("C1") {
		if m.ThreadTS == "2.000001" {
			reply = m
		}
	}
	sock := runSocket(t, h)
	sock.Send(t, "events_api", "env-1", json.RawMessage(bottest.EventCallback("Ev6",
		bottest.Edited("C1", "channel", "U2", "2.000001", "", "<@UBOT> fit 13b lora", "<@UBOT> fit 13b", "2.000005"))))
	sock.WaitAck(t, "env-1")
	h.settle()
	ups = h.slack.Calls("chat.update")
	if len(ups) != 2 || ups[1].Form.Get("channel") != "C1" || ups[1].Form.Get("ts") != reply.TS || !strings.HasPrefix(ups[1].Form.Get("text"), "13B inference") {
		t.Errorf("mention edit: updates %d, last %v; want the thread reply %s to answer 13b inference", len(ups), ups[len(ups)-1].Form, reply.TS)
	}
}

// An edit never re-runs a write: a spend entry edited (to another amount,
// or to a question) books nothing more and removes nothing, and the asker
// is told why, in their language. Real bot, real ledger, strict fake.
func TestEditNeverRerunsAWrite(t *testing.T) {
	h, l := ledgerThreadHarness(t)
	entry := "记一笔：4090 跑了 40 小时 75 块 项目 aigc"
	h.event(t, "Ev1", bottest.Msg("D1", "im", "U1", "1.000001", entry))
	h.settle()
	ctx := context.Background()
	count := func() int {
		all, err := l.List(ctx, bottest.TeamID, ledger.Month{}, "")
		if err != nil {
			t.Fatal(err)
		}
		return len(all)
	}
	if n := count(); n != 1 {
		t.Fatalf("%d entries after the first message, want 1", n)
	}
	h.event(t, "Ev2", bottest.Edited("D1", "im", "U1", "1.000001", "", entry, "记一笔：4090 跑了 50 小时 95 块 项目 aigc", "1.000002"))
	h.event(t, "Ev3", bottest.Edited("D1", "im", "U1", "1.000001", "", "记一笔：4090 跑了 50 小时 95 块 项目 aigc", "fit 13b lora", "1.000003"))
	h.settle()
	if n := count(); n != 1 {
		t.Errorf("%d entries after two edits, want still 1", n)
	}
	if n := len(h.slack.Calls("chat.update")); n != 0 {
		t.Errorf("the booking's confirmation was updated %d times, want never", n)
	}
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 3 {
		t.Fatalf("%d posts, want the confirmation and a note for each edit", len(posts))
	}
	// Each note in the language of the edited text.
	if got := posts[1].Form.Get("text"); !strings.Contains(got, "不会按修改重新执行") {
		t.Errorf("note for the Chinese edit %q, want the Chinese refusal", got)
	}
	if got := posts[2].Form.Get("text"); !strings.Contains(got, "did not run it again") {
		t.Errorf("note for the English edit %q, want the English refusal", got)
	}
}
