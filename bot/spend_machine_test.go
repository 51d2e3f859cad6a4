package bot

import (
	"context"
	"strings"
	"testing"
)

// An entry that names no card count may be a whole 8-card machine's hours:
// ¥23,460 for 340 h of H20 is ¥69 an hour — above one card's 5× band
// (the shipped H20 on demand is at most ¥7.50, × 5 = ¥37.50) but ¥8.63 a
// card on 8 cards — booked; ten times that (¥690 an hour, ¥86 a card on 8)
// is still refused as a slip.
func TestSpendHoursOfAMachineWithNoCardCount(t *testing.T) {
	b, _ := spendBot(t)
	ask := func(q string) Answer {
		return b.Answer(context.Background(), Message{Text: q, Team: "T1", Channel: "C1", User: "U1"})
	}
	a := ask("记一笔：火山引擎 H20 按量，9月份，asr 项目，共 ¥23,460，跑了340小时。")
	if !strings.Contains(a.Text, "¥23,460.00") || strings.Contains(a.Text, "未保存") {
		t.Errorf("a machine's hours refused:\n%s", a.Text)
	}
	a = ask("记一笔：火山引擎 H20 按量，9月份，asr 项目，共 ¥234,600，跑了340小时。")
	if !strings.Contains(a.Text, "未保存") {
		t.Errorf("¥690 an hour booked:\n%s", a.Text)
	}

	// an instruction to book, with a project and an amount, is an entry
	a = ask("log $12,400 against inference-prod")
	if !strings.HasPrefix(a.Text, "Saved") || !strings.Contains(a.Text, "$12,400.00") || !strings.Contains(a.Text, "project inference-prod") {
		t.Errorf("log $12,400 against inference-prod:\n%s", a.Text)
	}
}
