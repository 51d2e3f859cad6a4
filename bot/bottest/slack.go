// Package bottest holds fakes shared by tests: a Slack Web API that records
// what the bot sends (chat.postMessage, chat.postEphemeral, chat.update and
// response_url posts) and can fail on cue, a Socket Mode endpoint, request
// signing, an OpenAI-compatible LLM, a settable Clock, and RealRedis, the
// one helper for tests against the redis-server at REDIS_URL. Only tests
// import it (internal/policy checks).
package bottest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Identity the fake's auth.test reports.
const (
	BotUserID = "UBOT"
	BotID     = "BBOT"
	TeamID    = "T1"
)

// ResponseURLMethod is the Method of calls to a response URL.
const ResponseURLMethod = "response_url"

// waitFor bounds every Wait in this package; a test that needs longer is stuck.
const waitFor = 10 * time.Second

// Call is one request the fake received.
type Call struct {
	Method string // Web API method, e.g. "chat.postMessage", or ResponseURLMethod
	Path   string
	Header http.Header
	Form   url.Values // form fields of form-encoded calls
	Body   []byte
}

// JSON decodes the body of a JSON call (response_url posts).
func (c Call) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(c.Body, &m); err != nil {
		t.Fatalf("%s body is not JSON: %v\n%s", c.Method, err, c.Body)
	}
	return m
}

// Reply scripts one answer of the fake.
type Reply struct {
	Status     int    // HTTP status; 0 means 200
	RetryAfter int    // seconds, sent as Retry-After
	Body       string // raw body; empty means the method's normal answer
	// Posted makes a failing chat.postMessage still store the message, as
	// when Slack posts it and the answer is lost.
	Posted bool
}

