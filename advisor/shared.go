package advisor

import (
	"math/bits"
	"sync"

	"github.com/gpubot/gpubot/knowledge"
)

// The engine's cache keeps figures that depend only on a market's data:
// a workload's memory estimate, one replica's roofline on a card, the
// replica each card serves with, the cards' ranking tables and the offers
// indexed by card and normalised to a currency. A bot answers from one
// market and a few dozen workloads, so every call after the first reuses
// them instead of recomputing the same arithmetic per card.
//
// A cache is owned by a value, never by the process: Prepare attaches one
// to a market, which the caller holds for as long as the catalogue is the
// same; a call on a market that was not prepared (or whose architectures
// were swapped since) makes one for that call only. Every figure is sized
// over the architectures the cache was made for.
//
// A prepared market is a snapshot. Its offers are indexed once per slice
// and known by that slice (its first element and its length: the
// catalogue makes a new slice for each version it loads), so a call reads
// no offer twice; an offer edited in place is not noticed, and the
// contract is to call Prepare again after such an edit (or to assign a
// new slice). Cards are keyed by every figure the roofline reads
// (gpuKey), which a ranking compares per card anyway.

// maxShared bounds each table of a cache; a full table is emptied and
// refilled.
const maxShared = 4096

// cache is one market's figures (see above). The zero value is not used:
// newCache makes one.
type cache struct {
	archs []knowledge.Arch // the architectures every figure is sized over
	// kept: the cache outlives the call (a prepared market's), so the
	// price lists its indexes build are kept too.
	kept bool

	mu    sync.Mutex
	sizes map[memKey]memEntry
	quiet map[memKey]memEntry // the same figures without steps (searches)
	// The card-facts search's lists (cardLists), made on first use.
	dense     []denseModel
	stand     []knowledge.Arch
	rooflines map[rooflineKey]Serving
	best      map[memKey]*bestSet
	// offers holds the current offer snapshot's index and the one it
	// replaced (a bot swaps snapshots; a team's filter makes another).
	offers [2]*offerIndex
	cards  *cardSet
	// rangeNotes keeps a market-wide range's note per range and name.
	rangeNotes noteMemo[rangeNoteKey, Text]
}

// noteMemo is a bounded, concurrency-safe table of a pure function's
// results (a note's text per figure) held by a cache: when full it starts
// over, since every value is cheap to make again. The zero value is ready
// to use.
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

func newCache(archs []knowledge.Arch) *cache {
	return &cache{archs: archs, sizes: map[memKey]memEntry{}, quiet: map[memKey]memEntry{}, rooflines: map[rooflineKey]Serving{}, best: map[memKey]*bestSet{}}
}

// Prepare returns m with its engine cache attached: the figures that
// depend only on the cards, architectures and offers are then worked out
// once and reused by every call given this market (or a copy of it). Hold
// the prepared market for as long as the catalogue is the same, and
// prepare again for a new knowledge base.
//
// The offers are taken as a snapshot: swapping m.Offers for another slice
// (a new catalogue version, a filtered copy) keeps the cards' figures and
// indexes the new offers on first use, but offers edited in place (the
// same slice, same length) are not re-read. After editing offers, cards
// or architectures in place, call Prepare again: the new cache reads them
// afresh. MarketOf returns a prepared market. It is safe for concurrent
// use.
func Prepare(m Market) Market {
	m.prep = newCache(m.Archs)
	m.prep.kept = true
	return m
}

// engine returns the market's cache, or a fresh one for this call when the
// market was not prepared or its architectures were swapped since.
func (m Market) engine() *cache {
	if m.prepared() {
		return m.prep
	}
	return newCache(m.Archs)
}

// prepared reports whether m's calls answer from its kept cache.
func (m Market) prepared() bool { return m.prep != nil && same(m.prep.archs, m.Archs) }

