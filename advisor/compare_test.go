package advisor

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

func TestCompareH100H800H20(t *testing.T) {
	m := testMarket(t,
		hourly("h100-cn", "cn-market", "h100-sxm", 9.6, 12, knowledge.CNY, knowledge.OnDemand),
		hourly("h100-us", "global-market", "h100-sxm", 2.0, 3.5, knowledge.USD, knowledge.OnDemand),
		hourly("h100-spot", "aws", "h100-sxm", 1.0, 1.0, knowledge.USD, knowledge.Spot),
		hourly("h800-cn", "cn-market", "h800", 9.6, 12, knowledge.CNY, knowledge.OnDemand),
		knowledge.Offer{Key: "h20-month", Platform: "cn-market", GPU: "h20", GPUCount: 1, PriceLow: 21000, PriceHigh: 21000, Currency: knowledge.CNY,
			Unit: knowledge.PerMonth, Basis: knowledge.PerGPU, Model: knowledge.Package, ObservedAt: "2026-09-01", Source: "test"})
	wantSpec(t, m, "h800", "NVLink GB/s", func(g knowledge.GPU) float64 { return g.NVLinkGBs }, 400)
	wantSpec(t, m, "h20", "peak TFLOPS", peak, 148)
	c, err := Compare([]string{"h100", "H800", "h20"}, m, knowledge.CNY, 7.2)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 3 {
		t.Fatalf("Compare rows = %d, want 3", len(c.Rows))
	}
	h100, h800, h20 := c.Rows[0], c.Rows[1], c.Rows[2]
	// H100 on demand: ¥9.6–12 and $2.0–3.5 × 7.2 = ¥14.4–25.2; spot left out.
	if h100.PriceLow != 9.6 || !near(h100.PriceHigh, 25.2, 1e-9) || h100.PriceBasis != "on_demand" || h100.Offers != 2 {
		t.Errorf("Compare H100 price = %v–%v (%s, %d offers), want 9.6–25.2 on demand from 2 offers", h100.PriceLow, h100.PriceHigh, h100.PriceBasis, h100.Offers)
	}
	// ¥9.6 ÷ 989 TFLOPS and ÷ 80 GB.
	if !near(h800.PerTFLOPHour, 9.6/989, 1e-5) || !near(h800.PerGBHour, 9.6/80, 1e-5) {
		t.Errorf("Compare H800 per TFLOP-hour %v, per GB-hour %v; want %.5f and %.5f", h800.PerTFLOPHour, h800.PerGBHour, 9.6/989, 9.6/80)
	}
	// The H20 has only a monthly plan: ¥21000 ÷ 730 h = ¥28.77 per hour.
	if h20.PriceBasis != "monthly" || !near(h20.PriceLow, 21000.0/730, 1e-3) {
		t.Errorf("Compare H20 price = %v (%s), want %.2f from the monthly plan", h20.PriceLow, h20.PriceBasis, 21000.0/730)
	}
	// What the differences mean, as values (bot/present words them).
	for _, want := range []CompareNote{
		{Kind: CompareNVLinkGap, Hi: "H100 SXM", Lo: "H800 SXM", HiValue: 900, LoValue: 400},
		{Kind: CompareCompute, Hi: "H100 SXM", Lo: "H20", Ratio: 6.68, HiValue: 989, LoValue: 148},     // 989 ÷ 148 = 6.682
		{Kind: CompareBandwidth, Hi: "H20", Lo: "H100 SXM", Ratio: 1.19, HiValue: 4000, LoValue: 3350}, // 4000 ÷ 3350 = 1.194
		{Kind: CompareMonthlyOnly, Hi: "H20"},
	} {
		if !slices.ContainsFunc(c.Said, func(n CompareNote) bool {
			return n.Kind == want.Kind && n.Hi == want.Hi && n.Lo == want.Lo && n.Ratio == want.Ratio && n.HiValue == want.HiValue && n.LoValue == want.LoValue
		}) {
			t.Errorf("Compare notes lack %+v:\n%+v", want, c.Said)
		}
	}
	// The seed's 600 GB/s for the H800, named as a disagreement.
	if !slices.ContainsFunc(c.Said, func(n CompareNote) bool {
		return n.Kind == CompareSeed && n.GPU == "h800" && strings.Contains(n.Seed, "600 GB/s")
	}) {
		t.Errorf("Compare notes lack the H800 seed disagreement:\n%+v", c.Said)
	}
}

