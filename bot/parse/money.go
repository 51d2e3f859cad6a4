package parse

import (
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/gpubot/gpubot/bot/parse/amount"
)

// Money in text. A figure counts as money when it carries a currency
// ("¥75", "2.5usd", "75 块", "3 dollars"), a per-time unit ("1.8/h",
// "1.9 一小时"), or follows a price word ("包月 1100", "预算 5000",
// "电费 0.8"). A figure with only a magnitude ("1.6万", "200 万") is a weak
// candidate that counts as money only for intents that talk about money
// without units (buy, monthly, spend, recommend).
const (
	curPre  = `(us\$|\$|¥|rmb|cny|usd)`
	numPart = `(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)`
	magPart = `(万|千|k|w\b|m\b)?`
	curPost = `(块钱|块|元|rmb|cny|usd|美元|美金|刀|dollars?|bucks|人民币|¥)?`
	perPart = `((?:\s?/\s?|\s?每\s?|\s?一\s?|\s?per\s|\s?an?\s|\s?每个\s?)(?:(?:gpu|card)[- ]?)?(?:个小时|小时|卡时|hours?\b|hrs?\b|hr\b|h\b|时|个月|月|months?\b|mo\b|年|years?\b|yr\b|kwh|度|天|days?\b))?`
)

var (
	reMoney = regexp.MustCompile(curPre + `?\s?` + numPart + `\s?` + magPart + `\s?` + curPost + perPart)
	// a bare number right after a price word: "包月 1100", "电费 0.8", "budget 5000"
	reCueMoney = regexp.MustCompile(`(包月价格?|包月|月租|月费|月付|一个月|每个月|每月|per month|a month|按需|按量|按小时|每卡每小时|每卡时|一卡时|每小时|一小时|小时价|时价|单价|价格|租金|租|预算|budget|电费|电价|运维|人工|买断|售价|整机|花了|共|总共|一共|合计|报销|price|rent|renting|costs?|paid|spent)` +
		`(?:\s|是|为|:|=|要|大概|大约|约|按|at|of|is|一年|每年|一个月|每月|一小时|每小时|每卡时|每卡每小时|一卡时|每卡每月|每卡|每张|差不多)*` + numPart + `\s?` + magPart + `\s?` + curPost + perPart)
	// what may not follow a money figure: it is a count of something else
	reNotMoneyAfter = regexp.MustCompile(`^\s?(?:个|张|卡|显卡|条|小时|h\b|hours?|天|年|月|%|b\b|tokens?|samples?|epochs?|轮|遍|并发|路|人|users?|x\b|gpus?|cards?|台|参数|亿|w\b|瓦|watts?|tokens?/s|t/s|requests?|reqs?|ctx|contexts?|prompts?|images?|imgs?|steps?|rps|qps|上下文|张图|次|请求|调用|calls?|queries|query)`)
	// 块 is also the counter for cards: "10块4090", "两块卡"
	reCardAfter = regexp.MustCompile(`^\s?(?:卡|显卡|gpu|rtx|[ahbl]\d|\d{4}|昇腾|910|§|¶)`)
)

// moneyKind is what a figure is for, from its unit or the words around it.
type moneyKind int

const (
	kindBare     moneyKind = iota // no unit, no cue
	kindHourly                    // per hour, or after 按需/price/rent
	kindMonthly                   // per month, or after 包月/月租
	kindYearly                    // per year
	kindPower                     // per kWh, or after 电费
	kindOps                       // after 运维/人工
	kindBudget                    // after or before 预算/budget
	kindPurchase                  // after 买断/售价/整机
	kindSpent                     // after 花了/共/报销/spent
)

type moneyHit struct {
	m     Money
	kind  moneyKind
	weak  bool // magnitude only: money only for some intents
	start int
	end   int // where the figure and its unit end, in the cue text
}

