package bot

import (
	"fmt"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
)

func renderCommit(lang string, r advisor.CommitResult, as map[string]any, notes ...string) present.Doc {
	cur := string(r.Currency)
	c := r.Chosen
	gpu := gpuName(r.GPU)
	if c.Provider == "given" {
		c.Provider = tr(lang, "your prices", "你给的价格")
	}
	term := map[string][2]string{"1y": {"1-year commitment", "包年（1 年）"}, "3y": {"3-year commitment", "3 年承诺"}, "monthly": {"monthly plan", "包月"}}[r.Inputs.Term]
	if r.Inputs.Term == "1y" && c.Term == "monthly" {
		term = [2]string{"1 year of monthly plans", "包年（按 12 个月包月计）"}
	}
	be, u, disc := fmtNum(r.BreakevenUtilization*100), fmtNum(r.Utilization*100), fmtNum(c.Discount*100)
	beh := fmtNum(r.BreakevenHoursPerMonth)
	var d present.Doc
	if r.Cheaper == "commit" {
		d.Headline = tr(lang,
			fmt.Sprintf("Commit: a %s on %d× %s (%s) saves %s over the term at %s%% utilisation — it pays above %s%%, ≈%s h a card-month (%s%% off on-demand)", term[0], r.Inputs.Cards, gpu, c.Provider, moneyStr(r.Saving, cur), u, be, beh, disc),
			fmt.Sprintf("选%s：%d 张 %s（%s）按 %s%% 利用率整个期限省 %s——利用率高于 %s%%（每卡每月约 %s 小时）就划算（比按需便宜 %s%%）", term[1], r.Inputs.Cards, gpu, c.Provider, u, moneyStr(r.Saving, cur), be, beh, disc))
	} else {
		d.Headline = tr(lang,
			fmt.Sprintf("Stay on demand: a %s on %d× %s (%s) costs %s more at %s%% utilisation — it pays only above %s%%, ≈%s h a card-month (%s%% off on-demand)", term[0], r.Inputs.Cards, gpu, c.Provider, moneyStr(-r.Saving, cur), u, be, beh, disc),
			fmt.Sprintf("按量更省：%d 张 %s（%s）选%s，按 %s%% 利用率要多花 %s——利用率高于 %s%%（每卡每月约 %s 小时）才划算（比按需便宜 %s%%）", r.Inputs.Cards, gpu, c.Provider, term[1], u, moneyStr(-r.Saving, cur), be, beh, disc))
	}
	d.Figures = []present.Figure{
		{Label: tr(lang, "break-even utilisation", "打平利用率"), Value: be + "%"},
		{Label: tr(lang, "on-demand over the term", "期限内按需"), Value: moneyStr(r.OnDemandCost, cur)},
		{Label: tr(lang, "committed over the term", "期限内承诺"), Value: moneyStr(r.CommittedCost, cur)},
		{Label: tr(lang, "discount vs on-demand", "相对按需折扣"), Value: disc + "%"},
	}
	for _, n := range notes {
		if n != "" {
			d.Summary = append(d.Summary, n)
		}
	}
	d.Summary = append(d.Summary, tr(lang,
		fmt.Sprintf("Terms: %s — on-demand %s/card-h vs committed %s/card-h, paid for every hour of the term.", c.Provider+" "+c.Instance, moneyStr(c.OnDemand, cur), moneyStr(c.Committed, cur)),
		fmt.Sprintf("条款：%s——按需 %s/卡时，承诺价 %s/卡时（期限内每小时都计费）。", c.Provider+" "+c.Instance, moneyStr(c.OnDemand, cur), moneyStr(c.Committed, cur))))
	for i, p := range r.Pairs {
		if i == 0 || i > 4 {
			continue
		}
		od, cm := moneyStr(p.OnDemand, cur), moneyStr(p.Committed, cur)
		if p.OnDemandHigh > 0 {
			od += "–" + fmtNum(p.OnDemandHigh) // a range stays a range
		}
		if p.CommittedHigh > 0 {
			cm += "–" + fmtNum(p.CommittedHigh)
		}
		d.Summary = append(d.Summary, fmt.Sprintf("• %s %s: %s → %s/card-h (−%s%%, %s, %s)", p.Provider, p.Instance, od, cm, fmtNum(p.Discount*100), p.Date, p.Confidence))
	}
	d.Assumed = assumedPairs(as)
	var wk working
	wk.result(lang, r.Lines, r.Assumptions, nil)
	d.Working = wk
	return d
}

// renderCommitGap says plainly that no term price is sourced for the card
// and shows on demand over the term instead.
func renderCommitGap(lang string, g CommitGap, as map[string]any) present.Doc {
	cur := string(g.Currency)
	term := map[string][2]string{"1y": {"1-year", "一年期（包年）"}, "3y": {"3-year", "三年期"}, "monthly": {"monthly-plan", "包月"}}[g.Term]
	where := platformName(lang, g.OnDemand.Platform)
	var d present.Doc
	d.Headline = tr(lang,
		fmt.Sprintf("No sourced %s price for %s, so a commitment cannot be weighed — on demand shown: %s/card-h (%s, %s) = %s over %d months for %d card(s) at %s h a month", term[0], gpuName(g.GPU), moneyStr(g.OnDemand.Low, cur), where, g.OnDemand.ObservedAt, moneyStr(g.TermCost, cur), g.Months, g.Cards, fmtNum(g.Hours)),
		fmt.Sprintf("数据里没有 %s 的%s价，没法比较承诺价——以下为按需价：%s/卡时（%s，%s），%d 张卡每月 %s 小时，%d 个月共 %s", gpuName(g.GPU), term[1], moneyStr(g.OnDemand.Low, cur), where, g.OnDemand.ObservedAt, g.Cards, fmtNum(g.Hours), g.Months, moneyStr(g.TermCost, cur)))
	d.Figures = []present.Figure{
		{Label: tr(lang, "on demand per card-hour", "按需每卡时"), Value: moneyStr(g.OnDemand.Low, cur)},
		{Label: tr(lang, "on demand over the term", "期限内按需合计"), Value: moneyStr(g.TermCost, cur)},
	}
	d.Summary = append(d.Summary, tr(lang,
		"Give the committed price to compare: monthly= (per card-month), e.g. /gpu buy "+g.GPU+" 1y reserved price="+fmtNum(g.OnDemand.Low)+" monthly=…",
		"给出承诺价即可比较：monthly=（每卡每月），例如 /gpu buy "+g.GPU+" 1y reserved price="+fmtNum(g.OnDemand.Low)+" monthly=…"))
	for _, k := range g.Defaulted {
		switch k {
		case "term":
			as["term"] = g.Term
		case "cards":
			as["cards"] = 1
		case "utilization":
			as["utilization"] = 1
		}
	}
	d.Assumed = assumedPairs(as)
	var wk working
	wk.strings(present.StepNote, tr(lang, "on demand over the term = ", "期限内按需 = ")+g.HowCounted+" = "+moneyStr(g.TermCost, cur))
	wk.strings(present.StepAssumption, tr(lang,
		"no sourced "+term[0]+" row for this card in knowledge/data/procurement (searched; see NOTES)", "knowledge/data/procurement 里没有这张卡的"+term[1]+"行（已检索，见 NOTES）"))
	wk.strings(present.StepSource, g.OnDemand.Original.String()+" — "+g.OnDemand.ObservedAt+" ("+g.OnDemand.Source+")")
	d.Working = wk
	return d
}
