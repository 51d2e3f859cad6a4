package catalog

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/redis/go-redis/v9"
)

// Names of the two sources that merge specially: the shipped seeds lose to
// every other source on a shared offer key, the team file wins over all.
const (
	ShippedSource  = "shipped"
	TeamFileSource = "team-file"
)

// MarketCollector marks the shipped public market snapshot's offers
// (Offer.CollectorVersion), written by cmd/catalog-gen.
const MarketCollector = "catalog-gen/1"

// Options configure a Catalog. Zero values take the defaults noted.
type Options struct {
	Prefix        string        // Redis key prefix; "gpubot:"
	Sources       []Source      // what Refresh fetches; replicas that only read need none
	SourceTimeout time.Duration // per source fetch; 2 min
	Limits        Limits        // DefaultLimits()
	Thresholds    Thresholds    // for Report.Diff; DefaultThresholds() when zero (an empty, non-nil Abs means none)
	Retention     time.Duration // history kept; 180 days
	Heartbeat     time.Duration // an unchanged offer still gets a history point this often; 24 h
	// Base, when set, lets validation refuse offers for unknown cards.
	Base *knowledge.Base
	// Fallback is served while Redis holds no snapshot at all (a fresh
	// deployment before its first refresh), e.g. knowledge.Shipped().Offers.
	Fallback []knowledge.Offer
}

func (o Options) withDefaults() Options {
	if o.Prefix == "" {
		o.Prefix = "gpubot:"
	}
	if o.SourceTimeout <= 0 {
		o.SourceTimeout = 2 * time.Minute
	}
	o.Limits = o.Limits.withDefaults()
	if o.Thresholds.Pct == 0 && o.Thresholds.Abs == nil {
		o.Thresholds = DefaultThresholds()
	}
	if o.Retention <= 0 {
		o.Retention = 180 * 24 * time.Hour
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = 24 * time.Hour
	}
	return o
}

// Catalog is the price catalogue as every replica sees it. It is safe for
// concurrent use.
type Catalog struct {
	rdb       redis.UniversalClient
	opt       Options
	k         keys
	reloadMu  sync.Mutex // serialises reloads; held only while loading from Redis
	refreshMu sync.Mutex // serialises refreshes in this process (replicas use a leader lock)
	view      atomic.Pointer[View]
}

// New returns a catalogue backed by rdb. It does no I/O.
func New(rdb redis.UniversalClient, opt Options) *Catalog {
	opt = opt.withDefaults()
	return &Catalog{rdb: rdb, opt: opt, k: keys{prefix: opt.Prefix}}
}

// View is one consistent catalogue: every source's last good offers merged.
// Views are shared between goroutines; callers must not modify them.
type View struct {
	Version int64 `json:"version"` // the Redis version it was loaded at; 0 for the fallback
	// Offers are the merged active offers, sorted by key. Where two sources
	// carry the same key, the team file beats API and catalogue sources,
	// which beat the shipped seeds.
	Offers  []knowledge.Offer `json:"offers"`
	Sources []SourceStatus    `json:"sources"` // by name

	bySource map[string][]knowledge.Offer
}

// Snapshot returns the view as a knowledge.Snapshot taken at at.
func (v *View) Snapshot(at time.Time) knowledge.Snapshot {
	return knowledge.Snapshot{Version: fmt.Sprint(v.Version), TakenAt: at, Offers: v.Offers}
}

// Source returns one source's status.
func (v *View) Source(name string) (SourceStatus, bool) {
	for _, s := range v.Sources {
		if s.Name == name {
			return s, true
		}
	}
	return SourceStatus{}, false
}

// ForGPU returns the offers for one card (a knowledge GPU id), cheapest per
// card-hour first; offers without an hourly form go last.
func (v *View) ForGPU(gpu string) []knowledge.Offer {
	var out []knowledge.Offer
	for _, o := range v.Offers {
		if o.GPU == gpu {
			out = append(out, o)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, aok := cardHourlyLow(out[i])
		b, bok := cardHourlyLow(out[j])
		if aok != bok {
			return aok
		}
		return a < b
	})
	return out
}

func cardHourlyLow(o knowledge.Offer) (float64, bool) {
	low, _, ok := o.CardHourly()
	return low, ok
}

// Current returns the catalogue, reloading it from Redis only when the
// version key has moved since the last call: one GET per call otherwise.
// While Redis holds nothing it returns Options.Fallback. When Redis fails,
// the last view loaded is returned together with the error, so a caller may
// keep answering from it.
func (c *Catalog) Current(ctx context.Context) (*View, error) {
	ver, err := c.rdb.Get(ctx, c.k.version()).Int64()
	if errors.Is(err, redis.Nil) {
		ver, err = 0, nil
	}
	cur := c.view.Load()
	if err != nil {
		if cur == nil {
			cur = c.fallback()
		}
		return cur, fmt.Errorf("read catalogue version: %w", err)
	}
	if cur != nil && cur.Version == ver {
		return cur, nil
	}
	return c.reload(ctx, ver)
}

