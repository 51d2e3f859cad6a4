package advisor

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// The engine's benchmarks: one call each over the shipped knowledge, the
// work behind a typical /gpu question. make bench prints them.

func BenchmarkFit(b *testing.B) {
	kb := knowledge.MustShipped()
	w := Workload{ParamsB: 13, Method: LoRA}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Fit(w, kb.GPUs, kb.Archs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCostTraining(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := CostInput{Workload: Workload{ParamsB: 7, Method: LoRA}, GPU: "rtx4090", Samples: 50_000, Epochs: 2, Currency: knowledge.CNY}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Cost(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCostInference(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := CostInput{Workload: Workload{ParamsB: 70, Method: Inference}, Tokens: 1e8, Currency: knowledge.USD}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Cost(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMonthlyBreakEven(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := MonthlyInput{GPU: "rtx4090", HoursPerMonth: 200, Currency: knowledge.CNY}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Monthly(in, m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuy(b *testing.B) {
	m := MarketOf(knowledge.MustShipped())
	in := BuyInput{GPU: "h100-sxm", Currency: knowledge.USD}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Buy(in, m); err != nil {
			b.Fatal(err)
		}
	}
}
