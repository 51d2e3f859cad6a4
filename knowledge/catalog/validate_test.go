package catalog_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

func TestLimitsCheck(t *testing.T) {
	kb := knowledge.MustShipped()
	l := catalog.DefaultLimits()
	l.PerCard = map[string]catalog.Range{"h100-sxm": {Min: 0.5, Max: 15}}
	cny := func(p float64) knowledge.Offer {
		o := offer("c", "rtx4090", p)
		o.Currency = knowledge.CNY
		return o
	}
	tests := []struct {
		name string
		o    knowledge.Offer
		want string // substring of the error, "" for none
	}{
		{"ordinary", offer("k", "rtx4090", 0.4), ""},
		{"zero", offer("k", "rtx4090", 0), "price must be positive"},
		{"negative", offer("k", "rtx4090", -1), "price must be positive"},
		{"NaN", offer("k", "rtx4090", math.NaN()), "not a number"},
		{"too cheap", offer("k", "rtx4090", 0.01), "outside the sane band"},
		{"too dear", offer("k", "rtx4090", 31), "outside the sane band"},
		{"per-card band", offer("k", "h100-sxm", 0.4), "outside the sane band 0.5–15"},
		{"CNY band is scaled", cny(150), ""},
		{"CNY too dear", cny(220), "outside the sane band 0.216–216"},
		{"unknown currency", with(offer("k", "rtx4090", 0.4), func(o *knowledge.Offer) { o.Currency = "EUR" }), "unknown currency"},
		{"unknown card", offer("k", "imaginary", 0.4), "unknown gpu"},
		{"monthly price read per card-hour", with(offer("k", "rtx4090", 1350), func(o *knowledge.Offer) {
			o.Currency, o.Unit = knowledge.CNY, knowledge.PerMonth
		}), ""},
		{"term total is not hourly", with(offer("k", "a100-80g", 20221), func(o *knowledge.Offer) {
			o.Unit, o.Term, o.Model = knowledge.PerTerm, "P1Y", knowledge.Reserved
		}), ""},
		{"term total read as hourly would fail", with(offer("k", "a100-80g", 20221), func(o *knowledge.Offer) {
			o.Model = knowledge.Reserved
		}), "outside the sane band"},
		{"bucket outlier max is not checked", with(offer("k", "rtx4090", 0.3), func(o *knowledge.Offer) {
			o.PriceHigh, o.Median, o.Listings = 40, 0.45, 12
		}), ""},
	}
	for _, tt := range tests {
		err := l.Check(tt.o, kb)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestShippedOffersPassValidation(t *testing.T) {
	kb := knowledge.MustShipped()
	for _, o := range kb.Offers {
		if err := catalog.DefaultLimits().Check(o, kb); err != nil {
			t.Errorf("shipped offer fails: %v", err)
		}
	}
}
