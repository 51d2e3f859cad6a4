package advisor

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// cardCounts are the layouts tried: one card, then a single machine's common
// sizes, then whole 8-card machines (multi-node) up to 8 machines.
var cardCounts = []int{1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64, 96, 128, 192, 256, 384, 512, 768, 1024,
	1536, 2048, 3072, 4096, 6144, 8192, 12288, MaxClusterCards}

// MaxClusterCards is the largest cluster the engine sizes (16,384 cards,
// the size Meta trained Llama 3 405B on).
const MaxClusterCards = 16384

// FitOption is the verdict for one card model.
type FitOption struct {
	GPU       string  `json:"gpu"`
	Name      string  `json:"name"`
	VRAMGB    float64 `json:"vram_gb"`
	Count     int     `json:"count"` // cards needed; 0 when even 64 are not enough
	Fits      bool    `json:"fits"`  // fits on a single card
	PerCardGB float64 `json:"per_card_gb"`
	SpareGB   float64 `json:"spare_gb"` // per card, at Count
	Tier      string  `json:"tier"`
	Note      Text    `json:"note"`
	// MaxBatch (training): the largest micro-batch per card at the
	// workload's sequence length on Count cards. MaxConcurrency
	// (inference): how many requests of the workload's context the KV
	// cache left on Count cards holds, as vLLM reports it ("Maximum
	// concurrency for N tokens per request: X").
	MaxBatch       int     `json:"max_batch,omitempty"`
	MaxConcurrency float64 `json:"max_concurrency,omitempty"`
	// UpcastGB is one replica's memory on this card when it has no kernels
	// for the FP8 weights and holds them upcast to 16 bits (Note says so);
	// 0 when the card runs the workload as asked (memory_gb).
	UpcastGB float64 `json:"upcast_gb,omitempty"`
}

// FitResult answers "will it fit, and on what?".
type FitResult struct {
	Memory
	Model   string      `json:"model,omitempty"` // catalogue id when a model was named
	Options []FitOption `json:"options"`
	// SeedSetupGB is the same training job at the cost-performance
	// report's batch 4 × 4,096 tokens, when batch and length were defaulted.
	SeedSetupGB float64 `json:"seed_setup_gb,omitempty"`
}

