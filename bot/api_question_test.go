package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/thread"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/redis/go-redis/v9"
)

// The API bills below are computed by hand from knowledge/data/procurement/
// llm_api_prices.csv. The month is the serving plan's: 730 h ÷ 24 =
// 30.4167 days (advisor.daysPerMonth); a request is 1,000 input : 500
// output tokens (the serving default); ¥7.2 per $ (Config.FX).
//
//	blended per M = (1000 × input + 500 × output) ÷ 1500
//	monthly       = tokens/day × 30.4167 ÷ 1e6 × blended

// l4Bot prices an L4 at $0.225 an hour (one card a month: 730 × 0.225 =
// $164.25); the shipped catalogue has no L4 offer.
func l4Bot() *Bot {
	o := hourly("test/l4", "runpod", "l4", 0.225, 0.225)
	o.Currency = knowledge.USD
	return rentalBot(o)
}

func askBot(b *Bot, text string) Answer {
	return b.Answer(context.Background(), Message{Text: text, Team: "T1", Channel: "D1", User: "U1"})
}

// apiView is an answer's self-host-vs-API result, or a failure.
func apiView(t *testing.T, a Answer) APIView {
	t.Helper()
	v, ok := a.Result.(APIView)
	if !ok {
		t.Fatalf("result %T, want self-host vs API:\n%s", a.Result, a.Text)
	}
	return v
}

// TestNamedAPILeads: the API the question names is the one weighed and the
// first line says it; "cheapest" is never said of a dearer one.
func TestNamedAPILeads(t *testing.T) {
	// gpt-4o-mini $0.15 in / $0.60 out = ¥1.08 / ¥4.32 → (1000 × 1.08 +
	// 500 × 4.32) ÷ 1500 = ¥2.16/M; 5e6 × 30.4167 ÷ 1e6 = 152.083 M a
	// month × 2.16 = ¥328.50. qwen-turbo (百炼, ¥0.3 / ¥0.6) → ¥0.4/M →
	// 152.083 × 0.4 = ¥60.83: cheaper, and a different model, said so.
	a := askOne(t, "gpt-4o-mini API vs self-host qwen2.5 7b on 4090, 每天500万token，哪个便宜")
	v := apiView(t, a)
	q := v.Quotes[0]
	if q.Model != "gpt-4o-mini" || math.Abs(q.Monthly-328.5) > 0.01 {
		t.Fatalf("weighed %s %s at %v, want OpenAI gpt-4o-mini at ¥328.50", q.Provider, q.Model, q.Monthly)
	}
	head := firstLine(a.Text)
	if !strings.Contains(head, "gpt-4o-mini") || !strings.Contains(head, "¥328.5") || strings.Contains(head, "gpt-5") || strings.Contains(head, "最便宜") {
		t.Errorf("first line %q: want gpt-4o-mini's ¥328.5, no other API called the cheapest", head)
	}
	if c := v.Cheapest; c == nil || c.Model != "qwen-turbo" || math.Abs(c.Monthly-60.83) > 0.01 {
		t.Errorf("cheapest listed %+v, want qwen-turbo at ¥60.83", c)
	} else if !strings.Contains(a.Text, "列表里更便宜的") || !strings.Contains(a.Text, "不是同一个模型") {
		t.Errorf("text does not say qwen-turbo is cheaper and a different model:\n%s", a.Text)
	}
	if v.Cheaper != map[bool]string{true: "api", false: "self_host"}[v.SelfHostMonthly > 328.5] {
		t.Errorf("cheaper %s with self-hosting at ¥%v vs ¥328.5", v.Cheaper, v.SelfHostMonthly)
	}

	// English, a yes/no on the API: 2e6 × 30.4167 ÷ 1e6 = 60.833 M a
	// month × $0.30 (gpt-4o-mini blended: (150 + 300) ÷ 1500) = $18.25,
	// against one L4 all month, $164.25: yes, $146 a month less.
	a = askBot(l4Bot(), "would gpt-4o-mini be cheaper than self-hosting llama 8b on an L4 for 2M tokens a day?")
	v = apiView(t, a)
	if q := v.Quotes[0]; q.Model != "gpt-4o-mini" || math.Abs(q.Monthly-18.25) > 0.01 {
		t.Fatalf("weighed %s at %v, want gpt-4o-mini at $18.25", q.Model, q.Monthly)
	}
	if v.SelfHostMonthly != 164.25 || v.SavingMonthly != 146 || v.Cheaper != "api" {
		t.Errorf("self-hosted $%v, saving $%v, cheaper %s; want $164.25, $146, api", v.SelfHostMonthly, v.SavingMonthly, v.Cheaper)
	}
	head = firstLine(a.Text)
	if !strings.HasPrefix(head, "Yes — the API is cheaper") || !strings.Contains(head, "gpt-4o-mini") || !strings.Contains(head, "$18.25") || !strings.Contains(head, "$146") {
		t.Errorf("first line %q: want yes, with gpt-4o-mini's $18.25 and the $146 saved", head)
	}
	if v.Subject != "api" {
		t.Errorf("subject %q: the question asks whether the API is cheaper", v.Subject)
	}
	if _, ok := a.Ignored["tokens_per_day"]; ok || a.Used["gpus"] == "" || a.Used["params_b"] == "" {
		t.Errorf("used %v ignored %v: the load, the card and the size all enter the answer", a.Used, a.Ignored)
	}
}

