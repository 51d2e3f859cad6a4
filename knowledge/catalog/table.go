package catalog

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unsafe"

	"github.com/gpubot/gpubot/knowledge"
)

// Table holds a large catalogue compactly: a knowledge.Offer is 544 bytes
// plus its strings, and two readings of a million-offer catalogue held as
// offers (the previous one and the one being read) were 1.5 GB. A Table
// keeps per row only what differs from row to row, in 32 bytes:
//
//   - the key and the SKU (and a raw hash that is not a plain hex number)
//     length-prefixed in one byte arena, found by one offset;
//   - the raw hash as the 64-bit number it is written from;
//   - the low price as a float64 (the same 8 bytes a fixed-point int64
//     would take, and it reads back bit-for-bit, which FormatAmount needs);
//   - everything that repeats (platform, card, count, region, currency,
//     unit, basis, pricing model, term, dates, source, memory, vCPUs, …) as
//     one id into the table's list of distinct attribute sets: a hosted
//     catalogue has a few thousand of those for a million rows;
//   - the rest (a high or median price unlike the low one, listing,
//     region and availability counts, provider data) in a side record
//     that most rows of a hosted catalogue do not need.
//
// Offer(i) rebuilds the full offer, so code that shows offers keeps using
// knowledge.Offer; the diff and validation read rows one at a time.
type Table struct {
	arena []byte
	// tail is the arena of a table joined after this one, whose rows'
	// offsets start at tailBase: joining it took no copy.
	tail     []byte
	rows     []row
	shapes   []shape
	shapeIDs map[shape]uint32
	recent   *[1 << 14]uint32 // 1 + id of a shape seen lately, by quick(); 0 = none
	extras   []extra
	// distinct is set when dedupe left every key once, and stays set
	// while rows are only removed.
	distinct bool
	// room is the row array the tables of one parse in pieces share
	// (Pieces); this table's rows began at room[at].
	room []row
	at   int
}

// row is one offer.
type row struct {
	str   uint32 // arena offset of uvarint-prefixed key, SKU and odd raw hash
	shape uint32
	extra int32  // 1-based index into extras; 0 = none
	hash  uint64 // RawHash parsed; 0 when the arena holds it (not plain hex, or "0")
	low   float64
}

// extra holds the fields most hosted rows leave at their zero value (high
// equal to low).
type extra struct {
	high, median             float64
	listings, regions, avail int
	providerData             map[string]string
	counts                   []int
}

// shape is every Offer field that repeats across rows.
type shape struct {
	Platform, GPU, Region                        string
	GPUCount, GPUMemoryGiB, VCPUs, RAMGiB, Relia float64
	Currency                                     knowledge.Currency
	Unit                                         knowledge.Unit
	Basis                                        knowledge.Basis
	Model                                        knowledge.PricingModel
	Granularity, Availability, ObservedAt        string
	Source, SourceKind, Note, Status             string
	Zone, Country, RegionLabel, CloudTier, Term  string
	SourceRef, SourceGeneratedAt, Collector      string
	DateBasis                                    string
	Confidence                                   knowledge.Confidence
	Interruptible                                bool
}

// quick is a cheap hash of the fields that tell a hosted catalogue's
// shapes apart, for Table.recent: the card and region strings by address
// (a parser shares each), the pricing model, count and size. Equal shapes
// may hash apart (then the map finds them); that only costs a lookup.
func (sh *shape) quick() uint16 {
	h := uint64(uintptr(unsafe.Pointer(unsafe.StringData(sh.GPU))))
	h = h*31 + uint64(uintptr(unsafe.Pointer(unsafe.StringData(sh.Region))))
	h = h*31 + uint64(len(sh.Model)) + uint64(len(sh.Region))
	h = h*31 + math.Float64bits(sh.GPUCount) + math.Float64bits(sh.VCPUs)>>3 + math.Float64bits(sh.RAMGiB)>>7
	h ^= h >> 29
	h *= 0x9e3779b97f4a7c15
	return uint16(h >> 50)
}

// NewTable returns an empty table with room for n offers of about
// keyBytes bytes of key and SKU each (see Reserve for a better guess).
func NewTable(n, keyBytes int) *Table {
	return &Table{
		arena:    make([]byte, 0, n*(keyBytes+3)),
		rows:     make([]row, 0, n),
		shapeIDs: map[shape]uint32{},
	}
}

