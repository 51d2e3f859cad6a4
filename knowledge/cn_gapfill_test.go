package knowledge

import (
	"testing"
)

// offersOn is every shipped offer for card on platform.
func offersOn(b *Base, platform, gpu string) []Offer {
	var out []Offer
	for _, o := range b.Offers {
		if o.Platform == platform && o.GPU == gpu {
			out = append(out, o)
		}
	}
	return out
}

// rowsOn is every sourced row (Procurement.Rows) for card on platform.
func rowsOn(b *Base, platform, gpu string) []Offer {
	var out []Offer
	for _, o := range b.Procurement.Rows {
		if o.Platform == platform && o.GPU == gpu {
			out = append(out, o)
		}
	}
	return out
}

// The low-confidence rows users asked for are kept, graded low and dated,
// as sourced rows an answer can fall back on (not catalogue offers: no
// engine ranks on them); the figures are the CSV's own.
func TestLowRowsAreKeptAsGradedSourcedRows(t *testing.T) {
	b := MustShipped()
	for _, c := range []struct {
		name          string
		platform, gpu string
		model         PricingModel
		unit          Unit
		low, high     float64
		at            string
	}{
		// cn_cloud_prices.csv row 46: AutoDL,RTX 5090 32GB,1,on_demand,2.78,per_gpu_hour,CNY,…,2026-08 (实测 as stated),…,low
		{"AutoDL RTX 5090", "autodl", "rtx5090", OnDemand, PerHour, 2.78, 2.78, "2026-08-01"},
		// row 50: AutoDL,H800 80GB,1,on_demand,8.88,per_gpu_hour,CNY,…,2026-08,…,low
		{"AutoDL H800", "autodl", "h800", OnDemand, PerHour, 8.88, 8.88, "2026-08-01"},
		// row 47: AutoDL,A100 40GB,1,on_demand,3.45,…,2026-08,…,low
		{"AutoDL A100 40GB", "autodl", "a100-40g", OnDemand, PerHour, 3.45, 3.45, "2026-08-01"},
		// row 48: AutoDL,A800 80GB,1,on_demand,4.98,…,2026-08,…,low
		{"AutoDL A800", "autodl", "a800", OnDemand, PerHour, 4.98, 4.98, "2026-08-01"},
		// Of AutoDL's RTX 3090 on-demand rows the newest: ¥1.32 (row 43,
		// 2026-08), not ¥1.2 (row 64, 2026-06/07) or ¥2.0 (row 56,
		// 2025-10); rows 52 and 60 are undated and price nothing.
		{"AutoDL RTX 3090", "autodl", "rtx3090", OnDemand, PerHour, 1.32, 1.32, "2026-08-01"},
		// row 105: 模力方舟 (ai.gitee.com),Ascend 910B,1,on_demand,3.0,per_gpu_hour,CNY,…,
		// 2026-07-15 (verified),…,"range 3.00–4.00元/时 单卡",low — the note's range kept
		{"模力方舟 Ascend 910B", "模力方舟", "ascend-910b", OnDemand, PerHour, 3.0, 4.0, "2026-07-15"},
		// row 106: 区域市场 厦门 (via 什么值得买),Ascend 910B,1,monthly,8500,per_month,CNY,厦门,
		// 2026-07-15 (recorded),…,low — a regional survey: the China market range
		{"厦门 Ascend 910B month", "cn-market", "ascend-910b", Package, PerMonth, 8500, 8500, "2026-07-15"},
	} {
		var got []Offer
		for _, o := range rowsOn(b, c.platform, c.gpu) {
			if o.Model == c.model {
				got = append(got, o)
			}
		}
		if len(got) != 1 {
			t.Errorf("%s: %d %s rows, want 1 (%v)", c.name, len(got), c.model, got)
			continue
		}
		o := got[0]
		if o.PriceLow != c.low || o.PriceHigh != c.high || o.Currency != CNY || o.Unit != c.unit || o.ObservedAt != c.at || o.Confidence != Low || o.SourceKind != "sourced_row" {
			t.Errorf("%s = %v–%v %s/%s dated %s confidence %q kind %s, want %v–%v CNY/%s dated %s low sourced_row",
				c.name, o.PriceLow, o.PriceHigh, o.Currency, o.Unit, o.ObservedAt, o.Confidence, o.SourceKind, c.low, c.high, c.unit, c.at)
		}
		for _, o := range offersOn(b, c.platform, c.gpu) {
			t.Errorf("%s: catalogue offer %s (%v) — the platform has no graded figure, want the row only", c.name, o.Key, o.PriceLow)
		}
	}
}