// TestAPISubject: the side a yes/no asks about.
func TestAPISubject(t *testing.T) {
	for q, want := range map[string]string{
		"is claude haiku api cheaper than renting an H100 for 50M tokens a day?": "api",
		"自建 qwen2.5-7b 比调 gpt-4o-mini api 便宜吗？":                                  "self_host",
		"调豆包API一个月才几千块，我们自己搞台4090跑14B，每天1000万token，是不是反而更贵？":                     "self_host",
		"用 API 是不是更省？":                   "api",
		"每天1亿token用qwen2.5-72b 自建还是调API": "self_host",
	} {
		if got := apiSubject(q); got != want {
			t.Errorf("%q: subject %q, want %q", q, got, want)
		}
	}
}

// TestAPIAgainstARentedCard: "is claude haiku api cheaper than renting an
// H100 for 50M tokens a day?" is the API against self-hosting on a rented
// H100, not a purchase. No model is named: the plan runs the open model of
// Haiku's class (llama-3.3-70b, the lexicon's apis.classes), said as
// assumed. Claude Haiku is claude-haiku-4-5 (the newest Haiku: the three
// rows share a date, 4.5 is the highest version) at $1 in / $5 out →
// (1000 + 2500) ÷ 1500 = $2.3333/M; 50e6 × 30.4167 ÷ 1e6 = 1520.83 M a
// month × 2.3333 = $3,548.61.
func TestAPIAgainstARentedCard(t *testing.T) {
	const q = "is claude haiku api cheaper than renting an H100 for 50M tokens a day?"
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	req, _ := plan(b.Parse(Message{Text: q}))
	if !b.routesToAPI(req) {
		t.Fatalf("%q (routed %s, %+v): not read as self-host vs API", q, req.Intent, req.Slots)
	}
	a := Answer{Intent: req.Intent, Lang: req.Lang, Slots: req.Slots, Assumed: map[string]any{}, question: q}
	if err := b.api(context.Background(), &a, req); err != nil {
		t.Fatal(err)
	}
	v := apiView(t, a)
	if qt := v.Quotes[0]; qt.Model != "claude-haiku-4-5" || math.Abs(qt.Monthly-3548.61) > 0.01 {
		t.Fatalf("weighed %s %s at %v, want Anthropic claude-haiku-4-5 at $3,548.61", qt.Provider, qt.Model, qt.Monthly)
	}
	if v.SelfHost.GPU != "h100-sxm" && v.SelfHost.GPU != "h100-pcie" {
		t.Errorf("self-hosted on %s, want the H100 asked about", v.SelfHost.GPU)
	}
	if a.Assumed["model"] != "llama-3.3-70b" || !strings.Contains(a.Text, "llama-3.3-70b") {
		t.Errorf("assumed %v: want llama-3.3-70b assumed and said\n%s", a.Assumed, a.Text)
	}
	if head := firstLine(a.Text); !strings.Contains(head, "claude-haiku-4-5") || !strings.Contains(head, "$3,549") {
		t.Errorf("first line %q: want Claude Haiku's $3,549 a month", head)
	}
	// A buy question stays a buy question: no API named.
	if req, _ := plan(b.Parse(Message{Text: "buy an H100 or rent one at 70% utilisation?"})); b.routesToAPI(req) {
		t.Errorf("a rent-or-buy question without an API read as self-host vs API")
	}
}

