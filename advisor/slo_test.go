package advisor

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// TestSLOFindsTheLargestBatchMeetingTheTarget checks the search against a
// brute force over every batch: the batch per replica is the largest whose
// decode speed per sequence still meets the per-user target, and the fleet
// is ⌈users ÷ batch⌉ replicas.
func TestSLOFindsTheLargestBatchMeetingTheTarget(t *testing.T) {
	kb := knowledge.MustShipped()
	m := MarketOf(kb)
	in := SLOInput{Cost: CostInput{Workload: Workload{ParamsB: 8, Method: Inference, Model: "llama-3.1-8b"}, GPU: "l4", GPUs: 2,
		Price: Money{Amount: 1, Currency: knowledge.USD}, Currency: knowledge.USD, FX: 7.2}, Concurrency: 300, TPSPerUser: 20}
	r, err := SLO(in, m)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := m.card("l4", "")
	w, _ := ResolveModel(Workload{ParamsB: 8, Method: Inference, Model: "llama-3.1-8b"}, m.Archs)
	best := 0
	for b := 1; b <= DefaultMaxSeqs; b++ {
		s, err := Serve(ServeInput{Workload: w, GPU: g, Cards: 2, Concurrency: b}, m.Archs)
		if err != nil {
			t.Fatal(err)
		}
		if b <= s.ConcurrencyLimit && s.PerSequenceTPS >= 20 {
			best = b
		}
	}
	if r.PerReplica != best {
		t.Errorf("batch per replica %d, brute force %d", r.PerReplica, best)
	}
	if best > 0 {
		want := (300 + best - 1) / best
		if r.Replicas != want || r.Cards != want*2 {
			t.Errorf("replicas %d cards %d, want ⌈300 ÷ %d⌉ = %d replicas, %d cards", r.Replicas, r.Cards, best, want, want*2)
		}
		// $1 a card-hour × cards × 730 h
		if got, want := r.MonthlyTotal, float64(r.Cards)*730; got < want-0.01 || got > want+0.01 {
			t.Errorf("monthly %v, want %v", got, want)
		}
	}
}
