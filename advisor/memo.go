package advisor

import "github.com/gpubot/gpubot/knowledge"

// memo keeps, for one engine call, the figures that do not depend on the
// card: a workload's memory estimate and its batch limits. A call that
// prices every card (cost with no card named, recommend) sizes the model
// once instead of once per card. It lives only as long as the call.
type memo struct {
	// quiet skips writing the serving steps: set while every card is
	// tried, cleared for the card that is answered.
	quiet bool
	// ix is the market's offers indexed by card (shared across calls,
	// checked once per call): every card's price is then looked up, not
	// normalised again.
	ix *offerIndex
	// best is the shared set of picked replicas for the workload last
	// asked about (one workload per ranking pass).
	bestKey memKey
	best    *bestSet
}

// bestSet returns the shared set of picked replicas for w, looked up once
// per workload in a call.
func (c *memo) bestSet(w Workload, archs []knowledge.Arch) *bestSet {
	k := keyOf(w)
	if c.best == nil || c.bestKey != k {
		c.best, c.bestKey = bestSetOf(w, archs), k
	}
	return c.best
}

// index returns the offers' index, checked once per call.
func (c *memo) index(offers []knowledge.Offer) *offerIndex {
	if c == nil {
		return indexOf(offers)
	}
	if c.ix == nil {
		c.ix = indexOf(offers)
	}
	return c.ix
}

type memKey struct {
	paramsB                   float64
	method                    Method
	bits, batch, seqLen, rank int
	noGC                      bool
	optimizer                 Optimizer
	arch, model, native       string
	engine                    string
	kvBits, maxSeqs           int
	memUtil                   float64
	stack                     string
}

type memEntry struct {
	mem Memory
	lim limits
	err error
}

func keyOf(w Workload) memKey {
	return memKey{w.ParamsB, w.Method, w.Bits, w.Batch, w.SeqLen, w.LoRARank, w.NoGC, w.Optimizer, w.Arch, w.Model, w.Native,
		w.Engine, w.KVBits, w.MaxSeqs, w.MemUtil, w.Stack}
}

// sized returns the memory estimate and limits of w, computed once per
// process (sharedSized).
func (c *memo) sized(w Workload, archs []knowledge.Arch) (Memory, limits, error) {
	e := sharedSized(w, archs)
	return e.mem, e.lim, e.err
}

// minCards is the fewest cards of vram GB that hold mem's job at its own
// batch by the fit rule (0 when even the largest layout does not): read
// from the breakdown, for callers that hold the estimate only. Serving
// then checks each layout's KV room with the full prefill chunk.
func minCards(mem Memory, vram float64) int {
	b := max(mem.Workload.Batch, 1)
	if mem.Workload.trains() {
		return trainLimits(mem).minCards(vram, b)
	}
	bd := mem.raw
	l := limits{fixed: bd.WeightsGB + bd.ActivationsGB, perSeq: bd.KVCacheGB / float64(b), shape: mem.Shape,
		engine: mem.Workload.Engine, util: mem.Workload.MemUtil, own: mem.own}
	if mem.Workload.generate() { // every request brings its prompt's activations
		l.fixed, l.perSeq = bd.WeightsGB, (bd.KVCacheGB+bd.ActivationsGB)/float64(b)
	}
	return l.minCards(vram, b)
}
