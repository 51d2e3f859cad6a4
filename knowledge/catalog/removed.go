package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/redis/go-redis/v9"
)

// RemovedSource is a source taken out of the configuration: its offers
// left the catalogue because nobody reads it any more, not because the
// market dropped them.
type RemovedSource struct {
	Name   string    `json:"name"`
	At     time.Time `json:"at"`     // when a refresh removed it; zero while pending (still in Redis)
	Offers int       `json:"offers"` // offers it served
	Keys   []string  `json:"keys"`   // their keys, so a post does not call them gone
}

// removedKey is the HASH of removals: source name -> JSON RemovedSource.
func (k keys) removed() string { return k.prefix + "{catalog}:removed" }

// configured is the set of configured source names, nil when this
// catalogue was built without sources (a read-only replica).
func (c *Catalog) configured() map[string]bool {
	if len(c.opt.Sources) == 0 {
		return nil
	}
	m := make(map[string]bool, len(c.opt.Sources))
	for _, s := range c.opt.Sources {
		m[s.Name()] = true
	}
	return m
}

// dropUnconfigured removes from Redis every source that is no longer
// configured, recording each removal once with the keys it served.
func (c *Catalog) dropUnconfigured(ctx context.Context, now time.Time) ([]RemovedSource, error) {
	cfg := c.configured()
	if cfg == nil {
		return nil, nil
	}
	pending, err := c.pendingRemovals(ctx, cfg)
	if err != nil || len(pending) == 0 {
		return nil, err
	}
	for i := range pending {
		pending[i].At = now
		rec, err := json.Marshal(pending[i])
		if err != nil {
			return nil, err
		}
		name := pending[i].Name
		if _, err := c.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.SRem(ctx, c.k.sources(), name)
			p.Del(ctx, c.k.snap(name), c.k.status(name))
			p.HSet(ctx, c.k.removed(), name, rec)
			p.Incr(ctx, c.k.version())
			return nil
		}); err != nil {
			return nil, fmt.Errorf("remove source %s: %w", name, err)
		}
	}
	return pending, nil
}

// pendingRemovals lists sources Redis holds that cfg does not name.
func (c *Catalog) pendingRemovals(ctx context.Context, cfg map[string]bool) ([]RemovedSource, error) {
	names, err := c.rdb.SMembers(ctx, c.k.sources()).Result()
	if err != nil {
		return nil, fmt.Errorf("read catalogue sources: %w", err)
	}
	sort.Strings(names)
	var out []RemovedSource
	for _, n := range names {
		if cfg[n] {
			continue
		}
		r := RemovedSource{Name: n}
		raw, err := c.rdb.Get(ctx, c.k.snap(n)).Bytes()
		if err != nil && !errors.Is(err, redis.Nil) {
			return nil, fmt.Errorf("read snapshot %s: %w", n, err)
		}
		if err == nil {
			_, offers, err := decodeSnapshot(raw)
			if err != nil {
				return nil, fmt.Errorf("read snapshot %s: %w", n, err)
			}
			for _, o := range offers {
				r.Keys = append(r.Keys, o.Key)
			}
			r.Offers = len(offers)
		}
		out = append(out, r)
	}
	return out, nil
}

// Removed lists sources removed from the configuration after since, and
// those still waiting for the next refresh to remove them (At zero).
func (c *Catalog) Removed(ctx context.Context, since time.Time) ([]RemovedSource, error) {
	all, err := c.rdb.HGetAll(ctx, c.k.removed()).Result()
	if err != nil {
		return nil, fmt.Errorf("read removed sources: %w", err)
	}
	var out []RemovedSource
	for _, raw := range all {
		var r RemovedSource
		if json.Unmarshal([]byte(raw), &r) == nil && r.At.After(since) {
			out = append(out, r)
		}
	}
	if cfg := c.configured(); cfg != nil {
		pending, err := c.pendingRemovals(ctx, cfg)
		if err != nil {
			return nil, err
		}
		out = append(out, pending...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
