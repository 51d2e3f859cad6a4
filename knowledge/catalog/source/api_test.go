package source

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

const testKey = "sk-test-secret-123"

// serve starts a fixture server with its own mux.
func serve(t *testing.T, routes map[string]http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	for p, h := range routes {
		mux.HandleFunc(p, h)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// noWait records retry waits instead of sleeping.
type noWait struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (n *noWait) wait(_ context.Context, d time.Duration) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.waits = append(n.waits, d)
	return nil
}

func vastServer(t *testing.T, body []byte) *httptest.Server {
	return serve(t, map[string]http.HandlerFunc{"POST /api/v0/bundles/": func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testKey {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		var q map[string]any
		if err := json.NewDecoder(r.Body).Decode(&q); err != nil || q["type"] != "on-demand" || q["limit"] == nil {
			http.Error(w, "bad query", http.StatusBadRequest)
			return
		}
		w.Write(body)
	}})
}

func TestVastVerbatimExampleIsAnUnknownCard(t *testing.T) {
	srv := vastServer(t, fixture(t, "vastai_bundles_search_response.json"))
	v := &Vast{URL: srv.URL + "/api/v0/bundles/", APIKey: testKey, Mapper: mapper()}
	b, err := v.Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Offers) != 0 || b.Unknown["Imaginary RTX 9999 24GiB"] != 1 {
		t.Errorf("offers %d, unknown %v; want none and the imaginary card counted", len(b.Offers), b.Unknown)
	}
}

func TestVastBucketsListings(t *testing.T) {
	srv := vastServer(t, fixture(t, "vastai_bundles_listings_assembled.json"))
	v := &Vast{URL: srv.URL + "/api/v0/bundles/", APIKey: testKey, Mapper: mapper()}
	b, err := v.Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	got := byKey(t, b)
	if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, []string{
		"vastai/h100-sxm/x8/us/datacenter", "vastai/rtx4090/x1/se/community", "vastai/rtx4090/x2/se/community",
	}) {
		t.Fatalf("buckets = %v", keys)
	}
	se := got["vastai/rtx4090/x1/se/community"]
	if se.PriceLow != 0.35 || se.Median != 0.41 || se.PriceHigh != 0.52 || se.Listings != 3 || se.Basis != knowledge.PerGPU ||
		se.ProviderData["listing_ids"] != "1002,1001,1003" || se.Reliability != 0.991 || se.Country != "SE" {
		t.Errorf("SE 1x 4090 bucket = %+v", se)
	}
	if h := got["vastai/h100-sxm/x8/us/datacenter"]; h.PriceLow != 1.9 {
		t.Errorf("8x H100 per card-hour = %v, want 15.20 / 8", h.PriceLow)
	}
	wantUnknown := map[string]int{"RTX 4090 48GiB": 1, "H100 NVL 94GiB": 1}
	if d := cmp.Diff(wantUnknown, b.Unknown); d != "" {
		t.Errorf("unknown (-want +got):\n%s", d)
	}
	if b.Skipped[catalog.SkipNoPrice] != 1 {
		t.Errorf("skipped = %v, want the zero-priced listing", b.Skipped)
	}
}

