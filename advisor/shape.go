package advisor

import (
	"fmt"
	"math"
	"sort"

	"github.com/gpubot/gpubot/knowledge"
)

// Shape is the architecture the memory, FLOP and throughput maths use: a
// model of the catalogue as it is, or — for a bare size — the nearest dense
// reference architecture, scaled when the asked size is far from it.
type Shape struct {
	From   string  `json:"from"`  // catalogue id the shape comes from
	Scale  float64 `json:"scale"` // 1 when used as is
	Exact  bool    `json:"exact"` // the named model itself, not a stand-in
	Layers int     `json:"layers"`
	Hidden int     `json:"hidden"`
	KVDim  int     `json:"kv_dim"` // KV heads × head dim (0 for MLA)
	// KVHeads is the key/value heads a tensor-parallel split divides (0
	// for MLA, whose one latent per token is not split by heads).
	KVHeads int  `json:"kv_heads,omitempty"`
	Inter   int  `json:"intermediate"`
	Vocab   int  `json:"vocab"`
	Untied  bool `json:"-"`
	MHA     bool `json:"mha"` // full multi-head attention (no GQA)

	Attention string `json:"attention"` // MHA, GQA, MLA, GQA+CLA
	// ParamsB is every weight; ComputeB the weights one token's matrix
	// multiplies touch (active parameters of a mixture of experts).
	ParamsB  float64 `json:"params_b"`
	ComputeB float64 `json:"compute_params_b"`
	// RoutedB is the weight in routed experts (all of them), 0 for dense.
	RoutedB float64 `json:"routed_params_b,omitempty"`
	Experts int     `json:"experts,omitempty"`
	// MoELayers is how many layers route to experts: the routed weight ÷
	// one layer's experts (E × 3 × hidden × expert width), which counts
	// dense-first and interleaved layouts alike.
	MoELayers     int `json:"moe_layers,omitempty"`
	ActiveExperts int `json:"active_experts,omitempty"`
	// MLPWidth is the MLP width one token passes through: the dense
	// intermediate size, or activated + shared experts × the expert width.
	MLPWidth int `json:"mlp_width"`
	// KV cache, BF16 bytes per token: all layers without a window cap, and
	// the split into global and windowed layers where the model has them.
	KVPerToken float64 `json:"kv_bytes_per_token"`
	KVGlobal   float64 `json:"kv_global_bytes_per_token,omitempty"`
	KVLocal    float64 `json:"kv_local_bytes_per_token,omitempty"`
	Window     int     `json:"window,omitempty"`
	Format     string  `json:"format"` // native weight format: bf16, fp8, mxfp4
	Confidence string  `json:"confidence"`
	Explain    Text    `json:"-"`
}

// MoE reports whether the shape routes tokens to a few experts.
func (s Shape) MoE() bool { return s.RoutedB > 0 }

// KVBytesPerToken is the BF16 KV cache per token over all layers, with no
// window cap (the vLLM formula 2 × layers × KV heads × head dim × 2 bytes for
// MHA/GQA; the compressed latent for MLA).
func (s Shape) KVBytesPerToken() float64 { return s.KVPerToken }

// KVBytes is the BF16 KV cache one sequence of ctx tokens holds; layers
// that attend to a window keep at most Window tokens.
func (s Shape) KVBytes(ctx int) float64 {
	if s.Window > 0 && s.KVLocal > 0 {
		return s.KVGlobal*float64(ctx) + s.KVLocal*float64(min(ctx, s.Window))
	}
	return s.KVPerToken * float64(ctx)
}

// stands in reports whether an architecture may stand in for a bare size:
// dense, full attention (a window cap is model-specific), high confidence.
func standsIn(a *knowledge.Arch) bool {
	return !a.MoE() && a.SlidingWindow == 0 && a.Confidence == "high" && (a.Attention == "MHA" || a.Attention == "GQA")
}

// standIns is the architectures a bare size may be shaped like (standsIn),
// in catalogue order.
func standIns(archs []knowledge.Arch) []knowledge.Arch {
	var out []knowledge.Arch
	for i := range archs {
		if standsIn(&archs[i]) {
			out = append(out, archs[i])
		}
	}
	return out
}

