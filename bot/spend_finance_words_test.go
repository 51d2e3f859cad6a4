package bot_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// financeBot is paceBot: December has nothing booked unless a test books it.
func financeBot(t *testing.T) *bot.Bot {
	t.Helper()
	b, _ := paceBot(t)
	return b
}

// financeSay asks one message and fails on an error answer.
func financeSay(t *testing.T, b *bot.Bot, text string) bot.Answer {
	t.Helper()
	a := b.Answer(context.Background(), bot.Message{Text: text, Team: "T1", Channel: "C1", User: "U1"})
	if a.Err == "internal" || a.Err == "not_saved" {
		t.Fatalf("%q: error %s: %s", text, a.Err, a.Text)
	}
	return a
}

func wantAll(t *testing.T, q string, a bot.Answer, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(a.Text, w) {
			t.Errorf("%q: no %q in\n%s", q, w, a.Text)
		}
	}
}

// "so far", "到目前为止一共" with no month mean since the first entry. By
// hand, atlas: $1,200 (40 h, 2026-10-05) + $3,000 (50 h, 2026-11-05) +
// $500 (10 h, 2026-12-01) = $4,700, 40 + 50 + 10 = 100 GPU-hours, 3
// entries, from 2026-10-05 to today 2026-12-02; this month $500. The
// other project's ¥20 is not atlas's. "这个月一共花了多少" stays December.
func TestSpendToDateInWords(t *testing.T) {
	b := financeBot(t)
	for _, e := range []string{
		"/gpu spend add 40h H100 @aws $1200 project=atlas date=2026-10-05",
		"/gpu spend add 50h H100 @aws $3000 project=atlas date=2026-11-05",
		"/gpu spend add 10h H100 @aws $500 project=atlas date=2026-12-01",
		"/gpu spend add 10h 4090 @autodl ¥20 project=vision date=2026-12-01",
	} {
		if a := financeSay(t, b, e); !strings.HasPrefix(a.Text, "Saved") {
			t.Fatalf("%q not saved:\n%s", e, a.Text)
		}
	}
	q := "how much has atlas spent so far?"
	a := financeSay(t, b, q)
	wantAll(t, q, a, "Spent to date (all time, 2026-10-05 → 2026-12-02", "$4,700.00", "100 GPU-hours, 3 entries", "This month (2026-12): $500.00")
	if r, ok := a.Result.(bot.SpendToDate); !ok || r.Total.Amount[knowledge.USD] != 470000 {
		t.Errorf("%q: result %#v, want SpendToDate with $4,700.00 (470000 cents)", q, a.Result)
	}
	q = "atlas 到目前为止一共花了多少"
	a = financeSay(t, b, q)
	wantAll(t, q, a, "到目前为止累计（全部记录，2026-10-05 → 2026-12-02", "$4,700.00", "100 卡时，3 条记录", "本月（2026-12）：$500.00")
	q = "how much have we spent on atlas to date?"
	wantAll(t, q, financeSay(t, b, q), "$4,700.00")
	for _, q := range []string{"这个月一共花了多少", "how much did atlas spend in November in total?"} {
		if a := financeSay(t, b, q); strings.Contains(a.Text, "to date") || strings.Contains(a.Text, "累计") {
			t.Errorf("%q names a month: no all-time line, got\n%s", q, a.Text)
		}
	}
}

