package advisor

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpubot/gpubot/knowledge"
)

// The calls that take slices keep nothing: an offer edited in place is
// priced from its new figure on the next call, and an answer's slices
// belong to its caller.
func TestSharedPriceCacheFollowsEdits(t *testing.T) {
	offers := []knowledge.Offer{
		{Key: "a", Platform: "autodl", GPU: "rtx4090", PriceLow: 2.0, PriceHigh: 2.0, Currency: knowledge.CNY, Unit: knowledge.PerHour, Basis: knowledge.PerGPU, Model: knowledge.OnDemand, ObservedAt: "2026-09-01"},
		{Key: "b", Platform: "featurize", GPU: "rtx4090", PriceLow: 1.8, PriceHigh: 2.2, Currency: knowledge.CNY, Unit: knowledge.PerHour, Basis: knowledge.PerGPU, Model: knowledge.OnDemand, ObservedAt: "2026-09-01"},
		{Key: "c", Platform: "autodl", GPU: "a100", PriceLow: 6.0, PriceHigh: 6.0, Currency: knowledge.CNY, Unit: knowledge.PerHour, Basis: knowledge.PerGPU, Model: knowledge.OnDemand, ObservedAt: "2026-09-01"},
	}
	first, err := Offers("rtx4090", offers, knowledge.CNY, 7.2)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Offers) != 2 || first.Offers[0].Offer != "b" || first.Offers[0].Low != 1.8 {
		t.Fatalf("cheapest first: want b at 1.8, got %+v", first.Offers)
	}
	// The caller may change its answer; the next answer is unchanged.
	first.Offers[0].Low = 99
	first.Lines[0].Value = 99
	again, _ := Offers("rtx4090", offers, knowledge.CNY, 7.2)
	if again.Offers[0].Low != 1.8 || again.Lines[0].Value != 1.8 {
		t.Errorf("a caller's edit leaked into the cache: %+v", again.Offers[0])
	}
	// An offer edited in place: b now costs 2.5, so a (2.0) is cheapest.
	offers[1].PriceLow, offers[1].PriceHigh = 2.5, 2.5
	edited, _ := Offers("rtx4090", offers, knowledge.CNY, 7.2)
	if edited.Offers[0].Offer != "a" || edited.Offers[1].Low != 2.5 {
		t.Errorf("after the edit: want a then b at 2.5, got %+v", edited.Offers)
	}
	cp, found, err := Cheapest("rtx4090", offers, knowledge.CNY, 7.2, OfferFilter{})
	if err != nil || !found || cp.Offer != "a" || cp.How == "" {
		t.Errorf("Cheapest after the edit: want a with its conversion text, got %+v (found %v, err %v)", cp, found, err)
	}
	// An offer moved to another card joins that card's list.
	offers[2].GPU = "rtx4090"
	moved, _ := Offers("rtx4090", offers, knowledge.CNY, 7.2)
	if len(moved.Offers) != 3 {
		t.Errorf("after moving c to the 4090: want 3 offers, got %d", len(moved.Offers))
	}
	// Another currency is its own list: 2.0 CNY at 7.2 CNY/USD = 0.2778 USD.
	usd, _ := Offers("rtx4090", offers, knowledge.USD, 7.2)
	if usd.Offers[0].Low != 0.2778 {
		t.Errorf("USD list: want 0.2778, got %v", usd.Offers[0].Low)
	}
}

