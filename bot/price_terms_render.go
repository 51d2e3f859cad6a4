package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

var termWords = map[string][2]string{"on_demand": {"on demand", "按需"}, "1y": {"1-year", "一年期"}, "3y": {"3-year", "三年期"}}

// termRateText is a sourced rate per card-hour, a range where the row is.
func termRateText(r advisor.TermRate, cur string) string {
	s := moneyStr(r.Low, cur)
	if r.High > r.Low {
		s += "–" + fmtNum(r.High)
	}
	return s
}

// termTotalText is a term's total, a range where the rate is.
func termTotalText(c advisor.TermCost, cur string) string {
	s := moneyStr(c.Total, cur)
	if c.TotalHigh > c.Total {
		s += "–" + fmtNum(c.TotalHigh)
	}
	return s
}

// termSize says the cards priced: "4 nodes (32× H100 SXM)" or "8× H100 SXM".
func termSize(lang string, q TermQuestion) string {
	if q.Nodes > 0 {
		return tr(lang, fmt.Sprintf("%d nodes (%d× %s)", q.Nodes, q.Cards, gpuName(q.GPU)), fmt.Sprintf("%d 台（%d 张 %s）", q.Nodes, q.Cards, gpuName(q.GPU)))
	}
	return tr(lang, fmt.Sprintf("%d× %s", q.Cards, gpuName(q.GPU)), fmt.Sprintf("%d 张 %s", q.Cards, gpuName(q.GPU)))
}

// termPeriod says the hours priced: a month of 730 h or a year of 8,760.
func termPeriod(lang string, hours float64) [2]string {
	if hours == knowledge.HoursPerMonth {
		return [2]string{tr(lang, "a month", "每月"), tr(lang, "a month (730 h)", "每月（730 小时）")}
	}
	return [2]string{tr(lang, "a year", "每年"), tr(lang, "a year ("+fmtNum(hours)+" h)", "一年（"+fmtNum(hours)+" 小时）")}
}

// termSourceText says where a rate is from: provider, instance, region,
// date and confidence.
func termSourceText(lang string, r advisor.TermRate) string {
	return tr(lang, fmt.Sprintf("%s %s, %s, %s, %s confidence", r.Provider, r.Instance, r.Region, r.Date, r.Confidence),
		fmt.Sprintf("%s %s，%s，%s，可信度 %s", r.Provider, r.Instance, r.Region, r.Date, r.Confidence))
}

