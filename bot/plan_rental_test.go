package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// TestRentalAtTheirRateForATime: cards × hours × the user's own rate, not a
// purchase ("rent … total?" went to buy and answered "$260,000"), a spend
// report ("what's our monthly spend?" listed the empty ledger) or a quote
// weighed against the market.
func TestRentalAtTheirRateForATime(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		// 8 cards × 730 h (24/7) × $2.49 = $14,541.60
		{"We pay $2.49/hr per H100 on RunPod and run 8 of them 24/7. What's our monthly spend, and annualized?", "$14,542"},
		// 8 × 730 × 2.49 = 14,541.60
		{"rent 8 H100 on runpod at $2.49/hr for 730 hours, total?", "$14,542"},
		// 20 h a day = 20 × 365/12 = 608.33 h a month; 16 × 608.33 × ¥8.88 = ¥86,432
		{"下个月计划租 16 张 H800，按 AutoDL 8.88 元/卡时，每天跑 20 小时，一个月预算大概要多少？", "¥86,432"},
	} {
		a := askOne(t, c.text)
		if a.Intent != parse.Price {
			t.Errorf("%q: answered as %s, want the rental priced\n%s", c.text, a.Intent, a.Text)
			continue
		}
		if !strings.Contains(a.Headline, c.want) {
			t.Errorf("%q: headline %q does not give %s", c.text, a.Headline, c.want)
		}
	}
	// a purchase weighed against renting is not a rental's bill
	if a := askOne(t, "buy 8 H100 at $25,000 each or rent at $2.49/hr, 730 hours a month?"); a.Intent == parse.Price {
		t.Errorf("a purchase answered as a rental: %q", a.Headline)
	}
}

// TestAPIBillAtALoadIsPlanned: "每天5亿tokens，DeepSeek官方API一个月多少钱？
// 自建H20划算吗" names no self-hosted model, only the API and a card; it
// went to the H20's price list. The API's month leads: $0.27 in / $1.10
// out per M at ¥7.2 = ¥1.944 / ¥7.92; 1,000 in : 500 out blends to
// (1.944×1000 + 7.92×500) ÷ 1500 = ¥3.936 per M; 5e8 × 365/12 ÷ 1e6 ×
// 3.936 = ¥59,860 a month. The second line weighs self-hosting: no.
func TestAPIBillAtALoadIsPlanned(t *testing.T) {
	a := askOne(t, "每天5亿tokens，DeepSeek官方API一个月多少钱？自建H20划算吗")
	if !strings.Contains(a.Headline, "¥59,860") {
		t.Errorf("headline %q, want the API's ¥59,860 a month", a.Headline)
	}
	if lines := strings.Split(a.Text, "\n"); len(lines) < 2 || !strings.HasPrefix(lines[1], "不是") {
		t.Errorf("second line should weigh self-hosting (不是…):\n%s", a.Text)
	}
}

// TestCheapestInARegionIsAPrice: a compliance preamble made the router
// pick the guide's page on cross-border data; the card's prices in the EU
// are what is asked.
func TestCheapestInARegionIsAPrice(t *testing.T) {
	a := askOne(t, "Compliance requires EU data residency. What's the cheapest H100 option in an EU region for 16 GPUs on-demand?")
	if a.Intent != parse.Price || !strings.Contains(a.Text, "Only Europe") {
		t.Errorf("answered as %s:\n%s", a.Intent, a.Text)
	}
}

// TestPlannerRound9: a purchase against a rent over a term is the buy
// answer (the term's words sent it to a commitment); a follow-up with the
// monthly hours weighs on demand against the plan; a budget for a year of
// rental prices the year.
func TestPlannerRound9(t *testing.T) {
	// 8 × 8,760 h × 60 % × $2.50 = $105,120 a year renting
	a := askOne(t, "Is it cheaper to buy an HGX H100 node outright or rent at $2.50/GPU-hr over 3 years, assuming 60% utilization? Include power at $0.10/kWh.")
	if a.Intent != parse.Buy || !strings.Contains(a.Headline, "$105,120 a year") {
		t.Errorf("buy vs rent over 3 years: %s %q", a.Intent, a.Headline)
	}
	if _, ok := a.Ignored["power"]; ok {
		t.Errorf("the power price is ignored: %v", a.Ignored)
	}
	// 200 h × ¥28.64 = ¥5,728 on demand vs the ¥13,748 plan: ¥8,020 less
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	a = b.Answer(context.Background(), Message{Text: "腾讯云 A100 40G 那按量呢？一个月只跑 200 小时的话哪个便宜", Team: "T1", Channel: "D1", User: "U1"})
	if a.Intent != parse.Monthly || !strings.Contains(a.Headline, "继续按需") {
		t.Errorf("200 h a month, which is cheaper: %s %q", a.Intent, a.Headline)
	}
	// a year is 8,760 h: 8 cards × 8,760 h at the cheapest A800 rate, weighed against ¥1.5M
	a = askOne(t, "阿里云或者火山引擎 8卡 A800 包年大概什么价？我们预算 150 万人民币，够不够跑一整年")
	if a.Intent != parse.Price || !strings.HasPrefix(a.Headline, "够") || !strings.Contains(a.Headline, "8,760 小时") {
		t.Errorf("a year against ¥1.5M: %s %q", a.Intent, a.Headline)
	}
}

