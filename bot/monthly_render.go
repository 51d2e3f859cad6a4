package bot

import (
	"fmt"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

func renderMonthly(lang string, r advisor.MonthlyResult, as map[string]any, notes []string) present.Doc {
	cur := string(r.Currency)
	gpu := gpuName(r.Inputs.GPU)
	be, hours := fmtNum(r.BreakevenHoursPerMonth), fmtNum(r.Inputs.HoursPerMonth)
	var d present.Doc
	// The committed option is a monthly plan, or a reserved term where the
	// platform sells no plan.
	planEN, planZH, take := "a monthly plan", "包月", tr(lang, "take the plan", "包月更省")
	planFig, planFigZH := "monthly plan per card", "包月每卡每月"
	planMonth, planMonthZH := "monthly plan per month", "包月每月"
	if r.PlanIsTerm && r.Reserved != nil {
		planEN = "a reserved term (" + r.Reserved.TermLabel.EN + ")"
		planZH = "预留（" + r.Reserved.TermLabel.ZH + "）"
		take = tr(lang, "take the reserved term", "预留更省")
		planFig, planFigZH = "reserved per card per month", "预留每卡每月"
		planMonth, planMonthZH = "reserved per month", "预留每月"
	}
	switch {
	case r.BreakevenHoursPerMonth > knowledge.HoursPerMonth && r.Cheaper != "monthly":
		// More hours than a month has: the plan never pays.
		d.Headline = tr(lang,
			fmt.Sprintf("%s: %s never pays off at these prices (break-even %s h > 730 h in a month) — stay on demand (%s/month vs %s/h)", gpu, planEN, be, moneyStr(r.MonthlyPrice, cur), moneyStr(r.Hourly, cur)),
			fmt.Sprintf("%s %s按这些价格永远不划算（打平需 %s 小时，超过每月 730 小时）——继续按需（%s/月，按需 %s/小时）", gpu, planZH, be, moneyStr(r.MonthlyPrice, cur), moneyStr(r.Hourly, cur)))
		if r.Inputs.HoursPerMonth > 0 {
			d.Headline += tr(lang, fmt.Sprintf(", saves %s a month at %s h", moneyStr(r.Saving, cur), hours), fmt.Sprintf("，每月 %s 小时省 %s", hours, moneyStr(r.Saving, cur)))
		}
	case r.Cheaper == "monthly":
		d.Headline = tr(lang,
			fmt.Sprintf("%s: %s pays off above %s h a month — at %s h, %s (saves %s a month, %s%%)", gpu, planEN, be, hours, take, moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100)),
			fmt.Sprintf("%s %s每月用满 %s 小时以上才划算——你每月 %s 小时：%s，每月省 %s（%s%%）", gpu, planZH, be, hours, take, moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100)))
	case r.Cheaper == "on_demand":
		d.Headline = tr(lang,
			fmt.Sprintf("%s: %s pays off above %s h a month — at %s h, stay on demand (saves %s a month, %s%%)", gpu, planEN, be, hours, moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100)),
			fmt.Sprintf("%s %s每月用满 %s 小时以上才划算——你每月 %s 小时：继续按需，每月省 %s（%s%%）", gpu, planZH, be, hours, moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100)))
	default:
		d.Headline = tr(lang,
			fmt.Sprintf("%s: %s pays off above %s h a month (%s/month vs %s/h on demand)", gpu, planEN, be, moneyStr(r.MonthlyPrice, cur), moneyStr(r.Hourly, cur)),
			fmt.Sprintf("%s %s每月用满 %s 小时以上才划算（%s/月，按需 %s/小时）", gpu, planZH, be, moneyStr(r.MonthlyPrice, cur), moneyStr(r.Hourly, cur)))
	}
	if n := r.Inputs.Cards; n > 1 && r.Cheaper != "" {
		// several cards: the month's bill for all of them, both ways
		d.Headline += tr(lang, fmt.Sprintf(" — %d cards: %s a month on demand, %s on %s", n, moneyStr(r.OnDemandCost, cur), moneyStr(r.MonthlyCost, cur), planEN),
			fmt.Sprintf("（%d 张卡：按需每月 %s，%s每月 %s）", n, moneyStr(r.OnDemandCost, cur), planZH, moneyStr(r.MonthlyCost, cur)))
	}
	d.Figures = []present.Figure{
		{Label: tr(lang, "break-even hours/month", "打平小时数/月"), Value: be},
		{Label: tr(lang, "on demand per card-hour", "按需每卡每小时"), Value: moneyStr(r.Hourly, cur)},
		{Label: tr(lang, planFig, planFigZH), Value: moneyStr(r.MonthlyPrice, cur)},
	}
	if r.Cheaper != "" {
		d.Figures = append(d.Figures,
			present.Figure{Label: tr(lang, "on demand per month", "按需每月"), Value: moneyStr(r.OnDemandCost, cur)},
			present.Figure{Label: tr(lang, planMonth, planMonthZH), Value: moneyStr(r.MonthlyCost, cur)})
	}
	if t := r.Reserved; t != nil && !r.PlanIsTerm {
		d.Figures = append(d.Figures,
			present.Figure{Label: tr(lang, "reserved per card-hour ("+t.TermLabel.EN+")", "预留每卡每小时（"+t.TermLabel.ZH+"）"), Value: moneyStr(t.Hourly, cur)},
			present.Figure{Label: tr(lang, "reserved per month", "预留每月"), Value: moneyStr(t.Cost, cur)})
	}
	if t := r.Reserved; t != nil {
		d.Summary = append(d.Summary, termSummary(lang, r, t, cur))
	}
	for _, n := range notes {
		if n != "" {
			d.Summary = append(d.Summary, n)
		}
	}
	d.Summary = append(d.Summary, tr(lang,
		"Rule of thumb from the guides: a plan pays above ≈150 h a month; these prices put it at "+be+" h.",
		"经验值：每月约 150 小时以上包月划算；按这些价格算是 "+be+" 小时。"))
	d.Assumed = assumedPairs(as)
	card := r.Inputs.GPU
	if g, ok := as["gpu"].(string); ok && g != "" {
		card = g
	}
	_, fromLedger := as["hours_per_month"]
	switch {
	case r.Cheaper == "":
		d.Next = tr(lang, "give your hours for a verdict: ", "告诉我每月用多少小时，就能给出结论：") + fmt.Sprintf("/gpu monthly %s 200h", card)
	case fromLedger:
		d.Next = tr(lang, "hours taken from your ledger; give your own to check: ", "小时数取自记账；可自己指定：") + fmt.Sprintf("/gpu monthly %s 200h", card)
	default:
		d.Next = tr(lang, "buying instead? ", "考虑自购？") + fmt.Sprintf("/gpu buy %s util=%s%%", card, fmtNum(min(r.Inputs.HoursPerMonth/730, 1)*100))
	}
	var wk working
	wk.result(lang, r.Lines, r.Assumptions, r.Sources)
	wk.strings(present.StepNote, notes...)
	wk.strings(present.StepNote, tr(lang,
		"Rule of thumb from the guides: a monthly plan tends to pay off above about 150 h a month, typically 20–30% cheaper than on demand — the break-even above is computed from these prices.",
		"经验值（参考）：每月用满约 150 小时以上包月通常更划算，一般比按需便宜 20–30%；上面的打平点是按这些价格算出来的。"))
	wk.strings(present.StepNote, confirmNote(lang, r.Sources))
	d.Working = wk
	return d
}

