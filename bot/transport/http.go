package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/slack-go/slack"
)

// Body limits: a slash command is a short form; events and button payloads
// carry a whole message.
const (
	maxCommandBody     = 64 << 10
	maxEventBody       = 1 << 20
	maxInteractiveBody = 1 << 20
)

// HTTPLimits bounds what clients without the signing secret can make the
// handler hold; zero fields take the defaults (limit.go).
type HTTPLimits struct {
	// SmallBudget is the bytes of unverified bodies of at most 64 KB (slash
	// commands, most events) read at once, across all requests.
	SmallBudget int64
	// LargeBudget is the same for larger bodies (up to 1 MB).
	LargeBudget int64
	// LargeRate is the most bytes of larger bodies read a second.
	LargeRate int64
	// PerClient is the bytes of unverified bodies of at most 64 KB one
	// remote address may hold at once (PerClientBytes).
	PerClient int64
	// SmallDeadline and LargeDeadline are how long a body may take to
	// arrive once its headers are read (SmallBodyDeadline,
	// LargeBodyDeadline).
	SmallDeadline, LargeDeadline time.Duration
}

// Handler serves Slack's HTTP requests: POST /slack/commands, /slack/events
// and /slack/interactive, with the default limits. Each request's signature
// is checked before its body is parsed.
func (a *App) Handler() http.Handler { return a.HandlerWith(HTTPLimits{}) }

// HandlerWith is Handler with limits of the caller's.
func (a *App) HandlerWith(l HTTPLimits) http.Handler { return a.handler(newBodyBudgets(l)) }

func newBodyBudgets(l HTTPLimits) *bodyBudgets {
	if l.SmallBudget <= 0 {
		l.SmallBudget = DefaultSmallBudget
	}
	if l.LargeBudget <= 0 {
		l.LargeBudget = DefaultLargeBudget
	}
	if l.LargeRate <= 0 {
		l.LargeRate = DefaultLargeRate
	}
	if l.PerClient <= 0 {
		l.PerClient = PerClientBytes
	}
	if l.SmallDeadline <= 0 {
		l.SmallDeadline = SmallBodyDeadline
	}
	if l.LargeDeadline <= 0 {
		l.LargeDeadline = LargeBodyDeadline
	}
	return &bodyBudgets{small: newBudget(l.SmallBudget), large: newBudget(l.LargeBudget), largeRate: newRate(l.LargeRate, time.Now),
		clients: newClientBytes(l.PerClient), smallDeadline: l.SmallDeadline, largeDeadline: l.LargeDeadline}
}

func (a *App) handler(b *bodyBudgets) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST /slack/commands", a.verified(b, maxCommandBody, a.serveCommand))
	mux.Handle("POST /slack/events", a.verified(b, maxEventBody, a.serveEvent))
	mux.Handle("POST /slack/interactive", a.verified(b, maxInteractiveBody, a.serveInteractive))
	return mux
}

// bodyBudgets are one handler's limits on unverified bodies.
type bodyBudgets struct {
	small, large *budget
	largeRate    *rate        // nil: no rate limit
	clients      *clientBytes // nil: no per-client cap
	// how long a body may take once its headers are in; 0: the server's
	// ReadTimeout only
	smallDeadline, largeDeadline time.Duration
}

func (b *bodyBudgets) pick(n int64) *budget {
	if n <= maxCommandBody {
		return b.small
	}
	return b.large
}

// verified reads at most limit bytes of body and passes it on only when
// Slack's v0 signature over it is valid and its timestamp is within five
// minutes (slack.SecretsVerifier: HMAC-SHA256, constant-time compare).
// Rejections get 401 (413 when too large, 408 when the body is too slow,
// 503 when there is no room) and a log line naming the reason, never the
// signature or the secret, and their connection is closed: a client that
// keeps a refused socket open holds no connection slot (issue #28).
//
// Memory and time are bounded before anything is authenticated:
//   - a declared Content-Length over the limit is refused before a byte of
//     body is read;
//   - nothing is held until a body's first byte arrives, so a client that
//     declares 64 KB and sends nothing holds nothing (reserving the
//     declared length up front let 130 such clients fill the 8 MiB and
//     starve slash commands);
//   - a body of at most 64 KB then grows its buffer as bytes arrive
//     (reserveChunk, doubling), each growth reserved from the process-wide
//     budget and from its client's PerClientBytes first, so what is
//     reserved is what is allocated; a larger body reserves its whole
//     length and a pooled buffer at its first byte (they are also rate
//     limited);
//   - a body must arrive whole within SmallBodyDeadline (64 KB or less)
//     or LargeBodyDeadline;
//   - when the budget stays full for budgetWait the request gets 503 with
//     Retry-After; Slack retries;
//   - bodies over 64 KB are also limited in bytes a second, so a flood of
//     them cannot keep the CPUs hashing (an unsigned 1 MB body costs about
//     a millisecond of SHA-256).
func (a *App) verified(budgets *bodyBudgets, limit int64, next func(w http.ResponseWriter, r *http.Request, body []byte)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reject := func(status int, reason string) {
			a.log.WarnContext(r.Context(), "slack request rejected", "path", r.URL.Path, "reason", reason,
				"remote", r.RemoteAddr, "retry", r.Header.Get("X-Slack-Retry-Num"))
			w.Header().Set("Connection", "close") // a refused client keeps no connection (nor is its body drained)
			http.Error(w, http.StatusText(status), status)
		}
		// Headers and timestamp first: a stale or unsigned request is
		// turned away before its body is read.
		sv, err := slack.NewSecretsVerifier(r.Header, a.cfg.SigningSecret)
		if err != nil {
			reject(http.StatusUnauthorized, verifyReason(err))
			return
		}
		if r.ContentLength > limit {
			reject(http.StatusRequestEntityTooLarge, "declared body over "+strconv.FormatInt(limit, 10)+" bytes")
			return
		}
		n := r.ContentLength
		if n < 0 {
			n = limit // chunked: room for the most it may send
		}
		body, release, status, reason := budgets.read(w, r, limit, n)
		defer release()
		if status != 0 {
			if status == http.StatusServiceUnavailable {
				w.Header().Set("Retry-After", "1")
			}
			reject(status, reason)
			return
		}
		if _, err := sv.Write(body); err != nil {
			reject(http.StatusUnauthorized, "signature check failed")
			return
		}
		if err := sv.Ensure(); err != nil {
			reject(http.StatusUnauthorized, verifyReason(err))
			return
		}
		next(w, r, body)
	})
}

