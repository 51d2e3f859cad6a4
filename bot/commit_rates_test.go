package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Commitments whose two rates are the asker's own: both are read (neither
// "ignored as a second hourly price"), weighed with the asker's cards and
// hours (full use, 730 h a month, when none are said), and the figure
// asked comes first. Every expected value is worked by hand below.
func TestCommitOwnRates(t *testing.T) {
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	near := func(got, want float64) bool { return math.Abs(got-want) < 0.01 }
	cases := []struct {
		name, q string
		per     string  // the saving's period asked: month, year, term
		saving  float64 // over that period
		be      float64 // break-even utilisation
		total   float64 // committed over the term (0: not checked)
		cur     string
		inHead  []string // figures the headline states
		used    []string // slots the answer says it used
	}{{
		name: "saving a month, 8 cards",
		q:    "8x H100 at $2.49/hr on-demand for 30 days; vs 1-yr reserved at $1.85/hr, how much would we save per month?",
		// 8 cards × 730 h × ($2.49 − $1.85) = 8 × 730 × 0.64 = $3,737.60 a
		// month ("30 days" is full use, counted as a 730-hour month)
		per: "month", saving: 3737.60,
		// break-even 1.85 ÷ 2.49 = 0.742971… → 0.743
		be: 0.743, cur: "USD",
		inHead: []string{"$3,738 a month", "8 × 730 h × ($2.49 − $1.85)", "full use"},
		used:   []string{"price", "committed", "cards", "hours_per_month"},
	}, {
		name: "break-even utilisation, no card named",
		q:    "What utilization makes a 1-yr commit at $2.00/GPU-hr beat on-demand at $3.20?",
		// 2.00 ÷ 3.20 = 0.625; ≈ 0.625 × 730 = 456.25 h a card-month
		per: "term", be: 0.625, cur: "USD",
		// one card (defaulted) at full use over 8,760 h: 8,760 × (3.20 − 2.00) = $10,512
		saving: 10512,
		inHead: []string{"Break-even at 62.5% utilisation", "456.25 h"},
		used:   []string{"rent", "committed"},
	}, {
		name: "annual difference, 24 cards",
		q:    "We pay $2.85/hr on 24 H100s on demand; CoreWeave offers $2.35 on a 1-yr term. Annual difference?",
		// 24 × 8,760 h × ($2.85 − $2.35) = 24 × 8,760 × 0.50 = $105,120 a year at full use
		per: "year", saving: 105120,
		// 2.35 ÷ 2.85 = 0.824561… → 0.8246
		be: 0.8246, cur: "USD",
		inHead: []string{"$105,120 a year", "24 × 8,760 h"},
		used:   []string{"price", "committed", "cards"},
	}, {
		name: "total commitment and savings over a 3-year term",
		q:    "3-yr reserved H200 on Azure at $3.10/GPU-hr for 32 GPUs vs on-demand $10.60 — total commitment and savings over the term?",
		// committed: 32 × $3.10 × 8,760 × 3 = 32 × 3.10 × 26,280 = $2,606,976
		// saving: 32 × ($10.60 − $3.10) × 26,280 = 32 × 7.50 × 26,280 = $6,307,200 at full use
		per: "term", saving: 6307200, total: 2606976,
		// 3.10 ÷ 10.60 = 0.292452… → 0.2925
		be: 0.2925, cur: "USD",
		inHead: []string{"$2,606,976", "$6,307,200 over the term"},
		used:   []string{"rent", "committed", "cards"},
	}, {
		name: "a discount, not utilisation",
		q:    "$38k/mo on 12 A100s on demand; 1-yr reserved is 35% off. Annual saving?",
		// $38,000 a month × 12 months × 35% = $159,600 (the bill is at full
		// use: $38,000 ÷ 12 cards ÷ 730 h = $4.3379/card-h on demand)
		per: "year", saving: 159600,
		// committed = on demand × 0.65: break-even 0.65
		be: 0.65, cur: "USD",
		inHead: []string{"$159,600 a year", "35%"},
		used:   []string{"on_demand_monthly", "discount", "cards"},
	}, {
		name: "Chinese: 签一年每卡时 beside 按需每卡时",
		q:    "我们按需每卡时 26 元用 16 张 H100，签一年每卡时 18 元，一年能省多少？",
		// 16 × 8,760 h × (¥26 − ¥18) = 16 × 8,760 × 8 = ¥1,121,280 a year at full use
		per: "year", saving: 1121280,
		// 18 ÷ 26 = 0.692307… → 0.6923
		be: 0.6923, cur: "CNY",
		inHead: []string{"¥1,121,280", "满负荷"},
		used:   []string{"rent", "committed", "cards"},
	}, {
		name: "Chinese: 打七折 at half use",
		q:    "腾讯云说H20包年能打七折，按量是 ¥26/卡时。我们两台8卡，大概一半时间在跑，值得签一年吗？",
		// committed ¥26 × 0.7 = ¥18.20/card-h, paid all 8,760 h; on demand
		// half of them: 16 × 8,760 × (26 × 0.5 − 18.20) = 16 × 8,760 × (−5.20)
		// = −¥728,832 over the year: stay on demand
		per: "term", saving: -728832, be: 0.7, cur: "CNY",
		inHead: []string{"按需更省", "¥728,832"},
		used:   []string{"rent", "discount", "utilization"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := b.Answer(context.Background(), Message{Text: c.q})
			v, ok := a.Result.(CommitView)
			if !ok {
				t.Fatalf("%q: result %T, want CommitView (%s)", c.q, a.Result, a.Headline)
			}
			got := map[string]float64{"month": v.SavingMonthly, "year": v.SavingYearly, "term": v.Saving}[c.per]
			if v.Per != c.per || !near(got, c.saving) {
				t.Errorf("saving per %s = %v (asked per %q), want %v", c.per, got, v.Per, c.saving)
			}
			if !near(v.BreakevenUtilization, c.be) {
				t.Errorf("break-even = %v, want %v", v.BreakevenUtilization, c.be)
			}
			if c.total > 0 && !near(v.CommittedCost, c.total) {
				t.Errorf("committed over the term = %v, want %v", v.CommittedCost, c.total)
			}
			if v.Chosen.Provider != "given" || string(v.Currency) != c.cur {
				t.Errorf("priced on %q in %s, want the asker's own rates in %s", v.Chosen.Provider, v.Currency, c.cur)
			}
			for _, s := range c.inHead {
				if !strings.Contains(a.Headline, s) {
					t.Errorf("headline %q lacks %q", a.Headline, s)
				}
			}
			for _, k := range c.used {
				if _, ok := a.Used[k]; !ok {
					t.Errorf("%s not used (used %v, ignored %v)", k, a.Used, a.Ignored)
				}
			}
			for _, n := range a.Slots.Notes {
				if strings.Contains(n, "ignored a second") {
					t.Errorf("note %q: both rates should be read", n)
				}
			}
			if u, ok := a.Ignored["utilization"]; ok {
				t.Errorf("utilisation ignored (%s)", u)
			}
		})
	}
}

