package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/slack-go/slack"
)

// Body limits: a slash command is a short form; events and button payloads
// carry a whole message.
const (
	maxCommandBody     = 64 << 10
	maxEventBody       = 1 << 20
	maxInteractiveBody = 1 << 20
)

// Handler serves Slack's HTTP requests: POST /slack/commands, /slack/events
// and /slack/interactive. Each request's signature is checked before its
// body is parsed.
func (a *App) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST /slack/commands", a.verified(maxCommandBody, a.serveCommand))
	mux.Handle("POST /slack/events", a.verified(maxEventBody, a.serveEvent))
	mux.Handle("POST /slack/interactive", a.verified(maxInteractiveBody, a.serveInteractive))
	return mux
}

// verified reads at most limit bytes of body and passes it on only when
// Slack's v0 signature over it is valid and its timestamp is within five
// minutes (slack.SecretsVerifier: HMAC-SHA256, constant-time compare).
// Rejections get 401 (413 when too large) and a log line naming the reason,
// never the signature or the secret.
func (a *App) verified(limit int64, next func(w http.ResponseWriter, r *http.Request, body []byte)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reject := func(status int, reason string) {
			a.log.WarnContext(r.Context(), "slack request rejected", "path", r.URL.Path, "reason", reason,
				"remote", r.RemoteAddr, "retry", r.Header.Get("X-Slack-Retry-Num"))
			http.Error(w, http.StatusText(status), status)
		}
		// Headers and timestamp first: a stale or unsigned request is
		// turned away before its body is read.
		sv, err := slack.NewSecretsVerifier(r.Header, a.cfg.SigningSecret)
		if err != nil {
			reject(http.StatusUnauthorized, verifyReason(err))
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
		if err != nil {
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				reject(http.StatusRequestEntityTooLarge, "body over "+strconv.FormatInt(limit, 10)+" bytes")
				return
			}
			reject(http.StatusBadRequest, "body unreadable")
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
	a.interact(cb)
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
