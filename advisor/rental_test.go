package advisor

import "testing"

// By hand: 2 cards × 36 h = 72 card-hours; at ¥1.24 a card-hour, ¥89.28.
// 4 × A100 for 3 days = 4 × 72 = 288 card-hours; at $1.79, $515.52.
func TestRentalTotal(t *testing.T) {
	for _, c := range []struct {
		price        float64
		cards        int
		hours, ch, t float64
	}{
		{1.24, 2, 36, 72, 89.28},
		{1.79, 4, 72, 288, 515.52},
		{2.0, 0, 10, 10, 20}, // no count: one card
	} {
		r := RentalTotal(c.price, c.cards, c.hours)
		if r.CardHours != c.ch || r.Total != c.t {
			t.Errorf("RentalTotal(%v, %d, %v) = %v card-h, %v; want %v, %v", c.price, c.cards, c.hours, r.CardHours, r.Total, c.ch, c.t)
		}
	}
}

// TestRentalFor: ¥8,000 at ¥2.2 a card-hour rents 8000 ÷ 2.2 = 3,636.36
// card-hours; on 2 cards that is 1,818.18 hours.
func TestRentalFor(t *testing.T) {
	r := RentalFor(8000, 2.2, 2)
	if !near(r.CardHours, 3636.36, 0.005) || !near(r.Hours, 1818.18, 0.005) || r.Total != 8000 {
		t.Errorf("RentalFor(8000, 2.2, 2) = %v card-h, %v h, total %v; want 3636.36, 1818.18, 8000", r.CardHours, r.Hours, r.Total)
	}
	if r := RentalFor(8000, 0, 1); r.Hours != 0 || r.CardHours != 0 {
		t.Errorf("a zero price rented %v h", r.Hours)
	}
}

// Hand-valued: ¥50,000 a month ÷ (¥7.5 × 730 h = ¥5,475 a card-month) =
// 9.13 → 9 cards, ¥725 left; $500k a year ÷ 12 = $41,666.67 a month ÷
// ($6.16 × 730 = $4,496.80) = 9.27 → 9 cards; 500,000 ÷ 6.16 = 81,168.8
// card-hours.
func TestCardsFor(t *testing.T) {
	a := CardsFor(50000, 7.5, 730, 1)
	if a.Cards != 9 || a.PerCardMonth != 5475 || a.Left != 725 {
		t.Errorf("monthly: %+v", a)
	}
	b := CardsFor(500000, 6.16, 730, 12)
	if b.Cards != 9 || b.BudgetMonthly != 41666.67 || b.PerCardMonth != 4496.8 || b.CardHours != 81168.8 {
		t.Errorf("yearly: %+v", b)
	}
	if z := CardsFor(1000, 0, 730, 1); z.Cards != 0 || z.Lines != nil {
		t.Errorf("no rate: %+v", z)
	}
}
