package ledger

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/store"

	"github.com/gpubot/gpubot/bot/bottest"
)

// These run the suites against a real redis-server at REDIS_URL (make test
// starts one) and skip when it is unset. Each test uses its own team ids and
// deletes its keys afterwards.

func realStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), bottest.RealRedisURL(t))
	if err != nil {
		t.Fatalf("open REDIS_URL: %v", err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		// Only this test's teams: team() ids are random, keys carry {team}.
		iter := st.Redis.Scan(ctx, 0, "gpubot:ledger:{T*}:*", 1000).Iterator()
		mine := map[string]bool{}
		for _, tm := range teamsOf(t) {
			mine[tm] = true
		}
		for iter.Next(ctx) {
			k := iter.Val()
			if tm := teamOfKey(k); mine[tm] {
				st.Redis.Del(ctx, k)
			}
		}
		st.Close()
	})
	return st
}

func TestRealRedisCRUD(t *testing.T)           { suiteCRUD(t, realStore) }
func TestRealRedisAddRejects(t *testing.T)     { suiteAddRejects(t, realStore) }
func TestRealRedisMonthBoundary(t *testing.T)  { suiteMonthBoundary(t, realStore) }
func TestRealRedisSampleBill(t *testing.T)     { suiteSampleBill(t, realStore) }
func TestRealRedisConcurrentAdds(t *testing.T) { suiteConcurrentAdds(t, realStore) }
func TestRealRedisKeys(t *testing.T)           { suiteKeys(t, realStore) }

// TestRealRedisDown stops a redis-server of its own (REDIS_SERVER_BIN, set by
// scripts/with-redis.sh) under a ledger: writes are refused with ErrNotSaved,
// and what was confirmed before is there after it comes back.
func TestRealRedisDown(t *testing.T) {
	realStore(t) // skip unless make test
	bin := os.Getenv("REDIS_SERVER_BIN")
	if bin == "" {
		if p, err := exec.LookPath("redis-server"); err == nil {
			bin = p
		} else {
			t.Skip("no redis-server binary")
		}
	}
	ctx := context.Background()
	dir := t.TempDir()
	port := freePort(t)
	start := func() *exec.Cmd {
		cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", strconv.Itoa(port), "--dir", dir,
			"--appendonly", "yes", "--appendfsync", "always", "--save", "")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitRedis(t, port)
		return cmd
	}
	stop := func(cmd *exec.Cmd) {
		cmd.Process.Kill()
		cmd.Wait()
	}
	srv := start()
	defer func() { stop(srv) }()

	st := &store.Store{Redis: redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port), MaxRetries: -1, DialTimeout: time.Second, DialerRetries: 1, DialerRetryTimeout: time.Millisecond})}
	defer st.Redis.Close()
	l, _ := newLedger(t, st)
	tm := team(t)
	kept := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: cny(188)})

	stop(srv) // killed: only the AOF (appendfsync always) keeps the entry
	if _, err := l.Add(ctx, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 2, Amount: cny(376)}); !errors.Is(err, ErrNotSaved) {
		t.Errorf("Add with redis-server down err = %v, want ErrNotSaved", err)
	}
	srv = start()
	got, err := l.Get(ctx, tm, kept.ID)
	if err != nil || got.Amount != kept.Amount {
		t.Errorf("confirmed entry after a crash and restart = %+v, %v", got, err)
	}
	if all, _ := l.List(ctx, tm, Month{}, ""); len(all) != 1 {
		t.Errorf("after the outage %d entries, want 1 (the refused one is not there)", len(all))
	}
}

