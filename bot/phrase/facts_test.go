package phrase

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpubot/gpubot/knowledge"
)

// answer is the ask --json shape, as the bot marshals it.
type answer struct {
	Intent  string         `json:"intent"`
	Lang    string         `json:"lang"`
	Slots   map[string]any `json:"slots"`
	Assumed map[string]any `json:"assumed"`
	Result  map[string]any `json:"result"`
	Text    string         `json:"text"`
}

func loadAnswer(t *testing.T, name string) answer {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var a answer
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return a
}

func findFact(facts []Fact, name string) (Fact, bool) {
	for _, f := range facts {
		if f.Name == name {
			return f, true
		}
	}
	return Fact{}, false
}

func TestFactsFromFit(t *testing.T) {
	tests := []struct {
		file      string
		essential []Fact
	}{
		{"fit_13b_lora_en", []Fact{{Name: "memory_gb", Value: 41.13, Unit: "GB"}}},
		{"fit_70b_qlora_zh", []Fact{{Name: "memory_gb", Value: 80.77, Unit: "GB"}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			a := loadAnswer(t, tt.file)
			facts := FactsFrom(a.Text, a) // the whole answer
			// the first line shows the total, not a card count
			essential := EssentialFrom(strings.SplitN(a.Text, "\n", 2)[0], a.Result, []string{"memory_gb", "options[].count"})
			if diff := cmp.Diff(tt.essential, essential); diff != "" {
				t.Errorf("essential (-want +got):\n%s", diff)
			}
			if f, _ := findFact(facts, AnswerFact); f.Text != a.Text {
				t.Errorf("facts[%s] is not the template", AnswerFact)
			}
			want := map[string]Fact{
				"result.options[RTX 4090].vram_gb":    {Name: "result.options[RTX 4090].vram_gb", Value: 24, Unit: "GB"},
				"result.options[RTX 4090].count":      {Name: "result.options[RTX 4090].count", Value: a.Result["options"].([]any)[3].(map[string]any)["count"].(float64)},
				"result.lines[weights].value":         {Name: "result.lines[weights].value", Value: a.Result["lines"].([]any)[0].(map[string]any)["value"].(float64), Unit: "GB"},
				"result.workload.params_b":            {Name: "result.workload.params_b", Value: a.Slots["params_b"].(float64), Unit: "B"},
				"assumed.seq_len":                     {Name: "assumed.seq_len", Value: 4096},
				"result.breakdown.activations_gb":     {Name: "result.breakdown.activations_gb", Value: a.Result["breakdown"].(map[string]any)["activations_gb"].(float64), Unit: "GB"},
				"result.options[Ascend 910B].vram_gb": {Name: "result.options[Ascend 910B].vram_gb", Value: 64, Unit: "GB"},
			}
			for name, w := range want {
				got, ok := findFact(facts, name)
				if !ok {
					t.Errorf("no fact %s", name)
					continue
				}
				if diff := cmp.Diff(w, got); diff != "" {
					t.Errorf("fact %s (-want +got):\n%s", name, diff)
				}
			}
			// the template passes its own guard
			if ok, reasons := Check(a.Text, facts, essential); !ok {
				t.Errorf("the template fails its own guard: %v", reasons)
			}
			// the ids the template does not show are text facts
			if _, ok := findFact(facts, "result.options[RTX 4090].gpu"); !ok {
				t.Errorf("no text fact for the card id rtx4090")
			}
		})
	}
}

