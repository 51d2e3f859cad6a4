package present

import (
	"fmt"

	"github.com/gpubot/gpubot/advisor"
)

// Memory estimates: the engine returns each assumption as an
// advisor.MemoryNote (a kind and its operands) and each line by its key;
// the sentences and names are written here, in both languages.

// memoryNotes words each kind of memory note: English, then Chinese.
var memoryNotes = map[advisor.MemoryNoteKind]func(n advisor.MemoryNote) (string, string){
	advisor.NoteShape: func(n advisor.MemoryNote) (string, string) { return n.Explain.EN, n.Explain.ZH },
	advisor.NoteMXFP4: func(n advisor.MemoryNote) (string, string) {
		return n.From + " ships its expert weights in MXFP4 (4 bits + one 8-bit scale per 32 = 4.25 bits), attention and embeddings in BF16: served as shipped by default",
			n.From + " 的专家权重以 MXFP4 发布（4 bit + 每 32 个一个 8 bit 缩放 = 4.25 bit），注意力和词嵌入为 BF16：默认按发布格式部署"
	},
	advisor.NoteNF4: func(advisor.MemoryNote) (string, string) {
		return "base weights in NF4 with double quantization (4.127 bits/param, QLoRA paper); embeddings and output head stay 16-bit",
			"基座权重按 NF4 + 双重量化存储（每参数 4.127 bit，QLoRA 论文），词嵌入和输出层保持 16 位"
	},
	advisor.NoteInt4: func(advisor.MemoryNote) (string, string) {
		return "4-bit weights carry group-128 scales (4.25 bits/param, AWQ/GPTQ style); embeddings and output head stay 16-bit",
			"4 位权重含 128 分组的缩放系数（每参数 4.25 bit，AWQ/GPTQ），词嵌入和输出层保持 16 位"
	},
	advisor.NoteFP8: func(n advisor.MemoryNote) (string, string) {
		return n.From + " ships FP8 weights (block-scaled): served in FP8 by default, embeddings and output head in BF16; bits=16 sizes a BF16 copy",
			n.From + " 以 FP8 权重发布（分块缩放）：默认按 FP8 部署，词嵌入和输出层为 BF16；bits=16 可按 BF16 计算"
	},
	advisor.NoteInt8: func(advisor.MemoryNote) (string, string) {
		return "8-bit weights (LLM.int8 / FP8 style); embeddings and output head stay 16-bit",
			"8 位权重（LLM.int8 / FP8），词嵌入和输出层保持 16 位"
	},
	advisor.NoteMixedAdamW: func(advisor.MemoryNote) (string, string) {
		return "mixed-precision AdamW: 16 bytes per parameter for weights, gradients and states (ZeRO paper)",
			"混合精度 AdamW：权重+梯度+优化器状态共每参数 16 字节（ZeRO 论文）"
	},
	advisor.NoteFreeze: func(n advisor.MemoryNote) (string, string) {
		return fmt.Sprintf("freeze tuning trains the last %d layers (LLaMA-Factory default)", n.N),
			fmt.Sprintf("冻结微调只训练最后 %d 层（LLaMA-Factory 默认）", n.N)
	},
	advisor.NoteLoRA: func(n advisor.MemoryNote) (string, string) {
		return fmt.Sprintf("LoRA rank %d on all linear layers, adapters trained in BF16 with FP32 Adam states (QLoRA paper setup)", n.N),
			fmt.Sprintf("LoRA 秩 %d，挂在全部线性层；适配器 BF16 训练，Adam 状态 FP32（QLoRA 论文设置）", n.N)
	},
	advisor.NoteKVCache: func(n advisor.MemoryNote) (string, string) {
		kv, kvZH := "BF16", "BF16"
		if n.KVBits == 8 {
			kv, kvZH = "FP8 (1 byte per value, half of BF16)", "FP8（每个值 1 字节，BF16 的一半）"
		}
		return fmt.Sprintf("%d concurrent requests of %d tokens each; KV cache in %s (vLLM formula)", n.Batch, n.SeqLen, kv),
			fmt.Sprintf("%d 路并发，每路 %d token；KV 缓存 %s（vLLM 公式）", n.Batch, n.SeqLen, kvZH)
	},
	advisor.NoteServing: servingNote,
	advisor.NoteMLA: func(advisor.MemoryNote) (string, string) {
		return "multi-head latent attention: the cache holds the compressed latent (kv_lora_rank + rope dims per layer), as vLLM's and SGLang's MLA backends do",
			"多头潜在注意力（MLA）：缓存只存压缩后的潜向量（每层 kv_lora_rank + rope 维），与 vLLM/SGLang 的 MLA 后端一致"
	},
	advisor.NoteWindow: func(n advisor.MemoryNote) (string, string) {
		return fmt.Sprintf("sliding-window layers keep at most %d tokens of KV (engines with a window-aware cache, e.g. vLLM's hybrid allocator)", n.N),
			fmt.Sprintf("滑动窗口层最多保留 %d token 的 KV（需推理引擎支持窗口缓存，如 vLLM 的混合分配器）", n.N)
	},
	advisor.NoteFrozenActivations: func(advisor.MemoryNote) (string, string) {
		return "frozen layers keep no activations for backward", "冻结层不为反向传播保存激活值"
	},
	advisor.NoteCheckpointing: func(n advisor.MemoryNote) (string, string) {
		return fmt.Sprintf("gradient checkpointing on (the default); batch %d × %d tokens; FlashAttention", n.Batch, n.SeqLen),
			fmt.Sprintf("梯度检查点开启（默认）；batch %d × %d token；FlashAttention", n.Batch, n.SeqLen)
	},
	advisor.NoteNoCheckpointing: func(n advisor.MemoryNote) (string, string) {
		return fmt.Sprintf("gradient checkpointing off: every layer's activations kept; batch %d × %d tokens", n.Batch, n.SeqLen),
			fmt.Sprintf("梯度检查点关闭：保存每层激活值；batch %d × %d token", n.Batch, n.SeqLen)
	},
	advisor.NoteLayerActivations: func(n advisor.MemoryNote) (string, string) {
		c := FormulaNum(n.BytesPerToken)
		return fmt.Sprintf("stored activations per layer: 12·h + 4·kv + 8·i = %s bytes/token for a gated (SwiGLU) MLP and %s attention (Korthikanti et al. 2022's count, 34·h for GPT-3, redone for this block)", c, n.Attention),
			fmt.Sprintf("每层保存的激活值：12·h + 4·kv + 8·i = 每 token %s 字节（门控 SwiGLU MLP、%s 注意力；按 Korthikanti 等 2022 的方法对该结构重新计数，GPT-3 为 34·h）", c, n.Attention)
	},
	advisor.NoteStack: stackNote,
	advisor.NoteUnits: func(n advisor.MemoryNote) (string, string) {
		if !n.Trains {
			return "memory in GB (10⁹ bytes); a card's advertised size is read in GiB as the serving engines see it (an 80 GB card is 80 × 2³⁰ bytes), of which the engine's memory fraction is used",
				"显存单位 GB（10⁹ 字节）；显卡标称容量按推理引擎看到的 GiB 计（80 GB 卡即 80 × 2³⁰ 字节），按引擎的显存比例使用"
		}
		return "memory in GB (10⁹ bytes); a card's memory is taken as its advertised size, which leaves a few percent of real headroom",
			"显存单位 GB（10⁹ 字节）；显卡容量按标称值计，实际还有几个百分点余量"
	},
}

