// Package thread remembers the last request of each conversation, so a
// follow-up ("20k samples", "那 qlora 呢") can be merged with it by any bot
// replica. It lives in Redis with a TTL.
//
// Keys:
//
//	thread:{team}:{channel}:{thread_ts}  a channel thread; ThreadTTL
//	thread:{team}:{channel}              a DM, whatever its thread; DMTTL
//
// A DM counts as one conversation for DMTTL (30 minutes) after its last
// message; a channel thread for ThreadTTL (24 hours). Each Put renews it.
package thread

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gpubot/gpubot/bot/parse"
	"github.com/redis/go-redis/v9"
)

// Defaults for Options.
const (
	DMTTL     = 30 * time.Minute
	ThreadTTL = 24 * time.Hour
)

// Options tune a Store; zero values take the defaults above.
type Options struct {
	DMTTL, ThreadTTL time.Duration
}

// Store keeps conversations' last requests.
type Store struct {
	rdb  redis.UniversalClient
	opts Options
}

// New returns a store over rdb.
func New(rdb redis.UniversalClient, opts Options) *Store {
	if opts.DMTTL <= 0 {
		opts.DMTTL = DMTTL
	}
	if opts.ThreadTTL <= 0 {
		opts.ThreadTTL = ThreadTTL
	}
	return &Store{rdb: rdb, opts: opts}
}

// Conversation identifies where a message was said.
type Conversation struct {
	Team, Channel, Thread string
}

// dm reports a direct-message channel (Slack's ids start with D).
func (c Conversation) dm() bool { return strings.HasPrefix(c.Channel, "D") }

// Key is the Redis key of c, and "" when c is no conversation (a channel
// message outside a thread has none until it becomes a thread's root, which
// its own ts makes it).
func (c Conversation) Key() string {
	if c.Channel == "" {
		return ""
	}
	if c.dm() {
		return "thread:" + c.Team + ":" + c.Channel
	}
	if c.Thread == "" {
		return ""
	}
	return "thread:" + c.Team + ":" + c.Channel + ":" + c.Thread
}

func (s *Store) ttl(c Conversation) time.Duration {
	if c.dm() {
		return s.opts.DMTTL
	}
	return s.opts.ThreadTTL
}

// Last returns the conversation's last request; ok is false when there is
// none (never, or expired).
func (s *Store) Last(ctx context.Context, c Conversation) (parse.Request, bool, error) {
	key := c.Key()
	if key == "" {
		return parse.Request{}, false, nil
	}
	b, err := s.rdb.Get(ctx, key).Bytes()
	if errors.Is(err, redis.Nil) {
		return parse.Request{}, false, nil
	}
	if err != nil {
		return parse.Request{}, false, fmt.Errorf("read conversation: %w", err)
	}
	var r parse.Request
	if err := json.Unmarshal(b, &r); err != nil {
		return parse.Request{}, false, fmt.Errorf("decode conversation %s: %w", key, err)
	}
	return r, true, nil
}

// Put makes r the conversation's last request and renews its TTL.
// Requests that carry nothing to follow up on (help, unknown, problems)
// are not kept, so "thanks" does not end a conversation.
func (s *Store) Put(ctx context.Context, c Conversation, r parse.Request) error {
	key := c.Key()
	if key == "" || r.Intent == parse.Unknown || r.Intent == parse.Help || len(r.Problems) > 0 {
		return nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode conversation: %w", err)
	}
	if err := s.rdb.Set(ctx, key, b, s.ttl(c)).Err(); err != nil {
		return fmt.Errorf("save conversation: %w", err)
	}
	return nil
}
