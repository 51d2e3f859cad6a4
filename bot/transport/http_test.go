package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
)

func TestSignatureIsCheckedBeforeAnything(t *testing.T) {
	body := bottest.SlashForm("fit 13b lora", "C1", "U1", "http://127.0.0.1:1/response/x", "trig")
	now := time.Now()
	sig := bottest.Signature(secret, now, body)
	tests := []struct {
		name   string
		path   string
		body   []byte
		change func(r *http.Request)
		status int
		reason string
	}{
		{"forged with another secret", "/slack/commands", body, func(r *http.Request) {
			r.Header.Set("X-Slack-Signature", bottest.Signature("not-the-secret", now, body))
		}, 401, "signature does not match"},
		{"replayed with a stale timestamp", "/slack/commands", body, func(r *http.Request) {
			old := now.Add(-6 * time.Minute)
			r.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(old.Unix(), 10))
			r.Header.Set("X-Slack-Signature", bottest.Signature(secret, old, body)) // validly signed, but old
		}, 401, "timestamp outside the 5-minute window"},
		{"timestamp from the future", "/slack/events", body, func(r *http.Request) {
			later := now.Add(10 * time.Minute)
			r.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(later.Unix(), 10))
			r.Header.Set("X-Slack-Signature", bottest.Signature(secret, later, body))
		}, 401, "timestamp outside the 5-minute window"},
		{"tampered body", "/slack/commands", bytes.Replace(body, []byte("13b"), []byte("70b"), 1), func(r *http.Request) {
			r.Header.Set("X-Slack-Signature", sig) // signature of the original body
		}, 401, "signature does not match"},
		{"missing signature header", "/slack/interactive", body, func(r *http.Request) {
			r.Header.Del("X-Slack-Signature")
		}, 401, "signature or timestamp header missing"},
		{"missing timestamp header", "/slack/events", body, func(r *http.Request) {
			r.Header.Del("X-Slack-Request-Timestamp")
		}, 401, "signature or timestamp header missing"},
		{"signature not hex", "/slack/commands", body, func(r *http.Request) {
			r.Header.Set("X-Slack-Signature", "v0=zz")
		}, 401, "malformed signature or timestamp"},
		{"oversized body", "/slack/commands", append(append([]byte{}, body...), []byte("&pad="+strings.Repeat("x", maxCommandBody))...), nil,
			413, "body over 65536 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			var change []func(*http.Request)
			if tt.change != nil {
				change = append(change, tt.change)
			}
			got := h.send(t, tt.path, formType, tt.body, change...)
			if got.status != tt.status {
				t.Errorf("status = %d, want %d (%s)", got.status, tt.status, got.body)
			}
			h.settle()
			if asked := h.bot.Asked(); len(asked) != 0 {
				t.Errorf("the bot was asked %q after a rejected request", asked)
			}
			logs := h.logs.String()
			if !strings.Contains(logs, "slack request rejected") || !strings.Contains(logs, tt.reason) {
				t.Errorf("log lacks the rejection reason %q:\n%s", tt.reason, logs)
			}
			for _, s := range []string{secret, strings.TrimPrefix(sig, "v0=")} {
				if strings.Contains(logs, s) {
					t.Errorf("log shows a secret or signature:\n%s", logs)
				}
			}
		})
	}
}

func TestURLVerificationEchoesTheChallenge(t *testing.T) {
	h := newHarness(t, nil)
	got := h.send(t, "/slack/events", jsonType, []byte(`{"token":"x","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}`))
	if got.status != 200 || got.body != `{"challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"}` {
		t.Errorf("got %d %s", got.status, got.body)
	}
}

// TestSlashAcksThenAnswersTheAsker: a slash answer goes to the asker alone
// (a bot's channel post shows no asker) with a Share in channel button.
func TestSlashAcksThenAnswersTheAsker(t *testing.T) {
	h := newHarness(t, nil)
	got := h.slash(t, "fit 13b lora", "r1", "trig-1")
	if got.status != 200 {
		t.Fatalf("status %d: %s", got.status, got.body)
	}
	golden(t, "slash_ack", []byte(got.body))
	calls := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)
	golden(t, "slash_fit_private", calls[0].Body)
	if body := calls[0].JSON(t); body["response_type"] != "ephemeral" {
		t.Errorf("response_type %v, want ephemeral", body["response_type"])
	}
	buttonValue(t, blocksOf(t, calls[0].Body), actShare)
	if calls[0].Path != "/response/r1" {
		t.Errorf("answered %s, want the command's response_url", calls[0].Path)
	}
	if asked := h.bot.Asked(); len(asked) != 1 || asked[0] != "fit 13b lora" {
		t.Errorf("bot asked %q", asked)
	}
}

