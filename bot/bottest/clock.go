package bottest

import (
	"context"
	"sync"
	"time"
)

// Clock is a settable clock for code that takes a `now func() time.Time`:
// pass c.Now, then Set or Add to move time. For code that also takes a
// `wait func(ctx, d) error` (slackpost's pacing), pass c.Wait: it moves the
// clock on by d at once and records d (Waits). It is safe for concurrent
// use (schedulers and pollers read it from their own goroutines).
//
// It is the module's one test clock: internal/policy refuses a clock type
// declared in a test file.
type Clock struct {
	mu    sync.Mutex
	t     time.Time
	waits []time.Duration
}

// NewClock returns a Clock reading t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set moves the clock to t (backwards too: a test of a clock step).
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// Add moves the clock by d and returns the new time.
func (c *Clock) Add(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

// Wait is a sleep that takes no time: it records d, moves the clock on by
// d and returns ctx's error (nil while ctx is live).
func (c *Clock) Wait(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	c.t = c.t.Add(d)
	return ctx.Err()
}

// Waits lists the durations passed to Wait, in order.
func (c *Clock) Waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}
