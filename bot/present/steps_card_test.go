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

// TestCardWordsCoverEngine: for one card, several, and a card without
// BF16 (the V100: one more assumption), every line and assumption the
// engine returns is worded here in both languages.
func TestCardWordsCoverEngine(t *testing.T) {
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
		if len(f.Lines) < 3+len(f.Capacity) {
			t.Fatalf("%s ×%d: %d lines for %d capacity rows", tc.gpu, tc.n, len(f.Lines), len(f.Capacity))
		}
		got := f
		WordCard(&got)
		for i, a := range got.Assumptions {
			if a.EN == "" || a.ZH == "" {
				t.Errorf("%s ×%d assumption %d worded %q", tc.gpu, tc.n, i, a)
			}
		}
		for _, l := range got.Lines {
			if l.Label.EN == "" || l.Label.ZH == "" {
				t.Errorf("%s ×%d line %s: label %q", tc.gpu, tc.n, l.Key, l.Label)
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
