package command_test

import (
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/subscribe"
	"github.com/gpubot/gpubot/bot/subscribe/command"
)

// /gpu subscribe in a channel the bot was not in said "Subscribed" and then
// failed every day. Now it joins a public channel, and refuses a private
// one it is not in with the /invite fix, saving nothing.
func TestSubscribeChecksTheBotIsInTheChannel(t *testing.T) {
	f := miniFixture(t)
	fake := bottest.NewSlack(t)
	fake.SetChannel("CPUB", false, false)
	fake.SetChannel("GPRIV", false, true)
	h := command.NewHandler(f.store, ledger.NewAuthorizer([]string{"UADMIN"}, nil, 0), nil, nil)
	h.CheckMembership(slack.New("xoxb-test", slack.OptionAPIURL(fake.APIURL())))
	f.bot.Route(parse.Subscribe, h)

	a := f.say("UADMIN", "GPRIV", "subscribe prices")
	if !a.Ephemeral || !strings.Contains(a.Text, "/invite @gpubot") {
		t.Errorf("private channel without the bot: %q, want a refusal with the /invite fix", a.Text)
	}
	if subs, _ := f.store.Channel(t.Context(), "T1", "GPRIV"); len(subs) != 0 {
		t.Errorf("subscription saved for a channel the bot cannot post in: %v", subs)
	}

	a = f.say("UADMIN", "CPUB", "subscribe prices")
	if a.Ephemeral || !strings.Contains(a.Text, "Subscribed") {
		t.Errorf("public channel: %q, want subscribed after joining", a.Text)
	}
	if n := len(fake.Calls("conversations.join")); n != 1 {
		t.Errorf("%d conversations.join calls, want 1", n)
	}
}

// Every conversations.info error read as "invite me first", even with the
// bot in the channel: without groups:read Slack answers missing_scope for
// a private channel. That is said as what it is, and with the scope the
// private channel the bot is in subscribes.
func TestSubscribeTellsAMissingScopeFromNotAMember(t *testing.T) {
	f := miniFixture(t)
	fake := bottest.NewSlack(t)
	fake.SetConversation("GPRIV", bottest.Private, true)
	fake.SetScopes("chat:write", "channels:read", "channels:join")
	h := command.NewHandler(f.store, ledger.NewAuthorizer([]string{"UADMIN"}, nil, 0), nil, nil)
	h.CheckMembership(slack.New("xoxb-test", slack.OptionAPIURL(fake.APIURL())))
	f.bot.Route(parse.Subscribe, h)

	a := f.say("UADMIN", "GPRIV", "subscribe prices")
	if !a.Ephemeral || !strings.Contains(a.Text, "groups:read") || strings.Contains(a.Text, "/invite") {
		t.Errorf("private channel, bot a member, no groups:read: %q, want the missing permission named, not /invite", a.Text)
	}
	fake.SetScopes("chat:write", "channels:read", "channels:join", "groups:read", "mpim:read")
	if a := f.say("UADMIN", "GPRIV", "subscribe prices"); a.Ephemeral || !strings.Contains(a.Text, "Subscribed") {
		t.Errorf("with groups:read: %q, want subscribed", a.Text)
	}
}

// The scheduler's DM when it stops a subscription says, in the
// subscription's language, which channel and how to restore it.
func TestSuspendNoteSaysHowToRestore(t *testing.T) {
	for _, c := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"<#CGONE>", "not a member", "/invite @gpubot", "/gpu subscribe prices"}},
		{"zh", []string{"<#CGONE>", "已暂停", "/invite @gpubot", "/gpu subscribe prices"}},
	} {
		text, blocks := command.SuspendNote(subscribe.Sub{Team: "T1", Channel: "CGONE", Topic: subscribe.Prices, Lang: c.lang}, subscribe.Prices)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s note %q lacks %q", c.lang, text, w)
			}
		}
		if len(blocks) != 1 {
			t.Errorf("%s note: %d blocks, want 1 section", c.lang, len(blocks))
		}
	}
}
