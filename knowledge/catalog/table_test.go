package catalog_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// Every field an offer carries comes back out of a Table as it went in:
// a plain hosted row (hex raw hash, high = low), a marketplace bucket
// (range, median, listings, provider data) and a row whose raw hash is
// not a hex number, or empty.
func TestTableKeepsEveryField(t *testing.T) {
	plain := offer("gpuhunt-aws/h100/p5.48xlarge/us-east-1/on_demand", "h100", 98.32)
	plain.Basis, plain.GPUCount, plain.SKU, plain.Region, plain.RawHash = knowledge.PerInstance, 8, "p5.48xlarge", "us-east-1", "9f3a0c11d2e4b5a6"
	plain.VCPUs, plain.RAMGiB, plain.GPUMemoryGiB, plain.ObservedAt = 192, 2048, 80, "2026-10-08T01:30:00Z"
	bucket := offer("vastai/rtx4090/1x/bucket", "rtx4090", 0.29)
	bucket.PriceHigh, bucket.Median, bucket.Listings, bucket.Reliability = 0.61, 0.35, 42, 0.98
	bucket.ProviderData, bucket.AvailableGPUCounts, bucket.AvailableCount = map[string]string{"min_bid": "0.2"}, []int{1, 2, 4}, 17
	bucket.Availability, bucket.RawHash, bucket.Term, bucket.Model = "available", "not-hex", "P1M", knowledge.Package
	empty := offer("runpod/a100/secure", "a100", 1.19)
	zero := offer("runpod/a100/community", "a100", 1.09)
	zero.RawHash, zero.Regions = "0", 3
	in := []knowledge.Offer{plain, bucket, empty, zero}
	tab := catalog.NewTable(len(in), 40)
	for i := range in {
		tab.Append(&in[i])
	}
	if diff := cmp.Diff(in, tab.Offers()); diff != "" {
		t.Errorf("table round trip (-in +out):\n%s", diff)
	}
	if tab.Len() != 4 || tab.Key(1) != "vastai/rtx4090/1x/bucket" {
		t.Errorf("len %d, key 1 %q", tab.Len(), tab.Key(1))
	}
}

// DiffTables finds what Diff finds over the same offers.
func TestDiffTablesMatchesDiff(t *testing.T) {
	prev := []knowledge.Offer{offer("a", "h100", 1.0), offer("b", "h100", 2.0), offer("a", "h100", 1.5), offer("c", "h100", 3.0)}
	cur := []knowledge.Offer{offer("a", "h100", 2.0), offer("b", "h100", 2.0), offer("a", "h100", 1.0), offer("d", "h100", 4.0)}
	cur[1].Availability, prev[1].Availability = "low", "available"
	table := func(os []knowledge.Offer) *catalog.Table {
		t := catalog.NewTable(len(os), 8)
		for i := range os {
			t.Append(&os[i])
		}
		return t
	}
	want := catalog.Diff(prev, cur, catalog.DefaultThresholds())
	got := catalog.DiffTables(table(prev), table(cur), catalog.DefaultThresholds())
	if len(want.Changes) != 4 {
		t.Fatalf("Diff found %d changes, want 4 (a up, b availability, d new, c gone)", len(want.Changes))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DiffTables (-Diff +DiffTables):\n%s", diff)
	}
}

// Raw hashes that FormatUint would not write back the same way stay
// strings: upper case, a leading zero, "0", too long.
func TestTableKeepsOddRawHashes(t *testing.T) {
	hashes := []string{"9f3a0c11d2e4b5a6", "ffffffffffffffff", "1", "0", "09f3", "9F3A", "", "10000000000000000", "g1"}
	tab := catalog.NewTable(len(hashes), 8)
	for _, h := range hashes {
		o := offer("k-"+h, "h100", 1)
		o.RawHash = h
		tab.Append(&o)
	}
	for i, h := range hashes {
		if got := tab.Offer(i).RawHash; got != h {
			t.Errorf("raw hash %q came back as %q", h, got)
		}
	}
}

// Over sealed batches (each key once, so the previous catalogue is
// indexed only when the current one leaves its order), DiffTables still
// finds what Diff finds: the same order, a row moved, one new, one gone,
// one marked disappeared, and a current key listed twice.
func TestDiffTablesOverSealedBatches(t *testing.T) {
	prev := offers("k", "h100", 8, 2.0)
	prev[5].Status = "disappeared"
	sealed := func(os []knowledge.Offer) *catalog.Table {
		b := &catalog.Batch{}
		for i := range os {
			b.Append(&os[i])
		}
		b.Seal()
		return b.Rows
	}
	same := offers("k", "h100", 8, 2.0)
	same[2].PriceLow, same[2].PriceHigh = 2.5, 2.5
	moved := append(append([]knowledge.Offer{}, same[4:]...), same[:4]...) // k-04…k-07 first
	moved[1] = offer("new", "h100", 1.0)                                   // k-05 (disappeared before) replaced
	moved = append(moved[:len(moved)-1], moved[0])                         // k-03 gone, k-04 twice
	for name, cur := range map[string][]knowledge.Offer{"same order": same, "moved": moved} {
		want := catalog.Diff(prev, cur, catalog.DefaultThresholds())
		got := catalog.DiffTables(sealed(prev), sealed(cur), catalog.DefaultThresholds())
		if len(want.Changes) == 0 {
			t.Fatalf("%s: Diff found no change", name)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: DiffTables (-Diff +DiffTables):\n%s", name, diff)
		}
	}
}

// A raw hash appended as a number reads back as FormatUint writes it in
// hex, zero included ("0"), whatever the offer's RawHash field said.
func TestTableAppendHashed(t *testing.T) {
	want := map[uint64]string{0: "0", 1: "1", 0x9f3a: "9f3a", 0xffffffffffffffff: "ffffffffffffffff"}
	tab := catalog.NewTable(len(want), 8)
	var order []uint64
	for h := range want {
		o := offer("k", "h100", 1)
		o.RawHash = "ignored"
		tab.AppendHashed(&o, h)
		order = append(order, h)
	}
	for i, h := range order {
		if got := tab.Offer(i).RawHash; got != want[h] {
			t.Errorf("hash %#x came back as %q, want %q", h, got, want[h])
		}
	}
}
