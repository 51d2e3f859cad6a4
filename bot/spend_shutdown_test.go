package bot

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// TestShutdownTellsEveryPendingSettlement is the red-team run of issue #28
// item 7: writes wait on a stalled Redis, their askers are told "⏳
// Checking… don't send it again", and the bot gets SIGTERM. Before, the
// background checks died with the process: 15 users never told, nothing
// logged. Now Shutdown ends them, tells each asker (in their own channel,
// privately) that the bot is restarting and how to check, logs each, and
// returns promptly.
func TestShutdownTellsEveryPendingSettlement(t *testing.T) {
	if testing.Short() {
		t.Skip("a red-team run against a stalled Redis (~5 s); make test runs it")
	}
	st := &store.Store{Redis: redis.NewClient(&redis.Options{Addr: blackHole(t), ReadTimeout: 100 * time.Millisecond,
		WriteTimeout: 100 * time.Millisecond, MaxRetries: -1, DialTimeout: 100 * time.Millisecond, ContextTimeoutEnabled: true})}
	t.Cleanup(func() { st.Redis.Close() })
	now := func() time.Time { return time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC) }
	kb := knowledge.MustShipped()
	sp := NewSpend(ledger.New(st, ledger.Options{KB: kb, Now: now}), nil, 7.2, now)
	sp.settleWithin, sp.settleLater = 100*time.Millisecond, time.Hour // still checking at shutdown
	var logs bytes.Buffer
	var logMu sync.Mutex
	sp.Log(slog.New(slog.NewTextHandler(lockedWriter{&logs, &logMu}, nil)))
	var mu sync.Mutex
	told := map[string]string{} // user → message
	sp.Notify(func(_ context.Context, channel, user, text string) error {
		mu.Lock()
		defer mu.Unlock()
		told[channel+" "+user] = text
		return nil
	})
	b := New(Config{FX: 7.2}, kb, nil)
	b.SetClock(now)
	b.Route(parse.Spend, sp)
	const pending = 15
	for i := range pending {
		user := "U" + string(rune('A'+i))
		a := b.Answer(context.Background(), Message{Text: "/gpu spend add 8x h100 24h ¥2400", Team: "T1", Channel: "C1", User: user, ID: "msg:C1:" + user})
		if !strings.Contains(a.Text, "Don't send it again") {
			t.Fatalf("%s: answer %q, want the checking reply", user, a.Text)
		}
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := sp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Shutdown took %v with %d writes pending, want well under the 10 s the server allows", took.Round(time.Millisecond), pending)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(told) != pending {
		t.Errorf("%d of %d askers told at shutdown: %v", len(told), pending, told)
	}
	for who, text := range told {
		if !strings.Contains(text, "restarting") || !strings.Contains(text, "/gpu spend list") || !strings.Contains(text, "at most once") {
			t.Errorf("%s was told %q, want: restarting, booked at most once, check /gpu spend list", who, text)
		}
	}
	logMu.Lock()
	defer logMu.Unlock()
	if n := strings.Count(logs.String(), "still unsettled at shutdown"); n != pending {
		t.Errorf("%d shutdown log lines, want %d:\n%s", n, pending, logs.String())
	}
}

type lockedWriter struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}