// MemoryNote is a memory estimate's assumption in both languages; a kind
// this file does not know reads as nothing.
func MemoryNote(n advisor.MemoryNote) advisor.Text {
	f, ok := memoryNotes[n.Kind]
	if !ok {
		return advisor.Text{}
	}
	en, zh := f(n)
	return advisor.Text{EN: en, ZH: zh}
}

// MemoryNoteText is the note in l.
func MemoryNoteText(l Lang, n advisor.MemoryNote) string {
	t := MemoryNote(n)
	return l.Pick(t.EN, t.ZH)
}

// memoryLabels names each memory line by its key: English, Chinese.
var memoryLabels = map[string][2]string{
	"weights":          {"weights", "模型权重"},
	"adapter_weights":  {"adapter weights", "LoRA 适配器权重"},
	"gradients":        {"gradients", "梯度"},
	"optimizer":        {"optimizer states", "优化器状态"},
	"activations":      {"activations", "激活值"},
	"kv_cache":         {"KV cache", "KV 缓存"},
	"attention_scores": {"eager attention scores", "eager 注意力分数"},
	"overhead":         {"framework overhead", "框架开销"},
	"total":            {"total per replica", "单副本合计"},
}

// MemoryLabel names a memory line (advisor.Line.Key) in both languages;
// lora: the gradients are a LoRA adapter's.
func MemoryLabel(key string, lora bool) advisor.Text {
	if key == "gradients" && lora {
		return advisor.Text{EN: "adapter gradients", ZH: "适配器梯度"}
	}
	l := memoryLabels[key]
	return advisor.Text{EN: l[0], ZH: l[1]}
}

// WordMemory writes m's line names and assumptions from its keys and
// notes: what a reader calls before showing or serialising an estimate
// once the engine leaves them unworded. It writes new slices: the
// engine's cache may share the old ones.
func WordMemory(m *advisor.Memory) {
	lora := m.Workload.Method == advisor.LoRA || m.Workload.Method == advisor.QLoRA
	lines := make([]advisor.Line, len(m.Lines))
	for i, l := range m.Lines {
		l.Label = MemoryLabel(l.Key, lora)
		lines[i] = l
	}
	m.Lines = lines
	m.Assumptions = make([]advisor.Text, 0, len(m.Notes))
	for _, n := range m.Notes {
		m.Assumptions = append(m.Assumptions, MemoryNote(n))
	}
}

