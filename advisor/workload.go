package advisor

import (
	"fmt"
	"math"
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

// Defaults applied when the user does not say. Training follows the
// convention of LLaMA-Factory's and Unsloth's example configs: micro-batch 1
// (per_device_train_batch_size 1–2, with gradient accumulation for the
// effective batch) at 2,048 tokens (cutoff_len 2048 / max_seq_length 2048),
// gradient checkpointing on. Inference sizes one request at a 4,096-token
// context. The cost-performance seed's fine-tuning setup (batch 4 × 4,096)
// is one "bs=4 seq=4096" away.
const (
	DefaultTrainBatch  = 1
	DefaultTrainSeqLen = 2048
	DefaultInferBatch  = 1
	DefaultInferSeqLen = 4096
	DefaultLoRARank    = 16
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
	// Model is a model of the catalogue by id or alias ("deepseek-v3",
	// "Mixtral 8x7B"); its exact size, experts, attention and native
	// weight format are then used, and ParamsB may be left 0.
	Model string `json:"model,omitempty" yaml:"model"`
	// Native is the model's shipped weight format ("fp8", "mxfp4") when
	// Bits was filled from it.
	Native string `json:"native,omitempty" yaml:"-"`

	// Serving settings (inference only; zero = the engine's default).
	// Engine is the serving engine whose defaults apply: "vllm" (the
	// default) or "trtllm". KVBits is the KV cache precision, 16 (BF16)
	// or 8 (FP8). MemUtil is the share of card memory the engine may use
	// (vLLM gpu_memory_utilization over all of it; TensorRT-LLM
	// free_gpu_memory_fraction of what the weights leave). MaxSeqs caps
	// the sequences run at once (vLLM max_num_seqs, TensorRT-LLM
	// max_batch_size).
	Engine  string  `json:"engine,omitempty" yaml:"engine"`
	KVBits  int     `json:"kv_bits,omitempty" yaml:"kv_bits"`
	MemUtil float64 `json:"gpu_mem_util,omitempty" yaml:"gpu_mem_util"`
	MaxSeqs int     `json:"max_seqs,omitempty" yaml:"max_seqs"`
	// Stack is the software whose memory the estimate models: "vllm" (a
	// serving engine, the inference default), "hf" (PyTorch with
	// transformers/PEFT and SDPA/FlashAttention, the training default;
	// generate() for inference), "hf-eager" (hf with eager attention,
	// which materialises the s² scores) or "deepspeed" (ZeRO-3 training:
	// hf plus its buckets and gathered layers). See stackNote.
	Stack string `json:"stack,omitempty" yaml:"stack"`

	Defaulted []string `json:"-"`
}

// Normalize validates w and fills defaults, recording which were filled.
func (w Workload) Normalize() (Workload, error) {
	const hint = "/gpu fit 13b lora"
	w.Defaulted = nil
	if w.Native != "" {
		w.Defaulted = appendDefault(w.Defaulted, "bits")
	}
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
		w.Defaulted = appendDefault(w.Defaulted, "method")
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
		w.Defaulted = appendDefault(w.Defaulted, "bits")
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
		w.Batch = DefaultTrainBatch
		if w.Method == Inference {
			w.Batch = DefaultInferBatch
		}
		w.Defaulted = appendDefault(w.Defaulted, "batch")
	}
	if w.Batch < 0 || w.Batch > MaxBatch {
		return w, inputErr("batch", fmt.Sprintf("batch must be between 1 and %d, got %d", MaxBatch, w.Batch), "/gpu fit 7b full bs=8")
	}
	if w.SeqLen == 0 {
		w.SeqLen = DefaultTrainSeqLen
		if w.Method == Inference {
			w.SeqLen = DefaultInferSeqLen
		}
		w.Defaulted = appendDefault(w.Defaulted, "seq_len")
	}
	if w.SeqLen < 1 || w.SeqLen > MaxSeqLen {
		return w, inputErr("seq_len", fmt.Sprintf("sequence length must be between 1 and %d tokens, got %d", MaxSeqLen, w.SeqLen), "/gpu fit 70b qlora ctx=32k")
	}
	if w.trains() && w.Optimizer == "" {
		w.Optimizer = AdamW
		w.Defaulted = appendDefault(w.Defaulted, "optimizer")
	}
	if w.Optimizer != "" && w.Optimizer != AdamW && w.Optimizer != AdamW8bit {
		return w, inputErr("optimizer", fmt.Sprintf("unknown optimizer %q; use adamw or adamw8bit", w.Optimizer), "/gpu fit 7b full optim=adamw8bit")
	}
	if w.adapters() && w.LoRARank == 0 {
		w.LoRARank = DefaultLoRARank
		w.Defaulted = appendDefault(w.Defaulted, "lora_rank")
	}
	if w.LoRARank < 0 || w.LoRARank > MaxRank {
		return w, inputErr("lora_rank", fmt.Sprintf("LoRA rank must be between 1 and %d, got %d", MaxRank, w.LoRARank), "/gpu fit 8b lora rank=64")
	}
	w, err := w.stack()
	if err != nil {
		return w, err
	}
	return w.serving()
}