// ParseMoney reads one money value with the shared reader (package
// amount): "1.8", "¥1.8", "2.5usd", "$2.5/h", "1.2元/时", "25k", "1.6万",
// "900/月", "¥1,000". Negative amounts, scientific notation and a decimal
// comma are refused.
func ParseMoney(s string) (Money, bool) {
	m, err := amount.Read(s)
	if err != nil {
		return Money{}, false
	}
	return Money{Amount: m.Amount, Currency: m.Currency}, true
}

func moneyOf(pre, num, mag, post string) (Money, bool) {
	v, ok := Number(num)
	if !ok {
		return Money{}, false
	}
	switch mag {
	case "m":
		if pre == "" {
			return Money{}, false // "500m": a model or a count, not money; "$2.5M" has its sign
		}
		v *= 1e6
	case "k":
		v *= 1e3
	case "万", "w":
		v *= 1e4
	case "千":
		v *= 1e3
	}
	if math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
		return Money{}, false
	}
	return Money{Amount: v, Currency: currencyOf(pre, post)}, true
}

// currencyOf is the currency the first mark among words names (package
// amount's marks).
func currencyOf(words ...string) string {
	for _, w := range words {
		if c := amount.Currency(w); c != "" {
			return c
		}
	}
	return ""
}

// reAtRate is "at" or "@" right before a figure: a rate ("at $2.50").
var reAtRate = regexp.MustCompile(`(?:\bat|@)\s?$`)

func perKind(per string) moneyKind {
	per = strings.TrimSpace(per)
	switch {
	case per == "":
		return kindBare
	case strings.HasSuffix(per, "kwh") || strings.HasSuffix(per, "度"):
		return kindPower
	case strings.Contains(per, "月") || strings.Contains(per, "mo"):
		return kindMonthly
	case strings.Contains(per, "年") || strings.Contains(per, "y"):
		return kindYearly
	case strings.Contains(per, "天") || strings.Contains(per, "day"):
		return kindBare
	}
	return kindHourly
}

// cueKind classifies a price word.
func cueKind(cue string) moneyKind {
	switch cue {
	case "包月价格", "包月价", "包月", "月租", "月费", "月付", "一个月", "每个月", "每月", "per month", "a month":
		return kindMonthly
	case "按需", "按量", "按小时", "每卡每小时", "每卡时", "一卡时", "每小时", "一小时", "小时价", "时价", "单价", "price", "rent", "renting", "租金", "租":
		return kindHourly
	case "预算", "budget":
		return kindBudget
	case "电费", "电价":
		return kindPower
	case "运维", "人工":
		return kindOps
	case "买断", "售价", "整机":
		return kindPurchase
	case "花了", "共", "总共", "一共", "合计", "报销", "paid", "spent":
		return kindSpent
	}
	return kindBare
}

