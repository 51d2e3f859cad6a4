package catalog_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// brief is a change without the offer, for comparison.
type brief struct {
	Kind     catalog.ChangeKind
	Key      string
	Measure  string
	Old, New float64
	Pct      float64
	Avail    string
}

func briefs(d catalog.DiffResult) []brief {
	var out []brief
	for _, c := range d.Changes {
		b := brief{Kind: c.Kind, Key: c.Key, Measure: c.Measure, Old: c.Old, New: c.New, Pct: c.Pct}
		if c.Kind == catalog.KindAvailability {
			b.Avail = c.OldAvailability + "->" + c.NewAvailability
		}
		out = append(out, b)
	}
	return out
}

func with(o knowledge.Offer, f func(*knowledge.Offer)) knowledge.Offer {
	f(&o)
	return o
}

func bucket(key string, low, median, high float64, listings int) knowledge.Offer {
	o := offer(key, "rtx4090", low)
	o.PriceHigh, o.Median, o.Listings, o.Platform = high, median, listings, "vastai"
	return o
}

func TestDiff(t *testing.T) {
	a := offer("a", "rtx4090", 0.40)
	tests := []struct {
		name         string
		prev, cur    []knowledge.Offer
		th           catalog.Thresholds
		want         []brief
		incomparable []string
	}{
		{"new and disappeared", []knowledge.Offer{a}, []knowledge.Offer{offer("b", "h100-sxm", 2.5)}, catalog.Thresholds{},
			[]brief{{Kind: catalog.KindNew, Key: "b", Measure: "price", New: 2.5}, {Kind: catalog.KindDisappeared, Key: "a", Measure: "price", Old: 0.4}}, nil},
		{"price down", []knowledge.Offer{a}, []knowledge.Offer{offer("a", "rtx4090", 0.36)}, catalog.Thresholds{},
			[]brief{{Kind: catalog.KindPriceDown, Key: "a", Measure: "price", Old: 0.4, New: 0.36, Pct: -10}}, nil},
		{"price up", []knowledge.Offer{a}, []knowledge.Offer{offer("a", "rtx4090", 0.46)}, catalog.Thresholds{},
			[]brief{{Kind: catalog.KindPriceUp, Key: "a", Measure: "price", Old: 0.4, New: 0.46, Pct: 15}}, nil},
		{"below the percent threshold, up", []knowledge.Offer{a}, []knowledge.Offer{offer("a", "rtx4090", 0.41)},
			catalog.Thresholds{Pct: 5}, nil, nil},
		{"below the percent threshold, down", []knowledge.Offer{a}, []knowledge.Offer{offer("a", "rtx4090", 0.39)},
			catalog.Thresholds{Pct: 5}, nil, nil},
		{"above the percent but below the absolute threshold", []knowledge.Offer{offer("p", "p40", 0.10)}, []knowledge.Offer{offer("p", "p40", 0.108)},
			catalog.Thresholds{Pct: 5, Abs: map[knowledge.Currency]float64{knowledge.USD: 0.01}}, nil, nil},
		{"above both thresholds", []knowledge.Offer{offer("p", "p40", 0.10)}, []knowledge.Offer{offer("p", "p40", 0.12)},
			catalog.Thresholds{Pct: 5, Abs: map[knowledge.Currency]float64{knowledge.USD: 0.01}},
			[]brief{{Kind: catalog.KindPriceUp, Key: "p", Measure: "price", Old: 0.1, New: 0.12, Pct: 20}}, nil},
		{"only observed_at, hash, collector and extras changed", []knowledge.Offer{a}, []knowledge.Offer{with(a, func(o *knowledge.Offer) {
			o.ObservedAt, o.RawHash, o.CollectorVersion, o.SourceRef = "2026-10-09", "abc", "v2", "x"
			o.ProviderData = map[string]string{"listing_ids": "9"}
		})}, catalog.Thresholds{}, nil, nil},
		{"currency switch is never compared", []knowledge.Offer{a}, []knowledge.Offer{with(a, func(o *knowledge.Offer) {
			o.Currency, o.PriceLow, o.PriceHigh = knowledge.CNY, 2.9, 2.9
		})}, catalog.Thresholds{}, nil, []string{"a"}},
		{"same hourly, other unit and basis: no change",
			[]knowledge.Offer{with(offer("m", "rtx4090", 292), func(o *knowledge.Offer) { o.Unit = knowledge.PerMonth })},
			[]knowledge.Offer{with(offer("m", "rtx4090", 3.2), func(o *knowledge.Offer) { o.Basis, o.GPUCount = knowledge.PerInstance, 8 })},
			catalog.Thresholds{}, nil, nil},
		{"availability", []knowledge.Offer{with(a, func(o *knowledge.Offer) { o.Availability = "available" })},
			[]knowledge.Offer{with(a, func(o *knowledge.Offer) { o.Availability = "none" })}, catalog.Thresholds{},
			[]brief{{Kind: catalog.KindAvailability, Key: "a", Avail: "available->none"}}, nil},
		{"availability appearing from unknown is no change", []knowledge.Offer{a},
			[]knowledge.Offer{with(a, func(o *knowledge.Offer) { o.Availability = "low" })}, catalog.Thresholds{}, nil, nil},
		{"bucket: max moves, min and median hold", []knowledge.Offer{bucket("v", 0.35, 0.41, 0.52, 3)},
			[]knowledge.Offer{bucket("v", 0.35, 0.41, 0.90, 7)}, catalog.Thresholds{}, nil, nil},
		{"bucket: min drops", []knowledge.Offer{bucket("v", 0.35, 0.41, 0.52, 3)},
			[]knowledge.Offer{bucket("v", 0.30, 0.41, 0.52, 3)}, catalog.Thresholds{},
			[]brief{{Kind: catalog.KindPriceDown, Key: "v", Measure: "min", Old: 0.35, New: 0.3, Pct: -14.29}}, nil},
		{"bucket: median rises", []knowledge.Offer{bucket("v", 0.35, 0.40, 0.52, 3)},
			[]knowledge.Offer{bucket("v", 0.35, 0.50, 0.52, 3)}, catalog.Thresholds{},
			[]brief{{Kind: catalog.KindPriceUp, Key: "v", Measure: "median", Old: 0.4, New: 0.5, Pct: 25}}, nil},
		{"range: high end moves", []knowledge.Offer{with(a, func(o *knowledge.Offer) { o.PriceHigh = 0.5 })},
			[]knowledge.Offer{with(a, func(o *knowledge.Offer) { o.PriceHigh = 0.6 })}, catalog.Thresholds{},
			[]brief{{Kind: catalog.KindPriceUp, Key: "a", Measure: "high", Old: 0.5, New: 0.6, Pct: 20}}, nil},
		{"disappeared status counts as gone", []knowledge.Offer{a},
			[]knowledge.Offer{with(a, func(o *knowledge.Offer) { o.Status = "disappeared" })}, catalog.Thresholds{},
			[]brief{{Kind: catalog.KindDisappeared, Key: "a", Measure: "price", Old: 0.4}}, nil},
		{"biggest move first", []knowledge.Offer{a, offer("b", "rtx4090", 1)},
			[]knowledge.Offer{offer("a", "rtx4090", 0.38), offer("b", "rtx4090", 0.5)}, catalog.Thresholds{},
			[]brief{{Kind: catalog.KindPriceDown, Key: "b", Measure: "price", Old: 1, New: 0.5, Pct: -50},
				{Kind: catalog.KindPriceDown, Key: "a", Measure: "price", Old: 0.4, New: 0.38, Pct: -5}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := catalog.Diff(tt.prev, tt.cur, tt.th)
			if diff := cmp.Diff(tt.want, briefs(d)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.incomparable, d.Incomparable); diff != "" {
				t.Errorf("incomparable (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiffCurrencyMixAcrossOffers(t *testing.T) {
	// Two offers for the same card in two currencies: each compares only
	// with its own earlier self.
	usd, cny := offer("usd", "rtx4090", 0.40), offer("cny", "rtx4090", 2.9)
	cny.Currency = knowledge.CNY
	cny2 := cny
	cny2.PriceLow, cny2.PriceHigh = 2.6, 2.6
	d := catalog.Diff([]knowledge.Offer{usd, cny}, []knowledge.Offer{usd, cny2}, catalog.DefaultThresholds())
	if len(d.Changes) != 1 || d.Changes[0].Currency != knowledge.CNY || d.Changes[0].Pct != -10.34 {
		t.Errorf("changes = %+v", briefs(d))
	}
}

// A shipped market row that a newer reading of its platform and card
// replaces is not "gone", and does not come back as "new" when that
// reading stops.
func TestMarketRowsSupersededAreNoMoves(t *testing.T) {
	market := offer("market/vastai/h100-sxm/1x/on_demand//2.1-2.1", "h100-sxm", 2.1)
	market.Platform, market.CollectorVersion = "vastai", catalog.MarketCollector
	live := offer("skypilot-vast/h100", "h100-sxm", 1.8)
	live.Platform = "vastai"
	other := offer("market/aws/h100-sxm/8x/on_demand//98.32-98.32", "h100-sxm", 12.29)
	other.Platform, other.CollectorVersion = "aws", catalog.MarketCollector

	d := catalog.Diff([]knowledge.Offer{market, other}, []knowledge.Offer{live, other}, catalog.DefaultThresholds())
	if len(d.Changes) != 1 || d.Changes[0].Kind != catalog.KindNew || d.Changes[0].Key != live.Key || d.Superseded != 1 {
		t.Errorf("live source arrives: %+v superseded %d; want only the live offer new", d.Changes, d.Superseded)
	}
	d = catalog.Diff([]knowledge.Offer{live, other}, []knowledge.Offer{market, other}, catalog.DefaultThresholds())
	if len(d.Changes) != 1 || d.Changes[0].Kind != catalog.KindDisappeared || d.Changes[0].Key != live.Key || d.Superseded != 1 {
		t.Errorf("live source leaves: %+v superseded %d; want only the live offer gone", d.Changes, d.Superseded)
	}
	// Without a newer reading a market row leaving is a removal like any other.
	d = catalog.Diff([]knowledge.Offer{market, other}, []knowledge.Offer{other}, catalog.DefaultThresholds())
	if len(d.Changes) != 1 || d.Changes[0].Kind != catalog.KindDisappeared || d.Superseded != 0 {
		t.Errorf("market row leaves alone: %+v", d.Changes)
	}
}