// termSummary says what the reserved term costs and, with hours, which
// option is cheapest.
func termSummary(lang string, r advisor.MonthlyResult, t *advisor.TermOption, cur string) string {
	s := tr(lang,
		fmt.Sprintf("Reserved on %s (%s, observed %s): %s/card-h, billed every hour, so %s a card per month whatever the use; it beats on demand above %s h a month.",
			platformName(lang, t.Platform), t.TermLabel.EN, t.ObservedAt, moneyStr(t.Hourly, cur), moneyStr(t.MonthlyBill, cur), fmtNum(t.BreakevenHoursPerMonth)),
		fmt.Sprintf("%s 预留价（%s，%s 观测）：每卡每小时 %s，每小时都计费，所以每卡每月 %s，用多少都一样；每月超过 %s 小时才比按需划算。",
			platformName(lang, t.Platform), t.TermLabel.ZH, t.ObservedAt, moneyStr(t.Hourly, cur), moneyStr(t.MonthlyBill, cur), fmtNum(t.BreakevenHoursPerMonth)))
	if r.Best == "" || r.PlanIsTerm {
		return s
	}
	best := map[string][2]string{"on_demand": {"on demand", "按需"}, "monthly": {"the monthly plan", "包月"}, "reserved": {"the reserved term", "预留"}}[r.Best]
	return s + " " + tr(lang,
		fmt.Sprintf("At %s h: on demand %s, monthly plan %s, reserved %s — %s is cheapest.", fmtNum(r.Inputs.HoursPerMonth), moneyStr(r.OnDemandCost, cur), moneyStr(r.MonthlyCost, cur), moneyStr(t.Cost, cur), best[0]),
		fmt.Sprintf("每月 %s 小时：按需 %s，包月 %s，预留 %s——%s最便宜。", fmtNum(r.Inputs.HoursPerMonth), moneyStr(r.OnDemandCost, cur), moneyStr(r.MonthlyCost, cur), moneyStr(t.Cost, cur), best[1]))
}
