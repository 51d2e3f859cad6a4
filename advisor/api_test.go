package advisor

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// 1e8 tokens/day of Qwen2.5-72B, 1000 in : 500 out per request, ¥7.2/$.
// Cheapest shipped hosts: OpenRouter and DeepInfra at $0.12 in / $0.39 out
// per M = ¥0.864 / ¥2.808; blended (1000 × 0.864 + 500 × 2.808) ÷ 1500 =
// ¥1.512/M; monthly 1e8 × 30.4167 ÷ 1e6 × 1.512 = ¥4,599.00. A plan of 3
// replicas at ¥4,438.40 a month each (¥13,315.20) loses: one replica
// carries 0.988 req/s × 1500 × 86400 ÷ 3 = 42,681,600 tokens/day, while
// the API matches one replica's bill only at 4438.4 ÷ (30.4167e-6 ×
// 1.512) = 96.5M tokens/day — no break-even. A replica at ¥1,000 a month
// breaks even at 1000 ÷ 4.599e-5 = 21,743,857 tokens/day.
func TestCompareAPIByHand(t *testing.T) {
	prices := knowledge.MustShipped().Procurement.APIs
	plan := &ServingPlan{Replicas: 3, MonthlyOnDemand: 13315.2, ReplicaRequestsPerS: 0.988, PeakFactor: 3}
	in := APIInput{Model: "qwen2.5-72b", TokensPerDay: 1e8, InputTokens: 1000, OutputTokens: 500, Currency: knowledge.CNY, FX: 7.2, SelfHost: plan, Prices: prices}
	r, err := CompareAPI(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Quotes) != 4 || r.Quotes[0].Blended != 1.512 || !near(r.Quotes[0].Monthly, 4599.0, 0.01) || r.Cheaper != "api" || !r.NoBreakeven {
		t.Errorf("qwen2.5-72b: %d quotes, best %+v, cheaper %s, no break-even %v", len(r.Quotes), r.Quotes[0], r.Cheaper, r.NoBreakeven)
	}
	in.SelfHost = &ServingPlan{Replicas: 1, MonthlyOnDemand: 1000, ReplicaRequestsPerS: 0.988, PeakFactor: 3}
	if r, _ = CompareAPI(in); r.NoBreakeven || !near(r.BreakevenTokensPerDay, 21743857, 2) || r.Cheaper != "self_host" {
		t.Errorf("cheap replica: break-even %v (none %v), cheaper %s; want ≈21,743,857 and self_host", r.BreakevenTokensPerDay, r.NoBreakeven, r.Cheaper)
	}
	if _, err := CompareAPI(APIInput{Model: "qwen3-8b", TokensPerDay: 1e6, SelfHost: plan, Prices: prices}); err == nil {
		t.Error("no shipped API price for qwen3-8b: want an error")
	}
}
