package slackpost

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"
)

// File is a file to share in a channel, e.g. a chart PNG.
type File struct {
	Channel  string
	ThreadTS string // share in this thread; empty shares in the channel
	Name     string // file name, "prices-2026-10-09.png"
	Title    string
	AltText  string // for screen readers
	Comment  string // initial comment shown with the file; may be empty
	Data     []byte
	// Key makes the upload at most once: while it is remembered, a second
	// Upload with the same key returns the first one's file id (or
	// ErrDuplicate when that upload ended without knowing whether Slack
	// took it) instead of uploading again. Empty keys are not remembered.
	Key string
}

// Upload shares f in its channel with files.getUploadURLExternal, a POST of
// the bytes, and files.completeUploadExternal, and returns the file id. A
// 429 or a refused connection is retried after Retry-After; anything that
// may have reached Slack is not, so a keyed file is never shared twice.
func (p *Poster) Upload(ctx context.Context, f File) (string, error) {
	if len(f.Data) == 0 || f.Name == "" {
		return "", errors.New("slackpost: upload needs a file name and data")
	}
	record := f.Key != "" && p.rdb != nil
	rkey := recordKey("file:" + f.Key)
	if record {
		ok, err := p.rdb.SetNX(ctx, rkey, pending, p.opt.KeyTTL).Result()
		switch {
		case err != nil:
			p.log.WarnContext(ctx, "upload key not recorded", "channel", f.Channel, "err", err)
			record = false
		case !ok:
			if id, _ := p.rdb.Get(ctx, rkey).Result(); id != "" && id != pending {
				return id, nil
			}
			return "", ErrDuplicate
		}
	}
	id, unsure, err := p.upload(ctx, f)
	if record {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		switch {
		case err == nil:
			p.rdb.Set(rctx, rkey, id, p.opt.KeyTTL)
		case !unsure:
			p.rdb.Del(rctx, rkey)
		}
	}
	return id, err
}

func (p *Poster) upload(ctx context.Context, f File) (id string, unsure bool, err error) {
	for attempt := 1; ; attempt++ {
		if err := p.turn(ctx, f.Channel); err != nil {
			return "", false, err
		}
		sum, err := p.api.UploadFileContext(ctx, slack.UploadFileParameters{
			Reader: bytes.NewReader(f.Data), FileSize: len(f.Data), Filename: f.Name, Title: f.Title,
			AltTxt: f.AltText, InitialComment: f.Comment, Channel: f.Channel, ThreadTimestamp: f.ThreadTS,
		})
		if err == nil {
			return sum.ID, false, nil
		}
		p.observe("files.upload", err)
		out, delay := classify(err)
		// Until files.completeUploadExternal is called nothing is shared;
		// slack-go names the step in the error.
		if out == maybeSent && !strings.HasPrefix(err.Error(), "CompleteUploadExternal") {
			out, delay = notSent, p.backoff(attempt)
		}
		if out != notSent {
			return "", out == maybeSent, fmt.Errorf("upload %s to %s: %w", f.Name, f.Channel, err)
		}
		if attempt >= p.opt.MaxAttempts {
			return "", false, fmt.Errorf("upload %s to %s: gave up after %d attempts: %w", f.Name, f.Channel, attempt, err)
		}
		p.log.InfoContext(ctx, "slack did not take the upload; retrying", "channel", f.Channel, "attempt", attempt, "retry_after", delay, "err", err)
		if err := p.pause(ctx, delay); err != nil {
			return "", false, err
		}
	}
}

// ErrPending means a keyed post's earlier attempt may still be in flight:
// try again later.
var ErrPending = errors.New("slackpost: an earlier attempt with this key may still be in flight")

// Settle resolves a keyed post whose earlier attempt did not finish — the
// replica posting it died, or Post returned ErrDuplicate. It looks for the
// message in m.Channel (m.ThreadTS) since since (zero: among the latest 200
// messages): found, it records the
// timestamp and returns it with found true. Not found, it clears a record
// left "pending" at least minAge ago, so the next Post sends the message,
// and returns found false; a younger pending record returns ErrPending.
// Call it only while holding the right to post m.Key (a scheduler claim),
// so that no live Post of the same key is cut short.
func (p *Poster) Settle(ctx context.Context, m Message, since time.Time, minAge time.Duration) (ts string, found bool, err error) {
	if m.Key == "" {
		return "", false, errors.New("slackpost: Settle needs a keyed message")
	}
	rkey := recordKey(m.Key)
	if p.rdb != nil {
		v, err := p.rdb.Get(ctx, rkey).Result()
		switch {
		case errors.Is(err, redis.Nil):
			v = ""
		case err != nil:
			return "", false, fmt.Errorf("read post record: %w", err)
		}
		if v != "" && v != pending {
			return v, true, nil
		}
	}
	ts, found, err = p.lookup(ctx, m, since)
	if err != nil {
		return "", false, err
	}
	if found {
		if p.rdb != nil {
			p.rdb.Set(ctx, rkey, ts, p.opt.KeyTTL)
		}
		return ts, true, nil
	}
	if p.rdb == nil {
		return "", false, nil
	}
	ttl, err := p.rdb.PTTL(ctx, rkey).Result()
	if err != nil {
		return "", false, fmt.Errorf("read post record: %w", err)
	}
	if ttl < 0 { // no record (-2) or one without expiry (-1, not ours)
		return "", false, nil
	}
	if age := p.opt.KeyTTL - ttl; age < minAge {
		return "", false, ErrPending
	}
	if err := clearPending.Run(ctx, p.rdb, []string{rkey}, pending).Err(); err != nil && !errors.Is(err, redis.Nil) {
		return "", false, fmt.Errorf("clear post record: %w", err)
	}
	p.log.WarnContext(ctx, "earlier post attempt never reached the channel; posting again", "channel", m.Channel)
	return "", false, nil
}

// lookup is find with an optional lower bound: a zero since reads the
// channel's (or thread's) latest 200 messages.
func (p *Poster) lookup(ctx context.Context, m Message, since time.Time) (string, bool, error) {
	if !since.IsZero() {
		return p.find(ctx, m, m.Key, since)
	}
	var msgs []slack.Message
	if m.ThreadTS != "" {
		replies, _, _, err := p.api.GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{
			ChannelID: m.Channel, Timestamp: m.ThreadTS, Limit: 200, IncludeAllMetadata: true,
		})
		if err != nil {
			return "", false, fmt.Errorf("conversations.replies: %w", err)
		}
		msgs = replies
	} else {
		h, err := p.api.GetConversationHistoryContext(ctx, &slack.GetConversationHistoryParameters{
			ChannelID: m.Channel, Limit: 200, IncludeAllMetadata: true,
		})
		if err != nil {
			return "", false, fmt.Errorf("conversations.history: %w", err)
		}
		msgs = h.Messages
	}
	for _, msg := range msgs {
		if msg.Metadata.EventType == MetadataEventType && fmt.Sprint(msg.Metadata.EventPayload["key"]) == m.Key {
			return msg.Timestamp, true, nil
		}
	}
	return "", false, nil
}

// clearPending deletes a record only while it still says pending.
var clearPending = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`)
