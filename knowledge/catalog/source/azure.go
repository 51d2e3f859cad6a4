package source

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

const azureCollector = "azure-retail-prices/1"

// AzureURL is the Azure Retail Prices endpoint (no key needed).
const AzureURL = "https://prices.azure.com/api/retail/prices"

// azureSKU is what one Azure VM size carries.
type azureSKU struct {
	gpu   string
	count float64
}

// azureSKUs maps GPU VM sizes (armSkuName) to cards. The list is also the
// query filter, so pagination stays short. Sizes with cards the knowledge
// base lacks (T4, V100, MI300X, H100 NVL) are left out.
var azureSKUs = map[string]azureSKU{
	"Standard_NC24ads_A100_v4":  {"a100-80g", 1},
	"Standard_NC48ads_A100_v4":  {"a100-80g", 2},
	"Standard_NC96ads_A100_v4":  {"a100-80g", 4},
	"Standard_ND96asr_v4":       {"a100-40g", 8},
	"Standard_ND96amsr_A100_v4": {"a100-80g", 8},
	"Standard_ND96isr_H100_v5":  {"h100-sxm", 8},
	"Standard_ND96isr_H200_v5":  {"h200", 8},
	"Standard_NV36ads_A10_v5":   {"a10g", 1},
	"Standard_NV72ads_A10_v5":   {"a10g", 2},
}

// Azure reads Azure Retail Prices for the GPU VM sizes in its table,
// following NextPageLink up to MaxPages. Consumption rows are on-demand
// (per instance-hour; a skuName with "Spot" is spot, "Low Priority" is
// skipped); Reservation rows publish the whole term's price while their
// unitOfMeasure says "1 Hour", so they become unit term_total with the term
// (P1Y, P3Y) and are never read as hourly. Windows, DevTest and tiered rows
// are skipped.
type Azure struct {
	URL      string // AzureURL when empty
	Currency knowledge.Currency
	MaxPages int // 200
	Mapper   *Mapper
	HTTP     HTTPOptions
}

// Name is "azure".
func (a *Azure) Name() string { return "azure" }

type azureItem struct {
	CurrencyCode      string  `json:"currencyCode"`
	TierMinimumUnits  float64 `json:"tierMinimumUnits"`
	ReservationTerm   string  `json:"reservationTerm"`
	RetailPrice       float64 `json:"retailPrice"`
	ArmRegionName     string  `json:"armRegionName"`
	Location          string  `json:"location"`
	EffectiveStart    string  `json:"effectiveStartDate"`
	MeterID           string  `json:"meterId"`
	ProductName       string  `json:"productName"`
	SkuName           string  `json:"skuName"`
	ServiceName       string  `json:"serviceName"`
	UnitOfMeasure     string  `json:"unitOfMeasure"`
	Type              string  `json:"type"`
	ArmSkuName        string  `json:"armSkuName"`
	IsPrimaryMeterReg *bool   `json:"isPrimaryMeterRegion"`
}

// Filter is the OData $filter sent: virtual machines of the mapped sizes.
func (a *Azure) Filter() string {
	skus := make([]string, 0, len(azureSKUs))
	for s := range azureSKUs {
		skus = append(skus, "armSkuName eq '"+s+"'")
	}
	sort.Strings(skus)
	return "serviceName eq 'Virtual Machines' and (" + strings.Join(skus, " or ") + ")"
}

// Fetch pages through the price list.
func (a *Azure) Fetch(ctx context.Context, now time.Time) (*catalog.Batch, error) {
	base := a.URL
	if base == "" {
		base = AzureURL
	}
	cur := a.Currency
	if cur == "" {
		cur = knowledge.USD
	}
	maxPages := a.MaxPages
	if maxPages <= 0 {
		maxPages = 200
	}
	q := url.Values{"currencyCode": {"'" + string(cur) + "'"}, "$filter": {a.Filter()}}
	next := base + "?" + q.Encode()
	baseURL, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("azure: url: %w", err)
	}
	b := &catalog.Batch{Ref: "azure:retail-prices"}
	for page := 0; next != ""; page++ {
		if page == maxPages {
			return nil, fmt.Errorf("azure: more than %d pages; refusing a partial price list", maxPages)
		}
		if u, err := url.Parse(next); err != nil || u.Host != baseURL.Host {
			return nil, fmt.Errorf("azure page %d: NextPageLink leaves %s; refusing to follow it", page+1, baseURL.Host)
		}
		raw, err := a.HTTP.do(ctx, request{method: http.MethodGet, url: next, header: http.Header{"Accept": {"application/json"}}})
		if err != nil {
			return nil, fmt.Errorf("azure page %d: %w", page+1, err)
		}
		if next, err = a.Parse(b, raw, now); err != nil {
			return nil, fmt.Errorf("azure page %d: %w", page+1, err)
		}
	}
	return b, nil
}

