// Package subscribe keeps which Slack channels receive the scheduled posts —
// the daily price-change post and the monthly spend recap. It is storage
// only (Redis and the standard library), so the scheduler can read it
// without pulling in the bot; the commands that change subscriptions
// (/gpu subscribe, unsubscribe, subscriptions) are package
// subscribe/command.
//
// # Redis layout
//
//	gpubot:sub:prices  HASH  "<team>:<channel>" → Sub JSON
//	gpubot:sub:recap   HASH  "<team>:<channel>" → Sub JSON
//
// One hash per topic keeps the scheduler's read to one HGETALL and every
// change to one command. The keys never expire, so the embedded mode
// snapshots them.
package subscribe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Topic is what a channel subscribes to.
type Topic string

// Topics.
const (
	Prices Topic = "prices" // the daily price-change post
	Recap  Topic = "recap"  // the monthly spend recap
)

// Topics lists every topic, in the order replies show them.
var Topics = []Topic{Prices, Recap}

// Sub is one channel's subscription to one topic.
type Sub struct {
	Team    string `json:"team"`
	Channel string `json:"channel"`
	Topic   Topic  `json:"topic"`
	// GPUs narrows the price post to these cards (canonical ids); each
	// covers its whole family, so h100-sxm also covers h100-pcie. Empty
	// means every card.
	GPUs []string `json:"gpus,omitempty"`
	// Threshold is the smallest price move reported, as a share (0.05 for
	// 5 %); 0 means the catalogue default (1 % and a few cents).
	Threshold float64 `json:"threshold,omitempty"`
	// Quiet posts nothing on a day nothing moved, instead of a one-line
	// "no changes".
	Quiet bool `json:"quiet,omitempty"`
	// Lang is the language of the posts: zh or en.
	Lang      string    `json:"lang"`
	By        string    `json:"by"` // who subscribed
	CreatedAt time.Time `json:"created_at"`
}

// ID is "<team>:<channel>", the subscription's field in its topic hash.
func (s Sub) ID() string { return s.Team + ":" + s.Channel }

// Options configure a Store.
type Options struct {
	Prefix string // key prefix; "gpubot:"
	// Persist writes durable state after a change (store.Store.Persist in
	// the embedded mode); nil does nothing.
	Persist func(ctx context.Context) error
}

// Store reads and writes subscriptions. It is safe for concurrent use.
type Store struct {
	rdb     redis.UniversalClient
	prefix  string
	persist func(ctx context.Context) error
}

// New returns a Store over rdb.
func New(rdb redis.UniversalClient, opt Options) *Store {
	if opt.Prefix == "" {
		opt.Prefix = "gpubot:"
	}
	if opt.Persist == nil {
		opt.Persist = func(context.Context) error { return nil }
	}
	return &Store{rdb: rdb, prefix: opt.Prefix, persist: opt.Persist}
}

func (s *Store) key(t Topic) string { return s.prefix + "sub:" + string(t) }

func valid(t Topic) error {
	if t != Prices && t != Recap {
		return fmt.Errorf("unknown subscription topic %q", t)
	}
	return nil
}

// Put creates or replaces a subscription.
func (s *Store) Put(ctx context.Context, sub Sub) error {
	if err := valid(sub.Topic); err != nil {
		return err
	}
	if sub.Team == "" || sub.Channel == "" {
		return errors.New("subscription needs a team and a channel")
	}
	raw, err := json.Marshal(sub)
	if err != nil {
		return fmt.Errorf("encode subscription: %w", err)
	}
	if err := s.rdb.HSet(ctx, s.key(sub.Topic), sub.ID(), raw).Err(); err != nil {
		return fmt.Errorf("save subscription: %w", err)
	}
	if err := s.persist(ctx); err != nil {
		return fmt.Errorf("save subscription: %w", err)
	}
	return nil
}

// Delete removes a channel's subscription to t; ok is false when there was none.
func (s *Store) Delete(ctx context.Context, team, channel string, t Topic) (ok bool, err error) {
	if err := valid(t); err != nil {
		return false, err
	}
	n, err := s.rdb.HDel(ctx, s.key(t), team+":"+channel).Result()
	if err != nil {
		return false, fmt.Errorf("delete subscription: %w", err)
	}
	if n == 0 {
		return false, nil
	}
	if err := s.persist(ctx); err != nil {
		return true, fmt.Errorf("delete subscription: %w", err)
	}
	return true, nil
}

// Get returns a channel's subscription to t.
func (s *Store) Get(ctx context.Context, team, channel string, t Topic) (Sub, bool, error) {
	if err := valid(t); err != nil {
		return Sub{}, false, err
	}
	raw, err := s.rdb.HGet(ctx, s.key(t), team+":"+channel).Bytes()
	if errors.Is(err, redis.Nil) {
		return Sub{}, false, nil
	}
	if err != nil {
		return Sub{}, false, fmt.Errorf("read subscription: %w", err)
	}
	var sub Sub
	if err := json.Unmarshal(raw, &sub); err != nil {
		return Sub{}, false, fmt.Errorf("read subscription %s: %w", team+":"+channel, err)
	}
	return sub, true, nil
}

// Channel returns a channel's subscriptions, in Topics order.
func (s *Store) Channel(ctx context.Context, team, channel string) ([]Sub, error) {
	var out []Sub
	for _, t := range Topics {
		sub, ok, err := s.Get(ctx, team, channel, t)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, sub)
		}
	}
	return out, nil
}

// All returns every subscription to t, ordered by team and channel. A
// record that does not decode is skipped and reported in the error, so one
// bad record does not stop every channel's post.
func (s *Store) All(ctx context.Context, t Topic) ([]Sub, error) {
	if err := valid(t); err != nil {
		return nil, err
	}
	m, err := s.rdb.HGetAll(ctx, s.key(t)).Result()
	if err != nil {
		return nil, fmt.Errorf("read subscriptions: %w", err)
	}
	out := make([]Sub, 0, len(m))
	var bad []string
	for id, raw := range m {
		var sub Sub
		if err := json.Unmarshal([]byte(raw), &sub); err != nil || sub.Channel == "" {
			bad = append(bad, id)
			continue
		}
		out = append(out, sub)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID() < out[j].ID() })
	if len(bad) > 0 {
		sort.Strings(bad)
		return out, fmt.Errorf("undecodable %s subscriptions: %s", t, strings.Join(bad, ", "))
	}
	return out, nil
}

// String is the subscription for logs.
func (s Sub) String() string { return fmt.Sprintf("%s %s/%s", s.Topic, s.Team, s.Channel) }
