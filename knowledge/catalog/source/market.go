package source

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// marketCSV is the public market snapshot the bot ships with, written by
// cmd/catalog-gen from shared/market/offers.csv (regenerate, never edit).
//
//go:embed data/market.csv
var marketCSV []byte

// MarketRef names the embedded market snapshot in SourceRef.
const MarketRef = "embedded:knowledge/catalog/source/data/market.csv"

// caveatText explains each caveat code the generator writes, once, here.
var caveatText = map[string]string{
	"akash_stat":          "Akash market statistic (weighted average across its hosts), not one listing",
	"count_fixed":         "card count corrected from 12 to 8 (the VM has 8 H100s)",
	"auction":             "auction-style capacity: the listed price is not guaranteed on-demand capacity",
	"gpu_only_vm_extra":   "GPU only: the host VM is billed on top",
	"gpu_only_host_extra": "GPU only: vCPU and RAM are billed separately",
	"v6_stale":            "from SkyPilot's v6 catalogue, no longer refreshed upstream; the price may predate its date",
	"scraper":             "early page scraper, lower confidence",
	"index_row":           "aggregator's cheapest-provider index entry",
	"term_unknown":        "reserved price; the source does not state the term",
}

// marketNames are market spellings the knowledge aliases read wrongly or
// not at all.
var marketNames = map[string]string{
	"A100-80GB": "a100-80g",
	"H100-SXM":  "h100-sxm",
}

// notAliases are resolutions the knowledge aliases would make that name a
// different card: an "A10" is not an A10G, and must wait for its own entry.
var notAliases = map[string]string{"a10": "a10g"}

// memoryNeeded are card names sold in several memory sizes: without a
// stated memory the row cannot say which card it is.
var memoryNeeded = map[string]bool{"a100": true}

// marketGroup collects the snapshot rows that collapse into one offer.
type marketGroup struct {
	o        knowledge.Offer
	skus     map[string]bool
	sources  map[string]int // source -> regions listed by it
	caveats  map[string]bool
	observed bool
}

