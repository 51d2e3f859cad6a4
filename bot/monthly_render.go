package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

func renderMonthly(lang string, r advisor.MonthlyResult, as map[string]any, notes []string) present.Doc {
	if r.PlanMissing {
		return renderOnDemandOnly(lang, r, as, notes)
	}
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
	src := "" // whose plan and on-demand price are weighed, when one platform's
	if r.PlanPlatform != "" && r.PlanPlatform == r.HourlyPlatform {
		src = platformName(lang, r.PlanPlatform) + " "
	}
	switch {
	case r.BreakevenHoursPerMonth > knowledge.HoursPerMonth && r.Cheaper != "monthly":
		// More hours than a month has: the plan never pays.
		d.Headline = tr(lang,
			fmt.Sprintf("%s: %s never pays off at these prices (break-even %s h > 730 h in a month) — stay on demand (%splan %s per card-month vs on demand %s per card-hour)", gpu, planEN, be, src, moneyStr(r.MonthlyPrice, cur), moneyStr(r.Hourly, cur)),
			fmt.Sprintf("%s %s按这些价格永远不划算（打平需 %s 小时，超过每月 730 小时）——继续按需（%s%s每卡每月 %s，按需每卡每小时 %s）", gpu, planZH, be, src, planZH, moneyStr(r.MonthlyPrice, cur), moneyStr(r.Hourly, cur)))
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
			fmt.Sprintf("%s: %s pays off above %s h a month (%splan %s per card-month vs on demand %s per card-hour)", gpu, planEN, be, src, moneyStr(r.MonthlyPrice, cur), moneyStr(r.Hourly, cur)),
			fmt.Sprintf("%s %s每月用满 %s 小时以上才划算（%s%s每卡每月 %s，按需每卡每小时 %s）", gpu, planZH, be, src, planZH, moneyStr(r.MonthlyPrice, cur), moneyStr(r.Hourly, cur)))
	}
	if hi := r.High; hi != nil && hi.Cheaper != "" {
		// a range of use: both ends, and which way to buy
		d.Headline = rangeHeadline(lang, r, gpu, planEN, planZH)
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
	if hi := r.High; hi != nil {
		d.Figures = append(d.Figures, present.Figure{Label: tr(lang, "on demand per month at "+fmtNum(hi.HoursPerMonth)+" h", "每月 "+fmtNum(hi.HoursPerMonth)+" 小时按需每月"), Value: moneyStr(hi.OnDemandCost, cur)})
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

// rangeHeadline weighs a plan at both ends of a range of monthly use: each
// end's two bills, the break-even, and which way to buy.
func rangeHeadline(lang string, r advisor.MonthlyResult, gpu, planEN, planZH string) string {
	cur, hi := string(r.Currency), r.High
	lo, be := fmtNum(r.Inputs.HoursPerMonth), fmtNum(r.BreakevenHoursPerMonth)
	end := func(h string, onDemand, plan float64, cheaper string, saving float64) string {
		if cheaper == "monthly" {
			return tr(lang,
				fmt.Sprintf("at %s h on demand %s > plan %s (the plan saves %s)", h, moneyStr(onDemand, cur), moneyStr(plan, cur), moneyStr(saving, cur)),
				fmt.Sprintf("%s 小时：按需 %s > %s %s（%s省 %s）", h, moneyStr(onDemand, cur), planZH, moneyStr(plan, cur), planZH, moneyStr(saving, cur)))
		}
		return tr(lang,
			fmt.Sprintf("at %s h on demand %s < plan %s (on demand saves %s)", h, moneyStr(onDemand, cur), moneyStr(plan, cur), moneyStr(saving, cur)),
			fmt.Sprintf("%s 小时：按需 %s < %s %s（按需省 %s）", h, moneyStr(onDemand, cur), planZH, moneyStr(plan, cur), moneyStr(saving, cur)))
	}
	both := end(lo, r.OnDemandCost, r.MonthlyCost, r.Cheaper, r.Saving) + tr(lang, "; ", "；") + end(fmtNum(hi.HoursPerMonth), hi.OnDemandCost, hi.MonthlyCost, hi.Cheaper, hi.Saving)
	var advice string
	switch {
	case r.Cheaper == "monthly" && hi.Cheaper == "monthly":
		advice = tr(lang, "take "+planEN+" either way", "两头都是"+planZH+"更省，选"+planZH)
	case r.Cheaper != "monthly" && hi.Cheaper != "monthly":
		advice = tr(lang, "stay on demand either way", "两头都是按需更省，继续按需")
	default:
		advice = tr(lang, fmt.Sprintf("stay on demand unless most months run above %s h", be), fmt.Sprintf("除非多数月份超过 %s 小时，否则按需更省", be))
	}
	return tr(lang,
		fmt.Sprintf("%s: %s pays off above %s h a month — %s — %s", gpu, planEN, be, both, advice),
		fmt.Sprintf("%s %s每月用满 %s 小时以上才划算——%s——%s", gpu, planZH, be, both, advice))
}

// renderOnDemandOnly answers a monthly question with no plan price known:
// the on-demand month first, then that the plan's price is missing, what a
// plan must cost to pay, and how to give one.
func renderOnDemandOnly(lang string, r advisor.MonthlyResult, as map[string]any, notes []string) present.Doc {
	cur, gpu := string(r.Currency), gpuName(r.Inputs.GPU)
	rate := moneyStr(r.Hourly, cur)
	where := ""
	for _, src := range r.Sources {
		if src.What == "hourly" && !src.Given && src.Platform != "" {
			where = platformName(lang, src.Platform)
		}
	}
	rateEN, rateZH := rate+"/card-hour", rate+"/卡时"
	if where != "" {
		rateEN += ", " + where + "'s on-demand price"
		rateZH += "，" + where + "按需价"
	}
	planEN, planZH := "no monthly plan price is sourced for it", "数据里没有它的包月价"
	if p := r.Inputs.Platform; p != "" {
		planEN = fmt.Sprintf("no monthly plan price is sourced for it on %s or any other platform", platformName(lang, p))
		planZH = fmt.Sprintf("数据里没有它的包月价（%s及其他平台都没有出处）", platformName(lang, p))
	}
	var d present.Doc
	n, h := r.Inputs.Cards, fmtNum(r.BilledHours)
	cardsEN := fmt.Sprintf("%d cards", n)
	if n == 1 {
		cardsEN = "1 card"
	}
	switch {
	case r.Inputs.HoursPerMonth > 0 && r.High != nil:
		d.Headline = tr(lang,
			fmt.Sprintf("%s on demand: %s–%s a month (%s × %s–%s h × %s); %s, so which is cheaper cannot be said yet — a plan pays at %s h only below %s per card-month (break-even hours = plan price ÷ %s); give its price as monthly=",
				gpu, moneyStr(r.OnDemandCost, cur), moneyStr(r.High.OnDemandCost, cur), cardsEN, h, fmtNum(r.High.HoursPerMonth), rateEN, planEN, h, moneyStr(r.PlanPaysBelow, cur), rate),
			fmt.Sprintf("%s 按需每月 %s–%s（%d 张卡 × %s–%s 小时 × %s）；%s，还判断不了哪个划算——每月 %s 小时时包月每卡每月低于 %s 才划算（打平小时数 = 包月价 ÷ %s）；拿到报价请用 monthly= 给出",
				gpu, moneyStr(r.OnDemandCost, cur), moneyStr(r.High.OnDemandCost, cur), n, h, fmtNum(r.High.HoursPerMonth), rateZH, planZH, h, moneyStr(r.PlanPaysBelow, cur), rate))
	case r.Inputs.HoursPerMonth > 0:
		d.Headline = tr(lang,
			fmt.Sprintf("%s on demand: %s a month (%s × %s h × %s); %s, so which is cheaper cannot be said yet — a plan pays at %s h only below %s per card-month (break-even hours = plan price ÷ %s); give its price as monthly=",
				gpu, moneyStr(r.OnDemandCost, cur), cardsEN, h, rateEN, planEN, h, moneyStr(r.PlanPaysBelow, cur), rate),
			fmt.Sprintf("%s 按需每月 %s（%d 张卡 × %s 小时 × %s）；%s，还判断不了哪个划算——每月 %s 小时时包月每卡每月低于 %s 才划算（打平小时数 = 包月价 ÷ %s）；拿到报价请用 monthly= 给出",
				gpu, moneyStr(r.OnDemandCost, cur), n, h, rateZH, planZH, h, moneyStr(r.PlanPaysBelow, cur), rate))
	default:
		d.Headline = tr(lang,
			fmt.Sprintf("%s on demand: %s; %s — break-even hours a month = plan price ÷ %s; give its price as monthly= and your hours for a verdict", gpu, rateEN, planEN, rate),
			fmt.Sprintf("%s 按需 %s；%s——每月打平小时数 = 包月价 ÷ %s；给出包月价 monthly= 和每月小时数即可判断", gpu, rateZH, planZH, rate))
	}
	d.Figures = []present.Figure{{Label: tr(lang, "on demand per card-hour", "按需每卡每小时"), Value: rate}}
	if r.Inputs.HoursPerMonth > 0 {
		d.Figures = append(d.Figures,
			present.Figure{Label: tr(lang, "on demand per month", "按需每月"), Value: moneyStr(r.OnDemandCost, cur)},
			present.Figure{Label: tr(lang, "a plan pays below (per card-month)", "包月低于此价才划算（每卡每月）"), Value: moneyStr(r.PlanPaysBelow, cur)})
	}
	if hi := r.High; hi != nil {
		d.Figures = append(d.Figures, present.Figure{Label: tr(lang, "on demand per month at "+fmtNum(hi.HoursPerMonth)+" h", "每月 "+fmtNum(hi.HoursPerMonth)+" 小时按需每月"), Value: moneyStr(hi.OnDemandCost, cur)})
	}
	for _, n := range notes {
		if n != "" {
			d.Summary = append(d.Summary, n)
		}
	}
	d.Assumed = assumedPairs(as)
	hours := "200"
	if r.Inputs.HoursPerMonth > 0 {
		hours = fmtNum(r.Inputs.HoursPerMonth)
	}
	d.Next = tr(lang, "with the plan's quote: ", "拿到包月报价后：") + fmt.Sprintf("/gpu monthly %s %sh monthly=", r.Inputs.GPU, hours) + tr(lang, "<price per card-month>", "<每卡每月价>")
	var wk working
	wk.result(lang, r.Lines, r.Assumptions, r.Sources)
	wk.strings(present.StepNote, notes...)
	wk.strings(present.StepNote, confirmNote(lang, r.Sources))
	d.Working = wk
	return d
}

// renderPlanPrices lists a card's monthly plan on each platform asked,
// the cheaper and by how much first, and which platforms price none.
func renderPlanPrices(lang string, r advisor.PlanPricesResult, notes []string) present.Doc {
	cur, gpu := string(r.Currency), gpuName(r.GPU)
	var have, missing []string
	for _, p := range r.Plans {
		name := platformName(lang, p.Platform)
		if p.Found {
			have = append(have, tr(lang, name+" "+moneyStr(p.PerCardMonth, cur)+"/card-month", name+" "+moneyStr(p.PerCardMonth, cur)+"/卡/月"))
		} else {
			missing = append(missing, name)
		}
	}
	sep := tr(lang, ", ", "，")
	var d present.Doc
	switch {
	case r.Cheapest != "":
		d.Headline = tr(lang,
			fmt.Sprintf("%s monthly plan: %s is cheaper by %s per card-month (%s) — %s", gpu, platformName(lang, r.Cheapest), moneyStr(r.Difference, cur), present.Pct(r.DifferencePct), strings.Join(have, sep)),
			fmt.Sprintf("%s 包月：%s更便宜，每卡每月便宜 %s（%s）——%s", gpu, platformName(lang, r.Cheapest), moneyStr(r.Difference, cur), present.Pct(r.DifferencePct), strings.Join(have, sep)))
	case len(have) > 0:
		d.Headline = tr(lang,
			fmt.Sprintf("%s monthly plan: %s; no plan is sourced for %s, so which is cheaper cannot be said — ask %s for a quote and compare per card-month", gpu, strings.Join(have, sep), strings.Join(missing, sep), strings.Join(missing, sep)),
			fmt.Sprintf("%s 包月：%s；%s数据里没有包月价，无法比较哪个便宜——请向%s询价，按每卡每月对比", gpu, strings.Join(have, sep), strings.Join(missing, "、"), strings.Join(missing, "、")))
	default:
		d.Headline = tr(lang,
			fmt.Sprintf("%s monthly plan: no plan is sourced on %s — ask them for quotes and compare per card-month", gpu, strings.Join(missing, sep)),
			fmt.Sprintf("%s 包月：%s数据里都没有包月价——请分别询价，按每卡每月对比", gpu, strings.Join(missing, "、")))
	}
	if r.Cheapest != "" && len(missing) > 0 {
		d.Headline += tr(lang, "; no plan sourced for "+strings.Join(missing, sep), "；"+strings.Join(missing, "、")+"数据里没有包月价")
	}
	for _, p := range r.Plans {
		v := tr(lang, "not sourced", "无出处")
		if p.Found {
			v = moneyStr(p.PerCardMonth, cur)
		}
		d.Figures = append(d.Figures, present.Figure{Label: tr(lang, platformName(lang, p.Platform)+": monthly plan per card", platformName(lang, p.Platform)+"：包月每卡每月"), Value: v})
	}
	d.Summary = append(d.Summary, notes...)
	d.Next = tr(lang, "does a plan pay for your hours? ", "包月划算吗？") + fmt.Sprintf("/gpu monthly %s 200h", r.GPU)
	var wk working
	wk.result(lang, r.Lines, r.Assumptions, r.Sources)
	wk.strings(present.StepNote, notes...)
	wk.strings(present.StepNote, confirmNote(lang, r.Sources))
	d.Working = wk
	return d
}

// hourlyFirst answers "what does it cost an hour on demand, and what does
// the monthly plan save?": the on-demand rate, the plan's month against a
// full month on demand (730 h), and the break-even hours.
func hourlyFirst(lang string, r advisor.MonthlyResult) string {
	cur := string(r.Currency)
	gpu := gpuName(r.Inputs.GPU)
	where, whereZH := "", ""
	if r.HourlyPlatform != "" {
		where, whereZH = " on "+platformName(lang, r.HourlyPlatform), platformName(lang, r.HourlyPlatform)+"上 "
	}
	hours := fmtNum(r.Inputs.HoursPerMonth)
	head := tr(lang, fmt.Sprintf("%s%s: on demand %s/card-hour", gpu, where, moneyStr(r.Hourly, cur)),
		fmt.Sprintf("%s%s 按量 %s/卡时", whereZH, gpu, moneyStr(r.Hourly, cur)))
	if r.Cheaper == "monthly" {
		head += tr(lang,
			fmt.Sprintf("; the monthly plan (%s a card-month) saves %s a card-month (%s%%) against %s h on demand (%s) at full-time use", moneyStr(r.MonthlyPrice, cur), moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100), hours, moneyStr(r.OnDemandCost, cur)),
			fmt.Sprintf("；包月每卡每月 %s，满负荷（每月 %s 小时，按量 %s）每卡每月省 %s（%s%%）", moneyStr(r.MonthlyPrice, cur), hours, moneyStr(r.OnDemandCost, cur), moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100)))
	} else {
		head += tr(lang,
			fmt.Sprintf("; the monthly plan (%s a card-month) saves nothing: even at full-time use (%s h, %s on demand) on demand is %s a month cheaper", moneyStr(r.MonthlyPrice, cur), hours, moneyStr(r.OnDemandCost, cur), moneyStr(r.Saving, cur)),
			fmt.Sprintf("；包月每卡每月 %s，省不了：即使满负荷（每月 %s 小时，按量 %s），按量每月还便宜 %s", moneyStr(r.MonthlyPrice, cur), hours, moneyStr(r.OnDemandCost, cur), moneyStr(r.Saving, cur)))
	}
	return head + tr(lang, fmt.Sprintf("; the plan pays above %s h a month.", fmtNum(r.BreakevenHoursPerMonth)),
		fmt.Sprintf("；每月用满 %s 小时以上包月才划算。", fmtNum(r.BreakevenHoursPerMonth)))
}
