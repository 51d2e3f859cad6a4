package transport

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/slackpost"
)

// fullHarness is the app with one worker and a queue of one, both taken by
// a gated answer, so the next request finds no room.
func fullHarness(t *testing.T) (*harness, *gatedBot) {
	t.Helper()
	g := &gatedBot{gate: make(chan struct{})}
	h := &harness{slack: bottest.NewSlack(t), logs: &syncBuffer{}, bot: &g.fakeBot}
	h.mini = miniredis.RunT(t)
	h.rdb = redis.NewClient(&redis.Options{Addr: h.mini.Addr()})
	t.Cleanup(func() { h.rdb.Close() })
	h.api = slack.New("xoxb-test", slack.OptionAPIURL(h.slack.APIURL()), slack.OptionAppLevelToken("xapp-test"))
	log := slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	poster := slackpost.New(h.api, h.rdb, slackpost.Options{Pace: -1, Log: log})
	h.app = New(Config{SigningSecret: secret, BotUserID: bottest.BotUserID, BotID: bottest.BotID, Workers: 1, Queue: 1}, g, h.rdb, poster, log)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.app.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	t.Cleanup(func() { close(g.gate) }) // runs first: let the gated answers end
	h.srv = httptest.NewServer(h.app.Handler())
	t.Cleanup(h.srv.Close)
	// One answer running, one queued: full.
	h.slash(t, "fit 13b lora", "busy1", "trig-busy-1")
	g.waitStarted(t)
	h.slash(t, "fit 13b lora", "busy2", "trig-busy-2")
	return h, g
}

// TestFullQueueIsNeverAckedAndDropped: with no room left, an HTTP click
// gets 503 (not a 200 for work that will never happen), and over Socket
// Mode an event or a click is left unacked so that Slack delivers it
// again; a slash command is acked with "swamped" so the asker knows.
func TestFullQueueIsNeverAckedAndDropped(t *testing.T) {
	h, _ := fullHarness(t)
	click := bottest.InteractiveForm(bottest.BlockAction("C1", "U1", "1.1", actBits, `{"q":"fit 13b lora"}`, h.slack.ResponseURL("click"), "trig-click"))
	if got := h.send(t, "/slack/interactive", formType, click); got.status != http.StatusServiceUnavailable {
		t.Errorf("click with the queue full: %d, want 503", got.status)
	}

	sock := runSocket(t, h)
	mention := bottest.EventCallback("EvFull", bottest.Mention("C1", "U1", "1700000000.000100", "<@UBOT> fit 13b lora"))
	sock.Send(t, "events_api", "env-full-event", json.RawMessage(mention))
	sock.Send(t, "interactive", "env-full-click", bottest.BlockAction("C1", "U2", "1.5", actBits, `{"q":"fit 13b lora"}`, h.slack.ResponseURL("c2"), "trig-c2"))
	sock.Send(t, "slash_commands", "env-full-slash", bottest.SlashPayload("fit 13b lora", "C1", "U1", h.slack.ResponseURL("s"), "trig-s"))
	if a := sock.WaitAck(t, "env-full-slash"); !json.Valid(a.Payload) || !strings.Contains(string(a.Payload), "swamped") {
		t.Errorf("slash ack with the queue full: %s, want the swamped note", a.Payload)
	}
	// Envelopes are handled in order: by the slash ack, the other two are done.
	for _, a := range sock.Acks() {
		if a.EnvelopeID == "env-full-event" || a.EnvelopeID == "env-full-click" {
			t.Errorf("%s was acked with the queue full; it would be lost", a.EnvelopeID)
		}
	}
}