func TestVastFlappingListingsAreNoChange(t *testing.T) {
	first := fixture(t, "vastai_bundles_listings_assembled.json")
	// Next fetch: host 1002 left and 2002 lists at the same price; 1003's
	// dearest slot is taken by another host at 0.47. Min and median hold.
	second := strings.NewReplacer(`"id": 1002`, `"id": 2002`, `"id": 1003`, `"id": 2003`, `"dph_total": 0.52`, `"dph_total": 0.47`).Replace(string(first))
	v := &Vast{Mapper: mapper()}
	a, err := v.Parse(first, now)
	if err != nil {
		t.Fatal(err)
	}
	b, err := v.Parse([]byte(second), now.Add(4*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if d := catalog.Diff(a.Offers, b.Offers, catalog.Thresholds{}); !d.Empty() {
		t.Errorf("listings flapping inside a bucket reported %+v", d.Changes)
	}
	// Moving the median is a change, read on the median.
	third := strings.Replace(string(first), `"dph_total": 0.41`, `"dph_total": 0.45`, 1)
	c, _ := v.Parse([]byte(third), now)
	d := catalog.Diff(a.Offers, c.Offers, catalog.Thresholds{})
	if len(d.Changes) != 1 || d.Changes[0].Measure != catalog.MeasureMedian || d.Changes[0].Kind != catalog.KindPriceUp {
		t.Errorf("median move = %+v", d.Changes)
	}
}

func runpodServer(t *testing.T, secure, community []byte, hits *int) *httptest.Server {
	return serve(t, map[string]http.HandlerFunc{"POST /graphql": func(w http.ResponseWriter, r *http.Request) {
		*hits++
		if r.Header.Get("Authorization") != "Bearer "+testKey || strings.Contains(r.URL.RawQuery, testKey) {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		var q struct{ Query string }
		json.NewDecoder(r.Body).Decode(&q)
		switch {
		case strings.Contains(q.Query, "secureCloud: true"):
			w.Write(secure)
		case strings.Contains(q.Query, "secureCloud: false"):
			w.Write(community)
		default:
			http.Error(w, "unexpected query", http.StatusBadRequest)
		}
	}})
}

func TestRunPodGraphQL(t *testing.T) {
	var hits int
	srv := runpodServer(t, fixture(t, "runpod_graphql_gpuTypes_prices_assembled_secure.json"),
		fixture(t, "runpod_graphql_gpuTypes_lowestPrice_response.json"), &hits)
	r := &RunPod{URL: srv.URL + "/graphql", APIKey: testKey, Mapper: mapper()}
	b, err := r.Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	got := byKey(t, b)
	want := map[string]string{ // key -> price/availability
		"runpod/rtx4090/secure/on_demand":    "0.69 available",
		"runpod/rtx4090/secure/bid":          "0.29 available",
		"runpod/h100-sxm/secure/on_demand":   "2.99 low",
		"runpod/rtx3090/community/on_demand": "0.3 unknown",
	}
	gotSummary := map[string]string{}
	for k, o := range got {
		gotSummary[k] = catalog.FormatAmount(o.PriceLow) + " " + o.Availability
		if o.Basis != knowledge.PerGPU || o.GPUCount != 1 {
			t.Errorf("%s: RunPod prices are per GPU, got %s × %v", k, o.Basis, o.GPUCount)
		}
	}
	if d := cmp.Diff(want, gotSummary); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if c := got["runpod/rtx4090/secure/on_demand"].AvailableGPUCounts; !slices.Equal(c, []int{1, 2, 4, 8}) {
		t.Errorf("available counts = %v", c)
	}
	if !got["runpod/rtx4090/secure/bid"].Interruptible {
		t.Error("bid offer not interruptible")
	}
	if b.Unknown["NVIDIA RTX A4000"] != 1 || b.Unknown["NVIDIA H100 NVL"] != 1 || hits != 2 {
		t.Errorf("unknown %v, hits %d", b.Unknown, hits)
	}
}

func TestRunPodStockLevels(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{"runpod_graphql_gpuTypes_stock_high_response.json", "available"},
		{"runpod_graphql_gpuTypes_stock_low_response.json", "low"},
	} {
		// The documented answers name the A4000, which the knowledge base
		// lacks; map it to a known card for this test only.
		r := &RunPod{Mapper: NewMapper(knowledge.MustShipped(), map[string]string{"NVIDIA RTX A4000": "rtx3080ti"})}
		b := &catalog.Batch{}
		if err := r.Parse(b, fixture(t, tt.file), "secure", now); err != nil {
			t.Fatal(err)
		}
		if len(b.Offers) != 1 || b.Offers[0].Availability != tt.want {
			t.Errorf("%s: offers %+v, want availability %s", tt.file, b.Offers, tt.want)
		}
	}
	// The list answer carries no prices.
	b := &catalog.Batch{}
	if err := (&RunPod{Mapper: mapper()}).Parse(b, fixture(t, "runpod_graphql_gpuTypes_list_response.json"), "secure", now); err != nil {
		t.Fatal(err)
	}
	if len(b.Offers) != 0 || b.Skipped[catalog.SkipNoPrice] != 3 {
		t.Errorf("list answer: offers %d, skipped %v", len(b.Offers), b.Skipped)
	}
	if err := (&RunPod{Mapper: mapper()}).Parse(&catalog.Batch{}, []byte(`{"errors":[{"message":"Unauthorized"}]}`), "secure", now); err == nil {
		t.Error("GraphQL errors accepted")
	}
}

func TestRunPodRESTCatalog(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{"GET /v2/catalog/gpus": func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testKey {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		w.Write(fixture(t, "runpod_rest_v2_catalog_gpus_response.json"))
	}})
	b, err := (&RunPodREST{URL: srv.URL + "/v2/catalog/gpus", APIKey: testKey, Mapper: mapper()}).Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	got := byKey(t, b)
	want := map[string]float64{"runpod/rtx4090/community/on_demand": 0.31, "runpod/rtx4090/secure/on_demand": 0.44, "runpod/rtx4090/serverless": 1.1}
	gotP := map[string]float64{}
	for k, o := range got {
		gotP[k] = o.PriceLow
		if o.Availability != "available" {
			t.Errorf("%s availability %q", k, o.Availability)
		}
	}
	if d := cmp.Diff(want, gotP); d != "" {
		t.Errorf("prices (-want +got):\n%s", d)
	}
}

func TestLambdaInstanceTypes(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{"GET /api/v1/instance-types": func(w http.ResponseWriter, r *http.Request) {
		if u, _, ok := r.BasicAuth(); !ok || u != testKey {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		w.Write(fixture(t, "lambda_instance_types_response.json"))
	}})
	b, err := (&Lambda{URL: srv.URL + "/api/v1/instance-types", APIKey: testKey, Mapper: mapper()}).Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	got := byKey(t, b)
	o, ok := got["lambda/h100-sxm/gpu_8x_h100_sxm5gdr/on_demand"]
	if !ok || len(got) != 1 {
		t.Fatalf("offers = %v", slices.Sorted(maps.Keys(got)))
	}
	// 3592 cents per instance-hour, 8 cards, no region with capacity.
	if o.PriceLow != 35.92 || o.Basis != knowledge.PerInstance || o.GPUCount != 8 || cardHourly(o) != 4.49 || o.Availability != "none" {
		t.Errorf("8x H100 = %+v", o)
	}
	if b.Unknown["Example GPU (40 GB SXM4)"] != 1 {
		t.Errorf("unknown = %v", b.Unknown)
	}
}

func azureServer(t *testing.T, pages map[string][]byte, seen *[]string) *httptest.Server {
	var srv *httptest.Server
	srv = serve(t, map[string]http.HandlerFunc{"GET /api/retail/prices": func(w http.ResponseWriter, r *http.Request) {
		*seen = append(*seen, r.URL.RawQuery)
		page := r.URL.Query().Get("page")
		body, ok := pages[page]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(strings.ReplaceAll(string(body), "{{NEXT}}", srv.URL+"/api/retail/prices?page=2")))
	}})
	return srv
}

