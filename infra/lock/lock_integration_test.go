package lock_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/infra/lock"
)

func TestIntegrationContendersAndExpiry(t *testing.T) {
	rdb, prefix := bottest.RealRedis(t) // deletes prefix* when the test ends
	ctx := context.Background()

	var wins atomic.Int32
	var wg sync.WaitGroup
	locks := make(chan *lock.Lock, 8)
	for range 8 {
		wg.Go(func() {
			l, err := lock.Acquire(ctx, rdb, prefix, "race", 200*time.Millisecond)
			if err == nil {
				wins.Add(1)
				locks <- l
			} else if !errors.Is(err, lock.ErrNotAcquired) {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d winners, want 1", wins.Load())
	}
	first := <-locks
	deadline := time.Now().Add(5 * time.Second)
	var second *lock.Lock
	for second == nil && time.Now().Before(deadline) {
		second, _ = lock.Acquire(ctx, rdb, prefix, "race", time.Second)
		if second == nil {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if second == nil || second.Fence() <= first.Fence() {
		t.Fatalf("after expiry: %v", second)
	}
	if err := first.Release(ctx); !errors.Is(err, lock.ErrNotHeld) {
		t.Errorf("old holder release = %v", err)
	}
	if err := second.Release(ctx); err != nil {
		t.Error(err)
	}
}
