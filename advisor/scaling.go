package advisor

import (
	"fmt"

	"github.com/gpubot/gpubot/knowledge"
)

// Scaling is how well a training job spread over several cards keeps them
// busy. Sharded training (FSDP / ZeRO-3, the layout the fit answer assumes)
// gathers every weight shard before the forward pass and again before the
// backward pass, and reduce-scatters the gradients of the trained
// parameters; a ring all-gather or reduce-scatter delivers (n−1)/n of the
// whole tensor to each card. Per optimizer step:
//
//	compute = FLOPs per token × batch × seq ÷ (n × peak × MFU)
//	traffic = (2 × weight bytes + 2 bytes × trained params) × (n−1)/n
//	comm    = traffic ÷ card-to-card bandwidth (per direction)
//	efficiency = compute ÷ (compute + comm)
//
// Communication is taken as not overlapped with compute, the worst case;
// frameworks prefetch and hide part of it over NVLink, little over PCIe.
type Scaling struct {
	Cards          int     `json:"cards"`
	ComputeSeconds float64 `json:"compute_s"` // per step
	CommSeconds    float64 `json:"comm_s"`    // per step
	Efficiency     float64 `json:"efficiency"`
}

// shardScaling estimates the multi-card efficiency of training workload w
// (with its memory estimate) on n cards of g at the given MFU.
func shardScaling(g knowledge.GPU, n int, w Workload, mem Memory, flopsPerToken, mfu float64) Scaling {
	s := Scaling{Cards: n, Efficiency: 1}
	if n <= 1 {
		return s
	}
	tokens := float64(w.Batch) * float64(w.SeqLen)
	s.ComputeSeconds = flopsPerToken * tokens / (float64(n) * g.PeakTFLOPS() * 1e12 * mfu)
	link, _ := linkGBs(g)
	traffic := (2*mem.Breakdown.WeightsGB*bytesPerGB + 2*mem.Trainable) * float64(n-1) / float64(n)
	s.CommSeconds = traffic / (link * 1e9)
	s.Efficiency = s.ComputeSeconds / (s.ComputeSeconds + s.CommSeconds)
	return s
}

// line writes the scaling step for a breakdown.
func (s Scaling) line(g knowledge.GPU, w Workload, mem Memory) Line {
	return Line{Key: "scaling", Label: txt("multi-card efficiency", "多卡扩展效率"), Value: round(s.Efficiency, 3), Unit: "",
		How: fmt.Sprintf("per step of %d × %d tokens: compute %s s ÷ (compute %s s + weight gathers and gradient reduce %s s: (2 × %s GB + 2 B × %s trained params) × %d/%d ÷ %s)",
			w.Batch, w.SeqLen, num(round(s.ComputeSeconds, 3)), num(round(s.ComputeSeconds, 3)), num(round(s.CommSeconds, 3)),
			num(round(mem.Breakdown.WeightsGB, 2)), sci(mem.Trainable), s.Cards-1, s.Cards, linkHow(g))}
}
