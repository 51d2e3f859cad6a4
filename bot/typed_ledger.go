package bot

import (
	"regexp"
	"strings"

	"github.com/gpubot/gpubot/bot/ledger"
)

// Typed answers for the ledger's answers: a budget check, a budget's
// state, a spend report. A yes/no about a budget is asked two ways —
// "超了吗 / are we over" and "够不够 / is it enough, on track" — and the
// verdict answers the way it was asked.

// BudgetStatus is a budget answer that knows whether a budget is over (the
// budget package's states implement it; bot cannot import that package).
type BudgetStatus interface {
	BudgetStatus() (spent float64, currency string, over, projected, ok bool)
}

// BudgetProjection is a budget answer that knows where its period lands
// at the current rate (the budget package's states implement it).
type BudgetProjection interface {
	BudgetProjection() (projected float64, currency string, ok bool)
}

// reEnoughAsked are the words of "is it enough": a yes means not over.
var reEnoughAsked = regexp.MustCompile(`够|还剩|剩下|能不能|enough|headroom|on track|room|afford|left`)

// reForecastAsked are the words of a question about where a budget lands.
var reForecastAsked = regexp.MustCompile(`会不会|照这个速度|按这个速度|预计|将会|will|going to|on track|pace|land|run rate|forecast|projected`)

// overVerdict is the verdict on a budget question whose answer is over.
func overVerdict(question string, over bool) *string {
	if reEnoughAsked.MatchString(strings.ToLower(question)) {
		return verdict(!over)
	}
	return verdict(over)
}

// ledgerFigures are a ledger answer's figures, its headline's figure, and
// its verdict.
func ledgerFigures(r any, question string) ([]typedFigure, *string, string) {
	if p, ok := r.(*ledger.Report); ok && p != nil {
		r = *p // the spend handler answers with the ledger's *Report
	}
	switch res := r.(type) {
	case ledger.Check:
		c := string(res.Budget.Currency)
		return []typedFigure{
			{asked: "budget", value: res.Left.Float(), unit: "left", currency: c},
			{asked: "money_total", value: res.Spent.Float(), currency: c},
		}, overVerdict(question, res.Over), "budget"
	case ledger.Report:
		var figs []typedFigure
		total, cur := reportTotal(res.Total)
		figs = append(figs, typedFigure{asked: "spend", value: total, currency: cur}, typedFigure{asked: "money_total", value: total, currency: cur})
		if len(res.ByPlatform) >= 2 {
			top, _ := reportTotal(res.ByPlatform[0].Totals)
			figs = append(figs, typedFigure{asked: "which", value: top, currency: cur, choice: res.ByPlatform[0].Key})
		}
		figs = append(figs, typedFigure{asked: "gpu_hours", value: res.Total.CardHours, unit: "GPU-h"})
		prev, _ := reportTotal(res.Prev)
		return figs, verdict(total > prev), "spend" // "比9月涨了没有": up on the period before
	case SpendToDate:
		// "how much so far": the whole span leads, this month after it
		total, cur := reportTotal(res.Total)
		month, _ := reportTotal(res.ThisMonth)
		return []typedFigure{
			{asked: "spend", value: total, currency: cur},
			{asked: "money_total", value: total, currency: cur},
			{asked: "spend", value: month, unit: "this month", currency: cur},
			{asked: "gpu_hours", value: res.Total.CardHours, unit: "GPU-h"},
		}, nil, "spend"
	case SpendCommitments:
		// the plans held, what they cost a month amortised (when all are in
		// one currency), and the card-hours paid for but not used
		figs := []typedFigure{{asked: "commitments", value: float64(len(res.Commitments)), unit: "commitments"}}
		cur, monthly, idle, known := "", 0.0, 0.0, false
		for i, c := range res.Commitments {
			if i == 0 {
				cur = string(c.PerMonth.Currency)
			}
			if string(c.PerMonth.Currency) != cur {
				cur = "" // mixed currencies: no one monthly figure
			}
			monthly += c.PerMonth.Float()
			if c.UsageKnown {
				idle, known = idle+c.Idle, true
			}
		}
		if cur != "" {
			figs = append(figs, typedFigure{asked: "money_monthly", value: monthly, unit: "month", currency: cur})
		}
		if known {
			figs = append(figs, typedFigure{asked: "gpu_hours", value: idle, unit: "idle card-hours"})
		}
		return figs, nil, "commitments"
	case BudgetStatus:
		spent, cur, over, projected, ok := res.BudgetStatus()
		if !ok {
			return nil, nil, ""
		}
		if reForecastAsked.MatchString(strings.ToLower(question)) {
			over = projected // "照这个速度会不会超", "on track?": the forecast
			if pr, ok := r.(BudgetProjection); ok {
				if v, c, ok := pr.BudgetProjection(); ok {
					// "where do we land this quarter?": the period's projected
					// total leads, what is spent so far after it
					return []typedFigure{{asked: "money_total", value: v, unit: "projected", currency: c}, {asked: "budget", value: spent, unit: "spent", currency: cur}},
						overVerdict(question, over), "money_total"
				}
			}
		}
		return []typedFigure{{asked: "budget", value: spent, unit: "spent", currency: cur}, {asked: "money_total", value: spent, currency: cur}}, overVerdict(question, over), "budget"
	}
	return nil, nil, ""
}

// reportTotal is a report's total in one currency: the converted total when
// the team's FX covered every currency, else the first currency's.
func reportTotal(t ledger.Totals) (float64, string) {
	if t.Converted != nil {
		return t.Converted.Float(), string(t.Converted.Currency)
	}
	for _, c := range t.Amount.Currencies() {
		return t.Amount.Money(c).Float(), string(c)
	}
	return 0, ""
}