// Alerts above 100 % are over-spend alerts: "alert me at 180% of the
// budget" goes on the one budget there is (orion ¥80,000 a month):
// 80,000 × 180 ÷ 100 = ¥144,000 spent, 144,000 − 80,000 = ¥64,000 over;
// 120 %: 80,000 × 1.2 = ¥96,000, ¥16,000 over. 0 % and 2000 % are
// refused with the accepted form.
func TestOverSpendAlertsInWords(t *testing.T) {
	b := financeBot(t)
	q := "alert me at 180% of the budget"
	wantAll(t, q, financeSay(t, b, q), "the team has no budget to alert on", "/gpu budget set $5000 alerts=180")
	financeSay(t, b, "set orion budget to ¥80,000 per month")
	wantAll(t, q, financeSay(t, b, q), "Alerts set: orion's budget (¥80,000.00 a month) alerts at 180 %", "180 % = ¥144,000.00 spent, ¥64,000.00 over")
	q = "预算用到120%时提醒我"
	wantAll(t, q, financeSay(t, b, q), "在 120% 时提醒", "120% = 已花 ¥96,000.00，超出 ¥16,000.00")
	q = "alert me when orion hits 80% and 150% of budget"
	wantAll(t, q, financeSay(t, b, q), "alerts at 80, 150 %", "150 % = ¥120,000.00 spent, ¥40,000.00 over")
	for _, c := range []struct{ q, bad string }{{"alert me at 0% of the budget", "0%"}, {"alert me at 2000% of the budget", "2000%"}} {
		a := financeSay(t, b, c.q)
		wantAll(t, c.q, a, c.bad+" is not an alert threshold", "from 1 to 1000", "alerts=80,100,150")
	}
	q = "预算到0%提醒我"
	wantAll(t, q, financeSay(t, b, q), "0% 不是可用的提醒阈值", "1 到 1000", "预算用到80%和150%时提醒我")
}

// "are we over budget?" on 2 December with nothing booked for December:
// not over this month, and November's result against the budget:
// ¥90,000 spent of ¥80,000 is ¥10,000 over, 90,000 ÷ 80,000 = 112.5 %.
// A budget of ¥100,000 is ¥10,000 under (90 %).
func TestOverBudgetOnAnEmptyMonth(t *testing.T) {
	b := financeBot(t)
	financeSay(t, b, "/gpu spend add invoice ¥90000 h100 @aliyun project=orion date=2026-11-05")
	financeSay(t, b, "set orion budget to ¥80,000 per month")
	q := "are we over budget?"
	wantAll(t, q, financeSay(t, b, q), "Nothing booked for 2026-12 yet, so not over (¥0.00 of ¥80,000.00).",
		"Last month, 2026-11: over budget by ¥10,000.00 (¥90,000.00 spent of ¥80,000.00, 112.5%).")
	q = "超预算了吗？"
	wantAll(t, q, financeSay(t, b, q), "2026-12 还没有任何记账", "上个月 2026-11：超预算 ¥10,000.00（花了 ¥90,000.00，预算 ¥80,000.00，112.5%）")
	financeSay(t, b, "set orion budget to ¥100,000 per month")
	q = "are we over budget?"
	wantAll(t, q, financeSay(t, b, q), "Last month, 2026-11: within budget, ¥10,000.00 under (¥90,000.00 spent of ¥100,000.00, 90%).")
	// a month said is that month, as before: no empty-month line
	q = "上个月超预算了吗"
	if a := financeSay(t, b, q); strings.Contains(a.Text, "还没有任何记账") {
		t.Errorf("%q: %s", q, a.Text)
	}
}