// TestPlansAndBothCurrencies: a budget for 包月 cards is divided by the
// plan's fee (AutoDL 4090 ¥1,052 a month: 50,000 ÷ 1,052 = 47.5 → 47), not
// by 730 h of the on-demand rate; "in USD and in CNY" gives both:
// 16 × 730 × $2.80 = $32,704 ≈ ¥235,469 at 7.2.
func TestPlansAndBothCurrencies(t *testing.T) {
	b := writersBot(t)
	a := b.Answer(context.Background(), Message{Text: "我们每月预算 5 万人民币，AutoDL 4090 包月的话能租几张？", Team: "T1", Channel: "D1", User: "U1"})
	if !strings.Contains(a.Headline, "47 张") || !strings.Contains(a.Headline, "¥1,052") {
		t.Errorf("¥50k of 包月 4090s: %q", a.Headline)
	}
	a = askOne(t, "If we rent 16 H100s on-demand at $2.80/hr running 24/7, what's the monthly cost in USD and in CNY?")
	if !strings.Contains(a.Headline, "$32,704 (≈ ¥235,469 at 7.2 CNY per USD)") {
		t.Errorf("both currencies: %q", a.Headline)
	}
	// 200,000 samples × 1,000 tokens × 3 epochs on 8 A800: hours, never 0
	a = askOne(t, "全参微调 Qwen2.5-7B，数据 20 万条，平均 1k token，跑 3 个 epoch，用 8 张 A800 大概要多久、多少钱？")
	if strings.Contains(a.Headline, "0 卡时") || a.Typed == nil || a.Typed.Value == nil || *a.Typed.Value <= 0 {
		t.Errorf("the job costs nothing: %q", a.Headline)
	}
}

// TestPurchasePriceAsked: "买一张多少钱" is the card's purchase price, not
// its rental list. The RTX 4060 Ti 16GB's sourced new price is $449
// (RunLocalAI, 2026-05) = ¥3,232.8 at 7.2; with a ¥8,000 budget a used 3090
// ($500–1,000 → ¥3,600–7,200) fits and a new 4090 ($1,700–2,800 → ¥12,240+)
// does not.
func TestPurchasePriceAsked(t *testing.T) {
	a := askOne(t, "4060 Ti 16G 买一张多少钱")
	if !strings.Contains(a.Headline, "新卡 RTX 4060 Ti 16GB ¥3,233") {
		t.Errorf("4060 Ti to buy: %q", a.Headline)
	}
	a = askOne(t, "新 4090 和二手 3090 哪个划算，预算 8000 块")
	if !strings.HasPrefix(a.Headline, "¥8,000 预算之内：二手 RTX 3090；超预算：RTX 4090") {
		t.Errorf("new 4090 vs used 3090 on ¥8,000: %q", a.Headline)
	}
	if _, ok := a.Ignored["budget"]; ok {
		t.Errorf("the budget is ignored: %v", a.Ignored)
	}
}

// TestAPIsAtTheVolumesGiven: at 5 亿 in + 1 亿 out a month, Doubao
// (doubao-1.5-pro ¥0.8 in / ¥2 out per M) is 500 × 0.8 + 100 × 2 = ¥600
// and Kimi (moonshot-v1-8k $0.2 / $2.0 = ¥1.44 / ¥14.4 at 7.2) is 500 ×
// 1.44 + 100 × 14.4 = ¥2,160. DeepSeek at 2 亿 in + 4000 万 out a day:
// 365/12 × (200 × ¥1.944 + 40 × ¥7.92) = ¥21,462 a month.
func TestAPIsAtTheVolumesGiven(t *testing.T) {
	a := askOne(t, "Kimi 和豆包哪个便宜，每月输入 5 亿、输出 1 亿 token")
	if !strings.Contains(a.Headline, "¥600") || !strings.Contains(a.Headline, "¥2,160") {
		t.Errorf("Kimi vs Doubao at 5 亿 + 1 亿: %q", a.Headline)
	}
	a = askOne(t, "每天 2 亿输入 token + 4000 万输出 token，DeepSeek API 每月多少")
	if !strings.Contains(a.Headline, "¥21,462") {
		t.Errorf("DeepSeek at 2 亿 + 4000 万 a day: %q", a.Headline)
	}
}
