package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/knowledge"
)

// rentalBot prices from a fixed list (hand values) on a fixed day,
// Wednesday 2026-12-02 in Shanghai.
func rentalBot(offers ...knowledge.Offer) *Bot {
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	b.UsePrices(shippedPrices(offers))
	b.SetClock(func() time.Time { return time.Date(2026, 12, 2, 10, 0, 0, 0, ledger.Shanghai) })
	return b
}

// A rental's length in weeks or months is its hours (a week 168 h, a
// month 730 h), at their rate when they give one; "rent 4 A100" is four
// cards, never a $4 price; a rental asked about is priced, not reported
// from the ledger.
func TestRentalsInWeeksAndMonths(t *testing.T) {
	usd := func(o knowledge.Offer) knowledge.Offer { o.Currency = knowledge.USD; return o }
	b := rentalBot(usd(hourly("l/a100", "lambda", "a100-80g", 1.79, 1.79)), usd(hourly("r/h100", "runpod", "h100-sxm", 2.49, 2.49)))
	for _, c := range []struct {
		q     string
		total float64 // hand: cards × hours × rate
	}{
		{"rent 2x H100 for 6 weeks at 1.99/hr/gpu, total?", 2 * 6 * 168 * 1.99}, // 4,011.84 at their rate
		{"rent 4 A100 80GB on lambda for 3 months, total?", 4 * 3 * 730 * 1.79}, // 15,680.40
		{"8x H100 on RunPod, 2 weeks, what's the total?", 8 * 2 * 168 * 2.49},   // 6,693.12
	} {
		a := b.Answer(context.Background(), Message{Text: c.q, Team: "T1", Channel: "D1", User: "U1"})
		if a.Intent != "price" || a.Typed == nil || a.Typed.Asked != "money_total" || a.Typed.Value == nil {
			t.Errorf("%s: %s %+v\n%s", c.q, a.Intent, a.Typed, a.Text)
			continue
		}
		if got := *a.Typed.Value; got < c.total-0.01 || got > c.total+0.01 {
			t.Errorf("%s: total %v, want %.2f", c.q, got, c.total)
		}
		if a.Slots.Price != nil && a.Slots.Price.Amount == 4 {
			t.Errorf("%s: four cards read as a $4 price", c.q)
		}
	}
}

// A date ahead of today is a job's deadline, not a ledger error: 下周五
// from Wednesday 2026-12-02 is 2026-12-11, 9 days. With a budget's hours
// asked, the calendar caps them: ¥2,000 ÷ ¥1.8 = 1,111 card-hours, but one
// card runs only 9 × 24 = 216 h by then. A ledger entry with a future
// date is still refused.
func TestFutureDatesAreDeadlines(t *testing.T) {
	b := rentalBot(hourly("a/4090", "autodl", "rtx4090", 1.8, 1.8))
	a := b.Answer(context.Background(), Message{Text: "导师就给了2000块经费，下周五前要跑完，AutoDL 4090按量一小时多少钱，够跑多少小时？", Team: "T1", Channel: "D1", User: "U1"})
	if a.Err != "" || a.Slots.Days != 9 {
		t.Fatalf("err %q, days %v, want the deadline read as 9 days\n%s", a.Err, a.Slots.Days, a.Text)
	}
	if !strings.Contains(a.Headline, "1,111") || !strings.Contains(a.Headline, "216") {
		t.Errorf("headline %q: want the budget's 1,111 card-hours and the deadline's 216 h", a.Headline)
	}
	a = b.Answer(context.Background(), Message{Text: "下周五ddl，Llama-3-8B QLoRA 数据集5万条，单卡4090大概要跑多久？", Team: "T1", Channel: "D1", User: "U1"})
	if a.Err != "" || a.Slots.Days != 9 || a.Typed == nil || a.Typed.Asked != "hours" {
		t.Errorf("a training deadline: err %q days %v typed %+v", a.Err, a.Slots.Days, a.Typed)
	}
	r := b.Parse(Message{Text: "/gpu spend add 4090 3h ¥30 date=2026-12-05", Slash: false})
	if len(r.Problems) == 0 || !strings.Contains(r.Problems[0].Reason, "future") {
		t.Errorf("a ledger entry dated 2026-12-05 (ahead of 2026-12-02): problems %+v, want it refused as in the future", r.Problems)
	}
}