func TestAzureVerbatimSampleHasNoGPURows(t *testing.T) {
	var seen []string
	srv := azureServer(t, map[string][]byte{"": fixture(t, "azure_retail_prices_response.json")}, &seen)
	b, err := (&Azure{URL: srv.URL + "/api/retail/prices", Mapper: mapper()}).Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	// F16s Spot is a Windows DevTest row; the E64 v4 reservation (25007 USD
	// for a year, unit "1 Hour") is no GPU size.
	want := map[string]int{catalog.SkipUnsupported: 1, catalog.SkipUnmappedSKU: 1}
	if len(b.Offers) != 0 || !cmp.Equal(want, b.Skipped) {
		t.Errorf("offers %d, skipped %v", len(b.Offers), b.Skipped)
	}
	if len(seen) != 1 || !strings.Contains(seen[0], "currencyCode=%27USD%27") || !strings.Contains(seen[0], "Standard_NC24ads_A100_v4") {
		t.Errorf("query = %q", seen)
	}
}

func TestAzurePagesAndReservations(t *testing.T) {
	var seen []string
	srv := azureServer(t, map[string][]byte{
		"":  fixture(t, "azure_retail_prices_gpu_page1_assembled.json"),
		"2": fixture(t, "azure_retail_prices_gpu_page2_assembled.json"),
	}, &seen)
	b, err := (&Azure{URL: srv.URL + "/api/retail/prices", Mapper: mapper()}).Fetch(t.Context(), now)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 {
		t.Fatalf("pages fetched = %d, want 2", len(seen))
	}
	got := byKey(t, b)
	type row struct {
		Price      float64
		Unit       knowledge.Unit
		Term       string
		CardHourly float64
	}
	gotRows := map[string]row{}
	for k, o := range got {
		gotRows[k] = row{o.PriceLow, o.Unit, o.Term, cardHourly(o)}
	}
	want := map[string]row{
		"azure/a100-80g/standard_nc24ads_a100_v4/eastus/on_demand":    {3.673, knowledge.PerHour, "", 3.673},
		"azure/a100-80g/standard_nc24ads_a100_v4/eastus/spot":         {0.7346, knowledge.PerHour, "", 0.7346},
		"azure/a100-80g/standard_nc24ads_a100_v4/eastus/reserved/p1y": {20221, knowledge.PerTerm, "P1Y", 20221.0 / 8760},
		"azure/a100-80g/standard_nc24ads_a100_v4/eastus/reserved/p3y": {43336, knowledge.PerTerm, "P3Y", 43336.0 / 26280},
		"azure/h100-sxm/standard_nd96isr_h100_v5/eastus/on_demand":    {98.32, knowledge.PerHour, "", 12.29},
	}
	if d := cmp.Diff(want, gotRows); d != "" {
		t.Errorf("offers (-want +got):\n%s", d)
	}
	if b.Skipped[catalog.SkipUnsupported] != 1 {
		t.Errorf("skipped = %v, want the Windows row", b.Skipped)
	}
}

