package catalog

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/redis/go-redis/v9"
)

// SaveBaseline stores offers (usually a View's) under name, so a later diff
// can start from exactly what a reader last saw: the daily post saves what
// it posted and diffs the next day's catalogue against it. The baseline
// expires after ttl (0 keeps it).
func (c *Catalog) SaveBaseline(ctx context.Context, name string, offers []knowledge.Offer, at time.Time, ttl time.Duration) error {
	payload, err := encodeSnapshot(name, at, "", offers)
	if err != nil {
		return err
	}
	if err := c.rdb.Set(ctx, c.k.baseline(name), payload, ttl).Err(); err != nil {
		return fmt.Errorf("save baseline %s: %w", name, err)
	}
	return nil
}

// Baseline returns the offers saved under name and when; ok is false when
// there is none (never saved, or expired).
func (c *Catalog) Baseline(ctx context.Context, name string) (offers []knowledge.Offer, at time.Time, ok bool, err error) {
	raw, err := c.rdb.Get(ctx, c.k.baseline(name)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, time.Time{}, false, nil
	}
	if err != nil {
		return nil, time.Time{}, false, fmt.Errorf("read baseline %s: %w", name, err)
	}
	w, offers, err := decodeSnapshot(raw)
	if err != nil {
		return nil, time.Time{}, false, fmt.Errorf("read baseline %s: %w", name, err)
	}
	return offers, w.TakenAt, true, nil
}
