package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/knowledge"
)

// planOffer is a monthly plan (包月) priced per card-month.
func planOffer(key, platform, gpu string, perCardMonth float64) knowledge.Offer {
	return knowledge.Offer{Key: key, Platform: platform, GPU: gpu, GPUCount: 1, PriceLow: perCardMonth, PriceHigh: perCardMonth, Currency: knowledge.CNY,
		Unit: knowledge.PerMonth, Basis: knowledge.PerGPU, Model: knowledge.Package, ObservedAt: "2026-09-01", Source: "test"}
}

// askMonthly asks the real bot, over these offers when any are given.
func askMonthly(t *testing.T, q string, offers ...knowledge.Offer) (Answer, advisor.MonthlyResult) {
	t.Helper()
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	if offers != nil {
		b.UsePrices(shippedPrices(offers))
	}
	a := b.Answer(context.Background(), Message{Text: q})
	if a.Err != "" {
		t.Fatalf("%q: refused (%s):\n%s", q, a.Err, a.Text)
	}
	r, ok := a.Result.(advisor.MonthlyResult)
	if !ok {
		t.Fatalf("%q: %s answered with %T:\n%s", q, a.Intent, a.Result, a.Text)
	}
	return a, r
}

func firstLine(s string) string { line, _, _ := strings.Cut(s, "\n"); return line }

func wantIn(t *testing.T, q, text string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(text, p) {
			t.Errorf("%q: %q missing from:\n%s", q, p, text)
		}
	}
}

func wantUsed(t *testing.T, q string, a Answer, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := a.Used[k]; !ok {
			t.Errorf("%q: %s not in used %v (ignored %v)", q, k, a.Used, a.Ignored)
		}
	}
	if len(a.Ignored) > 0 {
		t.Errorf("%q: ignored %v", q, a.Ignored)
	}
}

// No plan price for the card: the on-demand half is answered, the
// missing plan said, not a refusal.
func TestMonthlyWithoutPlanAnswersTheOnDemandHalf(t *testing.T) {
	const q = "阿里云8卡A800包月大概多少钱？按量呢，我们一个月大概就跑500小时，哪个划算"
	a, r := askMonthly(t, q, hourly("chenjianyun/a800", "chenjianyun", "a800", 5.15, 5.15))
	// 8 cards × 500 h × ¥5.15 = ¥20,600 a month; at 500 h a plan pays
	// below 500 × 5.15 = ¥2,575 per card-month.
	if !r.PlanMissing || r.OnDemandCost != 20600 || r.PlanPaysBelow != 2575 || r.Hourly != 5.15 || r.Inputs.Cards != 8 {
		t.Errorf("%q: missing %v, on demand %v, pays below %v, rate %v, cards %d; want ¥20,600, ¥2,575, ¥5.15, 8",
			q, r.PlanMissing, r.OnDemandCost, r.PlanPaysBelow, r.Hourly, r.Inputs.Cards)
	}
	head := firstLine(a.Text)
	wantIn(t, q, head, "¥20,600", "8 张卡 × 500 小时 × ¥5.15", "没有它的包月价", "¥2,575", "包月价 ÷ ¥5.15", "monthly=")
	wantUsed(t, q, a, "cards", "hours_per_month", "platform", "gpus")
}

// An A100 80GB question is never priced on the 40GB card's plan.
func TestMonthlyMatchesTheAskedVariant(t *testing.T) {
	const q = "恒源云A100 80G 按量¥7.5/h，每月用400小时，包月划算吗？"
	a, r := askMonthly(t, q) // the shipped catalogue: a plan for the A100 40GB only
	if r.Inputs.GPU != "a100-80g" {
		t.Fatalf("%q: priced %s, want a100-80g", q, r.Inputs.GPU)
	}
	// ¥7.5 × 400 h = ¥3,000 a month on demand; a plan pays below ¥3,000.
	if !r.PlanMissing || r.OnDemandCost != 3000 || r.PlanPaysBelow != 3000 {
		t.Errorf("%q: missing %v on demand %v pays below %v, want ¥3,000 and ¥3,000", q, r.PlanMissing, r.OnDemandCost, r.PlanPaysBelow)
	}
	head := firstLine(a.Text)
	wantIn(t, q, head, "A100 80GB 按需每月 ¥3,000", "400 小时 × ¥7.5", "恒源云")
	for _, bad := range []string{"40GB", "13,748"} {
		if strings.Contains(a.Text, bad) {
			t.Errorf("%q: the other variant's plan (%s) in:\n%s", q, bad, a.Text)
		}
	}
	wantUsed(t, q, a, "price", "hours_per_month", "platform", "gpus")
}

