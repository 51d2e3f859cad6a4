package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/gpubot/gpubot/bot/bottest"
	budgets "github.com/gpubot/gpubot/bot/budget"
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

// Any member could turn a channel's unprompted answers on or off, or
// acknowledge a budget alert for everyone. Now only workspace admins and
// owners (users.info) and BOT_ADMINS can, and the channel is told who did.
func TestListenAndAcknowledgeNeedAnAdmin(t *testing.T) {
	h := newHarness(t, nil)
	h.app.cfg.Users, h.app.cfg.Admins = h.api, []string{"U3"}
	acked := 0
	h.app.cfg.Acknowledge = func(context.Context, string, string, string) error { acked++; return nil }
	h.slack.SetAdmin("U2")
	listen := func(user, name string) map[string]any {
		h.send(t, "/slack/commands", formType, bottest.SlashForm("listen on", "C1", user, h.slack.ResponseURL(name), "t-"+name))
		h.settle()
		calls := h.slack.Calls(bottest.ResponseURLMethod)
		return calls[len(calls)-1].JSON(t)
	}
	if got := listen("U1", "member"); got["response_type"] != "ephemeral" || !strings.Contains(got["text"].(string), "Only workspace admins") {
		t.Errorf("a member's listen on: %v, want refused", got)
	}
	if on, _ := h.app.listening(context.Background(), bottest.TeamID, "C1"); on {
		t.Fatal("a member turned unprompted answers on")
	}
	for _, admin := range []string{"U2", "U3"} {
		got := listen(admin, admin)
		if got["response_type"] != "in_channel" || !strings.Contains(got["text"].(string), "(changed by <@"+admin+">)") {
			t.Errorf("%s's listen on: %v, want it done and the channel told who", admin, got)
		}
	}
	click := func(user, trig string) {
		p := bottest.BlockAction("C1", user, "1.5", budgets.AckAction, "alert-1", h.slack.ResponseURL("ack-"+user), trig)
		h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(p))
		h.settle()
	}
	click("U1", "a1")
	if acked != 0 {
		t.Errorf("a member's click acknowledged the alert")
	}
	click("U2", "a2")
	if acked != 1 {
		t.Errorf("an admin's click: %d acknowledgements, want 1", acked)
	}
}

// Text cut at Slack's 3,000 characters after escaping could end inside an
// "&amp;" ("…&am…"). A cut never splits an entity, wherever it falls.
func TestCuttingNeverSplitsAnEntity(t *testing.T) {
	for pad := 2990; pad <= 3000; pad++ {
		s := strings.Repeat("a", pad) + "R&D <x> R&D"
		got := mrkdwn(escape(s)).Text
		if n := len([]rune(got)); n > 3000 {
			t.Errorf("pad %d: %d characters, Slack takes 3,000", pad, n)
		}
		body := strings.TrimSuffix(got, "…")
		if i := strings.LastIndex(body, "&"); i >= 0 && !strings.Contains(body[i:], ";") {
			t.Errorf("pad %d: the cut ends inside an entity: %q", pad, got[len(got)-12:])
		}
	}
}

// Slack refreshes every Socket Mode connection every few hours: a
// disconnect envelope, then the socket closes. slack-go (v0.35) handles the
// envelope itself and only tells the app that it is connecting again; the
// app logs that, and the reconnection, at INFO, and nothing above INFO.
func TestRoutineSocketRefreshIsNotAWarning(t *testing.T) {
	h := newHarness(t, nil)
	sock := runSocket(t, h)
	sock.SendRaw(t, map[string]any{"type": "disconnect", "reason": "refresh_requested", "debug_info": map[string]any{"host": "fake"}})
	sock.Close()
	again := h.slack.Socket(t) // the app reconnected
	again.Send(t, "events_api", "env-1", json.RawMessage(bottest.EventCallback("Ev1", bottest.Msg("D1", "im", "U1", "1.000001", "fit 13b lora"))))
	again.WaitAck(t, "env-1")
	h.settle()
	logs := h.logs.String()
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
			t.Errorf("routine refresh logged: %s", line)
		}
	}
	for _, want := range []string{
		`level=INFO msg="connected to Slack over Socket Mode"`,
		`level=INFO msg="socket mode connection ended; reconnecting (Slack refreshes connections every few hours)"`,
		`level=INFO msg="reconnected to Slack over Socket Mode"`,
	} {
		if strings.Count(logs, want) != 1 {
			t.Errorf("want one line %s in:\n%s", want, logs)
		}
	}
}

