package advisor

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// 1e8 tokens/day of Qwen2.5-72B, 1000 in : 500 out per request, ¥7.2/$.
// Cheapest shipped hosts: OpenRouter and DeepInfra at $0.12 in / $0.39 out
// per M = ¥0.864 / ¥2.808; blended (1000 × 0.864 + 500 × 2.808) ÷ 1500 =
// ¥1.512/M; monthly 1e8 × 30.4167 ÷ 1e6 × 1.512 = ¥4,599.00. A plan of 3
// replicas at ¥4,438.40 a month each (¥13,315.20) loses: one replica
// carries 0.988 req/s × 1500 × 86400 ÷ 3 = 42,681,600 tokens/day, while
// the API matches one replica's bill only at 4438.4 ÷ (30.4167e-6 ×
// 1.512) = 96.5M tokens/day — no break-even. A replica at ¥1,000 a month
// breaks even at 1000 ÷ 4.599e-5 = 21,743,857 tokens/day.
func TestCompareAPIByHand(t *testing.T) {
	prices := knowledge.MustShipped().Procurement.APIs
	plan := &ServingPlan{Replicas: 3, MonthlyOnDemand: 13315.2, ReplicaRequestsPerS: 0.988, PeakFactor: 3}
	in := APIInput{Model: "qwen2.5-72b", TokensPerDay: 1e8, InputTokens: 1000, OutputTokens: 500, Currency: knowledge.CNY, FX: 7.2, SelfHost: plan, Prices: prices}
	r, err := CompareAPI(in)
	if err != nil {
		t.Fatal(err)
	}
	// Then the family's own API, three at most, each marked a different
	// model: 百炼 qwen-turbo ¥0.3 in / ¥0.6 out → (1000 × 0.3 + 500 × 0.6)
	// ÷ 1500 = ¥0.4/M → 1e8 × 30.4167 ÷ 1e6 × 0.4 = ¥1,216.67 a month.
	if len(r.Quotes) != 7 || !r.Quotes[4].FirstParty || r.Quotes[4].Model != "qwen-turbo" || !near(r.Quotes[4].Monthly, 1216.67, 0.01) || r.Quotes[3].FirstParty {
		t.Errorf("qwen2.5-72b family quotes: %d quotes, fifth %+v; want 4 hosts then qwen-turbo at ¥1,216.67", len(r.Quotes), r.Quotes[min(4, len(r.Quotes)-1)])
	}
	if len(r.Quotes) < 4 || r.Quotes[0].Blended != 1.512 || !near(r.Quotes[0].Monthly, 4599.0, 0.01) || r.Cheaper != "api" || !r.NoBreakeven {
		t.Errorf("qwen2.5-72b: %d quotes, best %+v, cheaper %s, no break-even %v", len(r.Quotes), r.Quotes[0], r.Cheaper, r.NoBreakeven)
	}
	in.SelfHost = &ServingPlan{Replicas: 1, MonthlyOnDemand: 1000, ReplicaRequestsPerS: 0.988, PeakFactor: 3}
	if r, _ = CompareAPI(in); r.NoBreakeven || !near(r.BreakevenTokensPerDay, 21743857, 2) || r.Cheaper != "self_host" {
		t.Errorf("cheap replica: break-even %v (none %v), cheaper %s; want ≈21,743,857 and self_host", r.BreakevenTokensPerDay, r.NoBreakeven, r.Cheaper)
	}
	// Two replicas at ¥1,000 each carry 2 × 42,681,600 = 85,363,200
	// tokens/day and match the API at 2000 ÷ 4.599e-5 = 43,487,714 — not
	// one replica's 21.7M (a load needing two replicas pays two bills).
	in.SelfHost = &ServingPlan{Replicas: 2, MonthlyOnDemand: 2000, ReplicaRequestsPerS: 0.988, PeakFactor: 3}
	if r, _ = CompareAPI(in); r.NoBreakeven || !near(r.BreakevenTokensPerDay, 43487714, 3) || r.BreakevenReplicas != 2 {
		t.Errorf("two replicas: break-even %v (none %v) at %d replicas; want ≈43,487,714 at 2", r.BreakevenTokensPerDay, r.NoBreakeven, r.BreakevenReplicas)
	}
	// No host serves Qwen3-8B itself: the family's first-party API is the
	// comparison, and the answer says it is a different model.
	r, err = CompareAPI(APIInput{Model: "qwen3-8b", TokensPerDay: 1e6, SelfHost: plan, Prices: prices, Currency: knowledge.CNY})
	if err != nil || !r.Quotes[0].FirstParty || !says(r.Assumptions, "no shipped host serves qwen3-8b itself") {
		t.Errorf("qwen3-8b: %v, first %+v; want the first-party API, said", err, r.Quotes)
	}
	// The API a question names comes first: Moonshot's newest Kimi model.
	in.Named = "kimi"
	if r, _ = CompareAPI(in); !r.Quotes[0].Named || r.Quotes[0].Model != "kimi-k2.6 (CNY)" {
		t.Errorf("named kimi: first %+v, want Moonshot kimi-k2.6 (CNY), the newest row (2026-08-22)", r.Quotes[0])
	}
	if _, err := CompareAPI(APIInput{Model: "no-such-model", TokensPerDay: 1e6, SelfHost: plan, Prices: prices}); err == nil {
		t.Error("no shipped API price for no-such-model: want an error")
	}
}

