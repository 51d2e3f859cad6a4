package catalog

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// ChangeKind is what happened to one offer between two catalogues.
type ChangeKind string

// Change kinds, in the order a post lists them.
const (
	KindPriceDown    ChangeKind = "price_down"
	KindPriceUp      ChangeKind = "price_up"
	KindNew          ChangeKind = "new"
	KindDisappeared  ChangeKind = "disappeared"
	KindAvailability ChangeKind = "availability_changed"
)

// kindOrder is a kind's place in that order; a switch, not a map: the
// sort of a day's changes asks it twice per comparison.
func kindOrder(k ChangeKind) int {
	switch k {
	case KindPriceDown:
		return 0
	case KindPriceUp:
		return 1
	case KindNew:
		return 2
	case KindDisappeared:
		return 3
	case KindAvailability:
		return 4
	}
	return 5
}

// Measures a price change is read on.
const (
	MeasurePrice  = "price"  // a single figure
	MeasureLow    = "low"    // the low end of a published range
	MeasureHigh   = "high"   // the high end of a published range
	MeasureMin    = "min"    // a marketplace bucket's cheapest listing
	MeasureMedian = "median" // a marketplace bucket's median listing
)

// Change is one difference between two catalogues.
type Change struct {
	Kind  ChangeKind      `json:"kind"`
	Key   string          `json:"key"`
	Offer knowledge.Offer `json:"offer"` // the current offer; the previous one for disappeared
	// Price changes: Old and New are per card-hour in the offer's own
	// currency (the raw unit price when it has no hourly form), read on
	// Measure. New and disappeared offers carry New or Old only.
	Measure  string             `json:"measure,omitempty"`
	Old      float64            `json:"old,omitempty"`
	New      float64            `json:"new,omitempty"`
	Delta    float64            `json:"delta,omitempty"` // New − Old
	Pct      float64            `json:"pct,omitempty"`   // Delta / Old × 100
	Currency knowledge.Currency `json:"currency"`
	// Availability changes.
	OldAvailability string `json:"old_availability,omitempty"`
	NewAvailability string `json:"new_availability,omitempty"`
}

// Thresholds decide which price moves count. A move counts when its size is
// at least Pct percent and at least Abs[currency] per card-hour, up or down
// alike. Zero thresholds count every move.
type Thresholds struct {
	Pct float64
	Abs map[knowledge.Currency]float64
}

// DefaultThresholds ignore moves under 1 % or under USD 0.01 / CNY 0.05 per
// card-hour: rounding on the provider side, not market moves.
func DefaultThresholds() Thresholds {
	return Thresholds{Pct: 1, Abs: map[knowledge.Currency]float64{knowledge.USD: 0.01, knowledge.CNY: 0.05}}
}

// DiffResult is every change from one catalogue to the next.
type DiffResult struct {
	Changes []Change `json:"changes"`
	// Incomparable lists keys present in both catalogues whose price cannot
	// be compared: the currency, or the kind of unit, changed. They are not
	// reported as moves; prices are never compared across currencies.
	Incomparable []string `json:"incomparable,omitempty"`
	Compared     int      `json:"compared"` // keys present in both
	// Superseded counts shipped market-snapshot offers that left because a
	// newer source now prices their platform and card, or came back when it
	// stopped: neither is a market move.
	Superseded int `json:"superseded,omitempty"`
}

type platformGPU struct{ platform, gpu string }

func pairOf(o knowledge.Offer) platformGPU { return platformGPU{o.Platform, o.GPU} }

// offerRows is a catalogue as Diff reads it: a slice of offers or a Table.
type offerRows interface {
	Len() int
	Key(i int) string
	gone(i int) bool                     // Status "disappeared"
	fill(i int, o *knowledge.Offer)      // every field but RawHash
	fillPrice(i int, o *knowledge.Offer) // at least what priceChange and the availability check read
	At(i int, o *knowledge.Offer)        // the whole offer, for a change
	unique() bool                        // known to list no key twice
}

// offerSlice is a []knowledge.Offer as offerRows.
type offerSlice []knowledge.Offer

func (s offerSlice) Len() int                            { return len(s) }
func (s offerSlice) Key(i int) string                    { return s[i].Key }
func (s offerSlice) gone(i int) bool                     { return s[i].Status == "disappeared" }
func (s offerSlice) fill(i int, o *knowledge.Offer)      { *o = s[i] }
func (s offerSlice) At(i int, o *knowledge.Offer)        { *o = s[i] }
func (s offerSlice) fillPrice(i int, o *knowledge.Offer) { *o = s[i] }
func (s offerSlice) unique() bool                        { return false }

// lazyLivePairs returns livePairs(offers), computed on first use: only a
// market-snapshot offer coming or going needs it, and a large hosted
// catalogue has none.
func lazyLivePairs(offers offerRows) func() map[platformGPU]bool {
	var m map[platformGPU]bool
	return func() map[platformGPU]bool {
		if m == nil {
			m = livePairs(offers)
		}
		return m
	}
}

