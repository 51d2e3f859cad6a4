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

// TestSplitOf: the input:output split as said, in both languages, read as
// the share of input tokens (a:b → a ÷ (a + b)).
func TestSplitOf(t *testing.T) {
	for _, c := range []struct {
		text  string
		share float64
		said  bool
	}{
		{"我们一个月大概 10 亿 token，输入输出差不多各一半", 0.5, true},                // 1 ÷ 2
		{"300M tokens a month, 3:1 input:output", 0.75, true},       // 3 ÷ (3 + 1)
		{"input:output ratio is 4:1, 1B tokens a month", 0.8, true}, // 4 ÷ 5
		{"输入输出比 1:3，每月5亿token", 0.25, true},                         // 1 ÷ 4
		{"mostly input, 200M tokens a month", 0.75, true},           // read as 3:1, said back
		{"大部分是输出", 0.25, true},                                      // read as 1:3
		{"half input, half output", 0.5, true},
		{"100M tokens a month", 2.0 / 3, false}, // unsaid: 1,000 : 500 → 1000 ÷ 1500
	} {
		sp := splitOf(c.text, parse.Slots{})
		if math.Abs(sp.share-c.share) > 1e-9 || (sp.said != "") != c.said {
			t.Errorf("splitOf(%q) = %v (said %q), want %v (said %v)", c.text, sp.share, sp.said, c.share, c.said)
		}
	}
	// per request: 1,500 in : 500 out → 1500 ÷ 2000 = 0.75
	if sp := splitOf("1500 input 500 output", parse.Slots{InputTokens: 1500, OutputTokens: 500}); sp.share != 0.75 || !sp.perRequest {
		t.Errorf("per-request split %+v, want 0.75 from the request shape", sp)
	}
}

// TestEveryAPINamedIsBilled: two or three APIs named at a load are each
// billed at the month and split the question gives, cheapest first, the
// split said back. Hand values: advisor TestBillAPIsByHand.
func TestEveryAPINamedIsBilled(t *testing.T) {
	// doubao-1.5-pro ¥0.8 / ¥2 → (0.8 + 2) ÷ 2 = ¥1.4/M × 1,000 M = ¥1,400;
	// qwen-plus ¥0.8 / ¥2 → ¥1,400 too: the same price, said so.
	a := askOne(t, "豆包和通义千问 qwen-plus 的 API 哪个便宜？我们一个月大概 10 亿 token，输入输出差不多各一半")
	r, ok := a.Result.(advisor.APIBillsResult)
	if !ok {
		t.Fatalf("result %T, want every API billed:\n%s", a.Result, a.Text)
	}
	models := map[string]float64{}
	for _, b := range r.Bills {
		models[baseModelName(b.Model)] = b.Monthly
	}
	if len(r.Bills) != 2 || models["doubao-1.5-pro"] != 1400 || models["qwen-plus"] != 1400 || r.Inputs.InputShare != 0.5 || r.Inputs.TokensPerMonth != 1e9 {
		t.Fatalf("bills %v at share %v, %v tokens; want doubao-1.5-pro and qwen-plus at ¥1,400, 0.5, 1e9", models, r.Inputs.InputShare, r.Inputs.TokensPerMonth)
	}
	head := firstLine(a.Text)
	for _, w := range []string{"一样便宜", "¥1,400", "50%", "各一半"} {
		if !strings.Contains(head, w) {
			t.Errorf("headline %q lacks %q", head, w)
		}
	}
	if !strings.Contains(a.Text, "doubao-1.5-pro：没有说 doubao 的具体型号") {
		t.Errorf("the Doubao model taken is not said with why:\n%s", a.Text)
	}
	if _, bad := a.Ignored["utilization"]; bad || a.Used["utilization"] != "" || a.Used["input_share"] == "" {
		t.Errorf("各一半 is the split, not utilisation: used %v, ignored %v", a.Used, a.Ignored)
	}

	// deepseek-v4-flash $0.175/M × 300 = $52.50 < gpt-4o-mini $0.2625/M ×
	// 300 = $78.75 < claude-haiku-4-5 $2/M × 300 = $600; $26.25 apart.
	a = askOne(t, "gpt-4o-mini vs claude haiku vs deepseek for 300M tokens a month, 3:1 input:output — monthly cost each?")
	r, ok = a.Result.(advisor.APIBillsResult)
	if !ok {
		t.Fatalf("result %T, want every API billed:\n%s", a.Result, a.Text)
	}
	if len(r.Bills) != 3 || baseModelName(r.Bills[0].Model) != "deepseek-v4-flash" || r.Bills[0].Monthly != 52.5 || r.Bills[1].Monthly != 78.75 || r.Bills[2].Monthly != 600 {
		t.Fatalf("bills %+v; want deepseek-v4-flash $52.50, gpt-4o-mini $78.75, claude-haiku-4-5 $600", r.Bills)
	}
	head = firstLine(a.Text)
	for _, w := range []string{"deepseek-v4-flash is cheaper", "$52.5", "$78.75", "$26.25", "75% input", "3:1"} {
		if !strings.Contains(head, w) {
			t.Errorf("headline %q lacks %q", head, w)
		}
	}
	if a.Typed == nil || *a.Typed.Value != 52.5 || a.Typed.Choice != "deepseek-v4-flash" {
		t.Errorf("typed %+v, want money_monthly $52.50 on deepseek-v4-flash", a.Typed)
	}
	if _, bad := a.Ignored["input_tokens"]; bad {
		t.Errorf("3:1 is the split, not an ignored 1-token input: %v", a.Ignored)
	}
}

