package catalog

import (
	"context"
	"fmt"
	"slices"
	"strings"
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
	// Offers are what Add collected; Rows what Append did (a large hosted
	// catalogue, held compactly). All returns both.
	Offers []knowledge.Offer
	Rows   *Table
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
	// unchecked is set by Append: Rows may hold duplicate keys until
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
	if _, seen := b.Unknown[name]; !seen {
		name = strings.Clone(name) // the batch outlives the bytes a parser's name may point into
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

// GrowRows reserves room in Rows for n more offers of about keyBytes of
// key and SKU each, for a parser that Appends.
func (b *Batch) GrowRows(n, keyBytes int) {
	if b.Rows == nil && n > 0 {
		b.Rows = NewTable(n, keyBytes)
	}
}

// index builds the key index over the offers already in the batch.
func (b *Batch) index(capacity int) {
	b.keys = newKeyIndex(capacity)
	for i := range b.Offers {
		b.keys.set(offerSlice(b.Offers), b.Offers[i].Key, i)
	}
}

// Add appends an offer, keeping the cheaper of two with the same key.
func (b *Batch) Add(o knowledge.Offer) {
	if b.unchecked {
		b.Seal()
	}
	if b.Rows != nil {
		b.materialise()
	}
	if b.keys == nil {
		b.index(len(b.Offers) + 64)
	}
	if i, dup := b.keys.get(offerSlice(b.Offers), o.Key); dup {
		b.Skip(SkipDuplicate)
		if o.PriceLow < b.Offers[i].PriceLow {
			b.Offers[i] = o
		}
		return
	}
	b.Offers = append(b.Offers, o)
	b.keys.set(offerSlice(b.Offers), o.Key, len(b.Offers)-1)
}

// Append adds an offer without looking for its key, into Rows: a parser
// reading a large catalogue appends every row and calls Seal once at the
// end, which removes duplicates exactly as Add would have (the cheaper
// stays, in the place of the first), with one sort instead of a map lookup
// per row. Until Seal, Rows may list a key twice.
func (b *Batch) Append(o *knowledge.Offer) {
	if b.Rows == nil {
		b.Rows = NewTable(len(b.Offers), 0)
	}
	b.Rows.Append(o)
	b.keys, b.unchecked = nil, true
}

// AppendHashed is Append for an offer whose raw hash is the number
// rawHash (Table.AppendHashed).
func (b *Batch) AppendHashed(o *knowledge.Offer, rawHash uint64) {
	if b.Rows == nil {
		b.Rows = NewTable(len(b.Offers), 0)
	}
	b.Rows.AppendHashed(o, rawHash)
	b.keys, b.unchecked = nil, true
}

// Seal finishes a batch once its parser has added the last offer: it
// removes the duplicates Append let in and drops the key index Add keeps
// (tens of megabytes at a million offers that a stored batch no longer
// needs; a later Add rebuilds it).
func (b *Batch) Seal() {
	if b.unchecked {
		for range b.Rows.dedupe() {
			b.Skip(SkipDuplicate)
		}
	}
	b.keys, b.unchecked = nil, false
}

// Pieces returns one empty batch per piece of a catalogue a parser reads
// in pieces at once, for up to records[i] offers in piece i, with room
// for the first of them of about keyBytes of key and SKU each. Their rows
// share one array, each piece its own stretch, so joining them in order
// (AppendBatch) moves rows down that array instead of copying them into
// a new one: at a million offers that saves a second array of rows.
func Pieces(ref string, records []int, keyBytes int) []*Batch {
	total := 0
	for _, n := range records {
		total += n
	}
	room := make([]row, total)
	out := make([]*Batch, len(records))
	at := 0
	for i, n := range records {
		t := NewTable(0, 0)
		t.arena = make([]byte, 0, min(n, 1024)*(keyBytes+3))
		t.rows, t.room, t.at = room[at:at:at+n], room, at
		out[i] = &Batch{Ref: ref, Rows: t}
		at += n
	}
	return out
}

// AppendBatch adds o's rows and its account (skips, unknown names,
// problems) after b's, as if the records o was read from had followed b's:
// a parser that reads a large catalogue in pieces at once, one batch per
// piece, joins them in order with it. o must hold Appended rows only
// (no Offers), none joined from other batches, and is not to be used
// afterwards; b's duplicates, o's and
// any across the two are removed by the Seal that follows, as if one
// parser had appended every row.
func (b *Batch) AppendBatch(o *Batch) {
	for reason, n := range o.Skipped {
		if b.Skipped == nil {
			b.Skipped = map[string]int{}
		}
		b.Skipped[reason] += n
	}
	for name, n := range o.Unknown {
		if b.Unknown == nil {
			b.Unknown = map[string]int{}
		}
		b.Unknown[name] += n
	}
	// Each piece kept its first problems; b's come first, so the capped
	// list is what one reader would have kept.
	for _, p := range o.Problems {
		if len(b.Problems) < maxProblems {
			b.Problems = append(b.Problems, p)
		}
	}
	if o.Rows.Len() == 0 {
		return
	}
	if b.Rows == nil {
		b.Rows = NewTable(0, 0)
	}
	b.Rows.appendTable(o.Rows)
	b.keys, b.unchecked = nil, true
}

// Len is how many offers the batch holds, in Offers and Rows.
func (b *Batch) Len() int { return len(b.Offers) + b.Rows.Len() }

// All returns every offer of the batch: Offers, then Rows built into
// offers (a copy of 544 bytes each: for small batches and tests).
func (b *Batch) All() []knowledge.Offer {
	if b.Rows.Len() == 0 {
		return b.Offers
	}
	return append(slices.Clip(b.Offers), b.Rows.Offers()...)
}

// materialise moves Rows into Offers, for Add, which keeps its index over
// Offers.
func (b *Batch) materialise() {
	if b.Rows.Len() > 0 {
		b.Offers = b.All()
	}
	b.Rows = nil
}
