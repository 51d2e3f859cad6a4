package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// Quotes said in words (plan_quotes.go). Expected figures are worked by
// hand, not copied from a run:
//
//   - a commitment at the user's rate is paid every hour of the term: a
//     year is 8,760 h (730 h × 12), three years 26,280 h;
//   - a machine's hourly rate per card is the rate ÷ the machine's cards;
//   - shared/market/offers.csv: Vast.ai A100 80GB $0.29/card-hour
//     (getdeploying cheapest_A100), RunPod 1x A100 80GB PCIe $1.19, Lambda
//     gpu_8x_a100_80gb_sxm4 $14.32/8 = $1.79 (see price_platforms_test.go);
//   - knowledge/data/offers.yaml: AutoDL RTX 4090 ¥1.8/card-hour on demand;
//     cn_cloud_prices.csv: AutoDL 4090 包月 ¥1,052 a card-month;
//   - knowledge/data/procurement/reserved_prices.csv: GCP a3-highgpu-8g
//     (8x H100, us-central1) on demand $88.49/instance-hour, 1y
//     $44,810.08/month, 3y $28,371.00/month.

// askQuote asks the writers' bot (the shipped market) and fails when
// plan() does not route the question through quoteInWords.
func askQuote(t *testing.T, q string) Answer {
	t.Helper()
	b := writersBot(t)
	if _, why := plan(b.Parse(Message{Text: q})); why == "" || !strings.Contains(quoteWhys, "|"+why+"|") {
		t.Fatalf("plan() does not route %q through quoteInWords (why %q)", q, why)
	}
	a := b.Answer(context.Background(), Message{Text: q})
	if a.Err != "" {
		t.Fatalf("%q: refused: %s", q, a.Text)
	}
	if len(a.Ignored) > 0 {
		t.Errorf("%q: ignored %v", q, a.Ignored)
	}
	return a
}

const quoteWhys = "|a commitment's total at your rate|a machine's hourly rate|a month of the cards on the platforms named|on demand and the monthly plan's saving|a commitment's price|"

func near(a, b float64) bool { return math.Abs(a-b) < 0.01 }

// The planner rule alone: each question goes to the calculation that
// answers it, with the rates read as said.
func TestQuoteInWordsRoutes(t *testing.T) {
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	for _, c := range []struct {
		q      string
		intent parse.Intent
		why    string
		check  func(s parse.Slots) bool
	}{
		{"a 1-year commitment of 16 H100s at $1.85/hr — total annual cost?", parse.Price, "a commitment's total at your rate",
			func(s parse.Slots) bool { return s.Price != nil && s.Price.Amount == 1.85 && s.Cards == 16 }},
		{"3年包年 8张H800 每卡时12元 一共多少钱", parse.Price, "a commitment's total at your rate",
			func(s parse.Slots) bool {
				return s.Price != nil && s.Price.Amount == 12 && s.Committed == nil && s.Cards == 8
			}},
		// 2 nodes × 8 cards = 16 cards, a month = 730 h
		{"node rate is $16/hr for the 8xH100 node, what is that per month for 2 nodes?", parse.Price, "a machine's hourly rate",
			func(s parse.Slots) bool {
				return s.Cards == 16 && s.Hours == 730 && s.QuotePer == "machine" && s.Price.Amount == 16
			}},
		{"整机每小时128元，一台8卡H800机器，2台一个月多少钱？", parse.Price, "a machine's hourly rate",
			func(s parse.Slots) bool {
				return s.Cards == 16 && s.Hours == 730 && s.Price != nil && s.Price.Amount == 128 && s.Rent == nil
			}},
		{"which one is cheapest per month for 4 cards: A100 on runpod, lambda or vast?", parse.Price, "a month of the cards on the platforms named",
			func(s parse.Slots) bool { return s.Cards == 4 && s.Hours == 730 && len(s.Platforms) == 3 }},
		{"AutoDL上4090按量多少钱一小时？包月能省多少？", parse.Monthly, "on demand and the monthly plan's saving",
			func(s parse.Slots) bool {
				return s.HoursPerMonth == 730 && fullTimeAssumed(s) && s.Targets[0] == "price_per_card_hour"
			}},
		{"GCP a3-highgpu-8g 3-year CUD price in europe-west4?", parse.Monthly, "a commitment's price",
			func(s parse.Slots) bool { return s.Targets[0] == "price_per_card_hour" && s.Platform == "gcp" }},
	} {
		r, why, ok := quoteInWords(b.Parse(Message{Text: c.q}))
		if !ok || why != c.why || r.Intent != c.intent || !c.check(r.Slots) {
			t.Errorf("%q: quoteInWords → %s (%q, %v), slots %+v", c.q, r.Intent, why, ok, r.Slots)
		}
	}
	// not quotes of these kinds: both rates given, a plan price by name, a buy
	for _, q := range []string{
		"1-yr reserved at $1.85/hr vs $2.99 on demand for 16 H100s, savings?",
		"腾讯云 A100 包月多少钱",
		"buying an 8-card H800 server for ¥2.1M vs renting at ¥128/hour for the machine, payback?",
	} {
		if _, why, ok := quoteInWords(b.Parse(Message{Text: q})); ok {
			t.Errorf("%q: read as a quote (%s)", q, why)
		}
	}
}

