package catalog_test

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// Append then Seal must leave what Add leaves: for each key the cheapest
// offer (the first of equal prices) in the place of the key's first
// offer, one SkipDuplicate per dropped offer, other offers in order.
func TestAppendSealDedupesLikeAdd(t *testing.T) {
	in := []struct {
		key   string
		price float64
		sku   string
	}{
		{"a", 3, "a1"}, {"b", 5, "b1"}, {"a", 2, "a2"}, {"c", 1, "c1"}, {"a", 2, "a3"}, {"b", 6, "b2"}, {"d", 4, "d1"}, {"a", 1.5, "a4"},
	}
	// Worked by hand: a keeps a4 (1.5) in a's first place, b keeps b1 (5),
	// c and d are single; 4 duplicates dropped.
	want := []string{"a/a4", "b/b1", "c/c1", "d/d1"}
	for _, mode := range []string{"add", "append"} {
		var b catalog.Batch
		for _, x := range in {
			o := knowledge.Offer{Key: x.key, SKU: x.sku, PriceLow: x.price, PriceHigh: x.price}
			if mode == "add" {
				b.Add(o)
			} else {
				b.Append(&o)
			}
		}
		b.Seal()
		var got []string
		for _, o := range b.All() {
			got = append(got, o.Key+"/"+o.SKU)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: got %v, want %v", mode, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: got %v, want %v", mode, got, want)
			}
		}
		if n := b.Skipped[catalog.SkipDuplicate]; n != 4 {
			t.Errorf("%s: %d duplicates counted, want 4", mode, n)
		}
		// Add after Seal still finds the keys already there.
		b.Add(knowledge.Offer{Key: "c", SKU: "c2", PriceLow: 0.5, PriceHigh: 0.5})
		if len(b.Offers) != 4 || b.Offers[2].SKU != "c2" {
			t.Errorf("%s: Add after Seal: %v", mode, b.Offers)
		}
	}
}
