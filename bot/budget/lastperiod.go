package budget

import (
	"context"
	"fmt"
	"time"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/present"
)

// Previous is b's state as its period before the one holding now closed:
// "are we over budget?" on 2 December, with nothing booked for December
// yet, is most likely about November.
func (a *Alerts) Previous(ctx context.Context, b Budget, now time.Time, fx float64) (State, error) {
	_, from, _, _ := b.PeriodOf(now, a.ledger.Location())
	return a.State(ctx, b, from.Add(-time.Nanosecond), fx)
}

// emptyVerdict answers "are we over?" when the budget's period has nothing
// booked yet: this period is empty, so not over, and last period's result
// (over or under, by how much), which is what the asker most likely wants.
func emptyVerdict(cur, prev State, lang string) string {
	now := present.Tr(lang, fmt.Sprintf("Nothing booked for %s yet, so not over (%s of %s).", cur.Period, cur.Spent, cur.Budget.Amount),
		fmt.Sprintf("%s 还没有任何记账，所以没超（%s / %s）。", cur.Period, cur.Spent, cur.Budget.Amount))
	return now + present.Tr(lang, " ", "") + previousResult(prev, lang) + "\n"
}

// previousResult is last period's result against the budget as it closed:
// "Last month, 2026-11: over budget by ¥10,000.00 (¥90,000.00 spent of
// ¥80,000.00, 113%)."
func previousResult(prev State, lang string) string {
	last := map[string][2]string{Month: {"Last month", "上个月"}, Quarter: {"Last quarter", "上季度"}, Year: {"Last year", "去年"}}[prev.Budget.Period]
	diff := ledger.Money{Minor: prev.Spent.Minor - prev.Budget.Amount.Minor, Currency: prev.Budget.Amount.Currency}
	pct := present.Pct(prev.Share)
	if diff.Minor > 0 {
		return present.Tr(lang, fmt.Sprintf("%s, %s: over budget by %s (%s spent of %s, %s).", last[0], prev.Period, diff, prev.Spent, prev.Budget.Amount, pct),
			fmt.Sprintf("%s %s：超预算 %s（花了 %s，预算 %s，%s）。", last[1], prev.Period, diff, prev.Spent, prev.Budget.Amount, pct))
	}
	under := ledger.Money{Minor: -diff.Minor, Currency: diff.Currency}
	return present.Tr(lang, fmt.Sprintf("%s, %s: within budget, %s under (%s spent of %s, %s).", last[0], prev.Period, under, prev.Spent, prev.Budget.Amount, pct),
		fmt.Sprintf("%s %s：没超，比预算少花 %s（花了 %s，预算 %s，%s）。", last[1], prev.Period, under, prev.Spent, prev.Budget.Amount, pct))
}

// StoredFunc is the budget stored for a scope, for a spend question that
// states its own budget ("we have ¥85,000 for orion this month — are we
// over?"): the answer uses the figure said and names the stored one when
// it differs (bot.Spend.UseStoredBudget). The scope is a project, else a
// team or cost centre, else the whole team; months is the period's length
// (1, 3, 12), and only a budget of that period is returned.
func (a *Alerts) StoredFunc() func(ctx context.Context, team, project, costCenter string, months int) (ledger.Money, bool) {
	return func(ctx context.Context, team, project, costCenter string, months int) (ledger.Money, bool) {
		want := Team
		switch {
		case project != "":
			want = ledger.FoldName(project)
		case costCenter != "":
			want = TeamScope + ledger.FoldName(costCenter)
		}
		bs, err := a.st.List(ctx, team)
		if err != nil {
			return ledger.Money{}, false // the answer stands on the figure said
		}
		for _, b := range bs {
			if b.Project == want && map[string]int{Month: 1, Quarter: 3, Year: 12}[b.Period] == months {
				return b.Amount, true
			}
		}
		return ledger.Money{}, false
	}
}
