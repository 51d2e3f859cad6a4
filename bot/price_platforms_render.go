package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// compareKinds name a compared billing kind inside a sentence.
var compareKinds = map[string][2]string{
	"on_demand": {"on demand", "按需"},
	"spot":      {"spot (interruptible)", "竞价（可中断）"},
	"monthly":   {"on a monthly plan (per card-hour over 730 h)", "包月（按每月 730 小时折合）"},
	"package":   {"prepaid", "预付"},
}

// andNames joins names as a sentence lists them: "A and B", "A, B and C";
// "A 和 B", "A、B 和 C".
func andNames(lang string, names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	head, last := names[:len(names)-1], names[len(names)-1]
	return tr(lang, strings.Join(head, ", ")+" and "+last, strings.Join(head, "、")+" 和 "+last)
}

// comparedNames are the display names of a comparison's platforms, in
// the order named.
func comparedNames(lang string, platforms []string) []string {
	out := make([]string, len(platforms))
	for i, p := range platforms {
		out[i] = platformName(lang, p)
	}
	return out
}

// fromPrice is an offer's card-hour price for a sentence: its low end,
// "from" when the platform lists a range (regions that differ).
func fromPrice(lang string, o PriceOffer) string {
	p := moneyStr(o.Price, o.Currency)
	if o.PriceHigh > o.Price {
		p = tr(lang, "from ", "最低 ") + p
	}
	return p
}