// MarketBatch reads the embedded market snapshot: every row whose card
// the mapper knows becomes part of one offer, and rows that differ only
// in region (or source, or listing id) collapse into one offer per
// platform, card, card count, pricing model, term and price, with the
// number of regions kept. Unknown cards are counted in the batch's
// Unknown, never guessed.
func MarketBatch(base *knowledge.Base, m *Mapper) (*catalog.Batch, error) {
	b := &catalog.Batch{Ref: MarketRef}
	r := csv.NewReader(bytes.NewReader(marketCSV))
	r.Comment = '#'
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("market snapshot header: %w", err)
	}
	idx, err := headerIndex(header, "observed_at", "date_basis", "source", "source_commit", "provider", "sku", "gpu",
		"gpu_variant", "gpu_memory_gb", "gpu_count", "region", "regions", "pricing_type", "term", "price_per_hour",
		"currency", "available_count", "caveats")
	if err != nil {
		return nil, fmt.Errorf("market snapshot: %w", err)
	}
	groups := map[string]*marketGroup{}
	var order []string
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("market snapshot line %d: %w", line, err)
		}
		get := func(c string) string { return cell(rec, idx, c) }
		name, variant := get("gpu"), get("gpu_variant")
		mem, _ := strconv.ParseFloat(get("gpu_memory_gb"), 64)
		gpu, ok := marketGPU(m, base, name, variant, mem)
		if !ok {
			b.SkipUnknown(catalog.SkipUnknownGPU, strings.TrimSpace(name+" "+variant))
			continue
		}
		price, err := strconv.ParseFloat(get("price_per_hour"), 64)
		if err != nil || price <= 0 {
			b.Skip(catalog.SkipNoPrice)
			continue
		}
		count, err := strconv.ParseFloat(get("gpu_count"), 64)
		if err != nil || count <= 0 {
			b.Problem("market snapshot line %d: gpu_count %q", line, get("gpu_count"))
			continue
		}
		model := knowledge.PricingModel(get("pricing_type"))
		platform := platformID(base, get("provider"))
		term, sku := get("term"), get("sku")
		// One instance type's prices across regions are one offer: a range
		// with the number of regions (regional list prices, spot by zone).
		key := strings.Join([]string{platform, gpu, trimNum(count) + "x", string(model), term, sku}, "/")
		g, ok := groups[key]
		if !ok {
			g = &marketGroup{skus: map[string]bool{}, sources: map[string]int{}, caveats: map[string]bool{}}
			g.o = knowledge.Offer{
				Platform: platform, GPU: gpu, GPUCount: count, SKU: sku, Region: get("region"),
				PriceLow: price, PriceHigh: price, Currency: knowledge.USD, Unit: knowledge.PerHour, Basis: knowledge.PerInstance,
				Model: model, Term: term, Interruptible: model == knowledge.Spot || model == knowledge.Bid,
				GPUMemoryGiB: mem, SourceKind: "hosted_catalog", CollectorVersion: catalog.MarketCollector,
				ObservedAt: get("observed_at"), DateBasis: "undated",
			}
			groups[key] = g
			order = append(order, key)
		}
		g.o.PriceLow, g.o.PriceHigh = min(g.o.PriceLow, price), max(g.o.PriceHigh, price)
		g.skus[sku] = true
		src := get("source") + "@" + short(get("source_commit"))
		n, _ := strconv.Atoi(get("regions"))
		g.sources[src] += n
		for _, c := range strings.Fields(get("caveats")) {
			g.caveats[c] = true
		}
		if get("date_basis") == "observed" {
			if !g.observed || get("observed_at") > g.o.ObservedAt {
				g.o.ObservedAt = get("observed_at")
			}
			g.observed = true
			g.o.DateBasis = "observed"
		}
		if g.o.Region == "" || (get("region") != "" && get("region") < g.o.Region) {
			g.o.Region = get("region")
		}
		if a := get("available_count"); a != "" {
			if v, err := strconv.Atoi(a); err == nil {
				g.o.AvailableCount += v
				g.o.Availability = "available"
				if g.o.AvailableCount == 0 {
					g.o.Availability = "none"
				}
			}
		}
	}
	// Then the same listing under several names (an aggregator's index
	// entry and its detail row, a reseller's copies) is one offer: same
	// platform, card, count, pricing, term and price range.
	merged := map[string]*marketGroup{}
	var keys []string
	for _, k := range order {
		g := groups[k]
		o := g.o
		key := strings.Join([]string{"market", o.Platform, o.GPU, trimNum(o.GPUCount) + "x", string(o.Model), o.Term,
			trimNum(o.PriceLow) + "-" + trimNum(o.PriceHigh)}, "/")
		m, ok := merged[key]
		if !ok {
			g.o.Key = key
			merged[key] = g
			keys = append(keys, key)
			continue
		}
		m.merge(g)
	}
	order, groups = keys, merged
	b.Grow(len(order))
	for _, k := range order {
		b.Add(finishGroup(groups[k]))
	}
	return b, nil
}

// merge folds another instance type's group at the same prices into g.
func (g *marketGroup) merge(h *marketGroup) {
	for s := range h.skus {
		g.skus[s] = true
	}
	for s, n := range h.sources {
		g.sources[s] = max(g.sources[s], n)
	}
	for c := range h.caveats {
		g.caveats[c] = true
	}
	if h.observed && (!g.observed || h.o.ObservedAt > g.o.ObservedAt) {
		g.o.ObservedAt, g.o.DateBasis, g.observed = h.o.ObservedAt, "observed", true
	}
	g.o.Regions = max(g.o.Regions, h.o.Regions)
	if h.o.Availability != "" {
		g.o.AvailableCount += h.o.AvailableCount
		g.o.Availability = h.o.Availability
		if g.o.AvailableCount > 0 {
			g.o.Availability = "available"
		}
	}
	// A real instance name names the offer better than an index entry.
	if strings.HasPrefix(g.o.SKU, "cheapest_") && !strings.HasPrefix(h.o.SKU, "cheapest_") {
		g.o.SKU = h.o.SKU
	}
}

