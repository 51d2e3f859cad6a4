package bot

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
)

var billingNames = map[string][2]string{"monthly": {"monthly plan", "包月"}, "spot": {"spot, interruptible", "竞价，可中断"}, "package": {"prepaid", "预付"}, "on_demand": {"on demand", "按需"}}

func priceText(o PriceOffer) string {
	p := moneyStr(o.Price, o.Currency)
	if o.PriceHigh > o.Price {
		p += "–" + fmtNum(o.PriceHigh)
	}
	return p
}

// headlineOffer is the offer a price headline quotes: the cheapest on
// demand (what a job pays) — the cheapest spot offer when spot was asked
// for — else the cheapest of any kind.
func headlineOffer(offers []PriceOffer, gpu string, spot bool) (PriceOffer, int, bool) {
	var best PriceOffer
	found, n := false, 0
	if spot {
		for _, o := range offers {
			if o.GPU == gpu && o.Interruptible && (!found || o.Price < best.Price) {
				best, found = o, true
			}
		}
		if found {
			for _, o := range offers {
				if o.GPU == gpu {
					n++
				}
			}
			return best, n, true
		}
	}
	for _, o := range offers {
		if o.GPU != gpu {
			continue
		}
		n++
		if !found || (o.Billing == "on_demand" && best.Billing != "on_demand") || (o.Billing == best.Billing && o.Price < best.Price) {
			if found && best.Billing == "on_demand" && o.Billing != "on_demand" {
				continue
			}
			best, found = o, true
		}
	}
	return best, n, found
}

