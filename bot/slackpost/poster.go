// Package slackpost sends the bot's messages to Slack: chat.postMessage at
// about one message a second per channel, with retries that honour
// Retry-After and never post the same message twice; chat.postEphemeral; and
// replies to a response_url.
//
// A failure can leave it unknown whether Slack posted the message (a 5xx, a
// dropped connection, internal_error). Before retrying one of those, the
// poster looks for the message it tried to post — each carries its key in
// the message metadata — in the channel or thread, and retries only when it
// is not there. A 429 or a refused connection means nothing was posted, so
// those are retried straight away (after Retry-After).
package slackpost

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"
)

// MetadataEventType is the metadata event_type of every message the poster
// posts; its payload's "key" identifies the message.
const MetadataEventType = "gpubot_post"

// ErrDuplicate reports a Post whose key is already being posted elsewhere, or
// whose earlier post ended without knowing whether Slack took it.
var ErrDuplicate = errors.New("slackpost: a message with this key was already posted or is being posted")

// Options tune a Poster; the zero value is ready for production.
type Options struct {
	// Pace is the least time between two posts to one channel, across every
	// replica sharing the Redis. Zero means one second; negative turns it off.
	Pace time.Duration
	// MaxAttempts bounds the tries per message. Zero means 4.
	MaxAttempts int
	// Backoff is the wait before retrying after a 5xx; it doubles each time,
	// up to 30 seconds. Zero means one second.
	Backoff time.Duration
	// KeyTTL is how long a posted key is remembered. Zero means 24 hours.
	KeyTTL time.Duration
	// HTTPClient posts to response URLs. Nil means a client with a 10-second timeout.
	HTTPClient *http.Client
	// Log receives retries and give-ups. Nil discards them.
	Log *slog.Logger
	// ResponseURLAllowed, if set, must accept a response_url before
	// anything is posted to it (Slack's hooks host in production).
	ResponseURLAllowed func(*url.URL) bool
	// OnError, if set, is told about every failed Slack call (for metrics):
	// the Web API method ("response_url" for response URLs) and the kind of
	// failure, one of ErrorKind's answers.
	OnError func(method, kind string)
	// Outbox keeps what Post and Respond could not deliver after their
	// tries (Slack down, refusing connections, the caller's deadline spent)
	// in Redis and retries it from RunOutbox, for up to OutboxMaxAge (an
	// hour when zero; a response_url lives 30 minutes). They then return an
	// error wrapping ErrQueued. Responses that replace the original (button
	// clicks, rephrases) are not queued: a late replacement could land on
	// the wrong message. Off when false or without Redis.
	Outbox       bool
	OutboxMaxAge time.Duration
	// OnOutbox, if set, hears OutboxQueued, OutboxDelivered and OutboxDropped.
	OnOutbox func(event string)
	// Now and Wait are the clock; tests replace them. Wait returns early
	// with ctx's error when ctx ends.
	Now  func() time.Time
	Wait func(ctx context.Context, d time.Duration) error
}

// Message is one message for chat.postMessage or chat.postEphemeral.
type Message struct {
	Channel  string
	ThreadTS string        // reply in this thread; empty posts at the top level
	Text     string        // mrkdwn fallback and notification text, sent as given
	Blocks   []slack.Block // may be empty
	// Key makes the post idempotent: while it is remembered (Options.KeyTTL),
	// a second Post with the same key returns the first one's timestamp
	// instead of posting. Empty keys are not remembered.
	Key string
}

// Poster posts messages. It is safe for concurrent use.
type Poster struct {
	api   *slack.Client
	rdb   redis.UniversalClient
	opt   Options
	log   *slog.Logger
	pacer *redis.Script

	mu    sync.Mutex
	slots map[string]time.Time // per-channel pace when Redis is unavailable
}

