package transport

import (
	"net"
	"sync"
	"time"
)

// Limits on what a client without the signing secret can make the bot hold.
// A body has to be read whole before its signature can be checked, so the
// bytes read but not yet verified are the one thing an anonymous client
// controls; these caps bound them for the whole process, not per request.
const (
	// DefaultMaxConns caps open HTTP connections (LimitListener): each costs
	// a goroutine and buffers (up to the header limit while headers are read).
	DefaultMaxConns = 1024
	// MaxHeaderBytes is the http.Server header limit to use with it:
	// Slack's headers are under 2 KB, and every connection may hold this
	// much (plus 4 KB) while its headers are read.
	MaxHeaderBytes = 16 << 10
	// DefaultSmallBudget is the bytes of unverified bodies of at most
	// maxCommandBody in memory at once: slash commands and most events.
	DefaultSmallBudget = 8 << 20
	// DefaultLargeBudget is the same for larger bodies (events and clicks
	// carrying a long message). Kept apart so that a flood of large bodies
	// cannot starve slash commands of room.
	DefaultLargeBudget = 8 << 20
	// DefaultLargeRate is how many bytes of large unverified bodies a
	// second the handler reads at most. Slack's large payloads (a click on
	// a long message) are rare; a flood of them would otherwise keep the
	// CPUs hashing and starve the answers.
	DefaultLargeRate = 16 << 20
	// ServeWorkers is the answer workers bot serve runs (Config.Workers).
	// An answer is mostly waiting — on Redis for de-duplication, on Slack
	// for the post — so under load, or with the CPUs busy turning away a
	// flood, 8 workers left commands queued behind those waits until the
	// queue filled (cmd/loadgen's flood run: 294 of 1,000 signed commands
	// "swamped" with 8, none with 32).
	ServeWorkers = 32
	// budgetWait is how long a request waits for room before it is turned
	// away with 503 (Slack retries events; its deadline is 3 s).
	budgetWait = time.Second
)

// budget is a weighted semaphore over bytes. A request takes its whole
// reservation (Content-Length, or the endpoint's limit when the length is
// not declared) before reading a byte, and gives it back when its body has
// been verified or refused, so the unverified bytes in memory never exceed
// the total.
type budget struct {
	mu      sync.Mutex
	free    int64
	total   int64
	changed chan struct{} // closed and replaced on every release
}

func newBudget(total int64) *budget {
	return &budget{free: total, total: total, changed: make(chan struct{})}
}

// acquire takes n bytes, waiting at most wait (or until done closes) for
// them; it reports whether it got them. n above the total never fits.
func (b *budget) acquire(n int64, wait time.Duration, done <-chan struct{}) bool {
	if n > b.total {
		return false
	}
	var timer *time.Timer
	for {
		b.mu.Lock()
		if b.free >= n {
			b.free -= n
			b.mu.Unlock()
			if timer != nil {
				timer.Stop()
			}
			return true
		}
		ch := b.changed
		b.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(wait)
			defer timer.Stop()
		}
		select {
		case <-ch:
		case <-timer.C:
			return false
		case <-done:
			return false
		}
	}
}

func (b *budget) release(n int64) {
	b.mu.Lock()
	b.free += n
	close(b.changed)
	b.changed = make(chan struct{})
	b.mu.Unlock()
}

// inUse is the bytes taken now (for tests and metrics).
func (b *budget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total - b.free
}

// rate is a token bucket over bytes: take reports whether n bytes fit in
// what has accrued (at most one second's worth), and spends them if so.
type rate struct {
	mu     sync.Mutex
	perSec float64
	tokens float64
	last   time.Time
	now    func() time.Time
}

func newRate(perSec int64, now func() time.Time) *rate {
	return &rate{perSec: float64(perSec), tokens: float64(perSec), last: now(), now: now}
}

func (r *rate) take(n int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.now()
	r.tokens = min(r.perSec, r.tokens+t.Sub(r.last).Seconds()*r.perSec)
	r.last = t
	if r.tokens < float64(n) {
		return false
	}
	r.tokens -= float64(n)
	return true
}

// LimitListener accepts at most n connections at once; the next waits in
// the kernel's backlog until one closes. With the server's read timeouts a
// stalled client holds its slot for at most ReadTimeout.
func LimitListener(ln net.Listener, n int) net.Listener {
	if n <= 0 {
		n = DefaultMaxConns
	}
	return &limitListener{Listener: ln, sem: make(chan struct{}, n), done: make(chan struct{})}
}

type limitListener struct {
	net.Listener
	sem       chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.sem }}, nil
}

func (l *limitListener) Close() error {
	err := l.Listener.Close()
	l.closeOnce.Do(func() { close(l.done) })
	return err
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
