package bot

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// A redelivered Slack message (same Message.ID) books nothing new and says so.
func TestSpendRedeliveryBooksOnce(t *testing.T) {
	b, _ := spendBot(t)
	m := Message{Text: "/gpu spend add 8x h100 24h ¥2400 project=pretrain", Team: "T1", Channel: "C1", User: "U1", ID: "msg:C1:1733.0001"}
	first := b.Answer(context.Background(), m)
	again := b.Answer(context.Background(), m)
	if first.Err != "" || again.Err != "" {
		t.Fatalf("answers: %q / %q", first.Text, again.Text)
	}
	if !strings.Contains(again.Text, "Already saved") {
		t.Errorf("redelivery reply = %q, want it to say it was already saved", again.Text)
	}
	r := say(b, "U1", "/gpu spend report 2026-10")
	if rep := r.Result.(*ledger.Report); rep.Total.Entries != 1 || rep.Total.Amount.String() != "¥2,400.00" {
		t.Errorf("after a redelivery: %d entries, %s; want 1, ¥2,400.00", rep.Total.Entries, rep.Total.Amount)
	}
}

// blackHole accepts connections and never answers: a stalled Redis.
func blackHole(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return ln.Addr().String()
}

// When Redis stalls the user was told "NOT saved … please try again" although
// the write landed later. Now an unconfirmed write is never called "not
// saved": the answer says it is checking, asks not to resend, and the
// outcome is counted as unconfirmed.
func TestSpendStalledWriteSaysChecking(t *testing.T) {
	st := &store.Store{Redis: redis.NewClient(&redis.Options{Addr: blackHole(t), ReadTimeout: 100 * time.Millisecond,
		WriteTimeout: 100 * time.Millisecond, MaxRetries: -1, DialTimeout: 100 * time.Millisecond})}
	t.Cleanup(func() { st.Redis.Close() })
	now := func() time.Time { return time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC) }
	kb := knowledge.MustShipped()
	sp := NewSpend(ledger.New(st, ledger.Options{KB: kb, Now: now}), nil, 7.2, now)
	sp.settleWithin, sp.settleLater = 300*time.Millisecond, 300*time.Millisecond
	var mu sync.Mutex
	var outcomes []string
	sp.ObserveWrites(func(o string) { mu.Lock(); outcomes = append(outcomes, o); mu.Unlock() })
	b := New(Config{FX: 7.2}, kb, nil)
	b.SetClock(now)
	b.Route(parse.Spend, sp)
	a := b.Answer(context.Background(), Message{Text: "/gpu spend add 8x h100 24h ¥2400", Team: "T1", Channel: "C1", User: "U1", ID: "msg:C1:1"})
	if strings.Contains(a.Text, "NOT saved") || !strings.Contains(a.Text, "Checking") || !strings.Contains(a.Text, "Don't send it again") {
		t.Errorf("stalled write reply = %q; want checking, never NOT saved", a.Text)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(outcomes) == 0 || outcomes[0] != WriteUnconfirmed {
		t.Errorf("write outcomes = %v, want %s first", outcomes, WriteUnconfirmed)
	}
}

// lostReply applies the first ledger script and then reports a timeout, as
// when Redis executed a write but its reply never arrived.
type lostReply struct{ done bool }

func (h *lostReply) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *lostReply) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (h *lostReply) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		if n := cmd.Name(); !h.done && err == nil && (n == "evalsha" || n == "eval") {
			h.done = true
			lost := &net.OpError{Op: "read", Net: "tcp", Err: timeoutErr{}}
			cmd.SetErr(lost)
			return lost
		}
		return err
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string { return "i/o timeout" }
func (timeoutErr) Timeout() bool { return true }

// A write whose reply was lost, still unknown when the answer goes out:
// the asker is told "checking", and then, once the bot has settled it, that
// it was saved once.
func TestSpendReportsTheSettledOutcome(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	rdb.AddHook(&lostReply{})
	t.Cleanup(func() { rdb.Close() })
	now := func() time.Time { return time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC) }
	kb := knowledge.MustShipped()
	sp := NewSpend(ledger.New(&store.Store{Redis: rdb}, ledger.Options{KB: kb, Now: now}), nil, 7.2, now)
	sp.settleWithin, sp.settleLater = 0, 5*time.Second
	told := make(chan string, 1)
	sp.Notify(func(_ context.Context, channel, user, text string) error {
		told <- channel + " " + user + " " + text
		return nil
	})
	b := New(Config{FX: 7.2}, kb, nil)
	b.SetClock(now)
	b.Route(parse.Spend, sp)
	a := b.Answer(context.Background(), Message{Text: "/gpu spend add 8x h100 24h ¥2400", Team: "T1", Channel: "C1", User: "U1", ID: "msg:C1:2"})
	if !strings.Contains(a.Text, "Checking") {
		t.Fatalf("answer = %q, want checking", a.Text)
	}
	select {
	case msg := <-told:
		if !strings.HasPrefix(msg, "C1 U1 ✅ Checked: your spend entry was saved once") {
			t.Errorf("follow-up = %q", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the settled outcome was never reported")
	}
}

// A redelivered undo (same Message.ID) removes one entry, not two, and
// says it was already done.
func TestSpendUndoRedeliveryRemovesOnce(t *testing.T) {
	b, _ := spendBot(t)
	for i, text := range []string{"/gpu spend add 40h 4090 @autodl ¥75 project=a", "/gpu spend add 20h 4090 @autodl ¥38 project=b"} {
		if a := b.Answer(context.Background(), Message{Text: text, Team: "T1", Channel: "C1", User: "U1", ID: "msg:C1:" + string(rune('1'+i))}); a.Err != "" {
			t.Fatalf("add: %q", a.Text)
		}
	}
	undo := Message{Text: "/gpu spend undo", Team: "T1", Channel: "C1", User: "U1", ID: "msg:C1:9"}
	first := b.Answer(context.Background(), undo)
	again := b.Answer(context.Background(), undo)
	if first.Err != "" || !strings.Contains(first.Text, "¥38") || strings.Contains(first.Text, "Already done") {
		t.Errorf("undo reply = %q; want the ¥38 entry removed", first.Text)
	}
	if again.Err != "" || !strings.Contains(again.Text, "Already done") || !strings.Contains(again.Text, "¥38") {
		t.Errorf("redelivered undo reply = %q; want already done, the same ¥38 entry", again.Text)
	}
	r := say(b, "U1", "/gpu spend report 2026-10")
	if rep := r.Result.(*ledger.Report); rep.Total.Entries != 1 || rep.Total.Amount.String() != "¥75.00" {
		t.Errorf("after one undo delivered twice: %d entries, %s; want 1, ¥75.00", rep.Total.Entries, rep.Total.Amount)
	}
}
