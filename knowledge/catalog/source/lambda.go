package source

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

const lambdaCollector = "lambda-instance-types/1"

// LambdaURL is Lambda's instance-types endpoint.
const LambdaURL = "https://cloud.lambda.ai/api/v1/instance-types"

// Lambda reads Lambda Cloud's instance types. Prices are integer US cents
// per instance-hour (price_cents_per_hour), turned into an exact decimal
// ("3592" → 35.92). One offer per instance type; availability is
// "available" when any region has capacity and "none" when the list is
// empty (the price is still published then). The card comes from
// gpu_description, e.g. "H100 (80 GB SXM5)".
type Lambda struct {
	URL    string // LambdaURL when empty
	APIKey string // HTTP basic auth user, as Lambda documents
	Mapper *Mapper
	HTTP   HTTPOptions
}

// Name is "lambda".
func (l *Lambda) Name() string { return "lambda" }

// Fetch reads the instance types.
func (l *Lambda) Fetch(ctx context.Context, now time.Time) (*catalog.Batch, error) {
	url := l.URL
	if url == "" {
		url = LambdaURL
	}
	raw, err := l.HTTP.do(ctx, request{method: http.MethodGet, url: url, header: http.Header{
		"Accept":        {"application/json"},
		"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(l.APIKey+":"))},
	}})
	if err != nil {
		return nil, fmt.Errorf("lambda: %w", err)
	}
	b, err := l.Parse(raw, now)
	if err != nil {
		return nil, fmt.Errorf("lambda: %w", err)
	}
	return b, nil
}

// lambdaGPU reads "H100 (80 GB SXM5)": name, memory, form factor.
var lambdaGPU = regexp.MustCompile(`^\s*(.*?)\s*\(\s*([\d.]+)\s*GB\s*([^)]*)\)\s*$`)

// Parse turns an instance-types answer into a batch.
func (l *Lambda) Parse(raw []byte, now time.Time) (*catalog.Batch, error) {
	var resp struct {
		Data map[string]struct {
			InstanceType struct {
				Name              string `json:"name"`
				Description       string `json:"description"`
				GPUDescription    string `json:"gpu_description"`
				PriceCentsPerHour *int64 `json:"price_cents_per_hour"`
				Specs             struct {
					VCPUs      float64 `json:"vcpus"`
					MemoryGiB  float64 `json:"memory_gib"`
					StorageGiB float64 `json:"storage_gib"`
					GPUs       float64 `json:"gpus"`
				} `json:"specs"`
			} `json:"instance_type"`
			Regions []struct {
				Name string `json:"name"`
			} `json:"regions_with_capacity_available"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, fmt.Errorf("decode instance types: %w", err)
	}
	b := &catalog.Batch{Ref: "lambda:instance-types@" + rawHash(string(raw))}
	names := make([]string, 0, len(resp.Data))
	for n := range resp.Data {
		names = append(names, n)
	}
	sort.Strings(names)
	observed := now.UTC().Format(time.RFC3339)
	for _, n := range names {
		e := resp.Data[n]
		it := e.InstanceType
		if it.Specs.GPUs <= 0 {
			b.Skip(catalog.SkipCPUOnly)
			continue
		}
		if it.PriceCentsPerHour == nil || *it.PriceCentsPerHour <= 0 {
			b.Skip(catalog.SkipNoPrice)
			continue
		}
		var cands []string
		mem := 0.0
		if m := lambdaGPU.FindStringSubmatch(it.GPUDescription); m != nil {
			mem, _ = strconv.ParseFloat(m[2], 64)
			cands = append(cands, m[1]+" "+m[3], m[1])
		} else {
			cands = append(cands, it.GPUDescription)
		}
		gpu, ok := l.Mapper.Resolve(mem, cands...)
		if !ok {
			b.SkipUnknown(catalog.SkipUnknownGPU, it.GPUDescription)
			continue
		}
		price := centsToAmount(*it.PriceCentsPerHour)
		var regions []string
		for _, r := range e.Regions {
			regions = append(regions, r.Name)
		}
		sort.Strings(regions)
		avail := "none"
		if len(regions) > 0 {
			avail = "available"
		}
		sku := it.Name
		if sku == "" {
			sku = n
		}
		o := knowledge.Offer{
			Key: offerKey("lambda", gpu, sku, string(knowledge.OnDemand)), Platform: "lambda", GPU: gpu,
			GPUCount: it.Specs.GPUs, SKU: sku, PriceLow: price, PriceHigh: price, Currency: knowledge.USD,
			Unit: knowledge.PerHour, Basis: knowledge.PerInstance, Model: knowledge.OnDemand, Availability: avail,
			ObservedAt: observed, Source: "Lambda API (instance-types)", SourceKind: "official_api", SourceRef: b.Ref,
			CollectorVersion: lambdaCollector, GPUMemoryGiB: mem, VCPUs: it.Specs.VCPUs, RAMGiB: it.Specs.MemoryGiB,
			RawHash: rawHash(sku, strconv.FormatInt(*it.PriceCentsPerHour, 10), strings.Join(regions, ",")),
			ProviderData: map[string]string{"price_cents_per_hour": strconv.FormatInt(*it.PriceCentsPerHour, 10),
				"regions_with_capacity": strings.Join(regions, ","), "storage_gib": catalog.FormatAmount(it.Specs.StorageGiB)},
		}
		b.Add(o)
	}
	return b, nil
}

// centsToAmount writes integer cents as the exact decimal amount.
func centsToAmount(c int64) float64 {
	f, _ := strconv.ParseFloat(fmt.Sprintf("%d.%02d", c/100, c%100), 64)
	return f
}
