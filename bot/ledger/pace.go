package ledger

import (
	"fmt"
	"math"
)

// Pace units: what Pace.Elapsed and Pace.Total count.
const (
	PaceDays   = "days"
	PaceMonths = "months"
	PaceShare  = "" // a share of the period said as a fraction ("two thirds through")
)

// Pace is a budget's period projected from what was spent in the part of
// it that has run, at the same pace: the figures a user stated ("$47k of
// $120k by Jan 31 — on track?"), with the steps that reach the verdict.
type Pace struct {
	Budget Money `json:"budget"`
	Spent  Money `json:"spent"`
	// Elapsed of Total Unit have run (31 of 90 days, 9 of 12 months, 2 of
	// 3 thirds); Share is Elapsed ÷ Total.
	Elapsed float64 `json:"elapsed"`
	Total   float64 `json:"total"`
	Unit    string  `json:"unit,omitempty"`
	Share   float64 `json:"share"`
	// Projected = Spent × Total ÷ Elapsed: the period's spend at this pace.
	Projected Money `json:"projected"`
	// Gap = Projected − Budget: over by it when positive, under when not.
	Gap  Money `json:"gap"`
	Over bool  `json:"over"` // Projected > Budget
	// RunRate is Spent ÷ Elapsed, a day or a month (zero for a share).
	RunRate Money `json:"run_rate,omitzero"`
	// Allowed is what the rest of the period may run at, a day or a
	// month, to land on Budget: (Budget − Spent) ÷ (Total − Elapsed) (zero
	// for a share, when the period is over or the budget already spent).
	Allowed Money  `json:"allowed,omitzero"`
	How     string `json:"how"`
}

// ProjectPace projects spent over elapsed of total units to the whole
// period and weighs it against budget (same currency). By hand: $47,000 in
// 31 of 90 days → $47,000 × 90 ÷ 31 = $136,451.61, $16,451.61 over a
// $120,000 budget; run rate $47,000 ÷ 31 = $1,516.13 a day.
func ProjectPace(budget, spent Money, elapsed, total float64, unit string) (Pace, error) {
	switch {
	case budget.Currency != spent.Currency:
		return Pace{}, inputErr("currency", "the budget is in %s and the spend in %s; give both in one currency", budget.Currency, spent.Currency)
	case budget.Minor <= 0 || spent.Minor < 0:
		return Pace{}, inputErr("figures", "need a budget above zero and what is spent")
	case !(elapsed > 0) || !(total > 0) || elapsed > total:
		return Pace{}, inputErr("period", "read %s of %s %s gone; the time gone must be more than none and no more than the period", fmtNum(elapsed), fmtNum(total), unitWord(unit))
	}
	p := Pace{Budget: budget, Spent: spent, Elapsed: elapsed, Total: total, Unit: unit, Share: elapsed / total}
	// the figures' own ratio (total ÷ elapsed), not a rounded share: 2/3
	// of the way is × 3 ÷ 2 exactly
	p.Projected = Money{Minor: int64(math.Round(float64(spent.Minor) * total / elapsed)), Currency: budget.Currency}
	p.Gap = Money{Minor: p.Projected.Minor - budget.Minor, Currency: budget.Currency}
	p.Over = p.Gap.Minor > 0
	per := ""
	if unit != PaceShare {
		per = map[string]string{PaceDays: "day", PaceMonths: "month"}[unit]
		p.RunRate = Money{Minor: int64(math.Round(float64(spent.Minor) / elapsed)), Currency: budget.Currency}
		if left, room := total-elapsed, budget.Minor-spent.Minor; left > 0 && room > 0 {
			p.Allowed = Money{Minor: int64(math.Round(float64(room) / left)), Currency: budget.Currency}
		}
	}
	gap := fmt.Sprintf("%s − %s = %s over", p.Projected, budget, p.Gap)
	if !p.Over {
		gap = fmt.Sprintf("%s − %s = %s under", budget, p.Projected, Money{Minor: -p.Gap.Minor, Currency: budget.Currency})
	}
	if unit == PaceShare {
		p.How = fmt.Sprintf("%s ÷ %s/%s of the period = %s; %s", spent, fmtNum(elapsed), fmtNum(total), p.Projected, gap)
	} else {
		p.How = fmt.Sprintf("%s in %s of %s %s → %s × %s ÷ %s = %s (%s a %s); %s", spent, fmtNum(elapsed), fmtNum(total), unit,
			spent, fmtNum(total), fmtNum(elapsed), p.Projected, p.RunRate, per, gap)
	}
	return p, nil
}

func unitWord(unit string) string {
	if unit == PaceShare {
		return "parts"
	}
	return unit
}
