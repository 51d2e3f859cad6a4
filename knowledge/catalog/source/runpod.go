package source

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

const (
	runpodCollector = "runpod-graphql/1"
	runpodRESTColl  = "runpod-rest-v2/1"
)

// RunPod endpoints.
const (
	RunPodGraphQLURL = "https://api.runpod.io/graphql"
	RunPodCatalogURL = "https://api.runpod.io/v2/catalog/gpus"
)

// runpodNames maps RunPod GPU type ids the knowledge aliases miss.
var runpodNames = map[string]string{
	"NVIDIA A100 80GB PCIe":   "a100-80g",
	"NVIDIA A100-SXM4-80GB":   "a100-80g",
	"NVIDIA H100 80GB HBM3":   "h100-sxm",
	"NVIDIA H100 PCIe":        "h100-pcie",
	"NVIDIA H200":             "h200",
	"NVIDIA B200":             "b200",
	"NVIDIA L40S":             "l40s",
	"NVIDIA L4":               "l4",
	"NVIDIA GeForce RTX 4090": "rtx4090",
	"NVIDIA GeForce RTX 5090": "rtx5090",
	"NVIDIA GeForce RTX 3090": "rtx3090",
}

// runpodQuery asks for every GPU type's lowest price for one card in one
// cloud tier (%t: secure or community).
const runpodQuery = `query GpuTypes { gpuTypes { id displayName memoryInGb secureCloud communityCloud ` +
	`lowestPrice(input: {gpuCount: 1, secureCloud: %t}) { minimumBidPrice uninterruptablePrice stockStatus availableGpuCounts } } }`

// RunPod reads RunPod's GPU types and their lowest prices over the GraphQL
// API, once for Secure Cloud and once for Community Cloud. Prices are per
// card-hour. uninterruptablePrice is the on-demand offer, minimumBidPrice
// (when present) the interruptible bid floor; stockStatus High/Medium/Low/
// None becomes availability available/available/low/none, and
// availableGpuCounts is kept.
type RunPod struct {
	URL    string // RunPodGraphQLURL when empty
	APIKey string // sent as a bearer token, never in the URL
	Mapper *Mapper
	HTTP   HTTPOptions
}

// Name is "runpod".
func (r *RunPod) Name() string { return "runpod" }

type runpodGPUType struct {
	ID          string  `json:"id"`
	DisplayName string  `json:"displayName"`
	MemoryInGb  float64 `json:"memoryInGb"`
	LowestPrice *struct {
		MinimumBidPrice      *float64 `json:"minimumBidPrice"`
		UninterruptablePrice *float64 `json:"uninterruptablePrice"`
		StockStatus          *string  `json:"stockStatus"`
		AvailableGpuCounts   []int    `json:"availableGpuCounts"`
	} `json:"lowestPrice"`
}

// Fetch queries both tiers.
func (r *RunPod) Fetch(ctx context.Context, now time.Time) (*catalog.Batch, error) {
	url := r.URL
	if url == "" {
		url = RunPodGraphQLURL
	}
	b := &catalog.Batch{Ref: "runpod:graphql"}
	for _, secure := range []bool{true, false} {
		body, _ := json.Marshal(map[string]string{"query": fmt.Sprintf(runpodQuery, secure)})
		raw, err := r.HTTP.do(ctx, request{method: http.MethodPost, url: url, body: body, header: http.Header{
			"Authorization": {"Bearer " + r.APIKey}, "Content-Type": {"application/json"},
		}})
		if err != nil {
			return nil, fmt.Errorf("runpod: %w", err)
		}
		tier := "community"
		if secure {
			tier = "secure"
		}
		if err := r.Parse(b, raw, tier, now); err != nil {
			return nil, fmt.Errorf("runpod %s: %w", tier, err)
		}
		b.Ref += "," + tier + "@" + rawHash(string(raw))
	}
	return b, nil
}

