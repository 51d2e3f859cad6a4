package advisor

import (
	"fmt"
	"math"

	"github.com/gpubot/gpubot/knowledge"
)

// KernelClass is the family of matrix kernels a served model runs on, which
// sets the compute peak it can use and how close to the rooflines it gets.
type KernelClass string

// Kernel classes.
const (
	KernelBF16 KernelClass = "bf16" // 16-bit weights and activations
	KernelFP8  KernelClass = "fp8"  // FP8 weights and activations on a card with FP8 tensor cores (W8A8)
	KernelW8   KernelClass = "w8"   // 8-bit weights dequantised to 16-bit (no FP8 tensor cores, or INT8 weight-only)
	KernelW4   KernelClass = "w4"   // 4-bit weight-only (AWQ/GPTQ/Marlin, MXFP4 experts, GGUF Q4)
)

// kernelEff is how close a kernel class gets to the card's rooflines: the
// share of memory bandwidth a decode step streams at, and the share of the
// class's tensor peak that prefill and batched decode reach.
//
// Calibrated on the "tune" rows of testdata/serving_points.yaml (published
// TensorRT-LLM, llama.cpp, MLC-LLM and ExLlama results, cited there) and
// checked on its "holdout" rows, which were written down before tuning.
// Starting points came from roofline studies: decode kernels stream at
// 70–90 % of HBM peak; serving GEMMs reach 50–70 % of BF16 peak and less of
// FP8 peak (attention and the non-GEMM parts stay 16-bit); 4-bit
// weight-only kernels dequantise on the fly and run at 16-bit peak at best.
type kernelEff struct {
	BW, Prefill, Decode float64
}

var kernelEffs = map[KernelClass]kernelEff{
	KernelBF16: {BW: 0.80, Prefill: 0.60, Decode: 0.50},
	KernelFP8:  {BW: 0.80, Prefill: 0.45, Decode: 0.40},
	KernelW8:   {BW: 0.75, Prefill: 0.45, Decode: 0.40},
	KernelW4:   {BW: 0.70, Prefill: 0.40, Decode: 0.30},
}

// trtllmKernelEffs are TensorRT-LLM's own (engine=trtllm) for the classes
// its published tables cover: its fused FP8 and FP16 kernels do not reach
// what the shared figures, which vLLM, llama.cpp, MLC-LLM and ExLlama rows
// also set, give them. Fitted on the 12 "tune" TensorRT-LLM rows of
// testdata/serving_points.yaml alone (a grid of 0.05 steps within the
// roofline studies' ranges above, least mean |log error|); its 15 held-out
// rows were not looked at while fitting. The other classes keep the shared
// figures.
var trtllmKernelEffs = map[KernelClass]kernelEff{
	KernelBF16: {BW: 0.70, Prefill: 0.70, Decode: 0.30},
	KernelFP8:  {BW: 0.70, Prefill: 0.65, Decode: 0.30},
}

// effFor is the kernel class's efficiencies under a serving engine.
func effFor(class KernelClass, engine string) kernelEff {
	if engine == EngineTRTLLM {
		if e, ok := trtllmKernelEffs[class]; ok {
			return e
		}
	}
	return kernelEffs[class]
}

