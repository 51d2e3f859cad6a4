package advisor

import (
	"fmt"

	"github.com/gpubot/gpubot/knowledge"
)

// Memory-model constants. Each names its source or states the assumption.
const (
	bytesPerGB = 1e9

	// nf4BitsPerParam is QLoRA's NF4 storage with double quantization:
	// 4 bits plus 0.127 bits of quantization constants per parameter
	// (Dettmers et al. 2023, "QLoRA", section 3).
	nf4BitsPerParam = 4.127
	// mxfp4BitsPerParam is OCP MXFP4: 4-bit elements with one shared 8-bit
	// scale per block of 32 (OCP Microscaling spec v1.0), 4 + 8/32 bits.
	mxfp4BitsPerParam = 4.25
	// int4BitsPerParam is 4-bit inference weights (AWQ/GPTQ, group size 128):
	// one FP16 scale and zero point per 128 weights adds 0.25 bits.
	int4BitsPerParam = 4.25

	// Stored activations per layer: Shape.actBytesPerToken (12·h + 4·kv +
	// 8·i for the gated blocks of the catalogue), which replaces GPT-3's
	// 34·s·b·h (Korthikanti et al. 2022, eq. 1, without the attention
	// scores FlashAttention does not keep).
	// logitBytes: an inference step keeps the last position's logits in
	// FP32 (b·vocab·4 bytes).
	logitBytes = 4
	// trainLogitBytes is the loss's peak per logit in transformers'
	// causal-LM loss: the BF16 logits (2) stay, the FP32 upcast is
	// log-softmaxed and that FP32 output is saved for backward (4), whose
	// FP32 gradient (4) is cast back to BF16 (2): 12 bytes per position ×
	// vocab. Checked against LLaMA-Factory's measured QLoRA sweep
	// (testdata/stack_points.yaml, TestStackPeaksMatchMeasured).
	trainLogitBytes = 12
	// inferChunkTokens is the prefill chunk an inference server processes at
	// once (vLLM's chunked-prefill max_num_batched_tokens, order of 8192).
	inferChunkTokens = 8192

	// Framework overhead: CUDA context and library workspaces (≈0.8 GB), plus
	// 5 % of everything else for allocator fragmentation.
	overheadFixedGB = 0.8
	overheadFrac    = 0.05

	// eagerTrainBytes is what eager attention stores per score for
	// backward (Korthikanti et al. 2022, eq. 1: 2 bytes QKᵀ + 2 bytes
	// softmax output + 1 byte dropout mask = 5·a·s² per layer).
	eagerTrainBytes = 5
	// eagerInferBytes is eager attention's peak per score in a forward
	// pass: the BF16 scores and transformers' FP32 softmax upcast (2 + 4).
	eagerInferBytes = 6

	// DeepSpeed ZeRO-3 defaults (DeepSpeed config docs): reduce_bucket_size
	// 5e8 and stage3_prefetch_bucket_size 5e7 elements, held in 16 bits.
	dsReduceBucket   = 5e8
	dsPrefetchBucket = 5e7
)

// Breakdown is memory per model replica, in GB (10⁹ bytes).
type Breakdown struct {
	WeightsGB     float64 `json:"weights_gb"`
	ActivationsGB float64 `json:"activations_gb"`
	GradientsGB   float64 `json:"gradients_gb"`
	OptimizerGB   float64 `json:"optimizer_gb"`
	KVCacheGB     float64 `json:"kv_cache_gb"`
	OverheadGB    float64 `json:"overhead_gb"`
}

// Total is the sum of the parts.
func (b Breakdown) Total() float64 {
	return b.WeightsGB + b.ActivationsGB + b.GradientsGB + b.OptimizerGB + b.KVCacheGB + b.OverheadGB
}

// shardable is what splits evenly across cards: weights, gradients,
// optimizer states, KV cache and activations (the batch or the tensors are
// split). The fixed overhead does not.
func (b Breakdown) core() float64 {
	return b.WeightsGB + b.ActivationsGB + b.GradientsGB + b.OptimizerGB + b.KVCacheGB
}

