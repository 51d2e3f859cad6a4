package bot_test

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/parse"
)

// TestLedgerWordsReachTheLedger: a budget set "for team nlp" is that
// team's (it was the whole workspace's), a "记录一下：…" message books an
// entry (it listed the month), and "the monthly recap for atlas" is the
// spend report, not a monthly plan's break-even.
func TestLedgerWordsReachTheLedger(t *testing.T) {
	b, _ := paceBot(t)
	if a := askPace(t, b, "set a monthly budget of ¥30,000 for team nlp"); !strings.Contains(a.Headline, "team nlp") {
		t.Errorf("budget set for %q", a.Headline)
	}
	if a := askPace(t, b, "记录一下：nlp 组在 AutoDL 用了 4090 共 2000 小时，¥3760"); a.Intent != parse.Spend || !strings.HasPrefix(a.Headline, "已记账") {
		t.Errorf("记录一下 answered as %s: %q", a.Intent, a.Headline)
	}
	if a := askPace(t, b, "give me the monthly recap for atlas"); a.Intent != parse.Spend {
		t.Errorf("recap answered as %s: %q", a.Intent, a.Headline)
	}
}

// TestEntriesAtTheirRateCountAgainstTheTeam: an entry said with its rate
// is booked at that rate (the catalogue's was used, or none), card-hours
// are hours, and a budget "for team nlp" counts the "nlp 组" entries and
// the ones booked "for infra"; "还剩多少" answers what is left first.
func TestEntriesAtTheirRateCountAgainstTheTeam(t *testing.T) {
	b, _ := paceBot(t)
	for _, c := range []struct{ text, want string }{
		{"log 120 hours of H100 on runpod at $2.49/hr for team atlas", "$298.80"},   // 120 × 2.49
		{"log 8x H100 for 100 hours at $3.00 per GPU-hour for vision", "$2,400.00"}, // 8 × 100 × 3.00
		{"log 6000 GPU-hours of A100 at $1.65 for infra", "$9,900.00"},              // 6,000 × 1.65
		{"记录：语音组 3 月份用了火山引擎 A800 共 500 卡时，单价 6.5 元", "¥3,250.00"},                   // 500 × 6.5
		{"记录一下：nlp 组在 AutoDL 用了 4090 共 2000 小时，每小时 1.88 元", "¥3,760.00"},            // 2,000 × 1.88
	} {
		if a := askPace(t, b, c.text); !strings.Contains(a.Headline, c.want) {
			t.Errorf("%q: %q, want %s booked", c.text, a.Headline, c.want)
		}
	}
	askPace(t, b, "set a monthly budget of ¥30,000 for team nlp")
	// 30,000 − 3,760 = 26,240 left, 12.5 % (3,760 ÷ 30,000) spent
	if a := askPace(t, b, "nlp 这个月预算还剩多少？"); !strings.HasPrefix(a.Text, "没超：team nlp") && !strings.HasPrefix(a.Text, "没超：团队 nlp") || !strings.Contains(a.Text, "还剩 ¥26,240.00") {
		t.Errorf("nlp left: %q", a.Text)
	}
	askPace(t, b, "set a monthly budget of $25,000 for team infra")
	// 25,000 − 9,900 = 15,100 left
	if a := askPace(t, b, "how much over or under budget is infra?"); !strings.Contains(a.Text, "$15,100.00 left of $25,000.00") {
		t.Errorf("infra left: %q", a.Text)
	}
}

// TestMoneyPaidInWordsIsBooked: "rec 组还花了 500 美元 OpenAI API" books
// $500 with no card; "总共花了多少美元" reports in dollars: ¥752 (400 h ×
// ¥1.88) ÷ 7.2 = $104.44, + $500 = $604.44. A recap asked early in a month
// whose previous month is empty is this month's, and the filter line sits
// under the total.
func TestMoneyPaidInWordsIsBooked(t *testing.T) {
	b, _ := paceBot(t)
	askPace(t, b, "记一下 rec 组 4090 用了 400 小时，1.88 元/小时")
	if a := askPace(t, b, "rec 组还花了 500 美元 OpenAI API"); a.Intent != parse.Spend || !strings.Contains(a.Headline, "$500.00") {
		t.Errorf("API spend: %s %q", a.Intent, a.Headline)
	}
	if a := askPace(t, b, "rec 组总共花了多少美元？"); !strings.Contains(a.Text, "$604.44") {
		t.Errorf("total in USD: %q", a.Text)
	}
	a := askPace(t, b, "give me the monthly recap for rec")
	if first, _, _ := strings.Cut(a.Text, "\n"); strings.HasPrefix(first, "Only entries") || strings.HasPrefix(first, "Recap of 2026-11") {
		t.Errorf("recap leads with %q", first)
	}
}

