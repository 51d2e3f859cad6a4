package transport

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/knowledge"
)

// Requests an attacker, or a broken proxy, might send. Forged, stale and
// tampered signatures and the 64 KB slash body limit are in
// TestSignatureIsCheckedBeforeAnything; these are the rest.

// nothingDone asserts that a request did no work: the bot was asked
// nothing, Slack was called for nothing, and nothing was queued.
func nothingDone(t *testing.T, h *harness) {
	t.Helper()
	h.settle()
	if asked := h.bot.Asked(); len(asked) != 0 {
		t.Errorf("the bot was asked %q", asked)
	}
	if n := len(h.slack.Calls("")); n != 0 {
		t.Errorf("%d calls to Slack", n)
	}
}

// TestMalformedBodiesAreRejectedWithoutWork: validly signed (so only Slack,
// or someone holding the secret, could send them) yet malformed.
func TestMalformedBodiesAreRejectedWithoutWork(t *testing.T) {
	tests := []struct {
		name, path, contentType string
		body                    string
		status                  int
	}{
		{"events: truncated JSON", "/slack/events", jsonType, `{"type":"event_callback","event":{"type":"app_mention"`, 400},
		{"events: not JSON", "/slack/events", jsonType, `type=event_callback`, 400},
		{"events: JSON array", "/slack/events", jsonType, `[{"type":"event_callback"}]`, 400},
		{"events: wrong field types", "/slack/events", jsonType, `{"type":42,"event_id":{"a":1}}`, 400},
		{"events: callback without an event", "/slack/events", jsonType, `{"type":"event_callback","event_id":"Ev1"}`, 200},
		{"events: event not an object", "/slack/events", jsonType, `{"type":"event_callback","event_id":"Ev1","event":"app_mention"}`, 200},
		{"events: unknown type", "/slack/events", jsonType, `{"type":"something_new"}`, 200},
		{"interactive: bad escape", "/slack/interactive", formType, `payload=%zz`, 400},
		{"interactive: no payload", "/slack/interactive", formType, `foo=bar`, 400},
		{"interactive: payload not JSON", "/slack/interactive", formType, `payload=%7Bnot+json`, 400},
		{"interactive: payload of the wrong shape", "/slack/interactive", formType, `payload=%5B1%2C2%5D`, 400},
		{"commands: bad escape", "/slack/commands", formType, `command=%2Fgpu&text=%zz&response_url=x`, 400},
		{"commands: no response_url", "/slack/commands", formType, `command=%2Fgpu&text=fit+13b&trigger_id=t1`, 400},
		{"commands: empty", "/slack/commands", formType, ``, 400},
		{"commands: JSON instead of a form", "/slack/commands", jsonType, `{"command":"/gpu","text":"fit 13b"}`, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			got := h.send(t, tt.path, tt.contentType, []byte(tt.body))
			if got.status != tt.status {
				t.Errorf("status %d (%s), want %d", got.status, strings.TrimSpace(got.body), tt.status)
			}
			nothingDone(t, h)
		})
	}
}

// TestOversizedBodiesAreCutOff: every endpoint stops reading at its limit
// and answers 413, also when the client does not say how long the body is.
func TestOversizedBodiesAreCutOff(t *testing.T) {
	for _, tt := range []struct {
		path  string
		limit int
	}{{"/slack/commands", maxCommandBody}, {"/slack/events", maxEventBody}, {"/slack/interactive", maxInteractiveBody}} {
		for _, chunked := range []bool{false, true} {
			t.Run(tt.path+" chunked="+strconv.FormatBool(chunked), func(t *testing.T) {
				t.Parallel() // each waits out the server's half-second linger on close
				h := newHarness(t, nil)
				body := bytes.Repeat([]byte("a"), tt.limit+1)
				got := h.send(t, tt.path, formType, body, func(r *http.Request) {
					if chunked {
						r.Body = io.NopCloser(bytes.NewReader(body))
						r.ContentLength = -1 // Transfer-Encoding: chunked
					}
				})
				if got.status != http.StatusRequestEntityTooLarge {
					t.Errorf("status %d, want 413", got.status)
				}
				nothingDone(t, h)
			})
		}
	}
}

