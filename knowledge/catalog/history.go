package catalog

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/redis/go-redis/v9"
)

// Point is one history entry of an offer: its published prices when seen.
type Point struct {
	At           time.Time          `json:"at"`
	Low          float64            `json:"low"`              // as published, in the offer's unit
	High         float64            `json:"high"`             // as published
	Median       float64            `json:"median,omitempty"` // marketplace buckets
	CardHourly   float64            `json:"card_hourly"`      // derived from Low, per card-hour; 0 when there is no hourly form
	Currency     knowledge.Currency `json:"currency"`
	Availability string             `json:"availability,omitempty"`
}

// fingerprint is a point without its time: equal fingerprints, no change.
func fingerprint(o knowledge.Offer) string {
	low, _ := cardHourlyLow(o)
	return strings.Join([]string{FormatAmount(o.PriceLow), FormatAmount(o.PriceHigh), FormatAmount(o.Median),
		FormatAmount(roundDerived(low)), string(o.Currency), o.Availability}, "|")
}

func parsePoint(member string) (Point, error) {
	f := strings.Split(member, "|")
	if len(f) != 7 {
		return Point{}, fmt.Errorf("history point %q: want 7 fields", member)
	}
	ms, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return Point{}, fmt.Errorf("history point %q: %w", member, err)
	}
	p := Point{At: time.UnixMilli(ms).UTC(), Currency: knowledge.Currency(f[5]), Availability: f[6]}
	for i, dst := range []*float64{&p.Low, &p.High, &p.Median, &p.CardHourly} {
		if *dst, err = ParseAmount(f[i+1]); err != nil {
			return Point{}, fmt.Errorf("history point %q: %w", member, err)
		}
	}
	return p, nil
}

// pipelineChunk bounds how many commands go in one pipeline round trip.
const pipelineChunk = 2000

// appendHistory adds a point for every offer whose prices or availability
// changed since its last point, or whose last point is older than the
// heartbeat, trims each touched key to the retention window, and rewrites
// the source's last-point index. It returns how many points it wrote.
func (c *Catalog) appendHistory(ctx context.Context, source string, offers []knowledge.Offer, now time.Time) (int, error) {
	last, err := c.rdb.HGetAll(ctx, c.k.histLast(source)).Result()
	if err != nil {
		return 0, fmt.Errorf("read history index %s: %w", source, err)
	}
	ms := now.UnixMilli()
	cutoff := strconv.FormatInt(now.Add(-c.opt.Retention).UnixMilli(), 10)
	index := make(map[string]string, len(offers))
	type write struct{ key, member string }
	var writes []write
	for _, o := range offers {
		fp := fingerprint(o)
		entry := strconv.FormatInt(ms, 10) + "|" + fp
		if prev, ok := last[o.Key]; ok {
			pms, pfp, _ := strings.Cut(prev, "|")
			t, _ := strconv.ParseInt(pms, 10, 64)
			if pfp == fp && ms-t < c.opt.Heartbeat.Milliseconds() {
				index[o.Key] = prev
				continue
			}
		}
		index[o.Key] = entry
		writes = append(writes, write{c.k.hist(o.Key), entry})
	}
	for start := 0; start < len(writes); start += pipelineChunk {
		end := min(start+pipelineChunk, len(writes))
		if _, err := c.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, w := range writes[start:end] {
				p.ZAdd(ctx, w.key, redis.Z{Score: float64(ms), Member: w.member})
				p.ZRemRangeByScore(ctx, w.key, "-inf", "("+cutoff)
				p.PExpire(ctx, w.key, c.opt.Retention)
			}
			return nil
		}); err != nil {
			return 0, fmt.Errorf("append history %s: %w", source, err)
		}
	}
	// Rewrite the index so offers that left the source drop out of it.
	if _, err := c.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, c.k.histLast(source))
		chunk := make([]any, 0, 2*min(len(index), pipelineChunk))
		for k, v := range index {
			chunk = append(chunk, k, v)
			if len(chunk) == cap(chunk) {
				p.HSet(ctx, c.k.histLast(source), chunk...)
				chunk = chunk[:0]
			}
		}
		if len(chunk) > 0 {
			p.HSet(ctx, c.k.histLast(source), chunk...)
		}
		p.PExpire(ctx, c.k.histLast(source), c.opt.Retention)
		return nil
	}); err != nil {
		return 0, fmt.Errorf("write history index %s: %w", source, err)
	}
	return len(writes), nil
}

