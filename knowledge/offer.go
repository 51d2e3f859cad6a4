package knowledge

import (
	"fmt"
	"time"
)

// Currency is an ISO 4217 code. The catalogue keeps prices in the currency
// the platform published; conversion happens only in derived views.
type Currency string

// Currencies the bot knows.
const (
	CNY Currency = "CNY"
	USD Currency = "USD"
)

// Unit is what one price buys.
type Unit string

// Price units. A card-month is one card for a month; a machine-month is a
// whole multi-card machine (GPUCount cards) for a month.
const (
	PerHour         Unit = "hour"
	PerDay          Unit = "day"
	PerWeek         Unit = "week"
	PerMonth        Unit = "month"
	PerYear         Unit = "year"
	PerMillionToken Unit = "m_tokens"
	// PerTerm is the total for the whole Term (an ISO 8601 duration such as
	// P1Y): Azure reservation rows publish the term total while their unit
	// says "1 Hour", so they must never be read as hourly.
	PerTerm Unit = "term_total"
)

// Basis says whether a price is for one card or the whole instance.
type Basis string

// Price bases.
const (
	PerGPU      Basis = "per_gpu"
	PerInstance Basis = "per_instance"
)

// PricingModel is how the platform sells the capacity.
type PricingModel string

// Pricing models, after CATALOG.md.
const (
	OnDemand   PricingModel = "on_demand"
	Spot       PricingModel = "spot"     // interruptible, provider-priced
	Bid        PricingModel = "bid"      // interruptible, user bids
	Reserved   PricingModel = "reserved" // fixed term
	Package    PricingModel = "package"  // 包日/包周/包月
	Member     PricingModel = "member"   // member / VIP discount price
	Serverless PricingModel = "serverless"
)

// Offer is one price point: a card on a platform under one pricing model.
// Ranges stay ranges: PriceLow..PriceHigh (equal for a single figure).
type Offer struct {
	Key          string       `yaml:"key" json:"key"`                     // stable id, unique in a snapshot
	Platform     string       `yaml:"platform" json:"platform"`           // Platform.ID
	GPU          string       `yaml:"gpu" json:"gpu"`                     // GPU.ID
	GPUCount     float64      `yaml:"gpu_count" json:"gpu_count"`         // cards the price covers when Basis is per_instance
	SKU          string       `yaml:"sku,omitempty" json:"sku,omitempty"` // provider-native id
	Region       string       `yaml:"region,omitempty" json:"region,omitempty"`
	PriceLow     float64      `yaml:"price_low" json:"price_low"`
	PriceHigh    float64      `yaml:"price_high" json:"price_high"`
	Currency     Currency     `yaml:"currency" json:"currency"`
	Unit         Unit         `yaml:"unit" json:"unit"`
	Basis        Basis        `yaml:"basis" json:"basis"`
	Model        PricingModel `yaml:"pricing_model" json:"pricing_model"`
	Granularity  string       `yaml:"billing_granularity,omitempty" json:"billing_granularity,omitempty"` // ISO 8601: PT1S, PT1M, PT1H
	Availability string       `yaml:"availability,omitempty" json:"availability,omitempty"`               // available, low, none, unknown
	ObservedAt   string       `yaml:"observed_at" json:"observed_at"`                                     // YYYY-MM-DD or RFC 3339
	Source       string       `yaml:"source" json:"source"`                                               // where the figure came from
	SourceKind   string       `yaml:"source_kind,omitempty" json:"source_kind,omitempty"`                 // manual, official_api, hosted_catalog
	Note         string       `yaml:"note,omitempty" json:"note,omitempty"`
	Status       string       `yaml:"status,omitempty" json:"status,omitempty"` // active (default), disappeared

	// Fields below come from live sources (CATALOG.md §4.1–4.2); the shipped
	// seeds leave them empty.
	Zone               string            `yaml:"zone,omitempty" json:"zone,omitempty"`                 // AWS AZ, RunPod data centre
	Country            string            `yaml:"country,omitempty" json:"country,omitempty"`           // ISO 3166-1 alpha-2
	RegionLabel        string            `yaml:"region_label,omitempty" json:"region_label,omitempty"` // raw human label ("Czechia, CZ, EU")
	CloudTier          string            `yaml:"cloud_tier,omitempty" json:"cloud_tier,omitempty"`     // secure, community, datacenter, unverified_host, standard
	Interruptible      bool              `yaml:"interruptible,omitempty" json:"interruptible,omitempty"`
	Term               string            `yaml:"term,omitempty" json:"term,omitempty"` // ISO 8601 (P1M, P1Y) for reserved / package
	GPUMemoryGiB       float64           `yaml:"gpu_memory_gib,omitempty" json:"gpu_memory_gib,omitempty"`
	VCPUs              float64           `yaml:"vcpus,omitempty" json:"vcpus,omitempty"`
	RAMGiB             float64           `yaml:"ram_gib,omitempty" json:"ram_gib,omitempty"`
	AvailableGPUCounts []int             `yaml:"available_gpu_counts,omitempty" json:"available_gpu_counts,omitempty"`
	Reliability        float64           `yaml:"reliability,omitempty" json:"reliability,omitempty"`   // 0..1, Vast reliability2; 0 = unknown
	Median             float64           `yaml:"price_median,omitempty" json:"price_median,omitempty"` // marketplace buckets: median listing, same unit as PriceLow
	Listings           int               `yaml:"listings,omitempty" json:"listings,omitempty"`         // marketplace buckets: listings behind PriceLow..PriceHigh
	SourceRef          string            `yaml:"source_ref,omitempty" json:"source_ref,omitempty"`     // URL or file + version of what was read
	SourceGeneratedAt  string            `yaml:"source_generated_at,omitempty" json:"source_generated_at,omitempty"`
	CollectorVersion   string            `yaml:"collector_version,omitempty" json:"collector_version,omitempty"` // parser version; a change here is not a price change
	RawHash            string            `yaml:"raw_hash,omitempty" json:"raw_hash,omitempty"`                   // hash of the raw record
	ProviderData       map[string]string `yaml:"provider_data,omitempty" json:"provider_data,omitempty"`         // raw extras (listing ids, min_bid, flags)

	// Regions is how many regions (or zones) list this exact price: identical
	// listings collapse into one offer and keep the count. 0 = not stated.
	Regions int `yaml:"regions,omitempty" json:"regions,omitempty"`
	// AvailableCount is how many cards the source saw free, when it says
	// (Availability is then set too); 0 with no Availability means unknown.
	AvailableCount int `yaml:"available_count,omitempty" json:"available_count,omitempty"`
	// DateBasis says how ObservedAt was found: "" or "observed" (when the
	// source read it), "undated" (the source carries no date; ObservedAt is
	// the earliest date of the data it came with, so it never looks newer).
	DateBasis string `yaml:"date_basis,omitempty" json:"date_basis,omitempty"`
	// Confidence is the grade of the sourced row an offer was made from
	// (cn_cloud_prices.csv, reserved_prices.csv: high, medium, low); ""
	// for catalogue data, which carries no grade. A low one is a user's
	// note or an estimate: an answer that quotes it says so.
	Confidence Confidence `yaml:"confidence,omitempty" json:"confidence,omitempty"`
}