// Software stacks the memory model knows (Workload.Stack).
const (
	StackVLLM      = "vllm"
	StackHF        = "hf"
	StackHFEager   = "hf-eager"
	StackDeepSpeed = "deepspeed"
)

// Stacks lists the stacks in a stable order (help, errors).
var Stacks = []string{StackVLLM, StackHF, StackHFEager, StackDeepSpeed}

// stack fills and checks Workload.Stack: vllm for inference, hf for
// training, unless said.
func (w Workload) stack() (Workload, error) {
	if w.Stack == "" {
		w.Stack = StackHF
		if !w.trains() {
			w.Stack = StackVLLM
		}
		w.Defaulted = appendDefault(w.Defaulted, "stack")
	}
	switch {
	case w.Stack != StackVLLM && w.Stack != StackHF && w.Stack != StackHFEager && w.Stack != StackDeepSpeed:
		return w, inputErr("stack", fmt.Sprintf("unknown stack %q; use vllm, hf, hf-eager or deepspeed", w.Stack), "/gpu fit 7b qlora stack=hf")
	case w.trains() && w.Stack == StackVLLM:
		return w, inputErr("stack", "vllm serves models and trains none; for training use hf, hf-eager or deepspeed", "/gpu fit 13b lora stack=deepspeed")
	case !w.trains() && w.Stack == StackDeepSpeed:
		return w, inputErr("stack", "deepspeed is sized as a training stack (ZeRO-3); for serving use vllm (an engine) or hf (transformers generate)", "/gpu fit 70b inference stack=hf")
	}
	return w, nil
}

// generate reports whether an inference workload runs on transformers'
// generate() (stack hf or hf-eager) rather than a serving engine.
func (w Workload) generate() bool {
	return !w.trains() && (w.Stack == StackHF || w.Stack == StackHFEager)
}

// Serving engines and their defaults.
const (
	EngineVLLM   = "vllm"
	EngineTRTLLM = "trtllm"
	// DefaultMemUtil is vLLM's gpu_memory_utilization default and
	// TensorRT-LLM's KvCacheConfig.free_gpu_memory_fraction default (0.9).
	DefaultMemUtil = 0.9
	// TRTLLMMaxSeqs is TensorRT-LLM's max_batch_size default (2048, LLM API
	// BuildConfig); vLLM's max_num_seqs default is DefaultMaxSeqs (256).
	TRTLLMMaxSeqs = 2048
)