// A prepared market reads its offers as a snapshot (docs/engine.md,
// "Engine state"): its index is known by the slice, so no call re-reads
// every offer. The contract for an edit in place is to prepare again,
// and a new slice (the next catalogue version) is read without it.
// Hand values: per-GPU hourly CNY offers, no conversion.
func TestPreparedMarketRepreparedAfterEdit(t *testing.T) {
	kb := knowledge.MustShipped()
	offers := []knowledge.Offer{
		hourly("a", "autodl", "rtx4090", 2.0, 2.0, knowledge.CNY, knowledge.OnDemand),
		hourly("b", "featurize", "rtx4090", 1.8, 2.2, knowledge.CNY, knowledge.OnDemand),
		hourly("c", "autodl", "a100-80g", 6.0, 6.0, knowledge.CNY, knowledge.OnDemand),
	}
	m := Prepare(Market{GPUs: kb.GPUs, Archs: kb.Archs, Offers: offers})
	order := func(m Market) (keys []string, lows []float64, cheapest string) {
		t.Helper()
		l, err := m.PriceList("rtx4090", knowledge.CNY, 7.2)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range l.Offers {
			keys, lows = append(keys, o.Offer), append(lows, o.Low)
		}
		cp, found, err := m.Cheapest("rtx4090", knowledge.CNY, 7.2, OfferFilter{})
		if err != nil || !found {
			t.Fatalf("Cheapest: found %v, err %v", found, err)
		}
		return keys, lows, cp.Offer
	}
	check := func(when string, m Market, wantKeys []string, wantLows []float64) {
		t.Helper()
		keys, lows, cheapest := order(m)
		if diff := cmp.Diff(wantKeys, keys); diff != "" || cmp.Diff(wantLows, lows) != "" || cheapest != wantKeys[0] {
			t.Errorf("%s: list %v at %v, cheapest %s; want %v at %v", when, keys, lows, cheapest, wantKeys, wantLows)
		}
	}
	check("prepared", m, []string{"b", "a"}, []float64{1.8, 2.0}) // low ends: b 1.8 < a 2.0

	// b raised to ¥2.5 in place; the market is prepared again, as the
	// contract asks: a (¥2.0) now leads, b follows at 2.5.
	offers[1].PriceLow, offers[1].PriceHigh = 2.5, 2.5
	check("prepared again after the edit", Prepare(m), []string{"a", "b"}, []float64{2.0, 2.5})

	// The next snapshot in a new slice: c moved to the 4090 at ¥1.5, read
	// without preparing again (the cards' figures are kept).
	next := append([]knowledge.Offer(nil), offers...)
	next[2].GPU, next[2].PriceLow, next[2].PriceHigh = "rtx4090", 1.5, 1.5
	m.Offers = next
	check("a new slice", m, []string{"c", "a", "b"}, []float64{1.5, 2.0, 2.5})

	// A re-prepared market answers exactly as the calls that keep nothing.
	fresh, _ := Offers("rtx4090", next, knowledge.CNY, 7.2)
	kept, _ := Prepare(m).PriceList("rtx4090", knowledge.CNY, 7.2)
	if diff := cmp.Diff(fresh, kept); diff != "" {
		t.Errorf("prepared list differs from Offers (-Offers +PriceList):\n%s", diff)
	}
	// So does a market never prepared, which indexes only the card asked.
	bare := Market{GPUs: kb.GPUs, Archs: kb.Archs, Offers: next}
	check("a bare market", bare, []string{"c", "a", "b"}, []float64{1.5, 2.0, 2.5})
	if l, _ := bare.PriceList("rtx4090", knowledge.CNY, 7.2); cmp.Diff(fresh, l) != "" {
		t.Errorf("bare market's list differs from Offers:\n%s", cmp.Diff(fresh, l))
	}
}

// A cached answer equals one computed afresh: a copy of the same offers in
// a new slice (so no cache entry can match it) gives the identical list.
func TestSharedPriceCacheSameAnswer(t *testing.T) {
	kb := knowledge.MustShipped()
	if _, err := Offers("h100-sxm", kb.Offers, knowledge.USD, 7.2); err != nil { // fills the cache
		t.Fatal(err)
	}
	warm, _ := Offers("h100-sxm", kb.Offers, knowledge.USD, 7.2)
	fresh, _ := Offers("h100-sxm", append([]knowledge.Offer(nil), kb.Offers...), knowledge.USD, 7.2)
	if diff := cmp.Diff(fresh, warm); diff != "" {
		t.Errorf("cached list differs from a fresh one (-fresh +cached):\n%s", diff)
	}
	if len(warm.Offers) == 0 {
		t.Fatal("no H100 offers in the shipped catalogue")
	}
}

// Memoised sizing and rooflines give the same recommendation as the first
// call did.
func TestSharedRooflinesSameAnswer(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	in := RecommendInput{Preset: PresetInference, Budget: Money{Amount: 5000}, Currency: knowledge.CNY, Limit: 100}
	// A fresh copy of the cards and architectures: no cache entry matches.
	fresh := m
	fresh.GPUs = append([]knowledge.GPU(nil), m.GPUs...)
	fresh.Archs = append([]knowledge.Arch(nil), m.Archs...)
	a, err := Recommend(in, fresh)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Recommend(in, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("second recommendation differs (-first +second):\n%s", diff)
	}
	// A card edited in place (half the bandwidth) is not served from the
	// cache: its tokens/s per card falls.
	var before float64
	for _, r := range a.Rankings[0].Rows {
		if r.GPU == "rtx4090" {
			before = r.Score
			break
		}
	}
	if before == 0 {
		t.Fatal("no RTX 4090 row to compare")
	}
	for i := range fresh.GPUs {
		if fresh.GPUs[i].ID == "rtx4090" {
			fresh.GPUs[i].BandwidthGBs /= 2
		}
	}
	c, _ := Recommend(in, fresh)
	after := 0.0
	for _, r := range c.Rankings[0].Rows {
		if r.GPU == "rtx4090" {
			after = r.Score
			break
		}
	}
	if after == 0 || after >= before {
		t.Errorf("4090 at half bandwidth scores %v, before %v", after, before)
	}
}

// The shared caches are safe for the bot's concurrent handlers (run with
// -race): the same recommendation and price list from many goroutines.
func TestSharedCachesConcurrent(t *testing.T) {
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	in := RecommendInput{Preset: PresetInference, Budget: Money{Amount: 5000}, Currency: knowledge.CNY}
	want, err := Recommend(in, m)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan string, 8)
	for range 8 {
		go func() {
			got, err := Recommend(in, m)
			if _, perr := Offers("h100-sxm", m.Offers, knowledge.USD, 7.2); perr != nil {
				err = perr
			}
			switch {
			case err != nil:
				errs <- err.Error()
			case cmp.Diff(want, got) != "":
				errs <- "a concurrent recommendation differs"
			default:
				errs <- ""
			}
		}()
	}
	for range 8 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
