package advisor

import (
	"errors"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// testMarket is the shipped specs, architectures, platforms and guide with
// the given offers instead of the shipped ones, so that price tests do not
// move when the catalogue does.
func testMarket(t *testing.T, offers ...knowledge.Offer) Market {
	t.Helper()
	m := MarketOf(knowledge.MustShipped())
	m.Offers, m.Rows = offers, nil // exactly these prices: no sourced rows behind them
	return m
}

// hourly builds a per-card hourly offer.
func hourly(key, platform, gpu string, low, high float64, cur knowledge.Currency, model knowledge.PricingModel) knowledge.Offer {
	return knowledge.Offer{Key: key, Platform: platform, GPU: gpu, GPUCount: 1, PriceLow: low, PriceHigh: high, Currency: cur,
		Unit: knowledge.PerHour, Basis: knowledge.PerGPU, Model: model, ObservedAt: "2026-09-01", Source: "test"}
}

// wantSpec stops a test whose hand calculation assumes a spec figure that
// the catalogue no longer has.
func wantSpec(t *testing.T, m Market, id string, field string, got func(knowledge.GPU) float64, want float64) {
	t.Helper()
	g, err := m.card(id, "")
	if err != nil {
		t.Fatalf("card %s missing: %v", id, err)
	}
	if v := got(g); v != want {
		t.Fatalf("hand calculation assumes %s %s = %v, catalogue has %v", id, field, want, v)
	}
}

// wantInputErr checks err is an *InputError on field with a hint.
func wantInputErr(t *testing.T, call string, err error, field string) {
	t.Helper()
	var in *InputError
	if !errors.As(err, &in) {
		t.Fatalf("%s err = %v, want *InputError on %s", call, err, field)
	}
	if in.Field != field || in.Hint == "" || in.Reason == "" {
		t.Errorf("%s InputError = {field %q, reason %q, hint %q}, want field %q with a reason and a hint", call, in.Field, in.Reason, in.Hint, field)
	}
}

func lineByKey(ls []Line, key string) (Line, bool) {
	for _, l := range ls {
		if l.Key == key {
			return l, true
		}
	}
	return Line{}, false
}

func hasDefault(ds []string, name string) bool {
	for _, d := range ds {
		if d == name {
			return true
		}
	}
	return false
}
