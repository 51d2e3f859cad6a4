package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Buy questions real users asked, answered by the real bot. Every
// expected figure is worked by hand in the comment above its case; the
// headline must lead with what was asked and name the running cost.
func TestBuyCasesUsersAsked(t *testing.T) {
	near := func(got, want, tol float64) bool { return math.Abs(got-want) <= tol }
	type want struct {
		asked                         string
		payback, hwPayback            float64 // months; 0 = not checked
		purchase, rentMonth, running  float64 // all cards, a month
		ownYear, rentYear, savingYear float64 // all cards, a year; 0 = not checked
		cheaper                       string
		used                          []string
		headline                      []string // each must be in the first line
		headlinePrefix                string
	}
	for _, c := range []struct {
		q string
		w want
	}{
		// One 8-card H800 machine at ¥2,100,000 against Volcengine's plan at
		// ¥120,000 a machine-month (¥15,000 a card-month), at the default 70 %.
		// Per card ¥262,500. Running cost a month, defaults, all 8 cards:
		//   power   8 × (700 W × 1.5 for the host = 1.05 kW) × PUE 1.4 × ¥0.8
		//           × 511 h (70 % of 730) = 8 × 1.176 × 511 = ¥4,807.49
		//   ops     8 × 20 % × 262,500 ÷ 12 = ¥35,000
		//   capital 8 × 5 % × 262,500 ÷ 12 = ¥8,750
		//   total   ¥48,557.49
		// payback = 2,100,000 ÷ (120,000 − 48,557.49) = 2,100,000 ÷ 71,442.51
		//         = 29.39 → 29.4 months; the price alone 2,100,000 ÷ 120,000 = 17.5.
		{"一台8卡H800整机210万，火山引擎包月12万/月，多久回本？", want{
			asked: "payback_months", payback: 29.4, hwPayback: 17.5,
			purchase: 2100000, rentMonth: 120000, running: 48557.49,
			used:           []string{"price", "monthly", "cards", "gpus"},
			headlinePrefix: "回本：29.4 个月",
			headline:       []string{"¥48,557", "电费 ¥4,807", "运维 ¥35,000", "资金成本 ¥8,750", "均为默认", "只算买价 17.5 个月"},
		}},
		// One used RTX 4090 for their own PC at ¥13,000, rent ¥2/h, 8 h a day:
		// 8 × 365 ÷ 12 = 243.33 h a month. Home defaults: 450 W, PUE 1,
		// household ¥0.6/kWh, no operations.
		//   power   0.45 × 243.33 × 0.6 = ¥65.70 a month (8 h × 365 × 0.45 kW
		//           = 1,314 kWh a year × ¥0.6 = ¥788.4)
		//   capital 5 % × 13,000 ÷ 12 = ¥54.17
		//   total   ¥119.87
		// rent avoided 243.33 × 2 = ¥486.67; payback 13,000 ÷ (486.67 − 119.87)
		// = 13,000 ÷ 366.80 = 35.44 → 35.4; the price alone 13,000 ÷ 486.67 = 26.7.
		{"自己买一张二手4090大概1.3万，租的话一小时2块，我每天用8小时，多久回本？", want{
			asked: "payback_months", payback: 35.4, hwPayback: 26.7,
			purchase: 13000, rentMonth: 486.67, running: 119.87,
			used:           []string{"price", "rent", "hours_per_month", "gpus"},
			headlinePrefix: "回本：35.4 个月",
			headline:       []string{"电费 ¥65.7", "资金成本 ¥54.17", "只算买价 26.7 个月"},
		}},
		// $280,000 for an 8× H100 box, $4,500 a month colo (power and space in
		// it, no cost of capital added), rent $2.20 a GPU-hour, 24/7:
		//   rent avoided 8 × 2.20 × 730 = $12,848 a month
		//   payback 280,000 ÷ (12,848 − 4,500) = 280,000 ÷ 8,348 = 33.54 → 33.5
		//   the price alone 280,000 ÷ 12,848 = 21.79 → 21.8
		{"Vendor quoted us $280k per 8x H100 box plus $4,500/mo colo. Renting 8 H100s is $2.20/GPU-hr. How many months to break even if we run it 24/7?", want{
			asked: "payback_months", payback: 33.5, hwPayback: 21.8,
			purchase: 280000, rentMonth: 12848, running: 4500,
			used:     []string{"price", "monthly", "rent", "cards", "hours_per_month"},
			headline: []string{"Payback: 33.5 months", "$12,848", "$4,500 a month of your hosting fee", "21.8 months"},
		}},
		// 4 L40S at $9,500 each = $38,000; rent 4 × 0.99 × 730 × 0.7 =
		// $2,023.56 a month. Running cost, defaults, 4 cards (350 W × 1.5 for
		// the host = 0.525 kW, PUE 1.4, $0.12/kWh, 511 h):
		//   power   4 × 0.525 × 1.4 × 0.12 × 511 = $180.28
		//   ops     4 × 20 % × 9,500 ÷ 12 = $633.33
		//   capital 4 × 5 % × 9,500 ÷ 12 = $158.33
		//   total   $971.95
		// payback 38,000 ÷ (2,023.56 − 971.95) = 38,000 ÷ 1,051.61 = 36.1;
		// the price alone 38,000 ÷ 2,023.56 = 18.8.
		{"4 L40S at $9,500 each vs renting at $0.99/hr each — payback at 70% utilization?", want{
			asked: "payback_months", payback: 36.1, hwPayback: 18.8,
			purchase: 38000, rentMonth: 2023.56, running: 971.95,
			used:     []string{"price", "rent", "cards", "utilization"},
			headline: []string{"Payback: 36.1 months", "4× L40S", "$38,000", "$971.95 running cost a month", "all defaults"},
		}},
		// 8× H200 for $320,000 over 3 years, $3,000 a month colo, rent $3.50 a
		// GPU-hour at 80 %:
		//   owning  320,000 ÷ 3 + 3,000 × 12 = 106,666.67 + 36,000 = $142,666.67
		//   renting 8 × 3.50 × 8,760 × 0.8 = $196,224
		//   owning is cheaper by $53,557.33 a year
		{"buy 8x H200 for $320k, 3-yr depreciation, $3k/mo colo, vs rent at $3.50/GPU-hr at 80% util — which is cheaper per year?", want{
			asked: "which", purchase: 320000, running: 3000,
			ownYear: 142666.67, rentYear: 196224, savingYear: 53557.33, cheaper: "buy",
			used:     []string{"price", "monthly", "rent", "years", "utilization", "cards"},
			headline: []string{"Owning", "cheaper", "$142,667", "$196,224", "$53,557"},
		}},
	} {
		b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
		a := b.Answer(context.Background(), Message{Text: c.q})
		v, ok := a.Result.(BuyView)
		if !ok {
			t.Errorf("%s: result %T, want the buy answer (%s)", c.q, a.Result, a.Headline)
			continue
		}
		w := v.Whole
		if v.Asked != c.w.asked {
			t.Errorf("%s: asked %q, want %q", c.q, v.Asked, c.w.asked)
		}
		if c.w.payback > 0 && (v.PaybackMonths != c.w.payback || v.HardwarePaybackMonths != c.w.hwPayback) {
			t.Errorf("%s: payback %v (price alone %v), want %v (%v)", c.q, v.PaybackMonths, v.HardwarePaybackMonths, c.w.payback, c.w.hwPayback)
		}
		if !near(w.Purchase, c.w.purchase, 0.01) || c.w.rentMonth > 0 && !near(w.RentPerMonth, c.w.rentMonth, 0.01) || !near(w.RunningPerMonth, c.w.running, 0.01) {
			t.Errorf("%s: purchase %v, rent a month %v, running a month %v; want %v, %v, %v", c.q, w.Purchase, w.RentPerMonth, w.RunningPerMonth, c.w.purchase, c.w.rentMonth, c.w.running)
		}
		if c.w.ownYear > 0 && (!near(w.OwnPerYear, c.w.ownYear, 0.01) || !near(w.RentPerYear, c.w.rentYear, 0.01) || !near(w.SavingPerYear, c.w.savingYear, 0.01) || v.Cheaper != c.w.cheaper) {
			t.Errorf("%s: own %v, rent %v, saving %v a year, %s; want %v, %v, %v, %s", c.q, w.OwnPerYear, w.RentPerYear, w.SavingPerYear, v.Cheaper, c.w.ownYear, c.w.rentYear, c.w.savingYear, c.w.cheaper)
		}
		if c.w.headlinePrefix != "" && !strings.HasPrefix(a.Headline, c.w.headlinePrefix) {
			t.Errorf("%s: headline %q, want it to start %q", c.q, a.Headline, c.w.headlinePrefix)
		}
		for _, s := range c.w.headline {
			if !strings.Contains(a.Headline, s) {
				t.Errorf("%s: headline %q lacks %q", c.q, a.Headline, s)
			}
		}
		for _, k := range c.w.used {
			if _, ok := a.Used[k]; !ok {
				t.Errorf("%s: %s not in used %v (ignored %v)", c.q, k, a.Used, a.Ignored)
			}
		}
		if len(a.Ignored) > 0 {
			t.Errorf("%s: ignored %v, want every figure used", c.q, a.Ignored)
		}
	}
}