// findArch finds a catalogue model by id (fast path) or alias.
func findArch(archs []knowledge.Arch, name string) (knowledge.Arch, bool) {
	for _, a := range archs {
		if a.ID == name {
			return a, true
		}
	}
	return knowledge.FindArch(archs, name)
}

// ResolveModel looks up w.Model in the catalogue: it sets the model's exact
// size and, for inference with no precision given, its shipped weight format
// (DeepSeek-V3 and R1 ship FP8, gpt-oss MXFP4 experts), which Normalize then
// reports as defaulted.
func ResolveModel(w Workload, archs []knowledge.Arch) (Workload, error) {
	if w.Model == "" {
		return w, nil
	}
	a, ok := findArch(archs, w.Model)
	if !ok {
		return w, inputErr("model", fmt.Sprintf("unknown model %q; name one of the catalogue (e.g. deepseek-v3, qwen3-30b-a3b, llama-3.1-70b) or give a size like 70b", w.Model), "/gpu fit 70b inference")
	}
	w.Model, w.Arch, w.ParamsB = a.ID, a.ID, a.ParamsB
	if w.Bits == 0 && (w.Method == "" || w.Method == Inference) {
		switch a.WeightFormat() {
		case "fp8":
			w.Bits, w.Native = 8, "fp8"
		case "mxfp4":
			w.Bits, w.Native = 4, "mxfp4"
		}
	}
	return w, nil
}

// ShapeFor picks the architecture: the named one (arch, by id or alias), or
// for a bare size the stand-in architecture closest in parameter count on a
// log scale. When the asked size is more than 25 % away, layers and widths
// are scaled by (P/Pref)^(1/3) each, since parameters grow as layers ×
// width²; KV cache and activations then scale as (P/Pref)^(2/3). This is an
// approximation and the answer says so.
func ShapeFor(paramsB float64, arch string, archs []knowledge.Arch) (Shape, error) {
	return shapeFor(paramsB, arch, archs, false)
}

