package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

func hourly(key, platform, gpu string, low, high float64) knowledge.Offer {
	return knowledge.Offer{Key: key, Platform: platform, GPU: gpu, GPUCount: 1, PriceLow: low, PriceHigh: high, Currency: knowledge.CNY,
		Unit: knowledge.PerHour, Basis: knowledge.PerGPU, Model: knowledge.OnDemand, ObservedAt: "2026-09-01", Source: "test"}
}

// Market ranges the advisor keeps out of a ranking (rankings[].aside) are
// one line in the working, and in the short answer when nothing to rent
// was ranked.
func TestRecommendShowsTheMarketRangeSetAside(t *testing.T) {
	const line = "市场区间，不是可租的报价：RTX 4090 ¥1.2–2.5/卡时"
	rangeOnly := hourly("cn-market/rtx4090", "cn-market", "rtx4090", 1.2, 2.5)
	tests := []struct {
		name    string
		offers  []knowledge.Offer
		inShort bool
	}{
		{"beside a ranked offer: in the working only", []knowledge.Offer{rangeOnly, hourly("autodl/rtx4090", "autodl", "rtx4090", 1.8, 1.8)}, false},
		{"nothing ranked: in the short answer too", []knowledge.Offer{rangeOnly}, true},
	}
	for _, tt := range tests {
		b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
		b.UsePrices(shippedPrices(tt.offers))
		a := b.Answer(context.Background(), Message{Text: "7b lora 用什么卡性价比高"})
		if a.Intent != "recommend" {
			t.Fatalf("%s: routed to %s", tt.name, a.Intent)
		}
		var inWorking bool
		for _, s := range a.Working {
			inWorking = inWorking || strings.Contains(s.Label, line)
		}
		if !inWorking {
			t.Errorf("%s: working lacks %q: %+v", tt.name, line, a.Working)
		}
		if got := strings.Contains(a.Text, line); got != tt.inShort {
			t.Errorf("%s: short answer shows the range %v, want %v:\n%s", tt.name, got, tt.inShort, a.Text)
		}
		if strings.Contains(a.Text, "• RTX 4090 @ 中国市场") || strings.Contains(a.Text, "cn-market") {
			t.Errorf("%s: the range is ranked as a place to rent:\n%s", tt.name, a.Text)
		}
		if n := len([]rune(a.Text)); n > 1200 {
			t.Errorf("%s: %d characters", tt.name, n)
		}
	}
}
