package advisor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpubot/gpubot/knowledge"
)

func TestConvert(t *testing.T) {
	tests := []struct {
		name     string
		amount   float64
		from, to knowledge.Currency
		fx, want float64
	}{
		{"dollars to yuan", 2.5, knowledge.USD, knowledge.CNY, 7.2, 18},        // 2.5 × 7.2
		{"yuan to dollars", 9.6, knowledge.CNY, knowledge.USD, 7.2, 9.6 / 7.2}, // 1.333
		{"same currency untouched", 1.24, knowledge.CNY, knowledge.CNY, 7.2, 1.24},
		{"another rate", 100, knowledge.USD, knowledge.CNY, 7.0, 700},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Convert(tt.amount, tt.from, tt.to, tt.fx); !near(got, tt.want, 1e-9) {
				t.Errorf("Convert(%v %s → %s @%v) = %v, want %v", tt.amount, tt.from, tt.to, tt.fx, got, tt.want)
			}
		})
	}
}

func TestNormalizeOffer(t *testing.T) {
	machine := knowledge.Offer{Key: "m", Platform: "cn-market", GPU: "h100-sxm", GPUCount: 8, PriceLow: 63000, PriceHigh: 63000,
		Currency: knowledge.CNY, Unit: knowledge.PerMonth, Basis: knowledge.PerInstance, Model: knowledge.Package, ObservedAt: "2026-09-01"}
	tests := []struct {
		name          string
		o             knowledge.Offer
		cur           knowledge.Currency
		low, high     float64
		monthly, pack bool
		interrupt     bool
	}{
		// ¥63000 ÷ (730 h × 8 cards) = ¥10.788/card-hour.
		{"machine-month in yuan", machine, knowledge.CNY, 63000.0 / 730 / 8, 63000.0 / 730 / 8, true, true, false},
		// … and ÷ 7.2 = $1.498.
		{"machine-month in dollars", machine, knowledge.USD, 63000.0 / 730 / 8 / 7.2, 63000.0 / 730 / 8 / 7.2, true, true, false},
		// $2.0–3.5 × 7.2 = ¥14.4–25.2.
		{"dollar range to yuan", hourly("g", "global-market", "h100-sxm", 2.0, 3.5, knowledge.USD, knowledge.OnDemand), knowledge.CNY, 14.4, 25.2, false, false, false},
		{"spot is interruptible", hourly("s", "aws", "h100-sxm", 1, 1, knowledge.USD, knowledge.Spot), knowledge.USD, 1, 1, false, false, true},
		// The seed's 4090 plan, given as ¥0.8–1.5 per hour equivalent.
		{"hourly-equivalent package is monthly", hourly("p", "cn-market", "rtx4090", 0.8, 1.5, knowledge.CNY, knowledge.Package), knowledge.CNY, 0.8, 1.5, true, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp, ok := NormalizeOffer(tt.o, tt.cur, 7.2)
			if !ok {
				t.Fatalf("NormalizeOffer(%s) not ok", tt.o.Key)
			}
			if !near(cp.Low, tt.low, 1e-4) || !near(cp.High, tt.high, 1e-4) {
				t.Errorf("NormalizeOffer(%s, %s) = %v–%v, want %.4f–%.4f", tt.name, tt.cur, cp.Low, cp.High, tt.low, tt.high)
			}
			if cp.Monthly != tt.monthly || cp.Package != tt.pack || cp.Interruptible != tt.interrupt {
				t.Errorf("NormalizeOffer(%s) flags monthly=%v package=%v interruptible=%v, want %v %v %v", tt.name, cp.Monthly, cp.Package, cp.Interruptible, tt.monthly, tt.pack, tt.interrupt)
			}
			if cp.Original.Low != tt.o.PriceLow || cp.Original.Unit != tt.o.Unit || cp.ObservedAt != tt.o.ObservedAt {
				t.Errorf("NormalizeOffer(%s) lost the published figure: %+v", tt.name, cp.Original)
			}
		})
	}
	perToken := hourly("t", "runpod", "h100-sxm", 0.2, 0.2, knowledge.USD, knowledge.Serverless)
	perToken.Unit = knowledge.PerMillionToken
	if _, ok := NormalizeOffer(perToken, knowledge.USD, 7.2); ok {
		t.Errorf("NormalizeOffer(per million tokens) ok, want it left out")
	}
}