// A machine's price per hour and a machine's plan, used 8 h a day.
func TestMonthlyMachineQuoteAtADaysHours(t *testing.T) {
	const q = "腾讯云V100 8卡，按量95.84一小时，包月4.6万，我们每天只开8小时，包月是不是亏了？"
	a, r := askMonthly(t, q)
	// 8 h × 365/12 days = 243.33 h; per card ¥95.84 ÷ 8 = ¥11.98/h and
	// ¥46,000 ÷ 8 = ¥5,750/month. On demand 243.33 × 11.98 × 8 =
	// ¥23,320.75 < ¥46,000: the plan loses ¥22,679.25 a month.
	// Break-even ¥5,750 ÷ ¥11.98 = 480 h.
	if r.Cheaper != "on_demand" || r.OnDemandCost != 23320.75 || r.MonthlyCost != 46000 || r.Saving != 22679.25 || r.BreakevenHoursPerMonth != 480 {
		t.Errorf("%q: %s cheaper, %v vs %v, saves %v, break-even %v; want on_demand, 23320.75 vs 46000, 22679.25, 480",
			q, r.Cheaper, r.OnDemandCost, r.MonthlyCost, r.Saving, r.BreakevenHoursPerMonth)
	}
	wantIn(t, q, firstLine(a.Text), "480 小时", "继续按需", "¥22,679", "按需每月 ¥23,321", "包月每月 ¥46,000")
	wantUsed(t, q, a, "price", "monthly", "cards", "hours_per_month", "quote_per")
}

// Use that varies month to month: both ends, the break-even, the advice.
func TestMonthlyRangeOfUse(t *testing.T) {
	const q = "L40S按量每卡时6.5、包月3800，实验用量有的月200小时有的月600小时，怎么买最省？"
	a, r := askMonthly(t, q)
	// ¥3,800 ÷ ¥6.5 = 584.6 h. 200 h: 200 × 6.5 = ¥1,300 < ¥3,800 (on
	// demand saves ¥2,500); 600 h: 600 × 6.5 = ¥3,900 > ¥3,800 (the plan
	// saves ¥100).
	if r.BreakevenHoursPerMonth != 584.6 || r.OnDemandCost != 1300 || r.High == nil || r.High.OnDemandCost != 3900 || r.High.Cheaper != "monthly" || r.High.Saving != 100 {
		t.Fatalf("%q: break-even %v, low %v, high %+v; want 584.6, 1300, 3900 with the plan ¥100 cheaper", q, r.BreakevenHoursPerMonth, r.OnDemandCost, r.High)
	}
	wantIn(t, q, firstLine(a.Text), "584.6", "200 小时：按需 ¥1,300 < 包月 ¥3,800", "600 小时：按需 ¥3,900 > 包月 ¥3,800", "除非多数月份超过 584.6 小时")
	if !strings.Contains(a.Used["hours_per_month"], "200–600") {
		t.Errorf("%q: used hours_per_month %q, want the range 200–600", q, a.Used["hours_per_month"])
	}
	wantUsed(t, q, a, "price", "monthly", "hours_per_month")
}

// Two platforms' monthly plans: which is cheaper by how much, or which
// one has none sourced. (Reached from the price intent once price.go
// hands "包月 + two platforms" to planPrices; asked directly here.)
func TestPlanPricesOnTwoPlatforms(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		q      string
		offers []knowledge.Offer
		want   []string
		not    []string
	}{
		{
			name:   "one without a plan: said, no winner",
			q:      "4090 包月多少钱？AutoDL 和恒源云哪个便宜？",
			offers: []knowledge.Offer{planOffer("autodl/4090-m", "autodl", "rtx4090", 1052)},
			want:   []string{"¥1,052/卡/月", "恒源云数据里没有包月价", "无法比较"},
			not:    []string{"更便宜"},
		},
		{
			// ¥1,200 − ¥1,052 = ¥148 a card-month, 148 ÷ 1200 = 12.3 %.
			name:   "both priced: the cheaper by how much",
			q:      "4090 包月多少钱？AutoDL 和共绩算力哪个便宜？",
			offers: []knowledge.Offer{planOffer("autodl/4090-m", "autodl", "rtx4090", 1052), planOffer("gongji/4090-m", "gongjiyun", "rtx4090", 1200)},
			want:   []string{"AutoDL", "AutoDL 算力云更便宜，每卡每月便宜 ¥148（12.3%）", "¥1,052/卡/月", "¥1,200/卡/月"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
			b.UsePrices(shippedPrices(tt.offers))
			req := b.Parse(Message{Text: tt.q})
			if len(req.Slots.Platforms) != 2 || len(req.Slots.GPUs) != 1 {
				t.Fatalf("%q: platforms %v gpus %v", tt.q, req.Slots.Platforms, req.Slots.GPUs)
			}
			a := Answer{Lang: req.Lang, Assumed: map[string]any{}}
			if err := b.planPrices(ctx, &a, req); err != nil {
				t.Fatal(err)
			}
			head := firstLine(a.Text)
			wantIn(t, tt.q, head, tt.want...)
			for _, n := range tt.not {
				if strings.Contains(head, n) {
					t.Errorf("%q: %q in %q", tt.q, n, head)
				}
			}
		})
	}
}

