package present

import (
	"testing"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/knowledge"
)

// TestFormulaNum: the engine's working writes integers whole, one decimal
// from 100 up and up to three below it, with no grouping.
func TestFormulaNum(t *testing.T) {
	for _, tt := range []struct {
		in   float64
		want string
	}{
		{331776, "331776"}, // 12×8192 + 4×1024 + 8×28672 bytes/token, as the fit golden writes it
		{0.9, "0.9"},       // vLLM's gpu_memory_utilization default
		{1.0 / 3, "0.333"}, // three decimals below 100
		{99.9994, "99.999"},
		{1234.56, "1234.6"}, // one decimal from 100 up, no comma
		{-2.5, "-2.5"},
		{0, "0"},
	} {
		if got := FormulaNum(tt.in); got != tt.want {
			t.Errorf("FormulaNum(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestMemoryNoteWording holds a few notes to sentences written out by hand
// (the first three as testdata/fit_70b_qlora_zh.golden.json shows them).
func TestMemoryNoteWording(t *testing.T) {
	for _, tt := range []struct {
		n      advisor.MemoryNote
		en, zh string
	}{
		{advisor.MemoryNote{Kind: advisor.NoteCheckpointing, Batch: 1, SeqLen: 2048},
			"gradient checkpointing on (the default); batch 1 × 2048 tokens; FlashAttention",
			"梯度检查点开启（默认）；batch 1 × 2048 token；FlashAttention"},
		{advisor.MemoryNote{Kind: advisor.NoteLoRA, N: 16},
			"LoRA rank 16 on all linear layers, adapters trained in BF16 with FP32 Adam states (QLoRA paper setup)",
			"LoRA 秩 16，挂在全部线性层；适配器 BF16 训练，Adam 状态 FP32（QLoRA 论文设置）"},
		{advisor.MemoryNote{Kind: advisor.NoteNF4},
			"base weights in NF4 with double quantization (4.127 bits/param, QLoRA paper); embeddings and output head stay 16-bit",
			"基座权重按 NF4 + 双重量化存储（每参数 4.127 bit，QLoRA 论文），词嵌入和输出层保持 16 位"},
		{advisor.MemoryNote{Kind: advisor.NoteKVCache, Batch: 8, SeqLen: 4096, KVBits: 8},
			"8 concurrent requests of 4096 tokens each; KV cache in FP8 (1 byte per value, half of BF16) (vLLM formula)",
			"8 路并发，每路 4096 token；KV 缓存 FP8（每个值 1 字节，BF16 的一半）（vLLM 公式）"},
		{advisor.MemoryNote{Kind: advisor.NoteServing, Engine: "vllm", MemUtil: 0.9, MaxSeqs: 256, KVBits: 16},
			"serving engine vLLM: gpu_memory_utilization 0.9, max_num_seqs 256; kv_bits=16: BF16 KV cache, vLLM's kv_cache_dtype=auto; kv_bits=8 stores it in FP8 (--kv-cache-dtype fp8) at half the memory",
			"推理引擎 vLLM：gpu_memory_utilization 0.9，max_num_seqs 256；kv_bits=16：BF16 KV 缓存（vLLM kv_cache_dtype=auto）；kv_bits=8 以 FP8 存储（--kv-cache-dtype fp8），显存减半"},
		{advisor.MemoryNote{Kind: "no such kind"}, "", ""},
	} {
		if got := MemoryNoteText(EN, tt.n); got != tt.en {
			t.Errorf("%s en = %q, want %q", tt.n.Kind, got, tt.en)
		}
		if got := MemoryNoteText(ZH, tt.n); got != tt.zh {
			t.Errorf("%s zh = %q, want %q", tt.n.Kind, got, tt.zh)
		}
	}
	if got := MemoryLabel("gradients", true); got != (advisor.Text{EN: "adapter gradients", ZH: "适配器梯度"}) {
		t.Errorf("MemoryLabel(gradients, lora) = %v", got)
	}
	if got := MemoryLabel("gradients", false); got != (advisor.Text{EN: "gradients", ZH: "梯度"}) {
		t.Errorf("MemoryLabel(gradients) = %v", got)
	}
}

// TestMemoryWordsCoverEngine: for a workload down every branch of the
// memory estimate, every note and line the engine returns is worded here
// in both languages (the goldens hold the words themselves).
func TestMemoryWordsCoverEngine(t *testing.T) {
	kb := knowledge.MustShipped()
	kinds := map[advisor.MemoryNoteKind]bool{}
	for _, w := range []advisor.Workload{
		{ParamsB: 70, Method: advisor.QLoRA},
		{ParamsB: 13, Method: advisor.Full, Bits: 16},
		{ParamsB: 7, Method: advisor.Full, Optimizer: advisor.AdamW8bit, Stack: advisor.StackDeepSpeed},
		{ParamsB: 7, Method: advisor.Freeze},
		{ParamsB: 7, Method: advisor.LoRA, NoGC: true, Stack: advisor.StackHFEager},
		{ParamsB: 7, Method: advisor.QLoRA, Bits: 8},
		{ParamsB: 70, Method: advisor.Inference, Bits: 8, KVBits: 8, Batch: 8, SeqLen: 4096},
		{ParamsB: 7, Method: advisor.Inference, Bits: 4, Engine: advisor.EngineTRTLLM},
		{ParamsB: 7, Method: advisor.Inference, Stack: advisor.StackHF},
		{ParamsB: 7, Method: advisor.Inference, Stack: advisor.StackHFEager},
		{Model: "gpt-oss-120b", Method: advisor.Inference},
		{Model: "deepseek-v3", Method: advisor.Inference},
		{Model: "gemma-2-9b", Method: advisor.Inference, SeqLen: 8192},
	} {
		m, err := advisor.EstimateMemory(w, kb.Archs)
		if err != nil {
			t.Fatalf("EstimateMemory(%+v): %v", w, err)
		}
		got := m
		WordMemory(&got)
		for i, n := range m.Notes {
			kinds[n.Kind] = true
			if a := got.Assumptions[i]; a.EN == "" || a.ZH == "" {
				t.Errorf("%+v note %s worded %q", w, n.Kind, a)
			}
		}
		for _, l := range got.Lines {
			if l.Label.EN == "" || l.Label.ZH == "" {
				t.Errorf("%+v line %s: label %q", w, l.Key, l.Label)
			}
		}
	}
	for k := range memoryNotes {
		if !kinds[k] {
			t.Errorf("no workload above makes a %s note: add one", k)
		}
	}
}
