package advisor

import (
	"fmt"
	"math"
	"sort"

	"github.com/gpubot/gpubot/knowledge"
)

// Method is how the model is used: served, or trained in one of four ways.
type Method string

// Methods the memory model knows.
const (
	Inference Method = "inference"
	Full      Method = "full"   // all weights trained, mixed precision
	Freeze    Method = "freeze" // only the last layers trained
	LoRA      Method = "lora"   // low-rank adapters on a 16-bit base
	QLoRA     Method = "qlora"  // low-rank adapters on a 4/8-bit base
)

// Methods lists every method in a stable order (for help texts).
var Methods = []Method{Inference, Full, Freeze, LoRA, QLoRA}

// Optimizer is the training optimizer; it sets bytes of state per parameter.
type Optimizer string

// Optimizers the memory model knows.
const (
	AdamW     Optimizer = "adamw"     // two fp32 moments
	AdamW8bit Optimizer = "adamw8bit" // bitsandbytes 8-bit moments
)

// Defaults applied when the user does not say. Batch and sequence length
// follow the cost-performance report's fine-tuning setup (batch 4, 4096).
const (
	DefaultBatch    = 4
	DefaultSeqLen   = 4096
	DefaultLoRARank = 16
	// freezeTrainableLayers follows LLaMA-Factory's freeze_trainable_layers
	// default: the last two decoder layers are trained.
	freezeTrainableLayers = 2
)

// Limits that keep nonsense out of the engine.
const (
	MinParamsB = 0.01
	MaxParamsB = 2000
	MaxBatch   = 4096
	MaxSeqLen  = 1 << 20
	MaxRank    = 1024
)

// Workload describes a model job. Zero values mean "use the default"; after
// Normalize every field is set and Defaulted names the ones that were filled.
type Workload struct {
	ParamsB   float64   `json:"params_b" yaml:"params_b"`
	Method    Method    `json:"method" yaml:"method"`
	Bits      int       `json:"bits" yaml:"bits"`       // weight precision: 16, 8 or 4
	Batch     int       `json:"batch" yaml:"batch"`     // sequences per step (training) or concurrent requests (inference)
	SeqLen    int       `json:"seq_len" yaml:"seq_len"` // tokens per sequence (training) or context per request (inference)
	NoGC      bool      `json:"no_gc" yaml:"no_gc"`     // gradient checkpointing off (it is on by default)
	Optimizer Optimizer `json:"optimizer" yaml:"optimizer"`
	LoRARank  int       `json:"lora_rank" yaml:"lora_rank"`
	Arch      string    `json:"arch" yaml:"arch"` // reference architecture id; empty picks the closest by size

	Defaulted []string `json:"-"`
}