// TestCompareAPIPerMByHand: an API at ¥1 in / ¥4 out per million bills a
// request of 1,000 in + 500 out (1000 × 1 + 500 × 4) ÷ 500 = ¥6 per
// million output tokens; self-hosting at ¥3 is half of it (0.5×), ¥3 less.
func TestCompareAPIPerMByHand(t *testing.T) {
	prices := []knowledge.APIPrice{{Provider: "Host", Model: "M", ModelID: "qwen2.5-72b", Input: 1, Output: 4, Currency: knowledge.CNY, Provenance: knowledge.Provenance{Confidence: knowledge.Medium}}}
	r, err := CompareAPIPerM(APIInput{Model: "qwen2.5-72b", InputTokens: 1000, OutputTokens: 500, Currency: knowledge.CNY, FX: 7.2, Prices: prices}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.PerMOutput, 6, 1e-9) || !near(r.Ratio, 0.5, 1e-9) || !near(r.SavingPerM, 3, 1e-9) || r.Cheaper != "self_host" {
		t.Errorf("per M output %v, ratio %v, saving %v, cheaper %s; want 6, 0.5, 3, self_host", r.PerMOutput, r.Ratio, r.SavingPerM, r.Cheaper)
	}
	if _, err := CompareAPIPerM(APIInput{Model: "no-such-model", Currency: knowledge.CNY, Prices: prices}, 3); err == nil {
		t.Error("a model with no API price compared; want an input error")
	}
}