// livePairs are the platform-card pairs priced by offers that are not the
// shipped market snapshot.
func livePairs(offers offerRows) map[platformGPU]bool {
	out := map[platformGPU]bool{}
	var o knowledge.Offer
	for i := range offers.Len() {
		if offers.gone(i) {
			continue
		}
		if offers.fill(i, &o); o.CollectorVersion != MarketCollector {
			out[pairOf(o)] = true
		}
	}
	return out
}

// Of returns the changes of one kind, in result order (largest move first
// for price changes).
func (d DiffResult) Of(kind ChangeKind) []Change {
	var out []Change
	for _, c := range d.Changes {
		if c.Kind == kind {
			out = append(out, c)
		}
	}
	return out
}

// Empty reports whether nothing changed.
func (d DiffResult) Empty() bool { return len(d.Changes) == 0 }

// Diff compares two catalogues offer by offer (on Offer.Key). Prices are
// compared per card-hour in the offer's native currency; marketplace
// buckets (offers with Listings) on their min and median, so listings that
// come and go inside a bucket without moving either are not a change. Only
// observed_at, raw_hash, collector_version, source_ref and provider_data
// changing is no change at all. Offers with Status "disappeared" count as
// absent.
//
// The shipped market snapshot gives way to a newer reading of the same
// platform and card (mergeOffers), so its rows leaving then is no removal,
// and its rows coming back after that source left are no new offers: both
// are counted in Superseded, not listed.
func Diff(prev, cur []knowledge.Offer, th Thresholds) DiffResult {
	return diff(offerSlice(prev), offerSlice(cur), th)
}

// DiffTables is Diff over two compact catalogues: the same changes, read
// without holding either catalogue as offers.
func DiffTables(prev, cur *Table, th Thresholds) DiffResult { return diff(prev, cur, th) }

func diff[P, C offerRows](prev P, cur C, th Thresholds) DiffResult {
	// The previous catalogue is indexed by position, not copied: at a
	// million offers a map of keys to offers was most of the diff's time.
	// matched marks the previous offers the current catalogue still has;
	// fresh holds only the keys that are new (few on a normal day), so a
	// key listed twice in cur counts once, as before.
	//
	// A previous catalogue known to list every key once (a sealed Table)
	// is indexed only when the current one first departs from its order:
	// a reading that lists the same offers in the same order is matched
	// row by row without an index (tens of megabytes and a third of the
	// diff's time at a million offers).
	np := prev.Len()
	unique := prev.unique()
	var before *keyIndex
	index := func() *keyIndex {
		if before == nil {
			before = newKeyIndex(np)
			for i := range np {
				if !prev.gone(i) {
					before.set(prev, prev.Key(i), i)
				}
			}
		}
		return before
	}
	if !unique {
		index()
	}
	prevLive, curLive := lazyLivePairs(prev), lazyLivePairs(cur)
	matched := make([]bool, np)
	var fresh map[string]bool
	var res DiffResult
	var changes []foundChange
	var c, p knowledge.Offer // the offers being compared, rebuilt per row
	next := 0                // two readings of one source mostly list offers in the same order
	for i := range cur.Len() {
		if cur.gone(i) {
			continue
		}
		key := cur.Key(i)
		j, ok := next, false
		if next < np && (unique || !before.dups) && !prev.gone(next) && prev.Key(next) == key {
			ok = true // the offer after the last one matched; with no key listed twice it is the only one
		} else {
			j, ok = index().get(prev, key)
		}
		if ok {
			next = j + 1
		}
		if !ok {
			if fresh[key] {
				continue
			}
			if fresh == nil {
				fresh = map[string]bool{}
			}
			fresh[key] = true
			cur.fill(i, &c)
			if c.CollectorVersion == MarketCollector && prevLive()[pairOf(c)] {
				res.Superseded++
				continue
			}
			v, _ := measures(&c)
			changes = append(changes, found(Change{Kind: KindNew, Measure: v[0].name, New: v[0].value, Currency: c.Currency}, i, false))
			continue
		}
		if matched[j] {
			continue
		}
		matched[j] = true
		cur.fillPrice(i, &c)
		prev.fillPrice(j, &p)
		res.Compared++
		ch, moved := priceChange(&p, &c, th)
		if ch.Kind == "incomparable" {
			res.Incomparable = append(res.Incomparable, c.Key)
		}
		if moved {
			changes = append(changes, found(ch, i, false))
		}
		if pa, ca := p.Availability, c.Availability; pa != ca && known(pa) && known(ca) {
			changes = append(changes, found(Change{Kind: KindAvailability, Currency: c.Currency,
				OldAvailability: pa, NewAvailability: ca}, i, false))
		}
	}
	for i := range np {
		if matched[i] || prev.gone(i) {
			continue
		}
		if !unique {
			if j, _ := before.get(prev, prev.Key(i)); j != i {
				continue // an earlier copy of a key listed twice; the last one stands for it
			}
		}
		prev.fill(i, &p)
		if p.CollectorVersion == MarketCollector && curLive()[pairOf(p)] {
			res.Superseded++
			continue
		}
		v, _ := measures(&p)
		changes = append(changes, found(Change{Kind: KindDisappeared, Measure: v[0].name, Old: v[0].value, Currency: p.Currency}, i, true))
	}
	keyOf := func(f foundChange) string {
		if f.prev {
			return prev.Key(int(f.row))
		}
		return cur.Key(int(f.row))
	}
	slices.SortStableFunc(changes, func(a, b foundChange) int {
		if a.kind != b.kind {
			return cmp.Compare(kindOrder(a.kind), kindOrder(b.kind))
		}
		if x, y := math.Abs(a.pct), math.Abs(b.pct); x != y {
			return cmp.Compare(y, x)
		}
		return strings.Compare(keyOf(a), keyOf(b))
	})
	// Each change gets its whole offer only now, in a list of exactly the
	// right length: grown by appends, a list of 600-byte changes took
	// four times the room of the changes themselves.
	res.Changes = make([]Change, len(changes))
	for k, f := range changes {
		ch := &res.Changes[k]
		*ch = f.change()
		if f.prev {
			prev.At(int(f.row), &ch.Offer)
		} else {
			cur.At(int(f.row), &ch.Offer)
		}
		ch.Key = ch.Offer.Key
	}
	if len(changes) == 0 {
		res.Changes = nil
	}
	sort.Strings(res.Incomparable)
	return res
}

