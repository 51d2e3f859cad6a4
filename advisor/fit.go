package advisor

import (
	"fmt"

	"github.com/gpubot/gpubot/knowledge"
)

// cardCounts are the layouts tried: one card, then a single machine's common
// sizes, then whole 8-card machines (multi-node) up to 8 machines.
var cardCounts = []int{1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64}

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
}

// FitResult answers "will it fit, and on what?".
type FitResult struct {
	Memory
	Options []FitOption `json:"options"`
}

// Fit sizes the workload and checks it against every card. Multi-card
// layouts shard weights, gradients, optimizer states, KV cache and
// activations evenly (FSDP/ZeRO-3 or tensor parallel); each card keeps its own
// fixed overhead.
func Fit(w Workload, gpus []knowledge.GPU, archs []knowledge.Arch) (FitResult, error) {
	mem, err := EstimateMemory(w, archs)
	if err != nil {
		return FitResult{}, err
	}
	res := FitResult{Memory: mem}
	core := mem.Breakdown.Total() - mem.Breakdown.OverheadGB
	// Overhead per card: the fixed part stays, the proportional part shards.
	for _, g := range gpus {
		opt := FitOption{GPU: g.ID, Name: g.Name, VRAMGB: g.VRAMGB, Tier: string(g.Tier)}
		for _, n := range cardCounts {
			per := core/float64(n)*(1+overheadFrac) + overheadFixedGB
			if per <= g.VRAMGB {
				opt.Count = n
				opt.PerCardGB = round(per, 2)
				opt.SpareGB = round(g.VRAMGB-per, 2)
				break
			}
		}
		opt.Fits = opt.Count == 1
		opt.Note = fitNote(mem.Workload, g, opt.Count)
		res.Options = append(res.Options, opt)
	}
	res.Assumptions = append(res.Assumptions, txt(
		"several cards: weights, gradients, optimizer states, KV cache and activations split evenly (FSDP/ZeRO-3 for training, tensor parallel for inference); each card keeps its own 0.8 GB overhead",
		"多卡：权重、梯度、优化器状态、KV 缓存和激活值平均切分（训练用 FSDP/ZeRO-3，推理用张量并行），每张卡各有 0.8 GB 固定开销"))
	return res, nil
}

func fitNote(w Workload, g knowledge.GPU, n int) Text {
	switch {
	case n == 0:
		return txt("does not fit even on 64 cards", "64 张卡也放不下")
	case n > 8:
		return txt(fmt.Sprintf("needs %d machines of 8 cards (multi-node)", n/8), fmt.Sprintf("需要 %d 台 8 卡机器（多机）", n/8))
	case n > 1 && g.NVLinkGBs == 0 && w.trains():
		return txt("PCIe only: multi-card training is slowed by card-to-card traffic", "仅 PCIe：多卡训练受卡间通信拖慢")
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
