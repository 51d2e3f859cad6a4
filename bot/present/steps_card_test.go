package present

import (
	"testing"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/knowledge"
)

// TestCapacityLabel: two H100s, QLoRA at 4 bits.
func TestCapacityLabel(t *testing.T) {
	got := CapacityLabel(advisor.QLoRA, 4, 2)
	if want := (advisor.Text{EN: "largest qlora (4-bit) on 2 card(s)", ZH: "2 张卡上 qlora（4 位）最大模型"}); got != want {
		t.Errorf("CapacityLabel(qlora, 4, 2) = %q, want %q", got, want)
	}
}

// TestCardWordsMatchEngine: for one card, several, and a card without
// BF16 (the V100: one more assumption), the words written here from the
// engine's keys and values are the engine's own, byte for byte.
func TestCardWordsMatchEngine(t *testing.T) {
	kb := knowledge.MustShipped()
	noBF16 := false
	for _, tc := range []struct {
		gpu string
		n   int
	}{{"h100-sxm", 1}, {"rtx-4090", 2}, {"v100-sxm2", 8}} {
		g, ok := kb.GPU(tc.gpu)
		if !ok {
			t.Fatalf("no %s in the card table", tc.gpu)
		}
		f, err := advisor.Card(g, tc.n, kb.Archs)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Assumed) != len(f.Assumptions) || len(f.Lines) < 3+len(f.Capacity) {
			t.Fatalf("%s ×%d: %d notes for %d assumptions, %d lines for %d capacity rows", tc.gpu, tc.n, len(f.Assumed), len(f.Assumptions), len(f.Lines), len(f.Capacity))
		}
		got := f
		WordCard(&got)
		for i := range f.Assumptions {
			if got.Assumptions[i] != f.Assumptions[i] {
				t.Errorf("%s ×%d assumption %d:\n got %q\nwant %q", tc.gpu, tc.n, i, got.Assumptions[i], f.Assumptions[i])
			}
		}
		for i, l := range f.Lines {
			if got.Lines[i].Label != l.Label || l.Label.EN == "" {
				t.Errorf("%s ×%d line %s: label %q, want %q", tc.gpu, tc.n, l.Key, got.Lines[i].Label, l.Label)
			}
		}
		for _, n := range f.Assumed {
			noBF16 = noBF16 || n == advisor.CardNoBF16
		}
	}
	if !noBF16 {
		t.Error("no card above is without BF16: the V100 row changed?")
	}
}
