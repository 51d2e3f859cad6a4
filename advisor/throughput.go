package advisor

import (
	"fmt"
	"math"

	"github.com/gpubot/gpubot/knowledge"
)

// Decode-throughput model constants. Each states its source or assumption.
const (
	// DecodeBandwidthEff is the share of peak memory bandwidth a decode step
	// streams at: roofline measurements of vLLM and TensorRT-LLM decode
	// kernels land at 70–90 % of HBM peak; 0.8 is assumed.
	DecodeBandwidthEff = 0.8
	// DecodeMFU is the share of tensor peak a large decode batch reaches
	// once it turns compute bound: batched GEMMs of a serving engine run at
	// about half of peak (assumption).
	DecodeMFU = 0.5
	// MaxServingBatch caps concurrent sequences per replica at vLLM's
	// default max_num_seqs (256).
	MaxServingBatch = 256
	// DefaultServeContext is the average number of tokens each request keeps
	// in the KV cache while it decodes (prompt plus the answer so far): 2048,
	// e.g. a 1.5k-token prompt and a 1k-token answer half way through. The
	// fit answer sizes the longest request instead (4096 by default).
	DefaultServeContext = 2048
	// MaxReplicaCards is the largest replica the search tries unless more
	// cards are needed just to hold the model: one 8-card machine, so tensor
	// parallelism stays inside a server.
	MaxReplicaCards = 8
)

// pcieGBs is the usable per-direction bandwidth of a x16 link by PCIe
// generation: the specification's rate (Gen3 15.75, Gen4 31.5, Gen5 63 GB/s)
// × about 0.8 achievable.
var pcieGBs = map[int]float64{3: 12, 4: 25, 5: 50}

// Decode is the throughput of one inference replica: cards that hold one
// copy of the model (tensor parallel) serving Batch requests at once.
//
// Each decode step produces one token per request. It reads every weight
// once and each request's KV cache once, so at small batch the step takes
// (weight bytes + batch × context × KV bytes per token) ÷ (bandwidth ×
// efficiency); at large batch the 2·N FLOPs per token dominate, and the step
// takes 2·N·batch ÷ (peak × MFU). The step time is the larger of the two
// (a roofline). On several cards (tensor parallel, Megatron-LM: Shoeybi et
// al. 2019) every layer also all-reduces its activations twice, batch ×
// hidden × 2 bytes each; a ring all-reduce moves 2(n−1)/n of that per card
// over the card-to-card link, and this time is added, not overlapped.
// tokens/s = batch ÷ step time. Prompt processing
// (prefill) is not counted: with prompts much longer than answers, real
// throughput is lower.
type Decode struct {
	Cards           int     `json:"cards"`
	Batch           int     `json:"batch"`       // concurrent requests
	BatchLimit      int     `json:"batch_limit"` // most requests whose KV cache fits on the replica
	Context         int     `json:"context"`     // average tokens in each request's KV cache
	WeightBytes     float64 `json:"weight_bytes"`
	KVBytesPerToken float64 `json:"kv_bytes_per_token"`
	MemorySeconds   float64 `json:"memory_s"`  // per step, bandwidth bound
	ComputeSeconds  float64 `json:"compute_s"` // per step, compute bound
	CommSeconds     float64 `json:"comm_s"`    // per step, tensor-parallel all-reduces
	StepSeconds     float64 `json:"step_s"`
	TokensPerS      float64 `json:"tokens_per_s"` // per replica
	Bound           string  `json:"bound"`        // memory or compute
}

// kvBatchLimit is the most requests of ctx tokens whose KV cache fits next
// to the weights and activations on n cards of g, by the fit rule (each card
// keeps 0.8 GB and 5 % of its share for overhead), capped at MaxServingBatch.
func kvBatchLimit(w Workload, g knowledge.GPU, n int, archs []knowledge.Arch) (int, error) {
	one := w
	one.Batch = 1
	m, err := EstimateMemory(one, archs)
	if err != nil {
		return 0, err
	}
	usable := float64(n) * (g.VRAMGB - overheadFixedGB) / (1 + overheadFrac)
	room := usable - m.Breakdown.WeightsGB - m.Breakdown.ActivationsGB
	per := float64(w.SeqLen) * m.Shape.KVBytesPerToken() / bytesPerGB
	b := min(MaxServingBatch, int(math.Floor(room/per)))
	// Activations grow a little with the batch (the prefill chunk and the
	// logits); step down until the fit rule agrees.
	for ; b > 0; b-- {
		w.Batch = b
		if fitsOn(w, g, n, archs) {
			return b, nil
		}
	}
	return 0, nil
}

