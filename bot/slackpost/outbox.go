package slackpost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"
)

// The outbox keeps answers the bot acknowledged but could not deliver
// (Slack down or refusing connections longer than a Post's or Respond's
// few tries, or the answer's own deadline spent waiting on it), and
// delivers them later from any replica.
//
// Redis layout (one hash tag, so both keys share a Redis Cluster slot and
// the claim script may touch them together):
//
//	gpubot:{outbox}:due    ZSET  item id → when it is next due (unix ms);
//	                              a claimed item's score is its lease's end
//	gpubot:{outbox}:items  HASH  item id → the item as JSON
//
// A replica claims due items by moving their score a lease ahead (one Lua
// script, so two replicas never claim one item), delivers each, and then
// removes it, or puts it back due after a backoff (30 s doubling to 10 min).
// One that crashes mid-delivery lets the lease run out and another takes
// the item. An item older than its limit — an hour for messages, the 30
// minutes Slack keeps a response_url for responses — is dropped, logged
// and counted.
const (
	outboxDue   = "gpubot:{outbox}:due"
	outboxItems = "gpubot:{outbox}:items"

	// DefaultOutboxMaxAge is how long a message is retried.
	DefaultOutboxMaxAge = time.Hour
	// responseURLLife is how long Slack accepts posts to a response_url.
	responseURLLife = 30 * time.Minute
	outboxLease     = 2 * time.Minute
	outboxBatch     = 20
)

// ErrQueued reports a message or response that was not delivered now and
// is in the outbox, to be retried (Options.Outbox).
var ErrQueued = errors.New("slackpost: not delivered yet; queued in the outbox and retried for up to an hour")

// Outbox events, for Options.OnOutbox.
const (
	OutboxQueued    = "queued"
	OutboxDelivered = "delivered"
	OutboxDropped   = "dropped" // too old, or refused by Slack for good
)

// outboxItem is one undelivered answer: a message (Channel set) or a
// response (URL set). Blocks are kept as Slack's JSON; slack.Blocks reads
// them back.
type outboxItem struct {
	ID              string          `json:"id"`
	Channel         string          `json:"channel,omitempty"`
	ThreadTS        string          `json:"thread_ts,omitempty"`
	MsgKey          string          `json:"msg_key,omitempty"` // Message.Key, recorded on delivery
	URL             string          `json:"url,omitempty"`     // a credential: never logged
	ResponseType    string          `json:"response_type,omitempty"`
	ReplaceOriginal bool            `json:"replace_original,omitempty"`
	Text            string          `json:"text"`
	Blocks          json.RawMessage `json:"blocks,omitempty"`
	Key             string          `json:"key,omitempty"`    // the metadata key of the post
	Unsure          bool            `json:"unsure,omitempty"` // an attempt may have posted it
	First           time.Time       `json:"first"`
	Tries           int             `json:"tries"`
}

func messageItem(m Message, key string, unsure bool) *outboxItem {
	b, _ := json.Marshal(m.Blocks)
	return &outboxItem{Channel: m.Channel, ThreadTS: m.ThreadTS, MsgKey: m.Key, Text: m.Text, Blocks: b, Key: key, Unsure: unsure}
}

func responseItem(url string, r Response) *outboxItem {
	b, _ := json.Marshal(r.Blocks)
	return &outboxItem{URL: url, ResponseType: r.ResponseType, ReplaceOriginal: r.ReplaceOriginal, Text: r.Text, Blocks: b}
}

func (it *outboxItem) blocks() []slack.Block {
	if len(it.Blocks) == 0 || string(it.Blocks) == "null" {
		return nil
	}
	var bs slack.Blocks
	if json.Unmarshal(it.Blocks, &bs) != nil {
		return nil // the text alone still answers
	}
	return bs.BlockSet
}

func (it *outboxItem) maxAge(limit time.Duration) time.Duration {
	if it.URL != "" {
		return min(limit, responseURLLife)
	}
	return limit
}

// retryLater reports whether a failed delivery is worth the outbox: Slack
// did not take it, may have, or the caller's time ran out. Refusals (a 4xx,
// channel_not_found, a response_url that is not Slack's) will not change.
func retryLater(err error) bool {
	out, _ := classify(err)
	return out == notSent || out == maybeSent
}

func (p *Poster) outboxOn() bool { return p.opt.Outbox && p.rdb != nil }

func (p *Poster) onOutbox(event string) {
	if p.opt.OnOutbox != nil {
		p.opt.OnOutbox(event)
	}
}

// enqueue stores it due after the first backoff. It returns ErrQueued, or
// the original error when the outbox cannot take it either.
func (p *Poster) enqueue(ctx context.Context, it *outboxItem, cause error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if it.ID == "" {
		it.ID = newKey()
	}
	if it.First.IsZero() {
		it.First = p.opt.Now()
	}
	raw, err := json.Marshal(it)
	if err != nil {
		return cause
	}
	due := p.opt.Now().Add(outboxBackoff(it.Tries)).UnixMilli()
	pipe := p.rdb.TxPipeline()
	pipe.HSet(ctx, outboxItems, it.ID, raw)
	pipe.ZAdd(ctx, outboxDue, redis.Z{Score: float64(due), Member: it.ID})
	if _, err := pipe.Exec(ctx); err != nil {
		p.log.ErrorContext(ctx, "answer not delivered and the outbox is unavailable", "err", cause, "outbox_err", err)
		return cause
	}
	p.onOutbox(OutboxQueued)
	p.log.WarnContext(ctx, "answer not delivered; queued in the outbox", "id", it.ID, "tries", it.Tries, "err", cause)
	return fmt.Errorf("%w: %v", ErrQueued, cause)
}

