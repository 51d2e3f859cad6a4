package source

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

func teamFile(t *testing.T, name, body string) *File {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return &File{Path: p, Mapper: mapper(), Base: knowledge.MustShipped()}
}

const teamYAML = `# AutoDL and friends, checked by hand
source: "team sheet"
observed_at: "2026-10-08"
currency: CNY
offers:
  - platform: AutoDL
    gpu: "4090"
    price: 1.98
    region: 西北B区
  - platform: autodl
    gpu: 4090
    price: 1350
    unit: month
    pricing_model: package
    term: P1M
  - platform: 算家云
    gpu: h800
    price_low: 12
    price_high: 15
  - platform: autodl
    gpu: banana
    price: 1
  - platform: autodl
    gpu: a100
    pirce: 5
  - platform: newcloud
    gpu: h20
    price: 6.5
    currency: cny
  - key: vastai-h100-sxm-on-demand
    platform: vastai
    gpu: h100
    price: 1.35
    currency: USD
    observed_at: "2026-10-07"
`

func TestTeamFileYAML(t *testing.T) {
	f := teamFile(t, "prices.yaml", teamYAML)
	b, err := f.Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	got := byKey(t, b)
	type row struct {
		Platform, GPU string
		Low, High     float64
		Cur           knowledge.Currency
		Unit          knowledge.Unit
		Model         knowledge.PricingModel
		Observed      string
	}
	gotRows := map[string]row{}
	for k, o := range got {
		gotRows[k] = row{o.Platform, o.GPU, o.PriceLow, o.PriceHigh, o.Currency, o.Unit, o.Model, o.ObservedAt}
	}
	want := map[string]row{
		"team/autodl/rtx4090/西北b区/on_demand": {"autodl", "rtx4090", 1.98, 1.98, "CNY", "hour", "on_demand", "2026-10-08"},
		"team/autodl/rtx4090/package/p1m":    {"autodl", "rtx4090", 1350, 1350, "CNY", "month", "package", "2026-10-08"},
		"team/suanjiayun/h800/on_demand":     {"suanjiayun", "h800", 12, 15, "CNY", "hour", "on_demand", "2026-10-08"},
		"team/newcloud/h20/on_demand":        {"newcloud", "h20", 6.5, 6.5, "CNY", "hour", "on_demand", "2026-10-08"},
		"vastai-h100-sxm-on-demand":          {"vastai", "h100-sxm", 1.35, 1.35, "USD", "hour", "on_demand", "2026-10-07"},
	}
	if d := cmp.Diff(want, gotRows); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if b.Unknown["banana"] != 1 || b.Skipped[catalog.SkipMalformed] != 1 {
		t.Errorf("skipped %v unknown %v", b.Skipped, b.Unknown)
	}
	joined := strings.Join(b.Problems, "\n")
	for _, want := range []string{"entry 5 (line 23): field pirce not found", `platform "newcloud" is not in the knowledge base`} {
		if !strings.Contains(joined, want) {
			t.Errorf("problems %q lack %q", b.Problems, want)
		}
	}
}

func TestTeamFileYAMLList(t *testing.T) {
	f := teamFile(t, "prices.yml", `- {platform: autodl, gpu: "4090", price: 2.1, currency: CNY, observed_at: "2026-10-08"}`)
	b, err := f.Fetch(t.Context(), now)
	if err != nil || len(b.Offers) != 1 {
		t.Fatalf("Fetch = %+v, %v", b, err)
	}
	if _, err := teamFile(t, "p.yaml", "offers: [unterminated").Fetch(t.Context(), now); err == nil {
		t.Error("broken YAML accepted")
	}
}

func TestTeamFileCSV(t *testing.T) {
	f := teamFile(t, "prices.csv", "\ufeffplatform,gpu,price,currency,unit,basis,gpu_count,observed_at,note,colour\n"+
		"# a comment line\n"+
		"autodl,4090,1.98,CNY,hour,per_gpu,1,2026-10-08,西北B区,red\n"+
		"aliyun,a100,34.74,CNY,hour,per_instance,1,2026-10-08,\"gn7e, 1 card\",blue\n"+
		"autodl,4090,abc,CNY,hour,per_gpu,1,2026-10-08,,\n"+
		"autodl,4090,1.5,CNY,hour\n"+
		"autodl,4090,1.5,EUR,hour,per_gpu,1,2026-10-08,,\n")
	b, err := f.Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Offers) != 2 {
		t.Fatalf("offers = %+v", b.Offers)
	}
	if o := b.Offers[1]; o.Key != "team/aliyun/a100-80g/on_demand/x1" || o.Note != "gn7e, 1 card" || o.Basis != knowledge.PerInstance {
		t.Errorf("aliyun row = %+v", o)
	}
	if b.Skipped[catalog.SkipMalformed] != 3 {
		t.Errorf("skipped = %v (problems %q)", b.Skipped, b.Problems)
	}
	joined := strings.Join(b.Problems, "\n")
	for _, want := range []string{`column "colour" is not part of the format`, `line 5: price "abc"`, "line 6: 5 cells", `unknown currency "EUR"`} {
		if !strings.Contains(joined, want) {
			t.Errorf("problems %q lack %q", b.Problems, want)
		}
	}
}

func TestTeamFileChangedAndMissing(t *testing.T) {
	f := teamFile(t, "prices.yaml", `- {platform: autodl, gpu: "4090", price: 2.1, currency: CNY, observed_at: "2026-10-08"}`)
	if changed, err := f.Changed(); err != nil || !changed {
		t.Errorf("before the first fetch Changed = %v, %v", changed, err)
	}
	if _, err := f.Fetch(t.Context(), now); err != nil {
		t.Fatal(err)
	}
	if changed, _ := f.Changed(); changed {
		t.Error("Changed right after Fetch")
	}
	// Same size, new content: the mtime moves.
	os.WriteFile(f.Path, []byte(`- {platform: autodl, gpu: "4090", price: 2.3, currency: CNY, observed_at: "2026-10-08"}`), 0o644)
	os.Chtimes(f.Path, time.Now(), time.Now().Add(time.Minute))
	if changed, _ := f.Changed(); !changed {
		t.Error("edit not noticed")
	}
	os.Remove(f.Path)
	if _, err := f.Fetch(t.Context(), now); err == nil {
		t.Error("missing file fetched")
	}
}
