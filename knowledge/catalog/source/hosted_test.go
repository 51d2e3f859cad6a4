package source

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

var now = time.Date(2026, 10, 8, 1, 30, 0, 0, time.UTC)

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mapper() *Mapper { return NewMapper(knowledge.MustShipped(), nil) }

// byKey indexes a batch's offers.
func byKey(t *testing.T, b *catalog.Batch) map[string]knowledge.Offer {
	t.Helper()
	m := map[string]knowledge.Offer{}
	for _, o := range b.All() {
		if _, dup := m[o.Key]; dup {
			t.Fatalf("key %s twice in batch", o.Key)
		}
		if err := catalog.DefaultLimits().Check(o, knowledge.MustShipped()); err != nil {
			t.Errorf("offer fails validation: %v", err)
		}
		m[o.Key] = o
	}
	return m
}

func cardHourly(o knowledge.Offer) float64 {
	low, _, _ := o.CardHourly()
	return low
}

func TestSkyPilotLambdaExcerpt(t *testing.T) {
	s := &SkyPilot{Provider: "lambda", Location: "testdata/skypilot_catalog_v7_lambda_vms_excerpt.csv", Mapper: mapper(), Base: knowledge.MustShipped()}
	b, err := s.Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	got := byKey(t, b)
	o, ok := got["skypilot-lambda/a100-40g/gpu_8x_a100/us-east-1/on_demand"]
	if !ok {
		t.Fatalf("no 8x A100 offer; keys %v", slices.Sorted(maps.Keys(got)))
	}
	// GpuInfo says 40960 MiB per card, so "A100" is the 40 GB card, not the alias default (80 GB).
	if o.GPU != "a100-40g" || o.GPUCount != 8 || o.PriceLow != 10.32 || o.Basis != knowledge.PerInstance || cardHourly(o) != 1.29 {
		t.Errorf("8x A100 = %+v", o)
	}
	// V100 (16 GiB) and A6000 (48 GiB) rows: priced only as a card of that
	// memory when the knowledge base has one, else counted unknown; the
	// CPU row is skipped. 5 GPU rows in all.
	kb := knowledge.MustShipped()
	for _, o := range got {
		if g, _ := kb.GPU(o.GPU); o.GPU != "a100-40g" && g.VRAMGB != 16 && g.VRAMGB != 48 {
			t.Errorf("%s priced as %s (%v GB)", o.Key, o.GPU, g.VRAMGB)
		}
	}
	if n := len(got) + b.Skipped[catalog.SkipUnknownGPU]; n != 5 || b.Skipped[catalog.SkipCPUOnly] != 1 {
		t.Errorf("offers %d + unknown %d, want 5 GPU rows; skipped %v", len(got), b.Skipped[catalog.SkipUnknownGPU], b.Skipped)
	}
}

func TestSkyPilotRunPodExcerpt(t *testing.T) {
	s := &SkyPilot{Provider: "runpod", Location: "testdata/skypilot_catalog_v7_runpod_vms_excerpt.csv", Mapper: mapper(), Base: knowledge.MustShipped()}
	b, err := s.Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	got := byKey(t, b)
	// 6 A100-80GB rows with on-demand + spot, 2 A100-80GB-SXM rows with on-demand only.
	if len(got) != 14 {
		t.Fatalf("offers = %d, want 14: %v", len(got), slices.Sorted(maps.Keys(got)))
	}
	od := got["skypilot-runpod/a100-80g/8x_a100-80gb_secure/us/us-tx-3/on_demand"]
	if od.PriceLow != 12.96 || cardHourly(od) != 1.62 || od.CloudTier != "secure" || od.Country != "US" || od.Zone != "US-TX-3" {
		t.Errorf("8x A100 on-demand = %+v", od)
	}
	sp := got["skypilot-runpod/a100-80g/8x_a100-80gb_secure/us/us-tx-3/spot"]
	if sp.PriceLow != 9.52 || !sp.Interruptible || sp.Model != knowledge.Spot {
		t.Errorf("8x A100 spot = %+v", sp)
	}
	if _, ok := got["skypilot-runpod/a100-80g/1x_a100-80gb-sxm_secure/us/us-ks-2/spot"]; ok {
		t.Error("empty SpotPrice made a spot offer")
	}
	// GpuInfo is a bare name here, not a dict.
	if o := got["skypilot-runpod/a100-80g/1x_a100-80gb-sxm_secure/us/us-ks-2/on_demand"]; o.PriceLow != 1.89 {
		t.Errorf("1x A100 SXM = %+v", o)
	}
}

