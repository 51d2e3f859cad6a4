package parse

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// TestSmallModelsAndRunsInWords: "a 125M gpt2" is 0.125 B parameters (the
// million-parameter reader never fired: it checked the boundary before the
// figure instead of the figure); "50 组实验，每组…3 小时" is 50 × 3 = 150
// hours in all; "avg 1k input" is a request's length, not 1,000 requests/s,
// while "平均80，输入200 token" keeps its rate of 80.
func TestSmallModelsAndRunsInWords(t *testing.T) {
	p := New(knowledge.MustShipped())
	for _, c := range []struct {
		text string
		want float64
		got  func(Slots) float64
	}{
		{"gonna pretrain a 125M gpt2 on 10B tokens, how long on a single 4090?", 0.125, func(s Slots) float64 { return s.ParamsB }},
		{"a 350m params model on a 3060", 0.35, func(s Slots) float64 { return s.ParamsB }},
		{"我要在3周内跑完 50 组实验，每组在 A100 上大概 3 小时，预算 3000 块", 150, func(s Slots) float64 { return s.Hours }},
		{"Llama 3.1 70B at 200 QPS peak, avg 1k input / 300 output tokens — how many H100?", 0, func(s Slots) float64 { return s.RequestsPerS }},
		{"7B小模型，QPS峰值300、平均80，输入200 token输出20 token左右，T4要几张？", 80, func(s Slots) float64 { return s.RequestsPerS }},
	} {
		if got := c.got(p.Parse(c.text).Slots); got != c.want {
			t.Errorf("%q: read %v, want %v", c.text, got, c.want)
		}
	}
}

// TestKVCacheBitsAreTheCache: "with FP8 KV cache" sets the cache's bits
// (8), never the weights' — the follow-up halved the weights instead.
func TestKVCacheBitsAreTheCache(t *testing.T) {
	p := New(knowledge.MustShipped())
	for _, q := range []string{"ok and with FP8 KV cache?", "llama 70b 32k context, kv cache in fp8", "KV 缓存用 int8 的话呢"} {
		s := p.Parse(q).Slots
		if s.KVBits != 8 || s.Bits != 0 {
			t.Errorf("%q: kv_bits %d, bits %d; want 8 and 0", q, s.KVBits, s.Bits)
		}
	}
	if s := p.Parse("llama 70b in fp8 with a 32k context").Slots; s.Bits != 8 || s.KVBits != 0 {
		t.Errorf("fp8 weights: bits %d, kv_bits %d", s.Bits, s.KVBits)
	}
}

// TestSampleLengthsAndDaysAMonth: "20 万条，平均 1k token" is each sample's
// length (read as the data's total of 1,000 tokens the job cost ¥0);
// "一天跑 14 小时，一个月跑 26 天" is 14 × 26 = 364 h a month, not 14 × 365/12.
func TestSampleLengthsAndDaysAMonth(t *testing.T) {
	p := New(knowledge.MustShipped())
	s := p.Parse("全参微调 Qwen2.5-7B，数据 20 万条，平均 1k token，跑 3 个 epoch，用 8 张 A800").Slots
	if s.Samples != 200000 || s.SampleTokens != 1000 || s.Tokens != 0 {
		t.Errorf("samples %v, sample tokens %v, tokens %v; want 200000, 1000, 0", s.Samples, s.SampleTokens, s.Tokens)
	}
	s = p.Parse("lora 7b on 50k samples averaging 2k tokens, 2 epochs on a 4090").Slots
	if s.Samples != 50000 || s.SampleTokens != 2000 {
		t.Errorf("samples %v, sample tokens %v; want 50000, 2000", s.Samples, s.SampleTokens)
	}
	if s := p.Parse("AutoDL 上 4090 按量和包月哪个划算？我们一天大概跑 14 小时，一个月跑 26 天").Slots; s.HoursPerMonth != 364 {
		t.Errorf("14 h a day, 26 days a month: %v h/month, want 364", s.HoursPerMonth)
	}
	if s := p.Parse("A100 12 hours a day, 22 days a month: monthly plan or on-demand?").Slots; s.HoursPerMonth != 264 {
		t.Errorf("12 h a day, 22 days: %v h/month, want 264", s.HoursPerMonth)
	}
	if s := p.Parse("每天跑 8 小时的话 A100 包月值吗").Slots; s.HoursPerMonth < 243.3 || s.HoursPerMonth > 243.4 {
		t.Errorf("8 h a day, no days said: %v h/month, want 8 × 365/12 = 243.33", s.HoursPerMonth)
	}
}

// TestMayIsAMonthWhenSpendIsBooked: "Research spent $45,500 in May" books
// to May (it went to today's month); "may i ask…" stays a word.
func TestMayIsAMonthWhenSpendIsBooked(t *testing.T) {
	p := New(knowledge.MustShipped())
	if s := p.Parse("Research spent $45,500 in May").Slots; s.Month != "05" {
		t.Errorf("in May: month %q, want 05", s.Month)
	}
	if s := p.Parse("may i ask how much a 4090 costs").Slots; s.Month != "" {
		t.Errorf("may i ask: month %q, want none", s.Month)
	}
}

// TestLoadInTwoVolumes: "每月输入 5 亿、输出 1 亿" is 6 亿 tokens a month, 5/6
// of them input (it was read as input_tokens=5, output_tokens=1); "每天 2
// 亿输入 token + 4000 万输出" is 2.4 亿 a day, never a 0.2 B model.
func TestLoadInTwoVolumes(t *testing.T) {
	p := New(knowledge.MustShipped())
	s := p.Parse("Kimi 和豆包哪个便宜，每月输入 5 亿、输出 1 亿 token").Slots
	if got, want := s.TokensPerDay, 6e8/(365.0/12); got < want*0.999 || got > want*1.001 || s.InputShare < 0.833 || s.InputShare > 0.834 || s.InputTokens != 0 {
		t.Errorf("每月输入 5 亿、输出 1 亿: %+v", s)
	}
	s = p.Parse("每天 2 亿输入 token + 4000 万输出 token，DeepSeek API 每月多少").Slots
	if s.TokensPerDay != 2.4e8 || s.ParamsB != 0 || s.InputShare < 0.833 || s.InputShare > 0.834 {
		t.Errorf("每天 2 亿输入 + 4000 万输出: %+v", s)
	}
	s = p.Parse("deepseek api for 400M input + 100M output tokens a day, monthly cost?").Slots
	if s.TokensPerDay != 5e8 || s.InputShare != 0.8 {
		t.Errorf("400M input + 100M output a day: %+v", s)
	}
}
