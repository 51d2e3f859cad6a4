package source

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

const gpuhuntCollector = "gpuhunt-csv/1"

// GPUHunt reads a gpuhunt catalogue CSV (<provider>.csv from a published
// catalogue) from a file or URL. The provider is not a column; it comes
// from configuration (ProviderFromPath reads it off the file name). Prices
// are per instance and hourly; spot is a column. Older catalogues without
// cpu_arch and provider_data load with gpuhunt's defaults (x86; vendor
// nvidia when there are GPUs). A row without instance_name or with an
// unparsable number is reported and skipped, as gpuhunt does.
type GPUHunt struct {
	Provider string
	Location string // file path or http(s) URL
	Mapper   *Mapper
	Base     *knowledge.Base // canonicalises the platform id; may be nil
	HTTP     HTTPOptions
}

// Name is "gpuhunt-<provider>".
func (g *GPUHunt) Name() string { return "gpuhunt-" + slug(g.Provider) }

// Fetch reads and parses the catalogue.
func (g *GPUHunt) Fetch(ctx context.Context, now time.Time) (*catalog.Batch, error) {
	return fetchHosted(ctx, "gpuhunt "+g.Provider, g.Location, g.HTTP, now, g.Parse)
}

// Parse turns catalogue bytes into a batch.
func (g *GPUHunt) Parse(raw []byte, ref string, now time.Time) (*catalog.Batch, error) {
	// A catalogue of a million rows is read in pieces at once, one per
	// core: parsing is most of a refresh's time. Two at most: the second
	// piece's keys join the first's uncopied, a third's would be copied,
	// raising the refresh's peak memory for little gain.
	pieces := 1
	if len(raw) >= parallelBytes {
		pieces = min(runtime.GOMAXPROCS(0), 2)
	}
	return g.parse(raw, ref, now, pieces)
}

// parallelBytes is the size from which Parse reads a catalogue in pieces:
// below it (about 10,000 rows) starting goroutines and joining batches
// costs more than it saves.
const parallelBytes = 1 << 20

// parse is Parse reading quote-free bytes in up to pieces pieces at once
// (split at line ends), each into its own batch, joined in order: the same
// batch as one reader gives, rows, line numbers and all.
func (g *GPUHunt) parse(raw []byte, ref string, now time.Time, pieces int) (*catalog.Batch, error) {
	r, header, err := openCSVShared(raw)
	if err != nil {
		return nil, err
	}
	idx, err := headerIndex(header, "instance_name", "location", "price", "gpu_count", "gpu_name", "spot")
	if err != nil {
		return nil, err
	}
	p := gpuhuntParse{
		g: g, c: gpuhuntColsOf(idx), cells: len(header),
		name: g.Name(), platform: platformID(g.Base, g.Provider),
		observed: now.UTC().Format(time.RFC3339), source: "gpuhunt catalogue (" + g.Provider + ")",
		ref: "gpuhunt:" + ref,
	}
	plain, ok := r.(*plainCSV)
	if !ok || pieces < 2 {
		b := &catalog.Batch{Ref: p.ref}
		p.rows(b, r, bytes.Count(raw, []byte{'\n'}))
		b.Seal()
		return b, nil
	}
	readers := splitPlain(plain, pieces)
	// A last line without an end is a record too: +1.
	records := make([]int, len(readers))
	for i, r := range readers {
		records[i] = bytes.Count(r.raw, []byte{'\n'}) + 1
	}
	batches := catalog.Pieces(p.ref, records, 64)
	var wg sync.WaitGroup
	for i := 1; i < len(readers); i++ {
		wg.Go(func() { p.rows(batches[i], readers[i], records[i]) })
	}
	p.rows(batches[0], readers[0], records[0])
	wg.Wait()
	b := batches[0]
	for _, o := range batches[1:] {
		b.AppendBatch(o)
	}
	b.Seal()
	return b, nil
}

