package catalog

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/redis/go-redis/v9"
)

// SourceReport is what one refresh did with one source.
type SourceReport struct {
	Name     string         `json:"name"`
	Error    string         `json:"error,omitempty"` // fetch or integrity failure; the last good snapshot stays
	Replaced bool           `json:"replaced"`        // a new snapshot was stored (false when unchanged or failed)
	Offers   int            `json:"offers"`          // offers stored (or kept, on failure)
	Rejected []string       `json:"rejected,omitempty"`
	Skipped  map[string]int `json:"skipped,omitempty"`
	Unknown  map[string]int `json:"unknown,omitempty"`
	Problems []string       `json:"problems,omitempty"`
	History  int            `json:"history"` // history points written
	// Carried counts offers kept from the last good snapshot because this
	// read had failing rows (Partial) and no longer listed them.
	Carried  int           `json:"carried,omitempty"`
	Duration time.Duration `json:"duration"`
	Status   SourceStatus  `json:"status"` // after this refresh
}

// Failed reports whether the source kept its last good data.
func (r SourceReport) Failed() bool { return r.Error != "" }

// Report is the outcome of one refresh.
type Report struct {
	At      time.Time      `json:"at"`
	Version int64          `json:"version"` // catalogue version after the refresh
	Sources []SourceReport `json:"sources"`
	// Diff compares the merged catalogue before and after, with
	// Options.Thresholds.
	Diff DiffResult `json:"diff"`
	// Removed names the sources this refresh took out of the catalogue
	// because they are no longer configured.
	Removed []string `json:"removed,omitempty"`
}

// Refresh fetches every configured source concurrently (each under
// Options.SourceTimeout), validates each batch, and atomically replaces the
// source's snapshot with it if it passes; a source that fails, times out or
// fails validation keeps its last good snapshot and is marked stale. It then
// appends price history and the cheapest-per-card series and returns a
// report. The error is for Redis failures only; source failures are in the
// report. Replicas should run it under a leader lock (knowledge/catalog/lock).
func (c *Catalog) Refresh(ctx context.Context, now time.Time) (*Report, error) {
	removed, err := c.dropUnconfigured(ctx, now)
	if err != nil {
		return nil, err
	}
	rep, err := c.refresh(ctx, now, c.opt.Sources)
	if rep != nil {
		for _, r := range removed {
			rep.Removed = append(rep.Removed, r.Name)
		}
	}
	return rep, err
}

// RefreshOnly is Refresh limited to the named sources, e.g. the team file
// after its Changed reports an edit.
func (c *Catalog) RefreshOnly(ctx context.Context, now time.Time, names ...string) (*Report, error) {
	var srcs []Source
	for _, s := range c.opt.Sources {
		if slices.Contains(names, s.Name()) {
			srcs = append(srcs, s)
		}
	}
	return c.refresh(ctx, now, srcs)
}

type fetched struct {
	batch *Batch
	err   error
	dur   time.Duration
}

func (c *Catalog) fetchAll(ctx context.Context, now time.Time, srcs []Source) []fetched {
	out := make([]fetched, len(srcs))
	var wg sync.WaitGroup
	for i, s := range srcs {
		wg.Go(func() {
			start := time.Now()
			fctx, cancel := context.WithTimeout(ctx, c.opt.SourceTimeout)
			defer cancel()
			defer func() {
				if r := recover(); r != nil {
					out[i] = fetched{err: fmt.Errorf("source %s panicked: %v\n%s", s.Name(), r, debug.Stack())}
				}
				out[i].dur = time.Since(start)
			}()
			b, err := s.Fetch(fctx, now)
			if err == nil && b == nil {
				err = fmt.Errorf("source %s returned no batch", s.Name())
			}
			out[i] = fetched{batch: b, err: err}
		})
	}
	wg.Wait()
	return out
}

func (c *Catalog) refresh(ctx context.Context, now time.Time, srcs []Source) (*Report, error) {
	c.refreshMu.Lock()
	defer c.refreshMu.Unlock()
	prev, err := c.fresh(ctx)
	if err != nil {
		return nil, err
	}
	results := c.fetchAll(ctx, now, srcs)
	rep := &Report{At: now}
	for i, s := range srcs {
		sr, err := c.storeSource(ctx, prev, s.Name(), results[i], now)
		if err != nil {
			return nil, err
		}
		rep.Sources = append(rep.Sources, sr)
	}
	cur, err := c.fresh(ctx)
	if err != nil {
		return nil, err
	}
	if err := c.recordCheapest(ctx, cur.Offers, now); err != nil {
		return nil, err
	}
	rep.Version = cur.Version
	rep.Diff = Diff(prev.Offers, cur.Offers, c.opt.Thresholds)
	return rep, nil
}

