package advisor

import (
	"math"

	"github.com/gpubot/gpubot/knowledge"
)

// quickCost prices the job on card g with the same arithmetic as costOn
// but writes no steps: the pass that ranks every card when none is named.
// The card answered is then priced again in full. ok is false when the
// card cannot take the job or has no price.
func quickCost(g knowledge.GPU, in CostInput, m Market, p *pricing) (CostOption, bool) {
	w := in.Workload
	o := CostOption{GPU: g.ID}
	sized := w
	if w.Method == Inference {
		sized.Batch, sized.SeqLen = 1, in.InputTokens+in.OutputTokens
	}
	mem, _, _, err := in.memo.sizedOn(sized, g, m.Archs)
	if err != nil {
		return o, false
	}
	need := minCards(mem, g.VRAMGB)
	if need == 0 || (in.GPUs > 0 && in.GPUs < need) {
		return o, false
	}
	o.GPUs = need
	if in.GPUs > 0 {
		o.GPUs = in.GPUs
	}
	if w.Method == Inference {
		if g.BandwidthGBs <= 0 || g.PeakTFLOPS() <= 0 {
			return o, false
		}
		s, _, err := bestServing(g, sized, in.GPUs, need, in.InputTokens, in.OutputTokens, w.Batch, m.Archs, in.memo, in.peakRequestsPerS())
		if err != nil {
			return o, false
		}
		o.GPUs, o.TokensPerS = s.Cards, s.TokensPerS
	} else {
		if g.PeakTFLOPS() <= 0 {
			return o, false
		}
		peak := g.PeakTFLOPS()
		if in.FP8 {
			if g.FP8TFLOPS <= 0 {
				return o, false
			}
			peak = g.FP8TFLOPS
		}
		d := in.Tokens * in.Epochs
		if in.Tokens == 0 {
			d = in.Samples * in.TokensPerSample * in.Epochs
		}
		flops := trainingFLOPsOnly(w.Method, mem.Shape.ComputeB*1e9, mem.Trainable, d)
		mfu := in.MFU
		if mfu == 0 {
			mfu = mfuValue(w.Method, g, mem.Shape, d)
		}
		ideal := flops / (peak * 1e12 * mfu * 3600)
		o.GPUHours = ideal
		if in.MFU == 0 {
			o.GPUHours = ideal / clusterScaling(g, o.GPUs, w, mem, flops/d, peak, mfu, d).Efficiency
		}
		o.WallHours = o.GPUHours / float64(o.GPUs)
	}
	ix := in.memo.index(m.Offers)
	cp, found := ix.cheapest(g.ID, p, in.Where)
	if !found && in.Where.NoMarketRange {
		f := in.Where
		f.NoMarketRange = false
		cp, found = ix.cheapest(g.ID, p, f)
	}
	if !found {
		return o, false
	}
	o.Hourly, o.Offer, o.Interruptible, o.MarketRange = round(cp.Price(), 4), cp.Offer, cp.Interruptible, IsMarketRange(cp.Platform)
	if w.Method == Inference {
		replica := o.Hourly * float64(o.GPUs)
		o.PerMTokens = round(PerMTokens(replica, o.TokensPerS), 4)
		o.Total = Round2(in.Tokens / 1e6 * PerMTokens(replica, o.TokensPerS))
		o.WallHours = in.Tokens / o.TokensPerS / 3600
		o.GPUHours = o.WallHours * float64(o.GPUs)
	} else {
		o.Total = Round2(o.GPUHours * o.Hourly)
	}
	o.GPUHours, o.WallHours, o.TokensPerS = round(o.GPUHours, 2), round(o.WallHours, 2), round(o.TokensPerS, 1)
	return o, true
}

// trainingFLOPsOnly is trainingFLOPs' number without its texts.
func trainingFLOPsOnly(method Method, n, trainable, d float64) float64 {
	switch method {
	case Full:
		return 6 * n * d
	case LoRA, QLoRA:
		return (fwdFLOPsPerParam + actGradFLOPsPerParam) * n * d
	case Freeze:
		return fwdFLOPsPerParam*n*d + (actGradFLOPsPerParam+wGradFLOPsPerParam)*trainable*d
	}
	return math.NaN()
}