// Reserve makes room for n more offers, with arena room for as many bytes
// per offer as the offers so far took (and a tenth more): a parser calls
// it once the first rows have shown how long its keys run, so neither
// slice is copied while the rest is read, nor much over-reserved.
func (t *Table) Reserve(n int) {
	t.rows = slices.Grow(t.rows, n)
	if len(t.rows) > 0 {
		perRow := len(t.arena)/len(t.rows) + 1
		t.arena = slices.Grow(t.arena, n*perRow*11/10)
	}
}

// Len is the number of offers.
func (t *Table) Len() int {
	if t == nil {
		return 0
	}
	return len(t.rows)
}

func (t *Table) put(s string) {
	t.arena = binary.AppendUvarint(t.arena, uint64(len(s)))
	t.arena = append(t.arena, s...)
}

// next reads the string at arena offset off and returns where the one
// after it starts. The arena is append-only: bytes once written never
// change, and a grown arena leaves the old backing array to the strings
// that still point into it, so a string viewed here stays valid.
func (t *Table) next(off int) (string, int) {
	if off >= tailBase {
		s, n := read(t.tail, off-tailBase)
		return s, n + tailBase
	}
	return read(t.arena, off)
}

// tailBase is where the offsets into Table.tail start: a table's own
// arena stays below 2 GiB.
const tailBase = 1 << 31

func read(arena []byte, off int) (string, int) {
	n, w := binary.Uvarint(arena[off:])
	off += w
	if n == 0 {
		return "", off
	}
	return unsafe.String(&arena[off], int(n)), off + int(n)
}

// Append adds one offer.
func (t *Table) Append(o *knowledge.Offer) {
	h, ok := plainHex(o.RawHash)
	t.add(o, h, ok, o.RawHash)
}

// AppendHashed adds one offer whose raw hash is the number rawHash (as
// strconv.FormatUint(rawHash, 16) writes it; o.RawHash is not read): a
// parser that computes the hash need not format it for Append to read it
// back.
func (t *Table) AppendHashed(o *knowledge.Offer, rawHash uint64) {
	t.add(o, rawHash, rawHash != 0, "0")
}

// add is Append with the raw hash read: the number h when plain, else the
// string raw.
func (t *Table) add(o *knowledge.Offer, h uint64, plain bool, raw string) {
	if t.shapeIDs == nil {
		t.shapeIDs = map[shape]uint32{}
	}
	sh := shape{
		Platform: o.Platform, GPU: o.GPU, Region: o.Region,
		GPUCount: o.GPUCount, GPUMemoryGiB: o.GPUMemoryGiB, VCPUs: o.VCPUs, RAMGiB: o.RAMGiB, Relia: o.Reliability,
		Currency: o.Currency, Unit: o.Unit, Basis: o.Basis, Model: o.Model,
		Granularity: o.Granularity, Availability: o.Availability, ObservedAt: o.ObservedAt,
		Source: o.Source, SourceKind: o.SourceKind, Note: o.Note, Status: o.Status,
		Zone: o.Zone, Country: o.Country, RegionLabel: o.RegionLabel, CloudTier: o.CloudTier, Term: o.Term,
		SourceRef: o.SourceRef, SourceGeneratedAt: o.SourceGeneratedAt, Collector: o.CollectorVersion,
		DateBasis: o.DateBasis, Confidence: o.Confidence, Interruptible: o.Interruptible,
	}
	// Hashing a 30-field key per row was most of Append; a row mostly
	// repeats a shape seen a few rows before (a hosted catalogue has a few
	// thousand in all), which a struct compare finds. 16,384 slots keep
	// a few thousand shapes mostly apart; 4,096 had half of them evict
	// each other into the map.
	if t.recent == nil {
		t.recent = new([1 << 14]uint32)
	}
	q := sh.quick()
	id := t.recent[q] - 1
	if t.recent[q] == 0 || t.shapes[id] != sh {
		var ok bool
		if id, ok = t.shapeIDs[sh]; !ok {
			id = uint32(len(t.shapes))
			t.shapes = append(t.shapes, sh)
			t.shapeIDs[sh] = id
		}
		t.recent[q] = id + 1
	}
	r := row{str: uint32(len(t.arena)), shape: id, low: o.PriceLow}
	t.put(o.Key)
	t.put(o.SKU)
	if plain {
		r.hash = h
		t.put("")
	} else {
		t.put(raw)
	}
	if o.PriceHigh != o.PriceLow || o.Median != 0 || o.Listings != 0 || o.Regions != 0 || o.AvailableCount != 0 ||
		o.ProviderData != nil || o.AvailableGPUCounts != nil {
		t.extras = append(t.extras, extra{high: o.PriceHigh, median: o.Median, listings: o.Listings, regions: o.Regions,
			avail: o.AvailableCount, providerData: o.ProviderData, counts: o.AvailableGPUCounts})
		r.extra = int32(len(t.extras))
	}
	t.rows = append(t.rows, r)
	t.distinct = false
}