// foundChange is a change without its offer yet (the offer is 544 bytes
// of the change's 680): row is its position in the current catalogue, or
// in the previous one for a disappeared offer.
type foundChange struct {
	kind               ChangeKind
	measure            string
	old, new, delta    float64
	pct                float64
	currency           knowledge.Currency
	oldAvail, newAvail string
	row                int32
	prev               bool
}

func found(c Change, row int, prev bool) foundChange {
	return foundChange{c.Kind, c.Measure, c.Old, c.New, c.Delta, c.Pct, c.Currency, c.OldAvailability, c.NewAvailability, int32(row), prev}
}

func (f foundChange) change() Change {
	return Change{Kind: f.kind, Measure: f.measure, Old: f.old, New: f.new, Delta: f.delta, Pct: f.pct, Currency: f.currency,
		OldAvailability: f.oldAvail, NewAvailability: f.newAvail}
}

func known(availability string) bool { return availability != "" && availability != "unknown" }

type measure struct {
	name  string
	value float64
}

// measures returns the figures a price change is read on, primary first,
// and whether they are per card-hour.
func measures(o *knowledge.Offer) ([2]measure, bool) {
	low, high, hourly := o.CardHourly()
	scale := 1.0
	if hourly && o.PriceLow != 0 {
		scale = low / o.PriceLow
	}
	if !hourly {
		low, high = o.PriceLow, o.PriceHigh
	}
	switch {
	case o.Listings > 0 && o.Median > 0:
		return [2]measure{{MeasureMin, roundDerived(low)}, {MeasureMedian, roundDerived(o.Median * scale)}}, hourly
	case o.PriceHigh != o.PriceLow:
		return [2]measure{{MeasureLow, roundDerived(low)}, {MeasureHigh, roundDerived(high)}}, hourly
	default:
		return [2]measure{{MeasurePrice, roundDerived(low)}, {}}, hourly
	}
}

// priceChange compares one key's two versions; the caller sets the
// change's Offer. A zero Change with Kind "incomparable" marks a currency
// or unit-kind switch.
func priceChange(p, c *knowledge.Offer, th Thresholds) (Change, bool) {
	pm, ph := measures(p)
	cm, ch := measures(c)
	if p.Currency != c.Currency || ph != ch || (!ph && p.Unit != c.Unit) {
		return Change{Kind: "incomparable"}, false
	}
	for i := range 2 {
		// The primary figure (price, low end, bucket min) always compares;
		// a secondary one only against the same kind (median with median).
		if i == 1 && (pm[i].name == "" || pm[i].name != cm[i].name) {
			continue
		}
		old, nw := pm[i].value, cm[i].value
		d := roundDerived(nw - old)
		if d == 0 || old <= 0 {
			continue
		}
		pct := d / old * 100
		if math.Abs(pct) < th.Pct || math.Abs(d) < th.Abs[c.Currency] {
			continue
		}
		kind := KindPriceUp
		if d < 0 {
			kind = KindPriceDown
		}
		return Change{Kind: kind, Key: c.Key, Measure: cm[i].name, Old: old, New: nw, Delta: d,
			Pct: math.Round(pct*100) / 100, Currency: c.Currency}, true
	}
	return Change{}, false
}

// Counts reports whether a move from old to new (per card-hour, in cur)
// is big enough to report under t: at least Pct percent and at least
// Abs[cur], as Diff decides.
func (t Thresholds) Counts(old, new float64, cur knowledge.Currency) bool {
	if old <= 0 || old == new {
		return false
	}
	d := math.Abs(new - old)
	return d/old*100 >= t.Pct && d >= t.Abs[cur]
}