// TestAPINotInData: an API the data has no price for is said plainly, and
// the answer weighs what the data has (no other Claude stands in for Opus).
func TestAPINotInData(t *testing.T) {
	a := askOne(t, "claude opus api vs self-host qwen2.5-72b on 2x H100, 每天5000万token，哪个便宜")
	v := apiView(t, a)
	head := firstLine(a.Text)
	if !strings.HasPrefix(head, "数据里没有 claude opus 的 API 价格") {
		t.Errorf("first line %q: want it to say Claude Opus is not in the data", head)
	}
	// The cheapest host of Qwen2.5-72B itself: OpenRouter / DeepInfra at
	// $0.12 / $0.39 = ¥0.864 / ¥2.808 → (864 + 1404) ÷ 1500 = ¥1.512/M;
	// 5e7 × 30.4167 ÷ 1e6 = 1520.83 M × 1.512 = ¥2,299.50.
	if q := v.Quotes[0]; q.FirstParty || strings.Contains(q.Model, "claude") || math.Abs(q.Monthly-2299.5) > 0.01 {
		t.Errorf("weighed %s %s at %v, want the cheapest Qwen2.5-72B host at ¥2,299.50", q.Provider, q.Model, q.Monthly)
	}
	a = askOne(t, "is grok api cheaper than self-hosting llama 3.3 70b on H100 for 50M tokens a day?")
	if !strings.Contains(firstLine(a.Text), "grok has no API price in the data") {
		t.Errorf("first line %q: want it to say Grok is not in the data", firstLine(a.Text))
	}
}