func renderPrice(lang string, v PriceView, now time.Time) present.Doc {
	var heads []string
	var d present.Doc
	for _, g := range v.GPUs {
		if c, ok := v.compared(g); ok {
			// named platforms: which is cheaper, by how much (price_platforms.go)
			heads = append(heads, compareLine(lang, c, v.named(), v.areaAsked()))
			continue
		}
		o, n, ok := headlineOffer(v.Offers, g, v.Spot)
		if !ok {
			heads = append(heads, tr(lang, gpuName(g)+": no price in the catalogue yet", gpuName(g)+"：目录里还没有价格"))
			continue
		}
		kind := billingNames[o.Billing]
		when := present.Age(present.LangOf(lang), o.ObservedAt, now)
		if when == "" {
			when = o.ObservedAt
		}
		if v.PerMonth > 0 && o.Monthly && len(v.GPUs) == 1 {
			// A monthly plan was asked for: the figure per card-month first.
			heads = append(heads, tr(lang,
				fmt.Sprintf("%s monthly plan from %s per card-month (%s, %s; %s/card-hour over 730 h) — %d offers", gpuName(g), moneyStr(math.Round(v.PerMonth), o.Currency), platformName(lang, o.Platform), when, moneyStr(o.Price, o.Currency), n),
				fmt.Sprintf("%s 包月最低每卡每月 %s（%s，%s；按 730 小时折合 %s/卡时）——共 %d 个报价", gpuName(g), moneyStr(math.Round(v.PerMonth), o.Currency), platformName(lang, o.Platform), when, moneyStr(o.Price, o.Currency), n)))
			continue
		}
		if o.Confidence == "low" {
			when += tr(lang, ", low confidence", "，低可信度")
		}
		heads = append(heads, tr(lang,
			fmt.Sprintf("%s from %s/card-hour (%s, %s, %s) — %d offers", gpuName(g), moneyStr(o.Price, o.Currency), platformName(lang, o.Platform), kind[0], when, n),
			fmt.Sprintf("%s 最低 %s/卡时（%s，%s，%s）——共 %d 个报价", gpuName(g), moneyStr(o.Price, o.Currency), platformName(lang, o.Platform), kind[1], when, n)))
	}
	d.Headline = strings.Join(heads, tr(lang, "; ", "；"))
	if len(heads) > 1 && v.comparing() {
		d.Headline = strings.Join(heads, " ") // whole sentences
	}
	if best, ok := cheapestCard(v); ok {
		// several cards: which is cheaper leads
		d.Headline = tr(lang, fmt.Sprintf("Cheapest: %s at %s/card-hour. ", gpuName(best.GPU), moneyStr(best.Price, best.Currency)),
			fmt.Sprintf("最便宜：%s，%s/卡时。", gpuName(best.GPU), moneyStr(best.Price, best.Currency))) + d.Headline
	}
	if r := v.Rental; r != nil && !v.comparesRental() {
		// the total asked for, at the quoted rate: first
		cur := v.Currency
		if len(v.Offers) > 0 {
			if o, _, ok := headlineOffer(v.Offers, v.GPUs[0], v.Spot); ok {
				cur = o.Currency
			}
		}
		if v.RentalCurrency != "" {
			cur = v.RentalCurrency // at their own rate
		}
		if v.Affordable {
			d.Headline = tr(lang,
				fmt.Sprintf("%s rents ≈%s card-hours at %s/card-hour (%s h on %d card(s)). ", moneyStr(r.Total, cur), fmtNum(r.CardHours), moneyStr(r.PricePerCardHour, cur), fmtNum(r.Hours), r.Cards),
				fmt.Sprintf("%s 按 %s/卡时能租约 %s 卡时（%d 张卡各 %s 小时）。", moneyStr(r.Total, cur), moneyStr(r.PricePerCardHour, cur), fmtNum(r.CardHours), r.Cards, fmtNum(r.Hours))) + deadlineCap(lang, v.DeadlineHours, r.Hours) + d.Headline
		} else if m := v.Machine; m != nil && len(v.GPUs) > 0 {
			// a machine's rate: per card, and the machines' total
			d.Headline = machineHeadline(lang, v.GPUs[0], *r, *m) + d.Headline
		} else if y := v.Year; y != nil {
			// a month and the year asked beside it: both first
			d.Headline = tr(lang,
				fmt.Sprintf("≈ %s a month for %d card(s) × %s h (%s card-hours); ≈ %s a year (%d × %s h × %s). ", moneyStr(r.Total, cur), r.Cards, fmtNum(r.Hours), fmtNum(r.CardHours), moneyStr(y.Total, cur), y.Cards, fmtNum(y.Hours), moneyStr(y.PricePerCardHour, cur)),
				fmt.Sprintf("%d 张卡 × %s 小时（%s 卡时）每月约 %s；一年约 %s（%d × %s 小时 × %s）。", r.Cards, fmtNum(r.Hours), fmtNum(r.CardHours), moneyStr(r.Total, cur), moneyStr(y.Total, cur), y.Cards, fmtNum(y.Hours), moneyStr(y.PricePerCardHour, cur))) + d.Headline
		} else {
			d.Headline = tr(lang,
				fmt.Sprintf("≈ %s for %d card(s) × %s h (%s card-hours). ", moneyStr(r.Total, cur), r.Cards, fmtNum(r.Hours), fmtNum(r.CardHours)),
				fmt.Sprintf("%d 张卡 × %s 小时（%s 卡时）约 %s。", r.Cards, fmtNum(r.Hours), fmtNum(r.CardHours), moneyStr(r.Total, cur))) + d.Headline
		}
	}
	if t := v.Term; t != nil && v.Rental != nil && len(v.GPUs) > 0 {
		// a commitment at their rate: the term's total first, the market
		// and the sourced term after
		d.Summary = append(d.Summary, d.Headline)
		d.Headline = termHeadline(lang, v.GPUs[0], *v.Rental, cmpOr(v.RentalCurrency, v.Currency), *t)
	}
	if f := v.Afford; f != nil && len(v.GPUs) > 0 {
		d.Summary = append(d.Summary, d.Headline)
		d.Headline = affordHeadline(lang, *f, v.GPUs[0])
	}
	if q := v.Quote; q != nil {
		// a quote to weigh: whether it is dear leads, the market after
		d.Summary = append(d.Summary, d.Headline)
		d.Headline = quoteHeadline(lang, *q)
	}
	if len(v.NoPlan) > 0 {
		// A plan was asked for and none is sourced: said first, plainly.
		names := make([]string, len(v.NoPlan))
		for i, g := range v.NoPlan {
			names[i] = gpuName(g)
		}
		d.Headline = tr(lang,
			fmt.Sprintf("No sourced monthly-plan price for %s; on demand shown: %s", strings.Join(names, ", "), d.Headline),
			fmt.Sprintf("数据里没有 %s 的包月价；以下为按需价：%s", strings.Join(names, "、"), d.Headline))
	}
	if v.elsewhere() {
		// none of the named platforms lists the cards: said first, then
		// where they are priced
		names := make([]string, len(v.GPUs))
		for i, g := range v.GPUs {
			names[i] = gpuName(g)
		}
		in, inZH := "", ""
		if v.outOfArea() {
			n := areaName(v.areaAsked())
			in, inZH = " in "+n[0], "在"+n[1]
		}
		d.Headline = tr(lang,
			fmt.Sprintf("None of %s lists %s%s; elsewhere: %s", andNames(lang, comparedNames(lang, v.named())), strings.Join(names, ", "), in, d.Headline),
			fmt.Sprintf("%s %s都没有 %s 的报价；其他平台：%s", andNames(lang, comparedNames(lang, v.named())), inZH, strings.Join(names, "、"), d.Headline))
	}
	if v.NotListed != "" {
		// The platform asked about does not list the card: say so first,
		// then where it is priced (never "no price" when others have one).
		names := make([]string, len(v.GPUs))
		for i, g := range v.GPUs {
			names[i] = gpuName(g)
		}
		d.Headline = tr(lang,
			fmt.Sprintf("%s does not list %s; elsewhere: %s", platformName(lang, v.NotListed), strings.Join(names, ", "), d.Headline),
			fmt.Sprintf("%s 没有 %s 的报价；其他平台：%s", platformName(lang, v.NotListed), strings.Join(names, "、"), d.Headline))
	}
	if v.Persona != "" {
		d.Summary = append(d.Summary, v.Persona) // the enterprise filter, under the headline
	}
	if f := v.Area; f != nil {
		d.Summary = append(d.Summary, areaLine(lang, *f)) // the region filter, under the headline
	}
	d.ListTitle = tr(lang, "Offers per card-hour, cheapest first:", "每卡每小时报价（从低到高）：")
	var wk working
	groups := priceLines(v) // price_catalog.go
	for _, g := range groups {
		o := g.Offer
		kind := billingNames[o.Billing]
		when := o.ObservedAt
		if o.FreshnessLabel != "" {
			when = o.FreshnessLabel // "live", "recent", "dated: 2026-03-21"
		}
		if a := present.Age(present.LangOf(lang), o.ObservedAt, now); a != "" {
			when += tr(lang, ", ", "，") + a
		}
		item := fmt.Sprintf(tr(lang, "%s — %s (%s, %s)", "%s — %s（%s，%s）"), platformName(lang, o.Platform), priceText(o), tr(lang, kind[0], kind[1]), when)
		if len(v.GPUs) > 1 {
			item = gpuName(o.GPU) + " " + item
		}
		if o.Confidence == "low" {
			item += tr(lang, " · low confidence (a note or an estimate)", " · 低可信度（笔记或估计）")
		}
		if o.Regions > 1 {
			item += tr(lang, fmt.Sprintf(" · %d regions", o.Regions), fmt.Sprintf(" · %d 个区域", o.Regions))
		}
		if g.More > 0 {
			item += tr(lang, fmt.Sprintf(" · %d more offers here", g.More), fmt.Sprintf(" · 该平台另有 %d 条报价", g.More))
		}
		if g.Same > 0 {
			item += tr(lang, fmt.Sprintf(" · the same in %d more offers", g.Same), fmt.Sprintf(" · 另有 %d 条同样的报价", g.Same))
		}
		d.List = append(d.List, item)
	}
	if v.comparing() {
		d.List = append(d.List, missingItems(lang, v.Compare, len(v.GPUs) > 1, v.areaAsked())...) // every named platform appears
	}
	wk.strings(present.StepItem, d.List...)
	srcs := make([]string, 0, len(v.Offers))
	names := map[[2]string]string{} // a card's offers share a few platforms
	for _, o := range v.Offers {
		offer := o.Original
		if o.SKU != "" {
			offer = o.SKU + ": " + offer
		}
		who, ok := names[[2]string{o.GPU, o.Platform}]
		if !ok {
			who = gpuName(o.GPU) + " " + platformName(lang, o.Platform)
			names[[2]string{o.GPU, o.Platform}] = who
		}
		srcs = append(srcs, who+": "+offer+" — "+tr(lang, "observed", "采集于")+" "+o.ObservedAt+" ("+o.Source+")")
	}
	wk.strings(present.StepSource, srcs...)
	if len(v.Offers) == 0 {
		d.List = nil
	}
	if len(v.GPUs) > 0 {
		d.Next = tr(lang, "does a monthly plan pay? ", "包月划算吗？") + fmt.Sprintf("/gpu monthly %s 200h", v.GPUs[0])
	}
	wk.strings(present.StepAssumption, v.Assumptions...)
	wk.strings(present.StepNote, tr(lang, "Cheapest first, per card-hour. Prices are dated observations, not live quotes: confirm on the platform.",
		"按每卡每小时从低到高排列。价格为带日期的采集值，并非实时报价，请到平台确认。"))
	d.Working = wk
	return d
}