// Serving-engine constants, each with its source or assumption.
const (
	// stepOverheadS is a decode step's fixed cost outside the kernels:
	// scheduling, sampling and launch gaps between CUDA graphs (about a
	// millisecond in vLLM/TensorRT-LLM traces; assumed 1 ms).
	stepOverheadS = 1e-3
	// allReduceLatencyS is the latency of one small all-reduce: about 10 µs
	// over NVLink with custom all-reduce kernels, 30 µs over PCIe.
	allReduceLatencyNVLinkS = 10e-6
	allReduceLatencyPCIeS   = 30e-6
	// A mixture-of-experts layer costs, beyond the bytes it reads, time
	// that does not shrink with the batch (measured on DeepSeek-R1 with
	// SGLang v0.5.7 on 8 × H200, InferenceX issue #870, 2026-03-05: the
	// time per output token rises 21.8 ms from 8 to 64 concurrent
	// sequences while the experts read grow by 421 GB, i.e. at half the
	// cards' bandwidth, and 8 sequences take 12.8 ms where the roofline
	// gives 7.5):
	//   - moeDispatchS per MoE layer: routing runs about ten small kernels
	//     a dense MLP does not (router GEMM, top-k, sorting tokens by
	//     expert, activation quantisation, the weighted combine), each a
	//     few microseconds launch to launch inside a CUDA graph: 40 µs.
	//   - moeExpertS per expert a card touches in a layer: a grouped GEMM
	//     streams each expert's slice as its own small matrices (DeepSeek's
	//     is 7,168 × 2,048 × 3 split 8 ways, 5.5 MB in FP8), so each pays
	//     tile set-up, block-scale loads and a partly filled last wave:
	//     0.85 µs, which puts those streams at about half of HBM bandwidth.
	// Large experts (Mixtral's 176M-parameter ones) barely notice either;
	// DeepSeek's 256 small experts over 58 layers do.
	moeDispatchS = 40e-6
	moeExpertS   = 0.85e-6
	// DefaultMaxSeqs caps concurrent sequences per replica: vLLM's default
	// max_num_seqs (256).
	DefaultMaxSeqs = 256
	// DefaultServeIn and DefaultServeOut are a chat request's prompt and
	// answer when none are given: 1,000 tokens in, 500 out (the middle of
	// the ISL/OSL grids that serving benchmarks publish).
	DefaultServeIn  = 1000
	DefaultServeOut = 500
)

// classFor picks the kernel class for bits on card g.
func classFor(bits int, g knowledge.GPU) KernelClass {
	switch {
	case bits == 8 && g.FP8TFLOPS > 0:
		return KernelFP8
	case bits == 8:
		return KernelW8
	case bits == 4:
		return KernelW4
	}
	return KernelBF16
}

// classPeak is the dense tensor peak (TFLOPS) the class computes at on g.
func classPeak(c KernelClass, g knowledge.GPU) float64 {
	if c == KernelFP8 {
		return g.FP8TFLOPS
	}
	return g.PeakTFLOPS()
}

// ServeInput is one replica serving requests of InputTokens in and
// OutputTokens out, Concurrency at a time, tensor parallel over Cards.
type ServeInput struct {
	Workload     Workload
	GPU          knowledge.GPU
	Cards        int // tensor-parallel size; must hold the model
	InputTokens  int
	OutputTokens int
	Concurrency  int // 0 = as many as the KV cache holds, up to MaxSeqs
	MaxSeqs      int // engine cap on concurrent sequences; 0 = DefaultMaxSeqs
}

// Serving is the throughput of one replica, every step written out.
//
// A request first runs its prompt through the model (prefill): 2·N_active
// FLOPs per token plus causal attention 2·layers·hidden·in², compute bound.
// It then decodes one token per step together with the other sequences in
// the batch. A step reads the weights it touches (all of a dense model; for
// a mixture of experts the shared part plus the experts the batch selects,
// 1 − (1 − k/E)^batch of them per layer with uniform routing) and every
// sequence's KV cache, and computes 2·N_active + 4·layers·hidden·context
// FLOPs per sequence: it takes the longer of the bandwidth and compute
// times, plus tensor-parallel all-reduces (two per layer, ring 2(n−1)/n of
// batch × hidden × 2 bytes, plus a fixed latency each) and a fixed step
// overhead. With continuous batching the replica's output rate is
// batch × out ÷ (batch × prefill + out × step).
type Serving struct {
	GPU              string      `json:"gpu"`
	Cards            int         `json:"cards"`
	Class            KernelClass `json:"kernel_class"`
	InputTokens      int         `json:"input_tokens"`
	OutputTokens     int         `json:"output_tokens"`
	Concurrency      int         `json:"concurrency"`
	ConcurrencyLimit int         `json:"concurrency_limit"` // what the KV cache holds at the average context
	Context          int         `json:"context"`           // average tokens cached per sequence while decoding
	PrefillSeconds   float64     `json:"prefill_s"`         // one request's prompt
	TTFTms           float64     `json:"ttft_ms"`
	StepMemoryS      float64     `json:"step_memory_s"`
	StepComputeS     float64     `json:"step_compute_s"`
	StepCommS        float64     `json:"step_comm_s"`
	StepMoES         float64     `json:"step_moe_s,omitempty"` // expert routing and per-expert GEMM set-up (MoE)
	StepSeconds      float64     `json:"step_s"`
	Bound            string      `json:"bound"`            // memory or compute (decode)
	PerSequenceTPS   float64     `json:"per_sequence_tps"` // decode speed one user sees
	TokensPerS       float64     `json:"tokens_per_s"`     // output tokens/s per replica
	ExpertCoverage   float64     `json:"expert_coverage,omitempty"`
	Lines            []Line      `json:"lines"`
	Assumptions      []Text      `json:"assumptions"`

	stepWeights, kvBytes, pfFLOPs float64 // for the lines, written only for the replica answered
}

