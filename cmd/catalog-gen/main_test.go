package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"os"
	"strings"
	"testing"
)

const header = "observed_date,source,source_commit,provider,sku,gpu_name,gpu_variant,gpu_memory_gb,gpu_count,region,regions,pricing_type,commitment_period,price_per_hour_usd,price_per_gpu_hour_usd,available,available_count\n"

func TestRules(t *testing.T) {
	in := header +
		// kept as read, dated
		"2026-03-21,ocp:skypilot(v6),95870c1,lambda,gpu_8x_h100_sxm5,H100,SXM,80,8,asia-northeast-1,17,on_demand,,23.92,2.99,,\n" +
		// undated v7 row gets the earliest date and says so
		",skypilot-catalog:v7/lambda,1158013,lambda,gpu_8x_h100_sxm5,H100,SXM,80,8,asia-northeast-1,17,on_demand,,23.92,2.99,,\n" +
		// fractional slice and Akash non-average statistic dropped
		"2026-03-22,ocp:getdeploying,079e5f2,azure,1x A10 1x A10 4GB (NVadsA10v5),A10,,4,1,,0,on_demand,,0.45,0.45,,\n" +
		"2026-03-22,ocp:akash,079e5f2,akash,a100_SXM4_min,A100,SXM,80,1,,0,on_demand,,1.22,1.22,True,28\n" +
		"2026-03-22,ocp:akash,079e5f2,akash,a100_SXM4_weightedAverage,A100,SXM,80,1,,0,on_demand,,1.22,1.22,True,28\n" +
		// wrong card count corrected, mithril is auction capacity
		"2026-03-21,ocp:skypilot(v6),95870c1,azure,Standard_ND96isr_H100_v5,H100,,,12,eastus,2,on_demand,,98.32,8.193333,,\n" +
		",skypilot-catalog:v7/mithril,1ba9415,mithril,h100-80gb.sxm.8x,H100,SXM,80,8,us-central3-a,1,spot,,8.0,1.0,,\n"
	rows, dropped, err := convert(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 || len(dropped) != 2 {
		t.Fatalf("rows %d dropped %v, want 5 rows and 2 reasons", len(rows), dropped)
	}
	col := map[string]int{}
	for i, c := range Out {
		col[c] = i
	}
	want := []map[string]string{
		{"observed_at": "2026-03-21", "date_basis": "observed", "price_per_hour": "23.92", "gpu_count": "8", "regions": "17", "caveats": "v6_stale"},
		{"observed_at": "2026-03-21", "date_basis": "undated", "price_per_hour": "23.92", "caveats": ""},
		{"sku": "a100_SXM4_weightedAverage", "caveats": "akash_stat", "available_count": "28"},
		{"gpu_count": "8", "price_per_hour": "98.32", "caveats": "count_fixed v6_stale"},
		{"pricing_type": "bid", "caveats": "auction"},
	}
	for i, w := range want {
		for c, v := range w {
			if got := rows[i][col[c]]; got != v {
				t.Errorf("row %d %s = %q, want %q", i, c, got, v)
			}
		}
	}
}

// TestGeneratedFileIsCurrent fails when the shipped file was edited by hand
// or the rules changed without regenerating. testdata/offers.csv.gz is
// shared/market/offers.csv (4,413 rows; sha256 efe6552e…89bd00) gzipped,
// in the repository so that the test runs in every clone instead of
// skipping where the snapshot is not beside it; copy a new snapshot there
// when the generator is rerun on one.
func TestGeneratedFileIsCurrent(t *testing.T) {
	f, err := os.Open("testdata/offers.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	rows, _, err := convert(zr)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("../../knowledge/catalog/source/data/market.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), have) {
		t.Fatal("knowledge/catalog/source/data/market.csv is out of date: go run ./cmd/catalog-gen")
	}
	r := csv.NewReader(bytes.NewReader(have))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// 4,413 snapshot rows less 41 Akash statistics, 5 A10 slices, 16 MI25 partitions.
	if got := len(recs) - 1; got != 4413-41-5-16 {
		t.Errorf("generated rows = %d, want %d", got, 4413-41-5-16)
	}
}