func TestSlashErrorsAndHelpAreEphemeral(t *testing.T) {
	h := newHarness(t, nil)
	h.slash(t, "help", "help", "t1")
	h.slash(t, "fit banana", "err", "t2")
	h.settle()
	for _, name := range []string{"help", "err"} {
		var body []byte
		for _, c := range h.slack.Calls(bottest.ResponseURLMethod) {
			if c.Path == "/response/"+name {
				body = c.Body
			}
		}
		if body == nil {
			t.Fatalf("no answer to %s", name)
		}
		golden(t, "slash_"+name+"_ephemeral", body)
	}
}

// slowBot blocks every answer for 10 s unless released: a hung LLM or Redis.
type slowBot struct {
	fakeBot
	release chan struct{}
	done    chan struct{}
}

func newSlowBot() *slowBot {
	s := &slowBot{release: make(chan struct{}), done: make(chan struct{}, 16)}
	s.fakeBot.answer = func(ctx context.Context, m bot.Message) bot.Answer {
		defer func() { s.done <- struct{}{} }()
		select {
		case <-s.release:
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
		}
		return cannedAnswer(m)
	}
	return s
}

func (s *slowBot) answered() bool { return len(s.done) > 0 }

func TestSlowAnswersDoNotDelayTheAck(t *testing.T) {
	slow := newSlowBot()
	h := newHarness(t, slow)

	got := h.slash(t, "fit 13b lora", "slow", "t1")
	if got.status != 200 || !strings.Contains(got.body, "Working on") {
		t.Fatalf("slash ack %d %s", got.status, got.body)
	}
	ev := h.event(t, "Ev1", bottest.Mention("C1", "U1", "1700000000.000100", "<@UBOT> fit 13b lora"))
	if ev.status != 200 {
		t.Fatalf("event ack %d", ev.status)
	}
	if slow.answered() {
		t.Fatal("an answer finished before the acks; the test proves nothing")
	}
	if n := len(h.slack.Calls("")); n != 0 {
		t.Fatalf("%d calls to Slack before the slow answers finished", n)
	}
	close(slow.release)
	h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)
	h.slack.WaitCalls(t, "chat.postMessage", 1)
}

func TestEventRetriesAndDoubleDeliveryGetOneReply(t *testing.T) {
	h := newHarness(t, nil)
	ts := "1700000000.000100"
	mention := bottest.Mention("C1", "U1", ts, "<@UBOT> fit 13b lora")
	h.event(t, "Ev1", mention)
	// Slack's retries of the same event, with X-Slack-Retry-Num.
	for n := 1; n <= 3; n++ {
		got := h.event(t, "Ev1", mention, func(r *http.Request) {
			r.Header.Set("X-Slack-Retry-Num", strconv.Itoa(n))
			r.Header.Set("X-Slack-Retry-Reason", "http_timeout")
		})
		if got.status != 200 {
			t.Errorf("retry %d: status %d", n, got.status)
		}
	}
	// The same message under another event id, as when app_mention and a
	// message.* event both carry it.
	h.event(t, "Ev2", bottest.Mention("C1", "U1", ts, "<@UBOT> fit 13b lora"))
	h.settle()

	calls := h.slack.Calls("chat.postMessage")
	if len(calls) != 1 {
		t.Fatalf("chat.postMessage called %d times, want 1", len(calls))
	}
	golden(t, "mention_thread_reply", formJSON(t, calls[0].Form))
}

func TestMentionAndIMOfOneMessageGetOneReply(t *testing.T) {
	h := newHarness(t, nil)
	ts := "1700000000.000200"
	h.event(t, "EvA", bottest.Mention("D1", "U1", ts, "<@UBOT> 13b lora 要多大显存"))
	h.event(t, "EvB", bottest.Msg("D1", "im", "U1", ts, "<@UBOT> 13b lora 要多大显存"))
	h.settle()
	calls := h.slack.Calls("chat.postMessage")
	if len(calls) != 1 {
		t.Fatalf("chat.postMessage called %d times, want 1", len(calls))
	}
	if got := calls[0].Form.Get("thread_ts"); got != "" {
		t.Errorf("thread_ts = %q, want a DM answered inline", got)
	}
	if asked := h.bot.Asked(); len(asked) != 1 || asked[0] != "13b lora 要多大显存" {
		t.Errorf("bot asked %q, want the text without the mention", asked)
	}
}

