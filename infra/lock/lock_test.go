package lock_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/gpubot/gpubot/infra/lock"
	"github.com/redis/go-redis/v9"
)

func newRedis(t *testing.T) (*miniredis.Miniredis, *redis.Client) {
	t.Helper()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	return m, rdb
}

func TestTwoContendersOneWins(t *testing.T) {
	_, rdb := newRedis(t)
	ctx := context.Background()
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		winners []*lock.Lock
		losers  int
	)
	for range 2 {
		wg.Go(func() {
			l, err := lock.Acquire(ctx, rdb, "", "catalog-refresh", time.Minute)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				winners = append(winners, l)
			case errors.Is(err, lock.ErrNotAcquired):
				losers++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if len(winners) != 1 || losers != 1 {
		t.Fatalf("winners %d, losers %d; want one of each", len(winners), losers)
	}
	if winners[0].Fence() != 1 {
		t.Errorf("first fence = %d, want 1", winners[0].Fence())
	}
}

func TestReleaseAndRenewOnlyByTheOwner(t *testing.T) {
	m, rdb := newRedis(t)
	ctx := context.Background()
	a, err := lock.Acquire(ctx, rdb, "", "daily-post", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	// B cannot take it and cannot release it: a stale holder's token is not A's.
	if _, err := lock.Acquire(ctx, rdb, "", "daily-post", time.Minute); !errors.Is(err, lock.ErrNotAcquired) {
		t.Fatalf("second acquire err = %v", err)
	}
	m.FastForward(61 * time.Second) // A's lease runs out
	b, err := lock.Acquire(ctx, rdb, "", "daily-post", time.Minute)
	if err != nil {
		t.Fatalf("after expiry the other contender must win: %v", err)
	}
	if b.Fence() <= a.Fence() {
		t.Errorf("fence %d not above the earlier %d", b.Fence(), a.Fence())
	}
	if err := a.Release(ctx); !errors.Is(err, lock.ErrNotHeld) {
		t.Errorf("release by the old holder = %v, want ErrNotHeld", err)
	}
	if err := a.Renew(ctx); !errors.Is(err, lock.ErrNotHeld) {
		t.Errorf("renew by the old holder = %v, want ErrNotHeld", err)
	}
	if v, _ := m.Get("gpubot:lock:{daily-post}"); v != b.Token() {
		t.Errorf("lock value = %q, want B's token: the non-owner touched it", v)
	}
	// B renews (full ttl again) and releases; then anyone may take it.
	m.FastForward(50 * time.Second)
	if err := b.Renew(ctx); err != nil {
		t.Fatal(err)
	}
	if ttl := m.TTL("gpubot:lock:{daily-post}"); ttl != time.Minute {
		t.Errorf("ttl after renew = %v", ttl)
	}
	if err := b.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := lock.Acquire(ctx, rdb, "", "daily-post", time.Minute); err != nil {
		t.Errorf("acquire after release: %v", err)
	}
}

func TestKeepCancelsWhenLeadershipIsLost(t *testing.T) {
	m, rdb := newRedis(t)
	l, err := lock.Acquire(context.Background(), rdb, "", "recap", 30*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	held, stop := l.Keep(context.Background())
	defer stop()
	// Renewals keep it: the key outlives several ttls of wall time.
	select {
	case <-held.Done():
		t.Fatalf("lost while held: %v", context.Cause(held))
	case <-time.After(100 * time.Millisecond):
	}
	m.Del("gpubot:lock:{recap}") // someone else's world now
	select {
	case <-held.Done():
		if !errors.Is(context.Cause(held), lock.ErrNotHeld) {
			t.Errorf("cause = %v", context.Cause(held))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Keep did not notice the lost lock")
	}
}

func TestAcquireRejectsTinyTTL(t *testing.T) {
	_, rdb := newRedis(t)
	if _, err := lock.Acquire(context.Background(), rdb, "", "x", time.Microsecond); err == nil {
		t.Error("ttl under 1 ms accepted")
	}
}
