package parse

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// frameReadings are the question-frame values people write, with the value
// each must be read as (hand-checked: 2 weeks = 14 days, 2万 × 10 × 800 =
// 1.6e8 tokens a day, Dec 31 is 30 days after Dec 1).
var frameReadings = []struct {
	in   string
	want map[string]any // slot → value (a subset of the slots)
}{
	// latency and speed targets, never money
	{"TTFT under 800 ms for 14B at 10 rps on 4090 — possible?", map[string]any{"ttft_ms": 800.0, "requests_per_s": 10.0, "yes_no": true}},
	{"首token要压在1秒以内 qwen2.5-72b", map[string]any{"ttft_ms": 1000.0}},
	{"300 concurrent chats on Llama-3.1-8B at 30 tok/s each — how many L4s?", map[string]any{"concurrency": 300.0, "tps_per_user": 30.0, "targets": []any{"cards"}}},
	{"每人至少 20 tokens/s，100 并发", map[string]any{"tps_per_user": 20.0, "concurrency": 100.0}},
	// deadlines in words and dates, never a $10 budget
	{"train a 3B on 600B tokens within 10 days, how many A100s?", map[string]any{"days": 10.0, "tokens": 6e11, "method": "full", "pretrain": true}},
	{"两周内把70b在2000亿token上继续预训练 要多少张H800", map[string]any{"days": 14.0, "tokens": 2e11, "params_b": 70.0, "pretrain": true}},
	{"6-week deadline: LoRA fine-tune of a 70b on 1.2B tokens", map[string]any{"days": 42.0, "method": "lora"}},
	{"need it done by Dec 31 — 7b full fine-tune on 2B tokens", map[string]any{"days": 30.0}},
	{"要一周内跑完5000万token的数据 7b lora", map[string]any{"days": 7.0, "tokens": 5e7}},
	// a peak beside an average
	{"Qwen2.5-72B, peak 30 QPS, average 8, on H20", map[string]any{"peak_requests_per_s": 30.0, "requests_per_s": 8.0, "average_load": true}},
	// daily users × turns × tokens a turn, turns not epochs
	{"日活2万，每人10轮，每轮800 token，用qwen2.5-14b 要几张4090", map[string]any{"users_per_day": 2e4, "turns": 10.0, "turn_tokens": 800.0, "tokens_per_day": 1.6e8}},
	// quotes: residual is not utilisation, a machine total is said so
	{"8卡A800整机报价160万 托管每年12万 残值15% 利用率60% 买还是租", map[string]any{"residual": 0.15, "utilization": 0.6, "cards": 8.0, "quote_per": "machine"}},
	// full-width punctuation is a clause break, not a thousands separator
	{"预算 $300，13b qlora", map[string]any{"params_b": 13.0, "method": "qlora"}},
	// 刀 is USD, asked for
	{"7b lora 5万条 在4090上 多少刀", map[string]any{"currency": "USD"}},
	// a numeral after a card name is a count of its own
	{"H200一台8卡跑DeepSeek-V3，整机吞吐每秒大概多少token", map[string]any{"gpus": []any{"h200"}, "cards": 8.0}},
	{"4090D一张1.45万，买8张自己攒机", map[string]any{"gpus": []any{"rtx4090d"}, "cards": 8.0}},
	// what is asked, in the order asked
	{"Qwen2.5-72B on H20 — how many cards and what a month?", map[string]any{"targets": []any{"cards", "money_monthly"}}},
	{"用L4每月多少钱？要几张？", map[string]any{"targets": []any{"money_monthly", "cards"}}},
	{"3060 12g 能 qlora 7b 吗", map[string]any{"yes_no": true, "gpus": []any{"rtx3060"}}},
	{"2080ti 22g魔改 能lora 7b吗", map[string]any{"yes_no": true, "vram_gb": 22.0, "gpus": []any{"rtx2080ti"}}},
	{"用英文回答：Llama-3.1-8B 50 QPS 要几张L4", map[string]any{}},
}

func TestFrameReadings(t *testing.T) {
	p := newParser(t)
	for _, tt := range frameReadings {
		req := p.ParseAt(tt.in, issueNow)
		b, _ := json.Marshal(req.Slots)
		var got map[string]any
		_ = json.Unmarshal(b, &got)
		for k, want := range tt.want {
			if !reflect.DeepEqual(got[k], want) {
				t.Errorf("Parse(%q) %s = %v, want %v (slots %s)", tt.in, k, got[k], want, b)
			}
		}
		if _, ok := got["budget"]; ok && tt.want["budget"] == nil && k0(tt.in) {
			t.Errorf("Parse(%q) read a budget %v from a target or deadline", tt.in, got["budget"])
		}
	}
	if req := p.ParseAt("用英文回答：Llama-3.1-8B 50 QPS 要几张L4", issueNow); req.Lang != "en" {
		t.Errorf("an answer asked in English is answered in %s", req.Lang)
	}
}

// k0 marks the messages whose figures are all targets or deadlines.
func k0(in string) bool {
	return strings.Contains(in, "TTFT under 800 ms") || strings.Contains(in, "within 10 days")
}