// read reads r's body of at most n bytes (its declared length, or limit)
// under budgets' rules (see verified). It returns the body and a release
// for what it holds, or a status and a reason to refuse with.
func (b *bodyBudgets) read(w http.ResponseWriter, r *http.Request, limit, n int64) (body []byte, release func(), status int, reason string) {
	release = func() {}
	deadline := b.smallDeadline
	if n > maxCommandBody {
		deadline = b.largeDeadline
	}
	rc := http.NewResponseController(w)
	if deadline > 0 {
		rc.SetReadDeadline(time.Now().Add(deadline)) // an error: not a net/http server (tests); ReadTimeout still holds
	}
	src := http.MaxBytesReader(w, r.Body, limit)
	fail := func(err error) (int, string) {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return http.StatusRequestEntityTooLarge, "body over " + strconv.FormatInt(limit, 10) + " bytes"
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return http.StatusRequestTimeout, "body not sent within " + deadline.String()
		}
		return http.StatusBadRequest, "body unreadable"
	}
	if n == 0 {
		body, err := readBody(src, nil)
		if err != nil {
			status, reason = fail(err)
		}
		return body, release, status, reason
	}
	// The first byte is awaited holding nothing: no budget, no buffer, no
	// place in the client's count.
	var first [1]byte
	if k, err := io.ReadFull(src, first[:]); k == 0 {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, release, 0, "" // empty (chunked) body
		}
		status, reason = fail(err)
		return nil, release, status, reason
	}
	pool := b.pick(n)
	if pool == b.large && b.largeRate != nil && !b.largeRate.take(n) {
		return nil, release, http.StatusServiceUnavailable, "large-body rate exceeded"
	}
	client := remoteHost(r.RemoteAddr)
	var held, charged int64 // reserved from pool; from the client's cap
	var buf *[]byte         // a pooled buffer (large bodies)
	var dst []byte
	release = func() {
		pool.release(held)
		if charged > 0 {
			b.clients.give(client, charged)
		}
		if buf != nil {
			putBuffer(buf)
		}
	}
	// grow makes room for more of the body: reserved before it is
	// allocated, so the budget counts every byte held.
	grow := func() (int, string) {
		c := n // a large body: all at once, into a pooled buffer
		if pool == b.small {
			c = min(n, max(2*held, reserveChunk)) // the new capacity
		}
		c -= held
		if pool == b.small && b.clients != nil {
			if !b.clients.take(client, c) {
				return http.StatusServiceUnavailable, "too many unverified bytes from this client"
			}
			charged += c
		}
		if !pool.acquire(c, budgetWait, r.Context().Done()) {
			return http.StatusServiceUnavailable, "unverified-body budget full"
		}
		held += c
		if pool == b.large {
			buf = getBuffer(n)
			dst = (*buf)[:n][:len(dst)]
			return 0, ""
		}
		next := make([]byte, len(dst), held)
		copy(next, dst)
		dst = next
		return 0, ""
	}
	if status, reason = grow(); status != 0 {
		return nil, release, status, reason
	}
	dst = append(dst, first[0])
	for int64(len(dst)) < n {
		if int64(len(dst)) == held {
			if status, reason = grow(); status != 0 {
				return nil, release, status, reason
			}
		}
		k, err := src.Read(dst[len(dst):held])
		dst = dst[:len(dst)+k]
		if err == io.EOF {
			break // shorter than reserved (chunked)
		}
		if err != nil {
			status, reason = fail(err)
			return nil, release, status, reason
		}
	}
	got := int64(len(dst))
	if got == n {
		// Full: anything more is over the declared length or the limit.
		if _, err := readBody(src, nil); err != nil {
			status, reason = fail(err)
			return nil, release, status, reason
		}
	}
	if deadline > 0 {
		rc.SetReadDeadline(time.Time{}) // the body is in; the server sets the next request's deadlines
	}
	return dst, release, 0, ""
}

