package source

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
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
	r, header, err := openCSVShared(raw)
	if err != nil {
		return nil, err
	}
	idx, err := headerIndex(header, "instance_name", "location", "price", "gpu_count", "gpu_name", "spot")
	if err != nil {
		return nil, err
	}
	c := gpuhuntColsOf(idx) // positions once, not a map lookup per cell
	b := &catalog.Batch{Ref: "gpuhunt:" + ref}
	// Room for the first rows; once they have shown how long keys run,
	// the rows reserve room for the rest.
	lines := bytes.Count(raw, []byte{'\n'})
	const sample = 1024
	b.GrowRows(min(lines, sample), 64)
	name, platform := g.Name(), platformID(g.Base, g.Provider)
	observed := now.UTC().Format(time.RFC3339)
	source := "gpuhunt catalogue (" + g.Provider + ")"
	// Cells point into raw (openCSVShared), so nothing kept may be a cell:
	// regions repeat and are cloned once each, the batch's rows copy the
	// key and the instance name into their arena, extras are cloned. The
	// key and the raw hash are built in buffers that Append copies from.
	regions := map[string]string{}
	var key, hash []byte
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
		if len(rec) != len(header) {
			b.Problem("line %d: %d cells, header has %d", line, len(rec), len(header))
			continue
		}
		inst := at(rec, c.InstanceName)
		if inst == "" {
			b.Problem("line %d: empty instance_name", line)
			continue
		}
		count, err := strconv.ParseFloat(at(rec, c.GpuCount), 64)
		if err != nil || count < 0 {
			b.Problem("line %d: gpu_count %q", line, at(rec, c.GpuCount))
			continue
		}
		price, err := strconv.ParseFloat(at(rec, c.Price), 64)
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
		gname := at(rec, c.GpuName)
		mem, _ := strconv.ParseFloat(at(rec, c.GpuMemory), 64)
		gpu, ok := g.Mapper.Resolve(mem, gname)
		if !ok {
			b.SkipUnknown(catalog.SkipUnknownGPU, unknownName(gname, mem))
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
		key = appendOfferKey(key[:0], name, gpu, inst, loc, string(model))
		hash = strconv.AppendUint(hash[:0], rawHash64(rec...), 16)
		o := knowledge.Offer{
			Key:      unsafe.String(unsafe.SliceData(key), len(key)),
			Platform: platform, GPU: gpu, GPUCount: count, SKU: inst, Region: loc,
			PriceLow: price, PriceHigh: price, Currency: knowledge.USD, Unit: knowledge.PerHour,
			Basis: knowledge.PerInstance, Model: model, Interruptible: spot,
			ObservedAt: observed, Source: source, SourceKind: "hosted_catalog", SourceRef: b.Ref,
			CollectorVersion: gpuhuntCollector, RawHash: unsafe.String(unsafe.SliceData(hash), len(hash)), GPUMemoryGiB: mem,
		}
		o.VCPUs, _ = strconv.ParseFloat(at(rec, c.Cpu), 64)
		o.RAMGiB, _ = strconv.ParseFloat(at(rec, c.Memory), 64)
		o.ProviderData = gpuhuntExtras(rec, c)
		b.Append(&o)
		if b.Rows.Len() == sample {
			b.Rows.Reserve(lines - sample)
		}
	}
	b.Seal()
	return b, nil
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
