package catalog_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// A key listed twice: the previous catalogue's last copy stands for it,
// the current catalogue's first copy counts and later ones are ignored.
// Worked by hand: a was 1.00 then 1.50 (the 1.50 stands); now 2.00 first,
// then 1.00 (ignored): a moved 1.50 → 2.00, +33.33 %. b is unchanged and
// listed in the same place, c left, d is new.
func TestDiffKeyListedTwice(t *testing.T) {
	prev := []knowledge.Offer{offer("a", "h100", 1.0), offer("b", "h100", 2.0), offer("a", "h100", 1.5), offer("c", "h100", 3.0)}
	cur := []knowledge.Offer{offer("a", "h100", 2.0), offer("b", "h100", 2.0), offer("a", "h100", 1.0), offer("d", "h100", 4.0)}
	d := catalog.Diff(prev, cur, catalog.DefaultThresholds())
	want := []brief{
		{Kind: catalog.KindPriceUp, Key: "a", Measure: "price", Old: 1.5, New: 2.0, Pct: 33.33},
		{Kind: catalog.KindNew, Key: "d", Measure: "price", New: 4.0},
		{Kind: catalog.KindDisappeared, Key: "c", Measure: "price", Old: 3.0},
	}
	if diff := cmp.Diff(want, briefs(d)); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if d.Compared != 2 {
		t.Errorf("compared %d keys, want 2 (a and b)", d.Compared)
	}
}