// What a budget keeps running, a month of cards at their rate, and
// card-hours they counted themselves, all priced — hand values:
//   - ¥50,000 a month ÷ (¥7.5 × 730 h = ¥5,475 a card-month) = 9.13 → 9 H20, ¥725 left;
//   - $500k a year ÷ 12 = $41,666.67 ÷ ($6.16 × 730 = $4,496.80) = 9.27 → 9 H100;
//   - 8 cards × 730 h × ¥2 = ¥11,680;
//   - 100 card-hours × ¥2.09 = ¥209 (the 7B model does not change a card's price).
func TestBudgetsMonthsAndCardHoursPriced(t *testing.T) {
	usd := func(o knowledge.Offer) knowledge.Offer { o.Currency = knowledge.USD; return o }
	b := rentalBot(hourly("u/h20", "ucloud", "h20", 7.5, 7.5), usd(hourly("cw/h100", "coreweave", "h100-sxm", 6.16, 6.16)),
		hourly("a/4090", "autodl", "rtx4090", 1.8, 1.8), hourly("v/a100", "vastai", "a100-80g", 2.09, 2.09))
	for _, c := range []struct {
		q, asked string
		value    float64
	}{
		{"每月预算5万块，想租H20做推理，能租几张？", "cards", 9},
		{"we have a $500k/yr budget, how many H100 can we run 24/7 on CoreWeave?", "cards", 9},
		{"AutoDL上4090按量大概2块一小时，8张卡跑满一个月，一共多少钱？", "money_total", 11680},
		{"两周内要微调完一个7B模型，估计要100个卡时A100，租的话多少钱？", "money_total", 209},
	} {
		a := b.Answer(context.Background(), Message{Text: c.q, Team: "T1", Channel: "D1", User: "U1"})
		if a.Typed == nil || a.Typed.Asked != c.asked || a.Typed.Value == nil || *a.Typed.Value < c.value-0.01 || *a.Typed.Value > c.value+0.01 {
			t.Errorf("%s: %s typed %+v, want %s = %v\n%s", c.q, a.Intent, a.Typed, c.asked, c.value, a.Text)
		}
	}
	a := b.Answer(context.Background(), Message{Text: "每月预算5万块，想租H20做推理，能租几张？", Team: "T1", Channel: "D1", User: "U1"})
	if !strings.Contains(a.Headline, "¥725") || !strings.Contains(a.Headline, "¥5,475") {
		t.Errorf("headline %q: want the card-month ¥5,475 and ¥725 left", a.Headline)
	}
}

// A budget with a yes/no decides the verdict from the job's money, and
// the verdict leads: 25 SDXL LoRA images on a $0.20/h 3090 for 1,000 steps
// cost cents, well within $20 (yes); 10 card-hours of A100 at ¥2.09 =
// ¥20.90 is over a ¥10 budget by ¥10.90 (no).
func TestBudgetDecidesTheYesNo(t *testing.T) {
	b := rentalBot(hourly("v/a100", "vastai", "a100-80g", 2.09, 2.09))
	a := b.Answer(context.Background(), Message{Text: "预算10块，估计要10个卡时A100，租的话多少钱，够吗？", Team: "T1", Channel: "D1", User: "U1"})
	if a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "no" || a.Typed.Value == nil || *a.Typed.Value != 20.9 {
		t.Fatalf("typed %+v, want ¥20.90 and no\n%s", a.Typed, a.Text)
	}
	if !strings.HasPrefix(a.Headline, "不够：约 ¥20.9，超出 ¥10 预算 ¥10.9") {
		t.Errorf("headline %q does not lead with the budget's no", a.Headline)
	}
}

