package advisor

import (
	"math"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// "70b 推理 每天1000万token 用H100 一个月多少钱": 10M tokens a day (prompt +
// answer) of 1,000-in / 500-out requests on H100 at ¥20/card-hour, with the
// same platform's monthly plan at ¥9,000/card-month, by hand from the
// replica's own throughput.
func TestServingPlanTenMillionTokensADayOnH100(t *testing.T) {
	m := testMarket(t,
		hourly("od", "autodl", "h100-sxm", 20, 20, knowledge.CNY, knowledge.OnDemand),
		hourly("spot", "autodl", "h100-sxm", 8, 8, knowledge.CNY, knowledge.Spot),
		knowledge.Offer{Key: "mo", Platform: "autodl", GPU: "h100-sxm", GPUCount: 1, PriceLow: 9000, PriceHigh: 9000, Currency: knowledge.CNY,
			Unit: knowledge.PerMonth, Basis: knowledge.PerGPU, Model: knowledge.Package, ObservedAt: "2026-09-01", Source: "test"})
	res, err := Cost(CostInput{Workload: Workload{ParamsB: 70, Method: Inference}, GPU: "h100", TokensPerDay: 1e7, Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	// Priced on demand: spot is never chosen for serving unless asked.
	if res.Hourly != 20 || res.Interruptible {
		t.Errorf("hourly = %v (interruptible %v), want ¥20 on demand", res.Hourly, res.Interruptible)
	}
	// The light load is served on the fewest cards: 70B in BF16 needs two
	// 80 GB cards ((141.1 GB + activations) ÷ 2 × 1.05 + 0.8 ≤ 80).
	if res.GPUs != 2 {
		t.Errorf("cards per replica = %d, want 2", res.GPUs)
	}
	// 1e7 ÷ 1,500 tokens per request = 6,666.7 requests a day = 0.07716/s;
	// peak × 3 = 0.2315/s. One replica sustains tokens/s ÷ 500.
	avg := 1e7 / 1500 / 86400
	perReplica := res.TokensPerS / 500
	replicas := int(math.Max(1, math.Ceil(3*avg/perReplica)))
	if res.Replicas != replicas || replicas != 1 {
		t.Errorf("replicas = %d, want %d (hand: 1)", res.Replicas, replicas)
	}
	util := avg / (float64(replicas) * perReplica)
	if !near(res.Utilization, util, 1e-4) {
		t.Errorf("utilization = %v, want %.4f", res.Utilization, util)
	}
	// Always on: replicas × cards × ¥20 × 730 h.
	if want := float64(replicas*res.GPUs) * 20 * 730; !near(res.MonthlyTotal, want, 0.01) {
		t.Errorf("monthly_total = %v, want %.2f", res.MonthlyTotal, want)
	}
	if want := float64(replicas*res.GPUs) * 9000; res.Plan == nil || !near(res.Plan.MonthlyPlan, want, 0.01) {
		t.Errorf("monthly plan = %+v, want ¥%.0f on the same platform", res.Plan, want)
	}
	// $/M at the load: the replica's hourly cost over the tokens it serves.
	if want := float64(res.GPUs) * 20 / (res.TokensPerS * util * 3600) * 1e6; !near(res.Plan.PerMTokens, want, 0.01*want) {
		t.Errorf("per M tokens at load = %v, want %.2f", res.Plan.PerMTokens, want)
	}
	if !hasDefault(res.Inputs.Defaulted, "peak_factor") {
		t.Errorf("peak factor not reported as defaulted: %v", res.Inputs.Defaulted)
	}
}

// A heavy load needs several replicas: 2 requests/s average at peak 3 on
// one 8B replica.
func TestServingPlanScalesReplicas(t *testing.T) {
	m := testMarket(t, hourly("od", "vastai", "rtx4090", 0.4, 0.4, knowledge.USD, knowledge.OnDemand))
	res, err := Cost(CostInput{Workload: Workload{Model: "llama-3.1-8b"}, GPU: "4090", RequestsPerS: 20, InputTokens: 2000, OutputTokens: 1000, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	perReplica := res.TokensPerS / 1000
	want := int(math.Ceil(60 / perReplica))
	if res.Replicas != want || want < 2 {
		t.Errorf("replicas = %d, want %d (> 1)", res.Replicas, want)
	}
	if u := 20 / (float64(want) * perReplica); !near(res.Utilization, u, 1e-4) || u > 1.0/3+1e-9 {
		t.Errorf("utilization = %v, want %.4f (≤ 1/3 at peak factor 3)", res.Utilization, u)
	}
}
