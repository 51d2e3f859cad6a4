package present

import (
	"testing"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/knowledge"
)

// TestFitNoteWording holds notes to sentences written out by hand.
func TestFitNoteWording(t *testing.T) {
	for _, tt := range []struct {
		n      advisor.FitNote
		en, zh string
	}{
		// 0.1 GB per sequence at 2048 tokens.
		{advisor.FitNote{Kind: advisor.FitMaxBatch, SeqLen: 2048, PerSeqGB: 0.1},
			"max_batch: the largest micro-batch per card at 2048 tokens that still fits (each sequence adds 0.1 GB of activations on its card); a layout with no room for one sequence is not offered",
			"max_batch：在 2048 token 长度下每卡还能放下的最大 micro-batch（每多一条序列本卡增加 0.1 GB 激活值）；放不下一条序列的布局不予推荐"},
		// 1.3349 GB per request is written to two decimals: 1.33 GB.
		{advisor.FitNote{Kind: advisor.FitConcurrency, SeqLen: 4096, Chunk: 8192, PerSeqGB: 1.3349, Batch: 1},
			"max_concurrency: requests of 4096 tokens the KV cache left after the weights and a full 8192-token prefill chunk holds (1.33 GB per request per replica), as vLLM reports it; the card count is the fewest that hold 1 such requests by the same rule",
			"max_concurrency：权重和 8192 token 完整预填充块之外剩下的 KV 缓存能容纳多少个 4096 token 的请求（每副本每个 1.33 GB），与 vLLM 的报告口径一致；卡数按同一规则取能容纳 1 个请求的最少卡数"},
		// H800's NVLink: 400 GB/s.
		{advisor.FitNote{Kind: advisor.FitReducedNVLink, LinkGBs: 400},
			"reduced NVLink (400 GB/s): tensor parallel is slower than on the full-NVLink card",
			"NVLink 带宽受限（400 GB/s）：张量并行比满血卡慢"},
		{advisor.FitNote{Kind: advisor.FitPrecision, Precision: advisor.Text{EN: "no BF16", ZH: "不支持 BF16"}, Cards: []string{"V100", "T4"}, UpcastGB: 12.5},
			"V100, T4: no BF16 (one replica ≈ 12.5 GB there)",
			"V100, T4：不支持 BF16（在这些卡上单副本约 12.5 GB）"},
	} {
		got := FitNote(tt.n)
		if got.EN != tt.en || got.ZH != tt.zh {
			t.Errorf("FitNote(%s) =\n %q\n %q\nwant\n %q\n %q", tt.n.Kind, got.EN, got.ZH, tt.en, tt.zh)
		}
	}
	two := FitRemarks([]advisor.FitNote{{Kind: advisor.FitPCIeOnly}, {Kind: advisor.FitMultiNode, N: 2}})
	if want := (advisor.Text{EN: "PCIe only: multi-card training is slowed by card-to-card traffic; needs 2 machines of 8 cards (multi-node)",
		ZH: "仅 PCIe：多卡训练受卡间通信拖慢；需要 2 台 8 卡机器（多机）"}); two != want {
		t.Errorf("FitRemarks = %q, want %q", two, want)
	}
}

// TestFitWordsCoverEngine: over every card and a workload down each branch
// of the fit, every assumption and remark the engine returns is worded here
// in both languages (the goldens hold the words themselves).
func TestFitWordsCoverEngine(t *testing.T) {
	kb := knowledge.MustShipped()
	kinds := map[advisor.FitNoteKind]bool{}
	for _, w := range []advisor.Workload{
		{ParamsB: 70, Method: advisor.QLoRA},
		{ParamsB: 7, Method: advisor.LoRA, Batch: 4, SeqLen: 4096},
		{ParamsB: 405, Method: advisor.Full},
		{ParamsB: 70, Method: advisor.Inference},
		{ParamsB: 7, Method: advisor.Inference, Stack: advisor.StackHF},
		{Model: "deepseek-v3", Method: advisor.Inference},
		{ParamsB: 1000, Method: advisor.Full, SeqLen: 1 << 20},
	} {
		res, err := advisor.Fit(w, kb.GPUs, kb.Archs)
		if err != nil {
			t.Fatalf("Fit(%+v): %v", w, err)
		}
		got := res
		WordFit(&got)
		if len(got.Assumptions) != len(res.Notes)+len(res.FitNotes) {
			t.Fatalf("Fit(%+v): %d assumptions worded, engine has %d notes", w, len(got.Assumptions), len(res.Notes)+len(res.FitNotes))
		}
		for i, a := range got.Assumptions {
			if a.EN == "" || a.ZH == "" {
				t.Errorf("Fit(%+v) assumption %d worded %q", w, i, a)
			}
		}
		for _, n := range res.FitNotes {
			kinds[n.Kind] = true
		}
		for i, o := range res.Options {
			for _, r := range o.Remarks {
				kinds[r.Kind] = true
			}
			if n := got.Options[i].Note; len(o.Remarks) > 0 && (n.EN == "" || n.ZH == "") {
				t.Errorf("Fit(%+v) on %s: remarks %+v worded %q", w, o.GPU, o.Remarks, n)
			}
		}
	}
	for k := range fitNotes {
		if !kinds[k] {
			t.Errorf("no workload above makes a %s note: add one", k)
		}
	}
}