// TestAPIPrice: an API's own price is answered from the data, with its
// date, no model size asked.
func TestAPIPrice(t *testing.T) {
	// DeepSeek's newest rows (≈2026-10): deepseek-flash (V4.1-Flash-1017)
	// at $0.30 in / $1.20 out at peak = ¥2.16 / ¥8.64 at ¥7.2; the
	// off-peak $0.15 / $0.60 listed after it.
	a := askOne(t, "deepseek api 一百万token多少钱")
	if a.Err != "" || a.Typed == nil || a.Typed.Value == nil {
		t.Fatalf("no price: %s", a.Text)
	}
	if *a.Typed.Value != 2.16 || len(a.Typed.Also) == 0 || *a.Typed.Also[0].Value != 8.64 || a.Typed.Currency != "CNY" {
		t.Errorf("typed %+v, want ¥2.16 in / ¥8.64 out per M", a.Typed)
	}
	head := firstLine(a.Text)
	for _, w := range []string{"deepseek-flash", "¥2.16", "¥8.64", "$0.3", "≈2026-10"} {
		if !strings.Contains(head, w) {
			t.Errorf("first line %q lacks %q", head, w)
		}
	}
	if !strings.Contains(a.Text, "off-peak") || strings.Contains(a.Text, "模型多大") {
		t.Errorf("text: want the off-peak price listed and no model size asked:\n%s", a.Text)
	}
	if _, ok := a.Used["tokens"]; !ok {
		t.Errorf("used %v: the million tokens asked about is used", a.Used)
	}
	// gpt-4o-mini: $0.15 in / $0.60 out per M (genai-prices, checked 2025-07-04).
	a = askOne(t, "how much is gpt-4o-mini per million tokens?")
	if a.Typed == nil || a.Typed.Value == nil || *a.Typed.Value != 0.15 || *a.Typed.Also[0].Value != 0.6 || a.Typed.Currency != "USD" {
		t.Fatalf("typed %+v, want $0.15 in / $0.60 out: %s", a.Typed, a.Text)
	}
	if head := firstLine(a.Text); !strings.HasPrefix(head, "OpenAI gpt-4o-mini: $0.15 per million input tokens, $0.6 per million output tokens") || !strings.Contains(head, "2025-07-04") {
		t.Errorf("first line %q", head)
	}
	// The same in Chinese: ¥1.08 / ¥4.32.
	a = askOne(t, "gpt-4o-mini 每百万token多少钱")
	if a.Typed == nil || a.Typed.Value == nil || *a.Typed.Value != 1.08 || *a.Typed.Also[0].Value != 4.32 {
		t.Errorf("typed %+v, want ¥1.08 in / ¥4.32 out: %s", a.Typed, a.Text)
	}
	// A load on the API itself: deepseek-flash at peak, (1000 × $0.30 +
	// 500 × $1.20) ÷ 1500 = $0.60/M blended; 2e6 a day for 10 days = 20M
	// tokens → $12.00. The price per million is asked first.
	a = askOne(t, "how much per 1M tokens is the deepseek api rn? i need like 2M tokens a day for 10 days of synthetic data gen")
	if r, ok := a.Result.(advisor.APIPriceResult); !ok || r.Blended != 0.6 || r.Bill != 12 || r.BillDays != 10 {
		t.Errorf("result %+v, want $0.60/M blended and $12.00 for 10 days", a.Result)
	} else if a.Typed.Asked != "money_per_m_tokens" || len(a.Typed.Also) < 2 || a.Typed.Also[1].Asked != "money_total" {
		t.Errorf("typed %+v, want the price per million first, then the total", a.Typed)
	}
	if len(a.Ignored) > 0 {
		t.Errorf("ignored %v: the load and the days both enter the bill", a.Ignored)
	}
	// A month's bill asked: gpt-4o-mini at ¥2.16/M blended × 152.083 M
	// (5e6 × 30.4167) = ¥328.50, first.
	a = askOne(t, "gpt-4o-mini api 每天500万token 多少钱")
	if a.Typed == nil || a.Typed.Asked != "money_monthly" || math.Abs(*a.Typed.Value-328.5) > 0.01 {
		t.Errorf("typed %+v, want ¥328.50 a month", a.Typed)
	}
	// Ten million tokens: 10 × ¥2.16 = ¥21.60 as input, 10 × ¥8.64 = ¥86.40 as output.
	a = askOne(t, "deepseek api 1000万token多少钱")
	if r, ok := a.Result.(advisor.APIPriceResult); !ok || r.TokensInput != 21.6 || r.TokensOutput != 86.4 {
		t.Errorf("result %+v, want ¥21.60 / ¥86.40 for 10M tokens", a.Result)
	}
}

// TestAPIFollowUp: after a self-host-vs-API answer, "would claude haiku
// api be cheaper?" keeps the load and the plan and swaps the API:
// claude-haiku-4-5 at $2.3333/M blended × 60.833 M a month (2e6 a day) =
// $141.94.
func TestAPIFollowUp(t *testing.T) {
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer rdb.Close()
	b := l4Bot()
	b.UseThreads(thread.New(rdb, thread.Options{}))
	ctx := context.Background()
	in := Message{Team: "T1", Channel: "C1", User: "U1", Thread: "1700000000.000400"}
	in.Text = "would gpt-4o-mini be cheaper than self-hosting llama 8b on an L4 for 2M tokens a day?"
	first := apiView(t, b.Answer(ctx, in))
	in.Text = "would claude haiku api be cheaper?"
	a := b.Answer(ctx, in)
	v := apiView(t, a)
	if q := v.Quotes[0]; q.Model != "claude-haiku-4-5" || math.Abs(q.Monthly-141.94) > 0.01 {
		t.Errorf("follow-up weighed %s at %v, want claude-haiku-4-5 at $141.94", q.Model, q.Monthly)
	}
	if v.SelfHost.GPU != first.SelfHost.GPU || v.SelfHostMonthly != first.SelfHostMonthly || v.Inputs.TokensPerDay != 2e6 {
		t.Errorf("follow-up self-hosts %s at %v for %v tokens/day, want the first plan (%s at %v, 2M a day)", v.SelfHost.GPU, v.SelfHostMonthly, v.Inputs.TokensPerDay, first.SelfHost.GPU, first.SelfHostMonthly)
	}
}
