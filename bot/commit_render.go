package bot

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

// commitAsk is what a commitment question asks first: the break-even
// utilisation, or the saving over a month, a year or the whole term (with
// the total committed when that is asked too).
type commitAsk struct {
	breakeven bool
	total     bool
	per       string // month, year or term
}

var (
	reAskBreakeven = regexp.MustCompile(`what utili[sz]ation|which utili[sz]ation|utili[sz]ation (?:makes|does|do|is needed|must|would)|how busy|break[- ]?even|利用率(?:要)?(?:多少|达到多少|至少)|打平|回本`)
	reAskMonth     = regexp.MustCompile(`per month|a month|each month|every month|monthly sav|每月|每个月|一个月|月省`)
	reAskYear      = regexp.MustCompile(`annual|per year|a year|each year|every year|yearly sav|每年|全年|一年(?:下来|能|可|省|差|多)|年省`)
	reAskTotal     = regexp.MustCompile(`total commitment|commitment total|total committed|in total|承诺总额|合同总额|总共(?:要)?付|一共(?:要)?付|总承诺`)
)

// askedOfCommit reads what a commitment question asks: its targets first,
// then its words; of a month and a year, the one said last (the question
// ends the message: "$38k a month … annual saving?").
func askedOfCommit(req parse.Request) commitAsk {
	t := strings.ToLower(req.Text)
	ask := commitAsk{per: "term", total: reAskTotal.MatchString(t)}
	for _, tg := range req.Slots.Targets {
		if tg == "break_even_util" || tg == "break_even_hours" {
			ask.breakeven = true
			break
		}
		if tg == "saving" || tg == "money_total" || tg == "money_monthly" || tg == "which" {
			break
		}
	}
	if !ask.breakeven && len(req.Slots.Targets) == 0 {
		ask.breakeven = reAskBreakeven.MatchString(t)
	}
	last := func(re *regexp.Regexp) int {
		all := re.FindAllStringIndex(t, -1)
		if len(all) == 0 {
			return -1
		}
		return all[len(all)-1][0]
	}
	switch m, y := last(reAskMonth), last(reAskYear); {
	case m > y:
		ask.per = "month"
	case y > m:
		ask.per = "year"
	}
	return ask
}

// commitSaving is the saving over the period asked, with its words.
func commitSaving(r advisor.CommitResult, per string) (v float64, en, zh string) {
	switch {
	case per == "month":
		return r.SavingMonthly, "a month", "每月"
	case per == "year" && r.Inputs.Term != "1y":
		return r.SavingYearly, "a year", "每年"
	case per == "year":
		return r.Saving, "a year (the 1-year term)", "每年（1 年期）"
	}
	return r.Saving, "over the term", "整个期限"
}

