package bot

import (
	"context"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/present"
)

// englishSentence is four or more English words in a row: in a Chinese
// answer that is a sentence or fragment left untranslated. Card, platform
// and model names are at most three words (Amazon Web Services) or carry
// digits (RTX 4090 D), so they do not match.
var englishSentence = regexp.MustCompile(`[A-Za-z]{2,}(?:[ ,'’-]+[A-Za-z]{2,}){3,}`)

// figure is what a numeric intent's headline must quote, read from the
// answer's result by hand-picked contract keys (not from the renderer).
func figure(t *testing.T, a Answer) (string, bool) {
	t.Helper()
	raw, _ := json.Marshal(a.Result)
	var r map[string]any
	_ = json.Unmarshal(raw, &r)
	f := func(k string) float64 { v, _ := r[k].(float64); return v }
	cur := a.Currency
	switch a.Intent {
	case "fit":
		return present.Num(f("memory_gb")), true
	case "cost":
		if f("per_m_tokens") > 0 {
			return present.Money(f("per_m_tokens"), cur), true
		}
		return present.Money(f("total"), cur), true
	case "monthly":
		return present.Num(f("breakeven_hours_per_month")), true
	case "buy":
		if r["never_pays"] == true || f("breakeven_utilization") > 1 {
			return "", false
		}
		return present.Num(f("breakeven_utilization")*100) + "%", true
	case "price":
		// The cheapest on-demand offer of the first card.
		offers, _ := r["offers"].([]any)
		best := math.Inf(1)
		for _, o := range offers {
			m := o.(map[string]any)
			if m["billing"] == "on_demand" && m["gpu"] == a.Slots.GPUs[0] && m["price"].(float64) < best {
				best = m["price"].(float64)
			}
		}
		if math.IsInf(best, 1) {
			return "", false
		}
		return present.Money(best, cur), true
	case "recommend":
		rks, _ := r["rankings"].([]any)
		if len(rks) == 0 || r["plans"] != nil && a.Slots.Budget != nil {
			return "", false
		}
		rows, _ := rks[0].(map[string]any)["rows"].([]any)
		if len(rows) == 0 {
			return "", false
		}
		return present.Money(rows[0].(map[string]any)["price"].(float64), cur), true
	}
	return "", false
}

// TestAnswerShape holds every intent, in both languages, to the answer
// shape: a headline (quoting the figure asked for), short text, blocks
// within Slack's limits, and Chinese answers in Chinese.
func TestAnswerShape(t *testing.T) {
	b, _ := spendBot(t)
	ctx := context.Background()
	for _, q := range []string{"/gpu spend add 40h 4090 @autodl ¥75 project=llm-ft", "/gpu spend add 10h h100 $20 project=eval"} {
		if a := say(b, "U1", q); a.Err != "" {
			t.Fatalf("%s: %s", q, a.Text)
		}
	}
	questions := []struct {
		text, lang string
	}{
		{"/gpu fit 13b lora", "en"},
		{"/gpu fit 70b inference conc=50 gpu=h20", "en"},
		{"/gpu fit 405b full", "en"},
		{"/gpu fit 7b inference gpu=4090", "en"},
		{"can a single 4090 qlora a 14b model?", "en"},
		{"13b lora 要多大显存", "zh"},
		{"我只有一张4090，能 qlora 微调 14b 吗", "zh"},
		{"70b 推理 需要几张 H20", "zh"},
		{"/gpu cost 7b lora 50k samples 2 epochs on 4090", "en"},
		{"/gpu cost 70b inference 100M tokens tps=3500 price=2.5usd", "en"},
		{"how much to lora a 70b on 4090s with 100M tokens?", "en"},
		{"7b lora 5万条样本 2个epoch 在4090上要花多少钱", "zh"},
		{"70b 推理 1亿 token 多少钱", "zh"},
		{"/gpu monthly 4090 200h", "en"},
		{"/gpu monthly 4090 200h price=1.8 monthly=900", "en"},
		{"is a monthly plan worth it for an h100 at 600 hours?", "en"},
		{"包月划算吗", "zh"},
		{"4090 每月用 300 小时 包月划算吗", "zh"},
		{"/gpu buy h100 util=70%", "en"},
		{"/gpu buy h100 price=25000usd rent=2.5usd years=3 watts=0 ops=0 rate=0", "en"},
		{"should we buy 8 h100s or rent them at 50% utilisation?", "en"},
		{"买 H100 还是租 利用率 70%", "zh"},
		{"/gpu price h100", "en"},
		{"/gpu price 4090 a100", "en"},
		{"how much is an a100 per hour?", "en"},
		{"4090 现在多少钱", "zh"},
		{"H100 租一小时多少钱", "zh"},
		{"/gpu compare h100 h800 h20", "en"},
		{"/gpu compare h100 h800 h20 a100 4090 l40s", "en"},
		{"H100 和 H800 选哪个", "zh"},
		{"对比 A100 H100 H20 4090 L40S 910B", "zh"},
		{"/gpu recommend 70b inference", "en"},
		{"/gpu recommend budget=5000", "en"},
		{"/gpu recommend diffusion", "en"},
		{"70b 推理 推荐什么卡", "zh"},
		{"预算 5000 元 推荐 什么 GPU", "zh"},
		{"what should a gpu rental contract cover?", "en"},
		{"租 GPU 合同要注意什么", "zh"},
		{"隐藏成本有哪些", "zh"},
		{"/gpu help", "en"},
		{"/gpu 帮助", "zh"},
		{"/gpu frobnicate", "en"},
		{"今天天气怎么样", "zh"},
		{"tell me a joke about cats", "en"},
		{"/gpu fit banana", "en"},
		{"70b 推理 bits=3 要多大显存", "zh"},
		{"对比 a100 h100 h20 4090 l40s 910b h800 a800 3090 l4", "zh"},
		{"/gpu spend report", "en"},
		{"/gpu spend list", "en"},
		{"这个月 GPU 花了多少", "zh"},
		{"记一笔 4090 20小时 ¥36 项目 llm", "zh"},
	}
	if len(questions) < 40 {
		t.Fatalf("%d questions, want at least 40", len(questions))
	}
	seen := map[string]map[string]bool{}
	figures := 0
	for _, q := range questions {
		a := b.Answer(ctx, Message{Text: q.text, Team: "T1", Channel: "C1", User: "U1"})
		name := q.text
		if seen[string(a.Intent)] == nil {
			seen[string(a.Intent)] = map[string]bool{}
		}
		seen[string(a.Intent)][a.Lang] = true
		if a.Lang != q.lang {
			t.Errorf("%q: lang %s, want %s", name, a.Lang, q.lang)
		}
		if strings.TrimSpace(a.Headline) == "" {
			t.Errorf("%q (%s): no headline", name, a.Intent)
		}
		if !strings.HasPrefix(a.Text, a.Headline) {
			t.Errorf("%q: text does not open with the headline %q:\n%s", name, a.Headline, a.Text)
		}
		if n := len([]rune(a.Text)); n > present.MaxText {
			t.Errorf("%q (%s): text is %d characters, over %d", name, a.Intent, n, present.MaxText)
		}
		if fig, ok := figure(t, a); ok && a.Err == "" {
			figures++
			if !strings.Contains(a.Headline, fig) {
				t.Errorf("%q (%s): headline %q does not quote %s", name, a.Intent, a.Headline, fig)
			}
		}
		checkBlocks(t, name, a)
		if a.Lang == "zh" {
			for _, s := range append([]string{a.Text}, blockTexts(a)...) {
				if m := englishSentence.FindString(s); m != "" {
					t.Errorf("%q: English in a Chinese answer: %q in\n%s", name, m, s)
				}
			}
		}
		if a.Working == nil {
			t.Errorf("%q: working is null", name)
		}
	}
	if figures < 20 {
		t.Errorf("only %d numeric answers had their figure checked, want at least 20", figures)
	}
	for _, in := range []string{"fit", "cost", "monthly", "buy", "price", "compare", "recommend", "knowledge", "help", "unknown", "spend"} {
		if !seen[in]["en"] || !seen[in]["zh"] {
			t.Errorf("intent %s asked in %v, want both languages", in, seen[in])
		}
	}
}

