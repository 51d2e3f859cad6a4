package advisor

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// inference fills tokens/s per replica, time to first token and the time to
// generate in.Tokens.
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
	sized := w
	sized.Batch, sized.SeqLen = 1, in.InputTokens+in.OutputTokens
	need, err := cards(sized, *g, in.GPUs, m, in.memo, hint)
	if err != nil {
		return err
	}
	r.GPUs = need
	if in.TPS > 0 {
		r.TokensPerS = in.TPS * float64(r.GPUs)
		r.Lines = append(r.Lines,
			Line{Key: "gpus", Label: txt("cards per replica", "每个副本的卡数"), Value: float64(r.GPUs), Unit: "cards", How: fmt.Sprintf("fewest %s that hold the model (fit)", g.Name)},
			Line{Key: "tokens_per_s", Label: txt("tokens/s per replica", "单副本 tokens/s"), Value: r.TokensPerS, Unit: "tokens/s",
				How: fmt.Sprintf("%s tokens/s per card (given) × %d cards", num(in.TPS), r.GPUs)})
		r.finishInference(in)
		return nil
	}
	s, tried, err := bestServing(*g, sized, in.GPUs, need, in.InputTokens, in.OutputTokens, w.Batch, m.Archs, in.memo, in.peakRequestsPerS())
	if err != nil {
		return inputErr("seq_len", err.Error(), hint+" gpus=4")
	}
	r.GPUs = s.Cards
	r.TokensPerS = s.TokensPerS
	r.TTFTms = s.TTFTms
	if in.memo != nil && in.memo.quiet {
		r.finishInference(in)
		return nil
	}
	if w.Batch == 0 {
		r.Inputs.Defaulted = append(r.Inputs.Defaulted, "batch")
		r.Inputs.Workload.Batch = s.Concurrency
	}
	sv := s
	r.Serving = &sv
	r.Lines = append(r.Lines, Line{Key: "gpus", Label: txt("cards per replica", "每个副本的卡数"), Value: float64(r.GPUs), Unit: "cards", How: tried})
	r.Lines = append(r.Lines, s.Lines...)
	r.Assumptions = append(r.Assumptions, s.Assumptions...)
	r.finishInference(in)
	return nil
}

// bestServing picks the replica size with the most output tokens/s per
// card: the user's count, or every layout from the fewest cards that hold
// the model (need) up to one 8-card machine. sized is the workload at one
// request of in+out tokens.
//
// With a peak load (requests/s > 0) it picks instead the size that serves
// that load on the fewest cards in all (replicas × cards per replica).
func bestServing(g knowledge.GPU, sized Workload, given, need, in, out, conc int, archs []knowledge.Arch, c *memo, peak float64) (Serving, string, error) {
	if g.BandwidthGBs <= 0 || g.PeakTFLOPS() <= 0 {
		return Serving{}, "", fmt.Errorf("no bandwidth or compute figure for %s; give tps=", g.Name)
	}
	if c != nil && c.quiet {
		// A ranking pass reads numbers only: the pick is the same on every
		// call with this workload, card and request shape.
		set, k, gk := c.bestSet(sized, archs), bestKey{g.ID, given, need, in, out, conc, peak}, keyOfGPU(g)
		if s, ok, err := set.get(k, gk); ok {
			return s, "", err
		}
		s, _, err := pickServing(g, sized, given, need, in, out, conc, archs, c, peak)
		set.put(k, gk, s, err)
		return s, "", err
	}
	return pickServing(g, sized, given, need, in, out, conc, archs, c, peak)
}

// pickServing is bestServing without the cache's set.
func pickServing(g knowledge.GPU, sized Workload, given, need, in, out, conc int, archs []knowledge.Arch, c *memo, peak float64) (Serving, string, error) {
	mem, lim, on, err := c.sizedOn(sized, g, archs)
	if err != nil {
		return Serving{}, "", err
	}
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
	var best Serving
	var tried []string
	for _, n := range counts {
		s := c.cacheFor(archs).serveOn(g, n, mem, lim, ServeInput{InputTokens: in, OutputTokens: out, Concurrency: conc}, archs)
		if s.ConcurrencyLimit < max(conc, 1) {
			continue
		}
		if c == nil || !c.quiet {
			tried = append(tried, fmt.Sprintf("%d cards: %s tokens/s per card", n, num(round(s.TokensPerS/float64(n), 1))))
		}
		better := best.Cards == 0 || s.TokensPerS/float64(n) > best.TokensPerS/float64(best.Cards)
		if peak > 0 && best.Cards != 0 {
			better = loadCards(s, peak) < loadCards(best, peak)
		}
		if better {
			best = s
		}
	}
	if best.Cards == 0 {
		return Serving{}, "", fmt.Errorf("no room for %d requests of %d tokens next to the weights on %s", max(conc, 1), in+out, g.Name)
	}
	if c == nil || !c.quiet {
		best.lines(g, mem)
		if on.note.EN != "" {
			best.Assumptions = append(best.Assumptions, on.note)
		}
	}
	if c != nil && c.quiet {
		return best, "", nil
	}
	how := fmt.Sprintf("given: %d × %s", best.Cards, g.Name)
	if given == 0 {
		how = fmt.Sprintf("most tokens/s per card among replicas from the fewest %s that hold the model (%d) up to one machine — %s", g.Name, need, strings.Join(tried, "; "))
	}
	return best, how, nil
}

// loadCards is the cards needed to serve peak requests/s with replicas
// like s.
func loadCards(s Serving, peak float64) int {
	perReplica := s.TokensPerS / float64(s.OutputTokens)
	return max(1, int(math.Ceil(peak/perReplica-1e-9))) * s.Cards
}

// finishInference turns tokens/s into GPU-hours and wall time for the
// requested volume.
func (r *CostResult) finishInference(in CostInput) {
	r.WallHours = in.Tokens / r.TokensPerS / 3600
	r.GPUHours = r.WallHours * float64(r.GPUs)
	if in.memo != nil && in.memo.quiet {
		return
	}
	r.Lines = append(r.Lines,
		Line{Key: "wall_hours", Label: txt("time to generate", "生成耗时"), Value: round(r.WallHours, 2), Unit: "h",
			How: fmt.Sprintf("%s tokens ÷ %s tokens/s ÷ 3600", sci(in.Tokens), num(round(r.TokensPerS, 1)))},
		Line{Key: "gpu_hours", Label: txt("GPU-hours", "GPU 小时"), Value: round(r.GPUHours, 2), Unit: "GPU-h",
			How: fmt.Sprintf("%s h × %d cards", num(round(r.WallHours, 2)), r.GPUs)})
}