// scanMoney finds money figures in t, blanks them, and returns them in
// order.
func (x extractor) scanMoney(t *text) []moneyHit {
	if !t.digits {
		return nil // every money pattern needs a figure
	}
	var hits []moneyHit
	var spans [][2]int
	// 1. a price word followed by a figure
	for _, loc := range reCueMoney.FindAllStringSubmatchIndex(t.s, -1) {
		numStart := loc[4]
		if !t.numberStart(numStart) {
			continue
		}
		sub := submatches(t.s, loc)
		cue, num, mag, post, per := sub[1], sub[2], sub[3], sub[4], sub[5]
		if reNotMoneyAfter.MatchString(t.s[loc[1]:]) && post == "" && per == "" {
			continue
		}
		if (post == "块" || post == "" && per == "" && mag == "") && reCardAfter.MatchString(t.s[loc[1]:]) && !bigAmount(num) {
			continue // "rent 4 A100 80GB", "租10块4090": cards, not a price
		}
		m, ok := moneyOf("", num, mag, post)
		if !ok {
			continue
		}
		kind := cueKind(cue)
		// the words between the cue and the figure say its period when
		// they name one: "整机每月18万" is a machine's month, not its price
		switch filler := t.s[loc[3]:numStart]; {
		case kind != kindPurchase && kind != kindBare:
			// a budget, a running cost or spend keeps its word ("预算每月 $12,000")
		case containsAny(filler, "每月", "一个月", "每个月", "每卡每月"):
			kind = kindMonthly
		case containsAny(filler, "每年", "一年"):
			kind = kindYearly
		case containsAny(filler, "每小时", "一小时", "每卡时", "一卡时", "每卡每小时"):
			kind = kindHourly
		}
		if k := perKind(per); k != kindBare && !(kind == kindBudget && (k == kindMonthly || k == kindYearly)) {
			kind = k // "预算两万元一个月" stays a budget: its period is read with it (budgetMonths)
		}
		if kind == kindPower && m.Amount >= 50 {
			kind = kindOps // "电费加托管 18万/年": a yearly running cost, not a price per kWh
		}
		if kind != kindBudget && x.budgetAround(t.s, loc[0], loc[1]) {
			kind = kindBudget
		}
		hits = append(hits, moneyHit{m: m, kind: kind, start: numStart, end: loc[1]})
		spans = append(spans, [2]int{numStart, loc[1]})
	}
	t.apply(spans, nil)
	spans = spans[:0]
	// 2. figures with a currency or a per-time unit
	for _, loc := range reMoney.FindAllStringSubmatchIndex(t.s, -1) {
		sub := submatches(t.s, loc)
		pre, num, mag, post, per := sub[1], sub[2], sub[3], sub[4], sub[5]
		numStart := loc[4]
		if !t.numberStart(numStart) {
			continue
		}
		strong := pre != "" || post != "" || per != "" || x.budgetAround(t.s, loc[0], loc[1])
		weak := !strong && (mag == "万" || mag == "w")
		if !strong && !weak {
			continue
		}
		after := t.s[loc[1]:]
		if (post == "块" || pre == "" && post == "" && per == "") && reCardAfter.MatchString(after) && !bigAmount(num) {
			continue // "10块4090", "we have 8 H100": cards, not money
		}
		if (weak || pre == "" && post == "") && reNotMoneyAfter.MatchString(after) {
			continue
		}
		if mag == "w" && pre == "" && post == "" && reWattsCue.MatchString(t.s[max(0, loc[0]-16):min(len(t.s), loc[1]+16)]) {
			continue // "700w 功耗" is watts
		}
		m, ok := moneyOf(pre, num, mag, post)
		if !ok {
			continue
		}
		kind := perKind(per)
		before := t.s[max(0, loc[0]-24):loc[0]]
		switch {
		case kind != kindHourly && x.budgetAround(t.s, loc[0], loc[1]):
			kind = kindBudget
		case kind == kindBare:
			kind = cueBefore(before)
		}
		if kind == kindPower && m.Amount >= 50 {
			kind = kindOps // "每年电费加托管18万": no electricity costs 50 a kWh
		}
		if kind == kindBare && m.Amount < 50 && reAtRate.MatchString(before) {
			kind = kindHourly // "how many H100 GPU-hours at $2.50?": a rate, not a second budget
		}
		if (kind == kindBare || kind == kindPurchase) && hourlyQuote(before, t.s, m.Amount) {
			kind = kindHourly // "按量租H800一卡时多少算合理？有渠道报18块": a card-hour quote
		}
		hits = append(hits, moneyHit{m: m, kind: kind, weak: weak, start: loc[0], end: loc[1]})
		spans = append(spans, [2]int{loc[0], loc[1]})
	}
	t.apply(spans, nil)
	// 3. a discount's percent ("35% off", "便宜30%") is neither money nor
	// utilisation: taken out here, read by finish (readDiscount)
	t.take(reDiscountPct, 0, func([]string, int) bool { return true })
	sortHits(hits)
	return hits
}