// outboxBackoff is the pause before try n+1: 30 s doubling, at most 10 min.
func outboxBackoff(tries int) time.Duration {
	d := 30 * time.Second << min(tries, 5)
	return min(d, 10*time.Minute)
}

// claimScript moves up to ARGV[3] items due by ARGV[1] to ARGV[2] (the
// lease's end) and returns them.
var claimScript = redis.NewScript(`
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return ids`)

// RunOutbox delivers the outbox's due items every poll until ctx ends. Run
// it on every replica; each item is claimed by one.
func (p *Poster) RunOutbox(ctx context.Context, poll time.Duration) error {
	if !p.outboxOn() {
		return nil
	}
	if poll <= 0 {
		poll = 5 * time.Second
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			p.DrainOutbox(ctx)
		}
	}
}

// DrainOutbox makes one pass: every due item is tried once. It returns how
// many were delivered.
func (p *Poster) DrainOutbox(ctx context.Context) int {
	if !p.outboxOn() {
		return 0
	}
	delivered := 0
	for ctx.Err() == nil {
		now := p.opt.Now()
		ids, err := claimScript.Run(ctx, p.rdb, []string{outboxDue},
			now.UnixMilli(), now.Add(outboxLease).UnixMilli(), outboxBatch).StringSlice()
		if err != nil {
			if !errors.Is(err, redis.Nil) {
				p.log.WarnContext(ctx, "outbox unavailable", "err", err)
			}
			return delivered
		}
		if len(ids) == 0 {
			return delivered
		}
		for _, id := range ids {
			if p.deliverItem(ctx, id) {
				delivered++
			}
		}
	}
	return delivered
}

func (p *Poster) deliverItem(ctx context.Context, id string) bool {
	raw, err := p.rdb.HGet(ctx, outboxItems, id).Bytes()
	if errors.Is(err, redis.Nil) {
		p.rdb.ZRem(ctx, outboxDue, id)
		return false
	}
	if err != nil {
		return false // the lease runs out; tried again later
	}
	var it outboxItem
	if err := json.Unmarshal(raw, &it); err != nil {
		p.remove(ctx, id)
		p.log.ErrorContext(ctx, "outbox item unreadable; dropped", "id", id, "err", err)
		p.onOutbox(OutboxDropped)
		return false
	}
	it.Tries++
	err = p.attempt(ctx, &it)
	switch {
	case err == nil:
		p.remove(ctx, id)
		p.onOutbox(OutboxDelivered)
		p.log.InfoContext(ctx, "queued answer delivered", "id", id, "tries", it.Tries, "waited", p.opt.Now().Sub(it.First).Round(time.Second).String())
		return true
	case !retryLater(err) || p.opt.Now().Sub(it.First) >= it.maxAge(p.outboxMaxAge()):
		p.remove(ctx, id)
		p.onOutbox(OutboxDropped)
		p.log.ErrorContext(ctx, "queued answer dropped: Slack did not take it in time", "id", id, "tries", it.Tries,
			"age", p.opt.Now().Sub(it.First).Round(time.Second).String(), "channel", it.Channel, "err", err)
		return false
	}
	raw, _ = json.Marshal(it)
	due := p.opt.Now().Add(outboxBackoff(it.Tries)).UnixMilli()
	pipe := p.rdb.TxPipeline()
	pipe.HSet(ctx, outboxItems, id, raw)
	pipe.ZAdd(ctx, outboxDue, redis.Z{Score: float64(due), Member: id})
	pipe.Exec(ctx)
	return false
}

func (p *Poster) outboxMaxAge() time.Duration {
	if p.opt.OutboxMaxAge > 0 {
		return p.opt.OutboxMaxAge
	}
	return DefaultOutboxMaxAge
}

func (p *Poster) remove(ctx context.Context, id string) {
	pipe := p.rdb.TxPipeline()
	pipe.HDel(ctx, outboxItems, id)
	pipe.ZRem(ctx, outboxDue, id)
	pipe.Exec(ctx)
}

// attempt tries an item once: a message that may already be in the channel
// is looked for first (by its key in the metadata), so a retry never posts
// it twice.
func (p *Poster) attempt(ctx context.Context, it *outboxItem) error {
	if it.URL != "" {
		r := Response{ResponseType: it.ResponseType, ReplaceOriginal: it.ReplaceOriginal, Text: it.Text, Blocks: it.blocks()}
		_, _, err := p.respond(ctx, it.URL, r)
		return err
	}
	m := Message{Channel: it.Channel, ThreadTS: it.ThreadTS, Text: it.Text, Blocks: it.blocks(), Key: it.MsgKey}
	if it.Unsure {
		if _, found, err := p.find(ctx, m, it.Key, it.First.Add(-time.Minute)); err != nil {
			return err
		} else if found {
			return nil
		}
	}
	if err := p.turn(ctx, m.Channel); err != nil {
		return err
	}
	_, ts, err := p.api.PostMessageContext(ctx, m.Channel, p.options(m, m.Blocks, it.Key)...)
	if err != nil {
		p.observe("chat.postMessage", err)
		if out, _ := classify(err); out == maybeSent {
			it.Unsure = true
		}
		return err
	}
	if m.Key != "" {
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		p.rdb.Set(rctx, recordKey(m.Key), ts, p.opt.KeyTTL)
		cancel()
	}
	return nil
}

// OutboxLen is how many items wait in the outbox (for a gauge).
func (p *Poster) OutboxLen(ctx context.Context) int64 {
	if !p.outboxOn() {
		return 0
	}
	n, _ := p.rdb.ZCard(ctx, outboxDue).Result()
	return n
}