func cheapTestOffers() []knowledge.Offer {
	tok := hourly("serverless-tokens", "runpod", "rtx4090", 0.01, 0.01, knowledge.USD, knowledge.Serverless)
	tok.Unit = knowledge.PerMillionToken
	return []knowledge.Offer{
		hourly("autodl", "autodl", "rtx4090", 1.8, 2.5, knowledge.CNY, knowledge.OnDemand),
		hourly("vast", "vastai", "rtx4090", 0.15, 0.15, knowledge.USD, knowledge.OnDemand), // ¥1.08
		hourly("suanjia", "suanjiayun", "rtx4090", 1.24, 1.24, knowledge.CNY, knowledge.OnDemand),
		hourly("spot", "gcp", "rtx4090", 0.10, 0.10, knowledge.USD, knowledge.Spot),            // ¥0.72
		hourly("plan", "cn-market", "rtx4090", 0.8, 1.5, knowledge.CNY, knowledge.Package),     // ¥0.8
		hourly("other-card", "autodl", "rtx3090", 0.5, 0.5, knowledge.CNY, knowledge.OnDemand), // not a 4090
		tok,
	}
}

func TestOffersCheapestFirst(t *testing.T) {
	res, err := Offers("rtx4090", cheapTestOffers(), knowledge.CNY, 7.2)
	if err != nil {
		t.Fatal(err)
	}
	// Low ends in yuan: spot 0.10×7.2 = 0.72, plan 0.8, vast 0.15×7.2 = 1.08, suanjia 1.24, autodl 1.8.
	want := []string{"spot", "plan", "vast", "suanjia", "autodl"}
	var got []string
	for _, o := range res.Offers {
		got = append(got, o.Offer)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Offers(rtx4090) order (-want +got):\n%s", diff)
	}
	if len(res.Sources) != len(want) || res.Sources[0].ObservedAt != "2026-09-01" {
		t.Errorf("Offers sources = %+v, want one dated source per offer", res.Sources)
	}
	if len(res.Assumptions) == 0 {
		t.Errorf("Offers gave no assumptions; want the exchange rate and the confirm-on-platform note")
	}
}

// Ties: equal low ends go by the high end, then by key; equal offers keep
// their place in the slice. Every line and source belongs to the offer
// beside it. Hand order of the ¥/card-hour ranges below: m 0.9–3, z 1.0,
// a 1.0–1.5 (the first of two), a 1.0–1.5 (second), b 1.0–1.5; the
// disappeared offer at 0.1 and the per-token one are left out.
func TestOffersTieOrder(t *testing.T) {
	mk := func(key string, low, high float64, src string) knowledge.Offer {
		o := hourly(key, "p-"+key, "rtx4090", low, high, knowledge.CNY, knowledge.OnDemand)
		o.Source = src
		return o
	}
	gone := mk("gone", 0.1, 0.1, "")
	gone.Status = "disappeared"
	tok := mk("tok", 0.05, 0.05, "")
	tok.Unit = knowledge.PerMillionToken
	offers := []knowledge.Offer{mk("b", 1, 1.5, "1"), mk("a", 1, 1.5, "2"), gone, mk("z", 1, 1, "3"), tok, mk("a", 1, 1.5, "4"), mk("m", 0.9, 3, "5")}
	res, err := Offers("rtx4090", offers, knowledge.CNY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, o := range res.Offers {
		got = append(got, o.Offer+"/"+o.Source)
		if l, s := res.Lines[i], res.Sources[i]; l.Key != o.Offer || l.Value != o.Low || l.How != o.How || s.Offer != o.Offer || s.Source != o.Source {
			t.Errorf("row %d: line %+v and source %+v do not belong to offer %s", i, l, s, o.Offer)
		}
	}
	want := []string{"m/5", "z/3", "a/2", "a/4", "b/1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tie order (-want +got):\n%s", diff)
	}
	if h := res.Offers[0].How; h != "¥0.9–3/card-hour as published" {
		t.Errorf("how = %q", h)
	}
}