// cueBefore classifies a figure by the words just before it ("买断 ¥15000",
// "electricity ¥0.6").
func cueBefore(before string) moneyKind {
	if reMonthRightBefore.MatchString(before) && !containsAny(before, "预算", "budget", "经费", "额度", "封顶", "上限") {
		return kindMonthly // "整机每月18万": the word right before the figure says what it is
	}
	switch {
	// a card-hour unit right before the figure: "签一年每卡时 18 元" is a
	// rate an hour, whatever the term said before it
	case reHourUnitBefore.MatchString(before):
		return kindHourly
	// hosting and operations first: "整机报价160万 托管每年12万" is a
	// yearly cost of running the machine, not a second price
	case containsAny(before, "托管", "机房", "机柜", "colo", "hosting", "rack", "运维", "人工", "ops", "operations", "opex", "labor", "labour"):
		return kindOps
	case containsAny(before, "每年", "一年", "per year", "a year", "annual", "yearly", "/yr"):
		return kindYearly
	case containsAny(before, "电费", "电价", "electricity", "power"):
		return kindPower
	case containsAny(before, "买断", "售价", "整机", "购买", "买", "buy", "purchase", "报价", "服务器", "server", "node", "box", "hgx", "dgx", "quote", "@"):
		return kindPurchase
	case containsAny(before, "包月", "月租", "monthly"):
		return kindMonthly
	case containsAny(before, "按需", "按量", "on-demand", "hourly", "租", "rent"):
		return kindHourly
	}
	return kindBare
}

// reHourUnitBefore ends the words before a figure with a unit an hour.
var reHourUnitBefore = regexp.MustCompile(`(?:每卡每小时|每卡时|一卡时|每小时|一小时|per (?:gpu|card)[- ]?h(?:ou)?r)\s?(?:是|为|:|：|要|约|大概)?\s?$`)

// reQuoteWord ends the words before a quoted figure ("有渠道报18块",
// "they quoted us $2.10").
var reQuoteWord = regexp.MustCompile(`(?:报|报价|开价|给价|quoted(?: us| me)?|quote of|offered(?: us| me)?|offers?)\s*(?:了|是|为|:|：)?\s*$`)

// reCardHourTalk is a question about a price per card-hour.
var reCardHourTalk = regexp.MustCompile(`卡时|一小时|每小时|按量|/\s?h(?:r|our)?\b|per (?:gpu[- ]?|card[- ]?)?h(?:ou)?r|an hour|hourly|on[- ]demand`)

// hourlyQuote reports whether a small figure after a quote word, in a
// question about card-hour prices, is a quoted hourly price rather than a
// machine's purchase price or a budget. No card-hour costs 200 of
// anything; a machine always does.
func hourlyQuote(before, text string, amount float64) bool {
	return amount > 0 && amount < 200 && reQuoteWord.MatchString(before) && reCardHourTalk.MatchString(text)
}

// reMonthRightBefore is a per-month word just before a figure.
var reMonthRightBefore = regexp.MustCompile(`(?:每月|每个月|一个月|月租|包月|per month|a month|monthly)\s*(?:是|为|要|大概|约|:)?\s*[¥$]?\s*$`)

// budgetAround reports whether a figure at s[start:end] is a budget by the
// lexicon's words before or after it.
func (x extractor) budgetAround(s string, start, end int) bool {
	before := s[max(0, start-30):start]
	for len(before) > 0 && !utf8.RuneStart(before[0]) {
		before = before[1:]
	}
	before = strings.TrimRight(before, " -−") // "预算-5000": a signed budget is still the budget (refused in finish)
	after := s[end:min(len(s), end+24)]
	return containsAny(before, x.lex.Budget.Before...) && x.reBudgetBefore.MatchString(before) ||
		containsAny(after, x.lex.Budget.After...) && x.reBudgetAfter.MatchString(after)
}

// bigAmount reports a figure that cannot be a count of cards: "1,200 块
// 4090" is money, "10块4090" is ten cards.
func bigAmount(num string) bool {
	v, ok := Number(num)
	return strings.Contains(num, ",") || ok && v >= 1000
}

func sortHits(h []moneyHit) {
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && h[j].start < h[j-1].start; j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
}

func containsAny(s string, subs ...string) bool {
	for _, w := range subs {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