// Status lists every configured source and every source Redis knows, by
// name; a configured source that never ran has only its name. It costs
// what Current costs.
func (c *Catalog) Status(ctx context.Context) ([]SourceStatus, error) {
	v, err := c.Current(ctx)
	byName := map[string]SourceStatus{}
	for _, s := range v.Sources {
		byName[s.Name] = s
	}
	for _, s := range c.opt.Sources {
		if _, ok := byName[s.Name()]; !ok {
			byName[s.Name()] = SourceStatus{Name: s.Name()}
		}
	}
	out := make([]SourceStatus, 0, len(byName))
	for _, s := range byName {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, err
}

func (c *Catalog) fallback() *View {
	return &View{Offers: mergeOffers(map[string][]knowledge.Offer{ShippedSource: c.opt.Fallback})}
}

// reload loads version ver (or newer) from Redis, reusing the offers of
// every source whose snapshot hash has not changed. Concurrent callers wait
// for one load.
func (c *Catalog) reload(ctx context.Context, ver int64) (*View, error) {
	c.reloadMu.Lock()
	defer c.reloadMu.Unlock()
	old := c.view.Load()
	if old != nil && old.Version == ver {
		return old, nil
	}
	if ver == 0 {
		v := c.fallback()
		c.view.Store(v)
		return v, nil
	}
	v, err := c.load(ctx, ver, old)
	if err != nil {
		if old == nil {
			old = c.fallback()
		}
		return old, err
	}
	c.view.Store(v)
	return v, nil
}

func (c *Catalog) load(ctx context.Context, ver int64, old *View) (*View, error) {
	names, err := c.rdb.SMembers(ctx, c.k.sources()).Result()
	if err != nil {
		return nil, fmt.Errorf("load catalogue sources: %w", err)
	}
	sort.Strings(names)
	stCmds := make([]*redis.MapStringStringCmd, len(names))
	if _, err := c.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, n := range names {
			stCmds[i] = p.HGetAll(ctx, c.k.status(n))
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("load catalogue status: %w", err)
	}
	v := &View{Version: ver, bySource: map[string][]knowledge.Offer{}}
	var need []string
	cfg := c.configured()
	for i, n := range names {
		if cfg != nil && !cfg[n] {
			continue // removed from the configuration: it no longer serves (Removed)
		}
		st := parseStatus(n, stCmds[i].Val())
		v.Sources = append(v.Sources, st)
		if st.SnapHash == "" {
			continue
		}
		if old != nil {
			if os, ok := old.Source(n); ok && os.SnapHash == st.SnapHash {
				v.bySource[n] = old.bySource[n]
				continue
			}
		}
		need = append(need, n)
	}
	if len(need) > 0 {
		snapCmds := make([]*redis.StringCmd, len(need))
		if _, err := c.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i, n := range need {
				snapCmds[i] = p.Get(ctx, c.k.snap(n))
			}
			return nil
		}); err != nil && !errors.Is(err, redis.Nil) {
			return nil, fmt.Errorf("load catalogue snapshots: %w", err)
		}
		for i, n := range need {
			raw, err := snapCmds[i].Bytes()
			if errors.Is(err, redis.Nil) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("load snapshot %s: %w", n, err)
			}
			_, offers, err := decodeSnapshot(raw)
			if err != nil {
				return nil, fmt.Errorf("load snapshot %s: %w", n, err)
			}
			v.bySource[n] = offers
		}
	}
	v.Offers = mergeOffers(v.bySource)
	return v, nil
}

func sourceRank(name string) int {
	switch name {
	case ShippedSource:
		return 0
	case TeamFileSource:
		return 2
	default:
		return 1
	}
}

// mergeOffers merges per-source offers: on a shared key the higher-ranked
// source wins (ties: the later name). Disappeared offers are left out. A
// shipped offer for a card on a platform that any other source prices is
// left out too: the dated snapshot must not sit next to a newer reading of
// the same platform as if both were current.
func mergeOffers(bySource map[string][]knowledge.Offer) []knowledge.Offer {
	names := make([]string, 0, len(bySource))
	n := 0
	type pair struct{ platform, gpu string }
	covered := map[pair]bool{}
	for name, offers := range bySource {
		names = append(names, name)
		n += len(offers)
		if name == ShippedSource {
			continue
		}
		for _, o := range offers {
			if o.Status != "disappeared" {
				covered[pair{o.Platform, o.GPU}] = true
			}
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if ri, rj := sourceRank(names[i]), sourceRank(names[j]); ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
	idx := make(map[string]int, n)
	out := make([]knowledge.Offer, 0, n)
	for _, name := range names {
		for _, o := range bySource[name] {
			if o.Status == "disappeared" {
				continue
			}
			if name == ShippedSource && o.CollectorVersion == MarketCollector && covered[pair{o.Platform, o.GPU}] {
				continue
			}
			if i, ok := idx[o.Key]; ok {
				out[i] = o
				continue
			}
			idx[o.Key] = len(out)
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