// Serve computes one replica's prefill, decode and output throughput.
func Serve(in ServeInput, archs []knowledge.Arch) (Serving, error) {
	w := in.Workload
	w.Method = Inference
	if in.InputTokens <= 0 {
		in.InputTokens = DefaultServeIn
	}
	if in.OutputTokens <= 0 {
		in.OutputTokens = DefaultServeOut
	}
	w.SeqLen = in.InputTokens + in.OutputTokens
	w.Batch = 1
	mem, err := EstimateMemory(w, archs)
	if err != nil {
		return Serving{}, err
	}
	g := in.GPU
	if g.BandwidthGBs <= 0 || g.PeakTFLOPS() <= 0 {
		return Serving{}, inputErr("gpu", fmt.Sprintf("no bandwidth or compute figure for %s; give tps=", g.Name), "/gpu cost 70b inference on h100 tps=1000")
	}
	n := max(in.Cards, 1)
	lim, err := newLimits(mem, archs)
	if err != nil {
		return Serving{}, err
	}
	s := serveOn(g, n, mem, lim, in)
	s.lines(g, mem)
	return s, nil
}

// serveOn runs the model for a sized workload (mem at 1 request of in+out
// tokens) on n cards of g.
func serveOn(g knowledge.GPU, n int, mem Memory, lim limits, in ServeInput) Serving {
	sh := mem.Shape
	w := mem.Workload
	class := classFor(w.Bits, g)
	eff := effFor(class, w.Engine)
	I, O := in.InputTokens, in.OutputTokens
	ctx := I + O/2
	s := Serving{GPU: g.ID, Cards: n, Class: class, InputTokens: I, OutputTokens: O, Context: ctx}

	// Concurrency: what the KV cache holds at the average context (paged
	// KV grows with each sequence), capped by the engine.
	// Each card holds its share of a sequence's KV (kvShare: split by
	// head, copied past tp = kv_heads, an MLA latent whole on every rank).
	kvSeq := sh.KVBytes(ctx) * w.kvScale() / bytesPerGB
	limit := int(math.Floor(lim.seqs(g.VRAMGB, kvSeq, n) + 1e-9))
	maxSeqs := in.MaxSeqs
	if maxSeqs <= 0 {
		maxSeqs = w.MaxSeqs
	}
	if maxSeqs <= 0 {
		maxSeqs = DefaultMaxSeqs
	}
	s.ConcurrencyLimit = max(0, limit)
	B := in.Concurrency
	if B <= 0 {
		B = min(max(limit, 1), maxSeqs)
	}
	s.Concurrency = B

	peak := float64(n) * classPeak(class, g) * 1e12
	bw := float64(n) * g.BandwidthGBs * 1e9 * eff.BW
	active := sh.ComputeB * 1e9
	L, h := float64(sh.Layers), float64(sh.Hidden)

	// Tensor-parallel all-reduce: two per layer.
	allReduce := func(tokens float64) float64 {
		if n <= 1 {
			return 0
		}
		link, lat := linkGBs(g)
		return L * 2 * (lat + 2*float64(n-1)/float64(n)*tokens*h*2/(link*1e9))
	}

	// Prefill of one request.
	pfFLOPs := float64(I)*2*active + 2*L*h*float64(I)*float64(I)
	s.PrefillSeconds = pfFLOPs/(peak*eff.Prefill) + allReduce(float64(I))
	s.TTFTms = round(s.PrefillSeconds*1000+stepOverheadS*1000, 1)

	// Decode step at batch B.
	weightBytes := mem.weightBytes
	stepWeights := weightBytes
	if sh.MoE() && sh.Experts > 0 {
		routedBytes := weightBytes * sh.RoutedB / sh.ParamsB
		s.ExpertCoverage = 1 - math.Pow(1-float64(sh.ActiveExperts)/float64(sh.Experts), float64(B))
		stepWeights = weightBytes - routedBytes + routedBytes*s.ExpertCoverage
	}
	// A card streams its slice of the weights and the KV it holds: a
	// copied head or an MLA latent is read on every card that keeps it.
	kvBytes := float64(B) * sh.KVBytes(ctx) * w.kvScale()
	s.StepMemoryS = (stepWeights + kvBytes*sh.kvShare(n)*float64(n)) / bw
	s.StepComputeS = float64(B) * (2*active + 4*L*h*float64(ctx)) / (peak * eff.Decode)
	s.StepCommS = allReduce(float64(B))
	if s.ExpertCoverage > 0 {
		s.StepMoES = float64(sh.MoELayers) * (moeDispatchS + s.ExpertCoverage*float64(sh.Experts)*moeExpertS)
	}
	s.StepSeconds, s.Bound = s.StepMemoryS, "memory"
	if s.StepComputeS > s.StepMemoryS {
		s.StepSeconds, s.Bound = s.StepComputeS, "compute"
	}
	s.StepSeconds += s.StepCommS + s.StepMoES + stepOverheadS
	s.PerSequenceTPS = 1 / s.StepSeconds
	s.TokensPerS = float64(B) * float64(O) / (float64(B)*s.PrefillSeconds + float64(O)*s.StepSeconds)
	s.stepWeights, s.kvBytes, s.pfFLOPs = stepWeights, kvBytes, pfFLOPs
	return s
}