// TestAPIEvalQuestion: an eval's questions are read, and its tokens billed
// on the model's hosts beside the rental, against the budget. DeepInfra
// (Llama-3.1-70B, $0.23 / $0.40): 14,000 × 600 = 8.4M in × 0.23 + 14,000
// × 5 = 70k out × 0.40 = 1.932 + 0.028 = $1.96; Together ($0.88 both):
// 8.47M × 0.88 = $7.45.
func TestAPIEvalQuestion(t *testing.T) {
	const q = "we have $200 of credits — MMLU eval of Llama-3-70B, ~14k questions: use an API or rent GPUs?"
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	req := b.parser.Parse(q)
	items, ok := apiEvalAsked(req)
	if !ok || items != 14000 {
		t.Fatalf("apiEvalAsked = %v, %v; want 14,000 questions", items, ok)
	}
	// no eval word; an eval word and no count of questions
	for _, no := range []string{"llama-3-70b 14k samples lora on 8 h100", "MMLU score of llama-3-70b?"} {
		if _, ok := apiEvalAsked(b.parser.Parse(no)); ok {
			t.Errorf("%q read as an eval to bill", no)
		}
	}
	a := Answer{Lang: req.Lang, Slots: req.Slots, Assumed: map[string]any{}, question: q}
	if err := b.apiEval(context.Background(), &a, req, items); err != nil {
		t.Fatal(err)
	}
	r, ok := a.Result.(advisor.APIEvalResult)
	if !ok {
		t.Fatalf("result %T", a.Result)
	}
	if r.InputTokens != 8.4e6 || r.OutputTokens != 7e4 || r.Inputs.Budget != 200 {
		t.Errorf("tokens %v / %v, budget %v; want 8.4M / 70k against $200", r.InputTokens, r.OutputTokens, r.Inputs.Budget)
	}
	var api, rent bool
	for i, o := range r.Options {
		if i > 0 && o.Total < r.Options[i-1].Total {
			t.Errorf("options not cheapest first: %+v", r.Options)
		}
		rent = rent || o.Kind == "rent" && o.Fits
		api = api || o.Kind == "api" && o.Quote.Provider == "DeepInfra" && o.Total == 1.96 && o.Sibling == "llama-3.1-70b"
	}
	if !api || !rent {
		t.Errorf("options %+v; want DeepInfra at $1.96 (llama-3.1-70b) and a rental within $200", r.Options)
	}
	if a.Doc.Headline == "" || !strings.Contains(a.Text, "14,000") || !strings.Contains(a.Text, "llama-3.1-70b, not llama-3-70b") {
		t.Errorf("answer does not say the questions and the version billed:\n%s", a.Text)
	}
}
