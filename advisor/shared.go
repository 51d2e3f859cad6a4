package advisor

import (
	"sync"
	"unsafe"

	"github.com/gpubot/gpubot/knowledge"
)

// The shared caches keep, across calls, figures that depend only on the
// market's data: a workload's memory estimate, one replica's roofline on a
// card, and offers normalised to a currency. A bot answers from one or two
// markets and a few dozen workloads, so every call after the first reuses
// them instead of recomputing the same arithmetic per card.
//
// A market's slices are identified by their first element's address and
// length. Each entry keeps its slice alive, so that address cannot be
// reused by another slice while the entry exists. Offers are also checked
// field by field before a cached price list is used (see offerIndex), so
// an offer edited in place is never priced from a stale figure; cards are
// keyed by every figure the roofline reads (gpuKey).

// maxShared bounds each cache; a full cache is emptied and refilled.
const maxShared = 4096

// noteMemo is a bounded, concurrency-safe table of a pure function's results
// (a note's text per figure): when full it starts over, since every value
// is cheap to make again. The zero value is ready to use.
type noteMemo[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

// get returns the value kept for k, making and keeping it first if needed.
func (c *noteMemo[K, V]) get(k K, build func() V) V {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = build()
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxShared {
		c.m = map[K]V{}
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}

type sliceID[T any] struct {
	p *T
	n int
}

func idOf[T any](s []T) sliceID[T] {
	if len(s) == 0 {
		return sliceID[T]{}
	}
	return sliceID[T]{&s[0], len(s)}
}

// clip caps a slice at its length, so that a caller's append copies
// instead of writing into a cached backing array.
func clip[T any](s []T) []T { return s[:len(s):len(s)] }

// gpuKey is every scalar figure of a card: the roofline reads only these.
type gpuKey struct {
	id, name, vendor, fabric                 string
	tier                                     knowledge.Tier
	vram, bw, bf16, fp16, fp8, fp4, fp32, nv float64
	fabricGBs, tdp                           float64
	pcie                                     int
}

func keyOfGPU(g knowledge.GPU) gpuKey {
	return gpuKey{g.ID, g.Name, g.Vendor, g.Fabric, g.Tier, g.VRAMGB, g.BandwidthGBs, g.BF16TFLOPS, g.FP16TFLOPS,
		g.FP8TFLOPS, g.FP4TFLOPS, g.FP32TFLOPS, g.NVLinkGBs, g.FabricGBs, g.TDPWatts, g.PCIeGen}
}

// same reports whether g still has the figures k recorded: keyOfGPU(g) ==
// k, comparing each field where it is (a card's strings, unchanged, share
// their bytes with the record) instead of copying them into a key.
func (k *gpuKey) same(g *knowledge.GPU) bool {
	return g.VRAMGB == k.vram && g.BandwidthGBs == k.bw && g.BF16TFLOPS == k.bf16 && g.FP16TFLOPS == k.fp16 &&
		g.FP8TFLOPS == k.fp8 && g.FP4TFLOPS == k.fp4 && g.FP32TFLOPS == k.fp32 && g.NVLinkGBs == k.nv &&
		g.FabricGBs == k.fabricGBs && g.TDPWatts == k.tdp && g.PCIeGen == k.pcie && g.Tier == k.tier &&
		eq(g.ID, k.id) && eq(g.Name, k.name) && eq(g.Vendor, k.vendor) && eq(g.Fabric, k.fabric)
}

type sizedKey struct {
	archs sliceID[knowledge.Arch]
	k     memKey
}

type sizedVal struct {
	archs []knowledge.Arch // keeps the identity's slice alive
	e     memEntry
}

type rooflineKey struct {
	archs        sliceID[knowledge.Arch]
	k            memKey
	g            gpuKey
	n, in, out   int
	conc         int
	memGB, perSq float64 // the limits the roofline read (derived from k, kept as a guard)
}

type rooflineVal struct {
	archs []knowledge.Arch
	s     Serving
}

var shared struct {
	sync.Mutex
	sized     map[sizedKey]sizedVal
	rooflines map[rooflineKey]rooflineVal
	offers    map[sliceID[knowledge.Offer]]*offerIndex
	best      map[sizedKey]*bestSet
}

// bestSet holds, for one workload over one set of architectures, the
// replica bestServing picks on each card in a ranking pass (no texts).
// It is looked up once per call; each card is then found by its id and
// checked against every figure the roofline reads, which is cheaper than
// hashing those figures for every card.
type bestSet struct {
	mu    sync.Mutex
	archs []knowledge.Arch
	m     map[bestKey]bestVal
}

type bestKey struct {
	gpu                        string
	given, need, in, out, conc int
	peak                       float64
}

type bestVal struct {
	g   gpuKey
	s   Serving
	err error
}

// bestSetOf returns the shared set for the workload w over archs.
func bestSetOf(w Workload, archs []knowledge.Arch) *bestSet {
	key := sizedKey{idOf(archs), keyOf(w)}
	shared.Lock()
	defer shared.Unlock()
	if b, ok := shared.best[key]; ok {
		return b
	}
	if shared.best == nil || len(shared.best) >= maxShared {
		shared.best = map[sizedKey]*bestSet{}
	}
	b := &bestSet{archs: archs, m: map[bestKey]bestVal{}}
	shared.best[key] = b
	return b
}

func (b *bestSet) get(k bestKey, g gpuKey) (Serving, bool, error) {
	b.mu.Lock()
	v, ok := b.m[k]
	b.mu.Unlock()
	if !ok || v.g != g {
		return Serving{}, false, nil
	}
	return v.s, true, v.err
}

func (b *bestSet) put(k bestKey, g gpuKey, s Serving, err error) {
	s.Lines, s.Assumptions = clip(s.Lines), clip(s.Assumptions)
	b.mu.Lock()
	if len(b.m) >= maxShared {
		b.m = map[bestKey]bestVal{}
	}
	b.m[k] = bestVal{g, s, err}
	b.mu.Unlock()
}

// sharedSized returns the memory estimate and limits of w over archs,
// computed once per process.
func sharedSized(w Workload, archs []knowledge.Arch) memEntry {
	key := sizedKey{idOf(archs), keyOf(w)}
	shared.Lock()
	v, ok := shared.sized[key]
	shared.Unlock()
	if ok {
		return v.e
	}
	mem, err := EstimateMemory(w, archs)
	var lim limits
	if err == nil {
		lim, err = newLimits(mem, archs)
	}
	mem.Lines, mem.Assumptions = clip(mem.Lines), clip(mem.Assumptions)
	e := memEntry{mem, lim, err}
	shared.Lock()
	if shared.sized == nil || len(shared.sized) >= maxShared {
		shared.sized = map[sizedKey]sizedVal{}
	}
	shared.sized[key] = sizedVal{archs, e}
	shared.Unlock()
	return e
}

// sharedServeOn is serveOn, computed once per process for a card, layout,
// workload and request shape.
func sharedServeOn(g knowledge.GPU, n int, mem Memory, lim limits, in ServeInput, archs []knowledge.Arch) Serving {
	key := rooflineKey{idOf(archs), keyOf(mem.Workload), keyOfGPU(g), n, in.InputTokens, in.OutputTokens, in.Concurrency, lim.fixed, lim.perSeq}
	shared.Lock()
	v, ok := shared.rooflines[key]
	shared.Unlock()
	if ok {
		return v.s
	}
	s := serveOn(g, n, mem, lim, in)
	s.Lines, s.Assumptions = clip(s.Lines), clip(s.Assumptions)
	shared.Lock()
	if shared.rooflines == nil || len(shared.rooflines) >= maxShared {
		shared.rooflines = map[rooflineKey]rooflineVal{}
	}
	shared.rooflines[key] = rooflineVal{archs, s}
	shared.Unlock()
	return s
}

// offerSig is every field of an offer that its normalised price, its
// filters and its price list read.
type offerSig struct {
	key, platform, gpu, sku, region, granularity string
	observed, source, note, status, term         string
	cur                                          knowledge.Currency
	unit                                         knowledge.Unit
	basis                                        knowledge.Basis
	model                                        knowledge.PricingModel
	count, low, high                             float64
	interruptible                                bool
}

func sigOf(o *knowledge.Offer) offerSig {
	return offerSig{o.Key, o.Platform, o.GPU, o.SKU, o.Region, o.Granularity, o.ObservedAt, o.Source, o.Note, o.Status, o.Term,
		o.Currency, o.Unit, o.Basis, o.Model, o.GPUCount, o.PriceLow, o.PriceHigh, o.Interruptible}
}

// offerIndex is one offers slice indexed by card, with its offers
// normalised per currency and rate on first use.
type offerIndex struct {
	mu     sync.Mutex
	offers []knowledge.Offer // keeps the identity's slice alive
	sigs   []offerSig
	byGPU  map[string][]int
	// norm holds, per currency and rate and per card, the normalised
	// price of each offer (quiet: no conversion text); ok false where it
	// has none.
	norm  map[normKey]map[string][]normPrice
	lists map[listKey]PriceList
}

type normKey struct {
	cur knowledge.Currency
	fx  float64
}

type listKey struct {
	gpu string
	normKey
}

type normPrice struct {
	cp CardPrice
	ok bool
}

// indexOf returns the index of offers, building it on first use. It checks
// every offer against the index's copy of its fields (a few string and
// number compares each) and rebuilds the index when any differs.
func indexOf(offers []knowledge.Offer) *offerIndex {
	id := idOf(offers)
	shared.Lock()
	ix := shared.offers[id]
	shared.Unlock()
	if ix != nil && ix.matches(offers) {
		return ix
	}
	ix = &offerIndex{offers: offers, sigs: make([]offerSig, len(offers)), byGPU: map[string][]int{}}
	for i := range offers {
		ix.sigs[i] = sigOf(&offers[i])
		ix.byGPU[offers[i].GPU] = append(ix.byGPU[offers[i].GPU], i)
	}
	shared.Lock()
	// Two snapshots at most (the current one and the one it replaced):
	// an index holds a copy of every offer's fields.
	if shared.offers == nil || len(shared.offers) >= 2 {
		shared.offers = map[sliceID[knowledge.Offer]]*offerIndex{}
	}
	shared.offers[id] = ix
	shared.Unlock()
	return ix
}

func (ix *offerIndex) matches(offers []knowledge.Offer) bool {
	if len(offers) != len(ix.sigs) {
		return false
	}
	for i := range offers {
		if !ix.sigs[i].same(&offers[i]) {
			return false
		}
	}
	return true
}

// same reports whether o still has the fields s recorded. Strings of an
// unchanged offer share their bytes with the record, so most compare by
// address without reading them.
func (s *offerSig) same(o *knowledge.Offer) bool {
	return o.PriceLow == s.low && o.PriceHigh == s.high && o.GPUCount == s.count && o.Interruptible == s.interruptible &&
		eq(o.Key, s.key) && eq(o.Platform, s.platform) && eq(o.GPU, s.gpu) && eq(o.SKU, s.sku) && eq(o.Region, s.region) &&
		eq(o.Granularity, s.granularity) && eq(o.ObservedAt, s.observed) && eq(o.Source, s.source) && eq(o.Note, s.note) &&
		eq(o.Status, s.status) && eq(o.Term, s.term) && eq(string(o.Currency), string(s.cur)) && eq(string(o.Unit), string(s.unit)) &&
		eq(string(o.Basis), string(s.basis)) && eq(string(o.Model), string(s.model))
}

func eq(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

// normalisedFor returns the offers of one card normalised to cur at fx,
// parallel to ix.byGPU[gpu]; only the cards asked about are normalised,
// and a few currencies and rates are kept.
func (ix *offerIndex) normalisedFor(gpu string, cur knowledge.Currency, fx float64) []normPrice {
	k := normKey{cur, fx}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	byGPU, ok := ix.norm[k]
	if !ok {
		if ix.norm == nil || len(ix.norm) >= 4 {
			ix.norm = map[normKey]map[string][]normPrice{}
		}
		byGPU = map[string][]normPrice{}
		ix.norm[k] = byGPU
	}
	if n, ok := byGPU[gpu]; ok {
		return n
	}
	at := ix.byGPU[gpu]
	n := make([]normPrice, len(at))
	for j, i := range at {
		n[j].cp, n[j].ok = normalizeOffer(ix.offers[i], cur, fx, false)
	}
	byGPU[gpu] = n
	return n
}

// list returns the cached price list for one card, or builds it.
// cur and fx are the caller's own arguments (before defaults), since the
// list's inputs say which were defaulted.
func (ix *offerIndex) list(gpu string, cur knowledge.Currency, fx float64, build func() PriceList) PriceList {
	k := listKey{gpu, normKey{cur, fx}}
	ix.mu.Lock()
	l, ok := ix.lists[k]
	ix.mu.Unlock()
	if !ok {
		l = build()
		ix.mu.Lock()
		if ix.lists == nil || len(ix.lists) >= 256 {
			ix.lists = map[listKey]PriceList{}
		}
		ix.lists[k] = l
		ix.mu.Unlock()
	}
	// A copy of every slice: the caller owns its answer.
	l.Inputs.Defaulted = copyOf(l.Inputs.Defaulted)
	l.Offers = copyOf(l.Offers)
	l.Assumptions = copyOf(l.Assumptions)
	l.Lines = copyOf(l.Lines)
	l.Sources = copyOf(l.Sources)
	return l
}

// copyOf copies s, keeping a nil slice nil (it is written as null).
func copyOf[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// cheapest is the cheapest offer for gpu that f keeps, by the low end of
// its range, then the high end, then the key (sortPrices' order); the
// price carries no conversion text.
func (ix *offerIndex) cheapest(gpu string, p *pricing, f OfferFilter) (CardPrice, bool) {
	_, cp, ok := ix.cheapestAt(gpu, p, f)
	return cp, ok
}

// cheapestAt is cheapest with the offer's position in the slice.
func (ix *offerIndex) cheapestAt(gpu string, p *pricing, f OfferFilter) (int, CardPrice, bool) {
	norm := ix.normalisedFor(gpu, p.cur, p.fx)
	var best CardPrice
	at, found := -1, false
	for j, i := range ix.byGPU[gpu] {
		c := norm[j].cp
		if !norm[j].ok || !f.keep(&ix.offers[i], &c, p.cur) {
			continue
		}
		if !found || c.Low < best.Low || (c.Low == best.Low && (c.High < best.High || c.High == best.High && c.Offer < best.Offer)) {
			best, at, found = c, i, true
		}
	}
	return at, best, found
}
