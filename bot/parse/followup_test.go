package parse

import (
	"encoding/json"
	"testing"
)

func TestFollowUp(t *testing.T) {
	p := newParser(t)
	tests := []struct {
		first, next string
		follow      bool
		intent      Intent
		slots       string // the merged request's slots (notes, missing left out)
	}{
		{"7b lora 微调成本多少", "20k samples", true, Cost, `{"params_b":7,"method":"lora","samples":20000}`},
		{"how much to lora a 7b", "20k samples, 2 epochs", true, Cost, `{"params_b":7,"method":"lora","samples":20000,"epochs":2}`},
		{"13b lora 要多少显存", "那 qlora 呢", true, Fit, `{"params_b":13,"method":"qlora"}`},
		{"4090 hourly rate on vast?", "and on runpod?", true, Price, `{"gpus":["rtx4090"],"platform":"runpod"}`},
		{"4090 包月划算吗", "每月大概 300 小时", true, Monthly, `{"gpus":["rtx4090"],"hours_per_month":300}`},
		{"70b 推理要几张 a100", "换成 h100 呢", true, Fit, `{"params_b":70,"method":"inference","gpus":["h100-sxm"]}`},
		{"deepseek-v3 推理要几张 h20", "那 70b 呢", true, Fit, `{"params_b":70,"method":"inference","gpus":["h20"]}`},
		// a new full question starts over
		{"13b lora 要多少显存", "H100 和 H800 选哪个", false, Compare, `{"gpus":["h100-sxm","h800"]}`},
		{"4090 包月划算吗", "记一笔 4090 3 小时 ¥30", false, Spend, `{"gpus":["rtx4090"],"hours":3,"amount":{"amount":30,"currency":"CNY"},"mode":"add"}`},
		// nothing to add
		{"13b lora 要多少显存", "谢谢", false, Unknown, `{}`},
	}
	for _, tt := range tests {
		prev := p.ParseAt(tt.first, issueNow)
		got, follow := p.FollowUp(prev, tt.next, issueNow)
		if follow != tt.follow || got.Intent != tt.intent {
			t.Errorf("FollowUp(%q, %q) = %s, follow-up %v; want %s, %v", tt.first, tt.next, got.Intent, follow, tt.intent, tt.follow)
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(tt.slots), &want); err != nil {
			t.Fatal(err)
		}
		if d := slotDiff(want, slotMap(t, got.Slots)); d != "" {
			t.Errorf("FollowUp(%q, %q) slots: %s", tt.first, tt.next, d)
		}
		if tt.follow && len(got.Slots.Missing) > 0 && tt.intent != Fit {
			t.Errorf("FollowUp(%q, %q) still misses %v", tt.first, tt.next, got.Slots.Missing)
		}
	}
}