func TestCheapestFilters(t *testing.T) {
	offers := cheapTestOffers()
	tests := []struct {
		name    string
		cur     knowledge.Currency
		f       OfferFilter
		want    string
		price   float64
		spot    bool
		nothing bool
	}{
		{"spot allowed and flagged", knowledge.CNY, OfferFilter{}, "spot", 0.72, true, false},
		{"no interruptible", knowledge.CNY, OfferFilter{NoInterruptible: true}, "vast", 1.08, false, false},
		{"packages allowed", knowledge.CNY, OfferFilter{NoInterruptible: true, Packages: true}, "plan", 0.8, false, false},
		{"one platform", knowledge.CNY, OfferFilter{Platform: "autodl"}, "autodl", 1.8, false, false},
		{"native yuan offers only", knowledge.CNY, OfferFilter{NativeOnly: true}, "suanjia", 1.24, false, false},
		{"in dollars", knowledge.USD, OfferFilter{NoInterruptible: true}, "vast", 0.15, false, false},
		{"unknown platform", knowledge.CNY, OfferFilter{Platform: "lambda"}, "", 0, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp, found, err := Cheapest("rtx4090", offers, tt.cur, 7.2, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if found == tt.nothing {
				t.Fatalf("Cheapest(%s) found = %v, want %v", tt.name, found, !tt.nothing)
			}
			if tt.nothing {
				return
			}
			if cp.Offer != tt.want || !near(cp.Price(), tt.price, 1e-9) || cp.Interruptible != tt.spot {
				t.Errorf("Cheapest(%s) = %s at %v (spot %v), want %s at %v (spot %v)", tt.name, cp.Offer, cp.Price(), cp.Interruptible, tt.want, tt.price, tt.spot)
			}
		})
	}
}

