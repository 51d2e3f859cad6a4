package knowledge

import (
	"testing"
	"time"
)

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

func TestFreshness(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		observed string
		want     string
	}{
		{"2026-12-01T06:00:00Z", "live"},              // exactly 6 h
		{"2026-12-01T05:59:00Z", "recent"},            // just over 6 h
		{"2026-12-01", "recent"},                      // a bare date counts from midnight: 12 h
		{"2026-11-28T12:00:00Z", "recent"},            // exactly 3 days
		{"2026-11-28T11:00:00Z", "dated: 2026-11-28"}, // over 3 days
		{"2026-03-21", "dated: 2026-03-21"},
		{"2026-12-03", "dated: 2026-12-03"}, // from the future: not trusted as fresh
		{"yesterday", "dated: yesterday"},
	}
	for _, tc := range cases {
		o := Offer{Key: "k", ObservedAt: tc.observed}
		if got := o.FreshnessLabel("en", now); got != tc.want {
			t.Errorf("observed %s at %s: %q, want %q", tc.observed, now.Format(time.RFC3339), got, tc.want)
		}
	}
	undated := Offer{Key: "k", ObservedAt: "2026-12-01T11:00:00Z", DateBasis: "undated"}
	if got := undated.FreshnessLabel("zh", now); got != "旧数据：2026-12-01" {
		t.Errorf("undated offer: %q", got)
	}
}