func TestFactsFromMoney(t *testing.T) {
	result := map[string]any{
		"gpu_hours": 150.0, "total": 1200.0, "currency": "CNY", "hourly": 8.0,
		"gpu": "rtx4090", "gpus": 1, "wall_hours": 150.0, "per_m_tokens": 3.21,
		"offers": []any{
			map[string]any{"platform": "autodl", "gpu": "rtx4090", "price": 1.98, "currency": "CNY", "unit": "hour"},
			map[string]any{"platform": "other", "gpu": "rtx4090", "price": 2.5, "currency": "CNY", "unit": "hour"},
		},
	}
	text := "Training costs ¥1,200: 150 GPU-hours on one RTX 4090 at ¥8/h. Cheapest today: ¥1.98/h (autodl)."
	facts := FactsFrom(text, result)
	essential := EssentialFrom(text, result, []string{"total", "gpu_hours", "per_m_tokens", "offers[].price"})
	wantEss := []Fact{
		{Name: "gpu_hours", Value: 150, Unit: "h"},
		{Name: "offers[autodl rtx4090].price", Value: 1.98, Unit: "CNY/h"},
		{Name: "total", Value: 1200, Unit: "CNY"},
	}
	if diff := cmp.Diff(wantEss, essential); diff != "" {
		t.Errorf("essential (-want +got):\n%s\n(per_m_tokens and the ¥2.5 offer are not shown, so not essential)", diff)
	}
	for name, unit := range map[string]string{"hourly": "CNY/h", "per_m_tokens": "CNY/M tokens", "wall_hours": "h", "offers[other rtx4090].price": "CNY/h", "gpus": ""} {
		f, ok := findFact(facts, name)
		if !ok || f.Unit != unit {
			t.Errorf("fact %s = %+v, want unit %q", name, f, unit)
		}
	}
	if ok, reasons := Check("150 GPU-hours, ¥1,200 in all, from ¥1.98/h", facts, essential); !ok {
		t.Errorf("faithful text rejected: %v", reasons)
	}
	if ok, _ := Check("150 GPU-hours, $1,200 in all, from ¥1.98/h", facts, essential); ok {
		t.Errorf("$ for ¥ accepted")
	}
}

func TestFactsFromUnitsByKey(t *testing.T) {
	tests := []struct {
		key  string
		v    float64
		obj  map[string]any
		cur  string
		want string
	}{
		{"memory_gb", 41, nil, "", "GB"},
		{"total", 1, nil, "USD", "USD"},
		{"total", 1, nil, "", ""},
		{"on_demand_cost", 1, nil, "CNY", "CNY"},
		{"hourly", 1, nil, "CNY", "CNY/h"},
		{"price", 1, map[string]any{"currency": "USD", "unit": "month"}, "USD", "USD/month"},
		{"value", 1, map[string]any{"unit": "GB"}, "", "GB"},
		{"breakeven_hours_per_month", 1, nil, "", "h/month"},
		{"gpu_hours", 1, nil, "", "h"},
		{"payback_months", 1, nil, "", "month"},
		{"breakeven_utilization", 0.7, nil, "", "ratio"},
		{"utilization", 78, nil, "", "%"},
		{"params_b", 13, nil, "", "B"},
		{"seq_len", 4096, nil, "", ""},
		{"amount", 100, map[string]any{"currency": "CNY"}, "CNY", "CNY"},
	}
	for _, tt := range tests {
		obj := tt.obj
		if obj == nil {
			obj = map[string]any{}
		}
		if got := unitFor(tt.key, tt.v, obj, tt.cur); got != tt.want {
			t.Errorf("unitFor(%q, %v, %v, %q) = %q, want %q", tt.key, tt.v, tt.obj, tt.cur, got, tt.want)
		}
	}
}

func TestGuideFacts(t *testing.T) {
	items := []knowledge.GuideItem{{
		ID: "monthly-rule", TitleEN: "When a monthly plan pays", TitleZH: "包月什么时候划算",
		BodyEN: "A monthly plan usually pays from about 150 hours a month; discounts run 20–30%. Prices are 2026 ranges.",
		BodyZH: "一般每月用满约 150 小时包月就划算，折扣多在 20–30%。价格为 2026 年区间。",
		Source: "seed:rental-guide",
	}}
	facts := GuideFacts("zh", items)
	if len(facts) != 3 || !strings.Contains(facts[1].Text, "150 小时") {
		t.Fatalf("GuideFacts(zh) = %+v", facts)
	}
	template := facts[0].Text + "\n" + facts[1].Text
	in := Input{Lang: "zh", Template: template, Facts: facts}
	if ok, reasons := Check("每月用满约 150 小时就该包月，折扣一般 20–30%（2026 年区间）。", allowed(in), nil); !ok {
		t.Errorf("faithful guide rephrase rejected: %v", reasons)
	}
	if ok, _ := Check("每月用满约 120 小时就该包月。", allowed(in), nil); ok {
		t.Errorf("changed guide number accepted")
	}
	if ok, _ := Check("每月用满约 150 小时就该包月，能省四成。", allowed(in), nil); ok {
		t.Errorf("added guide number (四成) accepted")
	}
	en := GuideFacts("en", items)
	if !strings.Contains(en[1].Text, "150 hours") {
		t.Errorf("GuideFacts(en) body = %q", en[1].Text)
	}
}
