package knowledge

import "testing"

func TestTermHours(t *testing.T) {
	tests := []struct {
		term string
		want float64
		ok   bool
	}{
		{"P1Y", 8760, true}, {"P3Y", 26280, true}, {"P1M", HoursPerMonth, true}, {"P2W", 336, true},
		{"P30D", 720, true}, {"", 0, false}, {"1Y", 0, false}, {"P0Y", 0, false}, {"PY", 0, false}, {"P1H", 0, false},
	}
	for _, tt := range tests {
		got, ok := TermHours(tt.term)
		if got != tt.want || ok != tt.ok {
			t.Errorf("TermHours(%q) = %v, %v; want %v, %v", tt.term, got, ok, tt.want, tt.ok)
		}
	}
}

func TestTermTotalIsNeverHourly(t *testing.T) {
	// An Azure 1-year reservation row: 17520 USD for the term, 8 cards.
	o := Offer{Key: "r", Platform: "azure", GPU: "a100-80g", GPUCount: 8, PriceLow: 17520, PriceHigh: 17520,
		Currency: USD, Unit: PerTerm, Term: "P1Y", Basis: PerInstance, Model: Reserved, ObservedAt: "2026-09-01"}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	low, _, ok := o.CardHourly()
	if !ok || low != 0.25 {
		t.Errorf("CardHourly = %v, %v; want 0.25 (17520 / 8760 h / 8 cards)", low, ok)
	}
	o.Term = ""
	if err := o.Validate(); err == nil {
		t.Error("term_total without a term validated")
	}
}