// 16 cards × 8,760 h × $1.85 = $259,296 a year; a month 16 × 730 × 1.85 =
// $21,608; the sourced 1-year rate is GCP's $44,810.08 ÷ 8 ÷ 730 =
// $7.673/card-hour.
func TestQuoteCommitmentTotalAtYourRate(t *testing.T) {
	q := "a 1-year commitment of 16 H100s at $1.85/hr — total annual cost?"
	a := askQuote(t, q)
	v := priceView(t, a)
	if v.Term == nil || v.Rental == nil || v.Rental.Cards != 16 || v.Rental.Hours != 8760 || !near(v.Rental.Total, 259296) || !near(v.Term.Month.Total, 21608) {
		t.Fatalf("%q: term %+v rental %+v", q, v.Term, v.Rental)
	}
	if a.Typed == nil || a.Typed.Asked != "money_total" || !near(*a.Typed.Value, 259296) {
		t.Errorf("%q: typed %+v", q, a.Typed)
	}
	lines := strings.Split(a.Text, "\n")
	wantIn(t, q, lines[0], "$259,296 a year", "16 × 8,760 h × $1.85", "$21,608 a month")
	wantIn(t, q, lines[1], "median", "1-year rate is $7.67/card-hour")
	wantUsed(t, q, a, "price", "years", "cards")
}

// 8 cards × 26,280 h × ¥12 = ¥2,522,880 over the three years; a month
// 8 × 730 × 12 = ¥70,080.
func TestQuoteCommitmentTotalZH(t *testing.T) {
	q := "3年包年 8张H800 每卡时12元 一共多少钱"
	a := askQuote(t, q)
	v := priceView(t, a)
	if v.Term == nil || v.Rental == nil || v.Rental.Hours != 26280 || !near(v.Rental.Total, 2522880) || !near(v.Term.Month.Total, 70080) {
		t.Fatalf("%q: term %+v rental %+v", q, v.Term, v.Rental)
	}
	first := firstLine(a.Text)
	wantIn(t, q, first, "¥2,522,880", "8 × 26,280 小时 × ¥12", "约每月 ¥70,080")
	if strings.Contains(first, "¥1,866,931") {
		t.Errorf("%q: first line leads with on demand's total: %s", q, first)
	}
}

// $16 an hour for the 8-card node = $2/card-hour; 2 nodes × 730 h × $16 =
// 16 cards × 730 h × $2 = $23,360 a month. 整机 ¥128/h ÷ 8 = ¥16/card-hour;
// 2 台 × 730 × 128 = ¥186,880.
func TestQuoteMachineRate(t *testing.T) {
	for _, c := range []struct {
		q             string
		perCard, want float64
		parts         []string
	}{
		{"node rate is $16/hr for the 8xH100 node, what is that per month for 2 nodes?", 2, 23360, []string{"$2/card-hour", "2 machine(s) (16 cards) × 730 h: $23,360"}},
		{"整机每小时128元，一台8卡H800机器，2台一个月多少钱？", 16, 186880, []string{"每卡时 ¥16", "2 台（16 张卡）× 730 小时：¥186,880"}},
	} {
		a := askQuote(t, c.q)
		v := priceView(t, a)
		if v.Machine == nil || v.Rental == nil || !near(v.Rental.PricePerCardHour, c.perCard) || !near(v.Rental.Total, c.want) {
			t.Fatalf("%q: machine %+v rental %+v", c.q, v.Machine, v.Rental)
		}
		wantIn(t, c.q, firstLine(a.Text), c.parts...)
		wantUsed(t, c.q, a, "price", "cards", "quote_per")
	}
}