// splitPlain cuts what r has left to read into up to n readers of about
// equal size, each starting on a line of its own and numbering lines as r
// would have.
func splitPlain(r *plainCSV, n int) []*plainCSV {
	var out []*plainCSV
	rest, line := r.raw, r.next
	for k := n; k > 1 && len(rest) > 0; k-- {
		cut := bytes.IndexByte(rest[len(rest)/k:], '\n')
		if cut < 0 {
			break
		}
		piece := rest[:len(rest)/k+cut+1]
		out = append(out, &plainCSV{raw: piece, next: line, shared: r.shared})
		line += bytes.Count(piece, []byte{'\n'})
		rest = rest[len(piece):]
	}
	return append(out, &plainCSV{raw: rest, next: line, shared: r.shared})
}

// gpuhuntParse is what every piece of one catalogue is read with.
type gpuhuntParse struct {
	g                                     *GPUHunt
	c                                     gpuhuntCols
	cells                                 int
	name, platform, observed, source, ref string
}

// gpuhuntCard is what a card name and memory cell resolve to.
type gpuhuntCard struct {
	mem     float64
	gpu     string // "" when unknown
	unknown string // the name Unknown counts it under
}

// rows reads r's records (lines at most) into b, which reserves room for
// them once the first have shown how long keys run.
func (p *gpuhuntParse) rows(b *catalog.Batch, r csvRows, lines int) {
	const sample = 1024
	b.GrowRows(min(lines, sample), 64)
	c := p.c
	// Cells point into raw (openCSVShared), so nothing kept may be a cell:
	// regions repeat and are cloned once each, the batch's rows copy the
	// key and the instance name into their arena, extras are cloned. The
	// key is built in a buffer that AppendHashed copies from; the raw
	// hash goes in as the number it is.
	// cards remembers, for this read only, each name and memory cell's
	// card: a catalogue lists a few dozen for a million rows, and
	// resolving one (and naming an unknown one) costs more than the rest
	// of its row.
	regions := map[string]string{}
	cards := map[[2]string]gpuhuntCard{}
	var key []byte
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			b.Problem("line %d: %v", line, err)
			continue
		}
		if len(rec) != p.cells {
			b.Problem("line %d: %d cells, header has %d", line, len(rec), p.cells)
			continue
		}
		inst := at(rec, c.InstanceName)
		if inst == "" {
			b.Problem("line %d: empty instance_name", line)
			continue
		}
		count, err := parseNumber(at(rec, c.GpuCount))
		if err != nil || count < 0 {
			b.Problem("line %d: gpu_count %q", line, at(rec, c.GpuCount))
			continue
		}
		price, err := parseNumber(at(rec, c.Price))
		if err != nil {
			b.Problem("line %d: price %q", line, at(rec, c.Price))
			continue
		}
		spot, err := strconv.ParseBool(at(rec, c.Spot))
		if err != nil {
			b.Problem("line %d: spot %q", line, at(rec, c.Spot))
			continue
		}
		if count == 0 {
			b.Skip(catalog.SkipCPUOnly)
			continue
		}
		if price <= 0 {
			b.Skip(catalog.SkipNoPrice)
			continue
		}
		ck := [2]string{at(rec, c.GpuName), at(rec, c.GpuMemory)}
		card, ok := cards[ck]
		if !ok {
			card.mem, _ = parseNumber(ck[1])
			if gpu, ok := p.g.Mapper.Resolve(card.mem, ck[0]); ok {
				card.gpu = gpu
			} else {
				card.unknown = unknownName(ck[0], card.mem)
			}
			cards[ck] = card
		}
		if card.gpu == "" {
			b.SkipUnknown(catalog.SkipUnknownGPU, card.unknown)
			continue
		}
		loc, ok := regions[at(rec, c.Location)]
		if !ok {
			loc = strings.Clone(at(rec, c.Location))
			regions[loc] = loc
		}
		model := knowledge.OnDemand
		if spot {
			model = knowledge.Spot
		}
		key = appendOfferKey(key[:0], p.name, card.gpu, inst, loc, string(model))
		o := knowledge.Offer{
			Key:      unsafe.String(unsafe.SliceData(key), len(key)),
			Platform: p.platform, GPU: card.gpu, GPUCount: count, SKU: inst, Region: loc,
			PriceLow: price, PriceHigh: price, Currency: knowledge.USD, Unit: knowledge.PerHour,
			Basis: knowledge.PerInstance, Model: model, Interruptible: spot,
			ObservedAt: p.observed, Source: p.source, SourceKind: "hosted_catalog", SourceRef: p.ref,
			CollectorVersion: gpuhuntCollector, GPUMemoryGiB: card.mem,
		}
		o.VCPUs, _ = parseNumber(at(rec, c.Cpu))
		o.RAMGiB, _ = parseNumber(at(rec, c.Memory))
		o.ProviderData = gpuhuntExtras(rec, c)
		b.AppendHashed(&o, rawHash64(rec...))
		if b.Rows.Len() == sample {
			b.Rows.Reserve(lines - sample)
		}
	}
}