// compareLine is the headline of a comparison of named platforms: which
// is cheaper for the card and by how much, per card-hour and over the
// rental asked; then each named platform without a price, said so; then a
// cheaper deal of another kind, said apart.
func compareLine(lang string, c PlatformCompare, named []string, area string) string {
	g := gpuName(c.GPU)
	kind := compareKinds[c.Billing]
	var priced []PlatformRow
	for _, r := range c.Rows {
		if r.Priced() {
			priced = append(priced, r)
		}
	}
	var parts []string
	switch {
	case len(priced) == 0:
		parts = append(parts, tr(lang,
			fmt.Sprintf("None of %s lists a price for %s", andNames(lang, comparedNames(lang, named)), g),
			fmt.Sprintf("%s 都没有 %s 的报价", andNames(lang, comparedNames(lang, named)), g)))
	case len(priced) == 1:
		w := priced[0]
		s := tr(lang,
			fmt.Sprintf("Of %s, only %s lists a price for %s: %s/card-hour %s", andNames(lang, comparedNames(lang, named)), platformName(lang, w.Platform), g, fromPrice(lang, *w.Offer), kind[0]),
			fmt.Sprintf("%s 中只有 %s 有 %s 报价：%s %s/卡时", andNames(lang, comparedNames(lang, named)), platformName(lang, w.Platform), g, kind[1], fromPrice(lang, *w.Offer)))
		if c.Hours > 0 {
			s += tr(lang, fmt.Sprintf("; %d card(s) × %s h: %s", c.Cards, fmtNum(c.Hours), moneyStr(w.Total, w.Offer.Currency)),
				fmt.Sprintf("；%d 张卡 × %s 小时：%s", c.Cards, fmtNum(c.Hours), moneyStr(w.Total, w.Offer.Currency)))
		}
		parts = append(parts, s)
	case c.Difference == 0:
		// the two cheapest cost the same
		a, b := priced[0], priced[1]
		s := tr(lang,
			fmt.Sprintf("%s and %s cost the same for %s %s: %s/card-hour", platformName(lang, a.Platform), platformName(lang, b.Platform), g, kind[0], fromPrice(lang, *a.Offer)),
			fmt.Sprintf("%s 和 %s 的 %s %s价格相同：%s/卡时", platformName(lang, a.Platform), platformName(lang, b.Platform), g, kind[1], fromPrice(lang, *a.Offer)))
		s += dearerRest(lang, priced[2:])
		parts = append(parts, s)
	default:
		w, next := priced[0], priced[1]
		cur := w.Offer.Currency
		var s string
		if len(priced) == 2 {
			s = tr(lang,
				fmt.Sprintf("%s is cheaper than %s for %s %s: %s vs %s/card-hour, %s less per card-hour", platformName(lang, w.Platform), platformName(lang, next.Platform), g, kind[0], fromPrice(lang, *w.Offer), fromPrice(lang, *next.Offer), moneyStr(c.Difference, cur)),
				fmt.Sprintf("%s 比 %s 便宜：%s %s %s 对 %s/卡时，每卡时便宜 %s", platformName(lang, w.Platform), platformName(lang, next.Platform), g, kind[1], fromPrice(lang, *w.Offer), fromPrice(lang, *next.Offer), moneyStr(c.Difference, cur)))
		} else {
			s = tr(lang,
				fmt.Sprintf("%s is the cheapest of %s for %s %s: %s/card-hour", platformName(lang, w.Platform), andNames(lang, comparedNames(lang, inOrder(named, priced))), g, kind[0], fromPrice(lang, *w.Offer)),
				fmt.Sprintf("%s 中 %s 最便宜：%s %s %s/卡时", andNames(lang, comparedNames(lang, inOrder(named, priced))), platformName(lang, w.Platform), g, kind[1], fromPrice(lang, *w.Offer))) +
				dearerRest(lang, priced[1:])
		}
		if c.Hours > 0 {
			// a month (730 h) asked: the difference is said per month
			month, less, monthZH, lessZH := "", "", "", "少花"
			if c.Hours == knowledge.HoursPerMonth {
				month, less, monthZH, lessZH = " (a month)", " a month", "（一个月）", "每月少花"
			}
			s += tr(lang,
				fmt.Sprintf("; for %d card(s) × %s h%s: %s vs %s, %s less%s on %s", c.Cards, fmtNum(c.Hours), month, moneyStr(w.Total, cur), moneyStr(next.Total, cur), moneyStr(c.TotalDifference, cur), less, platformName(lang, w.Platform)),
				fmt.Sprintf("；%d 张卡 × %s 小时%s：%s 对 %s，在 %s 上%s %s", c.Cards, fmtNum(c.Hours), monthZH, moneyStr(w.Total, cur), moneyStr(next.Total, cur), platformName(lang, w.Platform), lessZH, moneyStr(c.TotalDifference, cur)))
		}
		parts = append(parts, s)
	}
	for _, r := range c.Rows {
		switch {
		case r.Priced():
		case r.Other != nil:
			ok := compareKinds[r.Other.Billing]
			parts = append(parts, tr(lang,
				fmt.Sprintf("%s: no %s %s price; %s %s/card-hour (not compared)", platformName(lang, r.Platform), kind[0], g, ok[0], fromPrice(lang, *r.Other)),
				fmt.Sprintf("%s：没有 %s %s价；%s %s/卡时（未参与比较）", platformName(lang, r.Platform), g, kind[1], ok[1], fromPrice(lang, *r.Other))))
		case r.OutOfArea && area != "" && len(priced) > 0:
			n := areaName(area)
			parts = append(parts, tr(lang,
				fmt.Sprintf("%s: no %s price listed in %s (its offers are elsewhere)", platformName(lang, r.Platform), g, n[0]),
				fmt.Sprintf("%s：没有%s的 %s 报价（它的报价在其他地区）", platformName(lang, r.Platform), n[1], g)))
		case r.Variant != "" && len(priced) > 0:
			parts = append(parts, tr(lang,
				fmt.Sprintf("%s: no %s price in the catalogue (it lists %s)", platformName(lang, r.Platform), g, gpuName(r.Variant)),
				fmt.Sprintf("%s：目录里没有 %s 的价格（它有 %s）", platformName(lang, r.Platform), g, gpuName(r.Variant))))
		case len(priced) > 0:
			parts = append(parts, tr(lang,
				fmt.Sprintf("%s: no %s price in the catalogue", platformName(lang, r.Platform), g),
				fmt.Sprintf("%s：目录里没有 %s 的价格", platformName(lang, r.Platform), g)))
		}
	}
	if o := c.Lower; o != nil {
		ok := compareKinds[o.Billing]
		parts = append(parts, tr(lang,
			fmt.Sprintf("Not like for like: %s %s is lower still, %s/card-hour", platformName(lang, o.Platform), ok[0], fromPrice(lang, *o)),
			fmt.Sprintf("不同计费方式：%s %s更低，%s/卡时", platformName(lang, o.Platform), ok[1], fromPrice(lang, *o))))
	}
	return strings.Join(parts, tr(lang, ". ", "。")) + tr(lang, ".", "。")
}

