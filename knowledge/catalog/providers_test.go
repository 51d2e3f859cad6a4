package catalog_test

import (
	"testing"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

// Every provider of the shipped snapshot is listed with its offer count and
// dates; the hand-checked rows come from shared/market/offers.csv.
func TestProvidersOfTheShippedSnapshot(t *testing.T) {
	offers, err := source.ShippedOffers(knowledge.MustShipped())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	ps := catalog.Providers(offers, now, nil)
	by := map[string]catalog.ProviderSummary{}
	total := 0
	for _, p := range ps {
		by[p.Platform] = p
		total += p.Offers
		if p.Newest == "" || p.Freshness != knowledge.Dated {
			t.Errorf("%s: newest %q freshness %s", p.Platform, p.Newest, p.Freshness)
		}
	}
	if total != len(offers) {
		t.Errorf("providers cover %d offers of %d", total, len(offers))
	}
	// Oracle: 11 GPU SKUs on 2026-03-23, of which the knowledge base knows
	// H200 and B200 at least.
	if o := by["oracle"]; o.Newest != "2026-03-23" || o.Offers < 2 {
		t.Errorf("oracle = %+v", o)
	}
	// TensorDock rows are dated 2026-03-23 as well.
	if o := by["tensordock"]; o.Newest != "2026-03-23" {
		t.Errorf("tensordock = %+v", o)
	}
	// AutoDL's newest price is the procurement dataset's market-API scrape
	// of 2026-10-04 (the seeds' is 2026-09-01).
	if o := by["autodl"]; o.Newest != "2026-10-04" {
		t.Errorf("autodl = %+v", o)
	}
	if len(ps) < 40 {
		t.Errorf("%d providers; the snapshot has 59 (fewer where every card is unknown)", len(ps))
	}
}