func TestCompareInputErrors(t *testing.T) {
	m := testMarket(t)
	_, err := Compare([]string{"h100"}, m, knowledge.CNY, 7.2)
	wantInputErr(t, "Compare(one card)", err, "gpu")
	_, err = Compare([]string{"h100", "voodoo5"}, m, knowledge.CNY, 7.2)
	wantInputErr(t, "Compare(unknown)", err, "gpu")
	_, err = Compare([]string{"h100", "H100 SXM"}, m, knowledge.CNY, 7.2)
	wantInputErr(t, "Compare(same card twice)", err, "gpu")
}

// Each card shows its cheapest on-demand and cheapest reserved offer.
// market.csv (observed 2026-03-22): A40 on RunPod on demand $0.35/h (line
// 797), reserved on RunPod $0.20 (line 869) and Database Mart $0.65 (line
// 872); MI300X on demand on Hot Aisle $1.99/h (line 2444), reserved 8x on
// Vultr $14.80/h (line 2457) and on Cirrascale $24.96/h (line 2459). By
// hand: the A40's cheapest term is RunPod's $0.20; the MI300X's is Vultr's
// 14.80 ÷ 8 = $1.85 a card-hour (Cirrascale's is 24.96 ÷ 8 = $3.12). No
// row states its term. A 1-year reservation at $0.15 (P1Y, made up, not a
// market.csv row) then undercuts RunPod and reads "1 year".
func TestCompareCheapestOnDemandAndReserved(t *testing.T) {
	usd := knowledge.USD
	rows := []knowledge.Offer{
		hourly("runpod-a40", "runpod", "a40", 0.35, 0.35, usd, knowledge.OnDemand),
		hourly("runpod-a40-reserved", "runpod", "a40", 0.20, 0.20, usd, knowledge.Reserved),
		hourly("database-mart-a40-reserved", "database_mart", "a40", 0.65, 0.65, usd, knowledge.Reserved),
		hourly("hot-aisle-mi300x", "hot_aisle", "mi300x", 1.99, 1.99, usd, knowledge.OnDemand),
		marketRow("vultr-mi300x-reserved", "vultr", "mi300x", 8, 14.80, knowledge.Reserved),
		marketRow("cirrascale-mi300x-reserved", "cirrascale", "mi300x", 8, 24.96, knowledge.Reserved),
	}
	c, err := Compare([]string{"a40", "mi300x"}, testMarket(t, rows...), usd, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		od, res     float64
		odAt, resAt string
		term        string
	}{{0.35, 0.20, "runpod", "runpod", "term not stated by the source"}, {1.99, 1.85, "hot_aisle", "vultr", "term not stated by the source"}}
	for i, w := range want {
		r := c.Rows[i]
		if r.OnDemand == nil || r.Reserved == nil {
			t.Fatalf("%s: on demand %+v, reserved %+v", r.GPU, r.OnDemand, r.Reserved)
		}
		if r.OnDemand.Price != w.od || r.OnDemand.Platform != w.odAt || r.Reserved.Price != w.res || r.Reserved.Platform != w.resAt || r.Reserved.TermLabel.EN != w.term {
			t.Errorf("%s: on demand %+v, reserved %+v (%s); want %v on %s, %v on %s", r.GPU, *r.OnDemand, *r.Reserved, r.Reserved.TermLabel.EN, w.od, w.odAt, w.res, w.resAt)
		}
	}

	year := hourly("azure-a40-1y", "azure", "a40", 0.15, 0.15, usd, knowledge.Reserved)
	year.Term = "P1Y"
	c, err = Compare([]string{"a40", "mi300x"}, testMarket(t, append(rows, year)...), usd, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Rows[0].Reserved; r == nil || r.Price != 0.15 || r.Term != "P1Y" || r.TermLabel.EN != "1 year" {
		t.Errorf("a40 reserved = %+v, want azure's 1-year term at 0.15", r)
	}
}
