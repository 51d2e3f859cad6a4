package bot

import (
	"context"
	"fmt"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/present"
)

// UseStoredBudget lets a budget question that states its own figure
// ("we have ¥85,000 for orion this month — are we over?") name the stored
// budget of the same scope and period when it differs: f returns it
// (budget.Alerts.StoredFunc in production).
func (s *Spend) UseStoredBudget(f func(ctx context.Context, team, project, costCenter string, months int) (ledger.Money, bool)) {
	s.storedBudget = f
}

// storedNote names the stored budget beside the figure the question
// stated, when the two differ: the check was against the stated one.
func (s *Spend) storedNote(ctx context.Context, team, project, costCenter string, p ledger.Period, stated ledger.Money, lang string) string {
	if s.storedBudget == nil {
		return ""
	}
	stored, ok := s.storedBudget(ctx, team, project, costCenter, p.Months)
	if !ok || stored == stated {
		return ""
	}
	return "\n" + tr(lang,
		fmt.Sprintf("Checked against the %s you stated; the stored budget for this is %s (/gpu budget).", stated, stored),
		fmt.Sprintf("按你说的 %s 核对；系统里存的预算是 %s（/gpu budget）。", stated, stored))
}

// emptyPeriodNote answers a stated-budget check when the period has
// nothing booked yet: the period before against the same figure, which
// is most likely what the asker wants ("are we over?" on the 2nd).
func emptyPeriodNote(lang string, p ledger.Period, c ledger.Check) string {
	before := map[int][2]string{1: {"Last month", "上个月"}, 3: {"Last quarter", "上季度"}, 12: {"Last year", "去年"}}[p.Months]
	if c.Over {
		return "\n" + tr(lang,
			fmt.Sprintf("Nothing booked for %s yet. %s, %s: over by %s (%s spent against %s, %s).", p.Label, before[0], p.Prev().Label, leftOver(c), c.Spent, c.Budget, pctOf(c)),
			fmt.Sprintf("%s 还没有记账。%s %s：超出 %s（花了 %s，对比 %s，%s）。", p.Label, before[1], p.Prev().Label, leftOver(c), c.Spent, c.Budget, pctOf(c)))
	}
	return "\n" + tr(lang,
		fmt.Sprintf("Nothing booked for %s yet. %s, %s: within it, %s under (%s spent against %s, %s).", p.Label, before[0], p.Prev().Label, c.Left, c.Spent, c.Budget, pctOf(c)),
		fmt.Sprintf("%s 还没有记账。%s %s：没超，少花 %s（花了 %s，对比 %s，%s）。", p.Label, before[1], p.Prev().Label, c.Left, c.Spent, c.Budget, pctOf(c)))
}

func leftOver(c ledger.Check) ledger.Money {
	return ledger.Money{Minor: -c.Left.Minor, Currency: c.Left.Currency}
}

func pctOf(c ledger.Check) string { return present.Pct(c.Share) }