// readBody reads a body of at most len(buf) bytes into buf (no doubling as
// io.ReadAll does, so the reservation is what is used). r is a
// MaxBytesReader: one byte past its limit is a *http.MaxBytesError.
func readBody(r io.Reader, buf []byte) ([]byte, error) {
	n := int64(len(buf))
	k, err := io.ReadFull(r, buf)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		return buf[:k], nil // shorter than reserved (chunked)
	case err != nil:
		return nil, err
	}
	// Full: anything more is over the declared length or the limit.
	var one [1]byte
	if m, err := r.Read(one[:]); m > 0 || (err != nil && err != io.EOF) {
		if err == nil {
			err = &http.MaxBytesError{Limit: n}
		}
		return nil, err
	}
	return buf, nil
}

// Large body buffers are reused: under a flood of large unsigned bodies,
// fresh megabyte allocations would make the garbage collector run all the
// time (and hold twice the budget between cycles). The handlers copy what
// they keep (event queues the raw JSON's copy; forms become strings), so a
// buffer goes back when its request is done. A buffer is taken when a
// body's first byte arrives and its length is reserved, so the pool holds
// at most what the large budget lets be in use at once. Small bodies grow
// buffers of their own as they arrive (read).
var (
	smallBuffers = sync.Pool{New: func() any { b := make([]byte, maxCommandBody); return &b }}
	largeBuffers = sync.Pool{New: func() any { b := make([]byte, maxEventBody); return &b }}
)

func getBuffer(n int64) *[]byte {
	if n <= maxCommandBody {
		return smallBuffers.Get().(*[]byte)
	}
	return largeBuffers.Get().(*[]byte)
}

func putBuffer(b *[]byte) {
	if cap(*b) == maxCommandBody {
		smallBuffers.Put(b)
	} else {
		largeBuffers.Put(b)
	}
}

func verifyReason(err error) string {
	switch {
	case errors.Is(err, slack.ErrMissingHeaders):
		return "signature or timestamp header missing"
	case errors.Is(err, slack.ErrExpiredTimestamp):
		return "timestamp outside the 5-minute window"
	case errors.Is(err, slack.ErrInvalidSignature):
		return "signature does not match"
	case errors.Is(err, slack.ErrInvalidConfiguration):
		return "no signing secret configured"
	default:
		return "malformed signature or timestamp"
	}
}

func (a *App) serveCommand(w http.ResponseWriter, r *http.Request, body []byte) {
	r.Body = io.NopCloser(bytes.NewReader(body))
	cmd, err := slack.SlashCommandParse(r)
	if err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	if r.PostForm.Get("ssl_check") == "1" {
		return // Slack checking the certificate
	}
	if cmd.ResponseURL == "" {
		// Slack always sends one; without it the answer has nowhere to go.
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	ready := make(chan struct{})
	defer close(ready)
	writeJSON(w, a.slash(cmd, ready))
}

func (a *App) serveEvent(w http.ResponseWriter, r *http.Request, body []byte) {
	var outer struct {
		Type      string `json:"type"`
		Challenge string `json:"challenge"`
		EventID   string `json:"event_id"`
	}
	if err := json.Unmarshal(body, &outer); err != nil {
		http.Error(w, "bad JSON", http.StatusBadRequest)
		return
	}
	switch outer.Type {
	case "url_verification":
		writeJSON(w, map[string]string{"challenge": outer.Challenge})
	case "event_callback":
		if !a.event(body) {
			// Full up: let Slack retry later; the event id keeps it to one reply.
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	case "app_rate_limited":
		a.log.WarnContext(r.Context(), "slack is rate-limiting event delivery to this app")
	}
}

func (a *App) serveInteractive(w http.ResponseWriter, r *http.Request, body []byte) {
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Get("payload") == "" {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	var cb slack.InteractionCallback
	if err := json.Unmarshal([]byte(form.Get("payload")), &cb); err != nil {
		http.Error(w, "bad payload", http.StatusBadRequest)
		return
	}
	if cb.Type == slack.InteractionTypeViewSubmission {
		// A modal's submission is answered in this response: errors keep
		// it open, an empty 200 closes it (modal.go).
		if r := a.submission(cb); r != nil {
			writeJSON(w, r)
			return
		}
		w.WriteHeader(http.StatusOK)
		return
	}
	if !a.interact(cb) {
		// Not queued: a 200 would tell Slack (and the clicker) all is well.
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// writeJSON writes v and flushes it, so the caller's ack is on the wire
// before the caller returns.
func writeJSON(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