// Fit sizes the workload and checks it against every card. Multi-card
// layouts shard weights, gradients, optimizer states, KV cache and
// activations evenly (FSDP/ZeRO-3 or tensor parallel); each card keeps its own
// fixed overhead.
func Fit(w Workload, gpus []knowledge.GPU, archs []knowledge.Arch) (FitResult, error) {
	// The estimate and its limits are the same for every call with this
	// workload: computed once (sharedSized).
	e := sharedSized(w, archs)
	if e.err != nil {
		return FitResult{}, e.err
	}
	mem, lim := e.mem, e.lim
	res := FitResult{Memory: mem, Model: mem.Workload.Model}
	core := mem.Breakdown.Total() - mem.Breakdown.OverheadGB
	// How the precision runs, once per distinct note, with its cards: an
	// option's note is shown beside multi-card layouts only, so the
	// assumptions carry it for every card (a single named card included).
	var precNotes []Text
	precCards := map[string][]string{}
	var upcastGB float64 // one replica held upcast, where a card needs it
	// Overhead per card: the fixed part stays, the proportional part shards.
	for _, g := range gpus {
		opt := FitOption{GPU: g.ID, Name: g.Name, VRAMGB: g.VRAMGB, Tier: string(g.Tier)}
		// A card without kernels for the precision holds what it really
		// runs (FP8 upcast to 16 bits); its option says so.
		on := runsOn(mem.Workload, g)
		cCore, cLim := core, lim
		if on.upcast {
			u := sharedSized(on.w, archs)
			if u.err != nil {
				return FitResult{}, u.err
			}
			cCore, cLim = u.mem.Breakdown.Total()-u.mem.Breakdown.OverheadGB, u.lim
			opt.UpcastGB, upcastGB = u.mem.TotalGB, u.mem.TotalGB
		}
		for _, n := range cardCounts {
			per := cCore/float64(n)*(1+overheadFrac) + overheadFixedGB
			if per <= g.VRAMGB {
				opt.Count = n
				opt.PerCardGB = round(per, 2)
				opt.SpareGB = round(g.VRAMGB-per, 2)
				break
			}
		}
		opt.Fits = opt.Count == 1
		opt.Note = join(on.note, fitNote(mem.Workload, g, opt.Count))
		if on.note.EN != "" {
			if _, seen := precCards[on.note.EN]; !seen {
				precNotes = append(precNotes, on.note)
			}
			precCards[on.note.EN] = append(precCards[on.note.EN], g.Name)
		}
		if opt.Count > 0 {
			if mem.Workload.trains() {
				opt.MaxBatch = cLim.maxBatch(g.VRAMGB, opt.Count)
			} else {
				opt.MaxConcurrency = cLim.maxConcurrency(g.VRAMGB, opt.Count)
			}
		}
		res.Options = append(res.Options, opt)
	}
	for _, n := range precNotes {
		cards := strings.Join(precCards[n.EN], ", ")
		t := txt(cards+": "+n.EN, cards+"："+n.ZH)
		if strings.Contains(n.EN, "upcast") {
			t.EN += fmt.Sprintf(" (one replica ≈ %s GB there)", num(upcastGB))
			t.ZH += fmt.Sprintf("（在这些卡上单副本约 %s GB）", num(upcastGB))
		}
		res.Assumptions = append(res.Assumptions, t)
	}
	res.Assumptions = append(res.Assumptions, txt(
		"several cards: weights, gradients, optimizer states, KV cache and activations split evenly (FSDP/ZeRO-3 for training, tensor parallel for inference); each card keeps its own 0.8 GB overhead",
		"多卡：权重、梯度、优化器状态、KV 缓存和激活值平均切分（训练用 FSDP/ZeRO-3，推理用张量并行），每张卡各有 0.8 GB 固定开销"))
	w = mem.Workload
	if w.trains() {
		res.Assumptions = append(res.Assumptions, txt(
			fmt.Sprintf("max_batch: the largest micro-batch per card at %d tokens that still fits (memory grows by %s GB per sequence)", w.SeqLen, num(round(lim.perSeq, 2))),
			fmt.Sprintf("max_batch：在 %d token 长度下每卡还能放下的最大 micro-batch（每多一条序列增加 %s GB）", w.SeqLen, num(round(lim.perSeq, 2)))))
		if slices.Contains(w.Defaulted, "batch") && slices.Contains(w.Defaulted, "seq_len") {
			seed := w
			seed.Batch, seed.SeqLen, seed.Defaulted = 4, 4096, nil
			if m4 := sharedSized(seed, archs); m4.err == nil {
				res.SeedSetupGB = m4.mem.TotalGB
				res.Assumptions = append(res.Assumptions, txt(
					fmt.Sprintf("default workload: micro-batch %d × %d tokens, as LLaMA-Factory's and Unsloth's examples run; the cost-performance report's batch 4 × 4,096 needs about %s GB (add bs=4 seq=4096)", w.Batch, w.SeqLen, num(m4.mem.TotalGB)),
					fmt.Sprintf("默认负载：micro-batch %d × %d token（LLaMA-Factory、Unsloth 示例的常见设置）；按性价比报告的 batch 4 × 4096 约需 %s GB（加 bs=4 seq=4096）", w.Batch, w.SeqLen, num(m4.mem.TotalGB))))
			}
		}
	} else {
		res.Assumptions = append(res.Assumptions, txt(
			fmt.Sprintf("max_concurrency: requests of %d tokens the KV cache left after weights and activations holds (%s per request), as vLLM reports it", w.SeqLen, gb(lim.perSeq)),
			fmt.Sprintf("max_concurrency：权重和激活值之外剩下的 KV 缓存能容纳多少个 %d token 的请求（每个 %s），与 vLLM 的报告口径一致", w.SeqLen, gb(lim.perSeq))))
	}
	return res, nil
}

