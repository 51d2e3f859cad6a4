package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Hand values from knowledge/data/procurement/llm_api_prices.csv, ¥7.2 per
// $ (Config.FX), a request of 1,000 input : 500 output tokens (the serving
// default, said as an assumption), the month 365/12 = 30.4167 days:
//
//	blended per M = (1000 × input + 500 × output) ÷ 1500
//	monthly       = tokens/day × 30.4167 ÷ 1e6 × blended

// apiAnswer answers q as the cost row does once the planner routes an API
// load to it (apiLoadAsked; plan.go's case is the lead's to add): the
// self-host-vs-API answer, whatever the router made of the question.
func apiAnswer(t *testing.T, q string) Answer {
	t.Helper()
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	req, _ := plan(b.Parse(Message{Text: q}))
	if !apiLoadAsked(req) {
		t.Fatalf("%q (%s, %+v): not read as an API at a load", q, req.Intent, req.Slots)
	}
	a := Answer{Intent: req.Intent, Lang: req.Lang, Slots: req.Slots, Assumed: map[string]any{}, question: q}
	if err := b.api(context.Background(), &a, req); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestDeepSeekOfficialAtFiveHundredMillion: "每天5亿tokens，DeepSeek官方API一个
// 月多少钱？自建H20划算吗" asks the API's month first, then whether
// self-hosting on H20 pays. DeepSeek's own price for V3 (deepseek-chat,
// $0.27 in / $1.10 out, undated V3/R1-era page) = ¥1.944 / ¥7.92;
// blended (1944 + 3960) ÷ 1500 = ¥3.936/M; 5e8 × 30.4167 ÷ 1e6 =
// 15,208.33 M a month × 3.936 = ¥59,860.00. Self-hosted: DeepSeek-V3 (671B,
// FP8 ≈ 671 GB) needs 8 H20 (8 × 96 GB = 768 GB; 7 × 96 = 672 GB leaves
// no room for the KV cache) a copy; two copies already cost more than the
// API whenever a card-hour is above 59,860 ÷ (16 × 730) = ¥5.13.
func TestDeepSeekOfficialAtFiveHundredMillion(t *testing.T) {
	a := apiAnswer(t, "每天5亿tokens，DeepSeek官方API一个月多少钱？自建H20划算吗")
	v := apiView(t, a)
	q := v.Quotes[0]
	if !strings.HasPrefix(q.Provider, "DeepSeek (official") || !strings.HasPrefix(q.Model, "deepseek-chat") || math.Abs(q.Monthly-59860) > 0.01 {
		t.Fatalf("weighed %s %s at ¥%v, want DeepSeek's deepseek-chat at ¥59,860", q.Provider, q.Model, q.Monthly)
	}
	head := firstLine(a.Text)
	for _, w := range []string{"deepseek-chat", "500,000,000", "¥59,860", "1,000 : 500", "¥1.94", "¥7.92", "n.d. (V3/R1 era page"} {
		if !strings.Contains(head, w) {
			t.Errorf("first line %q lacks %q", head, w)
		}
	}
	if v.SelfHost.GPU != "h20" || v.SelfHost.GPUs != 8 || a.Assumed["model"] != "deepseek-v3" {
		t.Errorf("self-hosted %s ×%d, model %v; want DeepSeek-V3 on 8 H20 a copy", v.SelfHost.GPU, v.SelfHost.GPUs, a.Assumed["model"])
	}
	second := strings.SplitN(a.Text, "\n", 3)[1]
	rate := v.SelfHostMonthly / float64(v.SelfHost.Plan.Cards) / 730
	if v.SelfHost.Plan.Replicas >= 2 && rate > 5.13 && (v.Cheaper != "api" || !strings.HasPrefix(second, "不是，调 API 更省")) {
		t.Errorf("%d copies at ¥%.2f/card-hour cost ¥%v: want no, the API is cheaper, on the second line %q", v.SelfHost.Plan.Replicas, rate, v.SelfHostMonthly, second)
	}
	// the break-even: none, or above the load asked when the API wins
	if v.Cheaper == "api" && !v.NoBreakeven && v.BreakevenTokensPerDay <= 5e8 {
		t.Errorf("the API is cheaper at 5e8 a day, yet the break-even is %v", v.BreakevenTokensPerDay)
	}
	if !strings.Contains(a.Text, "8 张 H20 放得下一份") {
		t.Errorf("the text does not say how many H20 hold a copy:\n%s", a.Text)
	}
}

// TestAPILoadAMonth: "2B tokens/month on gpt-4o" is read as 2e9 ÷ (365/12)
// = 65,753,424.66 tokens a day and said so; gpt-4o $2.5 in / $10 out →
// (2500 + 5000) ÷ 1500 = $5/M; the month is 2e9 ÷ 1e6 × 5 = $10,000.
// "on gpt-4o" is the API named, not a project left unused.
func TestAPILoadAMonth(t *testing.T) {
	a := askOne(t, "we spend about 2B tokens/month on gpt-4o — would self-hosting llama 3.3 70b on H100s be cheaper?")
	v := apiView(t, a)
	if q := v.Quotes[0]; q.Model != "gpt-4o" || math.Abs(q.Monthly-10000) > 0.01 || math.Abs(v.Inputs.TokensPerDay-65753424.66) > 0.01 {
		t.Fatalf("weighed %s at $%v for %v a day, want gpt-4o at $10,000 for 65,753,424.66", q.Model, q.Monthly, v.Inputs.TokensPerDay)
	}
	head := firstLine(a.Text)
	if !strings.Contains(head, "2,000,000,000 tokens/month") || !strings.Contains(head, "65,753,425 a day") || !strings.Contains(head, "$10,000") {
		t.Errorf("first line %q: want the month given, the day it was read as and gpt-4o's $10,000", head)
	}
	if !strings.Contains(a.Text, "1,000 input : 500 output tokens per request assumed") {
		t.Errorf("the split is not said as an assumption:\n%s", a.Text)
	}
	if _, ok := a.Ignored["project"]; ok {
		t.Errorf("ignored %v: gpt-4o is the API named", a.Ignored)
	}
}

// TestAPIBillVariants: the other phrasings of the same ask.
func TestAPIBillVariants(t *testing.T) {
	// 通义千问, no model named: the family's newest in the data,
	// qwen3.7-max at ¥12 in / ¥36 out (2026-08-22) → (12000 + 18000) ÷
	// 1500 = ¥20/M; 1e8 × 30.4167 ÷ 1e6 = 3,041.67 M × 20 = ¥60,833.33,
	// first, with the split and the prices; that no model was named is said.
	a := askOne(t, "用通义千问API每天1亿token，一个月多少钱")
	if a.Typed == nil || a.Typed.Asked != "money_monthly" || math.Abs(*a.Typed.Value-60833.33) > 0.01 {
		t.Fatalf("typed %+v, want ¥60,833.33 a month:\n%s", a.Typed, a.Text)
	}
	head := firstLine(a.Text)
	for _, w := range []string{"qwen3.7-max", "¥60,833", "1,000 : 500", "¥12", "¥36", "2026-08-22"} {
		if !strings.Contains(head, w) {
			t.Errorf("first line %q lacks %q", head, w)
		}
	}
	if !strings.Contains(a.Text, "没有说具体型号") {
		t.Errorf("the family's newest is billed without saying no model was named:\n%s", a.Text)
	}
	// Claude Sonnet → claude-sonnet-4 ($3 / $15, the newest Sonnet) →
	// (3000 + 7500) ÷ 1500 = $7/M; 5e7 × 30.4167 ÷ 1e6 = 1,520.83 M × 7 =
	// $10,645.83, against Qwen2.5-72B on the 4 A100 named (one copy).
	a = askOne(t, "Claude Sonnet vs self-hosted Qwen2.5-72B on 4x A100 for 50M tokens/day, which is cheaper per month")
	v := apiView(t, a)
	if q := v.Quotes[0]; q.Model != "claude-sonnet-4" || math.Abs(q.Monthly-10645.83) > 0.01 || v.SelfHost.GPUs != 4 {
		t.Errorf("weighed %s at $%v against %d cards, want claude-sonnet-4 at $10,645.83 against the 4 A100", q.Model, q.Monthly, v.SelfHost.GPUs)
	}
	if want := map[bool]string{true: "self_host", false: "api"}[v.SelfHostMonthly < 10645.83]; v.Cheaper != want {
		t.Errorf("cheaper %s with self-hosting at $%v vs $10,645.83", v.Cheaper, v.SelfHostMonthly)
	}
	// 豆包 → doubao-1.5-pro (¥0.8 / ¥2) → (800 + 1000) ÷ 1500 = ¥1.2/M;
	// 2e7 × 30.4167 ÷ 1e6 = 608.33 M × 1.2 = ¥730.00; the split said.
	a = askOne(t, "豆包API和自己部署14B哪个便宜，每天2000万token")
	v = apiView(t, a)
	if q := v.Quotes[0]; q.Model != "doubao-1.5-pro" || math.Abs(q.Monthly-730) > 0.01 {
		t.Errorf("weighed %s at ¥%v, want doubao-1.5-pro at ¥730", q.Model, q.Monthly)
	}
	if !strings.Contains(a.Text, "按每个请求输入 : 输出 = 1,000 : 500 token 假设") {
		t.Errorf("the split is not said as an assumption:\n%s", a.Text)
	}
}

// TestAPIVersionNotInData: a version the data lacks is said, the closest
// sourced prices are named (not billed), and no other model is priced in
// its place; a version the data has is the one weighed.
func TestAPIVersionNotInData(t *testing.T) {
	a := askOne(t, "claude sonnet 4.5 vs self-hosted Qwen2.5-72B on 4x A100 for 50M tokens/day, which is cheaper?")
	v := apiView(t, a)
	if !strings.HasPrefix(firstLine(a.Text), "claude sonnet 4.5 has no API price in the data") {
		t.Errorf("first line %q: want Sonnet 4.5 said to be missing", firstLine(a.Text))
	}
	for _, q := range v.Quotes {
		if strings.Contains(q.Model, "claude") {
			t.Errorf("%s billed in place of claude sonnet 4.5", q.Model)
		}
	}
	// claude-sonnet-4: $3 / $15 per M (genai-prices, checked 2026-07-29)
	if !strings.Contains(a.Text, "Closest sourced prices") || !strings.Contains(a.Text, "claude-sonnet-4 $3 / $15") {
		t.Errorf("the closest sourced prices are not named:\n%s", a.Text)
	}
	// claude-3-7-sonnet is in the data ($3 / $15 → $10,645.83 as above)
	a = askOne(t, "claude 3.7 sonnet api vs self-host qwen2.5-72b on 4x A100, 50M tokens/day")
	if q := apiView(t, a).Quotes[0]; q.Model != "claude-3-7-sonnet" || math.Abs(q.Monthly-10645.83) > 0.01 {
		t.Errorf("weighed %s at $%v, want claude-3-7-sonnet at $10,645.83", q.Model, q.Monthly)
	}
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	for text, unpriced := range map[string]string{"is gpt-4.5 api cheaper": "gpt-4.5", "gpt-4-turbo api": "gpt-4-turbo", "claude 3 opus api": "claude 3 opus"} {
		if p := b.namedAPI(text, ""); p.Unpriced != unpriced || p.Model != "" {
			t.Errorf("%q: %+v, want %q unpriced and no model in its place", text, p, unpriced)
		}
	}
	if p := b.namedAPI("claude haiku 4.5 api", ""); p.Model != "claude-haiku-4-5" || p.Unpriced != "" {
		t.Errorf("claude haiku 4.5: %+v, want claude-haiku-4-5", p)
	}
	if p := b.namedAPI("claude haiku api for 50m tokens a day", ""); p.Model != "claude-haiku-4-5" || p.Unpriced != "" {
		t.Errorf("a load after the name read as a version: %+v", p)
	}
}