// A low row never stands beside a better one: AutoDL's RTX 4090 has a
// seed (¥1.8–2.5) and a medium row (row 40, ¥1.98, 2026-10-04), so none
// of its seven low rows (¥1.88, ¥2.18, ¥1.2–2.7, ¥1.61, spot ¥2, …) is an
// offer; and across the catalogue no low offer shares a platform and card
// with a graded or seed offer.
func TestLowRowsNeverDisplaceBetterOnes(t *testing.T) {
	b := MustShipped()
	for _, o := range offersOn(b, "autodl", "rtx4090") {
		if o.Confidence == Low {
			t.Errorf("AutoDL RTX 4090: low row %s (¥%v) is an offer beside the seed and the medium ¥1.98 row", o.Key, o.PriceLow)
		}
	}
	better := map[string]string{}
	for _, o := range b.Offers {
		if o.Confidence != Low {
			better[o.Platform+"/"+o.GPU] = o.Key
		}
	}
	n := 0
	for _, o := range b.Offers {
		if o.Confidence != Low {
			continue
		}
		n++
		if k, ok := better[o.Platform+"/"+o.GPU]; ok {
			t.Errorf("low offer %s stands beside %s", o.Key, k)
		}
	}
	// 阿里云's A10 ¥15 (row 96) and A100 80GB ¥35 (row 97) are the only
	// low rows that are offers: a big cloud with no better figure.
	if n != 2 {
		t.Errorf("%d low-confidence offers, want 2", n)
	}
}

// The Ascend 910B is priced only by low rows (rows 105–106: 模力方舟
// ¥3.0/card-hour with its note's range to ¥4.00, 2026-07-15; 厦门
// ¥8,500 a card-month, 2026-07-15): no catalogue offer, two sourced rows
// an answer falls back on. The monthly rows of 天翼云, 极智算 and 云擎天下
// (rows 101–103) state no card count and price nothing.
func TestAscend910BIsASourcedRowOnly(t *testing.T) {
	b := MustShipped()
	for _, o := range b.Offers {
		if o.GPU == "ascend-910b" {
			t.Errorf("Ascend 910B offer %s (¥%v): only low rows price the card, want none", o.Key, o.PriceLow)
		}
	}
	type fig struct {
		platform  string
		model     PricingModel
		unit      Unit
		low, high float64
	}
	var got []fig
	for _, o := range b.Procurement.Rows {
		if o.GPU == "ascend-910b" {
			if o.Confidence != Low || o.ObservedAt != "2026-07-15" || o.SourceKind != "sourced_row" {
				t.Errorf("910B row %s: confidence %q dated %s kind %s, want low, 2026-07-15, sourced_row", o.Key, o.Confidence, o.ObservedAt, o.SourceKind)
			}
			got = append(got, fig{o.Platform, o.Model, o.Unit, o.PriceLow, o.PriceHigh})
		}
	}
	want := []fig{{"模力方舟", OnDemand, PerHour, 3, 4}, {"cn-market", Package, PerMonth, 8500, 8500}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("910B rows = %v, want %v", got, want)
	}
}

// 胜算云's "Ascend 910" (row 104) is not the 910B the bot knows: it prices
// nothing rather than be read as one.
func TestAscend910IsNot910B(t *testing.T) {
	if got := CardID("Ascend 910"); got != "" {
		t.Errorf(`CardID("Ascend 910") = %q, want ""`, got)
	}
	if got := CardID("RTX 4060 Ti 16GB"); got != "rtx4060ti" {
		t.Errorf(`CardID("RTX 4060 Ti 16GB") = %q, want rtx4060ti`, got)
	}
	if got := CardID("RTX 4060 Ti 8GB"); got != "" {
		t.Errorf(`CardID("RTX 4060 Ti 8GB") = %q, want "" (the bot's card is the 16 GB one)`, got)
	}
}

// The consumer cards' purchase rows load with their condition kept apart:
// purchase_prices.csv rows 120–123 (RTX 4060 Ti 16GB: CraftRigs new
// $380–420 and used $300–350, early 2026, low; RunLocalAI new ~$449,
// 2026-05, medium; convly used $330–400, 2026-05-20, low) and rows 110–113
// (RTX 3090 used $500–800, $700–900, $700–1000, $600–750, all medium).
func TestConsumerPurchaseRows(t *testing.T) {
	b := MustShipped()
	type fig struct {
		cond      string
		low, high float64
		conf      Confidence
	}
	want := map[string][]fig{
		"rtx4060ti": {{"new", 380, 420, Low}, {"used", 300, 350, Low}, {"new", 449, 449, Medium}, {"used", 330, 400, Low}},
		"rtx3090":   {{"used", 500, 800, Medium}, {"used", 700, 900, Medium}, {"used", 700, 1000, Medium}, {"used", 600, 750, Medium}},
	}
	for gpu, figs := range want {
		var got []fig
		for _, r := range b.Procurement.Purchases {
			if r.GPU == gpu {
				if r.Currency != USD || r.Kind != "card" {
					t.Errorf("%s row %q: %s %s, want a USD card price", gpu, r.Item, r.Currency, r.Kind)
				}
				got = append(got, fig{r.Condition, r.Low, r.High, r.Confidence})
			}
		}
		if len(got) != len(figs) {
			t.Errorf("%s: %d purchase rows %v, want %v", gpu, len(got), got, figs)
			continue
		}
		for i := range figs {
			if got[i] != figs[i] {
				t.Errorf("%s row %d = %v, want %v", gpu, i, got[i], figs[i])
			}
		}
	}
}