// TestNamedModelLeads: the model a question names is the quote weighed,
// not its family's newest; the cheapest listed is named when it is not the
// one weighed. 1e6 tokens/day, 1000 in : 500 out, ¥7.2/$: gpt-4o-mini
// $0.15 / $0.60 → ¥1.08 / ¥4.32 → (1080 + 2160) ÷ 1500 = ¥2.16/M →
// 1e6 × 30.4167 ÷ 1e6 × 2.16 = ¥65.70 a month; qwen-turbo ¥0.3 / ¥0.6 →
// ¥0.4/M → ¥12.17.
func TestNamedModelLeads(t *testing.T) {
	prices := knowledge.MustShipped().Procurement.APIs
	plan := &ServingPlan{Replicas: 1, MonthlyOnDemand: 900, ReplicaRequestsPerS: 1, PeakFactor: 3}
	in := APIInput{Model: "qwen2.5-7b", TokensPerDay: 1e6, InputTokens: 1000, OutputTokens: 500, Currency: knowledge.CNY, FX: 7.2,
		SelfHost: plan, Prices: prices, Named: "openai", NamedModel: "gpt-4o-mini"}
	r, err := CompareAPI(in)
	if err != nil {
		t.Fatal(err)
	}
	if q := r.Quotes[0]; q.Model != "gpt-4o-mini" || !near(q.Monthly, 65.70, 0.01) {
		t.Errorf("first %s at %v, want gpt-4o-mini at ¥65.70", q.Model, q.Monthly)
	}
	if c := r.Cheapest; c == nil || c.Model != "qwen-turbo" || !near(c.Monthly, 12.17, 0.01) {
		t.Errorf("cheapest %+v, want qwen-turbo at ¥12.17", c)
	}
	// The family alone: its newest model leads (gpt-5 and gpt-5-mini are
	// checked 2025-11-13, the others 2025-07-04).
	in.NamedModel = ""
	if r, _ = CompareAPI(in); r.Quotes[0].Model != "gpt-5-mini" && r.Quotes[0].Model != "gpt-5" {
		t.Errorf("family only: first %s, want a 2025-11-13 model", r.Quotes[0].Model)
	}
	// Nothing cheaper listed than the one weighed: no Cheapest.
	in.Named, in.NamedModel = "", ""
	in.Model = "qwen2.5-72b"
	if r, _ = CompareAPI(in); r.Cheapest != nil && r.Cheapest.Monthly >= r.Quotes[0].Monthly {
		t.Errorf("cheapest %+v not below the quote weighed %+v", r.Cheapest, r.Quotes[0])
	}
}

// TestAPIPriceByHand: a family's prices as sourced, the newest first, the
// model named first; a bill for a given number of tokens.
func TestAPIPriceByHand(t *testing.T) {
	pv := func(date string) knowledge.Provenance {
		return knowledge.Provenance{Date: date, SourceTitle: "src", SourceURL: "https://example.com", Confidence: knowledge.High}
	}
	prices := []knowledge.APIPrice{
		{Provider: "Anthropic", Model: "claude-3-haiku", Input: 0.25, Output: 1.25, Currency: knowledge.USD, Provenance: pv("2026-07-29")},
		{Provider: "Anthropic", Model: "claude-haiku-4-5", Input: 1, Output: 5, Currency: knowledge.USD, Provenance: pv("2026-07-29")},
		{Provider: "Anthropic", Model: "claude-sonnet-4", Input: 3, Output: 15, Currency: knowledge.USD, Provenance: pv("2026-06-01")},
		{Provider: "Anthropic", Model: "claude-old legacy", Input: 9, Output: 9, Currency: knowledge.USD, Provenance: pv("2026-12-01")},
		{Provider: "Anthropic (third-party summary)", Model: "claude-x", Input: 9, Output: 9, Currency: knowledge.USD, Provenance: pv("2026-12-01")},
	}
	r, err := APIPrice(APIPriceInput{Family: "claude", Currency: knowledge.USD, FX: 7.2, Prices: prices})
	if err != nil {
		t.Fatal(err)
	}
	// Same date: version 4.5 before 3; then the older Sonnet; legacy and
	// third-party rows left out.
	var got []string
	for _, q := range r.Quotes {
		got = append(got, q.Model)
	}
	if strings.Join(got, ",") != "claude-haiku-4-5,claude-3-haiku,claude-sonnet-4" {
		t.Errorf("order %v, want claude-haiku-4-5, claude-3-haiku, claude-sonnet-4", got)
	}
	// Named, in CNY, for 3M tokens: claude-3-haiku $0.25 / $1.25 → ¥1.8 /
	// ¥9 per M; 3M tokens → 3 × 1.8 = ¥5.40 as input, 3 × 9 = ¥27 as output.
	r, err = APIPrice(APIPriceInput{Family: "claude", Model: "claude-3-haiku", Tokens: 3e6, Currency: knowledge.CNY, FX: 7.2, Prices: prices})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Quotes) != 1 || r.Quotes[0].Input != 1.8 || r.Quotes[0].Output != 9 || r.TokensInput != 5.4 || r.TokensOutput != 27 {
		t.Errorf("named: %d quotes, first %+v, tokens %v / %v; want claude-3-haiku only at ¥1.8 / ¥9, ¥5.40 / ¥27", len(r.Quotes), r.Quotes[0], r.TokensInput, r.TokensOutput)
	}
	if r.Quotes[0].ListInput != 0.25 || r.Quotes[0].ListCurrency != knowledge.USD {
		t.Errorf("list price %v %s, want $0.25 as sourced", r.Quotes[0].ListInput, r.Quotes[0].ListCurrency)
	}
	if _, err := APIPrice(APIPriceInput{Family: "grok", Currency: knowledge.USD, Prices: prices}); err == nil {
		t.Error("no row for grok: want an error")
	}
}