// Message is a message the fake stored, as conversations.history shows it.
type Message struct {
	Channel  string          `json:"-"`
	TS       string          `json:"ts"`
	ThreadTS string          `json:"thread_ts,omitempty"`
	Text     string          `json:"text"`
	User     string          `json:"user"`
	BotID    string          `json:"bot_id"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// Slack is a fake Slack Web API on a loopback httptest server with its own mux.
type Slack struct {
	srv *httptest.Server

	mu       sync.Mutex
	calls    []Call
	changed  chan struct{} // closed and replaced on every call
	scripted map[string][]Reply
	messages []Message
	base     int64 // ts seconds: now at start, so "oldest" filters work
	seq      int

	sockets chan *Socket
	files   fileStore // files.go
	chans   map[string]*channelState
	locales map[string]string // users.info locales (SetLocale)
	scopes  map[string]bool   // the bot token's scopes (SetScopes); nil: all
	admins  map[string]bool   // users.info is_admin (SetAdmin)
}

// SetAdmin makes users.info report user as a workspace admin.
func (s *Slack) SetAdmin(user string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.admins == nil {
		s.admins = map[string]bool{}
	}
	s.admins[user] = true
}

// SetLocale makes users.info report user's locale (default en-US).
func (s *Slack) SetLocale(user, locale string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.locales == nil {
		s.locales = map[string]string{}
	}
	s.locales[user] = locale
}

func (s *Slack) user(id string) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	loc := s.locales[id]
	if loc == "" {
		loc = "en-US"
	}
	return map[string]any{"ok": true, "user": map[string]any{"id": id, "team_id": TeamID, "name": id, "locale": loc, "is_admin": s.admins[id]}}
}

// channelState is what conversations.info reports of a channel set up
// with SetChannel; channels never set up have the bot as a member.
type channelState struct {
	member, private bool
	kind            string // Public, Private, MPIM, IM (strict.go)
}

// SetChannel makes conversations.info report whether the bot is a member
// of channel and whether it is private; conversations.join then joins a
// public one and fails with method_not_supported_for_channel_type on a
// private one, as Slack does.
func (s *Slack) SetChannel(channel string, member, private bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.chans == nil {
		s.chans = map[string]*channelState{}
	}
	s.chans[channel] = &channelState{member: member, private: private}
}

func (s *Slack) conversation(method, id string) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.chans[id]
	if !ok {
		c = &channelState{member: true}
	}
	if method == "conversations.join" {
		if c.private {
			return map[string]any{"ok": false, "error": "method_not_supported_for_channel_type"}
		}
		c.member = true
		if s.chans == nil {
			s.chans = map[string]*channelState{}
		}
		s.chans[id] = c
	}
	k := s.conv(id).kind
	return map[string]any{"ok": true, "channel": map[string]any{"id": id, "is_channel": k == Public || k == Private, "is_group": k == Private,
		"is_mpim": k == MPIM, "is_im": k == IM, "is_private": k != Public, "is_member": c.member}}
}

// NewSlack starts a fake Slack API; it stops when the test ends.
func NewSlack(t testing.TB) *Slack {
	t.Helper()
	s := &Slack{changed: make(chan struct{}), scripted: map[string][]Reply{}, sockets: make(chan *Socket, 4), base: time.Now().Unix()}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/{method}", s.serveAPI)
	mux.HandleFunc("/response/{name}", s.serveResponse)
	mux.HandleFunc("/socket", s.serveSocket)
	mux.HandleFunc("/upload/{id}", s.serveUpload) // files.go
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.close)
	return s
}

func (s *Slack) close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// URL is the server's base URL.
func (s *Slack) URL() string { return s.srv.URL }

// APIURL is the Web API base for slack.OptionAPIURL and SLACK_API_URL.
func (s *Slack) APIURL() string { return s.srv.URL + "/api/" }

// ResponseURL is a response_url whose posts are recorded under name.
func (s *Slack) ResponseURL(name string) string { return s.srv.URL + "/response/" + name }

// Script queues replies for method (a Web API method or ResponseURLMethod);
// once they are used up the method answers normally again.
func (s *Slack) Script(method string, replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scripted[method] = append(s.scripted[method], replies...)
}

// Calls returns the calls of method so far (all calls for "").
func (s *Slack) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if method == "" || c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// WaitCalls waits until method has been called n times and returns the calls.
func (s *Slack) WaitCalls(t testing.TB, method string, n int) []Call {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		if calls := s.Calls(method); len(calls) >= n {
			return calls
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("fake Slack: %s called %d times, want %d", method, len(s.Calls(method)), n)
		}
	}
}

// Messages returns what was posted to channel, as Slack stored it.
func (s *Slack) Messages(channel string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.messages {
		if m.Channel == channel {
			out = append(out, m)
		}
	}
	return out
}

func (s *Slack) record(c Call) (Reply, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
	close(s.changed)
	s.changed = make(chan struct{})
	if q := s.scripted[c.Method]; len(q) > 0 {
		s.scripted[c.Method] = q[1:]
		return q[0], true
	}
	return Reply{}, false
}

func readCall(r *http.Request, method string) Call {
	body, _ := io.ReadAll(r.Body)
	c := Call{Method: method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		c.Form, _ = url.ParseQuery(string(body))
	} else {
		c.Form = r.URL.Query()
	}
	return c
}

func writeReply(w http.ResponseWriter, rep Reply, normal any) {
	if rep.RetryAfter > 0 {
		w.Header().Set("Retry-After", fmt.Sprint(rep.RetryAfter))
	}
	if rep.Body != "" {
		if strings.HasPrefix(rep.Body, "{") {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(cmpOr(rep.Status, http.StatusOK))
		io.WriteString(w, rep.Body)
		return
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		w.WriteHeader(rep.Status)
		io.WriteString(w, http.StatusText(rep.Status))
		return
	}
	if s, ok := normal.(string); ok {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, s)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(normal)
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func (s *Slack) serveAPI(w http.ResponseWriter, r *http.Request) {
	method := r.PathValue("method")
	c := readCall(r, method)
	rep, scripted := s.record(c)
	failing := scripted && (rep.Status >= 300 || rep.Body != "")
	if !failing {
		if r := s.refusal(method, c); r != nil { // strict.go
			writeReply(w, rep, r)
			return
		}
	}
	var normal any
	switch method {
	case "auth.test":
		normal = map[string]any{"ok": true, "user_id": BotUserID, "bot_id": BotID, "team_id": TeamID, "user": "gpubot", "team": "Test"}
	case "apps.connections.open":
		normal = map[string]any{"ok": true, "url": "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/socket"}
	case "chat.postMessage":
		var m Message
		if !failing || rep.Posted {
			m = s.store(c.Form)
		}
		normal = map[string]any{"ok": true, "channel": c.Form.Get("channel"), "ts": m.TS, "message": m}
	case "chat.postEphemeral":
		normal = map[string]any{"ok": true, "message_ts": s.nextTS()}
	case "chat.update":
		normal = map[string]any{"ok": true, "channel": c.Form.Get("channel"), "ts": c.Form.Get("ts")}
	case "conversations.history", "conversations.replies":
		normal = map[string]any{"ok": true, "messages": s.history(method, c.Form), "has_more": false}
	case "files.getUploadURLExternal", "files.completeUploadExternal":
		normal = s.filesMethod(method, c) // files.go
	case "users.info":
		normal = s.user(c.Form.Get("user"))
	case "views.publish":
		normal = map[string]any{"ok": true, "view": map[string]any{"id": "V1", "type": "home"}}
	case "views.open":
		normal = map[string]any{"ok": true, "view": map[string]any{"id": fmt.Sprintf("VM%d", len(s.Calls("views.open"))), "type": "modal"}}
	case "reactions.add", "reactions.remove":
		normal = map[string]any{"ok": true}
	case "conversations.info", "conversations.join":
		normal = s.conversation(method, c.Form.Get("channel"))
	default:
		normal = map[string]any{"ok": false, "error": "unknown_method"}
	}
	writeReply(w, rep, normal)
}

func (s *Slack) nextTS() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return fmt.Sprintf("%d.%06d", s.base, s.seq)
}

func (s *Slack) store(f url.Values) Message {
	m := Message{Channel: f.Get("channel"), TS: s.nextTS(), ThreadTS: f.Get("thread_ts"), Text: f.Get("text"), User: BotUserID, BotID: BotID}
	if md := f.Get("metadata"); md != "" {
		m.Metadata = json.RawMessage(md)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.messages = append(s.messages, m)
	close(s.changed) // WaitMessages: the call was recorded before it was stored
	s.changed = make(chan struct{})
	return m
}

// WaitMessages waits until channel holds n messages and returns them. A
// chat.postMessage call is recorded (WaitCalls) a moment before its message
// is stored, so a test that reads the stored ts waits here.
func (s *Slack) WaitMessages(t testing.TB, channel string, n int) []Message {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		if ms := s.Messages(channel); len(ms) >= n {
			return ms
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("fake Slack: %d messages in %s, want %d", len(s.Messages(channel)), channel, n)
		}
	}
}

// history answers conversations.history and conversations.replies from the
// stored messages; metadata only with include_all_metadata, as Slack does.
func (s *Slack) history(method string, f url.Values) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.messages {
		if m.Channel != f.Get("channel") {
			continue
		}
		if method == "conversations.replies" && m.ThreadTS != f.Get("ts") && m.TS != f.Get("ts") {
			continue
		}
		if method == "conversations.history" && m.ThreadTS != "" {
			continue
		}
		if f.Get("oldest") != "" && m.TS < f.Get("oldest") {
			continue
		}
		if f.Get("include_all_metadata") != "1" {
			m.Metadata = nil
		}
		out = append(out, m)
	}
	slices.Reverse(out) // newest first, like history
	return out
}

func (s *Slack) serveResponse(w http.ResponseWriter, r *http.Request) {
	c := readCall(r, ResponseURLMethod)
	rep, scripted := s.record(c)
	if e := responseRefusal(c.Body); e != "" && !scripted {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]any{"ok": false, "error": "invalid_blocks", "response_metadata": map[string]any{"messages": []string{"[ERROR] " + e}}})
		return
	}
	writeReply(w, rep, "ok")
}

// Socket is the server end of one Socket Mode connection.
type Socket struct {
	conn *websocket.Conn
	wmu  sync.Mutex

	mu      sync.Mutex
	acks    []Ack
	closed  bool
	changed chan struct{}
}

// Ack is what the app sent back for an envelope.
type Ack struct {
	EnvelopeID string          `json:"envelope_id"`
	Payload    json.RawMessage `json:"payload,omitempty"`
}

func (s *Slack) serveSocket(w http.ResponseWriter, r *http.Request) {
	s.record(Call{Method: "socket", Path: r.URL.Path, Header: r.Header.Clone()})
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	sock := &Socket{conn: conn, changed: make(chan struct{})}
	if err := sock.write(map[string]any{
		"type": "hello", "num_connections": 1,
		"connection_info": map[string]any{"app_id": "A1"},
		"debug_info":      map[string]any{"host": "fake"},
	}); err != nil {
		conn.Close()
		return
	}
	s.sockets <- sock
	defer conn.Close()
	for {
		var a Ack
		err := conn.ReadJSON(&a)
		sock.mu.Lock()
		if err != nil {
			sock.closed = true
		} else {
			sock.acks = append(sock.acks, a)
		}
		close(sock.changed)
		sock.changed = make(chan struct{})
		sock.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// Socket waits for the app to open a Socket Mode connection; the fake has
// already sent it hello.
func (s *Slack) Socket(t testing.TB) *Socket {
	t.Helper()
	select {
	case sock := <-s.sockets:
		t.Cleanup(func() { sock.conn.Close() })
		return sock
	case <-time.After(waitFor):
		t.Fatal("fake Slack: the app did not open a Socket Mode connection")
		return nil
	}
}

func (c *Socket) write(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.conn.WriteJSON(v)
}

// Send sends an envelope of type typ ("events_api", "slash_commands",
// "interactive") with payload.
func (c *Socket) Send(t testing.TB, typ, envelopeID string, payload any) {
	t.Helper()
	env := map[string]any{"type": typ, "envelope_id": envelopeID, "payload": payload,
		"accepts_response_payload": typ != "events_api", "retry_attempt": 0, "retry_reason": ""}
	if err := c.write(env); err != nil {
		t.Fatalf("fake Socket Mode: send %s: %v", typ, err)
	}
}

// SendRaw writes any frame, e.g. a redelivered envelope.
func (c *Socket) SendRaw(t testing.TB, v any) {
	t.Helper()
	if err := c.write(v); err != nil {
		t.Fatalf("fake Socket Mode: send: %v", err)
	}
}

// WaitAck waits for the ack of envelopeID.
func (c *Socket) WaitAck(t testing.TB, envelopeID string) Ack {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		c.mu.Lock()
		changed, closed := c.changed, c.closed
		for _, a := range c.acks {
			if a.EnvelopeID == envelopeID {
				c.mu.Unlock()
				return a
			}
		}
		c.mu.Unlock()
		if closed {
			t.Fatalf("fake Socket Mode: connection closed before the ack of %s", envelopeID)
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("fake Socket Mode: no ack for %s", envelopeID)
		}
	}
}

// Acks returns every ack received so far.
func (c *Socket) Acks() []Ack {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.acks)
}

// Close drops the connection from the server's end, as Slack does after
// a disconnect envelope.
func (c *Socket) Close() { c.conn.Close() }