func TestAzureRefusesForeignNextPageLink(t *testing.T) {
	var seen []string
	page := strings.ReplaceAll(string(fixture(t, "azure_retail_prices_gpu_page1_assembled.json")), `"{{NEXT}}"`, `"https://elsewhere.example/p2"`)
	srv := azureServer(t, map[string][]byte{"": []byte(page)}, &seen)
	if _, err := (&Azure{URL: srv.URL + "/api/retail/prices", Mapper: mapper()}).Fetch(t.Context(), now); err == nil {
		t.Error("followed a NextPageLink to another host")
	}
}

func TestHTTPRetries(t *testing.T) {
	tests := []struct {
		name      string
		answers   []func(w http.ResponseWriter)
		wantWaits []time.Duration
		wantErr   string
		wantCalls int
	}{
		{"429 with Retry-After seconds, then success", []func(http.ResponseWriter){
			func(w http.ResponseWriter) { w.Header().Set("Retry-After", "2"); w.WriteHeader(429) },
			func(w http.ResponseWriter) { w.Write([]byte("ok")) },
		}, []time.Duration{2 * time.Second}, "", 2},
		{"503 without Retry-After backs off", []func(http.ResponseWriter){
			func(w http.ResponseWriter) { w.WriteHeader(503) },
			func(w http.ResponseWriter) { w.WriteHeader(503) },
			func(w http.ResponseWriter) { w.Write([]byte("ok")) },
		}, []time.Duration{time.Second, 2 * time.Second}, "", 3},
		{"Retry-After beyond the cap fails at once", []func(http.ResponseWriter){
			func(w http.ResponseWriter) { w.Header().Set("Retry-After", "3600"); w.WriteHeader(429) },
		}, nil, "exceeds the 1m0s cap", 1},
		{"persistent 429 gives up", []func(http.ResponseWriter){
			func(w http.ResponseWriter) { w.Header().Set("Retry-After", "0"); w.WriteHeader(429) },
		}, []time.Duration{0, 0, 0}, "gave up after 4 attempts", 4},
		{"401 is not retried", []func(http.ResponseWriter){
			func(w http.ResponseWriter) { w.WriteHeader(401); w.Write([]byte("bad key")) },
		}, nil, "http 401: bad key", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			srv := serve(t, map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				tt.answers[min(calls, len(tt.answers)-1)](w)
				calls++
			}})
			nw := &noWait{}
			body, err := HTTPOptions{Wait: nw.wait}.do(t.Context(), request{method: http.MethodGet, url: srv.URL + "/?key=" + testKey,
				header: http.Header{"Authorization": {"Bearer " + testKey}}})
			switch {
			case tt.wantErr == "" && (err != nil || string(body) != "ok"):
				t.Errorf("do = %q, %v", body, err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			case err != nil && strings.Contains(err.Error(), testKey):
				t.Errorf("error leaks the key: %v", err)
			}
			var se *StatusError
			if tt.wantErr == "http 401: bad key" && !errors.As(err, &se) {
				t.Errorf("err %v is not a StatusError", err)
			}
			if d := cmp.Diff(tt.wantWaits, nw.waits); d != "" {
				t.Errorf("waits (-want +got):\n%s", d)
			}
			if calls != tt.wantCalls {
				t.Errorf("calls = %d, want %d", calls, tt.wantCalls)
			}
		})
	}
}