func TestRepliesGoToTheExistingThread(t *testing.T) {
	h := newHarness(t, nil)
	m := bottest.Msg("D1", "im", "U1", "1700000000.000300", "fit 13b lora")
	m["thread_ts"] = "1700000000.000001"
	h.event(t, "Ev1", m)
	calls := h.slack.WaitCalls(t, "chat.postMessage", 1)
	if got := calls[0].Form.Get("thread_ts"); got != "1700000000.000001" {
		t.Errorf("thread_ts = %q, want the thread's root", got)
	}
}

func TestEventsTheBotIgnores(t *testing.T) {
	edited := bottest.Msg("D1", "im", "U1", "1.000004", "fit 13b lora")
	edited["subtype"] = "message_changed"
	fromBot := bottest.Msg("D1", "im", "U2", "1.000005", "fit 13b lora")
	fromBot["bot_id"] = "B999"
	mentionEdit := bottest.Mention("C1", "U1", "1.000006", "<@UBOT> fit 13b lora")
	mentionEdit["edited"] = map[string]any{"user": "U1", "ts": "1.000007"}
	for name, inner := range map[string]map[string]any{
		"an edit":                  edited,
		"another bot":              fromBot,
		"its own post":             bottest.Msg("D1", "im", bottest.BotUserID, "1.000008", "fit 13b lora"),
		"an edited mention":        mentionEdit,
		"a channel not opted in":   bottest.Msg("C1", "channel", "U1", "1.000009", "fit 13b lora"),
		"a private group":          bottest.Msg("G1", "group", "U1", "1.000010", "fit 13b lora"),
		"an unknown event type":    {"type": "reaction_added", "user": "U1", "reaction": "+1"},
		"a bot_message in channel": {"type": "message", "subtype": "bot_message", "channel": "C1", "channel_type": "channel", "bot_id": "B1", "ts": "1.1", "text": "fit 13b lora"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, nil)
			if got := h.event(t, "Ev-"+name, inner); got.status != 200 {
				t.Errorf("status %d, want 200 (ack everything)", got.status)
			}
			h.settle()
			if n := len(h.slack.Calls("")); n != 0 {
				t.Errorf("%d calls to Slack, want none", n)
			}
		})
	}
}

func TestListenOptsAChannelIn(t *testing.T) {
	h := newHarness(t, nil)
	question := func(id, ts, text string) { h.event(t, id, bottest.Msg("C1", "channel", "U1", ts, text)) }

	question("Ev1", "1.000001", "anyone tried a 13b lora on 4090s?")
	h.settle()
	if n := len(h.slack.Calls("chat.postMessage")); n != 0 {
		t.Fatalf("answered %d messages in a channel that did not opt in", n)
	}

	h.slash(t, "listen on", "on", "t1")
	h.settle()
	on := h.slack.Calls(bottest.ResponseURLMethod)
	// The private "⏳ Working on" note is removed, then the channel told.
	if len(on) != 2 || on[0].JSON(t)["delete_original"] != true || on[1].JSON(t)["response_type"] != "in_channel" {
		t.Fatalf("listen on answered %d response_url posts, want the note removed and an in_channel answer", len(on))
	}
	if asked := h.bot.Asked(); len(asked) != 0 {
		t.Errorf("/gpu listen on reached the bot: %q", asked)
	}

	question("Ev2", "1.000002", "anyone tried a 13b lora on 4090s?") // confident: answered
	question("Ev3", "1.000003", "lunch anyone?")                     // chatter: ignored
	question("Ev4", "1.000004", "can someone help me with the VPN")  // "help" is not a question for us
	mention := bottest.Msg("C1", "channel", "U1", "1.000005", "<@UBOT> fit 13b lora")
	h.event(t, "Ev5", mention) // left to app_mention
	h.settle()
	calls := h.slack.Calls("chat.postMessage")
	if len(calls) != 1 || calls[0].Form.Get("thread_ts") != "1.000002" {
		t.Fatalf("posts %d (thread %q), want one reply in the thread of 1.000002", len(calls), calls[0].Form.Get("thread_ts"))
	}

	h.slash(t, "listen off", "off", "t2")
	h.settle()
	question("Ev6", "1.000006", "what about a 13b lora on H20?")
	h.settle()
	if n := len(h.slack.Calls("chat.postMessage")); n != 1 {
		t.Errorf("after listen off: %d posts, want still 1", n)
	}
	if n := h.persisted.Load(); n != 2 {
		t.Errorf("state persisted %d times, want after listen on and off", n)
	}
}

func TestListenInADirectMessage(t *testing.T) {
	h := newHarness(t, nil)
	h.send(t, "/slack/commands", formType, bottest.SlashForm("listen on", "D1", "U1", h.slack.ResponseURL("dm"), "t1"))
	body := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0].JSON(t)
	if body["response_type"] != "ephemeral" || !strings.Contains(body["text"].(string), "direct message") {
		t.Errorf("got %v", body)
	}
}