// parseNumber is strconv.ParseFloat(s, 64) with a short cut for what most
// numeric cells of a catalogue hold, a plain integer (counts, vCPUs, GiB):
// up to 15 digits, which a float64 holds exactly, so the result is the
// one ParseFloat gives.
func parseNumber(s string) (float64, error) {
	if len(s) == 0 || len(s) > 15 {
		return strconv.ParseFloat(s, 64)
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return strconv.ParseFloat(s, 64)
		}
		n = n*10 + int64(c-'0')
	}
	return float64(n), nil
}

// gpuhuntExtras keeps what the offer has no field for and differs from
// gpuhunt's defaults: flags, cpu_arch other than x86, a vendor other than
// nvidia, and the provider_data JSON (flattened to strings). Legacy files
// without those columns get the defaults, so nothing. nil when empty.
func gpuhuntExtras(rec []string, c gpuhuntCols) map[string]string {
	var pd map[string]string
	set := func(k, v string) {
		if pd == nil {
			pd = map[string]string{}
		}
		pd[k] = strings.Clone(v) // v may be a cell, which points into the catalogue bytes
	}
	if v := at(rec, c.Flags); v != "" {
		set("flags", v)
	}
	if v := at(rec, c.CpuArch); v != "" && v != "x86" {
		set("cpu_arch", v)
	}
	if v := at(rec, c.GpuVendor); v != "" && v != "nvidia" {
		set("gpu_vendor", v)
	}
	if v := at(rec, c.ProviderData); v != "" && v != "{}" {
		var m map[string]any
		if err := json.Unmarshal([]byte(v), &m); err != nil {
			set("provider_data", v)
			return pd
		}
		for k, x := range m {
			if s, ok := x.(string); ok {
				set("pd."+k, s)
				continue
			}
			b, _ := json.Marshal(x)
			set("pd."+k, strings.TrimSpace(string(b)))
		}
	}
	return pd
}

// gpuhuntCols are the positions of the catalogue's columns (-1: absent).
type gpuhuntCols struct {
	InstanceName int
	GpuCount     int
	Price        int
	Spot         int
	GpuName      int
	GpuMemory    int
	Location     int
	Cpu          int
	Memory       int
	Flags        int
	CpuArch      int
	GpuVendor    int
	ProviderData int
}

func gpuhuntColsOf(idx map[string]int) gpuhuntCols {
	return gpuhuntCols{
		InstanceName: pos(idx, "instance_name"),
		GpuCount:     pos(idx, "gpu_count"),
		Price:        pos(idx, "price"),
		Spot:         pos(idx, "spot"),
		GpuName:      pos(idx, "gpu_name"),
		GpuMemory:    pos(idx, "gpu_memory"),
		Location:     pos(idx, "location"),
		Cpu:          pos(idx, "cpu"),
		Memory:       pos(idx, "memory"),
		Flags:        pos(idx, "flags"),
		CpuArch:      pos(idx, "cpu_arch"),
		GpuVendor:    pos(idx, "gpu_vendor"),
		ProviderData: pos(idx, "provider_data"),
	}
}