// TestPlanRentedIsBooked: "cv 组本月租了腾讯云 A100 包月 2 台，每台 13748 元" is
// a month's plan fee paid: 2 × ¥13,748 = ¥27,496 booked as a monthly plan,
// not a break-even of the plan against on demand.
func TestPlanRentedIsBooked(t *testing.T) {
	b, _ := paceBot(t)
	a := askPace(t, b, "cv 组本月租了腾讯云 A100 包月 2 台，每台 13748 元")
	if a.Intent != parse.Spend || !strings.Contains(a.Headline, "¥27,496.00") || !strings.Contains(a.Headline, "包月") {
		t.Errorf("plan rented: %s %q", a.Intent, a.Headline)
	}
}

// TestSeveralEntriesInOneMessage: each amount of a statement is its own
// entry (only the first was booked): $9,800 + $22,300 + $4,100 = $36,200
// in February; ¥125,000 + ¥48,000 = ¥173,000 this month, in yuan.
func TestSeveralEntriesInOneMessage(t *testing.T) {
	b, _ := paceBot(t)
	a := askPace(t, b, "Log: team Vision spent $9,800 on GPUs in Feb, team NLP $22,300, team Speech $4,100.")
	if n := strings.Count(a.Text, "Saved #"); n != 3 {
		t.Errorf("%d entries saved, want 3:\n%s", n, a.Text)
	}
	if r := askPace(t, b, "what did we spend in February 2026?"); !strings.Contains(r.Text, "$36,200.00") {
		t.Errorf("February: %q", r.Headline)
	}
	a = askPace(t, b, "本月已经花了：H800 租赁 12.5 万，API 调用 4.8 万")
	if n := strings.Count(a.Text, "已记账"); n != 2 || strings.Contains(a.Text, "$48,000") || !strings.Contains(a.Text, "¥48,000.00") {
		t.Errorf("two entries in yuan:\n%s", a.Text)
	}
	// a question with two figures books nothing
	if a := askPace(t, b, "we spent $9,800 and $4,100 — are we over budget?"); strings.Contains(a.Text, "Saved #") {
		t.Errorf("a question booked entries:\n%s", a.Text)
	}
}

// TestBudgetSetWithoutAnAmount: "set a monthly budget of abc" is a change
// whose amount was not read: an error with the form, never the budgets
// listed as if it had been a question.
func TestBudgetSetWithoutAnAmount(t *testing.T) {
	b, _ := paceBot(t)
	a := askPace(t, b, "set a monthly budget of abc for team nlp")
	if a.Err == "" || !strings.Contains(a.Text, "/gpu budget set") {
		t.Errorf("no amount read: %q", a.Text)
	}
}

// TestBudgetStatementsInWords: "Budget for project Atlas is $50k/month"
// sets a budget (it was booked as $50,000 of spend); "budget for Research
// at $120,000" is Research's; "还剩多少？超支了吗？" with no 预算 asks the budget:
// ¥200,000 − (¥125,000 + ¥48,000) = ¥27,000 left.
func TestBudgetStatementsInWords(t *testing.T) {
	b, _ := paceBot(t)
	if a := askPace(t, b, "Budget for project Atlas is $50k/month."); a.Intent != parse.Budget || !strings.Contains(a.Headline, "$50,000.00 a month") {
		t.Errorf("budget statement: %s %q", a.Intent, a.Headline)
	}
	if a := askPace(t, b, "Set Q2 GPU budget for Research at $120,000."); !strings.Contains(a.Headline, "team research") {
		t.Errorf("budget for Research: %q", a.Headline)
	}
	askPace(t, b, "设置预算：大模型项目每月 20 万人民币")
	askPace(t, b, "本月已经花了：H800 租赁 12.5 万，API 调用 4.8 万")
	if a := askPace(t, b, "还剩多少？超支了吗？"); a.Intent != parse.Budget || !strings.Contains(a.Text, "¥27,000.00") {
		t.Errorf("还剩多少: %s %q", a.Intent, a.Text)
	}
}
