package bot

import (
	"fmt"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
)

func renderMonthly(lang string, r advisor.MonthlyResult, as map[string]any, notes []string) present.Doc {
	cur := string(r.Currency)
	gpu := gpuName(r.Inputs.GPU)
	be, hours := fmtNum(r.BreakevenHoursPerMonth), fmtNum(r.Inputs.HoursPerMonth)
	var d present.Doc
	switch r.Cheaper {
	case "monthly":
		d.Headline = tr(lang,
			fmt.Sprintf("%s: a monthly plan pays off above %s h a month — at %s h, take the plan (saves %s a month, %s%%)", gpu, be, hours, moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100)),
			fmt.Sprintf("%s 包月每月用满 %s 小时以上才划算——你每月 %s 小时：包月更省，每月省 %s（%s%%）", gpu, be, hours, moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100)))
	case "on_demand":
		d.Headline = tr(lang,
			fmt.Sprintf("%s: a monthly plan pays off above %s h a month — at %s h, stay on demand (saves %s a month, %s%%)", gpu, be, hours, moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100)),
			fmt.Sprintf("%s 包月每月用满 %s 小时以上才划算——你每月 %s 小时：继续按需，每月省 %s（%s%%）", gpu, be, hours, moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100)))
	default:
		d.Headline = tr(lang,
			fmt.Sprintf("%s: a monthly plan pays off above %s h a month (plan %s/month vs %s/h on demand)", gpu, be, moneyStr(r.MonthlyPrice, cur), moneyStr(r.Hourly, cur)),
			fmt.Sprintf("%s 包月每月用满 %s 小时以上才划算（包月 %s/月，按需 %s/小时）", gpu, be, moneyStr(r.MonthlyPrice, cur), moneyStr(r.Hourly, cur)))
	}
	d.Figures = []present.Figure{
		{Label: tr(lang, "break-even hours/month", "打平小时数/月"), Value: be},
		{Label: tr(lang, "on demand per card-hour", "按需每卡每小时"), Value: moneyStr(r.Hourly, cur)},
		{Label: tr(lang, "monthly plan per card", "包月每卡每月"), Value: moneyStr(r.MonthlyPrice, cur)},
	}
	if r.Cheaper != "" {
		d.Figures = append(d.Figures,
			present.Figure{Label: tr(lang, "on demand per month", "按需每月"), Value: moneyStr(r.OnDemandCost, cur)},
			present.Figure{Label: tr(lang, "monthly plan per month", "包月每月"), Value: moneyStr(r.MonthlyCost, cur)})
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