// Parse adds one GraphQL gpuTypes answer for one tier to b.
func (r *RunPod) Parse(b *catalog.Batch, raw []byte, tier string, now time.Time) error {
	var resp struct {
		Data struct {
			GPUTypes []runpodGPUType `json:"gpuTypes"`
		} `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return fmt.Errorf("decode gpuTypes: %w", err)
	}
	if len(resp.Errors) > 0 {
		return errors.New("graphql: " + resp.Errors[0].Message)
	}
	mapper := r.Mapper.With(runpodNames)
	observed := now.UTC().Format(time.RFC3339)
	for _, t := range resp.Data.GPUTypes {
		lp := t.LowestPrice
		if lp == nil || lp.UninterruptablePrice == nil || *lp.UninterruptablePrice <= 0 {
			b.Skip(catalog.SkipNoPrice)
			continue
		}
		gpu, ok := mapper.Resolve(t.MemoryInGb, t.ID, t.DisplayName)
		if !ok {
			b.SkipUnknown(catalog.SkipUnknownGPU, t.ID)
			continue
		}
		stock := ""
		if lp.StockStatus != nil {
			stock = *lp.StockStatus
		}
		o := knowledge.Offer{
			Platform: "runpod", GPU: gpu, GPUCount: 1, SKU: t.ID, CloudTier: tier,
			Currency: knowledge.USD, Unit: knowledge.PerHour, Basis: knowledge.PerGPU,
			Granularity: "PT1S", Availability: "unknown", AvailableGPUCounts: lp.AvailableGpuCounts,
			ObservedAt: observed, Source: "RunPod API (gpuTypes lowestPrice)", SourceKind: "official_api",
			SourceRef: "runpod:graphql", CollectorVersion: runpodCollector, GPUMemoryGiB: t.MemoryInGb,
			RawHash: rawHash(t.ID, tier, catalog.FormatAmount(*lp.UninterruptablePrice), stock, fmt.Sprint(lp.AvailableGpuCounts)),
		}
		if lp.StockStatus != nil {
			o.Availability = runpodStock(stock)
		}
		od := o
		od.Model = knowledge.OnDemand
		od.PriceLow, od.PriceHigh = *lp.UninterruptablePrice, *lp.UninterruptablePrice
		od.Key = offerKey("runpod", gpu, tier, string(od.Model))
		b.Add(od)
		if lp.MinimumBidPrice != nil && *lp.MinimumBidPrice > 0 {
			bid := o
			bid.Model, bid.Interruptible = knowledge.Bid, true
			bid.PriceLow, bid.PriceHigh = *lp.MinimumBidPrice, *lp.MinimumBidPrice
			bid.Key = offerKey("runpod", gpu, tier, string(bid.Model))
			b.Add(bid)
		}
	}
	return nil
}

func runpodStock(s string) string {
	switch strings.ToLower(s) {
	case "high", "medium":
		return "available"
	case "low":
		return "low"
	case "none", "":
		return "none"
	}
	return "unknown"
}

// RunPodREST reads RunPod's REST v2 GPU catalogue (GET /v2/catalog/gpus):
// per-card prices for secure, community and serverless in one call, with an
// availability level. Configure it instead of RunPod, not with it: both
// describe the same offers.
type RunPodREST struct {
	URL    string // RunPodCatalogURL when empty
	APIKey string
	Mapper *Mapper
	HTTP   HTTPOptions
}

// Name is "runpod".
func (r *RunPodREST) Name() string { return "runpod" }

// Fetch reads the catalogue.
func (r *RunPodREST) Fetch(ctx context.Context, now time.Time) (*catalog.Batch, error) {
	url := r.URL
	if url == "" {
		url = RunPodCatalogURL
	}
	raw, err := r.HTTP.do(ctx, request{method: http.MethodGet, url: url, header: http.Header{
		"Authorization": {"Bearer " + r.APIKey}, "Accept": {"application/json"},
	}})
	if err != nil {
		return nil, fmt.Errorf("runpod: %w", err)
	}
	b, err := r.Parse(raw, now)
	if err != nil {
		return nil, fmt.Errorf("runpod: %w", err)
	}
	return b, nil
}

// Parse turns a /v2/catalog/gpus answer into a batch.
func (r *RunPodREST) Parse(raw []byte, now time.Time) (*catalog.Batch, error) {
	var resp struct {
		GPUs []struct {
			ID           string             `json:"id"`
			Name         string             `json:"name"`
			Memory       float64            `json:"memory"`
			Price        map[string]float64 `json:"price"`
			MaxCount     map[string]int     `json:"maxCount"`
			Availability string             `json:"availability"`
			DataCenters  []struct {
				ID string `json:"id"`
			} `json:"dataCenters"`
		} `json:"gpus"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, fmt.Errorf("decode catalog: %w", err)
	}
	b := &catalog.Batch{Ref: "runpod:rest-v2@" + rawHash(string(raw))}
	mapper := r.Mapper.With(runpodNames)
	observed := now.UTC().Format(time.RFC3339)
	for _, g := range resp.GPUs {
		gpu, ok := mapper.Resolve(g.Memory, g.ID, g.Name)
		if !ok {
			b.SkipUnknown(catalog.SkipUnknownGPU, g.ID)
			continue
		}
		var dcs []string
		for _, d := range g.DataCenters {
			dcs = append(dcs, d.ID)
		}
		sort.Strings(dcs)
		tiers := make([]string, 0, len(g.Price))
		for t := range g.Price {
			tiers = append(tiers, t)
		}
		sort.Strings(tiers)
		added := false
		for _, tier := range tiers {
			p := g.Price[tier]
			if p <= 0 {
				continue
			}
			model, ct := knowledge.OnDemand, tier
			if tier == "serverless" {
				model, ct = knowledge.Serverless, ""
			}
			o := knowledge.Offer{
				Key: offerKey("runpod", gpu, ct, string(model)), Platform: "runpod", GPU: gpu, GPUCount: 1,
				SKU: g.ID, CloudTier: ct, PriceLow: p, PriceHigh: p, Currency: knowledge.USD, Unit: knowledge.PerHour,
				Basis: knowledge.PerGPU, Model: model, Granularity: "PT1S", Availability: runpodStock(g.Availability),
				ObservedAt: observed, Source: "RunPod API (v2 GPU catalogue)", SourceKind: "official_api",
				SourceRef: b.Ref, CollectorVersion: runpodRESTColl, GPUMemoryGiB: g.Memory,
				RawHash: rawHash(g.ID, tier, catalog.FormatAmount(p), g.Availability),
			}
			if len(dcs) > 0 || g.MaxCount[tier] > 0 {
				o.ProviderData = map[string]string{}
				if len(dcs) > 0 {
					o.ProviderData["data_centers"] = strings.Join(dcs, ",")
				}
				if n := g.MaxCount[tier]; n > 0 {
					o.ProviderData["max_count"] = fmt.Sprint(n)
				}
			}
			b.Add(o)
			added = true
		}
		if !added {
			b.Skip(catalog.SkipNoPrice)
		}
	}
	return b, nil
}