// New builds a poster over api. rdb paces channels and remembers keys across
// replicas; with a nil rdb both are kept in this process only.
func New(api *slack.Client, rdb redis.UniversalClient, o Options) *Poster {
	if o.Pace == 0 {
		o.Pace = time.Second
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 4
	}
	if o.Backoff <= 0 {
		o.Backoff = time.Second
	}
	if o.KeyTTL <= 0 {
		o.KeyTTL = 24 * time.Hour
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: 10 * time.Second, Transport: responseTransport()}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Wait == nil {
		o.Wait = wait
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Poster{api: api, rdb: rdb, opt: o, log: log, pacer: redis.NewScript(paceScript), slots: map[string]time.Time{}}
}

// responseTransport keeps connections to the response_url host
// (hooks.slack.com) open for reuse by every worker at once: the default
// transport keeps two, so under load most answers paid a new connection
// and TLS handshake (cmd/loadgen counts them).
func responseTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return t
}

// wait sleeps for d or until ctx ends.
func wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pause waits d through Options.Wait; no wait at all for d <= 0.
func (p *Poster) pause(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	return p.opt.Wait(ctx, d)
}

// outcome says what a failed call means for a retry.
type outcome int

const (
	failed    outcome = iota // nothing to retry (4xx, ok=false with a real reason, ctx ended)
	notSent                  // Slack did not take it (429, refused connection): retry
	maybeSent                // Slack may have taken it (5xx, lost connection, internal_error)
	badBlocks                // Slack refused the blocks: retry with the text alone
)

// ErrorKind names a failed Slack call for metrics: ratelimited (429),
// server (5xx, internal_error), refused (other API errors) or network.
func ErrorKind(err error) string {
	out, _ := classify(err)
	switch {
	case out == notSent && isRateLimit(err):
		return "ratelimited"
	case out == notSent:
		return "network"
	case out == maybeSent:
		if _, ok := errors.AsType[*net.OpError](err); ok {
			return "network"
		}
		return "server"
	}
	return "refused"
}

func isRateLimit(err error) bool {
	if _, ok := errors.AsType[*slack.RateLimitedError](err); ok {
		return true
	}
	if sc, ok := errors.AsType[slack.StatusCodeError](err); ok && sc.Code == http.StatusTooManyRequests {
		return true
	}
	if se, ok := errors.AsType[slack.SlackErrorResponse](err); ok && (se.Err == "ratelimited" || se.Err == "rate_limited") {
		return true
	}
	return false
}

func (p *Poster) observe(method string, err error) {
	if p.opt.OnError != nil {
		p.opt.OnError(method, ErrorKind(err))
	}
}

// classify reads an error from the slack client.
func classify(err error) (outcome, time.Duration) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// Given up while waiting for Slack's answer: the post may have landed.
		return maybeSent, 0
	}
	if rl, ok := errors.AsType[*slack.RateLimitedError](err); ok {
		return notSent, rl.RetryAfter
	}
	if sc, ok := errors.AsType[slack.StatusCodeError](err); ok {
		switch {
		case sc.Code == http.StatusTooManyRequests:
			return notSent, time.Second
		case sc.Code >= 500:
			return maybeSent, 0
		default:
			return failed, 0
		}
	}
	if se, ok := errors.AsType[slack.SlackErrorResponse](err); ok {
		switch se.Err {
		case "ratelimited", "rate_limited":
			return notSent, time.Second
		case "internal_error", "fatal_error", "service_unavailable", "request_timeout":
			// Slack's docs: "some aspect of the operation may have succeeded".
			return maybeSent, 0
		case "invalid_blocks", "invalid_blocks_format":
			return badBlocks, 0
		default:
			return failed, 0
		}
	}
	if op, ok := errors.AsType[*net.OpError](err); ok && op.Op == "dial" {
		return notSent, 0 // never connected, so nothing was sent
	}
	// Any other transport error (reset, EOF, timeout) may have come after
	// Slack read the request.
	return maybeSent, 0
}

