package slackpost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/slack-go/slack"
)

// Response is a reply to a slash command's or a button's response_url.
type Response struct {
	ResponseType    string        `json:"response_type,omitempty"` // "in_channel" or "ephemeral"
	ReplaceOriginal bool          `json:"replace_original,omitempty"`
	DeleteOriginal  bool          `json:"delete_original,omitempty"`
	Text            string        `json:"text"`
	Blocks          []slack.Block `json:"blocks,omitempty"`
	// ReplacesAck says the original is only a slash command's
	// "⏳ Working on…" note: replacing it late is safe (nothing a click
	// changed can be reverted), so a failed attempt is queued in the
	// outbox like a new message.
	ReplacesAck bool `json:"-"`
}

// Response types.
const (
	InChannel = "in_channel"
	Ephemeral = "ephemeral"
)

// Respond posts r to a response_url. A 429 or a refused connection is
// retried; a 5xx only when r replaces the original message, since posting a
// new message twice would show it twice.
func (p *Poster) Respond(ctx context.Context, responseURL string, r Response) error {
	if p.opt.ResponseURLAllowed != nil {
		u, err := url.Parse(responseURL)
		if err != nil || !p.opt.ResponseURLAllowed(u) {
			host := ""
			if u != nil {
				host = u.Host
			}
			return fmt.Errorf("response_url host %q is not Slack's; not posting", host)
		}
	}
	out, err := p.respondRetrying(ctx, responseURL, r)
	// Queued: what certainly did not arrive (a refused connection, a 429)
	// and what Slack answered with a 5xx. Not a connection lost after the
	// request went out: it may have been posted, and a response cannot be
	// looked up to make sure, so a retry could show it twice.
	_, is5xx := errors.AsType[serverStatus](err)
	if err != nil && (!r.ReplaceOriginal || r.ReplacesAck) && p.outboxOn() && (out == notSent || is5xx) {
		return p.enqueue(ctx, responseItem(responseURL, r), err)
	}
	return err
}

// respondRetrying is Respond's retry loop; it returns the last failure's
// outcome with its error.
func (p *Poster) respondRetrying(ctx context.Context, responseURL string, r Response) (outcome, error) {
	for attempt := 1; ; attempt++ {
		out, delay, err := p.respond(ctx, responseURL, r)
		if err == nil {
			return 0, nil
		}
		if p.opt.OnError != nil {
			kind := map[outcome]string{notSent: "network", maybeSent: "server", failed: "refused", badBlocks: "refused"}[out]
			if strings.HasSuffix(err.Error(), "rate limited") {
				kind = "ratelimited"
			}
			p.opt.OnError("response_url", kind)
		}
		switch {
		case out == notSent:
		case out == maybeSent && r.ReplaceOriginal:
			delay = p.backoff(attempt)
		case out == badBlocks && len(r.Blocks) > 0:
			p.log.WarnContext(ctx, "slack refused the blocks; responding with the text alone", "err", err)
			r.Blocks, delay = nil, 0
		case out == maybeSent:
			// A new message posted twice would show twice: no retry now,
			// but the outbox may try again later.
			return out, err
		default:
			return out, err
		}
		if attempt >= p.opt.MaxAttempts {
			return out, fmt.Errorf("gave up after %d attempts: %w", attempt, err)
		}
		p.log.InfoContext(ctx, "response_url post failed; retrying", "attempt", attempt, "retry_after", delay, "err", err)
		if err := p.pause(ctx, delay); err != nil {
			return maybeSent, err
		}
	}
}

func (p *Poster) respond(ctx context.Context, responseURL string, r Response) (outcome, time.Duration, error) {
	// The URL is a credential for 30 minutes: errors name only its host.
	where := "response_url"
	if u, err := url.Parse(responseURL); err == nil {
		where = "response_url at " + u.Host
	}
	body, err := json.Marshal(r)
	if err != nil {
		return failed, 0, fmt.Errorf("%s: encode: %w", where, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, responseURL, bytes.NewReader(body))
	if err != nil {
		return failed, 0, fmt.Errorf("%s: bad URL", where)
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := p.opt.HTTPClient.Do(req)
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			return notSent, 0, fmt.Errorf("%s: %w", where, op)
		}
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			return maybeSent, 0, fmt.Errorf("%s: %w", where, ctx.Err())
		}
		if ue, ok := errors.AsType[*url.Error](err); ok {
			err = ue.Err // url.Error's text repeats the URL
		}
		return maybeSent, 0, fmt.Errorf("%s: %w", where, err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	reason := slackError(msg)
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		retry, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return notSent, time.Duration(max(retry, 1)) * time.Second, fmt.Errorf("%s: rate limited", where)
	case resp.StatusCode >= 500:
		return maybeSent, 0, fmt.Errorf("%s: %w", where, serverStatus(resp.StatusCode))
	case resp.StatusCode >= 300 || reason != "":
		if strings.HasPrefix(reason, "invalid_blocks") {
			return badBlocks, 0, fmt.Errorf("%s: %s", where, reason)
		}
		if reason == "" {
			reason = resp.Status
		}
		return failed, 0, fmt.Errorf("%s: %s", where, reason)
	}
	return 0, 0, nil
}

// slackError reads {"ok":false,"error":"…"}; a plain "ok" or {"ok":true} is no error.
func slackError(body []byte) string {
	var r struct {
		OK    *bool  `json:"ok"`
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &r) != nil || r.OK == nil || *r.OK {
		if t := strings.TrimSpace(string(body)); t != "" && t != "ok" && !strings.HasPrefix(t, "{") {
			return clip(t, 80)
		}
		return ""
	}
	if r.Error == "" {
		return "not ok"
	}
	return r.Error
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// serverStatus is a 5xx answer to a response_url post.
type serverStatus int

func (s serverStatus) Error() string { return strconv.Itoa(int(s)) + " " + http.StatusText(int(s)) }
