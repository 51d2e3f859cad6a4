package transport

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/bottest"
)

// testBudgets are the default limits without the large-body rate.
func testBudgets() *bodyBudgets {
	b := newBodyBudgets(HTTPLimits{})
	b.largeRate = nil
	return b
}

// TestDeclaredOversizeIsRefusedBeforeTheBody: a Content-Length over the
// endpoint's limit gets 413 although not one byte of the body is sent (the
// client would block writing it if the server waited for it).
func TestDeclaredOversizeIsRefusedBeforeTheBody(t *testing.T) {
	h := newHarness(t, nil)
	conn, err := net.Dial("tcp", h.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ts := time.Now()
	head := "POST /slack/events HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\n" +
		"X-Slack-Request-Timestamp: " + strconv.FormatInt(ts.Unix(), 10) + "\r\nX-Slack-Signature: v0=" + strings.Repeat("ab", 32) + "\r\n\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 64)
	n, err := conn.Read(buf)
	if err != nil {
		t.Fatalf("no answer to a 100 MB declaration without its body: %v", err)
	}
	if !strings.HasPrefix(string(buf[:n]), "HTTP/1.1 413") {
		t.Errorf("answer %q, want 413", buf[:n])
	}
	nothingDone(t, h)
}

// TestBudgetBoundsUnverifiedBytes: requests whose bodies would take the
// unverified bytes past the budget wait, then get 503 with Retry-After, and
// the budget is whole again once they are done.
func TestBudgetBoundsUnverifiedBytes(t *testing.T) {
	h := newHarness(t, nil)
	// A handler whose large budget holds one 1 MB body and no more.
	budgets := testBudgets()
	budgets.large = newBudget(maxEventBody)
	hold := make(chan struct{})
	started := make(chan struct{})
	var once sync.Once
	handler := h.app.verified(budgets, maxEventBody, func(w http.ResponseWriter, r *http.Request, body []byte) {})
	slowBody := &stallingReader{first: bytes.Repeat([]byte("x"), maxEventBody-1), hold: hold, started: func() { once.Do(func() { close(started) }) }}

	srv := newTestServer(t, handler)
	// Request 1 declares 1 MB and stalls one byte short: it holds the
	// budget (bytes are reserved as they arrive).
	done1 := make(chan int)
	go func() {
		r, _ := http.NewRequest(http.MethodPost, srv+"/slack/events", slowBody)
		r.ContentLength = maxEventBody
		r.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(time.Now().Unix(), 10))
		r.Header.Set("X-Slack-Signature", "v0="+strings.Repeat("ab", 32))
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			done1 <- 0
			return
		}
		resp.Body.Close()
		done1 <- resp.StatusCode
	}()
	<-started
	waitFor(t, func() bool { return budgets.large.inUse() == maxEventBody })

	// Request 2, a large body, finds no room: 503 after budgetWait.
	big := bytes.Repeat([]byte("y"), 200<<10)
	r := bottest.SignedRequest(t, srv+"/slack/events", secret, time.Now(), jsonType, big)
	start := time.Now()
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("second large body: %s (Retry-After %q), want 503 with Retry-After", resp.Status, resp.Header.Get("Retry-After"))
	}
	if waited := time.Since(start); waited < budgetWait/2 {
		t.Errorf("refused after %v; it should wait up to %v for room", waited, budgetWait)
	}
	// A small body (a slash command) has its own budget and passes.
	small := bottest.SignedRequest(t, srv+"/slack/events", secret, time.Now(), jsonType, []byte(`{"type":"x"}`))
	resp, err = http.DefaultClient.Do(small)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("small body while the large budget is full: %s, want 200", resp.Status)
	}
	close(hold)
	if code := <-done1; code == http.StatusOK {
		t.Errorf("the stalled unsigned body got 200")
	}
	waitFor(t, func() bool { return budgets.large.inUse() == 0 && budgets.small.inUse() == 0 })
}