func blockTexts(a Answer) []string {
	raw, _ := json.Marshal(a.Blocks)
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if s, ok := x["text"].(string); ok {
				out = append(out, s)
			}
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	var v any
	_ = json.Unmarshal(raw, &v)
	walk(v)
	return out
}

// checkBlocks holds blocks to Slack's published limits.
func checkBlocks(t *testing.T, name string, a Answer) {
	t.Helper()
	if len(a.Blocks) == 0 || len(a.Blocks) > 50 {
		t.Errorf("%q: %d blocks, want 1..50", name, len(a.Blocks))
	}
	raw, _ := json.Marshal(a.Blocks)
	var blocks []map[string]any
	_ = json.Unmarshal(raw, &blocks)
	for i, bl := range blocks {
		if txt, ok := bl["text"].(map[string]any); ok {
			if s, _ := txt["text"].(string); len([]rune(s)) > 3000 {
				t.Errorf("%q block %d: %d characters, over 3000", name, i, len([]rune(s)))
			}
		}
		if fs, ok := bl["fields"].([]any); ok && len(fs) > 10 {
			t.Errorf("%q block %d: %d fields, over 10", name, i, len(fs))
		}
	}
}

// The asker's Slack locale picks the language of a command that has no
// Chinese in it; a sentence keeps its own language.
func TestLocalePicksTheLanguageOfACommand(t *testing.T) {
	b := newTestBot(t)
	ctx := context.Background()
	tests := []struct {
		m    Message
		want string
	}{
		{Message{Text: "fit 13b lora", Slash: true, Locale: "zh-CN"}, "zh"},
		{Message{Text: "/gpu fit 13b lora", Locale: "zh-TW"}, "zh"},
		{Message{Text: "fit 13b lora", Slash: true, Locale: "en-US"}, "en"},
		{Message{Text: "how much VRAM for a 13b lora?", Locale: "zh-CN"}, "en"},
		{Message{Text: "13b lora 要多大显存", Locale: "en-GB"}, "zh"},
	}
	for _, tt := range tests {
		a := b.Answer(ctx, tt.m)
		if a.Lang != tt.want {
			t.Errorf("%q with locale %s: answered in %s, want %s", tt.m.Text, tt.m.Locale, a.Lang, tt.want)
		}
		if tt.want == "zh" && a.Currency != "" && a.Currency != "CNY" {
			t.Errorf("%q in Chinese priced in %s, want CNY", tt.m.Text, a.Currency)
		}
	}
}
