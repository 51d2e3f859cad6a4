package knowledge

import (
	"math"
	"testing"
)

func TestShippedLoadsAndResolvesAliases(t *testing.T) {
	kb, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]string{
		"4090": "rtx4090", "RTX4090": "rtx4090", "RTX 4090": "rtx4090", "4090D": "rtx4090d", "4090 d": "rtx4090d",
		"A100 80G": "a100-80g", "a100": "a100-80g", "A100 40GB": "a100-40g", "H800": "h800", "h100": "h100-sxm",
		"H100 PCIe": "h100-pcie", "昇腾910B": "ascend-910b", "910B": "ascend-910b", "ｈ２０": "h20", "L40S": "l40s",
		"2080Ti": "rtx2080ti", "3080 Ti": "rtx3080ti", "P40": "p40", "A10G": "a10g", "B200": "b200", "H200": "h200",
	}
	for alias, want := range tests {
		g, ok := kb.GPU(alias)
		if !ok || g.ID != want {
			t.Errorf("GPU(%q) = %q, %v; want %q", alias, g.ID, ok, want)
		}
	}
	if _, ok := kb.GPU("banana"); ok {
		t.Error(`GPU("banana") resolved`)
	}
}

func TestEveryCardTheSeedsMentionIsShippedWithSources(t *testing.T) {
	kb := MustShipped()
	want := []string{"rtx2080ti", "rtx3080ti", "rtx3090", "rtx4090", "rtx4090d", "rtx5090", "p40", "l4", "a10g",
		"a100-40g", "a100-80g", "a800", "h100-sxm", "h100-pcie", "h800", "h20", "ascend-910b", "l40s", "h200", "b200"}
	for _, id := range want {
		g, ok := kb.GPU(id)
		if !ok {
			t.Errorf("card %s missing", id)
			continue
		}
		if g.VRAMGB <= 0 || g.BandwidthGBs <= 0 || g.PeakTFLOPS() <= 0 || g.TDPWatts <= 0 || len(g.Sources) == 0 || g.Tier == "" {
			t.Errorf("card %s lacks a figure or a source: %+v", id, g)
		}
	}
}

func TestH800UsesSourcedNVLinkAndNotesTheSeed(t *testing.T) {
	g, _ := MustShipped().GPU("h800")
	if g.NVLinkGBs != 400 {
		t.Errorf("H800 NVLink = %v GB/s, want the sourced 400", g.NVLinkGBs)
	}
	if g.SeedDisagrees == "" {
		t.Error("H800 should say the seeds give 600 GB/s")
	}
}

func TestShippedOffersAreDatedAndValid(t *testing.T) {
	kb := MustShipped()
	if len(kb.Offers) < 20 || len(kb.Platforms) < 10 || len(kb.Guide) < 30 {
		t.Fatalf("shipped data too thin: %d offers, %d platforms, %d guide items", len(kb.Offers), len(kb.Platforms), len(kb.Guide))
	}
	for _, o := range kb.Offers {
		if err := o.Validate(); err != nil {
			t.Error(err)
		}
		if o.Source == "" {
			t.Errorf("offer %s has no source", o.Key)
		}
	}
}

func TestCardHourlyNormalisesUnitsAndBasis(t *testing.T) {
	tests := []struct {
		name string
		o    Offer
		want float64
	}{
		{"hourly per card", Offer{PriceLow: 1.8, PriceHigh: 1.8, Unit: PerHour, Basis: PerGPU}, 1.8},
		// An 8-card machine at 63,000 a month: 63000 ÷ (730 h × 8 cards).
		{"machine-month", Offer{PriceLow: 63000, PriceHigh: 63000, Unit: PerMonth, Basis: PerInstance, GPUCount: 8}, 63000.0 / (730 * 8)},
		{"card-month", Offer{PriceLow: 21000, PriceHigh: 21000, Unit: PerMonth, Basis: PerGPU}, 21000.0 / 730},
		{"day", Offer{PriceLow: 48, PriceHigh: 48, Unit: PerDay, Basis: PerGPU}, 2},
	}
	for _, tt := range tests {
		lo, _, ok := tt.o.CardHourly()
		if !ok || math.Abs(lo-tt.want) > 1e-9 {
			t.Errorf("%s: CardHourly = %v, %v; want %v", tt.name, lo, ok, tt.want)
		}
	}
	if _, _, ok := (Offer{Unit: PerMillionToken}).CardHourly(); ok {
		t.Error("per-token price converted to hourly")
	}
}

func TestValidateRejectsBadOffers(t *testing.T) {
	good := Offer{Key: "k", Platform: "p", GPU: "g", PriceLow: 1, PriceHigh: 2, Currency: USD, Unit: PerHour, Basis: PerGPU, ObservedAt: "2026-09-01"}
	if err := good.Validate(); err != nil {
		t.Fatalf("good offer rejected: %v", err)
	}
	bad := map[string]func(o *Offer){
		"zero price":       func(o *Offer) { o.PriceLow = 0 },
		"negative":         func(o *Offer) { o.PriceHigh = -1 },
		"inverted range":   func(o *Offer) { o.PriceLow = 3 },
		"unknown currency": func(o *Offer) { o.Currency = "EUR" },
		"unknown unit":     func(o *Offer) { o.Unit = "fortnight" },
		"no date":          func(o *Offer) { o.ObservedAt = "soon" },
		"no key":           func(o *Offer) { o.Key = "" },
		"bad basis":        func(o *Offer) { o.Basis = "" },
	}
	for name, mut := range bad {
		o := good
		mut(&o)
		if err := o.Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", name, o)
		}
	}
}

func TestNormalizeName(t *testing.T) {
	for in, want := range map[string]string{"RTX 4090": "rtx4090", "A100-80G": "a10080g", "ＲＴＸ４０９０": "rtx4090", "h100_sxm": "h100sxm"} {
		if got := NormalizeName(in); got != want {
			t.Errorf("NormalizeName(%q) = %q, want %q", in, got, want)
		}
	}
}
