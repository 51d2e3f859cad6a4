package phrase

import (
	"sync"
	"time"
)

// Defaults of the rephrasing pool and its circuit breaker.
const (
	// DefaultConcurrency is how many rephrases may wait on the endpoint at
	// once. More are skipped, not queued: a rephrase that waits its turn
	// arrives after the user has read the template.
	DefaultConcurrency = 4
	// DefaultBreakAfter is how many rephrases in a row may time out or fail
	// before the breaker opens and every rephrase is skipped.
	DefaultBreakAfter = 3
	// DefaultCoolDown is how long the breaker stays open; then one rephrase
	// is let through to try the endpoint again.
	DefaultCoolDown = 30 * time.Second
)

// breaker is a circuit breaker over the endpoint: closed (calls go
// through), open after breakAfter failures in a row (calls are skipped
// until the cool-down ends), then half-open (one trial call; its success
// closes it, its failure opens it for another cool-down).
type breaker struct {
	mu         sync.Mutex
	breakAfter int
	coolDown   time.Duration
	now        func() time.Time

	failures  int
	openUntil time.Time
	trial     bool // a half-open trial is in flight
	onChange  func(open bool)
}

// allow reports whether a call may go to the endpoint now.
func (b *breaker) allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failures < b.breakAfter {
		return true
	}
	if b.now().Before(b.openUntil) || b.trial {
		return false
	}
	b.trial = true // half-open: this one call tries the endpoint
	return true
}

// done records how an allowed call ended: failed is a timeout, a transport
// error or a 5xx/429 — the endpoint not answering — never a rejection by the
// guard, which says nothing about the endpoint's health.
func (b *breaker) done(failed bool) {
	b.mu.Lock()
	wasOpen := b.failures >= b.breakAfter
	b.trial = false
	if failed {
		b.failures++
		if b.failures >= b.breakAfter {
			b.openUntil = b.now().Add(b.coolDown)
		}
	} else {
		b.failures = 0
	}
	isOpen := b.failures >= b.breakAfter
	f := b.onChange
	b.mu.Unlock()
	if f != nil && wasOpen != isOpen {
		f(isOpen)
	}
}

// cancel ends an allowed call that never reached the endpoint.
func (b *breaker) cancel() {
	b.mu.Lock()
	b.trial = false
	b.mu.Unlock()
}

// endpointFailure reports whether an outcome says the endpoint is unwell.
func endpointFailure(outcome string) bool {
	switch outcome {
	case OutcomeTimeout, OutcomeRateLimited, OutcomeHTTPError, OutcomeError:
		return true
	}
	return false
}