// Memory is the per-replica memory estimate with every step written out.
type Memory struct {
	Workload    Workload  `json:"workload"`
	Shape       Shape     `json:"shape"`
	Breakdown   Breakdown `json:"breakdown"`
	TotalGB     float64   `json:"total_gb"`
	Trainable   float64   `json:"trainable_params"` // parameters that get gradients
	Lines       []Line    `json:"lines"`
	Assumptions []Text    `json:"assumptions"`
	// Notes are the assumptions as values, one per entry of Assumptions
	// and in its order: what bot/present words (present.MemoryNoteText).
	Notes []MemoryNote `json:"-"`

	weightBytes float64   // unrounded, for throughput maths
	raw         Breakdown // unrounded, for the per-card rule (limits)
	// own is what every card holds whole, GB: the CUDA context and the
	// stack's buffers (DeepSpeed's buckets and gathered layers).
	own float64
	// reserve is the allocator's share in OverheadGB (5 % of the rest),
	// GB; own + reserve = OverheadGB.
	reserve float64
}

// EstimateMemory sizes one replica of the workload. w must be normalized.
func EstimateMemory(w Workload, archs []knowledge.Arch) (Memory, error) {
	return estimateMemory(w, archs, false)
}

// estimateMemory is EstimateMemory; quiet skips the steps and assumptions
// (the figures are the same).
func estimateMemory(w Workload, archs []knowledge.Arch, quiet bool) (Memory, error) {
	w, err := ResolveModel(w, archs)
	if err != nil {
		return Memory{}, err
	}
	w, err = w.Normalize()
	if err != nil {
		return Memory{}, err
	}
	shape, err := shapeFor(w.ParamsB, w.Arch, archs, quiet)
	if err != nil {
		return Memory{}, err
	}
	m := Memory{Workload: w, Shape: shape}
	P := w.ParamsB * 1e9
	E := min(shape.embedParams(), P/2) // never more than half the model
	b, s := float64(w.Batch), float64(w.SeqLen)
	h, L := float64(shape.Hidden), float64(shape.Layers)
	// The steps are written only when asked for: a quiet estimate (a
	// search over sizes) keeps the figures and skips the texts.
	add := func(key string, bytes float64, how func() string) float64 {
		v := bytes / bytesPerGB
		if !quiet {
			m.Lines = append(m.Lines, Line{Key: key, Value: round(v, 2), Unit: "GB", How: how()})
		}
		return v
	}
	note := func(n MemoryNote) {
		if !quiet {
			m.Notes = append(m.Notes, n)
		}
	}
	note(MemoryNote{Kind: NoteShape, Explain: shape.Explain})

	// Weights.
	var bd Breakdown
	switch {
	case w.Bits == 16:
		bd.WeightsGB = add("weights", P*2, func() string { return fmt.Sprintf("%sB params × 2 bytes (BF16)", num(w.ParamsB)) })
	case w.Bits == 4 && shape.Format == "mxfp4" && w.Method == Inference:
		R := shape.RoutedB * 1e9
		bd.WeightsGB = add("weights", R*mxfp4BitsPerParam/8+(P-R)*2, func() string {
			return fmt.Sprintf("%sB expert params × %s bits ÷ 8 (MXFP4) + %sB other params × 2 bytes (BF16)", num(round(R/1e9, 2)), num(mxfp4BitsPerParam), num(round((P-R)/1e9, 2)))
		})
		note(MemoryNote{Kind: NoteMXFP4, From: shape.From})
	case w.Method == QLoRA && w.Bits == 4:
		bd.WeightsGB = add("weights", (P-E)*nf4BitsPerParam/8+E*2, func() string {
			return fmt.Sprintf("(%sB − %sB embeddings) × %s bits ÷ 8 + %sB × 2 bytes", num(w.ParamsB), num(round(E/1e9, 2)), num(nf4BitsPerParam), num(round(E/1e9, 2)))
		})
		note(MemoryNote{Kind: NoteNF4})
	default:
		bits := float64(w.Bits)
		if w.Bits == 4 {
			bits = int4BitsPerParam
		}
		bd.WeightsGB = add("weights", (P-E)*bits/8+E*2, func() string {
			return fmt.Sprintf("(%sB − %sB embeddings) × %s bits ÷ 8 + %sB × 2 bytes", num(w.ParamsB), num(round(E/1e9, 2)), num(bits), num(round(E/1e9, 2)))
		})
		if w.Bits == 4 {
			note(MemoryNote{Kind: NoteInt4})
		} else if shape.Format == "fp8" && w.Method == Inference {
			note(MemoryNote{Kind: NoteFP8, From: shape.From})
		} else {
			note(MemoryNote{Kind: NoteInt8})
		}
	}

	// Trainable parameters, gradients and optimizer states.
	stateBytes := 12.0 // FP32 master copy + two FP32 Adam moments (ZeRO paper: 2+2+12 = 16 bytes/param)
	stateHow := "FP32 master 4 + Adam m 4 + v 4 = 12 bytes"
	if w.Optimizer == AdamW8bit {
		stateBytes, stateHow = 6, "FP32 master 4 + 8-bit Adam m 1 + v 1 = 6 bytes"
	}
	switch w.Method {
	case Full:
		m.Trainable = P
		bd.GradientsGB = add("gradients", P*2, func() string { return fmt.Sprintf("%sB params × 2 bytes (BF16)", num(w.ParamsB)) })
		bd.OptimizerGB = add("optimizer", P*stateBytes, func() string { return fmt.Sprintf("%sB params × %s", num(w.ParamsB), stateHow) })
		note(MemoryNote{Kind: NoteMixedAdamW})
	case Freeze:
		m.Trainable = (P - E) * freezeTrainableLayers / L
		bd.GradientsGB = add("gradients", m.Trainable*2, func() string {
			return fmt.Sprintf("%sB trainable (last %d of %d layers) × 2 bytes", num(round(m.Trainable/1e9, 3)), freezeTrainableLayers, shape.Layers)
		})
		bd.OptimizerGB = add("optimizer", m.Trainable*stateBytes, func() string { return fmt.Sprintf("%sB trainable × %s", num(round(m.Trainable/1e9, 3)), stateHow) })
		note(MemoryNote{Kind: NoteFreeze, N: freezeTrainableLayers})
	case LoRA, QLoRA:
		A := shape.loraParams(w.LoRARank)
		m.Trainable = A
		adamBytes, adamHow := 8.0, "Adam m 4 + v 4 = 8 bytes (FP32)"
		if w.Optimizer == AdamW8bit {
			adamBytes, adamHow = 2, "8-bit Adam m 1 + v 1 = 2 bytes"
		}
		bd.WeightsGB += add("adapter_weights", A*2, func() string {
			return fmt.Sprintf("rank %d × (in+out) on q,k,v,o,gate,up,down × %d layers = %sM params × 2 bytes", w.LoRARank, shape.Layers, num(round(A/1e6, 1)))
		})
		bd.GradientsGB = add("gradients", A*2, func() string { return fmt.Sprintf("%sM params × 2 bytes", num(round(A/1e6, 1))) })
		bd.OptimizerGB = add("optimizer", A*adamBytes, func() string { return fmt.Sprintf("%sM params × %s", num(round(A/1e6, 1)), adamHow) })
		note(MemoryNote{Kind: NoteLoRA, N: w.LoRARank})
	}

	// Activations and KV cache.
	logits := b * s * float64(shape.Vocab) * trainLogitBytes
	c := shape.actBytesPerToken()
	cHow := func() string {
		return fmt.Sprintf("12×%d + 4×%s + 8×%d", shape.Hidden, num(shape.actKV()), shape.MLPWidth)
	}
	switch {
	case w.Method == Inference && w.generate():
		// transformers' generate(): the whole prompt in one forward pass
		// (no chunked prefill), logits kept for the last position only.
		act := b*s*(2*h+2*float64(shape.MLPWidth))*2 + b*float64(shape.Vocab)*logitBytes
		if w.Stack == StackHFEager {
			act += b * shape.heads() * s * s * eagerInferBytes
		}
		bd.ActivationsGB = add("activations", act, func() string {
			how := fmt.Sprintf("%d × %d-token prompt in one pass × (2×%d + 2×%d) × 2 bytes + %d × vocab %d × 4 bytes", w.Batch, w.SeqLen, shape.Hidden, shape.MLPWidth, w.Batch, shape.Vocab)
			if w.Stack == StackHFEager {
				how += fmt.Sprintf(" + eager scores %d × %s heads × %d² × %d bytes (one layer)", w.Batch, num(shape.heads()), w.SeqLen, eagerInferBytes)
			}
			return how
		})
	case w.Method == Inference:
		chunk := min(b*s, inferChunkTokens)
		act := chunk*(2*h+2*float64(shape.MLPWidth))*2 + b*float64(shape.Vocab)*logitBytes
		bd.ActivationsGB = add("activations", act, func() string {
			return fmt.Sprintf("%s-token prefill chunk × (2×%d + 2×%d) × 2 bytes + %d × vocab %d × 4 bytes", num(chunk), shape.Hidden, shape.MLPWidth, w.Batch, shape.Vocab)
		})
		kv := b * shape.KVBytes(w.SeqLen) * w.kvScale()
		bd.KVCacheGB = add("kv_cache", kv, func() string {
			if w.KVBits == 8 {
				return kvHow(w, shape) + " × ½ (FP8)"
			}
			return kvHow(w, shape)
		})
		note(MemoryNote{Kind: NoteKVCache, Batch: w.Batch, SeqLen: w.SeqLen, KVBits: w.KVBits})
		if !w.generate() {
			note(MemoryNote{Kind: NoteServing, Engine: w.Engine, MemUtil: w.MemUtil, MaxSeqs: w.MaxSeqs, KVBits: w.KVBits})
		}
		if shape.Attention == "MLA" {
			note(MemoryNote{Kind: NoteMLA})
		}
		if shape.Window > 0 && w.SeqLen > shape.Window {
			note(MemoryNote{Kind: NoteWindow, N: shape.Window})
		}
	case w.Method == Freeze:
		act := freezeTrainableLayers*c*b*s + logits
		bd.ActivationsGB = add("activations", act, func() string {
			return fmt.Sprintf("%d trained layers × %s bytes/token (%s) × batch %d × seq %d + logits %d×%d×%d×12 bytes", freezeTrainableLayers, num(c), cHow(), w.Batch, w.SeqLen, w.Batch, w.SeqLen, shape.Vocab)
		})
		note(MemoryNote{Kind: NoteFrozenActivations})
	case !w.NoGC:
		act := L*2*b*s*h + c*b*s + logits
		bd.ActivationsGB = add("activations", act, func() string {
			return fmt.Sprintf("%d layers × 2 bytes × %d×%d×%d (checkpoints) + %s bytes/token (%s) × %d×%d (one layer recomputed) + logits %d×%d×%d×12", shape.Layers, w.Batch, w.SeqLen, shape.Hidden, num(c), cHow(), w.Batch, w.SeqLen, w.Batch, w.SeqLen, shape.Vocab)
		})
		note(MemoryNote{Kind: NoteCheckpointing, Batch: w.Batch, SeqLen: w.SeqLen})
	default:
		act := L*c*b*s + logits
		bd.ActivationsGB = add("activations", act, func() string {
			return fmt.Sprintf("%d layers × %s bytes/token (%s) × %d×%d + logits %d×%d×%d×12", shape.Layers, num(c), cHow(), w.Batch, w.SeqLen, w.Batch, w.SeqLen, shape.Vocab)
		})
		note(MemoryNote{Kind: NoteNoCheckpointing, Batch: w.Batch, SeqLen: w.SeqLen})
	}
	if w.trains() && w.Stack == StackHFEager {
		// Eager attention keeps softmax(QKᵀ) for backward: Korthikanti et
		// al. 2022's 5·a·s² bytes per layer per sequence (2 scores, 2
		// softmax output, 1 dropout mask), in every layer that stores
		// activations (one with checkpointing, the trained ones, or all).
		layers := 1.0
		switch {
		case w.Method == Freeze:
			layers = freezeTrainableLayers
		case w.NoGC:
			layers = L
		}
		sc := layers * b * shape.heads() * s * s * eagerTrainBytes
		bd.ActivationsGB += add("attention_scores", sc, func() string {
			return fmt.Sprintf("%s layers × %d × %s heads × %d² × %d bytes", num(layers), w.Batch, num(shape.heads()), w.SeqLen, eagerTrainBytes)
		})
	}
	if w.trains() && (w.NoGC || w.Method == Freeze) {
		note(MemoryNote{Kind: NoteLayerActivations, BytesPerToken: c, Attention: shape.Attention})
	}
	if w.Method != Inference {
		add("kv_cache", 0, func() string { return "training keeps no KV cache" })
	}
	if w.Method == Inference {
		add("gradients", 0, func() string { return "inference computes no gradients" })
		add("optimizer", 0, func() string { return "inference keeps no optimizer" })
	}

	m.own, m.reserve = overheadFixedGB, overheadFrac*bd.core()
	var buf float64
	if w.Stack == StackDeepSpeed {
		buf = shape.deepspeedBuffers(P - E)
		m.own += buf / bytesPerGB
	}
	bd.OverheadGB = add("overhead", (m.own+m.reserve)*bytesPerGB, func() string {
		if w.Stack == StackDeepSpeed {
			return fmt.Sprintf("%s GB CUDA context + ZeRO-3 buffers %s (reduce bucket 5e8 × 2 bytes + prefetch bucket 5e7 × 2 bytes + 2 gathered layers × %sB params × 2 bytes) + 5%% × %s",
				num(overheadFixedGB), gb(buf/bytesPerGB), num(round((P-E)/L/1e9, 3)), gb(bd.core()))
		}
		return fmt.Sprintf("%s GB CUDA context + 5%% × %s", num(overheadFixedGB), gb(bd.core()))
	})
	note(MemoryNote{Kind: NoteStack, Stack: w.Stack, Trains: w.trains()})
	note(MemoryNote{Kind: NoteUnits, Trains: w.Method != Inference})

	m.weightBytes = bd.WeightsGB * bytesPerGB
	m.raw = bd
	m.Breakdown = roundBreakdown(bd)
	m.TotalGB = round(bd.Total(), 2)
	if quiet {
		return m, nil
	}
	m.Lines = append(m.Lines, Line{Key: "total", Value: m.TotalGB, Unit: "GB",
		How: "weights + activations + gradients + optimizer + KV cache + overhead"})
	return m, nil
}