// quoteHeadline says where a quoted card-hour price sits in the market.
func quoteHeadline(lang string, q QuoteView) string {
	said := moneyStr(q.Quote, q.Currency)
	if q.SaidIn != q.Currency {
		said = moneyStr(q.Said, q.SaidIn) + " (≈ " + said + ")"
	}
	if q.Monthly > 0 {
		said = tr(lang, fmt.Sprintf("%s a month for %d card(s) = %s", moneyStr(q.Monthly, q.SaidIn), q.MonthlyCards, said),
			fmt.Sprintf("每月 %s（%d 张卡）折合 %s", moneyStr(q.Monthly, q.SaidIn), q.MonthlyCards, said))
	}
	en, zh := "about the market", "与市场价相当"
	switch {
	case q.Dear:
		en, zh = "above the market", "偏贵"
	case q.Ratio < 1-advisor.QuoteBand:
		en, zh = "below the market", "低于市场价"
	}
	return tr(lang,
		fmt.Sprintf("Your quote of %s/card-hour for %s is %s: %s× the median of %d on-demand offers (%s); the lowest is %s on %s.",
			said, gpuName(q.GPU), en, fmtNum(q.Ratio), q.Offers, moneyStr(q.Median, q.Currency), moneyStr(q.Min, q.Currency), platformName(lang, q.Cheapest)),
		fmt.Sprintf("%s 报价 %s/卡时%s：按需 %d 个报价的中位数为 %s（报价为其 %s 倍），最低 %s（%s）。",
			gpuName(q.GPU), said, zh, q.Offers, moneyStr(q.Median, q.Currency), fmtNum(q.Ratio), moneyStr(q.Min, q.Currency), platformName(lang, q.Cheapest)))
}