// servingNote states the serving engine's settings as used.
func servingNote(n advisor.MemoryNote) (string, string) {
	engine, fracEN, fracZH, seqs := "vLLM", "gpu_memory_utilization", "gpu_memory_utilization", "max_num_seqs"
	if n.Engine == advisor.EngineTRTLLM {
		engine, fracEN, fracZH, seqs = "TensorRT-LLM", "free_gpu_memory_fraction (of the memory the weights and activations leave)", "free_gpu_memory_fraction（权重和激活值之外的剩余显存）", "max_batch_size"
	}
	kv := "kv_bits=16: BF16 KV cache, vLLM's kv_cache_dtype=auto; kv_bits=8 stores it in FP8 (--kv-cache-dtype fp8) at half the memory"
	kvZH := "kv_bits=16：BF16 KV 缓存（vLLM kv_cache_dtype=auto）；kv_bits=8 以 FP8 存储（--kv-cache-dtype fp8），显存减半"
	if n.KVBits == 8 {
		kv = "kv_bits=8: FP8 KV cache (vLLM --kv-cache-dtype fp8; TensorRT-LLM's default with an FP8 checkpoint)"
		kvZH = "kv_bits=8：FP8 KV 缓存（vLLM --kv-cache-dtype fp8；TensorRT-LLM 的 FP8 检查点默认如此）"
	}
	u := FormulaNum(n.MemUtil)
	return fmt.Sprintf("serving engine %s: %s %s, %s %d; %s", engine, fracEN, u, seqs, n.MaxSeqs, kv),
		fmt.Sprintf("推理引擎 %s：%s %s，%s %d；%s", engine, fracZH, u, seqs, n.MaxSeqs, kvZH)
}

// stackNote states the software stack the memory is sized for.
func stackNote(n advisor.MemoryNote) (string, string) {
	switch n.Stack {
	case advisor.StackVLLM:
		return "stack=vllm: a serving engine (vLLM, or TensorRT-LLM with engine=trtllm) preallocates its paged KV cache inside the memory fraction; 0.8 GB CUDA context per card; stack=hf sizes transformers' generate() instead",
			"stack=vllm：推理引擎（vLLM；engine=trtllm 时为 TensorRT-LLM）在显存比例内预分配分页 KV 缓存；每卡 0.8 GB CUDA 上下文；stack=hf 按 transformers 的 generate() 计算"
	case advisor.StackHFEager:
		return "stack=hf-eager: PyTorch + transformers with eager attention (attn_implementation=\"eager\"), which materialises the b·heads·s² attention scores; 0.8 GB CUDA context + 5 % allocator reserve (PyTorch caching allocator)",
			"stack=hf-eager：PyTorch + transformers，eager 注意力（attn_implementation=\"eager\"）会生成 b·heads·s² 的注意力分数矩阵；0.8 GB CUDA 上下文 + 5% 分配器预留（PyTorch 缓存分配器）"
	case advisor.StackDeepSpeed:
		return "stack=deepspeed: ZeRO-3 keeps, on every card besides its shard, a 5e8-element reduce bucket, a 5e7-element prefetch bucket and two gathered layers (DeepSpeed defaults); 0.8 GB CUDA context + 5 % allocator reserve",
			"stack=deepspeed：ZeRO-3 每卡除自身分片外还保留 5e8 元素的梯度归约桶、5e7 元素的预取桶和两层完整参数（DeepSpeed 默认）；0.8 GB CUDA 上下文 + 5% 分配器预留"
	}
	if n.Trains {
		return "stack=hf (default for training): PyTorch + transformers/PEFT Trainer with SDPA/FlashAttention (no s² scores kept); 0.8 GB CUDA context + 5 % allocator reserve (PyTorch caching allocator); stack=hf-eager or stack=deepspeed size those stacks",
			"stack=hf（训练默认）：PyTorch + transformers/PEFT Trainer，SDPA/FlashAttention（不保存 s² 分数）；0.8 GB CUDA 上下文 + 5% 分配器预留（PyTorch 缓存分配器）；stack=hf-eager 或 stack=deepspeed 按对应框架计算"
	}
	return "stack=hf: transformers' generate(): the whole prompt in one pass, a KV cache that grows with the text (no paging, no memory fraction), SDPA attention; 0.8 GB CUDA context + 5 % allocator reserve",
		"stack=hf：transformers 的 generate()：整段提示一次前向，KV 缓存随文本增长（无分页、无显存比例），SDPA 注意力；0.8 GB CUDA 上下文 + 5% 分配器预留"
}