// kvHow writes the KV-cache formula with the numbers in.
func kvHow(w Workload, s Shape) string {
	switch {
	case s.Window > 0:
		return fmt.Sprintf("%d requests × (%s B/token global layers × %d tokens + %s B/token window layers × min(%d, %d))",
			w.Batch, num(s.KVGlobal), w.SeqLen, num(s.KVLocal), w.SeqLen, s.Window)
	case s.Attention == "MLA":
		return fmt.Sprintf("%d requests × %d tokens × %s bytes/token (MLA latent, %d layers)", w.Batch, w.SeqLen, num(s.KVPerToken), s.Layers)
	case s.KVDim > 0 && s.KVPerToken == 2*float64(s.Layers)*float64(s.KVDim)*2:
		return fmt.Sprintf("%d requests × %d tokens × 2 × %d layers × %d KV dim × 2 bytes", w.Batch, w.SeqLen, s.Layers, s.KVDim)
	}
	return fmt.Sprintf("%d requests × %d tokens × %s bytes/token (%s)", w.Batch, w.SeqLen, num(s.KVPerToken), s.Attention)
}

func roundBreakdown(b Breakdown) Breakdown {
	return Breakdown{round(b.WeightsGB, 2), round(b.ActivationsGB, 2), round(b.GradientsGB, 2),
		round(b.OptimizerGB, 2), round(b.KVCacheGB, 2), round(b.OverheadGB, 2)}
}

