package present

import (
	"testing"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/knowledge"
)

// TestCompareNoteWording holds notes to the sentences of
// testdata/compare_h100_h800_h20.golden.json (H20 against H100 SXM).
func TestCompareNoteWording(t *testing.T) {
	for _, tt := range []struct {
		n      advisor.CompareNote
		en, zh string
	}{
		// 4000 ÷ 3350 = 1.194 → 1.19×.
		{advisor.CompareNote{Kind: advisor.CompareBandwidth, Hi: "H20", Lo: "H100 SXM", Ratio: 1.19, HiValue: 4000, LoValue: 3350},
			"H20 reads memory 1.19× as fast as H100 SXM (4000 vs 3350 GB/s): token generation at small batch scales with it",
			"H20 的显存带宽是 H100 SXM 的 1.19 倍（4000 对 3350 GB/s）：小批量生成 token 的速度随之提升"},
		// 96 − 80 = 16 GB.
		{advisor.CompareNote{Kind: advisor.CompareMemory, Hi: "H20", Lo: "H100 SXM", HiValue: 96, LoValue: 80},
			"H20 holds 16 GB more per card (96 vs 80 GB): bigger models, longer contexts or larger batches on fewer cards",
			"H20 每卡多 16 GB 显存（96 对 80 GB）：更大的模型、更长的上下文或更大的批量，用更少的卡"},
		{advisor.CompareNote{Kind: advisor.CompareCheaper, Hi: "H100 SXM", Lo: "H20", Ratio: 5.21},
			"per TFLOP-hour H100 SXM is 5.21× cheaper than H20 at the catalogue's lowest prices",
			"按目录最低价算，H100 SXM 每 TFLOP·小时比 H20 便宜 5.21 倍"},
	} {
		if got := CompareNote(tt.n); got.EN != tt.en || got.ZH != tt.zh {
			t.Errorf("CompareNote(%s) =\n %q\n %q\nwant\n %q\n %q", tt.n.Kind, got.EN, got.ZH, tt.en, tt.zh)
		}
	}
	if got, want := CompareLabel("per_tflop_hour", "H20"), (advisor.Text{EN: "H20 per TFLOP-hour", ZH: "H20 每 TFLOP·小时"}); got != want {
		t.Errorf("CompareLabel = %q, want %q", got, want)
	}
}

// TestCompareWordsCoverEngine: for comparisons down every branch, every
// note, assumption and line the engine returns is worded here in both
// languages.
func TestCompareWordsCoverEngine(t *testing.T) {
	kb := knowledge.MustShipped()
	m := advisor.MarketOf(kb)
	kinds := map[advisor.CompareNoteKind]bool{}
	var sets [][]string
	for i := 0; i+1 < len(kb.GPUs); i += 2 { // every card once, paired with its neighbour
		sets = append(sets, []string{kb.GPUs[i].ID, kb.GPUs[i+1].ID})
	}
	sets = append(sets, []string{"h100", "h800", "h20"}, []string{"rtx4090", "a100-80g"}, []string{"ascend-910b", "h100"})
	for _, gpus := range sets {
		for _, cur := range []knowledge.Currency{knowledge.CNY, knowledge.USD} {
			r, err := advisor.Compare(gpus, m, cur, 0)
			if err != nil {
				t.Fatalf("Compare(%v): %v", gpus, err)
			}
			got := r
			WordCompare(&got)
			for i, n := range r.Said {
				kinds[n.Kind] = true
				if w := got.Notes[i]; w.EN == "" || w.ZH == "" {
					t.Errorf("Compare(%v) note %s worded %q", gpus, n.Kind, w)
				}
			}
			for i, n := range r.Assumed {
				kinds[n.Kind] = true
				if w := got.Assumptions[i]; w.EN == "" || w.ZH == "" {
					t.Errorf("Compare(%v) assumption %s worded %q", gpus, n.Kind, w)
				}
			}
			for _, l := range got.Lines {
				if l.Label.EN == "" || l.Label.ZH == "" {
					t.Errorf("Compare(%v) line %s: label %q", gpus, l.Key, l.Label)
				}
			}
		}
	}
	// A card priced only as a monthly plan: one package offer of an A100
	// (¥5,000 a month), set against the catalogue's H100.
	monthly := m
	monthly.Offers = append([]knowledge.Offer{{Key: "t-a100-month", Platform: "test", GPU: "a100-80g", GPUCount: 1, PriceLow: 5000, PriceHigh: 5000,
		Currency: knowledge.CNY, Unit: knowledge.PerMonth, Basis: knowledge.PerGPU, Model: knowledge.Package, ObservedAt: "2026-09-01", Source: "test"}},
		offersNot(m.Offers, "a100-80g")...)
	monthly.Rows = nil
	r, err := advisor.Compare([]string{"a100-80g", "h100"}, monthly, knowledge.CNY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range r.Said {
		kinds[n.Kind] = true
	}
	for _, k := range []advisor.CompareNoteKind{advisor.CompareNVLinkGap, advisor.CompareNoNVLink, advisor.CompareBandwidth, advisor.CompareCompute,
		advisor.CompareMemory, advisor.CompareFP8, advisor.CompareStack, advisor.CompareCheaper, advisor.CompareSeed,
		advisor.CompareSpecsSources, advisor.CompareWorded, advisor.CompareMonthlyOnly, advisor.CompareSpotOnly, advisor.CompareNoPrice} {
		if !kinds[k] {
			t.Errorf("no comparison above makes a %s note: add one", k)
		}
	}
}

// offersNot is offers without gpu's.
func offersNot(offers []knowledge.Offer, gpu string) []knowledge.Offer {
	var out []knowledge.Offer
	for _, o := range offers {
		if o.GPU != gpu {
			out = append(out, o)
		}
	}
	return out
}