func TestButtonsRenderStoredVariantsAndReplaceTheOriginal(t *testing.T) {
	h := newHarness(t, nil)
	h.slash(t, "fit 13b ctx=8k", "first", "t1") // asked by U1
	first := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0]
	blocks := blocksOf(t, first.Body)

	click := func(user, action, value, name string) []byte {
		t.Helper()
		h.settle() // the answer's variants are asked in the background; a person clicks later
		before := len(h.slack.Calls(bottest.ResponseURLMethod))
		payload := bottest.BlockAction("C1", user, "1700000000.000500", action, value, h.slack.ResponseURL(name), "trig-"+name)
		got := h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(payload))
		if got.status != 200 || got.body != "" {
			t.Fatalf("click ack %d %q, want an empty 200", got.status, got.body)
		}
		return h.slack.WaitCalls(t, bottest.ResponseURLMethod, before+1)[before].Body
	}

	// Show working re-renders the stored answer, privately, without asking
	// again; 8-bit and currency show the variants stored with it.
	working := click("U1", actWorking, buttonValue(t, blocks, actWorking), "working")
	golden(t, "button_working", working)
	bits := click("U1", actBits, buttonValue(t, blocks, actBits), "bits")
	golden(t, "button_bits8", bits)
	usd := click("U1", actCurrency, buttonValue(t, blocksOf(t, bits), actCurrency), "usd")
	var m map[string]any
	json.Unmarshal(usd, &m)
	if m["replace_original"] != true || !strings.Contains(m["text"].(string), "$1.10/h") {
		t.Errorf("currency click answered %v", m)
	}
	// The variants were asked once, with the question; the clicks asked nothing.
	if got := h.bot.Asked(); strings.Join(got, "|") != "fit 13b ctx=8k" {
		t.Errorf("bot asked %q, want only the question", got)
	}
	want := []string{"fit 13b ctx=8k currency=usd", "fit 13b ctx=8k bits=8", "fit 13b ctx=8k bits=8 currency=usd"}
	if got := h.bot.Variants(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("variants asked %q, want %q", got, want)
	}
}

// TestAnotherMembersClickGetsAPrivateCopy: only the asker's click replaces
// the answer; anyone else gets the changed answer for themselves.
func TestAnotherMembersClickGetsAPrivateCopy(t *testing.T) {
	h := newHarness(t, nil)
	h.event(t, "Ev1", bottest.Mention("C1", "U1", "1.000001", "<@UBOT> fit 13b"))
	post := h.slack.WaitCalls(t, "chat.postMessage", 1)[0]
	value := buttonValue(t, []byte(post.Form.Get("blocks")), actCurrency)
	payload := bottest.BlockAction("C1", "U2", "1.5", actCurrency, value, h.slack.ResponseURL("u2"), "trig-u2")
	h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(payload))
	got := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0].JSON(t)
	if got["replace_original"] == true || got["response_type"] != "ephemeral" {
		t.Errorf("U2's click on U1's answer: %v; want an ephemeral copy, the original untouched", got)
	}
	if n := len(h.slack.Calls("chat.update")); n != 0 {
		t.Errorf("%d chat.update calls; the shared answer must not change", n)
	}
}

func TestForgedButtonValuesAreRefused(t *testing.T) {
	h := newHarness(t, nil)
	for i, v := range []string{`not json`, `{"q":""}`, `{"q":"fit 13b","o":{"gpu":"h100"}}`, `{"q":"fit 13b","v":"admin"}`} {
		payload := bottest.BlockAction("C1", "U2", "1.1", actBits, v, h.slack.ResponseURL("x"), "trig"+strconv.Itoa(i))
		h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(payload))
	}
	h.settle()
	if n := len(h.slack.Calls("")); n != 0 || len(h.bot.Asked()) != 0 {
		t.Errorf("%d Slack calls, asked %q; want nothing", n, h.bot.Asked())
	}
}

func TestPanickingAnswerIsLoggedAndTheAppCarriesOn(t *testing.T) {
	fb := &fakeBot{}
	fb.answer = func(ctx context.Context, m bot.Message) bot.Answer {
		if strings.Contains(m.Text, "boom") {
			panic("boom")
		}
		return cannedAnswer(m)
	}
	h := newHarness(t, fb)
	h.slash(t, "boom 13b", "boom", "t1")
	h.settle()
	if !strings.Contains(h.logs.String(), "handler panicked") {
		t.Errorf("no panic in the log:\n%s", h.logs.String())
	}
	h.slash(t, "fit 13b lora", "after", "t2")
	h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)
}
