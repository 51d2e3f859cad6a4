package catalog

import (
	"cmp"
	"context"
	"fmt"
	"hash/maphash"
	"slices"
	"time"

	"github.com/gpubot/gpubot/knowledge"
)

// Source is one independent supplier of offers: the shipped seeds, the team
// file, a hosted catalogue CSV or a provider API. Implementations live in
// knowledge/catalog/source.
type Source interface {
	// Name is unique and stable; it names the source's Redis keys and
	// prefixes the offer keys it generates.
	Name() string
	// Fetch reads the source once. A returned error means nothing usable was
	// read, and the source's last good snapshot stays in place.
	Fetch(ctx context.Context, now time.Time) (*Batch, error)
}

// maxProblems caps the row-level problems a batch keeps for its report.
const maxProblems = 20

// Batch is what one fetch of a source produced: normalised offers plus an
// account of what was left out and why.
type Batch struct {
	Offers []knowledge.Offer
	// Ref names what was read: a URL, a file and its content hash, a
	// catalogue version.
	Ref string
	// Skipped counts records left out, by reason (SkipCPUOnly, SkipUnknownGPU, …).
	Skipped map[string]int
	// Unknown counts provider GPU names (or SKUs) that map to no known card.
	Unknown map[string]int
	// Problems holds the first few row-level problems (malformed rows),
	// written for a log or a status line.
	Problems []string

	keys *keyIndex // offer key -> index in Offers, built by Add
	// unchecked is set by Append: Offers may hold duplicate keys until
	// Seal (or the next Add) removes them.
	unchecked bool
}

// Reasons a record is skipped.
const (
	SkipCPUOnly     = "cpu_only"     // no accelerator
	SkipUnknownGPU  = "unknown_gpu"  // a card the knowledge base does not know
	SkipNoPrice     = "no_price"     // missing, zero or unparsable price
	SkipMalformed   = "malformed"    // a row that does not parse
	SkipDuplicate   = "duplicate"    // same offer key twice; the cheaper one stays
	SkipUnsupported = "unsupported"  // a pricing row we do not model (Windows, dev/test, tiered)
	SkipUnmappedSKU = "unmapped_sku" // an instance type without a known card mapping
)

// Skip counts one record left out for reason.
func (b *Batch) Skip(reason string) {
	if b.Skipped == nil {
		b.Skipped = map[string]int{}
	}
	b.Skipped[reason]++
}

// SkipUnknown counts a record whose card name maps to nothing.
func (b *Batch) SkipUnknown(reason, name string) {
	b.Skip(reason)
	if b.Unknown == nil {
		b.Unknown = map[string]int{}
	}
	b.Unknown[name]++
}

// Problem records a row-level problem (kept up to a small cap) and counts
// the row as malformed.
func (b *Batch) Problem(format string, args ...any) {
	b.Skip(SkipMalformed)
	if len(b.Problems) < maxProblems {
		b.Problems = append(b.Problems, fmt.Sprintf(format, args...))
	}
}

// Note records a problem that did not cost a record (an unknown column, a
// platform kept under its own name), up to the same cap.
func (b *Batch) Note(format string, args ...any) {
	if len(b.Problems) < maxProblems {
		b.Problems = append(b.Problems, fmt.Sprintf(format, args...))
	}
}

// Grow reserves room for n more offers, so a large catalogue is not
// copied while it is read.
func (b *Batch) Grow(n int) {
	if n <= 0 {
		return
	}
	b.Offers = slices.Grow(b.Offers, n)
	if b.keys == nil {
		b.index(len(b.Offers) + n)
	}
}

// index builds the key index over the offers already in the batch.
func (b *Batch) index(capacity int) {
	b.keys = newKeyIndex(capacity)
	for i := range b.Offers {
		b.keys.set(b.Offers, b.Offers[i].Key, i)
	}
}

// Add appends an offer, keeping the cheaper of two with the same key.
func (b *Batch) Add(o knowledge.Offer) {
	if b.unchecked {
		b.Seal()
	}
	if b.keys == nil {
		b.index(len(b.Offers) + 64)
	}
	if i, dup := b.keys.get(b.Offers, o.Key); dup {
		b.Skip(SkipDuplicate)
		if o.PriceLow < b.Offers[i].PriceLow {
			b.Offers[i] = o
		}
		return
	}
	b.Offers = append(b.Offers, o)
	b.keys.set(b.Offers, o.Key, len(b.Offers)-1)
}

// Append adds an offer without looking for its key: a parser reading a
// large catalogue appends every row and calls Seal once at the end, which
// removes duplicates exactly as Add would have (the cheaper stays, in the
// place of the first), with one sort instead of a map lookup per row.
// Until Seal, Offers may list a key twice.
func (b *Batch) Append(o knowledge.Offer) {
	b.Offers = append(b.Offers, o)
	b.keys, b.unchecked = nil, true
}

// Seal finishes a batch once its parser has added the last offer: it
// removes the duplicates Append let in and drops the key index Add keeps
// (tens of megabytes at a million offers that a stored batch no longer
// needs; a later Add rebuilds it).
func (b *Batch) Seal() {
	if b.unchecked {
		b.dedupe()
	}
	b.keys, b.unchecked = nil, false
}

// dedupe keeps, for every key, the first offer with the lowest PriceLow
// in the place of the key's first offer, and counts each dropped one as
// SkipDuplicate: what Add does one offer at a time.
func (b *Batch) dedupe() {
	type entry struct {
		h uint64
		i int32
	}
	seed := maphash.MakeSeed()
	es := make([]entry, len(b.Offers))
	for i := range b.Offers {
		es[i] = entry{maphash.String(seed, b.Offers[i].Key), int32(i)}
	}
	slices.SortFunc(es, func(x, y entry) int {
		if c := cmp.Compare(x.h, y.h); c != 0 {
			return c
		}
		return cmp.Compare(x.i, y.i)
	})
	var drop []bool
	for lo := 0; lo < len(es); {
		hi := lo + 1
		for hi < len(es) && es[hi].h == es[lo].h {
			hi++
		}
		// A run shares a hash: equal keys, or (rarely) different keys
		// that collide. Each offer joins the first earlier one with its key.
		for j := lo + 1; j < hi; j++ {
			oj := &b.Offers[es[j].i]
			for k := lo; k < j; k++ {
				first := es[k].i
				if drop != nil && drop[first] || b.Offers[first].Key != oj.Key {
					continue
				}
				if drop == nil {
					drop = make([]bool, len(b.Offers))
				}
				b.Skip(SkipDuplicate)
				if oj.PriceLow < b.Offers[first].PriceLow {
					b.Offers[first] = *oj
				}
				drop[es[j].i] = true
				break
			}
		}
		lo = hi
	}
	if drop == nil {
		return
	}
	out := b.Offers[:0]
	for i := range b.Offers {
		if !drop[i] {
			out = append(out, b.Offers[i])
		}
	}
	clear(b.Offers[len(out):])
	b.Offers = out
}
