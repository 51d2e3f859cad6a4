package bot

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

type shippedPrices []knowledge.Offer

func (s shippedPrices) Offers(context.Context) ([]knowledge.Offer, error) { return s, nil }

func shippedBot(t *testing.T) *Bot {
	t.Helper()
	offers, err := source.ShippedOffers(knowledge.MustShipped())
	if err != nil {
		t.Fatal(err)
	}
	b := newTestBot(t)
	b.UsePrices(shippedPrices(offers))
	return b
}

func priceView(t *testing.T, a Answer) PriceView {
	t.Helper()
	if a.Err != "" {
		t.Fatalf("error answer: %s", a.Text)
	}
	raw, err := json.Marshal(a.Result)
	if err != nil {
		t.Fatal(err)
	}
	var v PriceView
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The shipped market snapshot prices the cards the seeds never did, and
// every line says what was sold, how it is priced and how old it is.
func TestPriceFromTheShippedMarket(t *testing.T) {
	b := shippedBot(t)
	for _, q := range []string{"/gpu price h200", "/gpu price b200"} {
		a := b.Answer(context.Background(), Message{Text: q})
		v := priceView(t, a)
		if len(v.Offers) < 10 {
			t.Fatalf("%s: %d offers", q, len(v.Offers))
		}
		for _, o := range v.Offers {
			if o.PricingType == "" || o.Cards < 1 || o.Source == "" || o.ObservedAt == "" {
				t.Errorf("%s: offer lacks its terms: %+v", q, o)
			}
			// The snapshot is from March 2026 and the clock says November:
			// nothing may be called live or recent.
			if o.Freshness != "dated" || !strings.HasPrefix(o.FreshnessLabel, "dated: 2026-03-2") {
				t.Errorf("%s: %s %s labelled %s / %q", q, o.Platform, o.SKU, o.Freshness, o.FreshnessLabel)
			}
		}
		if !strings.Contains(a.Text, "dated: 2026-03-2") || !strings.Contains(a.Text, "more offers") {
			t.Errorf("%s: text lacks dates or the count of the rest:\n%s", q, a.Text)
		}
	}
	// Lambda's 8x H100 SXM lists 23.92/h in 17 regions (shared/market/offers.csv).
	v := priceView(t, b.Answer(context.Background(), Message{Text: "/gpu price h100 @lambda"}))
	var found bool
	for _, o := range v.Offers {
		if o.SKU == "gpu_8x_h100_sxm5" && o.Regions == 17 && o.Cards == 8 && o.Price == 2.99 {
			found = true
		}
		if o.Platform != "lambda" {
			t.Errorf("@lambda answer lists %s", o.Platform)
		}
	}
	if !found {
		t.Errorf("lambda 8x H100 (2.99/card-hour, 17 regions) missing: %+v", v.Offers)
	}
}

// A platform that does not list the card gets "not listed there" and the
// places that do, never "no price".
func TestPriceOnAPlatformThatDoesNotListTheCard(t *testing.T) {
	a := newTestBot(t).Answer(context.Background(), Message{Text: "/gpu price h100 @openbayes"})
	v := priceView(t, a)
	if v.NotListed != "openbayes" || len(v.Offers) == 0 {
		t.Fatalf("not_listed %q with %d offers", v.NotListed, len(v.Offers))
	}
	if !strings.Contains(a.Text, "does not list") || strings.Contains(a.Text, "no price") {
		t.Errorf("text:\n%s", a.Text)
	}
}

// BenchmarkPriceOverShippedMarket is a price answer over the whole shipped
// snapshot (issue 17: < 1 ms).
func BenchmarkPriceOverShippedMarket(b *testing.B) {
	offers, err := source.ShippedOffers(knowledge.MustShipped())
	if err != nil {
		b.Fatal(err)
	}
	bot := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	bot.UsePrices(shippedPrices(offers))
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if a := bot.Answer(ctx, Message{Text: "/gpu price h100"}); a.Err != "" {
			b.Fatal(a.Text)
		}
	}
}