// TestRealRedisStall freezes a redis-server of its own (SIGSTOP) for longer
// than the client's timeout while an entry is written, the way a stalled
// Redis behaved in the kill -9 run that booked ¥2,400 twice. The write is
// unconfirmed, never "not saved"; Settle then finds out what happened once
// the server resumes, and whatever it reports, after the user acts on it
// (retrying only when told "not saved") and Slack redelivers the original
// message, the ledger holds exactly one entry: no phantom, no duplicate.
func TestRealRedisStall(t *testing.T) {
	realStore(t)
	bin := os.Getenv("REDIS_SERVER_BIN")
	if bin == "" {
		t.Skip("REDIS_SERVER_BIN not set (scripts/with-redis.sh sets it)")
	}
	ctx := context.Background()
	port := freePort(t)
	srv := exec.Command(bin, "--bind", "127.0.0.1", "--port", strconv.Itoa(port), "--dir", t.TempDir(), "--save", "", "--appendonly", "no")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Process.Signal(syscall.SIGCONT); srv.Process.Kill(); srv.Wait() }()
	waitRedis(t, port)
	st := &store.Store{Redis: redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port),
		ReadTimeout: 300 * time.Millisecond, WriteTimeout: 300 * time.Millisecond, MaxRetries: 1, DialTimeout: 300 * time.Millisecond})}
	defer st.Redis.Close()
	l, _ := newLedger(t, st)
	tm := team(t)

	told := map[string]int{}
	for round := range 4 {
		key := fmt.Sprintf("msg:C1:%d.0001", round)
		e := Entry{Team: tm, User: "U1", GPU: "h100", Cards: 8, Hours: 24, Amount: cny(240000), Key: key}
		srv.Process.Signal(syscall.SIGSTOP)
		_, err := l.Add(ctx, e)
		var un *UnconfirmedError
		if !errors.As(err, &un) || errors.Is(err, ErrNotSaved) {
			srv.Process.Signal(syscall.SIGCONT)
			t.Fatalf("round %d: Add against a frozen Redis err = %v, want unconfirmed (not \"not saved\")", round, err)
		}
		go func() {
			time.Sleep(time.Duration(500+300*round) * time.Millisecond)
			srv.Process.Signal(syscall.SIGCONT)
		}()
		sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		saved, err := l.Settle(sctx, tm, un.Key)
		cancel()
		switch {
		case err == nil:
			told["saved"]++
			if saved.Key != key {
				t.Errorf("round %d: Settle returned entry of key %q", round, saved.Key)
			}
		case errors.Is(err, ErrNotSaved):
			told["not saved"]++
			retry := e
			retry.Key = key + "-retry" // the user sends the message again: a new message
			if _, err := l.Add(ctx, retry); err != nil {
				t.Fatalf("round %d: retry after \"not saved\": %v", round, err)
			}
		default:
			t.Fatalf("round %d: Settle: %v", round, err)
		}
		// Slack redelivers the original message: it must book nothing new.
		if again, err := l.Add(ctx, e); err == nil && !again.Replayed {
			t.Errorf("round %d: redelivered message booked a new entry %s", round, again.ID)
		}
	}
	all, err := l.List(ctx, tm, Month{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 4 {
		t.Errorf("after 4 stalled writes the ledger holds %d entries, want 4 (one per request); outcomes %v", len(all), told)
	}
	t.Logf("outcomes reported: %v", told)
}

// TestRealRedisStalledRemoval pauses writes on a redis-server of its own
// (CLIENT PAUSE … WRITE: reads go on, scripts wait) for longer than the
// client's timeout while an entry is deleted or undone. The removal is
// unconfirmed, never "not saved"; SettleRemove then says what happened,
// and the ledger agrees with it: removed means gone, not saved means
// still there; a redelivery removes nothing more.
func TestRealRedisStalledRemoval(t *testing.T) {
	realStore(t)
	bin := os.Getenv("REDIS_SERVER_BIN")
	if bin == "" {
		t.Skip("REDIS_SERVER_BIN not set (scripts/with-redis.sh sets it)")
	}
	ctx := context.Background()
	port := freePort(t)
	srv := exec.Command(bin, "--bind", "127.0.0.1", "--port", strconv.Itoa(port), "--dir", t.TempDir(), "--save", "", "--appendonly", "no")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	waitRedis(t, port)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	admin := redis.NewClient(&redis.Options{Addr: addr})
	defer admin.Close()
	st := &store.Store{Redis: redis.NewClient(&redis.Options{Addr: addr,
		ReadTimeout: 300 * time.Millisecond, WriteTimeout: 300 * time.Millisecond, MaxRetries: 1, DialTimeout: 300 * time.Millisecond})}
	defer st.Redis.Close()
	l, _ := newLedger(t, st)
	tm := team(t)
	for round := range 4 {
		keep := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 10, Amount: cny(1880), Key: fmt.Sprintf("keep-%d", round)})
		target := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 20, Amount: cny(3760), Key: fmt.Sprintf("target-%d", round)})
		key := fmt.Sprintf("msg:C1:rm%d", round)
		if err := admin.Do(ctx, "CLIENT", "PAUSE", 1200+200*round, "WRITE").Err(); err != nil {
			t.Fatal(err)
		}
		var err error
		if round%2 == 0 {
			_, err = l.DeleteOnce(ctx, tm, target.ID, "U1", false, key)
		} else {
			_, err = l.UndoOnce(ctx, tm, "U1", key) // target is U1's newest
		}
		var un *UnconfirmedError
		if !errors.As(err, &un) || !un.Remove || errors.Is(err, ErrNotSaved) {
			t.Fatalf("round %d: removal with writes paused err = %v, want an unconfirmed removal", round, err)
		}
		sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		gone, err := l.SettleRemove(sctx, tm, un.Key)
		cancel()
		_, getErr := l.Get(ctx, tm, target.ID)
		switch {
		case err == nil:
			if gone.ID != target.ID || !errors.Is(getErr, ErrNotFound) {
				t.Errorf("round %d: settled as removed %s, but Get(target) = %v", round, gone.ID, getErr)
			}
		case errors.Is(err, ErrNotSaved):
			if getErr != nil {
				t.Errorf("round %d: settled as not removed, but Get(target) = %v", round, getErr)
			}
			l.Delete(ctx, tm, target.ID, "U1", false) // the user, told so, deletes it again
		default:
			t.Fatalf("round %d: SettleRemove: %v", round, err)
		}
		// Slack redelivers the original request: nothing more goes.
		l.UndoOnce(ctx, tm, "U1", key)
		if _, err := l.Get(ctx, tm, keep.ID); err != nil {
			t.Errorf("round %d: the entry nobody removed is gone: %v", round, err)
		}
	}
}