func (p *Poster) backoff(attempt int) time.Duration {
	d := p.opt.Backoff << (attempt - 1)
	if d <= 0 || d > 30*time.Second {
		d = 30 * time.Second
	}
	return d
}

// Post sends m with chat.postMessage and returns the message's timestamp.
func (p *Poster) Post(ctx context.Context, m Message) (string, error) {
	key := m.Key
	record := m.Key != "" && p.rdb != nil
	if key == "" {
		key = newKey()
	}
	if record {
		rctx, cancel := context.WithTimeout(ctx, redisTimeout)
		ok, err := p.rdb.SetNX(rctx, recordKey(key), pending, p.opt.KeyTTL).Result()
		cancel()
		switch {
		case err != nil:
			// The metadata check still prevents a duplicate on retry.
			p.log.WarnContext(ctx, "post key not recorded; relying on the channel check", "channel", m.Channel, "err", err)
			record = false
		case !ok:
			if ts, _ := p.rdb.Get(ctx, recordKey(key)).Result(); ts != "" && ts != pending {
				return ts, nil
			}
			return "", ErrDuplicate
		}
	}
	ts, unsure, err := p.send(ctx, m, key)
	if err != nil && p.outboxOn() && retryLater(err) {
		// The key stays pending, so a redelivery posts nothing meanwhile;
		// the outbox records the timestamp when it delivers.
		return ts, p.enqueue(ctx, messageItem(m, key, unsure), err)
	}
	if record {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		switch {
		case err == nil:
			p.rdb.Set(rctx, recordKey(key), ts, p.opt.KeyTTL)
		case !unsure:
			p.rdb.Del(rctx, recordKey(key)) // nothing was posted; let a later try post it
		}
	}
	return ts, err
}

const pending = "pending"

// redisTimeout bounds the Redis calls made before a post (its key, the
// channel's pace): both have a fallback, and while Redis is down each post
// would otherwise wait out the client's retries first.
const redisTimeout = 250 * time.Millisecond

func recordKey(key string) string { return "gpubot:post:" + key }

func newKey() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// send is Post's retry loop. unsure reports that an attempt may have posted.
func (p *Poster) send(ctx context.Context, m Message, key string) (ts string, unsure bool, err error) {
	oldest := p.opt.Now().Add(-time.Minute) // clock skew between us and Slack
	blocks := m.Blocks
	for attempt := 1; ; attempt++ {
		if err := p.turn(ctx, m.Channel); err != nil {
			return "", unsure, err
		}
		_, ts, err := p.api.PostMessageContext(ctx, m.Channel, p.options(m, blocks, key)...)
		if err == nil {
			return ts, false, nil
		}
		p.observe("chat.postMessage", err)
		out, delay := classify(err)
		switch out {
		case notSent:
			p.log.InfoContext(ctx, "slack did not take the post; retrying", "channel", m.Channel, "attempt", attempt, "retry_after", delay, "err", err)
		case maybeSent:
			unsure = true
			delay = p.backoff(attempt)
			p.log.WarnContext(ctx, "post may have failed; checking before a retry", "channel", m.Channel, "attempt", attempt, "err", err)
		case badBlocks:
			if len(blocks) == 0 {
				return "", unsure, fmt.Errorf("post to %s: %w", m.Channel, err)
			}
			p.log.WarnContext(ctx, "slack refused the blocks; posting the text alone", "channel", m.Channel, "err", err)
			blocks, delay = nil, 0
		default:
			return "", unsure, fmt.Errorf("post to %s: %w", m.Channel, err)
		}
		if attempt >= p.opt.MaxAttempts {
			return "", unsure, fmt.Errorf("post to %s: gave up after %d attempts: %w", m.Channel, attempt, err)
		}
		if err := p.pause(ctx, delay); err != nil {
			return "", unsure, err
		}
		if out == maybeSent {
			ts, found, ferr := p.find(ctx, m, key, oldest)
			if ferr != nil {
				return "", true, fmt.Errorf("post to %s: %w; not retrying, since checking whether it was posted failed: %v", m.Channel, err, ferr)
			}
			if found {
				p.log.InfoContext(ctx, "post had gone through; not posting again", "channel", m.Channel, "ts", ts)
				return ts, false, nil
			}
		}
	}
}