func renderTerms(lang string, v TermView) present.Doc {
	var d present.Doc
	q, cur := v.Question, v.Currency
	if b := v.Budget; b != nil {
		d.Headline = termBudgetHeadline(lang, q, *b, v.Closest != nil, cur)
		for _, l := range append(append([]advisor.Line(nil), b.AtHigh.Lines...), b.AtLow.Lines...) {
			d.Working = append(d.Working, present.Step{Kind: present.StepCalc, Label: l.Label.In(lang), Formula: l.How, Value: l.Value, Unit: l.Unit})
		}
		d.Working = append(d.Working, present.Step{Kind: present.StepAssumption, Label: b.Rate.Source})
		return d
	}
	sh := v.Sheet
	per := termPeriod(lang, sh.Hours)
	var heads, items []string
	if len(sh.Order) >= 2 {
		a, b := sh.Costs[sh.Order[0]], sh.Costs[sh.Order[1]]
		name := func(c advisor.TermCost) string {
			if q.Kind == "platforms" {
				return platformName(lang, c.Platform)
			}
			return tr(lang, termWords[c.Term][0], termWords[c.Term][1])
		}
		heads = append(heads, "")
		var weak []string // rates from a low-confidence row, said in the headline they decide
		for _, c := range []advisor.TermCost{a, b} {
			if c.Confidence == knowledge.Low {
				weak = append(weak, name(c))
			}
		}
		if q.Kind == "platforms" {
			heads[0] = tr(lang,
				fmt.Sprintf("On a %s reservation for %s, %s is cheaper: %s %s vs %s %s, %s less.", termWords[a.Term][0], termSize(lang, q), name(a), termTotalText(a, cur), per[0], name(b), termTotalText(b, cur), moneyStr(sh.Gap, cur)),
				fmt.Sprintf("%s签%s：%s更便宜，%s %s，%s %s，少 %s。", termSize(lang, q), termWords[a.Term][1], name(a), per[0], termTotalText(a, cur), name(b), termTotalText(b, cur), moneyStr(sh.Gap, cur)))
		} else {
			heads[0] = tr(lang,
				fmt.Sprintf("%s on %s, %s: %s %s vs %s %s — %s is %s less %s.", termSize(lang, q), platformName(lang, a.Platform), per[1], name(a), termTotalText(a, cur), name(b), termTotalText(b, cur), name(a), moneyStr(sh.Gap, cur), per[0]),
				fmt.Sprintf("%s 在 %s 上%s：%s %s，%s %s——%s每月少 %s。", termSize(lang, q), platformName(lang, a.Platform), per[1], name(a), termTotalText(a, cur), name(b), termTotalText(b, cur), name(a), moneyStr(sh.Gap, cur)))
			if sh.Hours != knowledge.HoursPerMonth {
				heads[0] = strings.Replace(heads[0], "每月少", "每年少", 1)
			}
		}
		if len(weak) > 0 {
			heads = append(heads, tr(lang, fmt.Sprintf("Low-confidence rate (an aggregator's range): %s.", strings.Join(weak, ", ")),
				fmt.Sprintf("低可信度价格（汇总站区间）：%s。", strings.Join(weak, "、"))))
		}
	} else if len(sh.Costs) == 1 {
		c := sh.Costs[0]
		heads = append(heads, tr(lang,
			fmt.Sprintf("%s %s on %s, 24/7: %s %s (%d × %s h × %s/card-hour, %s's sourced rate for %s, %s).", termSize(lang, q), termWords[c.Term][0], platformName(lang, c.Platform), termTotalText(c, cur), per[0], c.Cards, fmtNum(c.Hours), termRateText(c.TermRate, cur), c.Provider, c.Region, c.Date),
			fmt.Sprintf("%s 在 %s 上%s、全天候：%s%s（%d × %s 小时 × %s/卡时，%s 在 %s 的有出处价格，%s）。", termSize(lang, q), platformName(lang, c.Platform), termWords[c.Term][1], per[0], termTotalText(c, cur), c.Cards, fmtNum(c.Hours), termRateText(c.TermRate, cur), c.Provider, c.Region, c.Date)))
		if q.Kind == "regions" {
			heads[0] = regionsHeadline(lang, q, c, cur, per)
		}
	}
	for _, c := range sh.Costs {
		items = append(items, tr(lang,
			fmt.Sprintf("%s %s: %s/card-hour × %d × %s h = %s (%s)", platformName(lang, c.Platform), termWords[c.Term][0], termRateText(c.TermRate, cur), c.Cards, fmtNum(c.Hours), termTotalText(c, cur), termSourceText(lang, c.TermRate)),
			fmt.Sprintf("%s %s：%s/卡时 × %d × %s 小时 = %s（%s）", platformName(lang, c.Platform), termWords[c.Term][1], termRateText(c.TermRate, cur), c.Cards, fmtNum(c.Hours), termTotalText(c, cur), termSourceText(lang, c.TermRate))))
		d.Working = append(d.Working, present.Step{Kind: present.StepCalc, Label: c.Line.Label.In(lang), Formula: c.Line.How, Value: c.Line.Value, Unit: c.Line.Unit})
	}
	var missing []string
	for _, m := range sh.Missing {
		missing = append(missing, tr(lang,
			fmt.Sprintf("%s has no sourced %s rate for %s", platformName(lang, m.Platform), termWords[m.Term][0], gpuName(q.GPU)),
			fmt.Sprintf("%s 没有 %s 的%s价（有出处的）", platformName(lang, m.Platform), gpuName(q.GPU), termWords[m.Term][1])))
	}
	if len(missing) > 0 {
		heads = append(heads, tr(lang, strings.Join(missing, "; ")+".", strings.Join(missing, "；")+"。"))
	}
	if len(sh.Costs) == 0 {
		heads = append([]string{tr(lang, "No sourced rate prices this.", "没有有出处的价格可算。")}, heads...)
	}
	d.Headline = strings.Join(heads, " ")
	if len(items) > 0 {
		d.ListTitle = tr(lang, "Sourced rates × cards × hours:", "有出处的价格 × 卡数 × 小时：")
		d.List = items
	}
	committed := false
	for _, a := range q.Asks {
		committed = committed || a.Term != "on_demand"
	}
	if committed {
		d.Summary = append(d.Summary, tr(lang, "Rates are sourced rows, not live quotes: reservations are negotiated; confirm the provider's current terms.",
			"价格来自有出处的记录，不是实时报价：预留价可谈，请向平台确认当前条款。"))
	} else {
		d.Summary = append(d.Summary, tr(lang, "Rates are sourced rows, not live quotes: confirm the provider's current price in each region.",
			"价格来自有出处的记录，不是实时报价：请向平台确认各区域的当前价格。"))
	}
	return d
}