// The running cost is named on the line after the headline in the
// question's language, its defaults said as defaults and how to give one's
// own: ops=, power=, rate=.
func TestBuyRunningCostIsStated(t *testing.T) {
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	for _, c := range []struct{ q, want string }{
		// ¥48,557.49 a month, as worked in TestBuyCasesUsersAsked
		{"一台8卡H800整机210万，火山引擎包月12万/月，多久回本？", "运行成本按每月 ¥48,557 计——电费按 ¥0.8/度并计机房 PUE（默认）；运维按购价的 20%/年（默认"},
		// one card in their own PC: household power, no operations
		{"自己买一张二手4090大概1.3万，租的话一小时2块，我每天用8小时，多久回本？", "不计运维（自己电脑里的卡）"},
		{"Vendor quoted us $280k per 8x H100 box plus $4,500/mo colo. Renting 8 H100s is $2.20/GPU-hr. How many months to break even if we run it 24/7?", "Running cost used: $4,500 a month — power included in your hosting fee"},
	} {
		a := b.Answer(context.Background(), Message{Text: c.q})
		lines := strings.Split(a.Text, "\n")
		if len(lines) < 2 || !strings.Contains(lines[1], c.want) || !strings.Contains(lines[1], "ops=") {
			t.Errorf("%s: second line %q, want it to contain %q and ops=", c.q, lines[min(1, len(lines)-1)], c.want)
		}
	}
	// The power of one 4090 at home, a year: 0.45 kW × 8 h × 365 = 1,314
	// kWh × ¥0.6 = ¥788.4; operations 0.
	a := b.Answer(context.Background(), Message{Text: "自己买一张二手4090大概1.3万，租的话一小时2块，我每天用8小时，多久回本？"})
	v := a.Result.(BuyView)
	if l := v.AnnualLines(); math.Abs(l[1].Value-788.4) > 0.01 || l[2].Value != 0 {
		t.Errorf("4090 at home: power %v, operations %v a year; want 788.4 and 0", l[1].Value, l[2].Value)
	}
}