// A load given a month: 2e9 tokens/month is 2e9 ÷ (365/12) =
// 65,753,424.66 a day; on gpt-4o ($2.5 in / $10 out, 1000 : 500 →
// (2500 + 5000) ÷ 1500 = $5/M) the month is 2e9 ÷ 1e6 × 5 = $10,000, the
// month said back as 2e9 and the split as 1000 : 500.
func TestCompareAPIPerMonth(t *testing.T) {
	prices := knowledge.MustShipped().Procurement.APIs
	plan := &ServingPlan{Replicas: 1, MonthlyOnDemand: 3000, ReplicaRequestsPerS: 1, PeakFactor: 3}
	in := APIInput{Model: "llama-3.3-70b", TokensPerDay: 2e9 / (365.0 / 12), InputTokens: 1000, OutputTokens: 500, Currency: knowledge.USD,
		SelfHost: plan, Prices: prices, Named: "openai", NamedModel: "gpt-4o", PerMonth: true}
	r, err := CompareAPI(in)
	if err != nil {
		t.Fatal(err)
	}
	if q := r.Quotes[0]; q.Model != "gpt-4o" || !near(q.Monthly, 10000, 0.01) || r.TokensPerMonth != 2e9 || r.DaysPerMonth != 30.42 || r.SplitInput != 1000 || r.SplitOutput != 500 {
		t.Errorf("gpt-4o at $%v, %v tokens a month over %v days, split %v : %v; want $10,000, 2e9, 30.42, 1000 : 500", q.Monthly, r.TokensPerMonth, r.DaysPerMonth, r.SplitInput, r.SplitOutput)
	}
	if l := r.Lines[0]; l.Key != "tokens_per_day" || l.Value != 65753425 {
		t.Errorf("first line %+v, want the day's load, 65,753,425", l)
	}
	// the same month on the API alone: qwen3.7-max ¥12 / ¥36 → ¥20/M ×
	// 2,000 M = ¥40,000
	p, err := APIPrice(APIPriceInput{Family: "qwen", Model: "qwen3.7-max", TokensPerDay: 2e9 / (365.0 / 12), PerMonth: true, Currency: knowledge.CNY, Prices: prices})
	if err != nil || !near(p.Bill, 40000, 0.01) || p.TokensPerMonth != 2e9 || p.SplitInput != 1000 {
		t.Errorf("qwen3.7-max a month: %v, bill ¥%v for %v tokens, split %v; want ¥40,000 for 2e9, 1000 : 500", err, p.Bill, p.TokensPerMonth, p.SplitInput)
	}
}

