package advisor

import (
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
	notes := ""
	for _, n := range c.Notes {
		notes += n.EN + "\n"
		if n.ZH == "" {
			t.Errorf("note without Chinese: %s", n.EN)
		}
	}
	for _, want := range []string{
		"H800 SXM's NVLink is 400 GB/s against H100 SXM's 900 GB/s", "tensor parallelism", "data parallelism",
		"600 GB/s",               // the seed's figure, named as a disagreement
		"H100 SXM has 6.68×",     // 989 ÷ 148
		"H20 reads memory 1.19×", // 4000 ÷ 3350
		"only as a monthly plan",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("Compare notes lack %q:\n%s", want, notes)
		}
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