// Normalize validates w and fills defaults, recording which were filled.
func (w Workload) Normalize() (Workload, error) {
	const hint = "/gpu fit 13b lora"
	w.Defaulted = nil
	switch {
	case math.IsNaN(w.ParamsB) || w.ParamsB == 0:
		return w, inputErr("params_b", "model size is missing (e.g. 7b, 70B, 130亿)", hint)
	case w.ParamsB < 0:
		return w, inputErr("params_b", fmt.Sprintf("model size must be positive, got %sb", num(w.ParamsB)), hint)
	case w.ParamsB < MinParamsB:
		return w, inputErr("params_b", fmt.Sprintf("model size %sb is below the smallest supported %sb", num(w.ParamsB), num(MinParamsB)), hint)
	case w.ParamsB > MaxParamsB:
		return w, inputErr("params_b", fmt.Sprintf("model size %sb is above the largest supported %sb", num(w.ParamsB), num(MaxParamsB)), hint)
	}
	if w.Method == "" {
		w.Method = Inference
		w.Defaulted = append(w.Defaulted, "method")
	}
	switch w.Method {
	case Inference, Full, Freeze, LoRA, QLoRA:
	default:
		return w, inputErr("method", fmt.Sprintf("unknown method %q; use inference, full, freeze, lora or qlora", w.Method), hint)
	}
	if w.Bits == 0 {
		w.Bits = 16
		if w.Method == QLoRA {
			w.Bits = 4
		}
		w.Defaulted = append(w.Defaulted, "bits")
	}
	switch {
	case w.Bits != 16 && w.Bits != 8 && w.Bits != 4:
		return w, inputErr("bits", fmt.Sprintf("bits must be 16, 8 or 4, got %d", w.Bits), "/gpu fit 70b inference bits=4")
	case w.Method == QLoRA && w.Bits == 16:
		return w, inputErr("bits", "qlora quantizes the base model to 4 or 8 bits; for a 16-bit base use lora", "/gpu fit 70b qlora bits=8")
	case (w.Method == Full || w.Method == Freeze || w.Method == LoRA) && w.Bits != 16:
		return w, inputErr("bits", fmt.Sprintf("%s trains on a 16-bit model; for a %d-bit base use qlora", w.Method, w.Bits), "/gpu fit 13b qlora bits=4")
	}
	if w.Batch == 0 {
		w.Batch = DefaultBatch
		w.Defaulted = append(w.Defaulted, "batch")
	}
	if w.Batch < 0 || w.Batch > MaxBatch {
		return w, inputErr("batch", fmt.Sprintf("batch must be between 1 and %d, got %d", MaxBatch, w.Batch), "/gpu fit 7b full bs=8")
	}
	if w.SeqLen == 0 {
		w.SeqLen = DefaultSeqLen
		w.Defaulted = append(w.Defaulted, "seq_len")
	}
	if w.SeqLen < 1 || w.SeqLen > MaxSeqLen {
		return w, inputErr("seq_len", fmt.Sprintf("sequence length must be between 1 and %d tokens, got %d", MaxSeqLen, w.SeqLen), "/gpu fit 70b qlora ctx=32k")
	}
	if w.trains() && w.Optimizer == "" {
		w.Optimizer = AdamW
		w.Defaulted = append(w.Defaulted, "optimizer")
	}
	if w.Optimizer != "" && w.Optimizer != AdamW && w.Optimizer != AdamW8bit {
		return w, inputErr("optimizer", fmt.Sprintf("unknown optimizer %q; use adamw or adamw8bit", w.Optimizer), "/gpu fit 7b full optim=adamw8bit")
	}
	if w.adapters() && w.LoRARank == 0 {
		w.LoRARank = DefaultLoRARank
		w.Defaulted = append(w.Defaulted, "lora_rank")
	}
	if w.LoRARank < 0 || w.LoRARank > MaxRank {
		return w, inputErr("lora_rank", fmt.Sprintf("LoRA rank must be between 1 and %d, got %d", MaxRank, w.LoRARank), "/gpu fit 8b lora rank=64")
	}
	return w, nil
}

func (w Workload) trains() bool   { return w.Method != Inference }
func (w Workload) adapters() bool { return w.Method == LoRA || w.Method == QLoRA }

// Shape is the architecture the memory model sizes activations and the KV
// cache with: a reference architecture, scaled when the asked size is far
// from it.
type Shape struct {
	From    string  `json:"from"`  // reference architecture id
	Scale   float64 `json:"scale"` // 1 when used as is
	Layers  int     `json:"layers"`
	Hidden  int     `json:"hidden"`
	KVDim   int     `json:"kv_dim"` // KV heads × head dim
	Inter   int     `json:"intermediate"`
	Vocab   int     `json:"vocab"`
	Untied  bool    `json:"-"`
	MHA     bool    `json:"mha"` // full multi-head attention (no GQA)
	Explain Text    `json:"-"`
}