// Prices from knowledge/data/procurement/llm_api_prices.csv; a month of
// T tokens split s input : 1 − s output on a row of input I, output O per
// million costs T ÷ 1e6 × (s × I + (1 − s) × O).
func TestBillAPIsByHand(t *testing.T) {
	prices := knowledge.MustShipped().Procurement.APIs
	// "豆包和通义千问 qwen-plus 的 API 哪个便宜？一个月 10 亿 token，输入输出各一半":
	// doubao-1.5-pro ¥0.8 / ¥2 → 0.5 × 0.8 + 0.5 × 2 = ¥1.4/M → 1e9 ÷ 1e6
	// × 1.4 = ¥1,400; its other models: doubao-seed-1.6 ¥0.8 / ¥8 → ¥4.4/M
	// → ¥4,400, doubao-seed-2.1-pro ¥6 / ¥30 → ¥18/M → ¥18,000 (so Doubao
	// named alone is its cheapest, 1.5-pro). qwen-plus (百炼) ¥0.8 / ¥2 →
	// ¥1.4/M → ¥1,400: the same, a difference of ¥0.
	r, err := BillAPIs(APIBillsInput{Picks: []APIBillPick{{Family: "doubao"}, {Family: "qwen", Model: "qwen-plus"}},
		TokensPerMonth: 1e9, InputShare: 0.5, Currency: knowledge.CNY, FX: 7.2, Prices: prices})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]APIBill{}
	for _, b := range r.Bills {
		got[baseName(b.Model)] = b
	}
	dou, qw := got["doubao-1.5-pro"], got["qwen-plus"]
	if len(r.Bills) != 2 || !near(dou.Blended, 1.4, 1e-9) || !near(dou.Monthly, 1400, 0.005) || dou.Taken != "cheapest" ||
		!near(qw.Monthly, 1400, 0.005) || qw.Taken != "named" || r.Difference != 0 {
		t.Errorf("doubao vs qwen-plus: %+v, difference %v; want doubao-1.5-pro (cheapest) and qwen-plus (named) at ¥1,400 each, ¥0 apart", r.Bills, r.Difference)
	}
	if len(dou.Others) != 2 || baseName(dou.Others[0].Model) != "doubao-seed-1.6" || !near(dou.Others[0].Monthly, 4400, 0.005) || !near(dou.Others[1].Monthly, 18000, 0.005) {
		t.Errorf("doubao's other models: %+v; want doubao-seed-1.6 ¥4,400 then doubao-seed-2.1-pro ¥18,000", dou.Others)
	}
	// "gpt-4o-mini vs claude haiku vs deepseek for 300M tokens a month,
	// 3:1 input:output": gpt-4o-mini $0.15 / $0.60 → 0.75 × 0.15 + 0.25 ×
	// 0.6 = $0.2625/M → 300 × 0.2625 = $78.75; claude-haiku-4-5 $1 / $5 →
	// $2/M → $600; DeepSeek alone → its cheapest at 3:1, deepseek-v4-flash
	// $0.14 / $0.28 → 0.105 + 0.07 = $0.175/M → $52.50 (deepseek-chat
	// $0.27 / $1.10 → $0.4775/M → $143.25 is dearer). Cheapest first;
	// $78.75 − $52.50 = $26.25 apart, 78.75 ÷ 52.5 = 1.5×.
	r, err = BillAPIs(APIBillsInput{Picks: []APIBillPick{{Family: "openai", Model: "gpt-4o-mini"}, {Family: "claude", Model: "claude-haiku-4-5", Tier: true}, {Family: "deepseek"}},
		TokensPerMonth: 3e8, InputShare: 0.75, Currency: knowledge.USD, FX: 7.2, Prices: prices})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		model   string
		monthly float64
		taken   string
	}{{"deepseek-v4-flash", 52.5, "cheapest"}, {"gpt-4o-mini", 78.75, "named"}, {"claude-haiku-4-5", 600, "tier"}}
	for i, w := range want {
		if i >= len(r.Bills) || baseName(r.Bills[i].Model) != w.model || !near(r.Bills[i].Monthly, w.monthly, 0.005) || r.Bills[i].Taken != w.taken {
			t.Fatalf("bill %d: %+v; want %s at $%v (%s)", i, r.Bills, w.model, w.monthly, w.taken)
		}
	}
	if !near(r.Difference, 26.25, 0.005) || r.Ratio != 1.5 {
		t.Errorf("difference %v, ratio %v; want $26.25 and 1.5×", r.Difference, r.Ratio)
	}
	for _, bad := range []APIBillsInput{
		{Picks: []APIBillPick{{Family: "openai"}}, TokensPerMonth: 1e6, InputShare: 0.5},                     // one API: nothing to compare
		{Picks: []APIBillPick{{Family: "openai"}, {Family: "claude"}}, TokensPerMonth: 1e6, InputShare: 1.5}, // a share above 1
		{Picks: []APIBillPick{{Family: "openai", Model: "gpt-9"}, {Family: "claude"}}, TokensPerMonth: 1e6, InputShare: 0.5},
	} {
		bad.Prices, bad.Currency = prices, knowledge.USD
		if _, err := BillAPIs(bad); err == nil {
			t.Errorf("BillAPIs(%+v): want an error", bad.Picks)
		}
	}
}

