package catalog_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

// TestGarbageFromAHostedSourceKeepsTheLastGoodCatalogue serves a hosted
// SkyPilot catalogue over HTTP, then garbage in its place: each bad answer
// fails that source's refresh, and the offers stay the last good ones.
func TestGarbageFromAHostedSourceKeepsTheLastGoodCatalogue(t *testing.T) {
	good, err := os.ReadFile("testdata/lambda_vms.csv")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	status, contentType, body := 200, "text/csv", good
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	serve := func(st int, ct string, b []byte) {
		mu.Lock()
		status, contentType, body = st, ct, b
		mu.Unlock()
	}

	kb := knowledge.MustShipped()
	srcs, err := source.FromConfig(source.Config{NoShipped: true, SkyPilot: []string{srv.URL + "/catalogs/v7/lambda/vms.csv"}}, kb)
	if err != nil {
		t.Fatal(err)
	}
	_, rdb := newRedis(t)
	c := catalog.New(rdb, catalog.Options{Sources: srcs, Base: kb})
	at := t0
	if rep := refresh(t, c, at); rep.Sources[0].Failed() {
		t.Fatalf("good catalogue refused: %s", rep.Sources[0].Error)
	}
	want := keysOf(current(t, c).Offers)
	if len(want) == 0 {
		t.Fatal("no offers from the good catalogue; the test proves nothing")
	}

	header := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
	for _, g := range []struct {
		name        string
		status      int
		contentType string
		body        []byte
	}{
		{"an HTML error page with 200", 200, "text/html", []byte("<html><body><h1>Service Unavailable</h1></body></html>")},
		{"an empty body", 200, "text/csv", nil},
		{"the header alone", 200, "text/csv", []byte(header)},
		{"cut off mid-file", 200, "text/csv", good[:len(good)/3]},
		{"binary noise", 200, "application/octet-stream", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\xff\xfe\x00\x01garbage\x00")},
		{"JSON instead of CSV", 200, "application/json", []byte(`{"error":"rate limited"}`)},
		{"every price nonsense", 200, "text/csv", []byte(header +
			"gpu_8x_v100,V100,8.0,92.0,448.0,-4.4,us-east-1,,\n" +
			"gpu_4x_a6000,A6000,4.0,56.0,400.0,NaN,us-west-1,,\n" +
			"gpu_2x_a6000,A6000,2.0,28.0,200.0,1e308,europe-central-1,,\n")},
		{"a 500", 500, "text/plain", []byte("internal error")},
	} {
		t.Run(g.name, func(t *testing.T) {
			serve(g.status, g.contentType, g.body)
			at = at.Add(4 * time.Hour)
			rep := refresh(t, c, at)
			if !rep.Sources[0].Failed() {
				t.Errorf("garbage accepted: %+v", rep.Sources[0])
			}
			if !rep.Diff.Empty() {
				t.Errorf("garbage produced price changes: %+v", rep.Diff.Changes)
			}
			if got := keysOf(current(t, c).Offers); !slices.Equal(got, want) {
				t.Errorf("offers after garbage = %v, want the last good %v", got, want)
			}
			if strings.Contains(rep.Sources[0].Error, srv.URL) {
				t.Errorf("the error shows the source URL: %s", rep.Sources[0].Error)
			}
		})
	}
}