// Questions the router labels "buy" that buy nothing: a budget's fleet at
// their rate ($600k a quarter ÷ ($2.49 × 730 h × 3 months = $5,453.10) =
// 110.03 → 110 H100; ¥3,000,000 ÷ (¥25 × 730 × 3 = ¥54,750) = 54.8 → 54
// H800), and a monthly plan against on demand at 10 h a day × 365/12 days
// = 304.17 h a month.
func TestBudgetsAndPlansAreNotPurchases(t *testing.T) {
	usd := func(o knowledge.Offer) knowledge.Offer { o.Currency = knowledge.USD; return o }
	b := rentalBot(usd(hourly("r/h100", "runpod", "h100-sxm", 2.49, 2.49)), hourly("c/h800", "cn-a", "h800", 25, 25))
	for _, c := range []struct {
		q     string
		cards float64
	}{
		{"Q1 budget $600k, $2.49/hr per H100, how many can we run 24/7?", 110},
		{"季度预算300万，全租H800，每卡时25块，能养几张卡跑满？", 54},
	} {
		a := b.Answer(context.Background(), Message{Text: c.q, Team: "T1", Channel: "D1", User: "U1"})
		if a.Intent != "price" || a.Typed == nil || a.Typed.Asked != "cards" || *a.Typed.Value != c.cards || a.Typed.Verdict != nil {
			t.Errorf("%s: %s %+v, want %v cards and no budget verdict\n%s", c.q, a.Intent, a.Typed, c.cards, a.Text)
		}
	}
	b = rentalBot(hourly("c/h100", "cn-b", "h100-sxm", 9.6, 9.6))
	a := b.Answer(context.Background(), Message{Text: "我们想包月租8张H100，按量的话每天只跑10小时是不是更划算？", Team: "T1", Channel: "D1", User: "U1"})
	if a.Intent != "monthly" || a.Slots.HoursPerMonth < 304.16 || a.Slots.HoursPerMonth > 304.17 || !strings.Contains(a.Headline, "304.17") {
		t.Errorf("a plan against on demand: %s\n%s", a.Intent, a.Headline)
	}
}

// A day's requests are an average load: "每天10万次请求" is 100,000 ÷
// 86,400 s = 1.157 requests/s on average.
func TestRequestsADay(t *testing.T) {
	a := askOne(t, "每天10万次请求，输入1500输出300，7b要几张L40S")
	if a.Slots.RequestsPerS < 1.157 || a.Slots.RequestsPerS > 1.158 || !a.Slots.AverageLoad {
		t.Errorf("requests/s %v (average %v), want 1.157 on average", a.Slots.RequestsPerS, a.Slots.AverageLoad)
	}
	if _, ok := a.Used["requests_per_s"]; !ok {
		t.Errorf("the load is not used: %v", a.Used)
	}
}

// "超不超200万预算" asks whether it goes over: 32 H20 × 730 h × ¥7.5 =
// ¥175,200 a month is within ¥2,000,000 → the verdict is no (not over),
// said "不会超"; a card count with a month asked is the cards for a month.
func TestOverBudgetAskedTurnsTheVerdict(t *testing.T) {
	b := rentalBot(hourly("u/h20", "ucloud", "h20", 7.5, 7.5))
	a := b.Answer(context.Background(), Message{Text: "租32张H20，一个月多少钱？超不超200万预算", Team: "T1", Channel: "D1", User: "U1"})
	if a.Typed == nil || a.Typed.Value == nil || *a.Typed.Value != 175200 || a.Typed.Verdict == nil || *a.Typed.Verdict != "no" {
		t.Fatalf("typed %+v, want ¥175,200 and no (not over)\n%s", a.Typed, a.Text)
	}
	if !strings.HasPrefix(a.Headline, "不会超：约 ¥175,200") {
		t.Errorf("headline %q", a.Headline)
	}
}