// What a refresh can surface besides, in the order slack-go sends it: the
// read pending on the old socket fails with the client's own close
// (net.ErrClosed), an ack written as it closes fails, the first attempt to
// reconnect may fail. All INFO. The same errors on a live connection, a
// close by the network, and a reconnection still failing on its third
// attempt are WARN.
func TestSocketErrorsDuringARefreshAreInfo(t *testing.T) {
	h := newHarness(t, nil)
	ctx := context.Background()
	closed := fmt.Errorf("read tcp 127.0.0.1:1->127.0.0.1:2: %w", net.ErrClosed)
	dropped := errors.New("websocket: close 1006 (abnormal closure): unexpected EOF")
	send := func(typ socketmode.EventType, data any) {
		h.app.socketEvent(ctx, nil, socketmode.Event{Type: typ, Data: data})
	}
	level := func(msg string) string {
		t.Helper()
		lines := strings.Split(strings.TrimSpace(h.logs.String()), "\n")
		last := lines[len(lines)-1]
		if !strings.Contains(last, msg) {
			t.Fatalf("last log line %q, want %q", last, msg)
		}
		return last[strings.Index(last, "level=")+6 : strings.Index(last, " msg=")]
	}
	send(socketmode.EventTypeConnected, nil)
	send(socketmode.EventTypeIncomingError, &slack.IncomingEventError{ErrorObj: dropped})
	if got := level("socket mode I/O error"); got != "WARN" {
		t.Errorf("the network closing a live connection logged at %s, want WARN", got)
	}
	// The refresh.
	send(socketmode.EventTypeIncomingError, &slack.IncomingEventError{ErrorObj: closed})
	if got := level("socket mode I/O error"); got != "INFO" {
		t.Errorf("the old socket's own close logged at %s, want INFO", got)
	}
	send(socketmode.EventTypeErrorWriteFailed, &socketmode.ErrorWriteFailed{Cause: closed})
	if got := level("socket mode I/O error"); got != "INFO" {
		t.Errorf("an ack on the closing socket logged at %s, want INFO", got)
	}
	send(socketmode.EventTypeConnecting, nil)
	if got := level("reconnecting"); got != "INFO" {
		t.Errorf("reconnecting logged at %s, want INFO", got)
	}
	send(socketmode.EventTypeConnectionError, &slack.ConnectionErrorEvent{Attempt: 1, ErrorObj: dropped})
	if got := level("socket mode connection failed"); got != "INFO" {
		t.Errorf("a first failed reconnect during a refresh logged at %s, want INFO", got)
	}
	send(socketmode.EventTypeConnectionError, &slack.ConnectionErrorEvent{Attempt: 3, ErrorObj: dropped})
	if got := level("socket mode connection failed"); got != "WARN" {
		t.Errorf("a third failed reconnect logged at %s, want WARN", got)
	}
	send(socketmode.EventTypeConnected, nil)
	if got := level("reconnected to Slack"); got != "INFO" {
		t.Errorf("the reconnection logged at %s, want INFO", got)
	}
	send(socketmode.EventTypeConnectionError, &slack.ConnectionErrorEvent{Attempt: 1, ErrorObj: dropped})
	if got := level("socket mode connection failed"); got != "WARN" {
		t.Errorf("a connection error with no refresh under way logged at %s, want WARN", got)
	}
}

// A mention gets 👀 while it is answered, taken off once the answer is
// out; a DM gets none. Over Socket Mode as over HTTP.
func TestMentionShowsItIsBeingAnswered(t *testing.T) {
	h := newHarness(t, nil)
	h.app.cfg.Reactions = h.api
	h.event(t, "Ev1", bottest.Mention("C1", "U1", "1.000001", "<@UBOT> fit 13b lora"))
	sock := runSocket(t, h)
	sock.Send(t, "events_api", "env-1", json.RawMessage(bottest.EventCallback("Ev2", bottest.Msg("D1", "im", "U1", "2.000001", "fit 13b lora"))))
	sock.WaitAck(t, "env-1")
	h.settle()
	added, removed := h.slack.Calls("reactions.add"), h.slack.Calls("reactions.remove")
	if len(added) != 1 || len(removed) != 1 {
		t.Fatalf("reactions added %d, removed %d; want 👀 on the mention only, then off", len(added), len(removed))
	}
	if f := added[0].Form; f.Get("name") != "eyes" || f.Get("channel") != "C1" || f.Get("timestamp") != "1.000001" {
		t.Errorf("reaction %v, want eyes on C1 1.000001", f)
	}
	// off only after the answer went out
	var order []string
	for _, c := range h.slack.Calls("") {
		if c.Method == "reactions.add" || c.Method == "reactions.remove" || (c.Method == "chat.postMessage" && c.Form.Get("channel") == "C1") {
			order = append(order, c.Method)
		}
	}
	if strings.Join(order, ",") != "reactions.add,chat.postMessage,reactions.remove" {
		t.Errorf("calls %v, want the reaction on, the answer, the reaction off", order)
	}
}