// Parse adds one page to b and returns the next page's link ("" at the end).
func (a *Azure) Parse(b *catalog.Batch, raw []byte, now time.Time) (string, error) {
	var page struct {
		Items        []azureItem `json:"Items"`
		NextPageLink *string     `json:"NextPageLink"`
	}
	if err := json.Unmarshal(raw, &page); err != nil {
		return "", fmt.Errorf("decode page: %w", err)
	}
	observed := now.UTC().Format(time.RFC3339)
	for _, it := range page.Items {
		switch {
		case strings.Contains(it.ProductName, "Windows"), it.Type == "DevTestConsumption",
			strings.Contains(it.SkuName, "Low Priority"), it.TierMinimumUnits > 0:
			b.Skip(catalog.SkipUnsupported)
			continue
		}
		sku, ok := azureSKUs[it.ArmSkuName]
		if !ok {
			b.SkipUnknown(catalog.SkipUnmappedSKU, it.ArmSkuName)
			continue
		}
		if it.RetailPrice <= 0 {
			b.Skip(catalog.SkipNoPrice)
			continue
		}
		o := knowledge.Offer{
			Platform: "azure", GPU: sku.gpu, GPUCount: sku.count, SKU: it.ArmSkuName,
			Region: it.ArmRegionName, RegionLabel: it.Location,
			PriceLow: it.RetailPrice, PriceHigh: it.RetailPrice, Currency: knowledge.Currency(strings.ToUpper(it.CurrencyCode)),
			Basis: knowledge.PerInstance, ObservedAt: observed, Source: "Azure Retail Prices API",
			SourceKind: "official_api", SourceRef: b.Ref, SourceGeneratedAt: it.EffectiveStart,
			CollectorVersion: azureCollector, RawHash: rawHash(it.MeterID, it.Type, it.ReservationTerm, catalog.FormatAmount(it.RetailPrice)),
			ProviderData: map[string]string{"meter_id": it.MeterID, "sku_name": it.SkuName, "unit_of_measure": it.UnitOfMeasure},
		}
		switch it.Type {
		case "Consumption":
			if it.UnitOfMeasure != "1 Hour" {
				b.Skip(catalog.SkipUnsupported)
				continue
			}
			o.Unit, o.Model = knowledge.PerHour, knowledge.OnDemand
			if strings.Contains(it.SkuName, "Spot") {
				o.Model, o.Interruptible = knowledge.Spot, true
			}
		case "Reservation":
			term := azureTerm(it.ReservationTerm)
			if term == "" {
				b.Skip(catalog.SkipUnsupported)
				continue
			}
			// The row's "1 Hour" is wrong: retailPrice is the term total.
			o.Unit, o.Term, o.Model = knowledge.PerTerm, term, knowledge.Reserved
		default:
			b.Skip(catalog.SkipUnsupported)
			continue
		}
		o.Key = offerKey("azure", sku.gpu, it.ArmSkuName, it.ArmRegionName, string(o.Model), o.Term)
		b.Add(o)
	}
	if page.NextPageLink == nil {
		return "", nil
	}
	return *page.NextPageLink, nil
}

// azureTerm turns "1 Year" / "3 Years" into P1Y / P3Y.
func azureTerm(s string) string {
	n, unit, ok := strings.Cut(strings.TrimSpace(s), " ")
	if !ok || n == "" || strings.Trim(n, "0123456789") != "" {
		return ""
	}
	switch strings.ToLower(strings.TrimSuffix(unit, "s")) {
	case "year":
		return "P" + n + "Y"
	case "month":
		return "P" + n + "M"
	}
	return ""
}
