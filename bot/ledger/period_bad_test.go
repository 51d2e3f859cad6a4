package ledger

import "testing"

// TestBadQuarterIsRefused: a quarter that does not exist is named back, so
// a report never quietly shows this month instead.
func TestBadQuarterIsRefused(t *testing.T) {
	for _, tt := range []struct {
		in  string
		bad bool
	}{
		{"spend report 2026-Q9", true}, {"2026 q0", true}, {"Q12 2026", true},
		{"spend report 2026-Q4", false}, {"q1 2027", false}, {"三季度花了多少", false}, {"spend report 2026-11", false},
	} {
		if _, got := BadQuarter(tt.in); got != tt.bad {
			t.Errorf("BadQuarter(%q) = %v, want %v", tt.in, got, tt.bad)
		}
	}
}