// same reports whether a and b are the same slice: the same elements in
// the same memory.
func same[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
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

// same reports whether g still has the figures k recorded (keyOfGPU(g) ==
// k), comparing each field where it is instead of copying them into a key.
func (k *gpuKey) same(g *knowledge.GPU) bool {
	return g.VRAMGB == k.vram && g.BandwidthGBs == k.bw && g.BF16TFLOPS == k.bf16 && g.FP16TFLOPS == k.fp16 &&
		g.FP8TFLOPS == k.fp8 && g.FP4TFLOPS == k.fp4 && g.FP32TFLOPS == k.fp32 && g.NVLinkGBs == k.nv &&
		g.FabricGBs == k.fabricGBs && g.TDPWatts == k.tdp && g.PCIeGen == k.pcie && g.Tier == k.tier &&
		g.ID == k.id && g.Name == k.name && g.Vendor == k.vendor && g.Fabric == k.fabric
}

type rooflineKey struct {
	k            memKey
	g            gpuKey
	n, in, out   int
	conc         int
	memGB, perSq float64 // the limits the roofline read (derived from k, kept as a guard)
}

// bestSet holds, for one workload, the replica bestServing picks on each
// card in a ranking pass (no texts). It is looked up once per call; each
// card is then found by its id and checked against every figure the
// roofline reads, which is cheaper than hashing those figures for every
// card.
type bestSet struct {
	mu sync.Mutex
	m  map[bestKey]bestVal
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

// bestSet returns the cache's set for the workload w.
func (c *cache) bestSet(w Workload) *bestSet {
	key := keyOf(w)
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.best[key]; ok {
		return b
	}
	if len(c.best) >= maxShared {
		c.best = map[memKey]*bestSet{}
	}
	b := &bestSet{m: map[bestKey]bestVal{}}
	c.best[key] = b
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

// sized returns the memory estimate and limits of w over archs, computed
// once per cache (archs other than the cache's are sized afresh).
func (c *cache) sized(w Workload, archs []knowledge.Arch) memEntry {
	if !same(archs, c.archs) {
		return sizeOf(w, archs)
	}
	key := keyOf(w)
	c.mu.Lock()
	e, ok := c.sizes[key]
	c.mu.Unlock()
	if ok {
		return e
	}
	e = sizeOf(w, archs)
	c.mu.Lock()
	if len(c.sizes) >= maxShared {
		c.sizes = map[memKey]memEntry{}
	}
	c.sizes[key] = e
	c.mu.Unlock()
	return e
}

// quietSized is quietSize(w, archs), kept: archs are the cache's own or
// its stand-ins (a bare size is shaped from those alone, so either gives
// the same figures).
func (c *cache) quietSized(w Workload, archs []knowledge.Arch) memEntry {
	key := keyOf(w)
	c.mu.Lock()
	e, ok := c.quiet[key]
	c.mu.Unlock()
	if ok {
		return e
	}
	e = quietSize(w, archs)
	c.mu.Lock()
	if len(c.quiet) >= maxShared {
		c.quiet = map[memKey]memEntry{}
	}
	c.quiet[key] = e
	c.mu.Unlock()
	return e
}

// sizeOf is the memory estimate of w and its limits.
func sizeOf(w Workload, archs []knowledge.Arch) memEntry {
	mem, err := EstimateMemory(w, archs)
	var lim limits
	if err == nil {
		lim, err = newLimits(mem, archs)
	}
	mem.Lines, mem.Assumptions = clip(mem.Lines), clip(mem.Assumptions)
	return memEntry{mem, lim, err}
}

// serveOn is serveOn, computed once per cache for a card, layout, workload
// and request shape.
func (c *cache) serveOn(g knowledge.GPU, n int, mem Memory, lim limits, in ServeInput, archs []knowledge.Arch) Serving {
	if !same(archs, c.archs) {
		return serveOn(g, n, mem, lim, in)
	}
	key := rooflineKey{keyOf(mem.Workload), keyOfGPU(g), n, in.InputTokens, in.OutputTokens, in.Concurrency, lim.fixed, lim.perSeq}
	c.mu.Lock()
	s, ok := c.rooflines[key]
	c.mu.Unlock()
	if ok {
		return s
	}
	s = serveOn(g, n, mem, lim, in)
	s.Lines, s.Assumptions = clip(s.Lines), clip(s.Assumptions)
	c.mu.Lock()
	if len(c.rooflines) >= maxShared {
		c.rooflines = map[rooflineKey]Serving{}
	}
	c.rooflines[key] = s
	c.mu.Unlock()
	return s
}

// offerIndex is one offers slice indexed by card, with its offers
// normalised per currency and rate on first use.
type offerIndex struct {
	mu     sync.Mutex
	offers []knowledge.Offer
	// kept: the index belongs to a prepared market's cache and outlives
	// the call, so the lists it builds are kept too.
	kept  bool
	byGPU map[string][]int
	// norm holds, per currency and rate and per card, the normalised
	// price of each offer (quiet: no conversion text); ok false where it
	// has none.
	norm  map[normKey]map[string][]normPrice
	lists map[listKey]PriceList
	// figures keeps each offer's published figure as text (its source
	// line), by the offer's place.
	figures noteMemo[int, string]
}

// source is offerSource for the offer at i, whose normalised price is cp,
// with the figure's text kept in the index.
func (ix *offerIndex) source(i int, cp CardPrice) PriceSource {
	s := PriceSource{What: "hourly", Offer: cp.Offer, Platform: cp.Platform, GPU: cp.GPU, ObservedAt: cp.ObservedAt, Source: cp.Source}
	s.Figure = ix.figures.get(i, cp.Original.String)
	return s
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

// index returns the index of offers, kept in the cache. An index is
// known by the slice it was made from (where it starts and how long it
// is), never by the offers' contents: a prepared market's offers are read
// as they were when first indexed (see Prepare), so no call re-reads
// them. Another slice (a new snapshot, a team's filter) gets a new index,
// which replaces the older of the two kept.
func (c *cache) index(offers []knowledge.Offer) *offerIndex {
	c.mu.Lock()
	kept := c.offers
	c.mu.Unlock()
	for _, ix := range kept {
		if ix != nil && same(ix.offers, offers) {
			return ix
		}
	}
	ix := indexOf(offers)
	ix.kept = c.kept
	c.mu.Lock()
	c.offers[1], c.offers[0] = c.offers[0], ix
	c.mu.Unlock()
	return ix
}

// indexOf indexes offers by card, for one call (cache.index keeps one).
func indexOf(offers []knowledge.Offer) *offerIndex {
	ix := &offerIndex{offers: offers, byGPU: map[string][]int{}}
	for i := range offers {
		ix.byGPU[offers[i].GPU] = append(ix.byGPU[offers[i].GPU], i)
	}
	return ix
}

// indexFor indexes the offers of one card only, for a call that asks
// about one card and keeps nothing.
func indexFor(offers []knowledge.Offer, gpu string) *offerIndex {
	// One pass marks the card's offers (a bit each, on the stack for up
	// to 4,096 offers) and counts them, so the list is made once, at its
	// length, without comparing every offer's card twice.
	var small [64]uint64
	marks := small[:]
	if w := (len(offers) + 63) / 64; w > len(small) {
		marks = make([]uint64, w)
	}
	n := 0
	for i := range offers {
		if offers[i].GPU == gpu {
			marks[i/64] |= 1 << (i % 64)
			n++
		}
	}
	var at []int
	if n > 0 {
		at = make([]int, 0, n)
		for w, m := range marks {
			for ; m != 0; m &= m - 1 {
				at = append(at, w*64+bits.TrailingZeros64(m))
			}
		}
	}
	return &offerIndex{offers: offers, byGPU: map[string][]int{gpu: at}}
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
		n[j].cp, n[j].ok = normalizeOffer(&ix.offers[i], cur, fx, false)
	}
	byGPU[gpu] = n
	return n
}

// list returns the cached price list for one card, or builds it.
// cur and fx are the caller's own arguments (before defaults), since the
// list's inputs say which were defaulted.
func (ix *offerIndex) list(gpu string, cur knowledge.Currency, fx float64, build func() PriceList) PriceList {
	if !ix.kept { // an index for one call: nothing to keep
		return build()
	}
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
// its range, then the high end, then the key (a price list's order); the
// price carries no conversion text.
func (ix *offerIndex) cheapest(gpu string, p *pricing, f OfferFilter) (CardPrice, bool) {
	_, cp, ok := ix.cheapestAt(gpu, p, f)
	return cp, ok
}

// cheapestAt is cheapest with the offer's position in the slice.
func (ix *offerIndex) cheapestAt(gpu string, p *pricing, f OfferFilter) (int, CardPrice, bool) {
	at := ix.byGPU[gpu]
	norm := ix.normalisedFor(gpu, p.cur, p.fx)
	j, cp, found := cheapestOf(len(at), func(j int) (*knowledge.Offer, CardPrice, bool) { return &ix.offers[at[j]], norm[j].cp, norm[j].ok }, p, f)
	if !found {
		return -1, cp, false
	}
	return at[j], cp, true
}

// cheapestOf picks, among n offers (the j-th one, its normalised price and
// whether it has one), the cheapest that f keeps: by the low end, then the
// high end, then the key (a price list's order). It returns the place j.
func cheapestOf(n int, offer func(j int) (*knowledge.Offer, CardPrice, bool), p *pricing, f OfferFilter) (int, CardPrice, bool) {
	var best CardPrice
	at, found := -1, false
	for j := range n {
		o, c, ok := offer(j)
		if !ok || !f.keep(o, &c, p.cur) {
			continue
		}
		if !found || c.Low < best.Low || (c.Low == best.Low && (c.High < best.High || c.High == best.High && c.Offer < best.Offer)) {
			best, at, found = c, j, true
		}
	}
	return at, best, found
}