// fitsOn reports whether w fits on n cards of g.
func fitsOn(w Workload, g knowledge.GPU, n int, archs []knowledge.Arch) bool {
	f, err := Fit(w, []knowledge.GPU{g}, archs)
	if err != nil {
		return false
	}
	c := f.MinCards(g.ID)
	return c > 0 && c <= n
}

// decode runs the roofline for batch requests on n cards of g, for a model
// of the given shape.
func decode(g knowledge.GPU, n, batch, ctx int, paramsB, weightGB float64, shape Shape, mfu float64) Decode {
	kvPerToken := shape.KVBytesPerToken()
	d := Decode{Cards: n, Batch: batch, Context: ctx, WeightBytes: weightGB * bytesPerGB, KVBytesPerToken: kvPerToken}
	bw := float64(n) * g.BandwidthGBs * 1e9 * DecodeBandwidthEff
	peak := float64(n) * g.PeakTFLOPS() * 1e12 * mfu
	d.MemorySeconds = (d.WeightBytes + float64(batch)*float64(ctx)*kvPerToken) / bw
	d.ComputeSeconds = 2 * paramsB * 1e9 * float64(batch) / peak
	if n > 1 {
		link, _ := linkGBs(g)
		msg := float64(batch) * float64(shape.Hidden) * 2
		d.CommSeconds = float64(shape.Layers) * 2 * 2 * float64(n-1) / float64(n) * msg / (link * 1e9)
	}
	d.StepSeconds, d.Bound = d.MemorySeconds, "memory"
	if d.ComputeSeconds > d.MemorySeconds {
		d.StepSeconds, d.Bound = d.ComputeSeconds, "compute"
	}
	d.StepSeconds += d.CommSeconds
	d.TokensPerS = float64(batch) / d.StepSeconds
	return d
}

// lines writes the roofline steps.
func (d Decode) lines(g knowledge.GPU, paramsB float64, shape Shape, mfu float64) []Line {
	out := []Line{
		{Key: "step_memory", Label: txt("step time, bandwidth bound", "单步耗时（带宽瓶颈）"), Value: round(d.MemorySeconds*1000, 3), Unit: "ms",
			How: fmt.Sprintf("(%s GB weights + %d requests × %d tokens × %s bytes KV) ÷ (%d × %s GB/s × %s)",
				num(round(d.WeightBytes/bytesPerGB, 2)), d.Batch, d.Context, num(d.KVBytesPerToken), d.Cards, num(g.BandwidthGBs), num(DecodeBandwidthEff))},
		{Key: "step_compute", Label: txt("step time, compute bound", "单步耗时（算力瓶颈）"), Value: round(d.ComputeSeconds*1000, 3), Unit: "ms",
			How: fmt.Sprintf("2 × %s params × %d requests ÷ (%d × %s TFLOPS × 10¹² × %s MFU)",
				sci(paramsB*1e9), d.Batch, d.Cards, num(g.PeakTFLOPS()), num(mfu))},
	}
	if d.Cards > 1 {
		out = append(out, Line{Key: "step_comm", Label: txt("step time, card-to-card", "单步耗时（卡间通信）"), Value: round(d.CommSeconds*1000, 3), Unit: "ms",
			How: fmt.Sprintf("%d layers × 2 all-reduces × 2×(%d−1)/%d × %d requests × %d hidden × 2 bytes ÷ (%s)",
				shape.Layers, d.Cards, d.Cards, d.Batch, shape.Hidden, linkHow(g))})
	}
	how := fmt.Sprintf("%d requests ÷ %s ms (%s bound", d.Batch, num(round(d.StepSeconds*1000, 3)), d.Bound)
	if d.Cards > 1 {
		how += " + card-to-card"
	}
	out = append(out, Line{Key: "tokens_per_s", Label: txt("tokens/s per replica", "单副本 tokens/s"), Value: round(d.TokensPerS, 1), Unit: "tokens/s", How: how + ")"})
	return out
}

// PerMTokens is the cost of a million generated tokens: an hourly cost
// ÷ (tokens/s × 3600 s) × 10⁶. (The cost-performance seed divided by
// tokens/s and multiplied by 1000, which is 3.6 times too high.)
func PerMTokens(hourly, tokensPerS float64) float64 {
	if tokensPerS <= 0 {
		return 0
	}
	return hourly / (tokensPerS * 3600) * 1e6
}
