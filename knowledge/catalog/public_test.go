package catalog_test

import (
	"archive/zip"
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

// publicMirror serves the public catalogues' real formats on loopback:
// SkyPilot's Vast vms.csv and a gpuhunt v2 catalogue (version + zip of
// per-provider CSVs), built from the format fixtures in source/testdata.
func publicMirror(t *testing.T, down *atomic.Bool) *httptest.Server {
	t.Helper()
	read := func(name string) []byte {
		b, err := os.ReadFile("source/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for name, fixture := range map[string]string{"aws.csv": "gpuhunt_v2_catalog_excerpt.csv", "runpod.csv": "gpuhunt_v2_catalog_legacy_columns_excerpt.csv"} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(read(fixture))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/v7/vast/vms.csv", func(w http.ResponseWriter, _ *http.Request) {
		w.Write(read("skypilot_catalog_v7_vast_vms_excerpt.csv"))
	})
	mux.HandleFunc("/v2/version", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("20261130-9001\n")) })
	mux.HandleFunc("/v2/20261130-9001/catalog.zip", func(w http.ResponseWriter, _ *http.Request) { w.Write(zb.Bytes()) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			http.Error(w, "mirror down", http.StatusNotFound) // not retried: fails at once
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestPublicCataloguesRefreshAndKeepLastGood(t *testing.T) {
	_, rdb := newRedis(t)
	kb := knowledge.MustShipped()
	var down atomic.Bool
	srv := publicMirror(t, &down)
	srcs, err := source.FromConfig(source.Config{Public: &source.PublicConfig{
		SkyPilotBase: srv.URL + "/v7", SkyPilotClouds: []string{"vast"}, GPUHuntBase: srv.URL + "/v2"}}, kb)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range srcs {
		names = append(names, s.Name())
	}
	if len(names) != 3 || names[0] != "shipped" || names[1] != "skypilot-vast" || names[2] != "gpuhunt" {
		t.Fatalf("sources = %v, want shipped, skypilot-vast, gpuhunt", names)
	}
	c := catalog.New(rdb, catalog.Options{Sources: srcs, Base: kb})
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	rep := refresh(t, c, now)
	for _, s := range rep.Sources {
		if s.Failed() {
			t.Errorf("%s failed: %s", s.Name, s.Error)
		}
	}
	v := current(t, c)
	var gh, vast *knowledge.Offer
	var shippedAWSH100, shippedAWSH200 int
	for i, o := range v.Offers {
		switch {
		// gpuhunt fixture row: 8x H100 spot at 12.0/h in eu-west-1.
		case o.Platform == "aws" && o.GPU == "h100-sxm" && o.PriceLow == 12 && o.Model == knowledge.Spot:
			gh = &v.Offers[i]
		// SkyPilot Vast fixture row: 1x H200 at 2.47/h in Hungary.
		case o.Platform == "vastai" && o.GPU == "h200" && o.PriceLow == 2.47:
			vast = &v.Offers[i]
		case o.Platform == "aws" && o.GPU == "h100-sxm" && o.SourceRef != "" && o.CollectorVersion == catalog.MarketCollector:
			shippedAWSH100++
		case o.Platform == "aws" && o.GPU == "h200" && o.CollectorVersion == catalog.MarketCollector:
			shippedAWSH200++
		}
	}
	if gh == nil || vast == nil {
		t.Fatalf("live offers missing: gpuhunt %v, vast %v", gh, vast)
	}
	if lo, _, _ := gh.CardHourly(); lo != 1.5 {
		t.Errorf("gpuhunt 8x H100 at 12/h = %v per card-hour, want 1.5", lo)
	}
	// Dated by the catalogue build (2026-11-30), not the fetch: 33 h old.
	if got := gh.FreshnessLabel("en", now); got != "recent" || gh.SourceGeneratedAt != "20261130-9001" {
		t.Errorf("gpuhunt offer freshness %q, generated %q", got, gh.SourceGeneratedAt)
	}
	if got := vast.FreshnessLabel("en", now); got != "live" {
		t.Errorf("SkyPilot offer fetched now labelled %q", got)
	}
	// The live aws H100 reading replaces the shipped March rows for that
	// card; aws H200, which the live source does not list, keeps them.
	if shippedAWSH100 != 0 || shippedAWSH200 == 0 {
		t.Errorf("shipped aws h100 offers %d (want 0), h200 %d (want > 0)", shippedAWSH100, shippedAWSH200)
	}
	live := len(v.Offers)

	// The mirror goes down: both public sources keep their last good data,
	// marked stale with the age of what is served.
	down.Store(true)
	later := now.Add(4 * time.Hour)
	rep = refresh(t, c, later)
	failed := 0
	for _, s := range rep.Sources {
		if s.Failed() {
			failed++
			if !s.Status.Stale() || s.Status.Age(later) != 4*time.Hour || s.Offers == 0 {
				t.Errorf("%s: stale %v age %v offers kept %d", s.Name, s.Status.Stale(), s.Status.Age(later), s.Offers)
			}
		}
	}
	if failed != 2 {
		t.Errorf("%d sources failed, want the 2 public ones", failed)
	}
	if n := len(current(t, c).Offers); n != live {
		t.Errorf("offers after a failed refresh = %d, want the %d last good", n, live)
	}
}