func TestSkyPilotVastExcerpt(t *testing.T) {
	s := &SkyPilot{Provider: "vast", Location: "testdata/skypilot_catalog_v7_vast_vms_excerpt.csv", Mapper: mapper(), Base: knowledge.MustShipped()}
	b, err := s.Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	got := byKey(t, b)
	var gpus []string
	for _, o := range b.Offers {
		gpus = append(gpus, o.GPU+"@"+o.Country)
		if o.Model != knowledge.OnDemand || o.Platform != "vastai" {
			t.Errorf("%s: model %s platform %s; SpotPrice 0.00 is no spot offer", o.Key, o.Model, o.Platform)
		}
	}
	slices.Sort(gpus)
	for _, w := range []string{"h100-sxm@CZ", "h200@HU", "h200@US", "rtx4090@RU", "rtx5090@TW"} {
		if !slices.Contains(gpus, w) {
			t.Errorf("cards %v lack %s", gpus, w)
		}
	}
	// SizeInMiB is the instance total in the Vast catalogue: 575084 / 4.
	if o := got["skypilot-vast/h200/4x-h200-32-65536/us-na/on_demand"]; o.GPUMemoryGiB != 140.4 || o.RegionLabel != ", US, NA" {
		t.Errorf("4x H200 = %+v", o)
	}
	// A 48 GiB "RTX 4090" is a modified board, never the 24 GB card; the
	// other four rows are priced or counted unknown (9 rows in all).
	if b.Unknown["RTX_4090 48GiB"] != 1 || len(b.Offers)+b.Skipped[catalog.SkipUnknownGPU] != 9 {
		t.Errorf("unknown %v with %d offers", b.Unknown, len(b.Offers))
	}
	for _, o := range b.Offers {
		if o.GPU == "rtx4090" && o.GPUMemoryGiB > 30 {
			t.Errorf("%s: a 48 GiB board priced as an RTX 4090", o.Key)
		}
	}
}

func TestSkyPilotAWSExcerpt(t *testing.T) {
	s := &SkyPilot{Provider: "aws", Location: "testdata/skypilot_catalog_v7_aws_vms_excerpt.csv", Mapper: mapper(), Base: knowledge.MustShipped()}
	b, err := s.Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Offers) != 0 || b.Skipped[catalog.SkipCPUOnly] != 1 || b.Unknown["V100 16GiB"] != 9 {
		t.Errorf("offers %d, skipped %v, unknown %v; want 0, 1 cpu row, 9 V100 rows", len(b.Offers), b.Skipped, b.Unknown)
	}
}

