package advisor

import (
	"fmt"
	"math"

	"github.com/gpubot/gpubot/knowledge"
)

// Cluster-scale training constants.
const (
	// interNodeGBs is the per-card, per-direction bandwidth between
	// machines: one 400 Gb/s InfiniBand/RoCE NIC per card (the HGX
	// reference design) at about 80 % achievable, 40 GB/s.
	interNodeGBs = 40
	// machineCards is the cards of one server; tensor parallelism stays
	// inside it.
	machineCards = 8
	// Global batch a run is planned with, in tokens per optimizer step:
	// pretraining-scale data (≥ 10B tokens) runs at 4M tokens (Llama 2,
	// Touvron et al. 2023) and 16M for ≥ 100B-parameter models (Llama 3
	// 405B, Dubey et al. 2024); fine-tuning at 64 sequences per step.
	pretrainBatchTokens    = 4 << 20
	pretrainBigBatchTokens = 16 << 20
	finetuneBatchSeqs      = 64
)

// Scaling is how a training job spread over several cards keeps them busy.
// Inside a machine the model is split tensor-parallel (up to 8 cards, when
// it is big enough to need it); across the data-parallel replicas ZeRO/FSDP
// reduce-scatters the gradients and all-gathers the updated parameters of
// each card's shard every optimizer step: 2 × 2 bytes × trained params ÷
// TP per card. That traffic overlaps with the step's compute
// (FLOPs per token × global batch ÷ (cards × peak × MFU)); only the part
// longer than the compute is lost:
//
//	efficiency = compute ÷ max(compute, communication)
type Scaling struct {
	Cards             int     `json:"cards"`
	TensorParallel    int     `json:"tensor_parallel"`
	DataParallel      int     `json:"data_parallel"`
	GlobalBatchTokens float64 `json:"global_batch_tokens"`
	ComputeSeconds    float64 `json:"compute_s"` // per step
	CommSeconds       float64 `json:"comm_s"`    // per step
	Efficiency        float64 `json:"efficiency"`
}

// globalBatch is the tokens per optimizer step a run of d tokens plans.
func globalBatch(w Workload, mem Memory, d float64) float64 {
	switch {
	case w.Method == Full && d >= 1e10 && mem.Shape.ParamsB >= 100:
		return pretrainBigBatchTokens
	case w.Method == Full && d >= 1e10:
		return pretrainBatchTokens
	}
	return float64(finetuneBatchSeqs * w.SeqLen)
}

// clusterScaling estimates the efficiency of training w on n cards of g.
func clusterScaling(g knowledge.GPU, n int, w Workload, mem Memory, flopsPerToken, peak, mfu, d float64) Scaling {
	s := Scaling{Cards: n, TensorParallel: 1, DataParallel: n, Efficiency: 1, GlobalBatchTokens: globalBatch(w, mem, d)}
	if n <= 1 {
		return s
	}
	// Tensor parallel inside a machine for models that need more than one
	// card to hold a replica.
	if minCards(mem, g.VRAMGB) > 1 && g.LinkGBs() > 0 {
		s.TensorParallel = min(n, machineCards)
		s.DataParallel = max(1, n/s.TensorParallel)
	}
	s.ComputeSeconds = flopsPerToken * s.GlobalBatchTokens / (float64(n) * peak * 1e12 * mfu)
	link, _ := linkGBs(g)
	if n > machineCards {
		link = interNodeGBs
	}
	if s.DataParallel > 1 {
		traffic := 2 * 2 * mem.Trainable / float64(s.TensorParallel) * float64(s.DataParallel-1) / float64(s.DataParallel)
		s.CommSeconds = traffic / (link * 1e9)
	}
	s.Efficiency = s.ComputeSeconds / math.Max(s.ComputeSeconds, s.CommSeconds)
	return s
}

// line writes the scaling step.
func (s Scaling) line(g knowledge.GPU) Line {
	lh := linkHow(g)
	if s.Cards > machineCards {
		lh = fmt.Sprintf("%d GB/s per card between machines (400 Gb/s NIC per card, 80 %%)", interNodeGBs)
	}
	return Line{Key: "scaling", Label: txt("multi-card efficiency", "多卡扩展效率"), Value: round(s.Efficiency, 3), Unit: "",
		How: fmt.Sprintf("TP %d × DP %d; per step of %s tokens: compute %s s vs gradient/parameter traffic %s s over %s, overlapped: %s ÷ max(%s, %s)",
			s.TensorParallel, s.DataParallel, sci(s.GlobalBatchTokens), num(round(s.ComputeSeconds, 3)), num(round(s.CommSeconds, 3)), lh,
			num(round(s.ComputeSeconds, 3)), num(round(s.ComputeSeconds, 3)), num(round(s.CommSeconds, 3)))}
}

// Deadline is the cluster that finishes a training job within Days.
type Deadline struct {
	Days      float64 `json:"days"`
	Cards     int     `json:"cards"`
	GPUHours  float64 `json:"gpu_hours"`
	WallHours float64 `json:"wall_hours"`
	Meets     bool    `json:"meets"` // false when even the largest cluster is too slow
	Lines     []Line  `json:"lines"`
}

// deadline sizes the cluster for days: the fewest layout cards (at least
// the fewest that hold the job) whose wall-clock fits.
func deadline(g knowledge.GPU, days, gpuHours float64, minN int, w Workload, mem Memory, flopsPerToken, peak, mfu, d float64, givenMFU bool) *Deadline {
	dl := &Deadline{Days: days}
	hours := days * 24
	ideal := flopsPerToken * d / (peak * 1e12 * mfu * 3600)
	for _, n := range cardCounts {
		if n < minN {
			continue
		}
		sc := clusterScaling(g, n, w, mem, flopsPerToken, peak, mfu, d)
		gh := ideal / sc.Efficiency
		if givenMFU {
			gh = ideal
		}
		dl.Cards, dl.GPUHours, dl.WallHours = n, gh, gh/float64(n)
		if dl.WallHours <= hours {
			dl.Meets = true
			break
		}
	}
	dl.GPUHours, dl.WallHours = round(dl.GPUHours, 2), round(dl.WallHours, 2)
	how := fmt.Sprintf("fewest cards (from the %d that hold the job, in whole layouts) whose wall-clock ≤ %s days × 24 h", minN, num(days))
	if !dl.Meets {
		how = fmt.Sprintf("even %d cards take %s h, more than %s days", dl.Cards, num(dl.WallHours), num(days))
	}
	dl.Lines = []Line{
		{Key: "deadline_cards", Label: txt(fmt.Sprintf("cards to finish in %s days", num(days)), fmt.Sprintf("%s 天内完成所需卡数", num(days))), Value: float64(dl.Cards), Unit: "cards", How: how},
		{Key: "deadline_gpu_hours", Label: txt("GPU-hours on that cluster", "该集群的 GPU 小时"), Value: dl.GPUHours, Unit: "GPU-h", How: "FLOPs ÷ (peak × MFU) ÷ the cluster's efficiency"},
		{Key: "deadline_wall_hours", Label: txt("wall-clock on that cluster", "该集群实际耗时"), Value: dl.WallHours, Unit: "h", How: fmt.Sprintf("%s GPU-h ÷ %d cards", num(dl.GPUHours), dl.Cards)},
	}
	return dl
}
