package source

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

const vastCollector = "vastai-bundles/1"

// VastURL is the Vast.ai offer search endpoint.
const VastURL = "https://console.vast.ai/api/v0/bundles/"

// Vast searches Vast.ai's marketplace (POST /api/v0/bundles/). Vast offers
// are individual host listings that come and go by the hour, so they are
// bucketed by (card, GPUs per machine, country, tier) and each bucket is one
// offer: PriceLow the cheapest listing, Median the median, PriceHigh the
// dearest, per card-hour, with Listings counted and the cheapest listing ids
// in ProviderData. The diff reads buckets on min and median only.
//
// The listing price is dph_total (the hourly price shown to renters,
// including the default storage), divided by num_gpus. Tier: hosting_type 1
// is "datacenter", a verified host "community", anything else
// "unverified_host".
type Vast struct {
	URL    string // VastURL when empty
	APIKey string
	// Query is the search body; nil sends DefaultVastQuery.
	Query  map[string]any
	Mapper *Mapper
	HTTP   HTTPOptions
}

// DefaultVastQuery asks for rentable, unrented, verified on-demand offers
// (the body of Vast's documented example; the doc's enum spells the type
// "ondemand" while its example says "on-demand", which is what is sent).
func DefaultVastQuery() map[string]any {
	return map[string]any{
		"limit": 1000, "type": "on-demand",
		"verified": map[string]any{"eq": true}, "rentable": map[string]any{"eq": true}, "rented": map[string]any{"eq": false},
	}
}

// Name is "vastai".
func (v *Vast) Name() string { return "vastai" }

type vastListing struct {
	ID           int64    `json:"id"`
	GPUName      string   `json:"gpu_name"`
	NumGPUs      float64  `json:"num_gpus"`
	GPURAM       float64  `json:"gpu_ram"` // MiB per card
	DPHTotal     *float64 `json:"dph_total"`
	DPHBase      float64  `json:"dph_base"`
	Geolocation  string   `json:"geolocation"`
	HostingType  int      `json:"hosting_type"`
	Verification string   `json:"verification"`
	Reliability2 float64  `json:"reliability2"`
	Rentable     *bool    `json:"rentable"`
	Rented       bool     `json:"rented"`
}

// Fetch runs the search and buckets the listings.
func (v *Vast) Fetch(ctx context.Context, now time.Time) (*catalog.Batch, error) {
	url := v.URL
	if url == "" {
		url = VastURL
	}
	q := v.Query
	if q == nil {
		q = DefaultVastQuery()
	}
	body, err := json.Marshal(q)
	if err != nil {
		return nil, fmt.Errorf("vastai: query: %w", err)
	}
	raw, err := v.HTTP.do(ctx, request{method: http.MethodPost, url: url, body: body, header: http.Header{
		"Authorization": {"Bearer " + v.APIKey}, "Content-Type": {"application/json"}, "Accept": {"application/json"},
	}})
	if err != nil {
		return nil, fmt.Errorf("vastai: %w", err)
	}
	b, err := v.Parse(raw, now)
	if err != nil {
		return nil, fmt.Errorf("vastai: %w", err)
	}
	return b, nil
}

type vastBucket struct {
	gpu, country, tier, label string
	count                     float64
	prices                    []float64 // per card-hour
	ids                       []vastPriced
	rel                       []float64
	mem                       float64
	hash                      []string
}

type vastPriced struct {
	id    int64
	price float64
}

// Parse buckets a search response.
func (v *Vast) Parse(raw []byte, now time.Time) (*catalog.Batch, error) {
	var resp struct {
		Offers []json.RawMessage `json:"offers"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, fmt.Errorf("decode offers: %w", err)
	}
	b := &catalog.Batch{Ref: "vastai:bundles@" + rawHash(string(raw))}
	buckets := map[string]*vastBucket{}
	for i, rawL := range resp.Offers {
		var l vastListing
		if err := json.Unmarshal(rawL, &l); err != nil {
			b.Problem("offer %d: %v", i, err)
			continue
		}
		if l.Rented || (l.Rentable != nil && !*l.Rentable) {
			b.Skip(catalog.SkipUnsupported)
			continue
		}
		if l.NumGPUs <= 0 {
			b.Skip(catalog.SkipCPUOnly)
			continue
		}
		if l.DPHTotal == nil || *l.DPHTotal <= 0 {
			b.Skip(catalog.SkipNoPrice)
			continue
		}
		mem := l.GPURAM / 1024
		gpu, ok := v.Mapper.Resolve(mem, l.GPUName)
		if !ok {
			b.SkipUnknown(catalog.SkipUnknownGPU, unknownName(l.GPUName, mem))
			continue
		}
		tier := "unverified_host"
		switch {
		case l.HostingType == 1:
			tier = "datacenter"
		case l.Verification == "verified":
			tier = "community"
		}
		country := countryOf(l.Geolocation)
		k := offerKey("vastai", gpu, "x"+strconv.FormatFloat(l.NumGPUs, 'f', -1, 64), country, tier)
		bk := buckets[k]
		if bk == nil {
			bk = &vastBucket{gpu: gpu, country: country, tier: tier, count: l.NumGPUs, label: l.Geolocation, mem: mem}
			buckets[k] = bk
		}
		per := *l.DPHTotal / l.NumGPUs
		bk.prices = append(bk.prices, per)
		bk.ids = append(bk.ids, vastPriced{l.ID, per})
		if l.Reliability2 > 0 {
			bk.rel = append(bk.rel, l.Reliability2)
		}
		bk.hash = append(bk.hash, strconv.FormatInt(l.ID, 10), catalog.FormatAmount(*l.DPHTotal))
	}
	keys := make([]string, 0, len(buckets))
	for k := range buckets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	observed := now.UTC().Format(time.RFC3339)
	for _, k := range keys {
		bk := buckets[k]
		sort.Float64s(bk.prices)
		sort.Slice(bk.ids, func(i, j int) bool {
			if bk.ids[i].price != bk.ids[j].price {
				return bk.ids[i].price < bk.ids[j].price
			}
			return bk.ids[i].id < bk.ids[j].id
		})
		ids := make([]string, 0, 10)
		for _, x := range bk.ids[:min(10, len(bk.ids))] {
			ids = append(ids, strconv.FormatInt(x.id, 10))
		}
		o := knowledge.Offer{
			Key: k, Platform: "vastai", GPU: bk.gpu, GPUCount: bk.count,
			Region: bk.country, Country: bk.country, RegionLabel: bk.label, CloudTier: bk.tier,
			PriceLow: roundPrice(bk.prices[0]), PriceHigh: roundPrice(bk.prices[len(bk.prices)-1]),
			Median: roundPrice(median(bk.prices)), Listings: len(bk.prices),
			Currency: knowledge.USD, Unit: knowledge.PerHour, Basis: knowledge.PerGPU, Model: knowledge.OnDemand,
			Granularity: "PT1S", Availability: "available", ObservedAt: observed,
			Source: "Vast.ai offer search (lowest / median listing)", SourceKind: "official_api", SourceRef: b.Ref,
			CollectorVersion: vastCollector, RawHash: rawHash(bk.hash...), GPUMemoryGiB: round2(bk.mem),
			ProviderData: map[string]string{"listing_ids": strings.Join(ids, ",")},
		}
		if len(bk.rel) > 0 {
			sort.Float64s(bk.rel)
			o.Reliability = median(bk.rel)
		}
		b.Add(o)
	}
	return b, nil
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// roundPrice trims a derived per-card price to six decimals.
func roundPrice(f float64) float64 {
	p, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 6, 64), 64)
	return p
}