// linkGBs is the per-direction card-to-card bandwidth tensor parallelism
// uses and the latency of one all-reduce over it: NVLink or another
// scale-up fabric (half its bidirectional figure), else the PCIe link.
func linkGBs(g knowledge.GPU) (float64, float64) {
	if l := g.LinkGBs(); l > 0 {
		return l / 2, allReduceLatencyNVLinkS
	}
	bw, ok := pcieGBs[g.PCIeGen]
	if !ok {
		bw = pcieGBs[4]
	}
	return bw, allReduceLatencyPCIeS
}

func linkHow(g knowledge.GPU) string {
	if g.NVLinkGBs > 0 {
		return fmt.Sprintf("NVLink %s GB/s ÷ 2 per direction", num(g.NVLinkGBs))
	}
	if g.FabricGBs > 0 {
		return fmt.Sprintf("%s %s GB/s ÷ 2 per direction", g.Fabric, num(g.FabricGBs))
	}
	bw, _ := linkGBs(g)
	return fmt.Sprintf("PCIe Gen%d ≈ %s GB/s per direction", g.PCIeGen, num(bw))
}

// lines writes the steps; run once, for the replica that is answered.
func (s *Serving) lines(g knowledge.GPU, mem Memory) {
	sh := mem.Shape
	eff := effFor(s.Class, mem.Workload.Engine)
	stepWeights, pfFLOPs := s.stepWeights, s.pfFLOPs
	peak := classPeak(s.Class, g)
	peakName := "BF16/FP16"
	if s.Class == KernelFP8 {
		peakName = "FP8"
	}
	weightHow := fmt.Sprintf("%s GB weights", num(round(stepWeights/bytesPerGB, 2)))
	if s.ExpertCoverage > 0 {
		weightHow = fmt.Sprintf("%s GB weights touched (shared + %s%% of experts: 1 − (1 − %d/%d)^%d)", num(round(stepWeights/bytesPerGB, 2)),
			num(round(s.ExpertCoverage*100, 1)), sh.ActiveExperts, sh.Experts, s.Concurrency)
	}
	s.Lines = append(s.Lines,
		Line{Key: "concurrency", Label: txt("concurrent sequences", "并发序列数"), Value: float64(s.Concurrency), Unit: "requests",
			How: fmt.Sprintf("KV cache on %d × %s holds %d sequences of %d tokens on average (%d in + %d out ÷ 2)", s.Cards, g.Name, s.ConcurrencyLimit, s.Context, s.InputTokens, s.OutputTokens)},
		Line{Key: "prefill", Label: txt("prefill, one request", "单请求预填充"), Value: round(s.PrefillSeconds*1000, 2), Unit: "ms",
			How: fmt.Sprintf("(%d tokens × 2 × %s active params + 2 × %d layers × %d hidden × %d²) = %s FLOP ÷ (%d × %s TFLOPS %s × %s)",
				s.InputTokens, sci(sh.ComputeB*1e9), sh.Layers, sh.Hidden, s.InputTokens, sci(pfFLOPs), s.Cards, num(peak), peakName, num(eff.Prefill))},
		Line{Key: "ttft_ms", Label: txt("time to first token", "首 token 延迟"), Value: s.TTFTms, Unit: "ms",
			How: fmt.Sprintf("prefill %s ms + one step overhead %s ms, with no queue", num(round(s.PrefillSeconds*1000, 2)), num(stepOverheadS*1000))},
		Line{Key: "step_memory", Label: txt("decode step, bandwidth bound", "解码单步（带宽瓶颈）"), Value: round(s.StepMemoryS*1000, 3), Unit: "ms",
			How: fmt.Sprintf("(%s + %d × %s GB KV%s) ÷ (%d × %s GB/s × %s)", weightHow, s.Concurrency, num(round(sh.KVBytes(s.Context)*mem.Workload.kvScale()/bytesPerGB, 4)), kvCopies(sh, s.Cards), s.Cards, num(g.BandwidthGBs), num(eff.BW))},
		Line{Key: "step_compute", Label: txt("decode step, compute bound", "解码单步（算力瓶颈）"), Value: round(s.StepComputeS*1000, 3), Unit: "ms",
			How: fmt.Sprintf("%d × (2 × %s + 4 × %d × %d × %d) FLOP ÷ (%d × %s TFLOPS × %s)", s.Concurrency, sci(sh.ComputeB*1e9), sh.Layers, sh.Hidden, s.Context, s.Cards, num(peak), num(eff.Decode))},
	)
	if s.Cards > 1 {
		s.Lines = append(s.Lines, Line{Key: "step_comm", Label: txt("decode step, all-reduces", "解码单步（卡间通信）"), Value: round(s.StepCommS*1000, 3), Unit: "ms",
			How: fmt.Sprintf("%d layers × 2 × (latency + 2×(%d−1)/%d × %d × %d × 2 bytes ÷ %s)", sh.Layers, s.Cards, s.Cards, s.Concurrency, sh.Hidden, linkHow(g))})
	}
	moe := ""
	if s.StepMoES > 0 {
		s.Lines = append(s.Lines, Line{Key: "step_moe", Label: txt("decode step, expert routing", "解码单步（专家路由）"), Value: round(s.StepMoES*1000, 3), Unit: "ms",
			How: fmt.Sprintf("%d MoE layers × (%s µs routing + %s%% × %d experts × %s µs per expert touched)", sh.MoELayers, num(moeDispatchS*1e6),
				num(round(s.ExpertCoverage*100, 1)), sh.Experts, num(moeExpertS*1e6))})
		moe = fmt.Sprintf(" + %s ms expert routing", num(round(s.StepMoES*1000, 3)))
	}
	s.Lines = append(s.Lines,
		Line{Key: "step", Label: txt("decode step", "解码单步"), Value: round(s.StepSeconds*1000, 3), Unit: "ms",
			How: fmt.Sprintf("max(%s, %s) ms (%s bound) + %s ms all-reduce%s + %s ms overhead", num(round(s.StepMemoryS*1000, 3)), num(round(s.StepComputeS*1000, 3)), s.Bound, num(round(s.StepCommS*1000, 3)), moe, num(stepOverheadS*1000))},
		Line{Key: "per_sequence_tps", Label: txt("decode speed per user", "单用户解码速度"), Value: round(s.PerSequenceTPS, 1), Unit: "tokens/s", How: "1 ÷ step"},
		Line{Key: "tokens_per_s", Label: txt("output tokens/s per replica", "单副本输出 tokens/s"), Value: round(s.TokensPerS, 1), Unit: "tokens/s",
			How: fmt.Sprintf("%d × %d ÷ (%d × %s s prefill + %d × %s s per step)", s.Concurrency, s.OutputTokens, s.Concurrency, num(round(s.PrefillSeconds, 4)), s.OutputTokens, num(round(s.StepSeconds, 5)))},
	)
	s.Assumptions = append(s.Assumptions,
		txt(fmt.Sprintf("kernel class %s on %s: %s%% of memory bandwidth in decode, %s%% of the %s tensor peak in prefill and %s%% in batched decode (calibrated on published TensorRT-LLM, llama.cpp, MLC-LLM and ExLlama results)",
			s.Class, g.Name, num(eff.BW*100), num(eff.Prefill*100), peakName, num(eff.Decode*100)),
			fmt.Sprintf("内核类别 %s（%s）：解码达到显存带宽的 %s%%，预填充达到 %s 峰值的 %s%%，批量解码 %s%%（按公开的 TensorRT-LLM、llama.cpp、MLC-LLM、ExLlama 结果校准）",
				s.Class, g.Name, num(eff.BW*100), peakName, num(eff.Prefill*100), num(eff.Decode*100))),
		txt(fmt.Sprintf("%d tokens in and %d out per request; continuous batching of %d sequences; TTFT is the prompt's own prefill with no queue", s.InputTokens, s.OutputTokens, s.Concurrency),
			fmt.Sprintf("每个请求输入 %d、输出 %d token；连续批处理 %d 条序列；首 token 延迟按无排队时该请求自身的预填充计算", s.InputTokens, s.OutputTokens, s.Concurrency)))
	if sh.MoE() {
		s.Assumptions = append(s.Assumptions, txt(
			fmt.Sprintf("mixture of experts: FLOPs from the %sB active parameters; each step reads the shared weights and the experts the batch selects (uniform routing)", num(round(sh.ComputeB, 2))),
			fmt.Sprintf("混合专家：计算量按激活参数 %sB；每步读取共享权重和本批次选中的专家（按均匀路由估计）", num(round(sh.ComputeB, 2)))),
			txt(fmt.Sprintf("each decode step also pays expert routing (%s µs per MoE layer) and a fixed %s µs per expert a card touches, calibrated on SGLang v0.5.7 serving DeepSeek-R1 on 8 × H200 (InferenceX, 2026-03); engines from before 2025 measured up to 5× slower at small batch", num(moeDispatchS*1e6), num(moeExpertS*1e6)),
				fmt.Sprintf("每个解码步还要付出专家路由开销（每个 MoE 层 %s µs）和每张卡每触及一个专家 %s µs 的固定开销，按 SGLang v0.5.7 在 8 × H200 上部署 DeepSeek-R1 的实测校准（InferenceX，2026-03）；2025 年以前的引擎在小批量下实测慢到 5 倍", num(moeDispatchS*1e6), num(moeExpertS*1e6))))
	}
}

// kvCopies writes how many cards read each KV value, where tensor
// parallelism copies it (heads past tp = kv_heads, an MLA latent).
func kvCopies(sh Shape, n int) string {
	c := sh.kvShare(n) * float64(n)
	if c < 1.001 {
		return ""
	}
	return fmt.Sprintf(" × %s cards that each hold a copy", num(round(c, 2)))
}