func (p *Poster) options(m Message, blocks []slack.Block, key string) []slack.MsgOption {
	opts := []slack.MsgOption{
		slack.MsgOptionText(m.Text, false),
		slack.MsgOptionDisableLinkUnfurl(),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: MetadataEventType, EventPayload: map[string]any{"key": key}}),
	}
	if len(blocks) > 0 {
		opts = append(opts, slack.MsgOptionBlocks(blocks...))
	}
	if m.ThreadTS != "" {
		opts = append(opts, slack.MsgOptionTS(m.ThreadTS))
	}
	return opts
}

// find looks for the message with key posted since oldest.
func (p *Poster) find(ctx context.Context, m Message, key string, oldest time.Time) (string, bool, error) {
	since := strconv.FormatInt(oldest.Unix(), 10) + ".000000"
	var msgs []slack.Message
	if m.ThreadTS != "" {
		replies, _, _, err := p.api.GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{
			ChannelID: m.Channel, Timestamp: m.ThreadTS, Oldest: since, Limit: 200, IncludeAllMetadata: true,
		})
		if err != nil {
			return "", false, fmt.Errorf("conversations.replies: %w", err)
		}
		msgs = replies
	} else {
		h, err := p.api.GetConversationHistoryContext(ctx, &slack.GetConversationHistoryParameters{
			ChannelID: m.Channel, Oldest: since, Limit: 200, IncludeAllMetadata: true,
		})
		if err != nil {
			return "", false, fmt.Errorf("conversations.history: %w", err)
		}
		msgs = h.Messages
	}
	for _, msg := range msgs {
		if msg.Metadata.EventType == MetadataEventType && fmt.Sprint(msg.Metadata.EventPayload["key"]) == key {
			return msg.Timestamp, true, nil
		}
	}
	return "", false, nil
}

// Ephemeral shows m to user only. An ephemeral message cannot be looked up
// afterwards, so only failures that certainly posted nothing are retried.
func (p *Poster) Ephemeral(ctx context.Context, m Message, user string) error {
	blocks := m.Blocks
	for attempt := 1; ; attempt++ {
		opts := []slack.MsgOption{slack.MsgOptionText(m.Text, false)}
		if len(blocks) > 0 {
			opts = append(opts, slack.MsgOptionBlocks(blocks...))
		}
		if m.ThreadTS != "" {
			opts = append(opts, slack.MsgOptionTS(m.ThreadTS))
		}
		_, err := p.api.PostEphemeralContext(ctx, m.Channel, user, opts...)
		if err == nil {
			return nil
		}
		p.observe("chat.postEphemeral", err)
		out, delay := classify(err)
		switch {
		case out == notSent:
		case out == badBlocks && len(blocks) > 0:
			blocks, delay = nil, 0
		default:
			return fmt.Errorf("ephemeral to %s: %w", m.Channel, err)
		}
		if attempt >= p.opt.MaxAttempts {
			return fmt.Errorf("ephemeral to %s: gave up after %d attempts: %w", m.Channel, attempt, err)
		}
		if err := p.pause(ctx, delay); err != nil {
			return err
		}
	}
}

// Posted returns the timestamp of the message posted with key (Message.Key)
// while the key is remembered (Options.KeyTTL), "" if there is none: an
// edited question finds the bot's reply to it this way.
func (p *Poster) Posted(ctx context.Context, key string) string {
	if p.rdb == nil || key == "" {
		return ""
	}
	rctx, cancel := context.WithTimeout(ctx, redisTimeout)
	defer cancel()
	ts, _ := p.rdb.Get(rctx, recordKey(key)).Result()
	if ts == pending {
		return ""
	}
	return ts
}