// History returns an offer's points between from and to (inclusive),
// oldest first.
func (c *Catalog) History(ctx context.Context, offerKey string, from, to time.Time) ([]Point, error) {
	members, err := c.rdb.ZRangeByScore(ctx, c.k.hist(offerKey), &redis.ZRangeBy{
		Min: strconv.FormatInt(from.UnixMilli(), 10), Max: strconv.FormatInt(to.UnixMilli(), 10),
	}).Result()
	if err != nil {
		return nil, fmt.Errorf("read history %s: %w", offerKey, err)
	}
	out := make([]Point, 0, len(members))
	for _, m := range members {
		p, err := parsePoint(m)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Price classes of the cheapest-per-card series.
const (
	ClassOnDemand = "on_demand" // on-demand offers (pricing model on_demand or unset)
	ClassSpot     = "spot"      // interruptible: spot and bid
)

func classOf(o knowledge.Offer) string {
	switch o.Model {
	case knowledge.OnDemand, "":
		return ClassOnDemand
	case knowledge.Spot, knowledge.Bid:
		return ClassSpot
	}
	return ""
}

// SeriesPoint is the cheapest offer for a card at one refresh.
type SeriesPoint struct {
	At         time.Time `json:"at"`
	CardHourly float64   `json:"card_hourly"`
	OfferKey   string    `json:"offer_key"`
	Platform   string    `json:"platform"`
}

// Series is a card's cheapest price per card-hour over time, in one
// currency and price class.
type Series struct {
	GPU      string             `json:"gpu"`
	Currency knowledge.Currency `json:"currency"`
	Class    string             `json:"class"`
	Points   []SeriesPoint      `json:"points"` // oldest first
}

type cheapKey struct {
	gpu   string
	cur   knowledge.Currency
	class string
}

// cheapest finds, per card, currency and class, the cheapest offer per
// card-hour that can be rented (availability not "none").
func cheapest(offers []knowledge.Offer) map[cheapKey]SeriesPoint {
	out := map[cheapKey]SeriesPoint{}
	for _, o := range offers {
		class := classOf(o)
		if class == "" || o.Availability == "none" {
			continue
		}
		low, ok := cardHourlyLow(o)
		if !ok {
			continue
		}
		k := cheapKey{o.GPU, o.Currency, class}
		if p, seen := out[k]; !seen || low < p.CardHourly || (low == p.CardHourly && o.Key < p.OfferKey) {
			out[k] = SeriesPoint{CardHourly: roundDerived(low), OfferKey: o.Key, Platform: o.Platform}
		}
	}
	return out
}

// recordCheapest appends the current cheapest offer per card to the series.
func (c *Catalog) recordCheapest(ctx context.Context, offers []knowledge.Offer, now time.Time) error {
	ms := now.UnixMilli()
	cutoff := "(" + strconv.FormatInt(now.Add(-c.opt.Retention).UnixMilli(), 10)
	_, err := c.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for k, pt := range cheapest(offers) {
			key := c.k.cheapest(k.gpu, string(k.cur), k.class)
			member := strings.Join([]string{strconv.FormatInt(ms, 10), FormatAmount(pt.CardHourly), pt.OfferKey, pt.Platform}, "|")
			p.ZAdd(ctx, key, redis.Z{Score: float64(ms), Member: member})
			p.ZRemRangeByScore(ctx, key, "-inf", cutoff)
			p.PExpire(ctx, key, c.opt.Retention)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record cheapest series: %w", err)
	}
	return nil
}

// Cheapest returns a card's cheapest-price series between from and to
// (inclusive). class is ClassOnDemand or ClassSpot.
func (c *Catalog) Cheapest(ctx context.Context, gpu string, cur knowledge.Currency, class string, from, to time.Time) (Series, error) {
	s := Series{GPU: gpu, Currency: cur, Class: class}
	members, err := c.rdb.ZRangeByScore(ctx, c.k.cheapest(gpu, string(cur), class), &redis.ZRangeBy{
		Min: strconv.FormatInt(from.UnixMilli(), 10), Max: strconv.FormatInt(to.UnixMilli(), 10),
	}).Result()
	if err != nil {
		return s, fmt.Errorf("read cheapest %s %s: %w", gpu, cur, err)
	}
	for _, m := range members {
		f := strings.SplitN(m, "|", 4)
		if len(f) != 4 {
			return s, fmt.Errorf("cheapest point %q: want 4 fields", m)
		}
		ms, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return s, fmt.Errorf("cheapest point %q: %w", m, err)
		}
		v, err := ParseAmount(f[1])
		if err != nil {
			return s, fmt.Errorf("cheapest point %q: %w", m, err)
		}
		s.Points = append(s.Points, SeriesPoint{At: time.UnixMilli(ms).UTC(), CardHourly: v, OfferKey: f[2], Platform: f[3]})
	}
	return s, nil
}

// Low is a card whose cheapest on-demand offer is below every cheapest
// price recorded for it in the window before.
type Low struct {
	GPU        string             `json:"gpu"`
	Currency   knowledge.Currency `json:"currency"`
	CardHourly float64            `json:"card_hourly"`
	Offer      knowledge.Offer    `json:"offer"`
	PrevLow    float64            `json:"prev_low"` // the lowest recorded in the window
	PrevLowAt  time.Time          `json:"prev_low_at"`
}

// NewLows compares the view's cheapest on-demand offer per card and currency
// with the series recorded in [at−window, at). A card with no earlier point
// in the window is not a new low. Sorted by GPU, then currency.
func (c *Catalog) NewLows(ctx context.Context, v *View, at time.Time, window time.Duration) ([]Low, error) {
	cur := cheapest(v.Offers)
	byKey := make(map[string]knowledge.Offer, len(cur))
	type pending struct {
		k   cheapKey
		pt  SeriesPoint
		cmd *redis.StringSliceCmd
	}
	var todo []pending
	_, err := c.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for k, pt := range cur {
			if k.class != ClassOnDemand {
				continue
			}
			cmd := p.ZRangeByScore(ctx, c.k.cheapest(k.gpu, string(k.cur), k.class), &redis.ZRangeBy{
				Min: strconv.FormatInt(at.Add(-window).UnixMilli(), 10), Max: "(" + strconv.FormatInt(at.UnixMilli(), 10),
			})
			todo = append(todo, pending{k, pt, cmd})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read cheapest series: %w", err)
	}
	for _, o := range v.Offers {
		byKey[o.Key] = o
	}
	var lows []Low
	for _, t := range todo {
		prev, prevAt := math.Inf(1), time.Time{}
		for _, m := range t.cmd.Val() {
			f := strings.SplitN(m, "|", 4)
			if len(f) != 4 {
				continue
			}
			val, err := ParseAmount(f[1])
			ms, err2 := strconv.ParseInt(f[0], 10, 64)
			if err != nil || err2 != nil {
				continue
			}
			if val < prev {
				prev, prevAt = val, time.UnixMilli(ms).UTC()
			}
		}
		if math.IsInf(prev, 1) || t.pt.CardHourly >= prev {
			continue
		}
		lows = append(lows, Low{GPU: t.k.gpu, Currency: t.k.cur, CardHourly: t.pt.CardHourly, Offer: byKey[t.pt.OfferKey],
			PrevLow: prev, PrevLowAt: prevAt})
	}
	sort.Slice(lows, func(i, j int) bool {
		if lows[i].GPU != lows[j].GPU {
			return lows[i].GPU < lows[j].GPU
		}
		return lows[i].Currency < lows[j].Currency
	})
	return lows, nil
}

// CheapestSeries returns Cheapest for several cards, skipping cards with no
// points in the range.
func (c *Catalog) CheapestSeries(ctx context.Context, gpus []string, cur knowledge.Currency, class string, from, to time.Time) ([]Series, error) {
	var out []Series
	for _, g := range gpus {
		s, err := c.Cheapest(ctx, g, cur, class, from, to)
		if err != nil {
			return nil, err
		}
		if len(s.Points) > 0 {
			out = append(out, s)
		}
	}
	return out, nil
}