// A budget figure said in the question is the one checked: "we have
// ¥85,000 for orion this month" against the ledger, with the stored
// ¥80,000 named apart. December is empty, so November against ¥85,000:
// 90,000 − 85,000 = ¥5,000 over, 90,000 ÷ 85,000 = 105.88 %. Then
// ¥86,000 booked for December: 86,000 − 85,000 = ¥1,000 over.
func TestStatedBudgetIsTheOneChecked(t *testing.T) {
	b := financeBot(t)
	financeSay(t, b, "/gpu spend add invoice ¥90000 h100 @aliyun project=orion date=2026-11-05")
	financeSay(t, b, "set orion budget to ¥80,000 per month")
	q := "we have ¥85,000 for orion this month — are we over?"
	a := financeSay(t, b, q)
	wantAll(t, q, a, "Not over: the ¥85,000.00 you were given for 2026-12 for orion, ¥85,000.00 left",
		"Nothing booked for 2026-12 yet. Last month, 2026-11: over by ¥5,000.00 (¥90,000.00 spent against ¥85,000.00, 105.88%).",
		"Checked against the ¥85,000.00 you stated; the stored budget for this is ¥80,000.00")
	q = "我们这个月orion有8.5万预算，超了吗？"
	wantAll(t, q, financeSay(t, b, q), "2026-12 orion 的 ¥85,000.00", "上个月 2026-11：超出 ¥5,000.00", "按你说的 ¥85,000.00 核对；系统里存的预算是 ¥80,000.00")
	financeSay(t, b, "/gpu spend add invoice ¥86000 h100 @aliyun project=orion date=2026-12-01")
	q = "we have ¥85,000 for orion this month — are we over?"
	a = financeSay(t, b, q)
	wantAll(t, q, a, "Over budget: the ¥85,000.00 you were given for 2026-12 for orion, over by ¥1,000.00")
	if c, ok := a.Result.(ledger.Check); !ok || c.Budget.Minor != 8500000 || c.Spent.Minor != 8600000 || !c.Over {
		t.Errorf("%q: result %#v, want ¥85,000 budget, ¥86,000 spent, over", q, a.Result)
	}
	// the stored figure said: nothing to name apart
	q = "we have ¥80,000 for orion this month — are we over?"
	if a := financeSay(t, b, q); strings.Contains(a.Text, "stored budget") {
		t.Errorf("%q: the stated figure is the stored one:\n%s", q, a.Text)
	}
}

// "did we exceed the Q3 budget?" is a budget question about Q3 (it was
// read as a cost question): ¥12,000 booked in September against ¥100,000
// a quarter is 12 %, within. "what did we spend per project last month?"
// is November for every project ("last" is no project): ¥5,000.
func TestQuarterExceededAndPerProject(t *testing.T) {
	b := financeBot(t)
	financeSay(t, b, "/gpu spend add invoice ¥12000 a100 @autodl project=atlas date=2026-09-12")
	financeSay(t, b, "/gpu spend add invoice ¥5000 a100 @autodl project=atlas date=2026-11-12")
	financeSay(t, b, "set a budget of ¥100,000 a quarter")
	for _, q := range []string{"did we exceed the Q3 budget?", "were we over budget in Q3?"} {
		a := financeSay(t, b, q)
		wantAll(t, q, a, "Within budget: ¥12,000.00 spent of ¥100,000.00 for 2026-Q3 (12%).")
		if a.Intent != parse.Budget {
			t.Errorf("%q: intent %s, want budget", q, a.Intent)
		}
	}
	q := "Q3超出预算了吗"
	wantAll(t, q, financeSay(t, b, q), "没超：2026-Q3 花了 ¥12,000.00，预算 ¥100,000.00（12%）。")
	q = "what did we spend per project last month?"
	a := financeSay(t, b, q)
	wantAll(t, q, a, "GPU spend 2026-11: ¥5,000.00")
	if strings.Contains(a.Text, "project=last") {
		t.Errorf("%q: \"last\" read as a project:\n%s", q, a.Text)
	}
}

// Two platforms "一共" with no month: both over the whole span. By hand:
// AutoDL ¥12,000 (2026-09-12) + 火山引擎 ¥5,000 (2026-11-12) = ¥17,000;
// AutoDL's share 12,000 ÷ 17,000 = 70.6 % → 71 %.
func TestPlatformsToDate(t *testing.T) {
	b := financeBot(t)
	financeSay(t, b, "/gpu spend add invoice ¥12000 a100 @autodl project=atlas date=2026-09-12")
	financeSay(t, b, "/gpu spend add invoice ¥5000 h100 @volcengine project=atlas date=2026-11-12")
	q := "在火山引擎和AutoDL上一共花了多少？"
	a := financeSay(t, b, q)
	head, _, _ := strings.Cut(a.Text, "\n")
	if !strings.HasPrefix(head, "2026-09-12 → 2026-12-02 在 火山引擎、AutoDL") || !strings.Contains(head, "一共花了 ¥17,000.00") || !strings.Contains(head, "¥12,000.00（71%）") {
		t.Errorf("%q: headline %q", q, head)
	}
	wantAll(t, q, a, "到目前为止累计（全部记录，2026-09-12 → 2026-12-02", "本月（2026-12）：0")
}