// deadlineCap says which limits a budget's hours: the money, or the
// calendar before the deadline.
func deadlineCap(lang string, deadline, hours float64) string {
	switch {
	case deadline <= 0:
		return ""
	case deadline < hours:
		return tr(lang, fmt.Sprintf("By the deadline the cards can run only %s h: the calendar, not the money, is the limit. ", fmtNum(deadline)),
			fmt.Sprintf("但到截止日每张卡最多只能跑 %s 小时：卡住你的是时间，不是钱。", fmtNum(deadline)))
	}
	return tr(lang, fmt.Sprintf("The deadline leaves %s h: the money runs out first. ", fmtNum(deadline)),
		fmt.Sprintf("到截止日还有 %s 小时：钱先用完。", fmtNum(deadline)))
}

// affordHeadline says how many cards a budget keeps running, and the
// arithmetic's parts.
func affordHeadline(lang string, f AffordView, gpu string) string {
	perEN, perZH := map[string][2]string{"month": {"a month", "每月"}, "quarter": {"a quarter", "每季度"}, "year": {"a year", "每年"}}[f.Per][0], map[string][2]string{"month": {"a month", "每月"}, "quarter": {"a quarter", "每季度"}, "year": {"a year", "每年"}}[f.Per][1]
	budget := f.BudgetMonthly * max(f.Months, 1)
	when, whenZH := fmt.Sprintf("%s h a month", fmtNum(f.HoursPerMonth)), fmt.Sprintf("每月 %s 小时", fmtNum(f.HoursPerMonth))
	if f.AroundTheClock {
		when, whenZH = "24/7", "7×24 小时"
	}
	en := fmt.Sprintf("%s %s keeps %d %s running %s: %s a card-month (%s/card-hour × %s h); %s a month left over.",
		moneyStr(budget, f.Currency), perEN, f.Cards, gpuName(gpu), when, moneyStr(f.PerCardMonth, f.Currency), moneyStr(f.PerCardMonth/f.HoursPerMonth, f.Currency), fmtNum(f.HoursPerMonth), moneyStr(f.Left, f.Currency))
	zh := fmt.Sprintf("%s %s 能养 %d 张 %s（%s）：每张每月 %s（%s/卡时 × %s 小时），每月剩 %s。",
		perZH, moneyStr(budget, f.Currency), f.Cards, gpuName(gpu), whenZH, moneyStr(f.PerCardMonth, f.Currency), moneyStr(f.PerCardMonth/f.HoursPerMonth, f.Currency), fmtNum(f.HoursPerMonth), moneyStr(f.Left, f.Currency))
	if f.Per == "" {
		en = fmt.Sprintf("%s (no period said: read as a month's budget) keeps %d %s running %s: %s a card-month (%s/card-hour × %s h); %s a month left over.",
			moneyStr(budget, f.Currency), f.Cards, gpuName(gpu), when, moneyStr(f.PerCardMonth, f.Currency), moneyStr(f.PerCardMonth/f.HoursPerMonth, f.Currency), fmtNum(f.HoursPerMonth), moneyStr(f.Left, f.Currency))
		zh = fmt.Sprintf("%s（没说周期，按每月预算算）能养 %d 张 %s（%s）：每张每月 %s（%s/卡时 × %s 小时），每月剩 %s。",
			moneyStr(budget, f.Currency), f.Cards, gpuName(gpu), whenZH, moneyStr(f.PerCardMonth, f.Currency), moneyStr(f.PerCardMonth/f.HoursPerMonth, f.Currency), fmtNum(f.HoursPerMonth), moneyStr(f.Left, f.Currency))
	}
	return tr(lang, en, zh)
}