// An MMLU eval of Llama-3-70B: 14,000 questions × 600 prompt tokens =
// 8,400,000 input, × 5 answer tokens = 70,000 output. No shipped host
// serves Llama-3-70B itself; Llama-3.1-70B (same family and size) hosts:
// DeepInfra $0.23 / $0.40 → 8.4 × 0.23 + 0.07 × 0.4 = 1.932 + 0.028 =
// $1.96; Together $0.88 / $0.88 → 8.47 × 0.88 = $7.4536 → $7.45. A rental
// the cost engine billed at $0.56 comes first; at a $5 budget Together's
// $7.45 does not fit.
func TestAPIEvalByHand(t *testing.T) {
	prices := knowledge.MustShipped().Procurement.APIs
	rent := &CostResult{GPU: "b200", GPUs: 1, GPUHours: 0.25, WallHours: 0.25, Hourly: 2.24, Total: 0.56, Currency: knowledge.USD}
	r, err := APIEval(APIEvalInput{Model: "llama-3-70b", Items: 14000, InputPerItem: 600, OutputPerItem: 5, Budget: 5,
		Currency: knowledge.USD, FX: 7.2, Rent: rent, Prices: prices})
	if err != nil {
		t.Fatal(err)
	}
	if r.InputTokens != 8.4e6 || r.OutputTokens != 7e4 {
		t.Errorf("tokens %v in, %v out; want 8,400,000 and 70,000", r.InputTokens, r.OutputTokens)
	}
	var totals []float64
	for _, o := range r.Options {
		totals = append(totals, o.Total)
	}
	if len(r.Options) < 3 || r.Options[0].Kind != "rent" || r.Options[0].Total != 0.56 || r.Options[1].Total != 1.96 || r.Options[1].Sibling != "llama-3.1-70b" || !r.Options[1].Fits {
		t.Fatalf("options %v (%+v); want rent $0.56, DeepInfra $1.96 (llama-3.1-70b), …", totals, r.Options)
	}
	for _, o := range r.Options {
		if o.Kind == "api" && o.Quote.Provider == "Together AI" && (o.Total != 7.45 || o.Fits) {
			t.Errorf("Together: $%v fits %v; want $7.45, over the $5 budget", o.Total, o.Fits)
		}
	}
	if !says(r.Assumptions, "no shipped host serves llama-3-70b itself") {
		t.Errorf("assumptions %v: want the other version said", r.Assumptions)
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{{"llama-3-70b", "llama-3.1-70b", true}, {"llama-3-70b", "llama-3.1-8b", false}, {"qwen2.5-72b", "llama-3.1-70b", false}, {"llama-3-70b", "llama-3-70b", false}} {
		if got := sizeSibling(c.a, c.b); got != c.want {
			t.Errorf("sizeSibling(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if _, err := APIEval(APIEvalInput{Model: "llama-3-70b", Items: 0, InputPerItem: 600, Prices: prices}); err == nil {
		t.Error("no questions: want an error")
	}
}