// HoursPerMonth converts monthly prices to hourly equivalents: 730 h is the
// average month (8760 h / 12), as gpuhunt and the public clouds use.
const HoursPerMonth = 730.0

// unitHours is how many hours one unit buys.
var unitHours = map[Unit]float64{
	PerHour:  1,
	PerDay:   24,
	PerWeek:  24 * 7,
	PerMonth: HoursPerMonth,
	PerYear:  8760,
}

// TermHours is how many hours an ISO 8601 term such as P1Y, P3Y, P1M, P2W
// or P30D lasts (a year is 8760 h, a month HoursPerMonth). ok is false for
// anything else.
func TermHours(term string) (hours float64, ok bool) {
	if len(term) < 3 || term[0] != 'P' {
		return 0, false
	}
	n := 0
	for _, r := range term[1 : len(term)-1] {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + int(r-'0')
		if n > 100000 {
			return 0, false
		}
	}
	if n == 0 {
		return 0, false
	}
	var per float64
	switch term[len(term)-1] {
	case 'Y':
		per = 8760
	case 'M':
		per = HoursPerMonth
	case 'W':
		per = 24 * 7
	case 'D':
		per = 24
	default:
		return 0, false
	}
	return float64(n) * per, true
}

// Cards is how many cards one price covers (at least 1).
func (o Offer) Cards() float64 {
	if o.Basis == PerInstance && o.GPUCount > 0 {
		return o.GPUCount
	}
	return 1
}

// Mid is the middle of the published range.
func (o Offer) Mid() float64 { return (o.PriceLow + o.PriceHigh) / 2 }

// CardHourly returns the low and high price of one card for one hour, in the
// offer's own currency. ok is false for units that are not time (per token).
func (o Offer) CardHourly() (low, high float64, ok bool) {
	h, ok := unitHours[o.Unit]
	if o.Unit == PerTerm {
		h, ok = TermHours(o.Term)
	}
	if !ok {
		return 0, 0, false
	}
	d := h * o.Cards()
	return o.PriceLow / d, o.PriceHigh / d, true
}