// limits is what a card count can still take: the memory that does not
// grow with the batch (fixed) and what each more sequence adds (perSeq).
type limits struct {
	fixed, perSeq float64
}

// newLimits measures fixed and per-sequence memory from the estimate at
// the workload's own batch and one more. Training memory is linear in the
// batch. For inference vLLM's rule is used: the KV cache gets what is left
// after the weights and the activations of a full prefill chunk, and one
// request of the context costs its KV cache.
func newLimits(mem Memory, archs []knowledge.Arch) (limits, error) {
	w := mem.Workload
	core := func(m Memory) float64 { return m.Breakdown.Total() - m.Breakdown.OverheadGB }
	if !w.trains() {
		full := w
		full.Batch = max(1, (inferChunkTokens+w.SeqLen-1)/w.SeqLen)
		m, err := EstimateMemory(full, archs)
		if err != nil {
			return limits{}, err
		}
		per := m.Breakdown.KVCacheGB / float64(full.Batch)
		return limits{fixed: m.Breakdown.WeightsGB + m.Breakdown.ActivationsGB, perSeq: per}, nil
	}
	more := w
	more.Batch = w.Batch + 1
	m2, err := EstimateMemory(more, archs)
	if err != nil {
		return limits{}, err
	}
	per := core(m2) - core(mem)
	return limits{fixed: core(mem) - per*float64(w.Batch), perSeq: per}, nil
}

// room is the memory n cards of vram GB give the model under the fit rule
// (each card keeps 0.8 GB and 5 % of its share for overhead).
func room(vram float64, n int) float64 {
	return float64(n) * (vram - overheadFixedGB) / (1 + overheadFrac)
}

// maxBatch is the largest micro-batch per card on n cards (sequences per
// step ÷ n, the data-parallel split), at least 1 when the job fits.
func (l limits) maxBatch(vram float64, n int) int {
	if l.perSeq <= 0 {
		return 0
	}
	b := int(math.Floor((room(vram, n) - l.fixed) / l.perSeq / float64(n)))
	return max(b, 1)
}

// maxConcurrency is the KV room over one request's KV cache, 2 decimals.
func (l limits) maxConcurrency(vram float64, n int) float64 {
	if l.perSeq <= 0 {
		return 0
	}
	return math.Max(0, math.Floor((room(vram, n)-l.fixed)/l.perSeq*100)/100)
}

func fitNote(w Workload, g knowledge.GPU, n int) Text {
	switch {
	case n == 0:
		return txt(fmt.Sprintf("does not fit even on %d cards", MaxClusterCards), fmt.Sprintf("%d 张卡也放不下", MaxClusterCards))
	case n > 8:
		return txt(fmt.Sprintf("needs %d machines of 8 cards (multi-node)", n/8), fmt.Sprintf("需要 %d 台 8 卡机器（多机）", n/8))
	case n > 1 && g.LinkGBs() == 0 && w.trains():
		return txt("PCIe only: multi-card training is slowed by card-to-card traffic", "仅 PCIe：多卡训练受卡间通信拖慢")
	case n > 1 && g.NVLinkGBs == 0 && g.FabricGBs > 0 && g.FabricGBs < 600:
		return txt(fmt.Sprintf("%s %s GB/s between cards: tensor parallel is slower than on full NVLink", g.Fabric, num(g.FabricGBs)),
			fmt.Sprintf("卡间 %s %s GB/s：张量并行比满血 NVLink 慢", g.Fabric, num(g.FabricGBs)))
	case n > 1 && g.NVLinkGBs > 0 && g.NVLinkGBs < 600:
		return txt(fmt.Sprintf("reduced NVLink (%s GB/s): tensor parallel is slower than on the full-NVLink card", num(g.NVLinkGBs)),
			fmt.Sprintf("NVLink 带宽受限（%s GB/s）：张量并行比满血卡慢", num(g.NVLinkGBs)))
	}
	return Text{}
}

// MinCards is the smallest card count that holds the workload on g, or 0.
func (r FitResult) MinCards(gpuID string) int {
	for _, o := range r.Options {
		if o.GPU == gpuID {
			return o.Count
		}
	}
	return 0
}
