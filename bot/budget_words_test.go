package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Budgets as users say them: "预算两万元一个月" is a month's budget (never a
// card's monthly price), "half a million dollars" is 500,000, "at $2.50"
// is the rate, "3 weeks before the deadline" is the calendar the hours fit
// in, and a budget beside a rental is weighed even when no yes/no is asked.
func TestBudgetsInUsersWords(t *testing.T) {
	usd := func(o knowledge.Offer) knowledge.Offer { o.Currency = knowledge.USD; return o }
	b := rentalBot(
		hourly("a", "autodl", "a800", 5.00, 5.00),
		usd(hourly("b", "vastai", "a100-80g", 0.30, 0.30)),
		usd(hourly("c", "runpod", "h100-sxm", 1.25, 1.25)),
	)
	ask := func(q string) Answer {
		return b.Answer(context.Background(), Message{Text: q, Team: "T1", Channel: "D1", User: "U1"})
	}
	num := func(a Answer) float64 {
		if a.Typed == nil || a.Typed.Value == nil {
			return -1
		}
		return *a.Typed.Value
	}

	// ¥5.00 × 730 h = ¥3,650 a card-month; 20,000 ÷ 3,650 = 5.48 → 5 cards
	a := ask("我们预算两万元一个月，能租几张A800？")
	if num(a) != 5 || !strings.Contains(a.Headline, "5 张") {
		t.Errorf("两万元一个月: typed %+v, want 5 cards\n%s", a.Typed, a.Text)
	}

	// $500,000 ÷ $2.50 = 200,000 card-hours
	a = ask("half a million dollars — how many H100 GPU-hours at $2.50?")
	if !strings.Contains(a.Headline, "200,000") || !strings.Contains(a.Headline, "$500,000") {
		t.Errorf("half a million at $2.50: %q, want $500,000 renting 200,000 card-hours", a.Headline)
	}

	// $300 ÷ $0.30 = 1,000 A100-hours; the 3 weeks (504 h) are the
	// calendar, not a rental of 504 h
	a = ask("I have $300 and 3 weeks before the NeurIPS deadline. How many A100 hours can I get on the cheapest cloud?")
	if !strings.Contains(a.Headline, "1,000") || !strings.Contains(a.Headline, "504 h") {
		t.Errorf("$300 in 3 weeks: %q, want 1,000 card-hours and the 504 h of the calendar", a.Headline)
	}
	if _, ok := a.Ignored["hours"]; ok {
		t.Errorf("the 3 weeks are ignored: %v", a.Ignored)
	}

	// 200 h × $1.25 = $250, within $500; 8 × 200 h × $1.25 = $2,000, over $100 by $1,900
	a = ask("cheapest way to run 200 hours of H100 for my experiments, budget $500?")
	if !strings.HasPrefix(a.Headline, "Yes — ≈$250, within your $500 budget") {
		t.Errorf("200 h, budget $500: %q, want the budget's yes first", a.Headline)
	}
	if _, ok := a.Ignored["budget"]; ok || strings.Contains(a.Text, "Not used") {
		t.Errorf("the budget is said to be unused: %v\n%s", a.Ignored, a.Text)
	}
	a = ask("budget $100, 8 H100 for 200 hours")
	if !strings.HasPrefix(a.Headline, "No — ≈$2,000, over your $100 budget by $1,900") {
		t.Errorf("8 H100 × 200 h on $100: %q, want the budget's no first", a.Headline)
	}

	// a budget beside a card's price is the hours it rents at the
	// cheapest rate: $300 ÷ $0.30 = 1,000 card-hours
	a = ask("我总共只有 300 美元，最便宜的平台能租多少小时 A100？")
	if !strings.Contains(a.Headline, "1,000 卡时") {
		t.Errorf("300 美元 of A100: %q, want 1,000 card-hours", a.Headline)
	}
	if _, ok := a.Ignored["budget"]; ok {
		t.Errorf("the budget is ignored: %v", a.Ignored)
	}
}
