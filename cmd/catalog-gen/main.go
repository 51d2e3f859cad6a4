// Command catalog-gen converts the dated public market snapshot
// (shared/market/offers.csv: OpenComputePrices and SkyPilot catalogue rows,
// see its SOURCES.md) into the catalogue the bot ships with,
// knowledge/catalog/source/data/market.csv.
//
//	go run ./cmd/catalog-gen -in ../shared/market/offers.csv
//
// The output keeps every price string exactly as read, per instance, with
// its source, commit and date on every row. What the generator changes is
// listed in rules below, each with the reason; nothing else is touched.
// Duplicates are collapsed when the bot loads the file (after card names are
// resolved against the knowledge base), not here, so a card the knowledge
// base learns later needs no regeneration.
package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// undatedAs is the date given to rows whose source has no date (SkyPilot v7
// files read at a commit of unknown time): the earliest date in the
// snapshot, so such a row is never shown as newer than the data around it.
const undatedAs = "2026-03-21"

// Out is the generated file's header (knowledge/catalog/source/market.go
// reads it by name).
var Out = []string{"observed_at", "date_basis", "source", "source_commit", "provider", "sku", "gpu", "gpu_variant",
	"gpu_memory_gb", "gpu_count", "region", "regions", "pricing_type", "term", "price_per_hour", "currency",
	"available_count", "caveats"}

// scrapers are OCP's early small-site collectors, rewritten upstream
// afterwards (SOURCES.md §5.7): their rows carry a lower-confidence caveat.
var scrapers = map[string]bool{"ocp:akash": true, "ocp:crusoe": true, "ocp:denvr": true, "ocp:e2e": true,
	"ocp:jarvislabs": true, "ocp:latitude": true, "ocp:linode": true, "ocp:massedcompute": true,
	"ocp:paperspace": true, "ocp:thundercompute": true, "ocp:voltagepark": true}

func main() {
	in := flag.String("in", "../shared/market/offers.csv", "market snapshot offers.csv")
	out := flag.String("out", "knowledge/catalog/source/data/market.csv", "generated catalogue")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "catalog-gen:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	rows, dropped, err := convert(f)
	if err != nil {
		return err
	}
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := write(w, rows); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "catalog-gen: %d rows written to %s\n", len(rows), out)
	keys := make([]string, 0, len(dropped))
	for k := range dropped {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(os.Stderr, "  dropped %d: %s\n", dropped[k], k)
	}
	return nil
}

// convert reads the snapshot and applies the rules; dropped counts rows
// left out by reason.
func convert(r io.Reader) (rows [][]string, dropped map[string]int, err error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("header: %w", err)
	}
	idx := map[string]int{}
	for i, h := range header {
		idx[h] = i
	}
	for _, c := range []string{"observed_date", "source", "source_commit", "provider", "sku", "gpu_name", "gpu_variant",
		"gpu_memory_gb", "gpu_count", "region", "regions", "pricing_type", "commitment_period", "price_per_hour_usd", "available_count"} {
		if _, ok := idx[c]; !ok {
			return nil, nil, fmt.Errorf("header lacks %s", c)
		}
	}
	dropped = map[string]int{}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("line %d: %w", line, err)
		}
		get := func(c string) string { return strings.TrimSpace(rec[idx[c]]) }
		row, why := rule(get)
		if why != "" {
			dropped[why]++
			continue
		}
		rows = append(rows, row)
	}
	return rows, dropped, nil
}

// rule turns one snapshot row into an output row, or says why it is left out.
func rule(get func(string) string) (row []string, dropped string) {
	src, provider, sku := get("source"), get("provider"), get("sku")
	count, pricing := get("gpu_count"), get("pricing_type")
	var caveats []string
	switch {
	case provider == "azure" && strings.Contains(sku, "NVadsA10v5"):
		// 4–24 GB slices of one A10 labelled as one card (SOURCES.md §5.2).
		return nil, "fractional Azure NVadsA10 v5 slice"
	case provider == "azure" && strings.HasPrefix(sku, "Standard_NV") && strings.HasSuffix(sku, "as_v4"):
		// Partitions of one Radeon MI25 labelled as one card.
		return nil, "fractional Azure NVas v4 partition"
	case src == "ocp:akash" && !strings.HasSuffix(sku, "_weightedAverage"):
		// Akash publishes min/max/avg/weighted-average statistics per card;
		// one figure per card is kept, the weighted average, as summary.md does.
		return nil, "Akash statistic other than the weighted average"
	}
	if src == "ocp:akash" {
		caveats = append(caveats, "akash_stat")
	}
	if provider == "azure" && sku == "Standard_ND96isr_H100_v5" && count == "12" {
		// The v6 capture says 12 cards; the VM has 8 H100s (Azure ND H100 v5
		// documentation; SkyPilot's own v7 Azure file agrees).
		count = "8"
		caveats = append(caveats, "count_fixed")
	}
	if provider == "mithril" {
		// Auction capacity: Price == SpotPrice on every row, so neither is a
		// guaranteed on-demand price (SOURCES.md §5.3).
		pricing = "bid"
		caveats = append(caveats, "auction")
	}
	if provider == "gcp" && src == "ocp:skypilot(v6)" {
		caveats = append(caveats, "gpu_only_vm_extra")
	}
	if src == "ocp:tensordock" {
		caveats = append(caveats, "gpu_only_host_extra")
	}
	if src == "ocp:skypilot(v6)" {
		caveats = append(caveats, "v6_stale")
	}
	if scrapers[src] && src != "ocp:akash" {
		caveats = append(caveats, "scraper")
	}
	if strings.HasPrefix(sku, "cheapest_") {
		caveats = append(caveats, "index_row")
	}
	term := get("commitment_period")
	if pricing == "reserved" && term == "" {
		caveats = append(caveats, "term_unknown")
	}
	date, basis := get("observed_date"), "observed"
	if date == "" {
		date, basis = undatedAs, "undated"
	}
	return []string{date, basis, src, get("source_commit"), provider, sku, get("gpu_name"), get("gpu_variant"),
		get("gpu_memory_gb"), count, get("region"), get("regions"), pricing, term, get("price_per_hour_usd"), "USD",
		get("available_count"), strings.Join(caveats, " ")}, ""
}

func write(w io.Writer, rows [][]string) error {
	if _, err := fmt.Fprintf(w, "# Generated by cmd/catalog-gen from shared/market/offers.csv (OpenComputePrices MIT; SkyPilot catalogue). Do not edit: regenerate.\n"); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(Out); err != nil {
		return err
	}
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}
