package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

const skypilotCollector = "skypilot-vms/1"

// skypilotNames are SkyPilot accelerator spellings the knowledge aliases do
// not cover.
var skypilotNames = map[string]string{
	"A100-80GB-SXM": "a100-80g",
	"A100-80GB":     "a100-80g",
	"H100-SXM":      "h100-sxm",
	"H100_SXM":      "h100-sxm",
	"H100-PCIE":     "h100-pcie",
	"H100_PCIE":     "h100-pcie",
	"A10G":          "a10g",
}

// SkyPilot reads a SkyPilot hosted-catalogue vms.csv (catalogs/v7/<cloud>/
// vms.csv) from a file or URL. Columns are found by header name, since their
// order differs per cloud. Prices are per instance and hourly; an empty or
// zero SpotPrice means no spot offer, and a zero Price no on-demand offer.
//
// GpuInfo is a Python dict literal (or, for RunPod, a bare name); its
// MemoryInfo.SizeInMiB is per card except in the Vast catalogue, where it
// is the instance total. For Vast the card comes from the InstanceType
// ("1x-H100_NVL-32-65536"), because AcceleratorName drops the variant.
type SkyPilot struct {
	Provider string // the SkyPilot cloud: aws, lambda, runpod, vast, …
	Location string // file path or http(s) URL
	Mapper   *Mapper
	Base     *knowledge.Base // canonicalises the platform id; may be nil
	HTTP     HTTPOptions
}

// Name is "skypilot-<provider>".
func (s *SkyPilot) Name() string { return "skypilot-" + slug(s.Provider) }

// Fetch reads and parses the catalogue.
func (s *SkyPilot) Fetch(ctx context.Context, now time.Time) (*catalog.Batch, error) {
	return fetchHosted(ctx, "skypilot "+s.Provider, s.Location, s.HTTP, now, s.Parse)
}

// Parse turns catalogue bytes into a batch.
func (s *SkyPilot) Parse(raw []byte, ref string, now time.Time) (*catalog.Batch, error) {
	r, header, err := openCSV(raw)
	if err != nil {
		return nil, err
	}
	idx, err := headerIndex(header, "InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region")
	if err != nil {
		return nil, err
	}
	b := &catalog.Batch{Ref: "skypilot:" + ref}
	b.Grow(bytes.Count(raw, []byte{'\n'}))
	name, platform := s.Name(), platformID(s.Base, s.Provider)
	mapper := s.Mapper.With(skypilotNames)
	observed := now.UTC().Format(time.RFC3339)
	isVast := platform == "vastai"
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
		sku, accel := cell(rec, idx, "InstanceType"), cell(rec, idx, "AcceleratorName")
		if sku == "" {
			b.Problem("line %d: empty InstanceType", line)
			continue
		}
		if accel == "" {
			b.Skip(catalog.SkipCPUOnly)
			continue
		}
		count, err := strconv.ParseFloat(cell(rec, idx, "AcceleratorCount"), 64)
		if err != nil || count <= 0 {
			b.Problem("line %d: AcceleratorCount %q", line, cell(rec, idx, "AcceleratorCount"))
			continue
		}
		memGiB, infoName := gpuInfo(cell(rec, idx, "GpuInfo"))
		if isVast && memGiB > 0 {
			memGiB /= count // Vast's SizeInMiB is the instance total
		}
		names := []string{accel, infoName}
		if isVast {
			names = []string{vastModel(sku)}
		}
		gpu, ok := mapper.Resolve(memGiB, names...)
		if !ok {
			b.SkipUnknown(catalog.SkipUnknownGPU, unknownName(names[0], memGiB))
			continue
		}
		region, zone := cell(rec, idx, "Region"), cell(rec, idx, "AvailabilityZone")
		base := knowledge.Offer{
			Platform: platform, GPU: gpu, GPUCount: count, SKU: sku, Region: region, Zone: zone,
			Currency: knowledge.USD, Unit: knowledge.PerHour, Basis: knowledge.PerInstance,
			ObservedAt: observed, Source: "SkyPilot catalogue (" + s.Provider + ")", SourceKind: "hosted_catalog",
			SourceRef: b.Ref, CollectorVersion: skypilotCollector, RawHash: rawHash(rec...),
			GPUMemoryGiB: round2(memGiB),
		}
		base.VCPUs, _ = strconv.ParseFloat(cell(rec, idx, "vCPUs"), 64)
		base.RAMGiB, _ = strconv.ParseFloat(cell(rec, idx, "MemoryGiB"), 64)
		switch {
		case isVast:
			base.RegionLabel, base.Country = region, countryOf(region)
		case len(region) == 2 && strings.ToUpper(region) == region:
			base.Country = region // RunPod lists countries as regions
		}
		if strings.HasSuffix(sku, "_SECURE") {
			base.CloudTier = "secure"
		} else if strings.HasSuffix(sku, "_COMMUNITY") {
			base.CloudTier = "community"
		}
		added := false
		for _, m := range []struct {
			col   string
			model knowledge.PricingModel
		}{{"Price", knowledge.OnDemand}, {"SpotPrice", knowledge.Spot}} {
			v := cell(rec, idx, m.col)
			p, err := strconv.ParseFloat(v, 64)
			if v == "" || err != nil || p <= 0 {
				continue // empty or 0.00: no such offer; 0 is never a price
			}
			o := base
			o.Model, o.Interruptible = m.model, m.model == knowledge.Spot
			o.PriceLow, o.PriceHigh = p, p
			o.Key = offerKey(name, gpu, sku, region, zone, string(m.model))
			b.Add(o)
			added = true
		}
		if !added {
			b.Skip(catalog.SkipNoPrice)
		}
	}
	return b, nil
}

// gpuInfo reads per-card memory (GiB, as SizeInMiB states it) and the card
// name from a GpuInfo cell; a cell that is not a dict is a bare name.
func gpuInfo(s string) (memGiB float64, name string) {
	if s == "" {
		return 0, ""
	}
	if !strings.HasPrefix(s, "{") {
		return 0, s
	}
	v, err := parsePyLiteral(s)
	if err != nil {
		return 0, ""
	}
	m, _ := v.(map[string]any)
	gpus, _ := m["Gpus"].([]any)
	if len(gpus) == 0 {
		return 0, ""
	}
	g, _ := gpus[0].(map[string]any)
	name, _ = g["Name"].(string)
	mi, _ := g["MemoryInfo"].(map[string]any)
	mib, _ := mi["SizeInMiB"].(float64)
	return mib / 1024, name
}

// vastModel reads the card from a SkyPilot Vast instance type:
// "2x-RTX_4090-32-65536" gives "RTX_4090".
func vastModel(sku string) string {
	parts := strings.Split(sku, "-")
	if len(parts) >= 2 {
		return parts[1]
	}
	return sku
}

func unknownName(name string, memGiB float64) string {
	if memGiB <= 0 {
		return name
	}
	return fmt.Sprintf("%s %.0fGiB", name, memGiB)
}

func round2(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }
