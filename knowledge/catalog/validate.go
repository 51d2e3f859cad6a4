package catalog

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/gpubot/gpubot/knowledge"
)

// Range is a band of per-card hourly prices in USD.
type Range struct{ Min, Max float64 }

// Limits are the checks a fetched batch passes before it may replace a
// source's last good snapshot.
//
// Per-offer: the offer passes knowledge.Offer.Validate (key, positive prices,
// known currency and unit, a date), no NaN or infinite figure, a known card,
// and its price per card-hour (low, and median or high) inside the card's
// band. Bands are in USD; a CNY offer is checked against the band times
// CNYPerUSD. Per-million-token prices have no hourly form and skip the band.
//
// Per-source integrity: a batch is refused as a whole when more than
// MaxRejected of its offers fail the per-offer checks (the parser or the
// provider broke), or when it keeps fewer than (1 − MaxLoss) of the offers
// the last good snapshot had (a provider returning half a catalogue).
type Limits struct {
	Default     Range            // every card without its own band; 0.03–30 USD per card-hour
	PerCard     map[string]Range // by knowledge GPU id
	CNYPerUSD   float64          // 7.2: scales the bands for CNY offers
	MaxRejected float64          // 0.5
	MaxLoss     float64          // 0.5
}

// DefaultLimits are the bands and integrity thresholds Refresh uses unless
// told otherwise. USD 0.03 is below any real card-hour (a P40 rents for
// about 0.1); USD 30 is above any single card (an H200 lists near 10).
func DefaultLimits() Limits {
	return Limits{Default: Range{Min: 0.03, Max: 30}, CNYPerUSD: 7.2, MaxRejected: 0.5, MaxLoss: 0.5}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.Default == (Range{}) {
		l.Default = d.Default
	}
	if l.CNYPerUSD <= 0 {
		l.CNYPerUSD = d.CNYPerUSD
	}
	if l.MaxRejected <= 0 {
		l.MaxRejected = d.MaxRejected
	}
	if l.MaxLoss <= 0 {
		l.MaxLoss = d.MaxLoss
	}
	return l
}

// Band is the allowed per-card-hour range for a card in a currency.
func (l Limits) Band(gpu string, cur knowledge.Currency) Range {
	l = l.withDefaults()
	r, ok := l.PerCard[gpu]
	if !ok {
		r = l.Default
	}
	if cur == knowledge.CNY {
		r.Min *= l.CNYPerUSD
		r.Max *= l.CNYPerUSD
	}
	return r
}

// Check reports why one offer must not enter a snapshot, or nil. base may be
// nil, which skips the known-card check.
func (l Limits) Check(o knowledge.Offer, base *knowledge.Base) error {
	for _, f := range []float64{o.PriceLow, o.PriceHigh, o.Median, o.GPUCount} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("offer %s: price or count is not a number", o.Key)
		}
	}
	if err := o.Validate(); err != nil {
		return err
	}
	if o.Median < 0 || o.GPUCount < 0 {
		return fmt.Errorf("offer %s: negative median or gpu count", o.Key)
	}
	if base != nil && !knownGPU(base, o.GPU) {
		return fmt.Errorf("offer %s: unknown gpu %q", o.Key, o.GPU)
	}
	low, high, ok := o.CardHourly()
	if !ok {
		return nil
	}
	if o.Listings > 0 && o.Median > 0 { // a bucket's max is one outlier listing; check the median
		_, high, _ = (knowledge.Offer{PriceLow: o.PriceLow, PriceHigh: o.Median, Unit: o.Unit, Term: o.Term,
			Basis: o.Basis, GPUCount: o.GPUCount}).CardHourly()
	}
	band := l.Band(o.GPU, o.Currency)
	if low < band.Min || high > band.Max {
		return fmt.Errorf("offer %s: %s per card-hour %s–%s outside the sane band %s–%s for %s",
			o.Key, o.Currency, FormatAmount(low), FormatAmount(high), FormatAmount(band.Min), FormatAmount(band.Max), o.GPU)
	}
	return nil
}

// knownCards remembers the card ids a base knows: Base.GPU normalises the
// name on every call, which at a million offers is most of a validation
// pass. Only known ids are kept (a base's cards bound it); an unknown one
// is looked up again each time.
var knownCards sync.Map // baseCard -> struct{}

type baseCard struct {
	base *knowledge.Base
	id   string
}

func knownGPU(base *knowledge.Base, id string) bool {
	k := baseCard{base, id}
	if _, ok := knownCards.Load(k); ok {
		return true
	}
	if _, ok := base.GPU(id); !ok {
		return false
	}
	knownCards.Store(baseCard{base, strings.Clone(id)}, struct{}{})
	return true
}

// CheckRows removes from t every offer Check refuses and returns why, in
// the order the offers were listed. Offers are rebuilt one at a time, so
// a large catalogue is checked without being held as offers.
func (l Limits) CheckRows(t *Table, base *knowledge.Base) (rejected []string) {
	if t.Len() == 0 {
		return nil
	}
	keep := make([]bool, t.Len())
	var o knowledge.Offer
	for i := range keep {
		t.fill(i, &o)
		if err := l.Check(o, base); err != nil {
			rejected = append(rejected, err.Error())
			continue
		}
		keep[i] = true
	}
	if len(rejected) > 0 {
		t.keep(keep)
	}
	return rejected
}

// validate splits a batch into the offers that may be stored and the
// reasons the others may not, and refuses the whole batch when it fails a
// per-source integrity check. prevCount is the size of the source's last
// good snapshot (0 for none). A batch's Rows lose their refused offers.
func (l Limits) validate(b *Batch, prevCount int, base *knowledge.Base) (valid []knowledge.Offer, rejected []string, err error) {
	l = l.withDefaults()
	n := b.Len()
	valid = make([]knowledge.Offer, 0, n)
	for _, o := range b.Offers {
		if err := l.Check(o, base); err != nil {
			rejected = append(rejected, err.Error())
			continue
		}
		valid = append(valid, o)
	}
	rejected = append(rejected, l.CheckRows(b.Rows, base)...)
	// Stored snapshots are offers; the rows become offers only now, once
	// checked.
	for i := range b.Rows.Len() {
		valid = append(valid, b.Rows.Offer(i))
	}
	if n > 0 && float64(len(rejected)) > l.MaxRejected*float64(n) {
		return nil, rejected, fmt.Errorf("integrity: %d of %d offers failed validation (first: %s)", len(rejected), n, rejected[0])
	}
	if prevCount > 0 && float64(len(valid)) < (1-l.MaxLoss)*float64(prevCount) {
		return nil, rejected, fmt.Errorf("integrity: %d offers where the last good snapshot had %d (more than %.0f%% lost); keeping the last good one",
			len(valid), prevCount, l.MaxLoss*100)
	}
	return valid, rejected, nil
}