// shapeFor is ShapeFor; quiet leaves Explain empty (the figures are the
// same).
func shapeFor(paramsB float64, arch string, archs []knowledge.Arch, quiet bool) (Shape, error) {
	if len(archs) == 0 {
		return Shape{}, fmt.Errorf("no reference architectures loaded")
	}
	var ref knowledge.Arch
	if arch != "" {
		a, found := findArch(archs, arch)
		if !found {
			ids := make([]string, 0, len(archs))
			for _, a := range archs {
				ids = append(ids, a.ID)
			}
			sort.Strings(ids)
			return Shape{}, inputErr("arch", fmt.Sprintf("unknown architecture %q; known: %v", arch, ids), "/gpu fit 70b inference arch=llama-3-70b")
		}
		ref = a
	} else {
		// The nearest in log size: the least of p/a and a/p above 1,
		// which orders as |ln(p/a)| does without a logarithm per model.
		best := math.Inf(1)
		for i := range archs {
			a := &archs[i]
			if !standsIn(a) {
				continue
			}
			d := paramsB / a.ParamsB
			if d < 1 {
				d = 1 / d
			}
			if d < best {
				best, ref = d, *a
			}
		}
	}
	s := Shape{From: ref.ID, Scale: 1, Exact: arch != "", Layers: ref.Layers, Hidden: ref.Hidden,
		KVDim: ref.KVHeads * ref.HeadDim, KVHeads: ref.KVHeads, Inter: ref.Inter, Vocab: ref.Vocab, Untied: !ref.Tied,
		MHA: ref.Attention == "MHA", Attention: ref.Attention,
		ParamsB: paramsB, ComputeB: paramsB, MLPWidth: ref.Inter,
		KVPerToken: ref.KVBytesPerToken, Format: "bf16", Confidence: ref.Confidence}
	if ref.Attention == "MLA" {
		s.KVDim, s.KVHeads = 0, 0
	}
	if arch != "" {
		s.Format = ref.WeightFormat()
		if ref.SlidingWindow > 0 && ref.LocalLayers > 0 && ref.KVBytesLocal > 0 {
			s.KVGlobal, s.KVLocal, s.Window = ref.KVBytesGlobal, ref.KVBytesLocal, ref.SlidingWindow
		}
		if ref.MoE() {
			// The model's own totals, scaled to the asked size when a
			// caller gave another (arch= with a size).
			k := paramsB / ref.ParamsB
			s.ComputeB = ref.ActiveParamsB * k
			s.RoutedB = ref.RoutedParamsB() * k
			s.Experts, s.ActiveExperts = ref.RoutedExperts, ref.ActivatedExperts
			shared := ref.SharedExpertInter
			if shared == 0 {
				shared = ref.SharedExperts * ref.MoEInter
			}
			s.MLPWidth = ref.ActivatedExperts*ref.MoEInter + shared
			s.MoELayers = ref.Layers - ref.DenseLayers
			if perLayer := float64(ref.RoutedExperts) * 3 * float64(ref.Hidden) * float64(ref.MoEInter); perLayer > 0 {
				s.MoELayers = min(ref.Layers, max(1, int(math.Round(ref.RoutedParamsB()*1e9/perLayer))))
			}
		}
	}
	ratio := paramsB / ref.ParamsB
	if arch == "" && (ratio > 1.25 || ratio < 0.8) {
		f := math.Cbrt(ratio)
		s.Scale = round(f, 3)
		s.Layers = max(1, int(math.Round(float64(ref.Layers)*f)))
		s.Hidden = int(math.Round(float64(ref.Hidden) * f))
		s.KVDim = int(math.Round(float64(s.KVDim) * f))
		s.Inter = int(math.Round(float64(ref.Inter) * f))
		s.MLPWidth = s.Inter
		s.KVPerToken = 2 * float64(s.Layers) * float64(s.KVDim) * 2
		if quiet {
			return s, nil
		}
		s.Explain = txt(
			fmt.Sprintf("no catalogue model near %sB: %s (dense) scaled by (%s/%s)^(1/3) = %s in layers and width — an approximation; name the model for exact figures",
				num(paramsB), ref.ID, num(paramsB), num(ref.ParamsB), num(s.Scale)),
			fmt.Sprintf("目录中没有接近 %sB 的模型：以 %s（稠密）为基准，层数和宽度各按 (%s/%s)^(1/3) = %s 缩放，属近似；给出模型名可得精确结果",
				num(paramsB), ref.ID, num(paramsB), num(ref.ParamsB), num(s.Scale)))
		return s, nil
	}
	if quiet {
		return s, nil
	}
	attn := ref.Attention
	if s.Window > 0 {
		attn += fmt.Sprintf(", %d of %d layers see a %d-token window", ref.LocalLayers, ref.Layers, ref.SlidingWindow)
	}
	switch {
	case arch != "" && ref.MoE():
		s.Explain = txt(
			fmt.Sprintf("%s: mixture of experts, %sB parameters in memory (all %d experts), %sB active per token (%d of %d routed experts); %d layers, hidden %d, %s, vocab %d (%s confidence)",
				ref.ID, num(round(paramsB, 2)), ref.RoutedExperts, num(round(s.ComputeB, 2)), ref.ActivatedExperts, ref.RoutedExperts, s.Layers, s.Hidden, attn, s.Vocab, ref.Confidence),
			fmt.Sprintf("%s：混合专家模型，显存里放全部 %d 个专家共 %sB 参数，每 token 激活 %sB（%d/%d 个路由专家）；%d 层，隐藏维 %d，%s，词表 %d（可信度 %s）",
				ref.ID, ref.RoutedExperts, num(round(paramsB, 2)), num(round(s.ComputeB, 2)), ref.ActivatedExperts, ref.RoutedExperts, s.Layers, s.Hidden, attn, s.Vocab, ref.Confidence))
	case arch != "":
		s.Explain = txt(
			fmt.Sprintf("%s: %d layers, hidden %d, %s, KV %s bytes/token, vocab %d (%s confidence)", ref.ID, s.Layers, s.Hidden, attn, num(s.KVPerToken), s.Vocab, ref.Confidence),
			fmt.Sprintf("%s：%d 层，隐藏维 %d，%s，KV 每 token %s 字节，词表 %d（可信度 %s）", ref.ID, s.Layers, s.Hidden, attn, num(s.KVPerToken), s.Vocab, ref.Confidence))
	default:
		s.Explain = txt(
			fmt.Sprintf("a %sB dense model sized like %s: %d layers, hidden %d, %s, vocab %d", num(paramsB), ref.ID, s.Layers, s.Hidden, attn, s.Vocab),
			fmt.Sprintf("按 %s 的结构估算 %sB 稠密模型：%d 层，隐藏维 %d，%s，词表 %d", ref.ID, num(paramsB), s.Layers, s.Hidden, attn, s.Vocab))
	}
	return s, nil
}

