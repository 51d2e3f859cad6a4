package catalog_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

// TestRefreshTeamFileAndSkyPilot is the "done when": a team file
// plus a SkyPilot CSV build a snapshot; editing a price in the file and
// refreshing again yields that change with its percentage.
func TestRefreshTeamFileAndSkyPilot(t *testing.T) {
	_, rdb := newRedis(t)
	kb := knowledge.MustShipped()
	team := filepath.Join(t.TempDir(), "prices.yaml")
	orig, err := os.ReadFile("testdata/team.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(team, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, err := source.FromConfig(source.Config{File: team, SkyPilot: []string{"lambda=testdata/lambda_vms.csv"}}, kb)
	if err != nil {
		t.Fatal(err)
	}
	c := catalog.New(rdb, catalog.Options{Sources: srcs, Base: kb})
	rep := refresh(t, c, t0)
	for _, s := range rep.Sources {
		if s.Failed() {
			t.Errorf("%s failed: %s", s.Name, s.Error)
		}
	}
	v := current(t, c)
	byKey := map[string]knowledge.Offer{}
	for _, o := range v.Offers {
		byKey[o.Key] = o
	}
	const teamKey = "team/autodl/rtx4090/西北b区/on_demand"
	if o, ok := byKey[teamKey]; !ok || o.PriceLow != 1.98 || o.Currency != knowledge.CNY {
		t.Errorf("team offer = %+v", o)
	}
	if o := byKey["skypilot-lambda/a100-40g/gpu_8x_a100/us-east-1/on_demand"]; o.PriceLow != 10.32 {
		t.Errorf("SkyPilot offer = %+v", o)
	}
	// The seeds' USD figures are not shipped (the market snapshot prices
	// those platforms), so the team file's entry under a seed key is new.
	if o := byKey["vastai-h100-sxm-on-demand"]; o.PriceLow != 1.45 || o.Source != "team price sheet" {
		t.Errorf("team offer under a seed key = %+v", o)
	}
	shipped, err := source.ShippedOffers(kb)
	if err != nil {
		t.Fatal(err)
	}
	// The market snapshot's rows for a card on a platform that the team
	// file or SkyPilot now prices give way to those readings.
	type pair struct{ platform, gpu string }
	covered := map[pair]bool{}
	sky := 0
	for _, o := range v.Offers {
		if strings.HasPrefix(o.Key, "skypilot-") {
			sky++
		}
		if o.Source == "team price sheet" || strings.HasPrefix(o.Key, "skypilot-") {
			covered[pair{o.Platform, o.GPU}] = true
		}
	}
	kept := 0
	for _, o := range shipped {
		if o.CollectorVersion != catalog.MarketCollector || !covered[pair{o.Platform, o.GPU}] {
			kept++
		}
	}
	if kept == len(shipped) {
		t.Error("no shipped market row was replaced by a newer reading")
	}
	// SkyPilot's Lambda excerpt: the 8x A100 and three RTX A6000 rows (the
	// knowledge base knows the A6000 since issue 15).
	if sky != 4 {
		t.Errorf("SkyPilot offers = %d, want 4 (8x A100 and three RTX A6000)", sky)
	}
	if n := len(v.Offers); n != kept+4+4 {
		t.Errorf("offers = %d, want %d shipped + 4 team + 4 SkyPilot", n, kept)
	}
	if len(rep.Diff.Of(catalog.KindNew)) != len(v.Offers) {
		t.Errorf("first refresh: %d new, want all %d", len(rep.Diff.Of(catalog.KindNew)), len(v.Offers))
	}

	// Edit the file: 1.98 -> 2.178 is +10 %.
	edited := strings.Replace(string(orig), "price: 1.98", "price: 2.178", 1)
	if err := os.WriteFile(team, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	rep = refresh(t, c, t0.Add(4*time.Hour))
	ups := rep.Diff.Of(catalog.KindPriceUp)
	if len(rep.Diff.Changes) != 1 || len(ups) != 1 || ups[0].Key != teamKey || ups[0].Pct != 10 ||
		ups[0].Old != 1.98 || ups[0].New != 2.178 || ups[0].Currency != knowledge.CNY {
		t.Errorf("diff after the edit = %+v", rep.Diff.Changes)
	}
	for _, s := range rep.Sources {
		if s.Name == "shipped" && s.Replaced {
			t.Error("shipped seeds stored again without a change")
		}
	}
}