func TestSkyPilotEdgeRows(t *testing.T) {
	const header = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n"
	const info = `"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 655360}"`
	tests := []struct {
		name    string
		rows    string
		models  []knowledge.PricingModel
		skipped map[string]int
	}{
		{"spot equal to price is still a spot offer", "p5.48xlarge,H100,8.0,192,2048," + info + ",98.32,98.32,us-east-1,use1-az1\n",
			[]knowledge.PricingModel{knowledge.OnDemand, knowledge.Spot}, nil},
		{"zero price with a spot price gives spot only", "p5.48xlarge,H100,8.0,192,2048," + info + ",0,40.1,us-east-1,use1-az1\n",
			[]knowledge.PricingModel{knowledge.Spot}, nil},
		{"zero and empty are no price", "p5.48xlarge,H100,8.0,192,2048," + info + ",0.00,,us-east-1,use1-az1\n",
			nil, map[string]int{catalog.SkipNoPrice: 1}},
		{"short row is malformed", "p5.48xlarge,H100,8.0\n", nil, map[string]int{catalog.SkipMalformed: 1}},
		{"bad count is malformed", "p5.48xlarge,H100,eight,192,2048," + info + ",98.32,,us-east-1,use1-az1\n",
			nil, map[string]int{catalog.SkipMalformed: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &SkyPilot{Provider: "aws", Mapper: mapper(), Base: knowledge.MustShipped()}
			b, err := s.Parse([]byte(header+tt.rows), "inline", now)
			if err != nil {
				t.Fatal(err)
			}
			var models []knowledge.PricingModel
			for _, o := range b.Offers {
				models = append(models, o.Model)
			}
			if d := cmp.Diff(tt.models, models); d != "" {
				t.Errorf("models (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.skipped, b.Skipped); d != "" {
				t.Errorf("skipped (-want +got):\n%s", d)
			}
		})
	}
	if _, err := (&SkyPilot{Provider: "aws", Mapper: mapper()}).Parse([]byte("InstanceType,Price\nx,1\n"), "inline", now); err == nil ||
		!strings.Contains(err.Error(), "AcceleratorName") {
		t.Errorf("missing columns: err = %v", err)
	}
}

func TestGPUHuntExcerpt(t *testing.T) {
	g := &GPUHunt{Provider: "aws", Location: "testdata/gpuhunt_v2_catalog_excerpt.csv", Mapper: mapper(), Base: knowledge.MustShipped()}
	b, err := g.Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	got := byKey(t, b)
	// The A10 row maps to a10 where the knowledge base has that card, else
	// to the a10g alias: find it by what it is, not by its key.
	var a10 knowledge.Offer
	for _, o := range got {
		if o.Model == knowledge.OnDemand && o.SKU == "test-instance" && strings.HasPrefix(o.GPU, "a10") {
			a10 = o
		}
	}
	wantPD := map[string]string{"flags": "f1 f2", "cpu_arch": "arm", "pd.custom_prop": "42"}
	if a10.PriceLow != 1 || a10.GPUCount != 1 || a10.GPUMemoryGiB != 24 || a10.VCPUs != 1 || a10.RAMGiB != 32 {
		t.Errorf("A10 = %+v", a10)
	}
	if d := cmp.Diff(wantPD, a10.ProviderData); d != "" {
		t.Errorf("A10 provider data (-want +got):\n%s", d)
	}
	h100 := got["gpuhunt-aws/h100-sxm/test-instance/eu-west-1/spot"]
	if h100.PriceLow != 12 || cardHourly(h100) != 1.5 || !h100.Interruptible {
		t.Errorf("H100 spot = %+v", h100)
	}
	if len(got) != 2 || b.Skipped[catalog.SkipCPUOnly] != 3 {
		t.Errorf("offers %d, skipped %v; want 2 and 3 cpu-only rows", len(got), b.Skipped)
	}
}

func TestGPUHuntLegacyColumns(t *testing.T) {
	g := &GPUHunt{Provider: "aws", Location: "testdata/gpuhunt_v2_catalog_legacy_columns_excerpt.csv", Mapper: mapper(), Base: knowledge.MustShipped()}
	b, err := g.Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.All()) != 4 {
		t.Fatalf("offers = %d, want 4", len(b.All()))
	}
	for _, o := range b.All() {
		if cardHourly(o) != 0.5 || o.ProviderData["cpu_arch"] != "" || o.ProviderData["gpu_vendor"] != "" {
			t.Errorf("%s: card-hour %v, extras %v; want 0.5 and gpuhunt's defaults (x86, nvidia: not stored)", o.Key, cardHourly(o), o.ProviderData)
		}
	}
}

func TestGPUHuntMalformedRowIsReportedNotFatal(t *testing.T) {
	g := &GPUHunt{Provider: "aws", Location: "testdata/gpuhunt_v2_catalog_malformed_row.csv", Mapper: mapper(), Base: knowledge.MustShipped()}
	b, err := g.Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{catalog.SkipMalformed: 1, catalog.SkipCPUOnly: 1}
	if d := cmp.Diff(want, b.Skipped); d != "" {
		t.Errorf("skipped (-want +got):\n%s", d)
	}
	if len(b.Problems) != 1 || !strings.Contains(b.Problems[0], "line 2: empty instance_name") {
		t.Errorf("problems = %q", b.Problems)
	}
}

func TestProviderFromPath(t *testing.T) {
	for in, want := range map[string]string{
		"catalogs/v7/lambda/vms.csv": "lambda", "https://x/catalogs/v7/runpod/vms.csv": "runpod", "/data/gcp.csv": "gcp",
	} {
		if got := ProviderFromPath(in); got != want {
			t.Errorf("ProviderFromPath(%q) = %q, want %q", in, got, want)
		}
	}
}