func TestPriceInputErrors(t *testing.T) {
	_, err := Offers("rtx4090", nil, "EUR", 7.2)
	wantInputErr(t, "Offers(EUR)", err, "currency")
	_, err = Offers("rtx4090", nil, knowledge.CNY, 0.5)
	wantInputErr(t, "Offers(fx=0.5)", err, "fx")
	_, err = Offers("", nil, knowledge.CNY, 7.2)
	wantInputErr(t, "Offers(no card)", err, "gpu")
	res, err := Offers("rtx4090", nil, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Inputs.Currency != knowledge.CNY || res.Inputs.FX != DefaultCNYPerUSD || !hasDefault(res.Inputs.Defaulted, "currency") || !hasDefault(res.Inputs.Defaulted, "fx") {
		t.Errorf("Offers defaults = %+v, want CNY at %v, both recorded as defaulted", res.Inputs, DefaultCNYPerUSD)
	}
}

func TestBillingGranularity(t *testing.T) {
	tests := []struct {
		in   string
		job  float64
		want float64
	}{
		{"PT1H", 2.2, 3},           // ceil(2.2 h)
		{"hour", 0.75, 1},          // a 45-minute job pays an hour
		{"PT1M", 2.2, 2.2},         // 132 minutes exactly
		{"PT1M", 0.505, 31.0 / 60}, // 30.3 min → 31 min
		{"PT1S", 2.2, 2.2},
		{"PT15M", 1.1, 1.25}, // 66 min → 75 min
		{"按小时", 3, 3},
	}
	for _, tt := range tests {
		g, ok := ParseGranularity(tt.in)
		if !ok {
			t.Fatalf("ParseGranularity(%q) not ok", tt.in)
		}
		if got := g.Bill(tt.job); !near(got, tt.want, 1e-9) {
			t.Errorf("Granularity(%s).Bill(%v h) = %v, want %v", tt.in, tt.job, got, tt.want)
		}
	}
	if _, ok := ParseGranularity("fortnightly"); ok {
		t.Errorf("ParseGranularity(fortnightly) ok, want not ok")
	}
}

// appendNum writes common numbers from integers; every form must be the
// digits strconv writes for the rule "integers as is, from 100 up one
// decimal, below 100 three decimals without trailing zeros": random
// prices, halves, signs, ±0, the range edges, NaN and infinities.
func TestAppendNumMatchesStrconv(t *testing.T) {
	ref := func(f float64) string {
		switch {
		case f == math.Trunc(f) && math.Abs(f) < 1e15:
			return strconv.FormatFloat(f, 'f', 0, 64)
		case math.Abs(f) >= 100:
			return strconv.FormatFloat(f, 'f', 1, 64)
		default:
			return strconv.FormatFloat(math.Round(f*1000)/1000, 'f', -1, 64)
		}
	}
	vals := []float64{0, math.Copysign(0, -1), 1e-4, -1e-4, 0.0005, -0.0005, 0.0015, 2.4995, 99.9995, 99.99951, 100, 100.05, 100.25,
		-100.05, 150.04, 999999999999.95, 1e12 + 0.05, 1e15, 1e15 + 2, -3, 7.2, 6.93, 0.2778, 2.49, 1.98, 12.345, -12.3456,
		math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, math.SmallestNonzeroFloat64}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		switch r.IntN(5) {
		case 0:
			vals = append(vals, float64(r.IntN(1_000_000))/10_000) // four decimals, like a normalised price
		case 1:
			vals = append(vals, float64(r.IntN(200_000))/1000+0.0005) // near a half at the third decimal
		case 2:
			vals = append(vals, float64(r.IntN(1_000_000))/100+0.05) // near a half at the first decimal
		case 3:
			vals = append(vals, (r.Float64()-0.5)*2e4)
		default:
			vals = append(vals, r.NormFloat64()*1e9)
		}
	}
	bad := 0
	for _, f := range vals {
		if got, want := string(appendNum(nil, f)), ref(f); got != want {
			if bad++; bad <= 10 {
				t.Errorf("appendNum(%v) = %q, strconv gives %q", f, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d numbers differ", bad, len(vals))
	}
}

// The confirm note lists each observation date once, in the order first
// seen, past the 16 dates after which a set is kept instead of the list.
func TestObservedDatesOnce(t *testing.T) {
	var src []PriceSource
	var want []string
	for i := range 40 {
		d := fmt.Sprintf("2026-%02d-%02d", 1+i%20/10, 1+i%20) // 20 dates, each four times
		src = append(src, PriceSource{ObservedAt: d}, PriceSource{ObservedAt: d})
		if i < 20 {
			want = append(want, d)
		}
	}
	src = append(src, PriceSource{ObservedAt: "2027-01-01", Given: true}, PriceSource{}) // a given figure, no date
	if diff := cmp.Diff(want, observedDates(src)); diff != "" {
		t.Errorf("observed dates (-want +got):\n%s", diff)
	}
}

// A price list writes each text once and shares it between offers with
// the same figure (conversion and figure) or the same platform and model
// (labels). Every row must still read as its own offer's, by hand at ¥7.2
// per dollar: $2/hour = 2 × 7.2 = ¥14.4; ¥14.4 is as published. Ranges
// ¥5–0 and ¥5–-0 (unvalidated figures) are equal prices that print
// differently, so they share nothing.
func TestPriceListSharedTexts(t *testing.T) {
	usd := func(key, platform string, model knowledge.PricingModel) knowledge.Offer {
		return hourly(key, platform, "h100-sxm", 2, 2, knowledge.USD, model)
	}
	zero := hourly("z1", "p3", "h100-sxm", 5, 0, knowledge.CNY, knowledge.OnDemand)
	negZero := hourly("z2", "p3", "h100-sxm", 5, math.Copysign(0, -1), knowledge.CNY, knowledge.OnDemand)
	offers := []knowledge.Offer{
		hourly("b1", "p1", "h100-sxm", 14.4, 14.4, knowledge.CNY, knowledge.OnDemand),
		usd("a3", "p1", knowledge.Spot), usd("a2", "p2", knowledge.OnDemand), negZero, usd("a1", "p1", knowledge.OnDemand), zero,
	}
	res, err := Offers("h100-sxm", offers, knowledge.CNY, 7.2)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ Key, How, EN, ZH, Figure string }
	want := []row{
		{"z1", "¥5–0/card-hour as published", "p3 (on demand)", "p3 (按需)", "¥5–0/hour per card"},
		{"z2", "¥5–-0/card-hour as published", "p3 (on demand)", "p3 (按需)", "¥5–-0/hour per card"},
		{"a1", "$2 × 7.2 = ¥14.4/card-hour", "p1 (on demand)", "p1 (按需)", "$2/hour per card"},
		{"a2", "$2 × 7.2 = ¥14.4/card-hour", "p2 (on demand)", "p2 (按需)", "$2/hour per card"},
		{"a3", "$2 × 7.2 = ¥14.4/card-hour", "p1 (spot, interruptible)", "p1 (竞价实例，可能被中断)", "$2/hour per card"},
		{"b1", "¥14.4/card-hour as published", "p1 (on demand)", "p1 (按需)", "¥14.4/hour per card"},
	}
	var got []row
	for i, o := range res.Offers {
		l, s := res.Lines[i], res.Sources[i]
		if l.Key != o.Offer || l.How != o.How || s.Offer != o.Offer {
			t.Errorf("row %d: line %+v and source %+v do not belong to offer %s", i, l, s, o.Offer)
		}
		got = append(got, row{o.Offer, o.How, l.Label.EN, l.Label.ZH, s.Figure})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("price list texts (-want +got):\n%s", diff)
	}
}

// Over a large market with repeated, near and re-labelled figures, every
// row of a price list reads as the offer alone does (NormalizeOffer, its
// label, offerSource), in both currencies.
func TestPriceListTextsMatchOneOffer(t *testing.T) {
	kb := knowledge.MustShipped()
	var offers []knowledge.Offer
	for i := range 12 {
		for j, o := range kb.Offers {
			o.Key = fmt.Sprintf("%s-%d", o.Key, i)
			switch (i + j) % 4 {
			case 1: // a figure of its own
				o.PriceLow *= 1 + float64(i)/97
			case 2: // the same figure on another platform
				o.Platform = kb.Offers[(i+j)%len(kb.Offers)].Platform
			case 3: // the same figure, another model
				o.Model = knowledge.Spot
			}
			offers = append(offers, o)
		}
	}
	byKey := map[string]knowledge.Offer{}
	for _, o := range offers {
		byKey[o.Key] = o
	}
	rows := 0
	for _, g := range kb.GPUs {
		for _, cur := range []knowledge.Currency{knowledge.CNY, knowledge.USD} {
			res, err := Offers(g.ID, offers, cur, 6.9)
			if err != nil {
				t.Fatal(err)
			}
			for i, cp := range res.Offers {
				one, ok := NormalizeOffer(byKey[cp.Offer], cur, 6.9)
				l, s := res.Lines[i], res.Sources[i]
				lab := txt(offerLabel(one, "en"), offerLabel(one, "zh"))
				line := Line{Key: one.Offer, Label: lab, Value: one.Low, Unit: string(cur) + "/card-hour", How: one.How}
				if !ok || cp != one || l != line || s != offerSource("hourly", one) {
					t.Errorf("%s %s row %d: %+v / %+v / %+v, want %+v labelled %+v", g.ID, cur, i, cp, l, s, one, lab)
				}
				rows++
			}
		}
	}
	if rows < 1000 {
		t.Errorf("only %d rows compared", rows)
	}
}

// sortList orders like the rule it implements, written out plainly: the
// low end, the high end, the key, the place. Lists of every size up to
// 300 with few distinct prices (ties), ±0 and keys from a small set.
func TestSortListOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 1))
	keys := []string{"a", "b", "ab", "ba", "b-1", "b-10", "b-2"}
	ends := []float64{0, math.Copysign(0, -1), 0.5, 1, 1.5, 2, 1e9}
	offers := make([]knowledge.Offer, 300)
	for i := range offers {
		offers[i].Key = keys[r.IntN(len(keys))]
	}
	for n := range 301 {
		for _, shape := range []string{"random", "sorted", "reversed"} {
			es := make([]listEntry, n)
			for k := range es {
				es[k] = listEntry{low: ends[r.IntN(len(ends))], high: ends[r.IntN(len(ends))], i: int32(k)} // places are unique
			}
			want := slices.Clone(es)
			slices.SortFunc(want, func(a, b listEntry) int {
				switch {
				case a.low < b.low:
					return -1
				case a.low > b.low:
					return 1
				case a.high < b.high:
					return -1
				case a.high > b.high:
					return 1
				case offers[a.i].Key < offers[b.i].Key:
					return -1
				case offers[a.i].Key > offers[b.i].Key:
					return 1
				}
				return int(a.i - b.i)
			})
			switch shape {
			case "sorted":
				es = slices.Clone(want)
			case "reversed":
				es = slices.Clone(want)
				slices.Reverse(es)
			}
			sortList(es, offers)
			if !slices.Equal(es, want) {
				t.Fatalf("%s list of %d: sortList order differs from the rule", shape, n)
			}
		}
	}
}