// areaNames name the regions a filter can ask for.
var areaNames = map[string][2]string{"us": {"the US", "美国"}, "eu": {"Europe", "欧洲"}, "cn": {"mainland China", "国内"}, "sg": {"Singapore", "新加坡"}, "ap": {"Asia-Pacific", "亚太"}}

// areaLine says what a region filter kept, left out and could not tell.
func areaLine(lang string, f AreaFilter) string {
	n := areaNames[f.Want]
	if n[0] == "" {
		n = [2]string{f.Want, f.Want}
	}
	en := fmt.Sprintf("Only %s: %d offers listed there", n[0], f.In)
	zh := fmt.Sprintf("只看%s：%d 个报价在%s", n[1], f.In, n[1])
	switch {
	case f.Kept && f.Unknown > 0:
		en = fmt.Sprintf("Only %s: no offer is listed there; shown are the %d whose source names no region — confirm the region on the platform", n[0], f.Unknown)
		zh = fmt.Sprintf("只看%s：没有报价写明在%s；下面是 %d 个来源未写地区的报价，请在平台上确认地区", n[1], n[1], f.Unknown)
	case f.Unknown > 0:
		en += fmt.Sprintf("; %d that name no region left out", f.Unknown)
		zh += fmt.Sprintf("；%d 个未写地区的已排除", f.Unknown)
	}
	if f.Out > 0 {
		en += fmt.Sprintf("; %d elsewhere left out", f.Out)
		zh += fmt.Sprintf("；%d 个在其他地区，已排除", f.Out)
	}
	return tr(lang, en+".", zh+"。")
}

// cheapestCard is the asked card whose headline offer is lowest, when
// several cards were asked and all are priced in one currency.
func cheapestCard(v PriceView) (PriceOffer, bool) {
	if len(v.GPUs) < 2 {
		return PriceOffer{}, false
	}
	var best PriceOffer
	for i, g := range v.GPUs {
		o, _, ok := headlineOffer(v.Offers, g, v.Spot)
		if !ok || i > 0 && o.Currency != best.Currency {
			return PriceOffer{}, false
		}
		if i == 0 || o.Price < best.Price {
			best = o
		}
	}
	return best, true
}

