package transport

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/slackpost"
)

// A user's first DM gets a short welcome with three example questions,
// before the answer, in the asker's language; later DMs, mentions and a
// restarted bot on the same store do not welcome them again. Over HTTP
// and Socket Mode, against the strict fake.
func TestFirstDMGetsAWelcomeOnce(t *testing.T) {
	h := newHarness(t, nil)
	h.app.cfg.Welcome = true
	dmTexts := func(ch string) []string {
		var out []string
		for _, c := range h.slack.Calls("chat.postMessage") {
			if c.Form.Get("channel") == ch {
				out = append(out, c.Form.Get("text"))
			}
		}
		return out
	}
	h.event(t, "Ev1", bottest.Msg("D1", "im", "U1", "1.000001", "fit 13b lora"))
	h.settle()
	h.event(t, "Ev2", bottest.Msg("D1", "im", "U1", "1.000002", "fit 13b"))
	h.event(t, "Ev3", bottest.Mention("C1", "U1", "1.000003", "<@UBOT> fit 13b"))
	h.settle()
	got := dmTexts("D1")
	if len(got) != 3 || !strings.HasPrefix(got[0], "👋 Welcome!") || !strings.HasPrefix(got[1], "13B LoRA") || !strings.HasPrefix(got[2], "13B inference") {
		t.Fatalf("DM posts %q, want the welcome, then the two answers", got)
	}
	// Three example questions, one a line.
	if n := strings.Count(got[0], "\n• "); n != 3 {
		t.Errorf("welcome has %d examples, want 3:\n%s", n, got[0])
	}
	if c := h.slack.Calls("chat.postMessage"); strings.Contains(c[len(c)-1].Form.Get("text"), "Welcome") {
		t.Errorf("a mention got a welcome")
	}
	if ttl := h.mini.TTL(welcomeKey(bottest.TeamID, "U1")); ttl != 0 || !h.mini.Exists(welcomeKey(bottest.TeamID, "U1")) {
		t.Errorf("welcome mark TTL %v, exists %v; want it kept for good", ttl, h.mini.Exists(welcomeKey(bottest.TeamID, "U1")))
	}
	if h.persisted.Load() == 0 {
		t.Error("the welcome mark was not persisted (embedded mode would forget it on restart)")
	}

	// A Chinese speaker's first DM over Socket Mode; "你好" alone gets the
	// welcome and nothing else.
	sock := runSocket(t, h)
	sock.Send(t, "events_api", "env-1", json.RawMessage(bottest.EventCallback("Ev4", bottest.Msg("D2", "im", "U2", "2.000001", "你好"))))
	sock.WaitAck(t, "env-1")
	h.settle()
	if got := dmTexts("D2"); len(got) != 1 || !strings.HasPrefix(got[0], "👋 你好！") || strings.Count(got[0], "\n• ") != 3 {
		t.Errorf("first DM 你好: posts %q, want the Chinese welcome alone", got)
	}

	// The same store after a restart: no second welcome.
	log := slog.New(slog.DiscardHandler)
	app2 := New(Config{SigningSecret: secret, BotUserID: bottest.BotUserID, Welcome: true}, h.bot, h.rdb,
		slackpost.New(h.api, h.rdb, slackpost.Options{Pace: -1, Log: log}), log)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { app2.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	app2.event(bottest.EventCallback("Ev5", bottest.Msg("D1", "im", "U1", "3.000001", "fit 13b lora")))
	app2.inflight.Wait()
	if got := dmTexts("D1"); len(got) != 4 || strings.Contains(got[3], "Welcome") {
		t.Errorf("after a restart DM posts %q, want one more answer and no welcome", got)
	}
}
