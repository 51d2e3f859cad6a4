package transport

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/slack-go/slack/socketmode"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
)

// runSocket connects the app to the fake Slack over Socket Mode and returns
// the server's end of the connection.
func runSocket(t *testing.T, h *harness) *bottest.Socket {
	t.Helper()
	sm := socketmode.New(h.api)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.app.RunSocket(ctx, sm) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("RunSocket: %v", err)
		}
	})
	return h.slack.Socket(t)
}

func TestSocketModeAcksEveryEnvelopeAndAnswers(t *testing.T) {
	h := newHarness(t, nil)
	sock := runSocket(t, h)
	if n := len(h.slack.Calls("apps.connections.open")); n != 1 {
		t.Fatalf("apps.connections.open called %d times", n)
	}

	sock.Send(t, "slash_commands", "env-slash", bottest.SlashPayload("fit 13b lora", "C1", "U1", h.slack.ResponseURL("slash"), "trig-1"))
	a := sock.WaitAck(t, "env-slash")
	golden(t, "slash_ack", a.Payload) // the same note as over HTTP
	golden(t, "slash_fit_private", h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0].Body)

	mention := bottest.EventCallback("Ev1", bottest.Mention("C1", "U1", "1700000000.000100", "<@UBOT> fit 13b lora"))
	sock.Send(t, "events_api", "env-event", json.RawMessage(mention))
	if a := sock.WaitAck(t, "env-event"); len(a.Payload) != 0 {
		t.Errorf("events_api ack carries %s, want none", a.Payload)
	}
	posted := h.slack.WaitCalls(t, "chat.postMessage", 1)
	golden(t, "mention_thread_reply", formJSON(t, posted[0].Form))

	// Slack redelivers the envelope (new envelope id, same event id).
	sock.SendRaw(t, map[string]any{"type": "events_api", "envelope_id": "env-again", "payload": json.RawMessage(mention),
		"accepts_response_payload": false, "retry_attempt": 1, "retry_reason": "timeout"})
	sock.WaitAck(t, "env-again")

	value := buttonValue(t, blocksOf(t, h.slack.Calls(bottest.ResponseURLMethod)[0].Body), actWorking)
	sock.Send(t, "interactive", "env-click", bottest.BlockAction("C1", "U2", "1.5", actWorking, value, h.slack.ResponseURL("click"), "trig-2"))
	sock.WaitAck(t, "env-click")
	golden(t, "socket_button_working", h.slack.WaitCalls(t, bottest.ResponseURLMethod, 2)[1].Body)

	// An envelope the library cannot parse is acked too, so Slack stops resending it.
	odd := bottest.EventCallback("Ev9", map[string]any{"type": "event_type_from_the_future"})
	sock.Send(t, "events_api", "env-odd", json.RawMessage(odd))
	sock.WaitAck(t, "env-odd")

	h.settle()
	if n := len(h.slack.Calls("chat.postMessage")); n != 1 {
		t.Errorf("chat.postMessage called %d times, want 1 despite the redelivery", n)
	}
}

func TestSocketModeAcksBeforeSlowAnswers(t *testing.T) {
	slow := newSlowBot()
	h := newHarness(t, slow)
	sock := runSocket(t, h)

	sock.Send(t, "slash_commands", "e1", bottest.SlashPayload("fit 13b lora", "C1", "U1", h.slack.ResponseURL("s"), "t1"))
	sock.Send(t, "events_api", "e2", json.RawMessage(bottest.EventCallback("Ev1", bottest.Mention("C1", "U1", "1.000001", "<@UBOT> fit 13b lora"))))
	sock.Send(t, "events_api", "e3", json.RawMessage(bottest.EventCallback("Ev2", bottest.Msg("D1", "im", "U1", "1.000002", "fit 13b lora"))))
	for _, id := range []string{"e1", "e2", "e3"} {
		sock.WaitAck(t, id)
	}
	if slow.answered() {
		t.Fatal("an answer finished before the acks; the test proves nothing")
	}
	close(slow.release)
	h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)
	h.slack.WaitCalls(t, "chat.postMessage", 2)
}

func TestSocketModeSurvivesAPanickingHandler(t *testing.T) {
	fb := &fakeBot{}
	fb.answer = func(ctx context.Context, m bot.Message) bot.Answer {
		if strings.Contains(m.Text, "boom") {
			panic("boom")
		}
		return cannedAnswer(m)
	}
	h := newHarness(t, fb)
	sock := runSocket(t, h)
	sock.Send(t, "slash_commands", "e1", bottest.SlashPayload("boom", "C1", "U1", h.slack.ResponseURL("boom"), "t1"))
	sock.WaitAck(t, "e1")
	sock.Send(t, "slash_commands", "e2", bottest.SlashPayload("fit 13b lora", "C1", "U1", h.slack.ResponseURL("ok"), "t2"))
	sock.WaitAck(t, "e2")
	h.settle()
	// The panicking command's asker is told (TestAPanicTellsTheAsker);
	// the next command is answered as usual.
	got := map[string]string{}
	for _, c := range h.slack.WaitCalls(t, bottest.ResponseURLMethod, 2) {
		got[c.Path], _ = c.JSON(t)["text"].(string)
	}
	if !strings.HasPrefix(got["/response/boom"], "Something broke on our side") || !strings.Contains(got["/response/ok"], "13B") {
		t.Errorf("answers %q; want the crash told and the next command answered", got)
	}
	if !strings.Contains(h.logs.String(), "handler panicked") {
		t.Errorf("panic not logged:\n%s", h.logs.String())
	}
}