// TestReplayWithinTheWindowIsAnsweredOnce: a captured request sent again
// within the 5-minute window passes the signature check (nothing in it
// changed), so what stops it is de-duplication on Slack's ids.
func TestReplayWithinTheWindowIsAnsweredOnce(t *testing.T) {
	h := newHarness(t, nil)
	ts := time.Now()
	slash := bottest.SlashForm("fit 13b lora", "C1", "U1", h.slack.ResponseURL("r"), "trig-replayed")
	click := bottest.InteractiveForm(bottest.BlockAction("C1", "U1", "1.1", actBits, `{"q":"fit 13b lora"}`, h.slack.ResponseURL("click"), "trig-click"))
	mention := bottest.EventCallback("EvReplayed", bottest.Mention("C1", "U1", "1700000000.000900", "<@UBOT> fit 13b lora"))
	for range 3 {
		for _, req := range []struct {
			path, contentType string
			body              []byte
		}{{"/slack/commands", formType, slash}, {"/slack/interactive", formType, click}, {"/slack/events", jsonType, mention}} {
			r := bottest.SignedRequest(t, h.srv.URL+req.path, secret, ts, req.contentType, req.body) // the same bytes each time
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("%s replay: status %d", req.path, resp.StatusCode)
			}
		}
		h.settle()
	}
	if n := len(h.slack.Calls(bottest.ResponseURLMethod)); n != 2 {
		t.Errorf("%d response_url answers to a command and a click sent three times each, want 2", n)
	}
	if n := len(h.slack.Calls("chat.postMessage")); n != 1 {
		t.Errorf("%d replies to a mention sent three times, want 1", n)
	}
	if asked := h.bot.Asked(); len(asked) != 3 {
		t.Errorf("bot asked %d times, want 3 (each request once)", len(asked))
	}
}

// slowServer serves the app with read timeouts like bot serve's, scaled
// down so the test is quick.
func slowServer(t *testing.T, h *harness) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(h.app.Handler())
	srv.Config.ReadHeaderTimeout = 200 * time.Millisecond
	srv.Config.ReadTimeout = 400 * time.Millisecond
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

// TestSlowLorisIsCutOff: a client that sends its headers and then stalls
// (part of the body, or part of the headers) has its connection closed by
// the server's read timeouts, and nothing reaches the bot. The handler
// never waits longer than the server lets it read.
func TestSlowLorisIsCutOff(t *testing.T) {
	body := bottest.SlashForm("fit 13b lora", "C1", "U1", "http://127.0.0.1:1/r", "trig")
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	head := "POST /slack/commands HTTP/1.1\r\nHost: bot\r\nContent-Type: " + formType +
		"\r\nContent-Length: " + strconv.Itoa(len(body)) +
		"\r\nX-Slack-Request-Timestamp: " + ts +
		"\r\nX-Slack-Signature: " + bottest.Signature(secret, time.Unix(time.Now().Unix(), 0), body) + "\r\n\r\n"
	for name, sent := range map[string]string{
		"stalls in the body":    head + string(body[:len(body)/2]),
		"stalls in the headers": head[:len(head)/2],
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, nil)
			conn, err := net.Dial("tcp", slowServer(t, h))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, sent); err != nil {
				t.Fatal(err)
			}
			// Read until the server gives up on us; our own deadline only
			// keeps a broken server from hanging the test.
			conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					t.Errorf("a stalled request got %s", resp.Status)
				}
				if _, err := io.ReadAll(conn); err != nil {
					t.Errorf("connection left open after the error: %v", err)
				}
			} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatal("the server kept a stalled connection open for 10 s")
			}
			nothingDone(t, h)
		})
	}
}

// TestLongChineseMessageIsAnswered: 40 KB of Chinese (the parser reads a
// bounded prefix) gets an ordinary answer through the whole bot, as a
// direct message: 13,000-odd characters are 40 KB of UTF-8, within the
// events limit (a slash command of that size is over the 64 KB form limit
// once URL-encoded, and is refused with 413 before any work).
func TestLongChineseMessageIsAnswered(t *testing.T) {
	msg := longChinese(40 << 10)
	h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
	h.event(t, "EvLong", bottest.Msg("D1", "im", "U1", "1700000000.000100", msg))
	settleWithin(t, h, 30*time.Second)
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 1 || posts[0].Form.Get("text") == "" {
		t.Fatalf("%d replies to a 40 KB message, want one answer", len(posts))
	}
	if got := h.send(t, "/slack/commands", formType, bottest.SlashForm(msg, "C1", "U1", h.slack.ResponseURL("r"), "t1")); got.status != http.StatusRequestEntityTooLarge {
		t.Errorf("a 40 KB slash command: status %d, want 413", got.status)
	}
}

// longChinese repeats a procurement question up to n bytes of UTF-8.
func longChinese(n int) string {
	const q = "我们团队想用 4090 做七十亿参数模型的 LoRA 微调，每月大约跑 200 小时，包月划算吗？按需价格 1.8 元每小时。"
	var b strings.Builder
	for b.Len()+len(q) <= n {
		b.WriteString(q)
	}
	return b.String()
}
