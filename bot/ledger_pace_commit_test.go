package bot_test

import (
	"strings"
	"testing"
)

// TestPaceOfACommitment (review Q56): "committed to $120k/year … spent
// $75k by end of November. On track?" is a pace check of the commitment,
// not a spend report. By hand: 11 of 12 months gone (91.7 %); $75,000 of
// $120,000 used (62.5 %); straight line $75,000 × 12 ÷ 11 = $81,818.18,
// under the $120,000 by $38,181.82 — not on track to use it (under pace).
// At the commitment's pace, $120,000 × 11 ÷ 12 = $110,000 would be spent;
// $120,000 − $75,000 = $45,000 is left for December.
func TestPaceOfACommitment(t *testing.T) {
	b, _ := paceBot(t)
	a := askPace(t, b, "We committed to $120k/year on GPU cloud; we've spent $75k by end of November. Are we on track?")
	if a.Intent != "spend" || !strings.Contains(a.Text, "$81,818.18") || !strings.Contains(a.Text, "$120,000.00") {
		t.Fatalf("commitment pace: intent %s %q", a.Intent, a.Text)
	}
	if a.Slots.Ops != nil {
		t.Errorf("$120k still read as ops: %+v", a.Slots.Ops)
	}
	if head, _, _ := strings.Cut(a.Text, "\n"); !strings.Contains(head, "$81,818.18") {
		t.Errorf("headline %q: the projection first", head)
	}
}
