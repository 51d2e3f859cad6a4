package bot

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// result decodes an answer's result object into a map.
func result(t *testing.T, a Answer) map[string]any {
	t.Helper()
	raw, err := json.Marshal(a.Result)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func num(t *testing.T, m map[string]any, key string) float64 {
	t.Helper()
	v, ok := m[key].(float64)
	if !ok {
		t.Fatalf("result has no number %q: %v", key, m[key])
	}
	return v
}

func ask(t *testing.T, text string) Answer {
	t.Helper()
	a := newTestBot(t).Answer(context.Background(), Message{Text: text})
	if a.Err != "" {
		t.Fatalf("%q: %s", text, a.Text)
	}
	return a
}

func TestMonthlyWithGivenPrices(t *testing.T) {
	a := ask(t, "/gpu monthly 4090 200h price=1.8 monthly=900")
	r := result(t, a)
	// 900 ÷ 1.8 = 500 h; on demand 200 h × 1.8 = 360; plan 900.
	if got := num(t, r, "breakeven_hours_per_month"); got != 500 {
		t.Errorf("breakeven = %v, want 500", got)
	}
	if got := num(t, r, "on_demand_cost"); got != 360 {
		t.Errorf("on_demand_cost = %v, want 360", got)
	}
	if got := num(t, r, "monthly_cost"); got != 900 {
		t.Errorf("monthly_cost = %v, want 900", got)
	}
	if r["cheaper"] != "on_demand" {
		t.Errorf("cheaper = %v, want on_demand", r["cheaper"])
	}
	if !strings.Contains(a.Text, "150") {
		t.Error("the 150 h rule of thumb is not shown beside the computed break-even")
	}
}

func TestCostInferencePerMillionTokens(t *testing.T) {
	r := result(t, ask(t, "/gpu cost 70b inference 100M tokens tps=3500 price=2.5usd"))
	// $2.5/h ÷ (3500 tokens/s × 3600) × 10⁶ = $0.1984 per million tokens;
	// the seed's table printed $0.71, 3.6× too high.
	want := 2.5 / (3500 * 3600) * 1e6
	if got := num(t, r, "per_m_tokens"); math.Abs(got-want) > 0.001 {
		t.Errorf("per_m_tokens = %v, want %.4f", got, want)
	}
	if got := num(t, r, "total"); math.Abs(got-want*100) > 0.1 {
		t.Errorf("total for 100M tokens = %v, want %.2f", got, want*100)
	}
	if r["currency"] != "USD" {
		t.Errorf("currency = %v", r["currency"])
	}
}

func TestBuyHardwareOnly(t *testing.T) {
	r := result(t, ask(t, "/gpu buy h100 price=25000usd rent=2.5usd years=3 watts=0 ops=0 rate=0"))
	// Depreciation 25000 ÷ 3 = 8333.33/yr; renting all year 8760 × 2.5 =
	// 21900; break-even 8333.33 ÷ 21900 = 0.3805.
	if got := num(t, r, "breakeven_utilization"); math.Abs(got-0.3805) > 0.001 {
		t.Errorf("breakeven_utilization = %v, want 0.3805", got)
	}
	lines, _ := r["lines"].([]any)
	if len(lines) != 4 {
		t.Errorf("result.lines has %d entries, want the four annual cost lines", len(lines))
	}
}

func TestPriceListsOffersCheapestFirstWithDates(t *testing.T) {
	r := result(t, ask(t, "/gpu price h100"))
	offers, _ := r["offers"].([]any)
	if len(offers) < 3 {
		t.Fatalf("only %d H100 offers", len(offers))
	}
	prev := 0.0
	for _, o := range offers {
		m := o.(map[string]any)
		for _, k := range []string{"platform", "gpu", "price", "currency", "unit", "billing", "observed_at"} {
			if _, ok := m[k]; !ok {
				t.Errorf("offer lacks %s: %v", k, m)
			}
		}
		p := m["price"].(float64)
		if p < prev {
			t.Errorf("offers not cheapest first: %v after %v", p, prev)
		}
		prev = p
	}
}

func TestMoneyQuestionsNeedACard(t *testing.T) {
	b := newTestBot(t)
	for _, q := range []string{"/gpu price", "/gpu compare h100", "/gpu buy util=70%"} {
		a := b.Answer(context.Background(), Message{Text: q})
		if a.Err == "" || !strings.Contains(a.Text, "/gpu ") {
			t.Errorf("%q: want an error with an example, got %q", q, a.Text)
		}
	}
}

func TestBareAmountsSayWhichCurrency(t *testing.T) {
	a := ask(t, "/gpu buy 4090 price=16000 years=3 power=1.0")
	if !strings.Contains(a.Text, "currency=cny") {
		t.Errorf("bare amounts not explained:\n%s", a.Text)
	}
}