// appendTable adds u's rows after t's, in order, re-pointing them at t's
// arena, shapes and extras. Shapes equal to one t has take its id (the
// two tables' strings are equal, not shared). The first table joined
// keeps its arena as t's tail, uncopied (two copies of a million keys
// would raise a refresh's peak memory by tens of megabytes); a later one
// is copied into t's arena.
func (t *Table) appendTable(u *Table) {
	t.distinct = false
	if u.tail != nil {
		panic("catalog: a joined table joined again") // AppendBatch's o is one parser's rows
	}
	if t.shapeIDs == nil {
		t.shapeIDs = map[shape]uint32{}
	}
	ids := make([]uint32, len(u.shapes))
	for i, sh := range u.shapes {
		id, ok := t.shapeIDs[sh]
		if !ok {
			id = uint32(len(t.shapes))
			t.shapes = append(t.shapes, sh)
			t.shapeIDs[sh] = id
		}
		ids[i] = id
	}
	var off uint32
	switch {
	case t.tail == nil && len(t.arena) < tailBase && len(u.arena) < tailBase:
		t.tail, off = u.arena, tailBase
	default:
		off = uint32(len(t.arena))
		t.arena = append(t.arena, u.arena...)
	}
	xoff := int32(len(t.extras))
	t.extras = append(t.extras, u.extras...)
	if t.inRoom(u) {
		// u's rows lie in the same array after t's: t grows over them,
		// each row moved down before the next is read.
		t.rows = t.room[t.at : t.at+len(t.rows)]
	}
	t.rows = slices.Grow(t.rows, len(u.rows))
	for _, r := range u.rows {
		r.str += off
		r.shape = ids[r.shape]
		if r.extra > 0 {
			r.extra += xoff
		}
		t.rows = append(t.rows, r)
	}
}

// inRoom reports whether t's and u's rows are still where Pieces put
// them (neither outgrew its share), u's after t's.
func (t *Table) inRoom(u *Table) bool {
	return t.room != nil && unsafe.SliceData(t.room) == unsafe.SliceData(u.room) && t.at+len(t.rows) <= u.at &&
		unsafe.SliceData(t.rows) == unsafe.SliceData(t.room[t.at:]) && unsafe.SliceData(u.rows) == unsafe.SliceData(u.room[u.at:])
}

// plainHex reads s as strconv.FormatUint(h, 16) writes a non-zero h:
// 1–16 lower-case hex digits, no leading zero. Anything else (upper case,
// a leading zero, "0") would not read back the same and stays a string.
func plainHex(s string) (uint64, bool) {
	if len(s) == 0 || len(s) > 16 || s[0] == '0' {
		return 0, false
	}
	var h uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			h = h<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			h = h<<4 | uint64(c-'a'+10)
		default:
			return 0, false
		}
	}
	return h, true
}

// Key is offer i's key.
func (t *Table) Key(i int) string {
	k, _ := t.next(int(t.rows[i].str))
	return k
}

// At fills o with offer i.
func (t *Table) At(i int, o *knowledge.Offer) {
	t.fill(i, o)
	if r := &t.rows[i]; r.hash != 0 {
		o.RawHash = strconv.FormatUint(r.hash, 16)
	}
}

// fill is At without a raw hash to format, the one field it would
// allocate for: the diff and validation never read it.
func (t *Table) fill(i int, o *knowledge.Offer) {
	r := &t.rows[i]
	sh := &t.shapes[r.shape]
	key, off := t.next(int(r.str))
	sku, off := t.next(off)
	hash, _ := t.next(off)
	*o = knowledge.Offer{
		Key: key, SKU: sku, RawHash: hash, PriceLow: r.low, PriceHigh: r.low,
		Platform: sh.Platform, GPU: sh.GPU, Region: sh.Region,
		GPUCount: sh.GPUCount, GPUMemoryGiB: sh.GPUMemoryGiB, VCPUs: sh.VCPUs, RAMGiB: sh.RAMGiB, Reliability: sh.Relia,
		Currency: sh.Currency, Unit: sh.Unit, Basis: sh.Basis, Model: sh.Model,
		Granularity: sh.Granularity, Availability: sh.Availability, ObservedAt: sh.ObservedAt,
		Source: sh.Source, SourceKind: sh.SourceKind, Note: sh.Note, Status: sh.Status,
		Zone: sh.Zone, Country: sh.Country, RegionLabel: sh.RegionLabel, CloudTier: sh.CloudTier, Term: sh.Term,
		SourceRef: sh.SourceRef, SourceGeneratedAt: sh.SourceGeneratedAt, CollectorVersion: sh.Collector,
		DateBasis: sh.DateBasis, Confidence: sh.Confidence, Interruptible: sh.Interruptible,
	}
	if r.extra > 0 {
		x := &t.extras[r.extra-1]
		o.PriceHigh, o.Median, o.Listings, o.Regions, o.AvailableCount = x.high, x.median, x.listings, x.regions, x.avail
		o.ProviderData, o.AvailableGPUCounts = x.providerData, x.counts
	}
}