func TestLimitListenerCapsConnections(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := LimitListener(ln, 2)
	defer l.Close()
	accepted := make(chan net.Conn, 3)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first, second := <-accepted, <-accepted
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted while two were open")
	case <-time.After(100 * time.Millisecond):
	}
	first.Close()
	select {
	case c := <-accepted:
		c.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("closing a connection did not let the next one in")
	}
	second.Close()
}

// stallingReader yields first, then blocks until hold is closed, then fails.
type stallingReader struct {
	first   []byte
	hold    chan struct{}
	started func()
	sent    bool
}

func (s *stallingReader) Read(p []byte) (int, error) {
	if !s.sent {
		n := copy(p, s.first)
		if s.first = s.first[n:]; len(s.first) == 0 {
			s.sent = true
			s.started()
		}
		return n, nil
	}
	<-s.hold
	return 0, io.ErrUnexpectedEOF
}

func newTestServer(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached within 5 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRateRefillsAndCaps(t *testing.T) {
	now := time.Unix(0, 0)
	r := newRate(1000, func() time.Time { return now })
	if !r.take(600) || r.take(600) {
		t.Fatal("a full bucket of 1000 should give 600 once, not twice")
	}
	now = now.Add(500 * time.Millisecond) // +500
	if !r.take(900) {
		t.Error("400 left + 500 accrued should give 900")
	}
	now = now.Add(time.Hour)
	if r.take(1001) {
		t.Error("the bucket holds at most one second's worth")
	}
}

// TestUnsignedFloodStaysWithinTheBudget: 200 clients at once send 1 MB
// bodies without the secret while signed commands come in. The unverified
// bytes held never pass the budgets, nothing unsigned reaches the bot, and
// every signed command is acknowledged and answered.
func TestUnsignedFloodStaysWithinTheBudget(t *testing.T) {
	h := newHarness(t, nil)
	budgets := testBudgets()
	budgets.largeRate = newRate(DefaultLargeRate, time.Now)
	srv := newTestServer(t, h.app.handler(budgets))

	var peak atomic.Int64
	stop := make(chan struct{})
	var watch sync.WaitGroup
	watch.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if n := budgets.small.inUse() + budgets.large.inUse(); n > peak.Load() {
				peak.Store(n)
			}
			runtime.Gosched()
		}
	})
	body := bytes.Repeat([]byte("x"), 1<<20)
	var flood sync.WaitGroup
	var passed atomic.Int64
	for range 200 {
		flood.Go(func() {
			r, _ := http.NewRequest(http.MethodPost, srv+"/slack/events", bytes.NewReader(body))
			r.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(time.Now().Unix(), 10))
			r.Header.Set("X-Slack-Signature", "v0="+strings.Repeat("0f", 32))
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				return // a refused body may be cut off mid-write
			}
			resp.Body.Close()
			if resp.StatusCode < 400 {
				passed.Add(1)
			}
		})
	}
	for i := range 20 {
		got := h.send(t, "/slack/commands", formType, bottest.SlashForm("fit 13b lora", "C1", "U1",
			h.slack.ResponseURL("r"+strconv.Itoa(i)), "trig-flood-"+strconv.Itoa(i)), func(r *http.Request) {
			r.URL, _ = r.URL.Parse(srv + "/slack/commands")
			r.Host = r.URL.Host
		})
		if got.status != http.StatusOK || !strings.Contains(got.body, "Working on") {
			t.Errorf("signed command %d during the flood: %d %q", i, got.status, got.body)
		}
	}
	flood.Wait()
	close(stop)
	watch.Wait()
	h.settle()
	if n := passed.Load(); n > 0 {
		t.Errorf("%d unsigned requests got a success status", n)
	}
	if p, most := peak.Load(), int64(DefaultSmallBudget+DefaultLargeBudget); p > most {
		t.Errorf("unverified bytes peaked at %d, over the budgets' %d", p, most)
	}
	if n := len(h.slack.Calls(bottest.ResponseURLMethod)); n != 20 {
		t.Errorf("%d signed commands answered during the flood, want 20", n)
	}
	for _, q := range h.bot.Asked() {
		if q != "fit 13b lora" {
			t.Errorf("the bot was asked %q", q)
		}
	}
}
