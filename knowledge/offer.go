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
	if !ok {
		return 0, 0, false
	}
	d := h * o.Cards()
	return o.PriceLow / d, o.PriceHigh / d, true
}

// Observed parses ObservedAt (a date or an RFC 3339 time).
func (o Offer) Observed() (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, o.ObservedAt); err == nil {
		return t, nil
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
	if _, ok := unitHours[o.Unit]; !ok && o.Unit != PerMillionToken {
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