// finishGroup writes a collapsed group's source, regions and notes.
func finishGroup(g *marketGroup) knowledge.Offer {
	o := g.o
	srcs := make([]string, 0, len(g.sources))
	for s, n := range g.sources {
		srcs = append(srcs, s)
		// Two sources listing the same regions (SkyPilot v6 and v7 Lambda)
		// are one set of regions, not two: keep the largest count.
		o.Regions = max(o.Regions, n)
	}
	sort.Strings(srcs)
	o.Source = "public market snapshot: " + strings.Join(srcs, " + ")
	o.SourceRef = MarketRef + " (" + strings.Join(srcs, ", ") + ")"
	var notes []string
	codes := make([]string, 0, len(g.caveats))
	for c := range g.caveats {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		notes = append(notes, caveatText[c])
	}
	if o.DateBasis == "undated" {
		notes = append(notes, "the source carries no date; shown with the snapshot's earliest date")
	}
	if len(g.skus) > 1 {
		notes = append(notes, fmt.Sprintf("listed as %d instance types or entries at this price", len(g.skus)))
	}
	if o.PriceHigh > o.PriceLow {
		notes = append(notes, "range across regions")
	}
	o.Note = strings.Join(notes, "; ")
	return o
}

// marketGPU resolves a snapshot card name. A stated variant must resolve
// with it when it changes the card (NVL boards are a different card);
// SXM and PCIe fall back to the bare name, checked by memory.
func marketGPU(m *Mapper, base *knowledge.Base, name, variant string, mem float64) (string, bool) {
	if id, ok := marketNames[name]; ok {
		return id, true
	}
	if mem <= 0 && memoryNeeded[knowledge.NormalizeName(name)] {
		return "", false
	}
	if variant != "" {
		if id, ok := m.Resolve(mem, name+" "+variant); ok && allowed(name, id) {
			return id, true
		}
		if variant == "NVL" {
			return "", false
		}
	}
	id, ok := m.Resolve(mem, name)
	if !ok || !allowed(name, id) {
		return "", false
	}
	return id, true
}

func allowed(name, id string) bool {
	return notAliases[knowledge.NormalizeName(name)] != id
}

func short(commit string) string {
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
}

func trimNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// MarketProvider is one provider's rows in the embedded market snapshot.
type MarketProvider struct {
	Platform string         `json:"platform"`
	Rows     int            `json:"rows"`    // snapshot rows
	Unknown  map[string]int `json:"unknown"` // rows for cards the knowledge base does not know, by name
	Newest   string         `json:"newest"`  // latest observed_at
}

// MarketProviders lists every provider of the embedded snapshot with its
// row count, newest date and the cards it lists that the bot cannot
// price yet, sorted by platform id.
func MarketProviders(base *knowledge.Base) ([]MarketProvider, error) {
	m := NewMapper(base, nil)
	r := csv.NewReader(bytes.NewReader(marketCSV))
	r.Comment = '#'
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("market snapshot header: %w", err)
	}
	idx, err := headerIndex(header, "observed_at", "provider", "gpu", "gpu_variant", "gpu_memory_gb")
	if err != nil {
		return nil, fmt.Errorf("market snapshot: %w", err)
	}
	by := map[string]*MarketProvider{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("market snapshot: %w", err)
		}
		p := platformID(base, cell(rec, idx, "provider"))
		mp, ok := by[p]
		if !ok {
			mp = &MarketProvider{Platform: p, Unknown: map[string]int{}}
			by[p] = mp
		}
		mp.Rows++
		if d := cell(rec, idx, "observed_at"); d > mp.Newest {
			mp.Newest = d
		}
		name, variant := cell(rec, idx, "gpu"), cell(rec, idx, "gpu_variant")
		mem, _ := strconv.ParseFloat(cell(rec, idx, "gpu_memory_gb"), 64)
		if _, ok := marketGPU(m, base, name, variant, mem); !ok {
			mp.Unknown[strings.TrimSpace(name+" "+variant)]++
		}
	}
	out := make([]MarketProvider, 0, len(by))
	for _, mp := range by {
		out = append(out, *mp)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Platform < out[j].Platform })
	return out, nil
}
