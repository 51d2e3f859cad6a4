package transport

import (
	"context"
	"net"
	"net/http"
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

	// DefaultPerIPConns caps the connections one remote address holds
	// (ConnLimits.PerIP): one host opening connections and sending nothing
	// can take at most this many of the DefaultMaxConns. Behind a proxy
	// every connection comes from the proxy; raise it there
	// (HTTP_MAX_CONNS_PER_IP), or set it to the proxy's upstream pool.
	DefaultPerIPConns = 128
	// PerClientBytes is how many bytes of unverified bodies of at most
	// 64 KB one remote address may hold at once (a quarter of the small
	// budget): a client that opens many bodies and stalls in each holds at
	// most this much, for at most SmallBodyDeadline, and the rest of the
	// budget stays for everyone else. Slack's commands are about a
	// kilobyte, so even through one proxy address thousands fit at once
	// (a cap of 32 bodies refused signed commands at 1,000 req/s from one
	// address on a loaded machine).
	PerClientBytes = DefaultSmallBudget / 4
	// SmallBodyDeadline is how long a body of at most 64 KB (a slash
	// command, most events) may take to arrive once its headers are in:
	// Slack sends it in the same packets, so a body still missing after
	// this is a stalled client, cut off long before ReadTimeout.
	SmallBodyDeadline = 2 * time.Second
	// LargeBodyDeadline is the same for larger bodies (up to 1 MB).
	LargeBodyDeadline = 5 * time.Second
	// reserveChunk is the step in which a body's bytes are reserved from
	// its budget as they arrive: a client that declares 64 KB and sends
	// nothing holds nothing.
	reserveChunk = 4 << 10

	// Server timeouts (NewServer). IdleTimeout is short: Slack opens a
	// connection per request or reuses one within a second, and an idle
	// keep-alive is a connection slot nobody uses.
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 10 * time.Second
	WriteTimeout      = 10 * time.Second
	IdleTimeout       = 5 * time.Second
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

// clientBytes counts the unverified bytes each remote address holds,
// capped at max each.
type clientBytes struct {
	mu  sync.Mutex
	n   map[string]int64
	max int64
}

func newClientBytes(max int64) *clientBytes {
	return &clientBytes{n: map[string]int64{}, max: max}
}

// take reports whether client may hold n more bytes, and counts them.
func (c *clientBytes) take(client string, n int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[client]+n > c.max {
		return false
	}
	c.n[client] += n
	return true
}

func (c *clientBytes) give(client string, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[client] -= n; c.n[client] <= 0 {
		delete(c.n, client)
	}
}

// remoteHost is the address part of a RemoteAddr ("127.0.0.1:5000" →
// "127.0.0.1"); the whole string when it has no port.
func remoteHost(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

// NewServer is the http.Server bot serve runs h on: bounded header size and
// read, write and idle timeouts (the constants above), requests' contexts
// derived from ctx. Serve it on Listen's listener.
func NewServer(h http.Handler, ctx context.Context) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes, // Slack's headers are small
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
}

// ConnLimits caps a listener's connections; zero fields take the defaults
// (DefaultMaxConns, DefaultPerIPConns).
type ConnLimits struct {
	Max   int // connections open at once
	PerIP int // connections open at once from one remote address
}

// Listen wraps ln for srv: at most l.Max connections at once and l.PerIP
// from one address. It hooks srv.ConnState to know which connections sit
// idle between requests (keep-alive): when the listener is full, or an
// address is at its cap, the longest-idle connection (that address's, for
// the per-address cap) is closed to make room, so idle clients cannot hold
// the slots that requests need. A connection over the per-address cap
// with none of its address's idle is closed at once.
func Listen(ln net.Listener, srv *http.Server, l ConnLimits) net.Listener {
	if l.Max <= 0 {
		l.Max = DefaultMaxConns
	}
	if l.PerIP <= 0 {
		l.PerIP = DefaultPerIPConns
	}
	ll := newLimitListener(ln, l.Max, l.PerIP)
	prev := srv.ConnState
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		ll.connState(c, s)
		if prev != nil {
			prev(c, s)
		}
	}
	return ll
}