// The discount is not utilisation: "35% off" leaves the usage unsaid,
// and the answer assumes full use and says so.
func TestCommitDiscountNotUtilisation(t *testing.T) {
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	a := b.Answer(context.Background(), Message{Text: "$38k/mo on 12 A100s on demand; 1-yr reserved is 35% off. Annual saving?"})
	if a.Slots.Utilization != 0 || a.Slots.Discount != 0.35 {
		t.Errorf("utilisation %v, discount %v; want 0 and 0.35", a.Slots.Utilization, a.Slots.Discount)
	}
	if v, ok := a.Result.(CommitView); !ok || v.Utilization != 1 {
		t.Errorf("%T: utilisation %v, want full use (1)", a.Result, a.Result)
	}
}

// A monthly plan against on demand stays the monthly answer:
// 300 h × ¥12 = ¥3,600 a month on demand < ¥7,000 for the plan, so stay
// on demand; break-even 7,000 ÷ 12 = 583.33 h a month.
func TestMonthlyPlanAgainstOnDemandStays(t *testing.T) {
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	a := b.Answer(context.Background(), Message{Text: "LoRA训练每月大约用300卡时A800，按量每卡时12，包月每卡7000，哪个合算？"})
	if a.Intent != "monthly" {
		t.Fatalf("intent %s, want monthly (%s)", a.Intent, a.Headline)
	}
	if a.Slots.Committed != nil || a.Slots.Discount != 0 {
		t.Errorf("committed %v, discount %v: a monthly plan is not a committed hourly rate", a.Slots.Committed, a.Slots.Discount)
	}
	for _, s := range []string{"583.3", "继续按需", "¥3,400"} {
		if !strings.Contains(a.Headline, s) {
			t.Errorf("headline %q lacks %q", a.Headline, s)
		}
	}
	for _, f := range a.Figures {
		if f.Label == "按需每月" && f.Value != "¥3,600" {
			t.Errorf("on demand a month = %s, want ¥3,600 (300 × 12)", f.Value)
		}
	}
}