// serving fills the serving settings of an inference workload with its
// engine's defaults, recording which were filled. KV cache: vLLM's
// kv_cache_dtype "auto" keeps the model's 16 bits; TensorRT-LLM's FP8
// (ModelOpt) checkpoints quantise the KV cache to FP8 too, so 8-bit
// weights there default to an FP8 cache.
func (w Workload) serving() (Workload, error) {
	const hint = "/gpu fit 70b inference kv_bits=8 gpu_mem_util=0.9 max_seqs=256"
	if w.trains() {
		for _, set := range []struct {
			field string
			given bool
		}{{"engine", w.Engine != ""}, {"kv_bits", w.KVBits != 0}, {"gpu_mem_util", w.MemUtil != 0}, {"max_seqs", w.MaxSeqs != 0}} {
			if set.given {
				return w, inputErr(set.field, "engine, kv_bits, gpu_mem_util and max_seqs are serving settings; training keeps no KV cache", "/gpu fit 13b lora")
			}
		}
		return w, nil
	}
	if w.generate() {
		// transformers' generate(): no engine, no memory fraction, no
		// sequence cap; the KV cache is the model's dtype unless said.
		if w.MemUtil != 0 || w.MaxSeqs != 0 || w.Engine != "" {
			return w, inputErr("engine", "engine, gpu_mem_util and max_seqs are serving-engine settings; stack=hf runs transformers' generate(), which has none", "/gpu fit 8b inference stack=vllm gpu_mem_util=0.9")
		}
		if w.KVBits == 0 {
			w.KVBits = 16
			w.Defaulted = appendDefault(w.Defaulted, "kv_bits")
		}
		if w.KVBits != 16 && w.KVBits != 8 {
			return w, inputErr("kv_bits", fmt.Sprintf("kv_bits must be 16 (BF16 KV cache) or 8 (FP8), got %d", w.KVBits), hint)
		}
		return w, nil
	}
	switch w.Engine {
	case "":
		w.Engine = EngineVLLM
		w.Defaulted = appendDefault(w.Defaulted, "engine")
	case EngineVLLM, EngineTRTLLM:
	default:
		return w, inputErr("engine", fmt.Sprintf("unknown serving engine %q; use vllm or trtllm", w.Engine), "/gpu fit 70b inference engine=trtllm")
	}
	if w.KVBits == 0 {
		w.KVBits = 16
		if w.Engine == EngineTRTLLM && w.Bits == 8 {
			w.KVBits = 8
		}
		w.Defaulted = appendDefault(w.Defaulted, "kv_bits")
	}
	if w.KVBits != 16 && w.KVBits != 8 {
		return w, inputErr("kv_bits", fmt.Sprintf("kv_bits must be 16 (BF16 KV cache) or 8 (FP8), got %d", w.KVBits), hint)
	}
	if w.MemUtil == 0 {
		w.MemUtil = DefaultMemUtil
		w.Defaulted = appendDefault(w.Defaulted, "gpu_mem_util")
	}
	if math.IsNaN(w.MemUtil) || w.MemUtil < 0.1 || w.MemUtil > 1 {
		return w, inputErr("gpu_mem_util", fmt.Sprintf("gpu_mem_util is the share of card memory the engine may use, between 0.1 and 1, got %s", num(w.MemUtil)), hint)
	}
	if w.MaxSeqs == 0 {
		w.MaxSeqs = DefaultMaxSeqs
		if w.Engine == EngineTRTLLM {
			w.MaxSeqs = TRTLLMMaxSeqs
		}
		w.Defaulted = appendDefault(w.Defaulted, "max_seqs")
	}
	if w.MaxSeqs < 1 || w.MaxSeqs > 65536 {
		return w, inputErr("max_seqs", fmt.Sprintf("max_seqs must be between 1 and 65536, got %d", w.MaxSeqs), hint)
	}
	return w, nil
}

// kvScale is the KV cache's bytes over BF16's.
func (w Workload) kvScale() float64 {
	if w.KVBits == 8 {
		return 0.5
	}
	return 1
}

func (w Workload) trains() bool   { return w.Method != Inference }
func (w Workload) adapters() bool { return w.Method == LoRA || w.Method == QLoRA }

// appendDefault records a defaulted setting, making room for all of them
// on the first (a workload defaults several): one allocation, not one per
// doubling.
func appendDefault(d []string, name string) []string {
	if d == nil {
		d = make([]string, 0, 12)
	}
	return append(d, name)
}
