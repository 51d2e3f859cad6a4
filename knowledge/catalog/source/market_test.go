package source_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

func shippedOffers(t *testing.T) ([]knowledge.Offer, *catalog.Batch) {
	t.Helper()
	b, err := (&source.Shipped{Base: knowledge.MustShipped()}).Fetch(context.Background(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return b.Offers, b
}

// The expected figures below are read by hand from shared/market/offers.csv
// (and history.csv for Oracle), not from the generated file.
func TestShippedMarketOffers(t *testing.T) {
	offers, _ := shippedOffers(t)
	find := func(platform, sku string, model knowledge.PricingModel) (knowledge.Offer, bool) {
		for _, o := range offers {
			if o.Platform == platform && o.SKU == sku && o.Model == model {
				return o, true
			}
		}
		return knowledge.Offer{}, false
	}
	cases := []struct {
		name          string
		platform, sku string
		model         knowledge.PricingModel
		gpu           string
		cards         float64
		price, high   float64 // per instance-hour, as published: lowest and highest region
		perCard       float64
		observed      string
		regions       int
	}{
		// Lambda 8x H100 SXM: 23.92/h in 17 regions, in both the SkyPilot v6
		// capture (2026-03-21) and the undated v7 file: one offer, 17 regions.
		{"lambda 8x h100", "lambda", "gpu_8x_h100_sxm5", knowledge.OnDemand, "h100-sxm", 8, 23.92, 23.92, 2.99, "2026-03-21", 17},
		{"lambda 1x h100 pcie", "lambda", "gpu_1x_h100_pcie", knowledge.OnDemand, "h100-pcie", 1, 2.49, 2.49, 2.49, "2026-03-21", 17},
		// Oracle list prices per GPU-hour, history.csv 2026-03-23.
		{"oracle h200", "oracle", "B110519 (OCI - Compute - GPU - H200)", knowledge.OnDemand, "h200", 1, 10, 10, 10, "2026-03-23", 0},
		{"oracle b200", "oracle", "B110978 (OCI - Compute - GPU - B200)", knowledge.OnDemand, "b200", 1, 14, 14, 14, "2026-03-23", 0},
		// Azure ND96isr H100 v5: 98.32/h for 8 cards (the capture's 12 is
		// corrected) = 12.29 per card in eastus and one more region, 127.816
		// in westus: one offer, a range over 3 regions.
		{"azure nd96isr", "azure", "Standard_ND96isr_H100_v5", knowledge.OnDemand, "h100-sxm", 8, 98.32, 127.816, 12.29, "2026-03-21", 3},
	}
	for _, tc := range cases {
		o, ok := find(tc.platform, tc.sku, tc.model)
		if !ok {
			t.Errorf("%s: no offer %s %s", tc.name, tc.platform, tc.sku)
			continue
		}
		lo, _, _ := o.CardHourly()
		if o.GPU != tc.gpu || o.Cards() != tc.cards || o.PriceLow != tc.price || o.PriceHigh != tc.high || math.Abs(lo-tc.perCard) > 1e-9 ||
			o.ObservedAt != tc.observed || o.Regions != tc.regions {
			t.Errorf("%s: gpu %s cards %v price %v per card %v observed %s regions %d; want %s %v %v %v %s %d",
				tc.name, o.GPU, o.Cards(), o.PriceLow, lo, o.ObservedAt, o.Regions, tc.gpu, tc.cards, tc.price, tc.perCard, tc.observed, tc.regions)
		}
		if !strings.Contains(o.Source, "public market snapshot") {
			t.Errorf("%s: source %q", tc.name, o.Source)
		}
	}
}

func TestShippedOffersAreDatedSourcedAndCollapsed(t *testing.T) {
	offers, b := shippedOffers(t)
	kb := knowledge.MustShipped()
	type ident struct {
		platform, gpu, model, term string
		cards, low, high           float64
	}
	seen := map[ident]string{}
	priced := map[string]int{}
	for _, o := range offers {
		if err := catalog.DefaultLimits().Check(o, kb); err != nil {
			t.Errorf("shipped offer fails validation: %v", err)
		}
		if o.Source == "" || o.ObservedAt == "" {
			t.Errorf("%s: source %q observed %q", o.Key, o.Source, o.ObservedAt)
		}
		id := ident{o.Platform, o.GPU, string(o.Model), o.Term, o.Cards(), o.PriceLow, o.PriceHigh}
		if k, dup := seen[id]; dup && o.SourceKind != "manual" {
			t.Errorf("%s and %s are the same listing and should be one offer", k, o.Key)
		}
		seen[id] = o.Key
		if o.Model == knowledge.OnDemand {
			priced[o.GPU]++
		}
		if strings.Contains(o.SKU, "NVadsA10v5") {
			t.Errorf("%s: a fractional A10 slice is not a card", o.Key)
		}
	}
	for _, g := range []string{"h100-sxm", "h200", "b200", "a100-80g", "rtx4090", "rtx5090", "l40s"} {
		if priced[g] == 0 {
			t.Errorf("%s has no on-demand price", g)
		}
	}
	// Seed CNY prices ride along; the seeds' USD figures do not.
	var cny, seedUSD int
	for _, o := range offers {
		if o.Currency == knowledge.CNY && o.SourceKind == "manual" {
			cny++
		}
		if o.Key == "vastai-h100-sxm-on-demand" {
			seedUSD++
		}
	}
	if cny == 0 || seedUSD != 0 {
		t.Errorf("seed CNY offers %d (want > 0), seed USD offers %d (want 0)", cny, seedUSD)
	}
	// Cards the knowledge base does not know are counted, never guessed.
	if b.Unknown["T4"] == 0 && !known(kb, "t4") {
		t.Errorf("unknown cards = %v, want T4 counted", b.Unknown)
	}
	if g, ok := kb.GPU("a10"); ok && g.ID == "a10g" && b.Unknown["A10"] == 0 {
		t.Errorf("an A10 must not be priced as an A10G: unknown = %v", b.Unknown)
	}
	for _, o := range offers {
		if o.GPU == "a10g" && strings.Contains(o.SKU, "A10 ") {
			t.Errorf("%s: an A10 listing priced as an A10G", o.Key)
		}
	}
}

func known(kb *knowledge.Base, name string) bool { _, ok := kb.GPU(name); return ok }

func TestUndatedRowsAreNeverFresh(t *testing.T) {
	offers, _ := shippedOffers(t)
	now := time.Date(2026, 3, 21, 3, 0, 0, 0, time.UTC) // three hours into the snapshot's earliest day
	var n int
	for _, o := range offers {
		if o.DateBasis != "undated" {
			continue
		}
		n++
		if got := o.FreshnessLabel("en", now); got != "dated: 2026-03-21" {
			t.Fatalf("%s: undated row labelled %q", o.Key, got)
		}
	}
	if n == 0 {
		t.Fatal("no undated (SkyPilot v7) rows")
	}
}

// The snapshot has 59 providers (shared/market/summary.md); each is listed,
// with the rows the bot cannot price yet counted by card.
func TestMarketProvidersListsEveryProvider(t *testing.T) {
	ps, err := source.MarketProviders(knowledge.MustShipped())
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 59 {
		t.Errorf("%d providers, want 59", len(ps))
	}
	rows := 0
	for _, p := range ps {
		rows += p.Rows
		if p.Newest == "" {
			t.Errorf("%s has no date", p.Platform)
		}
	}
	if rows != 4413-41-5-16 {
		t.Errorf("%d rows", rows)
	}
}