func TestTransportErrorDoesNotLeakURL(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	nw := &noWait{}
	_, err := HTTPOptions{Wait: nw.wait, MaxRetries: 1}.do(t.Context(), request{method: http.MethodGet, url: url + "/x?api_key=" + testKey})
	if err == nil || strings.Contains(err.Error(), testKey) {
		t.Errorf("err = %v", err)
	}
}

func TestFromConfig(t *testing.T) {
	srcs, err := FromConfig(Config{
		File: "prices.yaml", SkyPilot: []string{"catalogs/v7/lambda/vms.csv", "runpod=testdata/x.csv"}, GPUHunt: []string{"/d/aws.csv"},
		VastAPIKey: "k", RunPodAPIKey: "k", LambdaAPIKey: "k", AzureURL: AzureURL,
	}, knowledge.MustShipped())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range srcs {
		names = append(names, s.Name())
	}
	want := []string{"shipped", "skypilot-lambda", "skypilot-runpod", "gpuhunt-aws", "vastai", "runpod", "lambda", "azure", "team-file"}
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("sources (-want +got):\n%s", d)
	}
	off, _ := FromConfig(Config{NoShipped: true}, knowledge.MustShipped())
	if len(off) != 0 {
		t.Errorf("unconfigured sources are on: %d", len(off))
	}
	if _, err := FromConfig(Config{SkyPilot: []string{"a/lambda/vms.csv", "b/lambda/vms.csv"}}, knowledge.MustShipped()); err == nil {
		t.Error("two sources with one name accepted")
	}
}

func TestHostedCatalogueFromURL(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{
		"GET /catalogs/v7/runpod/vms.csv": func(w http.ResponseWriter, r *http.Request) {
			w.Write(fixture(t, "skypilot_catalog_v7_runpod_vms_excerpt.csv"))
		},
		"GET /v3/aws.csv": func(w http.ResponseWriter, r *http.Request) {
			w.Write(fixture(t, "gpuhunt_v2_catalog_excerpt.csv"))
		},
	})
	srcs, err := FromConfig(Config{NoShipped: true,
		SkyPilot: []string{srv.URL + "/catalogs/v7/runpod/vms.csv"}, GPUHunt: []string{srv.URL + "/v3/aws.csv"}}, knowledge.MustShipped())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"skypilot-runpod": 14, "gpuhunt-aws": 2}
	for _, s := range srcs {
		b, err := s.Fetch(t.Context(), now)
		if err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		if b.Len() != want[s.Name()] || !strings.Contains(b.Ref, srv.URL) {
			t.Errorf("%s: %d offers, ref %q", s.Name(), b.Len(), b.Ref)
		}
	}
}