// regionsHeadline prices the machines across the regions named at the
// sourced rate, saying which region it is for and which have none.
func regionsHeadline(lang string, q TermQuestion, c advisor.TermCost, cur string, per [2]string) string {
	var none []string // the regions asked that the rate is not for
	for _, r := range q.Regions {
		if !strings.Contains(strings.ToLower(c.Region), r) {
			none = append(none, r)
		}
	}
	head := tr(lang,
		fmt.Sprintf("%d× %s across %s, on demand 24/7: %s %s (%d cards × %s h × %s/card-hour, %s's sourced rate for %s, %s).", q.Nodes, strings.Split(c.Instance, " ")[0], strings.Join(q.Regions, " + "), termTotalText(c, cur), per[0], c.Cards, fmtNum(c.Hours), termRateText(c.TermRate, cur), c.Provider, c.Region, c.Date),
		fmt.Sprintf("%s 共 %d 台 %s，按需全天候：%s%s（%d 张卡 × %s 小时 × %s/卡时，%s 在 %s 的有出处价格，%s）。", strings.Join(q.Regions, " + "), q.Nodes, strings.Split(c.Instance, " ")[0], per[0], termTotalText(c, cur), c.Cards, fmtNum(c.Hours), termRateText(c.TermRate, cur), c.Provider, c.Region, c.Date))
	if len(none) > 0 {
		head += " " + tr(lang,
			fmt.Sprintf("No sourced price for %s: %s's rate is used there too.", strings.Join(none, ", "), c.Region),
			fmt.Sprintf("%s 没有有出处的价格：按 %s 的价格计。", strings.Join(none, "、"), c.Region))
	}
	return head
}

// termBudgetHeadline is the cards a budget keeps on a sourced term rate.
func termBudgetHeadline(lang string, q TermQuestion, b TermBudget, closest bool, cur string) string {
	cards := fmt.Sprint(b.AtHigh.Cards)
	if b.AtLow.Cards != b.AtHigh.Cards {
		cards += "–" + fmt.Sprint(b.AtLow.Cards)
	}
	month := moneyStr(b.AtLow.PerCardMonth, cur)
	if b.AtHigh.PerCardMonth > b.AtLow.PerCardMonth {
		month += "–" + fmtNum(b.AtHigh.PerCardMonth)
	}
	perEN, perZH := map[string]string{"month": " a month", "quarter": " a quarter", "year": " a year"}[b.Per], map[string]string{"month": "每月", "quarter": "每季度", "year": "每年"}[b.Per]
	tw := termWords[b.Rate.Term]
	head := tr(lang,
		fmt.Sprintf("%s%s keeps %s %s running 24/7 on %s's sourced %s rate, %s/card-hour (a card-month %s at 730 h; %s).", moneyStr(b.Budget, cur), perEN, cards, gpuName(q.GPU), b.Rate.Provider, tw[0], termRateText(b.Rate, cur), month, termSourceText(lang, b.Rate)),
		fmt.Sprintf("%s预算 %s 按 %s 有出处的%s价 %s/卡时，可全天候养 %s 张 %s（每卡每月 %s，按 730 小时；%s）。", perZH, moneyStr(b.Budget, cur), b.Rate.Provider, tw[1], termRateText(b.Rate, cur), cards, gpuName(q.GPU), month, termSourceText(lang, b.Rate)))
	if closest && len(q.Asks) > 0 {
		head = tr(lang,
			fmt.Sprintf("%s has no sourced %s rate for %s; the closest sourced is used. ", platformName(lang, q.Asks[0].Platform), tw[0], gpuName(q.GPU)),
			fmt.Sprintf("%s 没有 %s 的%s价（有出处的），改用最接近的有出处价格。", platformName(lang, q.Asks[0].Platform), gpuName(q.GPU), tw[1])) + head
	}
	return head
}
