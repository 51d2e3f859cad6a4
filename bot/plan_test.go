package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/advisor"
)

// TestWholeQuestions runs the whole-question issue's examples: each is
// answered as asked — the figure it asks for first, a verdict when it asks
// yes or no — and every figure it states is used or said to be ignored.
func TestWholeQuestions(t *testing.T) {
	b := newTestBot(t)
	ask := func(text string) Answer {
		t.Helper()
		return b.Answer(context.Background(), Message{Text: text, Channel: "D1", User: "U1"})
	}
	for _, tt := range []struct {
		text, asked string
		verdict     string // "", "yes", "no"
		head        string // a phrase the headline must carry
	}{
		{"Qwen2.5-72B, peak 30 QPS, average 8, on H20 — how many cards and what a month?", "cards", "", "H20"},
		{"300 concurrent chats on Llama-3.1-8B at 20 tok/s each — how many L4s?", "cards", "yes", "L4"},
		{"每天5亿token DeepSeek-V3 要几台H200", "cards", "", "H200"},
		{"TTFT under 800 ms for 14B at 10 rps on 4090 — possible?", "cards", "yes", "first token"},
		{"train a 3B on 600B tokens within 10 days, how many A100s?", "cards", "", "pretraining in 10 days"},
		{"两周内把70b在2000亿token上继续预训练 要多少张H800", "cards", "", "14 天内完成预训练"},
		{"3060 12g 能 qlora 7b 吗", "memory_gb", "yes", "可以"},
		{"两张3090能lora 14b吗", "memory_gb", "yes", "2 张 RTX 3090"},
		{"¥8000一个月能撑住一个14B的常驻服务吗", "money_monthly", "yes", "¥8,000"},
		// "$ per million tokens each": the figure asked of each option leads,
		// the cheapest card is its choice (round 4: was "which")
		{"A100 vs H100 vs L40S for serving 13B: $ per million tokens each", "money_per_m_tokens", "", "cheapest"},
	} {
		a := ask(tt.text)
		if a.Err != "" {
			t.Errorf("%q: error %s", tt.text, a.Err)
			continue
		}
		if a.Typed == nil || a.Typed.Asked != tt.asked {
			t.Errorf("%q: answer %+v, want asked %s", tt.text, a.Typed, tt.asked)
			continue
		}
		got := ""
		if a.Typed.Verdict != nil {
			got = *a.Typed.Verdict
		}
		if got != tt.verdict {
			t.Errorf("%q: verdict %q, want %q (headline %q)", tt.text, got, tt.verdict, a.Headline)
		}
		if !strings.Contains(a.Headline, tt.head) {
			t.Errorf("%q: headline %q lacks %q", tt.text, a.Headline, tt.head)
		}
		for _, k := range slotKeys(a.Slots) {
			if _, u := a.Used[k]; !u {
				if _, ig := a.Ignored[k]; !ig {
					t.Errorf("%q: slot %s in neither used nor ignored", tt.text, k)
				}
			}
		}
	}
}

// TestPeakAndAverageSizeForThePeak: "peak 30 QPS, average 8" sizes the
// replicas for 30 requests/s (peak factor 30 ÷ 8 = 3.75) and bills the
// average; a bare "at 20 QPS" is the load to size for (factor 1).
func TestPeakAndAverageSizeForThePeak(t *testing.T) {
	b := newTestBot(t)
	a := b.Answer(context.Background(), Message{Text: "Llama-3.1-8B, peak 30 QPS, average 8, on A100 — how many cards?"})
	res, ok := a.Result.(advisor.CostResult)
	if !ok || res.Plan == nil {
		t.Fatalf("no serving plan: %T %s", a.Result, a.Headline)
	}
	if math.Abs(res.Plan.PeakFactor-3.75) > 1e-9 || math.Abs(res.Plan.PeakRequestsPerS-30) > 1e-9 || res.Plan.AvgRequestsPerS != 8 {
		t.Errorf("plan peak factor %v, peak %v, average %v; want 3.75, 30, 8", res.Plan.PeakFactor, res.Plan.PeakRequestsPerS, res.Plan.AvgRequestsPerS)
	}
	a = b.Answer(context.Background(), Message{Text: "Llama-3.1-8B at 20 QPS on A100 — how many cards?"})
	res, ok = a.Result.(advisor.CostResult)
	if !ok || res.Plan == nil || res.Plan.PeakFactor != 1 || res.Plan.PeakRequestsPerS != 20 {
		t.Errorf("bare 20 QPS: %+v, want sized for 20 requests/s (factor 1)", res.Plan)
	}
}

// TestMachineQuoteIsPerCard: "8卡包月68000元" is ¥68,000 for 8 cards, ¥8,500
// a card-month (68,000 ÷ 8).
func TestMachineQuoteIsPerCard(t *testing.T) {
	b := newTestBot(t)
	a := b.Answer(context.Background(), Message{Text: "4090 8卡包月68000元 每月用300小时 划算吗"})
	res, ok := a.Result.(advisor.MonthlyResult)
	if !ok {
		t.Fatalf("answered %s %T: %s", a.Intent, a.Result, a.Headline)
	}
	if math.Abs(res.MonthlyPrice-8500) > 0.01 {
		t.Errorf("monthly price per card %v, want 8500 (68,000 ÷ 8)", res.MonthlyPrice)
	}
}

// TestBudgetAndSpendInWords reach the budget and spend answers.
func TestBudgetAndSpendInWords(t *testing.T) {
	b := newTestBot(t)
	for text, want := range map[string]string{
		"上个月超预算了吗":                                         "budget",
		"预算还剩多少":                                           "budget",
		"把 llm-ft 的预算改成每月1.2万":                             "budget",
		"set a budget of $15k for rag-sg, alert me at 80%": "budget",
		"what did we spend on AWS in November":             "spend",
		"预算 5000 元 推荐 什么 GPU":                              "recommend",
	} {
		a := b.Answer(context.Background(), Message{Text: text})
		if string(a.Intent) != want {
			t.Errorf("%q answered as %s, want %s", text, a.Intent, want)
		}
	}
	req := b.Parse(Message{Text: "把 llm-ft 的预算改成每月1.2万"})
	req, _ = plan(req)
	if strings.Join(req.Slots.Args, " ") != "set llm-ft ¥12000" {
		t.Errorf("budget change args %q, want set llm-ft ¥12000 (1.2万 = 12,000)", req.Slots.Args)
	}
}