// heads is the attention heads: hidden ÷ head dim (KV dim ÷ KV heads), or
// hidden ÷ 128 where the shape does not say (MLA).
func (s Shape) heads() float64 {
	if s.KVHeads > 0 && s.KVDim > 0 {
		return float64(s.Hidden) / (float64(s.KVDim) / float64(s.KVHeads))
	}
	return float64(s.Hidden) / 128
}

// deepspeedBuffers is what ZeRO-3 holds on every card besides its shard,
// bytes: the gradient reduce bucket and the parameter prefetch bucket at
// their defaults, and two layers gathered whole (the running one and the
// prefetched next), 16 bits each. layerParams is the non-embedding
// weight.
func (s Shape) deepspeedBuffers(layerParams float64) float64 {
	return (dsReduceBucket + dsPrefetchBucket + 2*layerParams/float64(max(s.Layers, 1))) * 2
}

// MemoryNote is one assumption of a memory estimate as values: its kind
// and the operands its sentence names. bot/present words it in both
// languages (present.MemoryNoteText); the fields a kind does not use are
// zero.
type MemoryNote struct {
	Kind MemoryNoteKind
	// Explain is how the shape was found (NoteShape), worded where the
	// shape is read.
	Explain Text
	// From is the checkpoint whose shipped format is served (NoteMXFP4,
	// NoteFP8).
	From string
	// N is the layers trained (NoteFreeze), the LoRA rank (NoteLoRA) or
	// the sliding window in tokens (NoteWindow).
	N int
	// Batch and SeqLen are the requests or micro-batch and their tokens.
	Batch, SeqLen int
	// KVBits is the KV cache's bits (NoteKVCache, NoteServing).
	KVBits int
	// Engine, MemUtil and MaxSeqs are the serving engine's settings
	// (NoteServing).
	Engine  string
	MemUtil float64
	MaxSeqs int
	// BytesPerToken and Attention are a layer's stored activations and its
	// attention kind (NoteLayerActivations).
	BytesPerToken float64
	Attention     string
	// Stack is the software stack (NoteStack); Trains says the job trains
	// (NoteStack, NoteUnits).
	Stack  string
	Trains bool
}

