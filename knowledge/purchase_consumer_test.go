package knowledge_test

import (
	"testing"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

// The market purchase price the buy engine takes from the shipped rows,
// per card in USD, with new and used kept apart and a low-confidence row
// used only when no better one prices the card in that condition.
func TestConsumerCardPurchaseQuotes(t *testing.T) {
	rows := knowledge.MustShipped().Procurement.Purchases
	for _, c := range []struct {
		name, gpu, cond string
		low, high       float64
		rows            int
	}{
		// RunLocalAI ~$449 street (row 122, medium) alone: CraftRigs'
		// $380–420 (row 120, low) does not widen it.
		{"new RTX 4060 Ti 16GB", "rtx4060ti", "new", 449, 449, 1},
		// Both used rows are low, so both count: $300 (CraftRigs) to $400
		// (convly); middle (300 + 400) / 2 = 350.
		{"used RTX 4060 Ti 16GB", "rtx4060ti", "used", 300, 400, 2},
		// Rows 110–113, medium, all within 12 months of 2026-05-16:
		// $500 (lowest low) to $1000 (highest high); middle 750.
		{"used RTX 3090", "rtx3090", "used", 500, 1000, 4},
		// Rows 97 ($2200–2800, 2026-02) and 98 ($1700, 2026): the 2022
		// launch $1599 and the 2023 CNY rows are over 12 months older, the
		// $1417.20 listing (row 99) is low: $1700–2800, middle 2250.
		{"new RTX 4090", "rtx4090", "new", 1700, 2800, 2},
	} {
		q, ok := advisor.MarketPurchase(rows, c.gpu, c.cond, false, knowledge.USD, 0)
		if !ok {
			t.Errorf("%s: no market price", c.name)
			continue
		}
		if q.Low != c.low || q.High != c.high || q.Price != (c.low+c.high)/2 || len(q.Rows) != c.rows || q.Condition != c.cond {
			t.Errorf("%s = $%v–%v (middle %v, %d rows, %s), want $%v–%v (%d rows)", c.name, q.Low, q.High, q.Price, len(q.Rows), q.Condition, c.low, c.high, c.rows)
		}
	}
	// No sourced row prices a new RTX 3090: the engine must say so, not
	// borrow a used figure.
	if q, ok := advisor.MarketPurchase(rows, "rtx3090", "new", false, knowledge.USD, 0); ok {
		t.Errorf("new RTX 3090 = $%v–%v from %v, want no price", q.Low, q.High, q.Rows)
	}
}

// In the shipped catalogue (market snapshot + seeds + sourced rows) a
// low-confidence offer never shares a platform and card with a better
// one: 阿里云's A10 ¥15 (cn_cloud_prices.csv row 96, low) is there, with no
// other Alibaba A10 figure; AutoDL's RTX 5090 ¥2.78 (row 46, low) is not
// (it is a sourced row, Procurement.Rows).
func TestShippedCatalogueLowOffersFillGapsOnly(t *testing.T) {
	offers, err := source.ShippedOffers(knowledge.MustShipped())
	if err != nil {
		t.Fatal(err)
	}
	better := map[string]string{}
	for _, o := range offers {
		if o.Confidence != knowledge.Low {
			better[o.Platform+"/"+o.GPU] = o.Key
		}
	}
	found := false
	for _, o := range offers {
		if o.Platform == "autodl" && o.GPU == "rtx5090" {
			t.Errorf("AutoDL RTX 5090 offer %s: want the low row kept out of the catalogue", o.Key)
		}
		if o.Confidence != knowledge.Low {
			continue
		}
		if k, ok := better[o.Platform+"/"+o.GPU]; ok {
			t.Errorf("low offer %s stands beside %s", o.Key, k)
		}
		if o.Platform == "aliyun" && o.GPU == "a10-pcie" && o.PriceLow == 15 && o.Currency == knowledge.CNY && o.ObservedAt == "2026-01-01" {
			found = true
		}
	}
	if !found {
		t.Error("shipped catalogue has no 阿里云 A10 ¥15 (row 96, low) offer")
	}
}
