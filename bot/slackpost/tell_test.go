package slackpost

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
)

// The "saved / NOT saved" outcome of a ledger write went through
// chat.postEphemeral, which fails where the bot is not a member; with the
// command's response_url in ctx it goes there, and Slack takes it.
func TestTellUsesTheCommandsResponseURL(t *testing.T) {
	f := newFixture(t)
	f.slack.SetConversation("G9", bottest.Private, false)
	ctx := WithResponseURL(context.Background(), f.slack.ResponseURL("cmd"))
	if err := f.p.Tell(ctx, "G9", "U1", "✅ Checked: saved once."); err != nil {
		t.Fatalf("Tell through the response_url: %v", err)
	}
	calls := f.slack.Calls(bottest.ResponseURLMethod)
	if len(calls) != 1 || calls[0].JSON(t)["response_type"] != "ephemeral" || calls[0].JSON(t)["text"] != "✅ Checked: saved once." {
		t.Fatalf("response_url calls %d, want the notice once, ephemeral", len(calls))
	}
	if n := len(f.slack.Calls("chat.postEphemeral")); n != 0 {
		t.Errorf("%d chat.postEphemeral calls, want none", n)
	}
	// Without a response_url it is an ephemeral in the channel, which
	// Slack refuses where the bot is not a member: the error says so.
	err := f.p.Tell(context.Background(), "G9", "U1", "x")
	if err == nil || !strings.Contains(err.Error(), "channel_not_found") {
		t.Errorf("Tell without a response_url in a channel the bot is not in: %v, want channel_not_found", err)
	}
	// An expired response_url falls back to the channel.
	f.slack.Script(bottest.ResponseURLMethod, bottest.Reply{Status: 404, Body: `{"ok":false,"error":"expired_url"}`})
	if err := f.p.Tell(WithResponseURL(context.Background(), f.slack.ResponseURL("old")), "C1", "U1", "y"); err != nil {
		t.Errorf("Tell with an expired response_url in a channel the bot is in: %v", err)
	}
	if n := len(f.slack.Calls("chat.postEphemeral")); n != 2 {
		t.Errorf("%d chat.postEphemeral calls, want the refused one and the fallback", n)
	}
}