// termHeadline totals a commitment at the user's rate over the term (every
// hour paid), a month of it, then how the rate sits against the market's
// on-demand offers and the sourced committed rate.
func termHeadline(lang, gpu string, r advisor.Rental, cur string, t TermQuote) string {
	rate := moneyStr(r.PricePerCardHour, cur)
	years := fmtNum(t.Years)
	head := tr(lang,
		fmt.Sprintf("%d× %s on a %s-year commitment at %s/card-hour: %s over the term (%d × %s h × %s, every hour paid), ≈ %s a month.",
			r.Cards, gpuName(gpu), years, rate, moneyStr(r.Total, cur), r.Cards, fmtNum(r.Hours), rate, moneyStr(t.Month.Total, cur)),
		fmt.Sprintf("%d 张 %s 签 %s 年、每卡时 %s：整个期限共 %s（%d × %s 小时 × %s，期限内每小时都计费），约每月 %s。",
			r.Cards, gpuName(gpu), years, rate, moneyStr(r.Total, cur), r.Cards, fmtNum(r.Hours), rate, moneyStr(t.Month.Total, cur)))
	if t.Years == 1 {
		head = tr(lang,
			fmt.Sprintf("%d× %s on a 1-year commitment at %s/card-hour: %s a year (%d × %s h × %s, every hour paid), ≈ %s a month.",
				r.Cards, gpuName(gpu), rate, moneyStr(r.Total, cur), r.Cards, fmtNum(r.Hours), rate, moneyStr(t.Month.Total, cur)),
			fmt.Sprintf("%d 张 %s 包年、每卡时 %s：一年共 %s（%d × %s 小时 × %s，期限内每小时都计费），约每月 %s。",
				r.Cards, gpuName(gpu), rate, moneyStr(r.Total, cur), r.Cards, fmtNum(r.Hours), rate, moneyStr(t.Month.Total, cur)))
	}
	var more []string
	if q := t.Market; q != nil {
		en, zh := "about the market", "与市场相当"
		switch {
		case q.Dear:
			en, zh = "above the market", "高于市场"
		case q.Ratio < 1-advisor.QuoteBand:
			en, zh = "below the market", "低于市场"
		}
		more = append(more, tr(lang,
			fmt.Sprintf("The rate is %s: %s× the median of %d on-demand offers (%s), the lowest %s on %s", en, fmtNum(q.Ratio), q.Offers, moneyStr(q.Median, q.Currency), moneyStr(q.Min, q.Currency), platformName(lang, q.Cheapest)),
			fmt.Sprintf("这个价%s：为按需 %d 个报价中位数 %s 的 %s 倍，最低 %s（%s）", zh, q.Offers, moneyStr(q.Median, q.Currency), fmtNum(q.Ratio), moneyStr(q.Min, q.Currency), platformName(lang, q.Cheapest))))
	}
	termName := map[string][2]string{"1y": {"1-year", "一年期"}, "3y": {"3-year", "三年期"}}[t.Term]
	if p := t.Sourced; p != nil {
		rate := moneyStr(p.Committed, cur)
		if p.CommittedHigh > p.Committed {
			rate += "–" + fmtNum(p.CommittedHigh) // a ranged row stays a range
		}
		more = append(more, tr(lang,
			fmt.Sprintf("the sourced %s rate is %s/card-hour (%s %s, %s, %s)", termName[0], rate, p.Provider, p.Instance, p.Date, p.Confidence),
			fmt.Sprintf("有出处的%s价为 %s/卡时（%s %s，%s，%s）", termName[1], rate, p.Provider, p.Instance, p.Date, p.Confidence)))
	} else if termName[0] != "" {
		more = append(more, tr(lang, fmt.Sprintf("no sourced %s rate for %s to weigh it against", termName[0], gpuName(gpu)),
			fmt.Sprintf("数据里没有 %s 的%s价可比", gpuName(gpu), termName[1])))
	}
	if len(more) == 0 {
		return head
	}
	return head + "\n" + tr(lang, strings.Join(more, "; ")+".", strings.Join(more, "；")+"。")
}

// machineHeadline totals machines at a machine's hourly rate, said per
// card too.
func machineHeadline(lang, gpu string, r advisor.Rental, m MachineRate) string {
	return tr(lang,
		fmt.Sprintf("%s a machine-hour for %d× %s is %s/card-hour; %d machine(s) (%d cards) × %s h: %s. ",
			moneyStr(m.Rate, m.Currency), m.Cards, gpuName(gpu), moneyStr(r.PricePerCardHour, m.Currency), m.Machines, r.Cards, fmtNum(r.Hours), moneyStr(r.Total, m.Currency)),
		fmt.Sprintf("整机（%d 张 %s）每小时 %s，即每卡时 %s；%d 台（%d 张卡）× %s 小时：%s。",
			m.Cards, gpuName(gpu), moneyStr(m.Rate, m.Currency), moneyStr(r.PricePerCardHour, m.Currency), m.Machines, r.Cards, fmtNum(r.Hours), moneyStr(r.Total, m.Currency)))
}