func renderCommit(lang string, r advisor.CommitResult, as map[string]any, ask commitAsk, notes ...string) present.Doc {
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
	if r.Chosen.Provider == "given" {
		// both rates the user's own: their sum answers what was asked
		return renderCommitRates(lang, r, as, ask, notes)
	}
	sv, perEN, perZH := commitSaving(r, ask.per)
	if r.Cheaper == "commit" && ask.per != "term" {
		d.Headline = tr(lang,
			fmt.Sprintf("Commit: a %s on %d× %s (%s) saves %s %s (%s over the term) at %s%% utilisation — it pays above %s%%, ≈%s h a card-month (%s%% off on-demand)", term[0], r.Inputs.Cards, gpu, c.Provider, moneyStr(sv, cur), perEN, moneyStr(r.Saving, cur), u, be, beh, disc),
			fmt.Sprintf("选%s：%d 张 %s（%s）按 %s%% 利用率%s省 %s（整个期限省 %s）——利用率高于 %s%%（每卡每月约 %s 小时）就划算（比按需便宜 %s%%）", term[1], r.Inputs.Cards, gpu, c.Provider, u, perZH, moneyStr(sv, cur), moneyStr(r.Saving, cur), be, beh, disc))
	} else if r.Cheaper == "commit" {
		d.Headline = tr(lang,
			fmt.Sprintf("Commit: a %s on %d× %s (%s) saves %s over the term at %s%% utilisation — it pays above %s%%, ≈%s h a card-month (%s%% off on-demand)", term[0], r.Inputs.Cards, gpu, c.Provider, moneyStr(r.Saving, cur), u, be, beh, disc),
			fmt.Sprintf("选%s：%d 张 %s（%s）按 %s%% 利用率整个期限省 %s——利用率高于 %s%%（每卡每月约 %s 小时）就划算（比按需便宜 %s%%）", term[1], r.Inputs.Cards, gpu, c.Provider, u, moneyStr(r.Saving, cur), be, beh, disc))
	} else if ask.per != "term" {
		d.Headline = tr(lang,
			fmt.Sprintf("Stay on demand: a %s on %d× %s (%s) costs %s more %s (%s over the term) at %s%% utilisation — it pays only above %s%%, ≈%s h a card-month (%s%% off on-demand)", term[0], r.Inputs.Cards, gpu, c.Provider, moneyStr(-sv, cur), perEN, moneyStr(-r.Saving, cur), u, be, beh, disc),
			fmt.Sprintf("按量更省：%d 张 %s（%s）选%s，按 %s%% 利用率%s要多花 %s（整个期限多花 %s）——利用率高于 %s%%（每卡每月约 %s 小时）才划算（比按需便宜 %s%%）", r.Inputs.Cards, gpu, c.Provider, term[1], u, perZH, moneyStr(-sv, cur), moneyStr(-r.Saving, cur), be, beh, disc))
	} else {
		d.Headline = tr(lang,
			fmt.Sprintf("Stay on demand: a %s on %d× %s (%s) costs %s more at %s%% utilisation — it pays only above %s%%, ≈%s h a card-month (%s%% off on-demand)", term[0], r.Inputs.Cards, gpu, c.Provider, moneyStr(-r.Saving, cur), u, be, beh, disc),
			fmt.Sprintf("按量更省：%d 张 %s（%s）选%s，按 %s%% 利用率要多花 %s——利用率高于 %s%%（每卡每月约 %s 小时）才划算（比按需便宜 %s%%）", r.Inputs.Cards, gpu, c.Provider, term[1], u, moneyStr(-r.Saving, cur), be, beh, disc))
	}
	if ask.per == "month" && r.CommittedMonthly > 0 && r.OnDemandMonthly > 0 {
		// "reserved vs on-demand, per month?": both months first, then the verdict
		d.Headline = tr(lang,
			fmt.Sprintf("%s: %s a month vs on demand %s a month (%d× %s, %s, at %s%% utilisation). ", term[0], moneyStr(r.CommittedMonthly, cur), moneyStr(r.OnDemandMonthly, cur), r.Inputs.Cards, gpu, c.Provider, u),
			fmt.Sprintf("%s：每月 %s，按需每月 %s（%d 张 %s，%s，利用率 %s%%）。", term[1], moneyStr(r.CommittedMonthly, cur), moneyStr(r.OnDemandMonthly, cur), r.Inputs.Cards, gpu, c.Provider, u)) + d.Headline
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

// renderCommitRates answers a commitment whose two rates are the user's
// own: the figure asked first (the saving over the period asked, the
// total committed, or the break-even utilisation), with the hours it
// assumed and the sum behind it said.
func renderCommitRates(lang string, r advisor.CommitResult, as map[string]any, ask commitAsk, notes []string) present.Doc {
	cur := string(r.Currency)
	c := r.Chosen
	term := map[string][2]string{"1y": {"1-year commitment", "一年期"}, "3y": {"3-year commitment", "三年期"}, "monthly": {"monthly plan", "包月"}}[r.Inputs.Term]
	n := r.Inputs.Cards
	cards, cardsZH := fmt.Sprintf("%d× %s", n, gpuName(r.GPU)), fmt.Sprintf("%d 张 %s", n, gpuName(r.GPU))
	if r.GPU == "" {
		cards, cardsZH = fmt.Sprintf("%d card(s)", n), fmt.Sprintf("%d 张卡", n)
	}
	od, cm := moneyStr(c.OnDemand, cur), moneyStr(c.Committed, cur)
	use := tr(lang, "at full use: every hour, 730-hour months", "满负荷：每月 730 小时全用")
	odUse := od
	if r.Utilization < 1 {
		use = tr(lang, fmt.Sprintf("at %s%% utilisation, %s h a card-month", fmtNum(r.Utilization*100), fmtNum(r.Utilization*730)),
			fmt.Sprintf("利用率 %s%%，每卡每月 %s 小时", fmtNum(r.Utilization*100), fmtNum(r.Utilization*730)))
		odUse = od + " × " + fmtNum(r.Utilization*100) + "%"
	}
	be, beh := fmtNum(r.BreakevenUtilization*100), fmtNum(r.BreakevenHoursPerMonth)
	sv, perEN, perZH := commitSaving(r, ask.per)
	// the sum behind the saving, in the user's own figures
	hours := map[string]float64{"month": 730, "year": 8760}[ask.per]
	if hours == 0 {
		hours = r.TermHours
	}
	how := fmt.Sprintf("%d × %s %s × (%s − %s)", n, fmtNum(hours), tr(lang, "h", "小时"), odUse, cm)
	if in := r.Inputs; in.OnDemandMonthly.Given() && in.Discount > 0 && r.Utilization == 1 {
		how = fmt.Sprintf("%s × %s × %s%%", moneyStr(in.OnDemandMonthly.Amount, cur), tr(lang, fmtNum(hours/730)+" months", fmtNum(hours/730)+" 个月"), fmtNum(in.Discount*100))
	}
	rates := tr(lang, fmt.Sprintf("%s/card-h committed vs %s on demand", cm, od), fmt.Sprintf("承诺价 %s/卡时，按需 %s/卡时", cm, od))
	var d present.Doc
	switch {
	case ask.breakeven:
		d.Headline = tr(lang,
			fmt.Sprintf("Break-even at %s%% utilisation (≈%s h a card-month): the %s at %s/card-h beats on demand at %s/card-h once the cards work more than that — %s ÷ %s", be, beh, term[0], cm, od, cm, od),
			fmt.Sprintf("打平利用率 %s%%（每卡每月约 %s 小时）：%s承诺价 %s/卡时，卡的使用时间超过这个比例才比按需 %s/卡时划算——%s ÷ %s", be, beh, term[1], cm, od, cm, od))
	case ask.total:
		// "total commitment and savings": the sum committed, then the saving
		total := fmt.Sprintf("%s (%s × %s h × %d)", moneyStr(r.CommittedCost, cur), cm, fmtNum(r.TermHours), n)
		totalZH := fmt.Sprintf("%s（%s × %s 小时 × %d）", moneyStr(r.CommittedCost, cur), cm, fmtNum(r.TermHours), n)
		if r.Cheaper == "commit" {
			d.Headline = tr(lang,
				fmt.Sprintf("Commit: the %s on %s totals %s and saves %s %s against on demand at %s/card-h — %s, %s", term[0], cards, total, moneyStr(sv, cur), perEN, od, how, use),
				fmt.Sprintf("选承诺：%s 签%s，承诺总额 %s，比按需（%s/卡时）%s省 %s——%s，%s", cardsZH, term[1], totalZH, od, perZH, moneyStr(sv, cur), how, use))
		} else {
			d.Headline = tr(lang,
				fmt.Sprintf("Stay on demand: the %s on %s totals %s and costs %s more %s than on demand at %s/card-h — %s, %s", term[0], cards, total, moneyStr(-sv, cur), perEN, od, how, use),
				fmt.Sprintf("按需更省：%s 签%s，承诺总额 %s，比按需（%s/卡时）%s多花 %s——%s，%s", cardsZH, term[1], totalZH, od, perZH, moneyStr(-sv, cur), how, use))
		}
	case r.Cheaper == "commit":
		d.Headline = tr(lang,
			fmt.Sprintf("Commit: the %s on %s saves %s %s — %s, %s (%s)", term[0], cards, moneyStr(sv, cur), perEN, how, use, rates),
			fmt.Sprintf("选承诺：%s 签%s，%s省 %s——%s，%s（%s）", cardsZH, term[1], perZH, moneyStr(sv, cur), how, use, rates))
	default:
		d.Headline = tr(lang,
			fmt.Sprintf("Stay on demand: the %s on %s costs %s more %s — %s, %s (%s); it pays only above %s%% utilisation", term[0], cards, moneyStr(-sv, cur), perEN, how, use, rates, be),
			fmt.Sprintf("按需更省：%s 签%s，%s要多花 %s——%s，%s（%s）；利用率高于 %s%% 才划算", cardsZH, term[1], perZH, moneyStr(-sv, cur), how, use, rates, be))
	}
	savingLabel := map[string][2]string{"month": {"saving a month", "每月节省"}, "year": {"saving a year", "每年节省"}, "term": {"saving over the term", "期限内节省"}}[ask.per]
	d.Figures = []present.Figure{
		{Label: tr(lang, savingLabel[0], savingLabel[1]), Value: moneyStr(sv, cur)},
		{Label: tr(lang, "break-even utilisation", "打平利用率"), Value: be + "%"},
		{Label: tr(lang, "committed over the term", "期限内承诺"), Value: moneyStr(r.CommittedCost, cur)},
		{Label: tr(lang, "on-demand over the term", "期限内按需"), Value: moneyStr(r.OnDemandCost, cur)},
	}
	if ask.breakeven {
		d.Figures[0], d.Figures[1] = d.Figures[1], d.Figures[0]
	}
	for _, note := range notes {
		if note != "" {
			d.Summary = append(d.Summary, note)
		}
	}
	off, offZH := "", ""
	if c.Discount > 0 {
		off, offZH = fmt.Sprintf(" (%s%% off)", fmtNum(c.Discount*100)), fmt.Sprintf("（便宜 %s%%）", fmtNum(c.Discount*100))
	}
	d.Summary = append(d.Summary, tr(lang,
		fmt.Sprintf("Rates weighed: on demand %s/card-h, committed %s/card-h%s, the commitment paid for every hour of the term; saving = cards × hours × (on demand × utilisation − committed).", od, cm, off),
		fmt.Sprintf("对比的价格：按需 %s/卡时，承诺价 %s/卡时%s，承诺期内每小时都计费；节省 = 卡数 × 小时 × （按需 × 利用率 − 承诺价）。", od, cm, offZH)))
	d.Assumed = assumedPairs(as)
	var wk working
	wk.result(lang, r.Lines, r.Assumptions, nil)
	d.Working = wk
	return d
}

// renderCommitPrice answers a commitment's price: the sourced committed
// rate for the term asked (or that none is, and what is), on demand
// beside it, the other term, and the region it is sourced for when
// another was asked.
func renderCommitPrice(lang string, r advisor.CommitResult, cp CommitPrice, as map[string]any, note string) present.Doc {
	cur := string(r.Currency)
	c := r.Chosen
	names := map[string][2]string{"1y": {"1-year", "一年期"}, "3y": {"3-year", "三年期"}, "monthly": {"monthly", "包月"}}
	term := names[c.Term]
	who := strings.TrimSpace(c.Provider + " " + c.Instance)
	var d present.Doc
	if asked := names[cp.Asked]; cp.Asked != "" && cp.Asked != c.Term {
		d.Headline = tr(lang, fmt.Sprintf("No sourced %s rate for %s; the %s one: ", asked[0], gpuName(r.GPU), term[0]),
			fmt.Sprintf("数据里没有 %s 的%s价；%s价：", gpuName(r.GPU), asked[1], term[1]))
	}
	if cp.Platform != "" {
		// the platform asked has no sourced rate for the term: said first,
		// its other term and on demand, then whose rate this is
		pn := platformName(lang, cp.Platform)
		asked := names[cp.Asked]
		d.Headline = tr(lang, fmt.Sprintf("No sourced %s rate for %s on %s", asked[0], gpuName(r.GPU), pn),
			fmt.Sprintf("数据里没有 %s 上 %s 的%s价", pn, gpuName(r.GPU), asked[1]))
		if o := cp.OnPlatform; o != nil {
			ot := names[o.Term]
			d.Headline += tr(lang, fmt.Sprintf("; its %s rate is %s/card-hour (on demand %s/card-hour, %s %s, %s)", ot[0], moneyStr(o.Committed, cur), moneyStr(o.OnDemand, cur), o.Provider, o.Instance, o.Date),
				fmt.Sprintf("；它的%s价为 %s/卡时（按需 %s/卡时，%s %s，%s）", ot[1], moneyStr(o.Committed, cur), moneyStr(o.OnDemand, cur), o.Provider, o.Instance, o.Date))
		}
		d.Headline += tr(lang, ". Elsewhere: ", "。其他：")
	}
	d.Headline += tr(lang,
		fmt.Sprintf("%s %s committed rate: %s/card-hour (%s%% off on demand at %s/card-hour; %s, %s)", who, term[0], moneyStr(c.Committed, cur), fmtNum(c.Discount*100), moneyStr(c.OnDemand, cur), c.Date, c.Confidence),
		fmt.Sprintf("%s %s承诺价：%s/卡时（比按需 %s/卡时便宜 %s%%；%s，%s）", who, term[1], moneyStr(c.Committed, cur), moneyStr(c.OnDemand, cur), fmtNum(c.Discount*100), c.Date, c.Confidence))
	if o := cp.Other; o != nil {
		ot := names[o.Term]
		d.Headline += tr(lang, fmt.Sprintf("; %s: %s/card-hour", ot[0], moneyStr(o.Committed, cur)), fmt.Sprintf("；%s：%s/卡时", ot[1], moneyStr(o.Committed, cur)))
	}
	d.Headline += tr(lang, ".", "。")
	if cp.RegionAsked != "" && cp.RegionRow != "" && !strings.EqualFold(cp.RegionAsked, cp.RegionRow) {
		d.Headline += tr(lang, fmt.Sprintf(" No sourced price for %s: these are %s's.", cp.RegionAsked, cp.RegionRow),
			fmt.Sprintf("数据里没有 %s 的价格：以上为 %s 的价格。", cp.RegionAsked, cp.RegionRow))
	} else if cp.RegionRow != "" {
		d.Headline += tr(lang, fmt.Sprintf(" Region: %s.", cp.RegionRow), fmt.Sprintf("地区：%s。", cp.RegionRow))
	}
	if note != "" {
		d.Summary = append(d.Summary, note)
	}
	d.Figures = []present.Figure{
		{Label: tr(lang, "committed per card-hour", "承诺价每卡时"), Value: moneyStr(c.Committed, cur)},
		{Label: tr(lang, "on demand per card-hour", "按需每卡时"), Value: moneyStr(c.OnDemand, cur)},
		{Label: tr(lang, "discount vs on-demand", "相对按需折扣"), Value: fmtNum(c.Discount*100) + "%"},
		{Label: tr(lang, "break-even utilisation", "打平利用率"), Value: fmtNum(r.BreakevenUtilization*100) + "%"},
	}
	for i, p := range r.Pairs {
		if i == 0 || i > 4 {
			continue
		}
		d.Summary = append(d.Summary, fmt.Sprintf("• %s %s (%s): %s → %s/card-h (−%s%%, %s, %s)", p.Provider, p.Instance, p.Term, moneyStr(p.OnDemand, cur), moneyStr(p.Committed, cur), fmtNum(p.Discount*100), p.Date, p.Confidence))
	}
	d.Assumed = assumedPairs(as)
	var wk working
	wk.result(lang, r.Lines, r.Assumptions, nil)
	d.Working = wk
	return d
}
