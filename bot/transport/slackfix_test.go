package transport

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// The Slack defects of issue 14, each shown fixed against the fake Slack
// with the real bot.

// A top-level mention's help or error was an ephemeral message aimed at a
// thread that did not exist, so nobody saw it. It is now a reply in the
// mention's thread.
func TestTopLevelMentionErrorIsVisible(t *testing.T) {
	h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
	h.event(t, "Ev1", bottest.Mention("C1", "U1", "1.000001", "<@UBOT> what's the weather like"))
	h.event(t, "Ev2", bottest.Mention("C1", "U1", "1.000002", "<@UBOT> help"))
	h.settle()
	if n := len(h.slack.Calls("chat.postEphemeral")); n != 0 {
		t.Errorf("%d ephemeral replies to top-level mentions; nobody sees those", n)
	}
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 2 {
		t.Fatalf("%d thread replies, want 2 (the can't-answer and the help)", len(posts))
	}
	byThread := map[string]string{} // the workers answer in any order
	for _, p := range posts {
		byThread[p.Form.Get("thread_ts")] = p.Form.Get("text")
	}
	if _, ok := byThread["1.000001"]; !ok {
		t.Errorf("no reply in the first mention's thread: %v", byThread)
	}
	if !strings.Contains(byThread["1.000002"], "/gpu spend") {
		t.Errorf("help in the second mention's thread lacks the spend commands: %q", byThread["1.000002"])
	}
}

// DM answers were threaded under the user's message; they are inline now.
func TestDirectMessagesAreAnsweredInline(t *testing.T) {
	h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
	h.event(t, "Ev1", bottest.Msg("D1", "im", "U1", "1.000001", "/gpu fit 13b lora"))
	h.settle()
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 1 || posts[0].Form.Get("thread_ts") != "" {
		t.Fatalf("DM answer posts %d, thread_ts %q; want one inline", len(posts), posts[0].Form.Get("thread_ts"))
	}
}

// Private channels: message.groups events are answered like channels.
func TestListenWorksInPrivateChannels(t *testing.T) {
	h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
	h.send(t, "/slack/commands", formType, bottest.SlashForm("listen on", "G1", "U1", h.slack.ResponseURL("on"), "t1"))
	h.settle()
	h.event(t, "Ev1", bottest.Msg("G1", "group", "U1", "1.000001", "13b 模型 LoRA 微调要多大显存"))
	h.settle()
	if posts := h.slack.Calls("chat.postMessage"); len(posts) != 1 || posts[0].Form.Get("channel") != "G1" {
		t.Fatalf("%d answers in the private channel, want 1", len(posts))
	}
}

// spendHarness is the real bot with a ledger, answering over the fake Slack.
func spendHarness(t *testing.T) (*harness, *ledger.Ledger) {
	t.Helper()
	st, err := store.OpenEmbedded(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	kb := knowledge.MustShipped()
	now := func() time.Time { return time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC) }
	l := ledger.New(st, ledger.Options{KB: kb, Now: now})
	b := bot.New(bot.Config{FX: 7.2}, kb, nil)
	b.Route(parse.Spend, bot.NewSpend(l, ledger.NewAuthorizer(nil, nil, 0), 7.2, now))
	return newHarness(t, b), l
}

func entries(t *testing.T, l *ledger.Ledger) int {
	t.Helper()
	es, err := l.List(context.Background(), bottest.TeamID, ledger.Month{Year: 2026, Month: 10}, "")
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// The currency button on a spend answer re-ran "spend add" as whoever
// clicked: one add and three clicks made four entries. A write command's
// answer now has no buttons, and a forged re-run of one is refused.
func TestSpendAnswersHaveNoButtonsAndClicksWriteNothing(t *testing.T) {
	h, l := spendHarness(t)
	h.slash(t, "spend add 40h 4090 @autodl ¥75 project=llm-ft", "add", "t1")
	resp := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0]
	if strings.Contains(string(resp.Body), `"actions"`) {
		t.Errorf("a spend answer carries buttons: %s", resp.Body)
	}
	if resp.JSON(t)["response_type"] != "ephemeral" {
		t.Error("a spend answer was posted to the channel")
	}
	forged := state{Q: "spend add 40h 4090 @autodl ¥75 project=llm-ft", Slash: true, Asker: "U1"}.with("currency", "usd").encode()
	for i, user := range []string{"U1", "U2", "U3"} {
		payload := bottest.BlockAction("C1", user, "1.5", actCurrency, forged, h.slack.ResponseURL("c"), "trig-c"+string(rune('0'+i)))
		h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(payload))
	}
	h.settle()
	if n := entries(t, l); n != 1 {
		t.Errorf("%d ledger entries after one add and three clicks, want 1", n)
	}
}

