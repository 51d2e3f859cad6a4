// Package watch keeps price watches: "/gpu watch h100 < $2/h" tells the
// asker when the cheapest on-demand price first goes under a threshold,
// "/gpu watch 4090 @autodl 降价" on every new low. Each crossing is told
// once, however many replicas evaluate it.
//
// # Redis layout
//
//	gpubot:watch:{w}:seq         STRING  INCR'd for each new watch id
//	gpubot:watch:{w}:all         HASH    id -> JSON Watch
//	gpubot:watch:{w}:state:<id>  HASH    below (0/1), low (lowest price seen), crossings (count),
//	                                     pending (the crossing number not yet posted), text (its message)
//
// The {w} hash tag keeps every key of the package in one Redis Cluster slot
// so the transition script may touch them together.
//
// Exactly once: the evaluator moves a watch's state with one script (below
// → crossed, or a new low) that returns the crossing's number only to the
// caller that made the move, and the notification is posted with the key
// watch:<id>:<crossing> (slackpost's idempotent posts), so two replicas that
// evaluate the same refresh send one message; a post that fails stays
// pending and is retried with the same key.
package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Modes of a watch.
const (
	Below = "below" // the cheapest price first goes under Threshold
	Low   = "low"   // the cheapest price goes under the lowest seen since the watch was set
)

// Watch is one user's price watch.
type Watch struct {
	ID        string    `json:"id"`
	Team      string    `json:"team"`
	User      string    `json:"user"`
	Channel   string    `json:"channel"` // where it was set (a DM or a channel); notifications go there
	GPU       string    `json:"gpu"`
	Platform  string    `json:"platform,omitempty"`
	Mode      string    `json:"mode"`
	Threshold float64   `json:"threshold,omitempty"` // per card-hour, in Currency (Below)
	Currency  string    `json:"currency"`
	Lang      string    `json:"lang"`
	Created   time.Time `json:"created"`
}

// Store keeps watches in Redis. It is safe for concurrent use.
type Store struct {
	rdb    redis.UniversalClient
	prefix string
}

// NewStore returns a store with key prefix ("gpubot:" when empty).
func NewStore(rdb redis.UniversalClient, prefix string) *Store {
	if prefix == "" {
		prefix = "gpubot:"
	}
	return &Store{rdb: rdb, prefix: prefix + "watch:{w}:"}
}

func (s *Store) all() string            { return s.prefix + "all" }
func (s *Store) seq() string            { return s.prefix + "seq" }
func (s *Store) state(id string) string { return s.prefix + "state:" + id }

// Add stores a new watch, giving it an id, and seeds its state: for a Low
// watch the price now is the low to beat; for Below, a price already under
// the threshold counts as crossed (the answer says so), so the first
// message is a real crossing.
func (s *Store) Add(ctx context.Context, w Watch, now float64) (Watch, error) {
	n, err := s.rdb.Incr(ctx, s.seq()).Result()
	if err != nil {
		return w, fmt.Errorf("new watch id: %w", err)
	}
	w.ID = strconv.FormatInt(n, 10)
	raw, err := json.Marshal(w)
	if err != nil {
		return w, err
	}
	state := map[string]any{"crossings": 0}
	if now > 0 {
		state["low"] = strconv.FormatFloat(now, 'f', -1, 64)
		if w.Mode == Below && now < w.Threshold {
			state["below"] = 1
		}
	}
	_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, s.all(), w.ID, raw)
		p.HSet(ctx, s.state(w.ID), state)
		return nil
	})
	if err != nil {
		return w, fmt.Errorf("store watch: %w", err)
	}
	return w, nil
}

// All lists every watch, by id.
func (s *Store) All(ctx context.Context) ([]Watch, error) {
	m, err := s.rdb.HGetAll(ctx, s.all()).Result()
	if err != nil {
		return nil, fmt.Errorf("read watches: %w", err)
	}
	out := make([]Watch, 0, len(m))
	for _, raw := range m {
		var w Watch
		if err := json.Unmarshal([]byte(raw), &w); err == nil {
			out = append(out, w)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, _ := strconv.Atoi(out[i].ID)
		b, _ := strconv.Atoi(out[j].ID)
		return a < b
	})
	return out, nil
}

// Of lists one user's watches in a team.
func (s *Store) Of(ctx context.Context, team, user string) ([]Watch, error) {
	all, err := s.All(ctx)
	if err != nil {
		return nil, err
	}
	var out []Watch
	for _, w := range all {
		if w.Team == team && w.User == user {
			out = append(out, w)
		}
	}
	return out, nil
}

// ErrNotFound is an id the user has no watch under.
var ErrNotFound = errors.New("no such watch")

// Remove deletes one of the user's watches by id, or all of them ("all").
func (s *Store) Remove(ctx context.Context, team, user, id string) ([]Watch, error) {
	mine, err := s.Of(ctx, team, user)
	if err != nil {
		return nil, err
	}
	var gone []Watch
	for _, w := range mine {
		if id == "all" || w.ID == id {
			gone = append(gone, w)
		}
	}
	if len(gone) == 0 {
		return nil, ErrNotFound
	}
	_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, w := range gone {
			p.HDel(ctx, s.all(), w.ID)
			p.Del(ctx, s.state(w.ID))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("remove watch: %w", err)
	}
	return gone, nil
}
