package transport

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/knowledge"
)

// notMember are conversations /gpu works in but the bot is not in: a
// public channel it was never invited to, a private channel, a DM and a
// group DM between people.
var notMember = []struct{ id, kind string }{
	{"C9", bottest.Public}, {"G9", bottest.Private}, {"D9", bottest.IM}, {"M9", bottest.MPIM},
}

// checkShared asserts a Share click's response_url got the answer as a new
// in_channel message naming the asker, then the private copy marked shared.
func checkShared(t *testing.T, h *harness, where string, before, posts int) {
	t.Helper()
	calls := h.slack.WaitCalls(t, bottest.ResponseURLMethod, before+2)
	shared, note := calls[before].JSON(t), calls[before+1].JSON(t)
	blocks, _ := json.Marshal(shared["blocks"])
	if shared["response_type"] != "in_channel" || shared["replace_original"] == true ||
		!strings.Contains(string(blocks), `asked by \u003c@U1\u003e: /gpu fit 13b lora`) || !strings.Contains(string(blocks), "31.01 GB") {
		t.Errorf("%s: shared %v, want a new in_channel message with the answer, asked by <@U1>", where, shared)
	}
	if text, _ := shared["text"].(string); !strings.HasPrefix(text, "asked by <@U1>") {
		t.Errorf("%s: notification text %q, want it to name the asker", where, text)
	}
	if note["replace_original"] != true || note["text"] != "Shared in the channel." {
		t.Errorf("%s: private copy became %v, want the shared note", where, note)
	}
	if n := len(h.slack.Calls("chat.postMessage")) + len(h.slack.Calls("chat.postEphemeral")) - posts; n != 0 {
		t.Errorf("%s: %d chat.post* calls; they fail where the bot is not a member", where, n)
	}
}

// Share in channel silently failed wherever the bot was not a member
// (chat.postMessage: not_in_channel). It goes through the click's
// response_url, which Slack takes in any conversation the command ran in.
func TestShareWorksWhereTheBotIsNotAMemberHTTP(t *testing.T) {
	for _, c := range notMember {
		h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
		h.slack.SetConversation(c.id, c.kind, false)
		// The strict fake refuses a post there, as Slack does (the one
		// chat.postMessage checkShared allows for).
		if _, _, err := h.api.PostMessage(c.id, slack.MsgOptionText("x", false)); err == nil {
			t.Fatalf("%s: the fake let the bot post where it is not a member", c.id)
		}
		h.send(t, "/slack/commands", formType, bottest.SlashForm("fit 13b lora", c.id, "U1", h.slack.ResponseURL("r1"), "t1"))
		resp := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0]
		value := buttonValue(t, blocksOf(t, resp.Body), actShare)
		h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(
			bottest.BlockAction(c.id, "U1", "1.5", actShare, value, h.slack.ResponseURL("share"), "trig-share")))
		h.settle()
		checkShared(t, h, c.kind, 1, 1)
	}
}

func TestShareWorksWhereTheBotIsNotAMemberSocket(t *testing.T) {
	h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
	h.slack.SetConversation("G9", bottest.Private, false)
	sock := runSocket(t, h)
	sock.Send(t, "slash_commands", "env-1", bottest.SlashPayload("fit 13b lora", "G9", "U1", h.slack.ResponseURL("r1"), "t1"))
	sock.WaitAck(t, "env-1")
	resp := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0]
	value := buttonValue(t, blocksOf(t, resp.Body), actShare)
	sock.Send(t, "interactive", "env-2", bottest.BlockAction("G9", "U1", "1.5", actShare, value, h.slack.ResponseURL("share"), "trig-share"))
	sock.WaitAck(t, "env-2")
	h.settle()
	checkShared(t, h, "private channel over Socket Mode", 1, 0)
}

// A slash command's answer is computed with the command's response_url in
// its context, so what it says later (a ledger write settled after
// "⏳ checking…") reaches the asker there (slackpost.Poster.Tell).
func TestSlashAnswerCarriesItsResponseURL(t *testing.T) {
	got := make(chan string, 1)
	fb := &fakeBot{answer: func(ctx context.Context, m bot.Message) bot.Answer {
		if !m.Variant { // the question, not the variants its buttons store
			got <- slackpost.ResponseURL(ctx)
		}
		return cannedAnswer(m)
	}}
	h := newHarness(t, fb)
	h.slash(t, "fit 13b lora", "cmd", "t1")
	h.settle()
	if u := <-got; u != h.slack.ResponseURL("cmd") {
		t.Errorf("answer context carries %q, want the command's response_url", u)
	}
}
