package advisor

import "github.com/gpubot/gpubot/knowledge"

// memo keeps, for one engine call, the figures that do not depend on the
// card: a workload's memory estimate and its batch limits. A call that
// prices every card (cost with no card named, recommend) sizes the model
// once instead of once per card. It lives only as long as the call.
type memo struct {
	mems map[memKey]memEntry
	// quiet skips writing the serving steps: set while every card is
	// tried, cleared for the card that is answered.
	quiet bool
	// byGPU indexes the market's offers by card, built on first use: a
	// catalogue of thousands of offers is then scanned once per call, not
	// once per card.
	byGPU map[string][]knowledge.Offer
}

// offersOf returns the offers for one card.
func (c *memo) offersOf(gpu string, offers []knowledge.Offer) []knowledge.Offer {
	if c == nil {
		return offers
	}
	if c.byGPU == nil {
		c.byGPU = map[string][]knowledge.Offer{}
		for _, o := range offers {
			c.byGPU[o.GPU] = append(c.byGPU[o.GPU], o)
		}
	}
	return c.byGPU[gpu]
}

type memKey struct {
	paramsB                   float64
	method                    Method
	bits, batch, seqLen, rank int
	noGC                      bool
	optimizer                 Optimizer
	arch, model, native       string
}

type memEntry struct {
	mem Memory
	lim limits
	err error
}

func keyOf(w Workload) memKey {
	return memKey{w.ParamsB, w.Method, w.Bits, w.Batch, w.SeqLen, w.LoRARank, w.NoGC, w.Optimizer, w.Arch, w.Model, w.Native}
}

// sized returns the memory estimate and limits of w, computed once.
func (c *memo) sized(w Workload, archs []knowledge.Arch) (Memory, limits, error) {
	if c == nil {
		mem, err := EstimateMemory(w, archs)
		if err != nil {
			return Memory{}, limits{}, err
		}
		lim, err := newLimits(mem, archs)
		return mem, lim, err
	}
	k := keyOf(w)
	if e, ok := c.mems[k]; ok {
		return e.mem, e.lim, e.err
	}
	mem, err := EstimateMemory(w, archs)
	var lim limits
	if err == nil {
		lim, err = newLimits(mem, archs)
	}
	if c.mems == nil {
		c.mems = map[memKey]memEntry{}
	}
	c.mems[k] = memEntry{mem, lim, err}
	return mem, lim, err
}

// minCards is the fewest cards of vram GB that hold mem by the fit rule
// (0 when even the largest layout does not).
func minCards(mem Memory, vram float64) int {
	core := mem.Breakdown.Total() - mem.Breakdown.OverheadGB
	for _, n := range cardCounts {
		if core/float64(n)*(1+overheadFrac)+overheadFixedGB <= vram {
			return n
		}
	}
	return 0
}