// MemoryNoteKind names what a MemoryNote says.
type MemoryNoteKind string

// The memory estimate's assumptions, in the order they are made.
const (
	NoteShape             MemoryNoteKind = "shape"              // the architecture used
	NoteMXFP4             MemoryNoteKind = "mxfp4"              // expert weights served in MXFP4 as shipped
	NoteNF4               MemoryNoteKind = "nf4"                // QLoRA base weights in NF4
	NoteInt4              MemoryNoteKind = "int4"               // 4-bit weights with group-128 scales
	NoteFP8               MemoryNoteKind = "fp8"                // FP8 weights served as shipped
	NoteInt8              MemoryNoteKind = "int8"               // 8-bit weights
	NoteMixedAdamW        MemoryNoteKind = "mixed_adamw"        // full fine-tuning: 16 bytes per parameter
	NoteFreeze            MemoryNoteKind = "freeze"             // freeze tuning trains the last N layers
	NoteLoRA              MemoryNoteKind = "lora"               // LoRA rank N on all linear layers
	NoteKVCache           MemoryNoteKind = "kv_cache"           // Batch requests of SeqLen tokens, KV in KVBits
	NoteServing           MemoryNoteKind = "serving"            // the serving engine's settings
	NoteMLA               MemoryNoteKind = "mla"                // the cache holds MLA's latent
	NoteWindow            MemoryNoteKind = "window"             // sliding-window layers keep N tokens
	NoteFrozenActivations MemoryNoteKind = "frozen_activations" // frozen layers keep no activations
	NoteCheckpointing     MemoryNoteKind = "checkpointing"      // gradient checkpointing on
	NoteNoCheckpointing   MemoryNoteKind = "no_checkpointing"   // gradient checkpointing off
	NoteLayerActivations  MemoryNoteKind = "layer_activations"  // stored activations per layer
	NoteStack             MemoryNoteKind = "stack"              // the software stack sized for
	NoteUnits             MemoryNoteKind = "units"              // GB and how a card's size is read
)