// embedParams is the embedding plus output head (untied), which quantizers
// leave in 16 bits.
func (s Shape) embedParams() float64 {
	e := float64(s.Vocab) * float64(s.Hidden)
	if s.Untied {
		return 2 * e
	}
	return e
}

// loraParams counts adapter parameters for rank r on every linear layer of
// a Llama-style block (q, k, v, o, gate, up, down): r × (in + out) each. A
// mixture of experts gets adapters on the MLP width one token passes
// through (activated + shared experts); adapting every expert multiplies
// that part by experts ÷ activated.
func (s Shape) loraParams(rank int) float64 {
	h, kv, i := float64(s.Hidden), float64(s.KVDim), float64(s.MLPWidth)
	if kv == 0 { // MLA: the latent projections are about hidden-wide
		kv = h
	}
	perLayer := (h + h) + (h + kv) + (h + kv) + (h + h) + 3*(h+i)
	return float64(rank) * perLayer * float64(s.Layers)
}

// actBytesPerToken is one layer's activations stored for the backward pass,
// in bytes per token, for a Llama-style block (pre-norm RMSNorm, attention
// with kv-wide K and V, a gated MLP of width i, no dropout) in 16-bit
// training with FlashAttention. What autograd keeps, tensor by tensor:
//
//	attention norm input (residual stream)        2·h
//	its output, the input of the q/k/v projections 2·h
//	Q, K and V after RoPE (FlashAttention's saved) 2·h + 2·kv + 2·kv
//	attention output, input of the o projection   2·h
//	MLP norm input                                2·h
//	its output, the input of gate and up          2·h
//	gate output (SiLU input), up output           2·i + 2·i
//	SiLU(gate), SiLU(gate)·up (input of down)     2·i + 2·i
//
// = 12·h + 4·kv + 8·i, i.e. s·b·h·(12 + 4·kv/h + 8·i/h) per layer. For a
// GPT-3 layer (kv = h, a 4h GeLU MLP storing 4·i, two dropout masks of
// 1 byte) the same count gives Korthikanti et al.'s 34·s·b·h. Llama-3-8B:
// 12 + 4·1024/4096 + 8·14336/4096 = 41 per hidden unit, 21 % above 34.
// MLA (DeepSeek) decompresses K and V to the full width (kv = h); a
// mixture of experts stores the MLP of every expert a token visits
// (MLPWidth). Hugging Face's eager RMSNorm also keeps an FP32 copy of its
// input (2 more bytes per norm); fused norms (Liger, Apex, Transformer
// Engine) do not, and that copy is left out.
func (s Shape) actBytesPerToken() float64 {
	return 12*float64(s.Hidden) + 4*s.actKV() + 8*float64(s.MLPWidth)
}

// actKV is the K/V width a layer stores for backward: KV heads × head dim,
// or the full width where MLA decompresses them.
func (s Shape) actKV() float64 {
	if s.KVDim == 0 {
		return float64(s.Hidden)
	}
	return float64(s.KVDim)
}

// kvShare is the part of one replica's KV cache each of n cards holds.
// Tensor parallel (up to one machine, tp = min(n, 8)) splits the KV heads:
// a card keeps ceil(kv_heads ÷ tp) of them, so past tp = kv_heads the heads
// are copied, not split further (vLLM replicates a KV head over tp ÷
// kv_heads ranks). An MLA latent has no heads: every tensor-parallel rank
// keeps it whole (vLLM's and SGLang's MLA backends; only data-parallel
// attention splits it). Across machines (n > 8) pipeline stages split the
// layers, and with them the cache.
func (s Shape) kvShare(n int) float64 {
	if n <= 1 {
		return 1
	}
	tp := min(n, machineCards)
	pp := float64(n) / float64(tp)
	heads := 1.0 / float64(tp) // no head count known: an even split
	switch {
	case s.Attention == "MLA":
		heads = 1
	case s.KVHeads > 0:
		heads = math.Ceil(float64(s.KVHeads)/float64(tp)) / float64(s.KVHeads)
	}
	return heads / pp
}