// The LLM's rephrase went out unescaped: <!channel> in a model's words
// pinged everyone. It is escaped in text and blocks now.
func TestRephraseIsEscaped(t *testing.T) {
	h, _ := phraseHarness(t, faithful+" <!channel>")
	h.event(t, "Ev1", bottest.Msg("D1", "im", "U1", "1.000001", "/gpu fit 13b lora"))
	h.settle()
	ups := h.slack.Calls("chat.update")
	if len(ups) != 1 {
		t.Fatalf("%d chat.update calls, want the rephrase applied once", len(ups))
	}
	for _, field := range []string{"text", "blocks"} {
		if v := ups[0].Form.Get(field); strings.Contains(v, "<!channel>") || strings.Contains(v, "<https://") {
			t.Errorf("chat.update %s carries live markup: %s", field, v)
		}
	}
}

// Share in channel posts the private slash answer with who asked.
func TestShareInChannelNamesTheAsker(t *testing.T) {
	h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
	h.slash(t, "fit 13b lora", "r1", "t1")
	resp := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0]
	value := buttonValue(t, blocksOf(t, resp.Body), actShare)
	payload := bottest.BlockAction("C1", "U1", "1.5", actShare, value, h.slack.ResponseURL("share"), "trig-share")
	h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(payload))
	h.settle()
	if n := len(h.slack.Calls("chat.postMessage")); n != 0 {
		t.Errorf("%d chat.postMessage calls; Share goes through the click's response_url", n)
	}
	shared := h.slack.Calls(bottest.ResponseURLMethod)[1].JSON(t)
	if shared["response_type"] != "in_channel" || shared["replace_original"] == true {
		t.Fatalf("shared answer %v, want a new in_channel message", shared)
	}
	if b, _ := json.Marshal(shared["blocks"]); !strings.Contains(string(b), `\u003c@U1\u003e`) || !strings.Contains(string(b), "31.01 GB") {
		t.Errorf("shared post lacks the asker or the answer: %s", b)
	}
}

// The App Home tab shows what the bot does, the team's settings and the
// five most useful commands.
func TestAppHomeTab(t *testing.T) {
	h := newHarness(t, nil)
	h.app.cfg.Home = &HomeTab{Views: h.api, Settings: func(context.Context, string) []string {
		return []string{"Subscribed: #gpu-prices (daily prices)"}
	}}
	h.event(t, "Ev1", map[string]any{"type": "app_home_opened", "user": "U1", "channel": "D1", "tab": "home", "event_ts": "1.1"})
	h.settle()
	calls := h.slack.Calls("views.publish")
	if len(calls) != 1 {
		t.Fatalf("%d views.publish calls, want 1", len(calls))
	}
	body := string(calls[0].Body) + calls[0].Form.Get("view")
	for _, want := range []string{`"user_id":"U1"`, "home", "/gpu fit 13b lora", "/gpu spend report", "#gpu-prices"} {
		if !strings.Contains(body, want) {
			t.Errorf("home view lacks %q: %s", want, body)
		}
	}
}

// A zh-CN user's /gpu command with no Chinese in it is answered in Chinese.
func TestUserLocalePicksTheLanguage(t *testing.T) {
	h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
	h.app.cfg.Users = h.api
	h.slack.SetLocale("U1", "zh-CN")
	h.slash(t, "fit 13b lora", "zh", "t1")
	body := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0].JSON(t)
	if text, _ := body["text"].(string); !strings.Contains(text, "显存") {
		t.Errorf("zh-CN user's command answered as %q", text)
	}
	if n := len(h.slack.Calls("users.info")); n != 1 {
		t.Errorf("%d users.info calls, want 1", n)
	}
}

// Slash answers are private, except those meant for the channel: a
// subscription says in the channel what it will get.
func TestSubscribeConfirmationIsPostedInTheChannel(t *testing.T) {
	fb := &fakeBot{answer: func(_ context.Context, m bot.Message) bot.Answer {
		if strings.HasPrefix(m.Text, "subscribe") {
			return bot.Answer{Intent: parse.Subscribe, Lang: "en", Text: "Subscribed this channel: daily price changes"}
		}
		return bot.Answer{Intent: parse.Subscribe, Lang: "en", Text: "Only workspace admins can change this channel's subscriptions.", Ephemeral: true}
	}}
	h := newHarness(t, fb)
	h.slash(t, "subscribe prices", "ok", "t1")
	h.slash(t, "unsubscribe", "no", "t2")
	h.settle()
	for _, c := range h.slack.Calls(bottest.ResponseURLMethod) {
		if c.JSON(t)["delete_original"] == true {
			continue // the "⏳ Working on" note, removed before a channel post
		}
		want := map[string]string{"/response/ok": "in_channel", "/response/no": "ephemeral"}[c.Path]
		if got := c.JSON(t)["response_type"]; got != want {
			t.Errorf("%s: response_type %v, want %s", c.Path, got, want)
		}
	}
}
