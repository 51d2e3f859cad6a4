package advisor

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// inference fills tokens/s per replica and the time to generate in.Tokens.
func (r *CostResult) inference(g *knowledge.GPU, in CostInput, m Market) error {
	w := in.Workload
	hint := in.hint()
	if g == nil { // tps and price given per card, no card named
		r.GPUs = 1
		r.TokensPerS = in.TPS
		r.Lines = append(r.Lines, Line{Key: "tokens_per_s", Label: txt("tokens/s per card", "每卡 tokens/s"), Value: in.TPS, Unit: "tokens/s", How: "given"})
		r.finishInference(in)
		return nil
	}
	mem, err := EstimateMemory(withBatch(w, max(w.Batch, 1)), m.Archs)
	if err != nil {
		return err
	}
	r.GPUs, err = cards(withBatch(w, max(w.Batch, 1)), *g, in.GPUs, m, hint)
	if err != nil {
		return err
	}
	if in.TPS > 0 {
		r.TokensPerS = in.TPS * float64(r.GPUs)
		r.Lines = append(r.Lines,
			Line{Key: "gpus", Label: txt("cards per replica", "每个副本的卡数"), Value: float64(r.GPUs), Unit: "cards", How: fmt.Sprintf("fewest %s that hold the model (fit)", g.Name)},
			Line{Key: "tokens_per_s", Label: txt("tokens/s per replica", "单副本 tokens/s"), Value: r.TokensPerS, Unit: "tokens/s",
				How: fmt.Sprintf("%s tokens/s per card (given) × %d cards", num(in.TPS), r.GPUs)})
		r.finishInference(in)
		return nil
	}
	if g.BandwidthGBs <= 0 || g.PeakTFLOPS() <= 0 {
		return inputErr("gpu", fmt.Sprintf("no bandwidth or compute figure for %s; give tps=", g.Name), hint+" tps=1000")
	}
	r.MFU = in.MFU
	if r.MFU == 0 {
		r.MFU = DecodeMFU
		r.Inputs.Defaulted = append(r.Inputs.Defaulted, "mfu")
	}
	d, tried, err := bestReplica(*g, w, in.GPUs, r.GPUs, mem, r.MFU, m.Archs)
	if err != nil {
		return inputErr("seq_len", err.Error(), hint+" gpus=4")
	}
	if w.Batch == 0 {
		r.Inputs.Defaulted = append(r.Inputs.Defaulted, "batch")
		r.Inputs.Workload.Batch = d.Batch
	}
	r.Decode = &d
	r.GPUs = d.Cards
	r.TokensPerS = d.TokensPerS
	batchHow := fmt.Sprintf("KV-cache room on %d × %s: %d requests of %d tokens × %s bytes/token (cap %d)", d.Cards, g.Name, d.BatchLimit, w.SeqLen, num(d.KVBytesPerToken), MaxServingBatch)
	if w.Batch > 0 {
		batchHow = fmt.Sprintf("given; the KV cache on %d × %s holds up to %d", d.Cards, g.Name, d.BatchLimit)
	}
	r.Lines = append(r.Lines,
		Line{Key: "gpus", Label: txt("cards per replica", "每个副本的卡数"), Value: float64(r.GPUs), Unit: "cards", How: tried},
		Line{Key: "batch", Label: txt("concurrent requests", "并发请求数"), Value: float64(d.Batch), Unit: "requests", How: batchHow},
	)
	r.Lines = append(r.Lines, d.lines(*g, w.ParamsB, mem.Shape, r.MFU)...)
	r.Assumptions = append(r.Assumptions,
		txt(fmt.Sprintf("decode roofline: step = max(bytes read ÷ (bandwidth × %s), 2·N·batch ÷ (peak × %s MFU)) + tensor-parallel all-reduces; prompt prefill not counted", num(DecodeBandwidthEff), num(r.MFU)),
			fmt.Sprintf("解码屋顶线模型：单步 = max(读取字节 ÷ (带宽 × %s), 2·N·batch ÷ (峰值 × %s MFU)) + 张量并行通信；未计入提示词预填充", num(DecodeBandwidthEff), num(r.MFU))),
		txt(fmt.Sprintf("each request holds %d tokens of KV cache on average; the batch is as many requests as the KV cache holds, at most %d", w.SeqLen, MaxServingBatch),
			fmt.Sprintf("每个请求平均占用 %d token 的 KV 缓存；并发数取 KV 缓存放得下的请求数，最多 %d", w.SeqLen, MaxServingBatch)))
	r.finishInference(in)
	return nil
}

// bestReplica picks the replica size with the most tokens/s per card: the
// user's count, or every layout from the fewest cards that hold the model up
// to one 8-card machine. It returns the decode figures and how it chose.
func bestReplica(g knowledge.GPU, w Workload, given, need int, mem Memory, mfu float64, archs []knowledge.Arch) (Decode, string, error) {
	var counts []int
	if given > 0 {
		counts = []int{given}
	} else {
		for _, n := range cardCounts {
			if n >= need && (n <= MaxReplicaCards || n == need) {
				counts = append(counts, n)
			}
		}
	}
	var best Decode
	var tried []string
	for _, n := range counts {
		limit, err := kvBatchLimit(w, g, n, archs)
		if err != nil {
			return Decode{}, "", err
		}
		batch := w.Batch
		if batch == 0 {
			batch = limit
		} else if !fitsOn(w, g, n, archs) {
			continue
		}
		if batch < 1 {
			continue
		}
		d := decode(g, n, batch, w.SeqLen, w.ParamsB, mem.Breakdown.WeightsGB, mem.Shape, mfu)
		d.BatchLimit = limit
		tried = append(tried, fmt.Sprintf("%d cards: %s tokens/s per card", n, num(round(d.TokensPerS/float64(n), 1))))
		if best.Cards == 0 || d.TokensPerS/float64(n) > best.TokensPerS/float64(best.Cards) {
			best = d
		}
	}
	if best.Cards == 0 {
		return Decode{}, "", fmt.Errorf("no room for %d requests of %d tokens next to the weights on %s", max(w.Batch, 1), w.SeqLen, g.Name)
	}
	how := fmt.Sprintf("given: %d × %s", best.Cards, g.Name)
	if given == 0 {
		how = fmt.Sprintf("most tokens/s per card among replicas from the fewest %s that hold the model (%d) up to one machine — %s", g.Name, need, strings.Join(tried, "; "))
	}
	return best, how, nil
}

func withBatch(w Workload, b int) Workload { w.Batch = b; return w }

// finishInference turns tokens/s into GPU-hours and wall time for the
// requested volume.
func (r *CostResult) finishInference(in CostInput) {
	r.WallHours = in.Tokens / r.TokensPerS / 3600
	r.GPUHours = r.WallHours * float64(r.GPUs)
	r.Lines = append(r.Lines,
		Line{Key: "wall_hours", Label: txt("time to generate", "生成耗时"), Value: round(r.WallHours, 2), Unit: "h",
			How: fmt.Sprintf("%s tokens ÷ %s tokens/s ÷ 3600", sci(in.Tokens), num(round(r.TokensPerS, 1)))},
		Line{Key: "gpu_hours", Label: txt("GPU-hours", "GPU 小时"), Value: round(r.GPUHours, 2), Unit: "GPU-h",
			How: fmt.Sprintf("%s h × %d cards", num(round(r.WallHours, 2)), r.GPUs)})
}