// fillPrice sets only what a price comparison reads (key, prices, median,
// listings, currency, unit, term, basis, card count, availability),
// leaving o's other fields as they were: the diff compares a million pairs
// and builds whole offers only for the changes.
func (t *Table) fillPrice(i int, o *knowledge.Offer) {
	r := &t.rows[i]
	sh := &t.shapes[r.shape]
	o.Key, _ = t.next(int(r.str))
	o.PriceLow, o.PriceHigh, o.Median, o.Listings = r.low, r.low, 0, 0
	o.Currency, o.Unit, o.Term, o.Basis, o.GPUCount, o.Availability = sh.Currency, sh.Unit, sh.Term, sh.Basis, sh.GPUCount, sh.Availability
	if r.extra > 0 {
		x := &t.extras[r.extra-1]
		o.PriceHigh, o.Median, o.Listings = x.high, x.median, x.listings
	}
}

// Offer returns offer i.
func (t *Table) Offer(i int) knowledge.Offer {
	var o knowledge.Offer
	t.At(i, &o)
	return o
}

// Offers materialises every offer, for storage and answers over a small
// catalogue.
func (t *Table) Offers() []knowledge.Offer {
	if t.Len() == 0 {
		return nil
	}
	out := make([]knowledge.Offer, len(t.rows))
	for i := range t.rows {
		t.At(i, &out[i])
	}
	return out
}

// keep keeps the rows whose keep[i] is true, in order.
func (t *Table) keep(keep []bool) {
	out := t.rows[:0]
	for i := range t.rows {
		if keep[i] {
			out = append(out, t.rows[i])
		}
	}
	t.rows = out
}

// unique reports whether the table is known to list every key once.
func (t *Table) unique() bool { return t.distinct }

// gone reports whether offer i is marked disappeared, without building it.
func (t *Table) gone(i int) bool { return t.shapes[t.rows[i].shape].Status == "disappeared" }

// dedupe keeps, for every key, the first offer with the lowest PriceLow
// in the place of the key's first offer, and returns how many it dropped:
// what Batch.Add does one offer at a time.
func (t *Table) dedupe() int {
	// One word per row: the key's hash in the high bits, the row in the
	// low ones. Sorted, rows with equal hashes run together in row order,
	// in half the memory of a hash and row pair and with a plain sort.
	ib := bits.Len(uint(len(t.rows)))
	mask := uint64(1)<<ib - 1
	seed := maphash.MakeSeed()
	es := make([]uint64, len(t.rows))
	for i := range t.rows {
		es[i] = maphash.String(seed, t.Key(i))&^mask | uint64(i)
	}
	slices.Sort(es)
	var drop []bool
	dropped := 0
	for lo := 0; lo < len(es); {
		hi := lo + 1
		for hi < len(es) && es[hi]&^mask == es[lo]&^mask {
			hi++
		}
		// A run shares a hash: equal keys, or (rarely) different keys
		// that collide. Each offer joins the first earlier one with its key.
		for j := lo + 1; j < hi; j++ {
			rj := int32(es[j] & mask)
			for k := lo; k < j; k++ {
				first := int32(es[k] & mask)
				if drop != nil && drop[first] || t.Key(int(first)) != t.Key(int(rj)) {
					continue
				}
				if drop == nil {
					drop = make([]bool, len(t.rows))
				}
				dropped++
				if t.rows[rj].low < t.rows[first].low {
					t.rows[first] = t.rows[rj]
				}
				drop[rj] = true
				break
			}
		}
		lo = hi
	}
	t.distinct = true
	if drop == nil {
		return 0
	}
	for i := range drop {
		drop[i] = !drop[i]
	}
	t.keep(drop)
	return dropped
}