// LimitListener accepts at most n connections at once; the next waits in
// the kernel's backlog until one closes. With the server's read timeouts a
// stalled client holds its slot for at most ReadTimeout. Listen adds the
// per-address cap and closes idle connections when full; use it for an
// http.Server.
func LimitListener(ln net.Listener, n int) net.Listener {
	if n <= 0 {
		n = DefaultMaxConns
	}
	return newLimitListener(ln, n, 0)
}

func newLimitListener(ln net.Listener, n, perIP int) *limitListener {
	return &limitListener{Listener: ln, sem: make(chan struct{}, n), done: make(chan struct{}),
		perIP: perIP, byIP: map[string]int{}, idle: map[*limitConn]time.Time{}, idled: make(chan struct{}, 1)}
}

type limitListener struct {
	net.Listener
	sem       chan struct{}
	done      chan struct{}
	closeOnce sync.Once

	perIP int // 0: no per-address cap
	mu    sync.Mutex
	byIP  map[string]int
	idle  map[*limitConn]time.Time // connections between requests, since when
	idled chan struct{}            // a connection went idle (buffered 1)
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		if err := l.slot(); err != nil {
			return nil, err
		}
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.sem
			return nil, err
		}
		host := remoteHost(c.RemoteAddr().String())
		if l.perIP > 0 && !l.admit(host) {
			c.Close() // over its address's cap with nothing idle to give up
			<-l.sem
			continue
		}
		return &limitConn{Conn: c, l: l, host: host}, nil
	}
}

// slot takes a connection slot, closing idle connections while the
// listener is full.
func (l *limitListener) slot() error {
	for {
		select {
		case l.sem <- struct{}{}:
			return nil
		case <-l.done:
			return net.ErrClosed
		default:
		}
		l.evict("")
		select {
		case l.sem <- struct{}{}:
			return nil
		case <-l.idled: // someone went idle: try again
		case <-l.done:
			return net.ErrClosed
		}
	}
}

// admit counts a connection from host, closing host's longest-idle one
// when host is at its cap; false when host is at its cap with none idle.
func (l *limitListener) admit(host string) bool {
	l.mu.Lock()
	if l.byIP[host] < l.perIP {
		l.byIP[host]++
		l.mu.Unlock()
		return true
	}
	l.mu.Unlock()
	if !l.evict(host) {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.byIP[host]++ // the evicted one gave its place back
	return true
}

// evict closes the longest-idle connection (host's only, unless host is
// ""); it reports whether there was one.
func (l *limitListener) evict(host string) bool {
	l.mu.Lock()
	var victim *limitConn
	var since time.Time
	for c, t := range l.idle {
		if (host == "" || c.host == host) && (victim == nil || t.Before(since)) {
			victim, since = c, t
		}
	}
	if victim != nil {
		delete(l.idle, victim)
	}
	l.mu.Unlock()
	if victim == nil {
		return false
	}
	victim.Close()
	return true
}

// connState is the server's ConnState hook: it keeps the set of idle
// connections.
func (l *limitListener) connState(nc net.Conn, s http.ConnState) {
	c, ok := nc.(*limitConn)
	if !ok {
		return
	}
	l.mu.Lock()
	if s == http.StateIdle {
		l.idle[c] = time.Now()
	} else {
		delete(l.idle, c)
	}
	l.mu.Unlock()
	if s == http.StateIdle {
		select {
		case l.idled <- struct{}{}:
		default:
		}
	}
}

func (l *limitListener) Close() error {
	err := l.Listener.Close()
	l.closeOnce.Do(func() { close(l.done) })
	return err
}

type limitConn struct {
	net.Conn
	l    *limitListener
	host string
	once sync.Once
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		l := c.l
		l.mu.Lock()
		delete(l.idle, c)
		if l.perIP > 0 {
			if l.byIP[c.host]--; l.byIP[c.host] <= 0 {
				delete(l.byIP, c.host)
			}
		}
		l.mu.Unlock()
		<-l.sem
	})
	return err
}
