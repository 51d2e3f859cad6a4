// Package lock is a Redis leader lock for work that must run on one replica
// at a time: the catalogue refresh, the daily price post, the monthly recap.
//
// Acquire is SET key token NX PX ttl; Renew and Release run only if the key
// still holds this holder's token (a Lua compare-and-act), so a holder whose
// lock expired can never extend or delete the next holder's lock. Each
// successful Acquire also returns a fencing token, a counter that only
// grows: a store that records the highest token it has seen can refuse a
// write from a holder that paused past its expiry.
//
// Keys: "<prefix>{<name>}" holds the token, "<prefix>{<name>}:fence" the
// counter; the hash tag keeps both in one Redis Cluster slot.
package lock

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrNotAcquired means another holder has the lock.
var ErrNotAcquired = errors.New("lock held by another holder")

// ErrNotHeld means the lock expired or passed to another holder.
var ErrNotHeld = errors.New("lock not held")

// Prefix is the key prefix locks use unless Options say otherwise.
const Prefix = "gpubot:lock:"

var (
	acquireScript = redis.NewScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0`)
	renewScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`)
	releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`)
)

// Lock is one held lease. It is not safe to share between holders; every
// contender calls Acquire for its own.
type Lock struct {
	rdb   redis.UniversalClient
	key   string
	token string
	fence int64
	ttl   time.Duration
}

// Acquire takes the lock called name for ttl, or returns ErrNotAcquired when
// someone else holds it. prefix "" means Prefix.
func Acquire(ctx context.Context, rdb redis.UniversalClient, prefix, name string, ttl time.Duration) (*Lock, error) {
	if ttl < time.Millisecond {
		return nil, fmt.Errorf("lock %s: ttl %v below 1 ms", name, ttl)
	}
	if prefix == "" {
		prefix = Prefix
	}
	var raw [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, fmt.Errorf("lock %s: token: %w", name, err)
	}
	l := &Lock{rdb: rdb, key: prefix + "{" + name + "}", token: hex.EncodeToString(raw[:]), ttl: ttl}
	fence, err := acquireScript.Run(ctx, rdb, []string{l.key, l.key + ":fence"}, l.token, ttl.Milliseconds()).Int64()
	if err != nil {
		return nil, fmt.Errorf("lock %s: acquire: %w", name, err)
	}
	if fence == 0 {
		return nil, ErrNotAcquired
	}
	l.fence = fence
	return l, nil
}

// Token is this holder's random token.
func (l *Lock) Token() string { return l.token }

// Fence is the fencing token of this acquisition: larger than that of every
// earlier holder of the same lock.
func (l *Lock) Fence() int64 { return l.fence }

// Renew extends the lease to a full ttl from now, or returns ErrNotHeld when
// the lock expired or changed hands.
func (l *Lock) Renew(ctx context.Context) error {
	ok, err := renewScript.Run(ctx, l.rdb, []string{l.key}, l.token, l.ttl.Milliseconds()).Int64()
	if err != nil {
		return fmt.Errorf("lock %s: renew: %w", l.key, err)
	}
	if ok == 0 {
		return ErrNotHeld
	}
	return nil
}

// Release gives the lock up, or returns ErrNotHeld when it is no longer
// this holder's to give.
func (l *Lock) Release(ctx context.Context) error {
	ok, err := releaseScript.Run(ctx, l.rdb, []string{l.key}, l.token).Int64()
	if err != nil {
		return fmt.Errorf("lock %s: release: %w", l.key, err)
	}
	if ok == 0 {
		return ErrNotHeld
	}
	return nil
}

// Keep renews the lease every ttl/3 until ctx ends or a renewal fails, and
// returns a context that is cancelled then (context.Cause says why): run the
// leader's work under it and it stops soon after leadership is lost. Any
// failed renewal, a Redis error included, ends leadership, since the lease
// can no longer be vouched for. Call stop when the work is done; it waits
// for the renewing goroutine to return. Keep does not release the lock.
func (l *Lock) Keep(ctx context.Context) (held context.Context, stop func()) {
	held, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(max(l.ttl/3, time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-held.Done():
				return
			case <-t.C:
				if err := l.Renew(held); err != nil {
					cancel(fmt.Errorf("lost leadership: %w", err))
					return
				}
			}
		}
	}()
	return held, func() { cancel(context.Canceled); <-done }
}