// A card named without its variant may be answered on the variant's plan,
// said; a named variant never is.
func TestMonthlyVariantNamedOrNot(t *testing.T) {
	offers := []knowledge.Offer{
		planOffer("tencent/a100-40g-m", "tencent-cloud", "a100-40g", 9000),
		hourly("tencent/a100-40g", "tencent-cloud", "a100-40g", 20, 20),
		hourly("x/a100-80g", "x", "a100-80g", 10, 10),
	}
	// bare "A100": the 40GB's plan and rate. ¥9,000 ÷ ¥20 = 450 h; 300 h
	// × ¥20 = ¥6,000 < ¥9,000: on demand saves ¥3,000.
	const bare = "腾讯云 A100 包月划算吗，每月300小时"
	a, r := askMonthly(t, bare, offers...)
	if r.Inputs.GPU != "a100-40g" || r.BreakevenHoursPerMonth != 450 || r.OnDemandCost != 6000 || r.Saving != 3000 || r.Cheaper != "on_demand" {
		t.Errorf("%q: %s break-even %v, on demand %v, %s saves %v; want a100-40g 450 h, ¥6,000, on_demand saves ¥3,000",
			bare, r.Inputs.GPU, r.BreakevenHoursPerMonth, r.OnDemandCost, r.Cheaper, r.Saving)
	}
	wantIn(t, bare, a.Text, "A100 40GB 包月每月用满 450 小时", "没写明是哪一款")
	// "A100 80G": the 80GB's on-demand half only. 300 h × ¥10 = ¥3,000.
	const named = "腾讯云 A100 80G 包月划算吗，每月300小时"
	a, r = askMonthly(t, named, offers...)
	if r.Inputs.GPU != "a100-80g" || !r.PlanMissing || r.OnDemandCost != 3000 {
		t.Errorf("%q: %s missing %v on demand %v; want a100-80g, no plan, ¥3,000", named, r.Inputs.GPU, r.PlanMissing, r.OnDemandCost)
	}
	if strings.Contains(a.Text, "40GB") || strings.Contains(a.Text, "9,000") {
		t.Errorf("%q: the 40GB's plan in:\n%s", named, a.Text)
	}
}

// The half answer in English: the same arithmetic in dollars.
func TestMonthlyWithoutPlanInEnglish(t *testing.T) {
	const q = "How much is an A800 monthly plan vs on demand on Aliyun? we run 8 cards about 500 hours a month"
	a, r := askMonthly(t, q, hourly("chenjianyun/a800", "chenjianyun", "a800", 5.15, 5.15))
	// ¥5.15 ÷ 7.2 = $0.7153/card-hour; 8 × 500 h × 5.15 ÷ 7.2 = $2,861.11;
	// a plan pays at 500 h below 500 × 5.15 ÷ 7.2 = $357.64 per card-month.
	if r.Currency != knowledge.USD || math.Abs(r.OnDemandCost-2861.11) > 0.5 || math.Abs(r.PlanPaysBelow-357.64) > 0.1 {
		t.Errorf("%q: %s on demand %v pays below %v; want USD 2,861.11 and 357.64", q, r.Currency, r.OnDemandCost, r.PlanPaysBelow)
	}
	wantIn(t, q, firstLine(a.Text), "A800 80GB on demand: $2,861 a month (8 cards × 500 h", "no monthly plan price is sourced", "monthly=")
	wantUsed(t, q, a, "cards", "hours_per_month", "platform", "gpus")
}