// ShapeFor picks the reference architecture closest in parameter count (on a
// log scale). When the asked size is more than 25 % away, layers and widths
// are scaled by (P/Pref)^(1/3) each, since parameters grow as layers × width²;
// KV cache and activations then scale as (P/Pref)^(2/3). This is an
// approximation and the answer says so.
func ShapeFor(paramsB float64, arch string, archs []knowledge.Arch) (Shape, error) {
	if len(archs) == 0 {
		return Shape{}, fmt.Errorf("no reference architectures loaded")
	}
	var ref knowledge.Arch
	if arch != "" {
		found := false
		for _, a := range archs {
			if a.ID == arch {
				ref, found = a, true
			}
		}
		if !found {
			ids := make([]string, 0, len(archs))
			for _, a := range archs {
				ids = append(ids, a.ID)
			}
			sort.Strings(ids)
			return Shape{}, inputErr("arch", fmt.Sprintf("unknown architecture %q; known: %v", arch, ids), "/gpu fit 70b inference arch=llama-3-70b")
		}
	} else {
		best := math.Inf(1)
		for _, a := range archs {
			if d := math.Abs(math.Log(paramsB / a.ParamsB)); d < best {
				best, ref = d, a
			}
		}
	}
	s := Shape{From: ref.ID, Scale: 1, Layers: ref.Layers, Hidden: ref.Hidden,
		KVDim: ref.KVHeads * ref.HeadDim, Inter: ref.Inter, Vocab: ref.Vocab, MHA: ref.KVHeads == ref.Heads}
	ratio := paramsB / ref.ParamsB
	if arch == "" && (ratio > 1.25 || ratio < 0.8) {
		f := math.Cbrt(ratio)
		s.Scale = round(f, 3)
		s.Layers = max(1, int(math.Round(float64(ref.Layers)*f)))
		s.Hidden = int(math.Round(float64(ref.Hidden) * f))
		s.KVDim = int(math.Round(float64(s.KVDim) * f))
		s.Inter = int(math.Round(float64(ref.Inter) * f))
		s.Explain = txt(
			fmt.Sprintf("no reference architecture near %sB: %s scaled by (%s/%s)^(1/3) = %s in layers and width", num(paramsB), ref.ID, num(paramsB), num(ref.ParamsB), num(s.Scale)),
			fmt.Sprintf("没有接近 %sB 的参考结构：以 %s 为基准，层数和宽度各按 (%s/%s)^(1/3) = %s 缩放", num(paramsB), ref.ID, num(paramsB), num(ref.ParamsB), num(s.Scale)))
	} else {
		attn := "GQA"
		if s.MHA {
			attn = "MHA"
		}
		s.Explain = txt(
			fmt.Sprintf("shape from %s: %d layers, hidden %d, KV %d (%s), vocab %d", ref.ID, s.Layers, s.Hidden, s.KVDim, attn, s.Vocab),
			fmt.Sprintf("结构参照 %s：%d 层，隐藏维 %d，KV 维 %d（%s），词表 %d", ref.ID, s.Layers, s.Hidden, s.KVDim, attn, s.Vocab))
	}
	return s, nil
}

// embedParams is the embedding plus output head (untied), which quantizers
// leave in 16 bits.
func (s Shape) embedParams() float64 { return 2 * float64(s.Vocab) * float64(s.Hidden) }

// loraParams counts adapter parameters for rank r on every linear layer of a
// Llama-style block (q, k, v, o, gate, up, down): r × (in + out) each.
func (s Shape) loraParams(rank int) float64 {
	h, kv, i := float64(s.Hidden), float64(s.KVDim), float64(s.Inter)
	perLayer := (h + h) + (h + kv) + (h + kv) + (h + h) + 3*(h+i)
	return float64(rank) * perLayer * float64(s.Layers)
}

// KVBytesPerToken is vLLM's KV-cache size per token: 2 (K and V) × layers ×
// KV heads × head dim × 2 bytes (FP16/BF16 cache).
func (s Shape) KVBytesPerToken() float64 { return 2 * float64(s.Layers) * float64(s.KVDim) * 2 }
