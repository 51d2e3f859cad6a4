package parse

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadCorrection reads the corrections (#24 item 1) and
// leaves alone sentences that only look like them.
func TestReadCorrection(t *testing.T) {
	for _, c := range []struct {
		text string
		want *Correction
	}{
		{"不对，金额是1800元", &Correction{Fields: map[string]string{"amount": "¥1800"}}},
		{"actually it was 120 hours", &Correction{Fields: map[string]string{"hours": "120"}}},
		{"change #7k2m9q's platform to 火山引擎", &Correction{ID: "7k2m9q", Fields: map[string]string{"platform": "火山引擎"}}},
		{"change #abc's platform to 火山引擎", &Correction{ID: "abc", Fields: map[string]string{"platform": "火山引擎"}}},
		{"the vast.ai entry should be dated November not December, and the amount is $368.40",
			&Correction{About: "vast.ai", Fields: map[string]string{"month": "11", "amount": "$368.4"}, Old: map[string]string{"month": "12"}}},
		{"不对，应该是8张卡，跑了72小时", &Correction{Fields: map[string]string{"cards": "8", "hours": "72"}}},
		{"AutoDL 那笔记错了，是11月的", &Correction{About: "autodl", Fields: map[string]string{"month": "11"}}},
		{"更正：项目应该是 llm-ft，团队是 vision", &Correction{Fields: map[string]string{"project": "llm-ft", "team": "vision"}}},
		{"sorry, wrong: it was 5万元", &Correction{Fields: map[string]string{"amount": "¥50000"}}},
		// the entry as it stands, said to find it: 11月, 6.8万 = 68,000 (the old figure)
		{"11月那笔腾讯云的6.8万录反了，改成8.6万。", &Correction{About: "腾讯云", Fields: map[string]string{"amount": "86000"}, Old: map[string]string{"amount": "68000", "month": "11"}}},
		{"刚记的那笔AWS $320应该是$230，手抖打错了。", &Correction{About: "aws", Fields: map[string]string{"amount": "$230"}, Old: map[string]string{"amount": "$320"}}},
		{"上个月那笔恒源云的记错了，是268不是286，帮我改一下", &Correction{About: "恒源云", Fields: map[string]string{"amount": "268"}, Old: map[string]string{"amount": "286", "month": "last"}}},
		{"不对，不是286，是268", &Correction{Fields: map[string]string{"amount": "268"}, Old: map[string]string{"amount": "286"}}},
		// "just now": the latest entry, not one described as "刚才"
		{"刚才那笔火山引擎的，月份改成10月，小时数是410不是340。", &Correction{About: "火山引擎", Fields: map[string]string{"month": "10", "hours": "410"}}},
		{"刚才那条AutoDL的记录月份写错了，应该是3月，不是4月。", &Correction{About: "autodl", Fields: map[string]string{"month": "3"}, Old: map[string]string{"month": "4"}}},
		// not corrections
		{"把 llm-ft 的预算改成每月1.2万", nil},
		{"记一笔：4090 跑了 20 小时 50 块", nil},
		{"what should be the card for 13b lora?", nil},
		{"4090 多少钱一小时", nil},
		{"不对", nil},
	} {
		got, ok := ReadCorrection(c.text)
		if c.want == nil {
			if ok {
				t.Errorf("ReadCorrection(%q) = %+v, want none", c.text, got)
			}
			continue
		}
		if !ok {
			t.Errorf("ReadCorrection(%q): none, want %+v", c.text, *c.want)
			continue
		}
		if d := cmp.Diff(*c.want, got); d != "" {
			t.Errorf("ReadCorrection(%q) (-want +got):\n%s", c.text, d)
		}
	}
}

func TestReadDeletion(t *testing.T) {
	for _, c := range []struct {
		text string
		want *Deletion
	}{
		{"把12月那笔腾讯云 ¥52,000 删掉吧，重复记了。", &Deletion{About: "腾讯云", Amount: "¥52,000", Month: "12"}},
		{"12月账里有两笔重复的阿里云扣费，各2.3万，删掉其中一笔。", &Deletion{Amount: "2.3万", Month: "12"}},
		{"删掉刚才那笔。", &Deletion{}}, // the latest entry
		{"delete the runpod entry, it was a test", &Deletion{About: "runpod"}},
		// not deletions
		{"/gpu budget clear", nil},
		{"把 llm-ft 的预算删掉", nil},
		{"删掉吧", nil},
	} {
		got, ok := ReadDeletion(c.text)
		if c.want == nil {
			if ok {
				t.Errorf("ReadDeletion(%q) = %+v, want none", c.text, got)
			}
			continue
		}
		if !ok || got != *c.want {
			t.Errorf("ReadDeletion(%q) = %+v (%v), want %+v", c.text, got, ok, *c.want)
		}
	}
}