// The typed answer leads with what was asked, for all the cards:
// 280,000 ÷ (8 × 2.20 × 730 − 4,500 = 8,348) = 33.54 → 33.5 months;
// owning 320,000 ÷ 3 + 36,000 = 142,666.67 a year against renting
// 8 × 3.50 × 8,760 × 0.8 = 196,224 → 53,557.33 a year less.
func TestBuyTypedLeadsWithTheAsked(t *testing.T) {
	a := askOne(t, "Vendor quoted us $280k per 8x H100 box plus $4,500/mo colo. Renting 8 H100s is $2.20/GPU-hr. How many months to break even if we run it 24/7?")
	if a.Typed == nil || a.Typed.Asked != "payback_months" || math.Abs(*a.Typed.Value-33.5) > 0.05 {
		t.Errorf("payback typed %+v, want payback_months 33.5", a.Typed)
	}
	a = askOne(t, "buy 8x H200 for $320k, 3-yr depreciation, $3k/mo colo, vs rent at $3.50/GPU-hr at 80% util — which is cheaper per year?")
	if a.Typed == nil || a.Typed.Asked != "which" || math.Abs(*a.Typed.Value-53557.33) > 0.01 {
		t.Errorf("which typed %+v, want which 53,557.33 a year", a.Typed)
	}
}