// dearerRest says the dearer platforms' prices and how much more each is.
func dearerRest(lang string, rows []PlatformRow) string {
	if len(rows) == 0 {
		return ""
	}
	items := make([]string, len(rows))
	for i, r := range rows {
		items[i] = tr(lang,
			fmt.Sprintf("%s %s (+%s)", platformName(lang, r.Platform), fromPrice(lang, *r.Offer), moneyStr(r.More, r.Offer.Currency)),
			fmt.Sprintf("%s %s（贵 %s）", platformName(lang, r.Platform), fromPrice(lang, *r.Offer), moneyStr(r.More, r.Offer.Currency)))
	}
	return tr(lang, "; ", "；") + strings.Join(items, tr(lang, ", ", "，"))
}

// areaName names a region a filter asks for, in both languages.
func areaName(want string) [2]string {
	if n, ok := areaNames[want]; ok {
		return n
	}
	return [2]string{want, want}
}

// missingItems are the list lines of named platforms with no price for
// the card, so every named platform appears in the list.
func missingItems(lang string, cs []PlatformCompare, several bool, area string) []string {
	var out []string
	for _, c := range cs {
		if c.None {
			continue
		}
		for _, r := range c.Rows {
			if r.Offer != nil || r.Other != nil {
				continue
			}
			item := tr(lang, fmt.Sprintf("%s — no %s price listed", platformName(lang, r.Platform), gpuName(c.GPU)),
				fmt.Sprintf("%s — 没有 %s 的报价", platformName(lang, r.Platform), gpuName(c.GPU)))
			if r.OutOfArea && area != "" {
				n := areaName(area)
				item = tr(lang, fmt.Sprintf("%s — no %s price listed in %s", platformName(lang, r.Platform), gpuName(c.GPU), n[0]),
					fmt.Sprintf("%s — 没有%s的 %s 报价", platformName(lang, r.Platform), n[1], gpuName(c.GPU)))
			}
			if several {
				item = gpuName(c.GPU) + " " + item
			}
			out = append(out, item)
		}
	}
	return out
}

// platformsUsed says, for ask --json's used, how the named platforms
// entered the answer: which were compared, which had no price (said in
// the text, not shown as offers).
func platformsUsed(cs []PlatformCompare) string {
	var compared, without []string
	for _, c := range cs {
		for _, r := range c.Rows {
			n := platformName("en", r.Platform)
			switch {
			case r.Offer != nil:
				compared = appendOnce(compared, n)
			case r.Other != nil:
				without = appendOnce(without, n+" (only another billing kind for "+gpuName(c.GPU)+")")
			case r.OutOfArea:
				without = appendOnce(without, n+" (no "+gpuName(c.GPU)+" price in the region asked)")
			default:
				without = appendOnce(without, n+" (no "+gpuName(c.GPU)+" price)")
			}
		}
	}
	out := "the platforms compared"
	if len(compared) > 0 {
		out += ": " + strings.Join(compared, ", ")
	} else {
		out = "the platforms named: none lists the card, so other platforms' offers are shown"
	}
	if len(without) > 0 {
		out += "; not priced there, said in the answer: " + strings.Join(without, ", ")
	}
	return out
}

// inOrder are the priced rows' platforms in the order they were named.
func inOrder(named []string, rows []PlatformRow) []string {
	var out []string
	for _, p := range named {
		for _, r := range rows {
			if r.Platform == p {
				out = append(out, p)
			}
		}
	}
	return out
}
