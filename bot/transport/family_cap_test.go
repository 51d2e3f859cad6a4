package transport

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"
)

// TestAnswerFamiliesAreBounded: issue #28 item 6 — families were kept 7
// days each, as many as there were distinct questions (~25 KB each in the
// ledger's Redis). Now at most maxFamilies are kept, storing one more drops
// the oldest, each expires after a day, and one over maxFamilyBytes is not
// stored at all. Every family key has a TTL (so maxmemory with
// volatile-lru, as the deploy manifests set it, evicts them and never the
// ledger's keys, which have none).
func TestAnswerFamiliesAreBounded(t *testing.T) {
	h := newHarness(t, nil)
	ctx := context.Background()
	raw := bytes.Repeat([]byte("x"), 1<<10)
	const extra = 25
	for i := range maxFamilies + extra {
		if !h.app.storeFamily(ctx, fmt.Sprintf("%024x", i), raw) {
			t.Fatalf("family %d not stored", i)
		}
	}
	if n := h.rdb.ZCard(ctx, familyIndex).Val(); n != maxFamilies {
		t.Errorf("index holds %d families, want the cap %d", n, maxFamilies)
	}
	keys := h.mini.Keys()
	stored := 0
	for _, k := range keys {
		if len(k) == len(answerKey("")+"000000000000000000000000") {
			stored++
		}
	}
	if stored != maxFamilies {
		t.Errorf("%d family keys in Redis, want %d (2,000 + 25 stored, the 25 oldest dropped)", stored, maxFamilies)
	}
	for i := range extra {
		if h.mini.Exists(answerKey(fmt.Sprintf("%024x", i))) {
			t.Errorf("family %d, among the %d oldest, is still stored", i, extra)
			break
		}
	}
	newest := answerKey(fmt.Sprintf("%024x", maxFamilies+extra-1))
	if !h.mini.Exists(newest) {
		t.Fatal("the newest family was dropped")
	}
	if ttl := h.mini.TTL(newest); ttl <= 0 || ttl > 24*time.Hour {
		t.Errorf("family TTL %v, want at most 24 h (was 7 days) and set", ttl)
	}
	// Over the size cap: not stored, the buttons ask again.
	big := bytes.Repeat([]byte("y"), maxFamilyBytes+1)
	if h.app.storeFamily(ctx, fmt.Sprintf("%024x", 1<<40), big) {
		t.Errorf("a %d-byte family was stored, over the %d-byte cap", len(big), maxFamilyBytes)
	}
}
