package parse

import (
	"testing"
	"time"
)

// TestSpendIDIsNoModelSize: entry ids are random letters and digits; one
// that starts like a model size ("98074bq2") is still the id, not a
// 98,074B model refused as out of range.
func TestSpendIDIsNoModelSize(t *testing.T) {
	p := newParser(t)
	for _, id := range []string{"98074bq2", "7b2k9q", "70bx1z"} {
		r := p.ParseAt("/gpu spend delete "+id, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
		if len(r.Problems) > 0 || r.Slots.ID != id || r.Slots.ParamsB != 0 {
			t.Errorf("delete %s: problems %+v, id %q, params %v", id, r.Problems, r.Slots.ID, r.Slots.ParamsB)
		}
	}
}