// fresh is Current without the fallback-on-error: a refresh must start
// from what Redis holds.
func (c *Catalog) fresh(ctx context.Context) (*View, error) {
	ver, err := c.rdb.Get(ctx, c.k.version()).Int64()
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("read catalogue version: %w", err)
	}
	v, err := c.reload(ctx, ver)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// storeSource validates one source's fetch and stores the outcome: the new
// snapshot and status on success, only the status on failure; the version
// moves in the same transaction.
func (c *Catalog) storeSource(ctx context.Context, prev *View, name string, f fetched, now time.Time) (SourceReport, error) {
	st, _ := prev.Source(name)
	st.Name = name
	st.LastAttempt = now
	prevOffers := prev.bySource[name]
	sr := SourceReport{Name: name, Duration: f.dur}
	var valid []knowledge.Offer
	if f.err == nil {
		sr.Skipped, sr.Unknown, sr.Problems = f.batch.Skipped, f.batch.Unknown, f.batch.Problems
		valid, sr.Rejected, f.err = c.opt.Limits.validate(f.batch, len(prevOffers), c.opt.Base)
	}
	if f.err == nil && partial(name, f.batch, sr.Rejected) {
		// Some rows could not be read this time. An offer that was in the
		// last good snapshot and is missing now may be one of them, so it
		// is kept as it was: a source problem, never a removal.
		var kept int
		valid, kept = carryForward(prevOffers, valid)
		if kept > 0 {
			sr.Carried = kept
			sr.Problems = append(sr.Problems, fmt.Sprintf("%d offers kept from the last good read: this read had rows that failed (see above), so their absence is not taken as a removal", kept))
		}
	}
	if f.err != nil {
		sr.Error = f.err.Error()
		st.Error, st.ErrorAt = sr.Error, now
		if st.StaleSince.IsZero() {
			st.StaleSince = now
		}
		sr.Offers = len(prevOffers)
		sr.Status = st
		_, err := c.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.SAdd(ctx, c.k.sources(), name)
			p.HSet(ctx, c.k.status(name), st.fields())
			p.Incr(ctx, c.k.version())
			return nil
		})
		if err != nil {
			return sr, fmt.Errorf("store status %s: %w", name, err)
		}
		return sr, nil
	}
	// The stored snapshot carries no time (the status does), so the hash
	// covers content only: an unchanged team file is not a new snapshot,
	// while API offers observed "now" change with every fetch.
	payload, err := encodeSnapshot(name, time.Time{}, f.batch.Ref, valid)
	if err != nil {
		return sr, err
	}
	hash := contentHash(payload)
	sr.Replaced = hash != st.SnapHash
	st.Error, st.ErrorAt, st.StaleSince = "", time.Time{}, time.Time{}
	st.LastSuccess = now
	st.Offers, st.Rejected = len(valid), len(sr.Rejected)
	st.Ref, st.Skipped, st.Unknown, st.Problems = f.batch.Ref, f.batch.Skipped, f.batch.Unknown, f.batch.Problems
	st.Carried = sr.Carried
	st.SnapHash = hash
	sr.Offers = len(valid)
	sr.Status = st
	if _, err := c.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SAdd(ctx, c.k.sources(), name)
		if sr.Replaced {
			p.Set(ctx, c.k.snap(name), payload, 0)
		}
		p.HSet(ctx, c.k.status(name), st.fields())
		p.Incr(ctx, c.k.version())
		return nil
	}); err != nil {
		return sr, fmt.Errorf("store snapshot %s: %w", name, err)
	}
	if sr.History, err = c.appendHistory(ctx, name, valid, now); err != nil {
		return sr, err
	}
	return sr, nil
}

// partial reports whether a read had rows that failed: malformed rows,
// offers refused by validation, or (for the hand-edited team file) card
// names that match no card, the usual typo. Hosted catalogues always list
// cards the bot does not know, so for them unknown cards do not count.
func partial(name string, b *Batch, rejected []string) bool {
	if len(rejected) > 0 || b.Skipped[SkipMalformed] > 0 || b.Skipped[SkipNoPrice] > 0 && name == TeamFileSource {
		return true
	}
	return name == TeamFileSource && b.Skipped[SkipUnknownGPU] > 0
}

// carryForward appends to valid every offer of prev whose key valid lacks.
func carryForward(prev, valid []knowledge.Offer) ([]knowledge.Offer, int) {
	if len(prev) == 0 {
		return valid, 0
	}
	have := make(map[string]bool, len(valid))
	for _, o := range valid {
		have[o.Key] = true
	}
	n := 0
	for _, o := range prev {
		if !have[o.Key] {
			valid = append(valid, o)
			n++
		}
	}
	return valid, n
}