// Observed parses ObservedAt (a date or an RFC 3339 time).
func (o Offer) Observed() (time.Time, error) {
	if len(o.ObservedAt) != len("2006-01-02") { // a date alone is the common case: no failed parse first
		if t, err := time.Parse(time.RFC3339, o.ObservedAt); err == nil {
			return t, nil
		}
	}
	t, err := time.Parse("2006-01-02", o.ObservedAt)
	if err != nil {
		return time.Time{}, fmt.Errorf("offer %s: observed_at %q is not a date", o.Key, o.ObservedAt)
	}
	return t, nil
}

// Validate checks what any source must get right before an offer is used.
func (o Offer) Validate() error {
	switch {
	case o.Key == "":
		return fmt.Errorf("offer without key (%s %s)", o.Platform, o.GPU)
	case o.Platform == "" || o.GPU == "":
		return fmt.Errorf("offer %s: platform and gpu are required", o.Key)
	case o.PriceLow <= 0 || o.PriceHigh <= 0:
		return fmt.Errorf("offer %s: price must be positive, got %v–%v", o.Key, o.PriceLow, o.PriceHigh)
	case o.PriceHigh < o.PriceLow:
		return fmt.Errorf("offer %s: price_high %v below price_low %v", o.Key, o.PriceHigh, o.PriceLow)
	case o.Currency != CNY && o.Currency != USD:
		return fmt.Errorf("offer %s: unknown currency %q", o.Key, o.Currency)
	case o.Basis != PerGPU && o.Basis != PerInstance:
		return fmt.Errorf("offer %s: basis must be per_gpu or per_instance, got %q", o.Key, o.Basis)
	}
	if o.Unit == PerTerm {
		if _, ok := TermHours(o.Term); !ok {
			return fmt.Errorf("offer %s: unit term_total needs a term such as P1Y, got %q", o.Key, o.Term)
		}
	} else if _, ok := unitHours[o.Unit]; !ok && o.Unit != PerMillionToken {
		return fmt.Errorf("offer %s: unknown unit %q", o.Key, o.Unit)
	}
	if _, err := o.Observed(); err != nil {
		return err
	}
	return nil
}

// Snapshot is the whole catalogue at one moment.
type Snapshot struct {
	Version string    `json:"version"`
	TakenAt time.Time `json:"taken_at"`
	Offers  []Offer   `json:"offers"`
}

// Freshness is how old a price is, as users are told.
type Freshness string

// Freshness classes: live ≤ 6 h, recent ≤ 3 days, dated beyond (or when
// the date is unknown or in the future by more than a clock skew).
const (
	Live   Freshness = "live"
	Recent Freshness = "recent"
	Dated  Freshness = "dated"
)

// Freshness bounds.
const (
	LiveFor   = 6 * time.Hour
	RecentFor = 72 * time.Hour
)

// FreshnessAt classifies an observation time against now. A bare date
// (YYYY-MM-DD) counts from the start of that day, so a date-only price is
// never called live after its day's first six hours.
func FreshnessAt(observed, now time.Time) Freshness {
	d := now.Sub(observed)
	switch {
	case observed.IsZero() || d < -time.Hour:
		return Dated
	case d <= LiveFor:
		return Live
	case d <= RecentFor:
		return Recent
	}
	return Dated
}

// Freshness classifies the offer's ObservedAt against now; an undated
// offer (DateBasis "undated") is always dated.
func (o Offer) Freshness(now time.Time) Freshness {
	t, err := o.Observed()
	if err != nil || o.DateBasis == "undated" {
		return Dated
	}
	return FreshnessAt(t, now)
}

// FreshnessLabel is the label shown next to a price: "live", "recent" or
// "dated: 2026-03-21" (Chinese: 实时 / 近期 / 旧数据：2026-03-21).
func (o Offer) FreshnessLabel(lang string, now time.Time) string {
	return FreshnessText(o.Freshness(now), o.ObservedAt, lang)
}

// FreshnessText writes a freshness class for a reader; observed is the
// observation date or time, of which only the date is shown.
func FreshnessText(f Freshness, observed, lang string) string {
	day := observed
	if len(day) > 10 {
		day = day[:10]
	}
	switch f {
	case Live:
		if lang == "zh" {
			return "实时"
		}
		return "live"
	case Recent:
		if lang == "zh" {
			return "近期"
		}
		return "recent"
	}
	if lang == "zh" {
		return "旧数据：" + day
	}
	return "dated: " + day
}
