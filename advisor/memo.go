package advisor

import "github.com/gpubot/gpubot/knowledge"

// memo is one engine call's view of the market's cache: a workload's
// memory estimate and its batch limits, the rooflines and the offers'
// index come from the cache (the market's when it was prepared, else one
// made for the call), looked up once per call where it can be. A call
// that prices every card (cost with no card named, recommend) sizes the
// model once instead of once per card. The zero value makes its own cache
// over the architectures it is first given.
type memo struct {
	// quiet skips writing the steps: set while every card is tried,
	// cleared for the card that is answered.
	quiet bool
	c     *cache
	// ix is the market's offers indexed by card, looked up once per call:
	// every card's price is then looked up, not normalised again.
	ix *offerIndex
	// best is the cache's set of picked replicas for the workload last
	// asked about (one workload per ranking pass).
	bestKey memKey
	best    *bestSet
	// recent holds the last two estimates the call asked for (a ranking
	// asks for the same workload, and its upcast, on every card): compared
	// by key, not hashed.
	recent [2]struct {
		k  memKey
		e  memEntry
		ok bool
	}
}

// newMemo is a call's memo over the market's cache.
func (m Market) memo() *memo { return &memo{c: m.engine()} }

// cacheFor returns the memo's cache, made over archs on first use (a nil
// memo: a cache for this use only).
func (c *memo) cacheFor(archs []knowledge.Arch) *cache {
	if c == nil {
		return newCache(archs)
	}
	if c.c == nil {
		c.c = newCache(archs)
	}
	return c.c
}

// bestSet returns the cache's set of picked replicas for w, looked up once
// per workload in a call.
func (c *memo) bestSet(w Workload, archs []knowledge.Arch) *bestSet {
	k := keyOf(w)
	if c.best == nil || c.bestKey != k {
		c.best, c.bestKey = c.cacheFor(archs).bestSet(w), k
	}
	return c.best
}

// index returns the offers' index, looked up once per call.
func (c *memo) index(offers []knowledge.Offer, archs []knowledge.Arch) *offerIndex {
	if c == nil {
		return newCache(archs).index(offers)
	}
	if c.ix == nil || !same(c.ix.offers, offers) {
		c.ix = c.cacheFor(archs).index(offers)
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
// cache.
func (c *memo) sized(w Workload, archs []knowledge.Arch) (Memory, limits, error) {
	if c == nil {
		e := newCache(archs).sized(w, archs)
		return e.mem, e.lim, e.err
	}
	k := keyOf(w)
	for i := range c.recent {
		if r := &c.recent[i]; r.ok && r.k == k {
			return r.e.mem, r.e.lim, r.e.err
		}
	}
	e := c.cacheFor(archs).sized(w, archs)
	c.recent[1] = c.recent[0]
	c.recent[0].k, c.recent[0].e, c.recent[0].ok = k, e, true
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