// 4 cards × 730 h = 2,920 card-hours: Vast.ai 2,920 × 0.29 = $846.80,
// RunPod 2,920 × 1.19 = $3,474.80, Lambda 2,920 × 1.79 = $5,226.80.
func TestQuoteCheapestPlatformForAMonth(t *testing.T) {
	q := "which one is cheapest per month for 4 cards: A100 on runpod, lambda or vast?"
	a := askQuote(t, q)
	v := priceView(t, a)
	if len(v.Compare) != 1 {
		t.Fatalf("%q: compare %+v", q, v.Compare)
	}
	c := v.Compare[0]
	if c.Cheaper != "vastai" || c.Cards != 4 || c.Hours != 730 || !near(c.Rows[0].Total, 846.80) || !near(c.Rows[1].Total, 3474.80) {
		t.Fatalf("%q: compare %+v", q, c)
	}
	wantIn(t, q, firstLine(a.Text), "Vast.ai is the cheapest", "4 card(s) × 730 h", "$846.8")
}

// AutoDL 4090: ¥1.8/card-hour on demand; 730 h = ¥1,314 a month against
// the ¥1,052 plan: ¥262 saved (262 ÷ 1,314 = 19.9 %); break-even 1,052 ÷
// 1.8 = 584.4 h a month.
func TestQuoteOnDemandAndPlanSaving(t *testing.T) {
	q := "AutoDL上4090按量多少钱一小时？包月能省多少？"
	a := askQuote(t, q)
	r, ok := a.Result.(advisor.MonthlyResult)
	if !ok {
		t.Fatalf("%q: %T", q, a.Result)
	}
	if !near(r.Hourly, 1.8) || !near(r.Saving, 262) || !near(r.BreakevenHoursPerMonth, 584.44) && !near(r.BreakevenHoursPerMonth, 584.4) {
		t.Fatalf("%q: hourly %v saving %v break-even %v", q, r.Hourly, r.Saving, r.BreakevenHoursPerMonth)
	}
	wantIn(t, q, firstLine(a.Text), "按量 ¥1.8/卡时", "包月每卡每月 ¥1,052", "省 ¥262", "584.4 小时")
	if a.Typed == nil || a.Typed.Asked != "price_per_card_hour" || len(a.Typed.Also) == 0 || a.Typed.Also[0].Asked != "saving" {
		t.Errorf("%q: typed %+v", q, a.Typed)
	}
}

// GCP a3-highgpu-8g 3y: $28,371 ÷ 8 cards ÷ 730 h = $4.858/card-hour; 1y
// $44,810.08 ÷ 8 ÷ 730 = $7.673; on demand $88.49 ÷ 8 = $11.06. The rows
// are us-central1's: europe-west4 has no sourced price.
func TestQuoteCommitmentPriceInRegion(t *testing.T) {
	q := "GCP a3-highgpu-8g 3-year CUD price in europe-west4?"
	a := askQuote(t, q)
	v, ok := a.Result.(CommitView)
	if !ok {
		t.Fatalf("%q: %T", q, a.Result)
	}
	if c := v.Chosen; c.Term != "3y" || math.Abs(c.Committed-4.858) > 0.001 || math.Abs(c.OnDemand-11.06) > 0.01 {
		t.Fatalf("%q: chosen %+v", q, c)
	}
	wantIn(t, q, firstLine(a.Text), "3-year committed rate: $4.86/card-hour", "$11.06", "1-year: $7.67", "No sourced price for europe-west4", "us-central1")
	if a.Typed == nil || a.Typed.Asked != "price_per_card_hour" || math.Abs(*a.Typed.Value-4.858) > 0.001 {
		t.Errorf("%q: typed %+v", q, a.Typed)
	}
}
