package bot

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// Conversions: a figure the user states, restated in the other currency
// ("Convert $14,342 to CNY", "$2.49一小时的H100换成人民币是多少？") and,
// when asked, per another period ("850,000 CNY/mo … in USD per year",
// "… per GPU-hour if the box has 8 cards"). The planner hands such a
// message to the knowledge row with convertArg first in Slots.Args (a
// read-only row; its handler answers it with convert before any guide
// look-up), so no new intent is needed. Only CNY and USD convert: a figure
// in euros is answered with what is supported.

// convertArg marks a request the planner read as a conversion.
const convertArg = "convert"

// convertIntent is the intent a conversion's answer reports (like
// "export", an answer of a read-only row under its own name).
const convertIntent parse.Intent = "convert"

// isConversion reports whether the planner marked req a conversion.
func isConversion(req parse.Request) bool {
	return req.Intent == parse.Knowledge && len(req.Slots.Args) > 0 && req.Slots.Args[0] == convertArg
}

var (
	// reToCNY and reToUSD ask for a figure in yuan or in dollars.
	reToCNY = regexp.MustCompile(`(?:换成|换算成|换算为|折合|折成|折算成|合成|转成|转换成|等于)\s?(?:人民币|rmb|cny)|人民币(?:是|大概|大约|约)?多少|多少(?:钱)?人民币|多少块钱|\b(?:in|to|into)\s+(?:rmb|cny|yuan|renminbi|chinese yuan)\b`)
	reToUSD = regexp.MustCompile(`(?:换成|换算成|换算为|折合|折成|折算成|合成|转成|转换成|等于)\s?(?:美元|美金|刀|usd)|美元(?:是|大概|大约|约)?多少|多少(?:美元|美金|刀)|\b(?:in|to|into)\s+(?:usd|us dollars|dollars|us\$|\$)`)
	// reWeigh asks which of two figures is lower.
	reWeigh = regexp.MustCompile(`cheaper|more expensive|dearer|pricier|costlier|贵还是便宜|便宜还是贵|哪个便宜|哪个贵|哪个更便宜|哪个划算|更便宜|更贵|便宜吗|贵吗|\bvs\.?\b|versus|compared? (?:to|with)`)
	// reRatePair is an exchange rate written as a pair ("USD/CNY 7.15",
	// "EUR/USD 1.08").
	reRatePair = regexp.MustCompile(`\b(usd|cny|rmb|eur)\s?/\s?(usd|cny|rmb|eur)\s*(?:=|:|at|is|of|按|是|为)?\s*(\d+(?:\.\d+)?)`)
	// reRateSaid is a rate said in words: "按7.2算", "汇率7.15", "fx 7.15",
	// "at 7.2" (a bare figure after "at", checked to be no price).
	reRateSaid = regexp.MustCompile(`(?:汇率|\bfx|exchange rate|\brate)\s?(?:按|是|为|=|:|of|at|约|取|用)?\s?(\d+(?:\.\d+)?)|按\s?(\d+(?:\.\d+)?)\s?(?:的汇率)?(?:算|换算|计算|折算)|\bat\s+(\d+(?:\.\d+)?)`)
	// reConvMoney is a figure with its currency ("$14,342", "850,000 CNY",
	// "¥68,000", "EUR 2.10", "$265k", "5.6万元").
	reConvMoney = regexp.MustCompile(`(us\$|\$|¥|￥|€|\brmb|\bcny|\busd|\beur)?\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(万|千|k\b|m\b|million\b)?\s?(块钱|块|元|rmb\b|cny\b|usd\b|美元|美金|刀|dollars?\b|bucks\b|人民币|eur\b|euros?\b|欧元)?`)
	// rePerAfter is the period a figure is per, right after it.
	rePerAfter = regexp.MustCompile(`^\s?(?:/\s?|per\s|an?\s|每\s?|一\s?|每个\s?)(gpu[- ]?hours?\b|gpu[- ]?hrs?\b|card[- ]?hours?\b|卡时|个小时|小时|hours?\b|hrs?\b|h\b|时|个月|月|months?\b|mo\b|年|years?\b|yrs?\b)`)
	// reBudgetWords say a figure is a budget (the parser also reads a bare
	// figure in a cost question as one).
	reBudgetWords = regexp.MustCompile(`预算|经费|budget|afford|够`)
	// rePerBefore is the period a figure is per, said just before it.
	rePerBefore = regexp.MustCompile(`(每月|每个月|一个月|月租|月费|包月|per month|monthly|每年|一年|年费|包年|per year|yearly|annual|每卡时|一卡时|每小时|一小时|按小时|per hour|hourly)\s*(?:是|为|约|大概|大约|要|:|=|of|is|at)?\s*$`)
	// reWantCardHour, reWantYear and reWantMonth ask for a figure per
	// card-hour, year or month.
	reWantCardHour = regexp.MustCompile(`per gpu[- ]?(?:hour|hr)|per card[- ]?hour|/gpu[- ]?(?:hour|hr)|每卡时|每卡每小时|每个卡时|一卡时|每张卡每小时|每\s?gpu\s?小时`)
	reWantYear     = regexp.MustCompile(`per year|a year|/year|/yr\b|annual|yearly|每年|一年|年化|全年`)
	reWantMonth    = regexp.MustCompile(`per month|a month|/month|/mo\b|monthly|每月|一个月|每个月|月度`)
	// reConvFiller are the words an amount-less conversion ask may hold
	// beside the ask and the rate ("多少刀？按7.2算。", "what is that in USD?").
	reConvFiller = regexp.MustCompile(`\b(?:what|what's|whats|is|that|this|it|how|much|please|pls|the|about|roughly|convert|rate|at|in|to)\b|那|这|个|是|的|大概|大约|约|呢|啊|吧|算|一下|帮我|请|换算|折合|汇率|按|等于|多少`)
)

// convFigure is one money figure read from the message.
type convFigure struct {
	m        parse.Money
	per      advisor.Period
	machine  bool // "per machine", "整机": the figure covers all the cards
	raw      string
	cur      string // as written: CNY, USD or EUR
	from, to int    // where it is in the text
}

// conversionInWords reads a message that asks for a figure it states in
// the other currency (or per another period), and hands it to the
// knowledge row marked convertArg, with the exchange rate it states in
// Slots.FX and the figures it asks for in Slots.Targets. A message that
// sizes a model or a job, a ledger or budget sentence, a follow-up in a
// thread and a card's price with hours to total are not conversions. A
// bare "多少刀？按7.2算。" (an ask, a rate and nothing else) is one with the
// amount missing.
func conversionInWords(req parse.Request) (parse.Request, string, bool) {
	s := req.Slots
	if req.Slash && !slashSentence(req) || req.FollowUp {
		return req, "", false
	}
	if !readOnly[req.Intent] && req.Intent != parse.Help && !(req.Intent == parse.Spend && s.Mode == "report") {
		return req, "", false // a write ("记一笔 $500") stays one
	}
	if s.ParamsB > 0 || s.Model != "" || s.Arch != "" || s.Method != "" || s.Tokens > 0 || s.Samples > 0 || s.TokensPerDay > 0 ||
		s.RequestsPerS > 0 || s.Images > 0 || s.Days > 0 {
		return req, "", false // a job being sized
	}
	if s.Budget != nil && reBudgetWords.MatchString(strings.ToLower(req.Text)) {
		return req, "", false // a budget to spend, not a figure to convert
	}
	if _, _, ok := budgetInWords(req); ok {
		return req, "", false
	}
	t := strings.ToLower(req.Text)
	to := askedCurrency(t)
	text, fx := stripRates(t)
	figs := convFigures(text)
	weigh := reWeigh.MatchString(t)
	euro := false
	for _, f := range figs {
		euro = euro || f.cur == "EUR"
	}
	if fx.pair == "EUR" {
		euro = true
	}
	if foreignCurrency(t) != "" && (euro || reToForeign.MatchString(t)) {
		euro = true // "how many GBP is $1.2M": a currency not converted, said so
		if to == "" {
			to = knowledge.Currency(foreignCurrency(t))
		}
	}
	switch {
	case euro && (to != "" || weigh):
		// "EUR 2.10/GPU-hr — is that cheaper than $2.40?": said not supported
	case to == "" && weigh && len(figs) == 2 && figs[0].cur != figs[1].cur && len(s.GPUs) == 0:
		// "$2.49/h vs ¥15.8/h, which is cheaper?": one currency picked below
	case to == "":
		return req, "", false
	}
	if len(figs) == 0 {
		if !bareAsk(text) || spendInWords(req) {
			return req, "", false // "这个月一共花了多少？多少刀？": the ledger's question
		}
		req = markConversion(req, string(to))
		req.Slots.Missing = []string{"amount"}
		if fx.value > 0 && req.Slots.FX == 0 {
			req.Slots.FX = fx.value
		}
		return req, "a currency conversion", true
	}
	if !euro {
		switch {
		case len(figs) == 1:
		case len(figs) == 2 && weigh && samePer(figs[0].per, figs[1].per):
		default:
			return req, "", false // several figures: a plan, a rental or a comparison of its own
		}
		if len(s.GPUs) > 0 && (s.Hours > 0 || s.GPUHours > 0 || s.HoursPerMonth > 0 || s.Utilization > 0 || asksExport(t)) {
			return req, "", false // a card's rental or plan to total, in that currency
		}
		if s.Monthly != nil && (s.Price != nil || s.Rent != nil) {
			return req, "", false // a monthly plan against an hourly price
		}
		if to != "" && allIn(figs, to) && !wantsPeriod(text, figs[0].per) {
			return req, "", false // nothing to convert
		}
	}
	req = markConversion(req, string(to))
	if fx.value > 0 && req.Slots.FX == 0 && fx.pair != "EUR" {
		req.Slots.FX = fx.value // "按7.2算", "at 7.2": the rate the answer uses
	}
	if b := req.Slots.Budget; b != nil && req.Slots.Amount == nil {
		req.Slots.Amount, req.Slots.Budget = b, nil // "what is ¥50,000 in USD": the figure, not a budget
	}
	if !euro {
		req.Slots.Targets = convTargets(figs[0], wants(text, figs[0].per), weigh && len(figs) == 2)
		if already := moneySlots(&req.Slots); !already(figs[0].m) && req.Slots.Amount == nil {
			m := figs[0].m
			req.Slots.Amount = &m // "$14,342": the figure read, accounted as the amount converted
		}
	}
	return req, "a currency conversion", true
}

// markConversion routes req to the knowledge row marked as a conversion
// into cur ("" when the message names none).
func markConversion(req parse.Request, cur string) parse.Request {
	req.Intent = parse.Knowledge
	req.Slots.Args = []string{convertArg, "to=" + cur}
	req.Slots.Missing = nil
	if cur != "" && req.Slots.Currency == "" {
		req.Slots.Currency = cur
	}
	return req
}

// askedCurrency is the currency the message asks a figure in, "" when none.
func askedCurrency(t string) knowledge.Currency {
	c, u := reToCNY.FindStringIndex(t), reToUSD.FindStringIndex(t)
	switch {
	case c != nil && (u == nil || c[0] < u[0]):
		return knowledge.CNY
	case u != nil:
		return knowledge.USD
	}
	return ""
}

// statedRate is an exchange rate the message states.
type statedRate struct {
	value float64 // CNY per USD (or the pair's rate when pair is EUR)
	pair  string  // "EUR" when the rate is a euro's
}

// stripRates blanks the exchange rates out of t (so "7.2" is not read as
// a figure) and returns the CNY-per-USD rate stated, if any.
func stripRates(t string) (string, statedRate) {
	var r statedRate
	blank := func(s string, from, to int) string {
		return s[:from] + strings.Repeat(" ", to-from) + s[to:]
	}
	for _, m := range reRatePair.FindAllStringSubmatchIndex(t, -1) {
		a, b := t[m[2]:m[3]], t[m[4]:m[5]]
		v, err := strconv.ParseFloat(t[m[6]:m[7]], 64)
		if err != nil || v <= 0 {
			continue
		}
		switch {
		case a == "eur" || b == "eur":
			r = statedRate{value: v, pair: "EUR"}
		case a == "usd":
			r = statedRate{value: v}
		case v < 1:
			r = statedRate{value: 1 / v} // "CNY/USD 0.139"
		default:
			r = statedRate{value: v}
		}
		t = blank(t, m[0], m[1])
	}
	for _, m := range reRateSaid.FindAllStringSubmatchIndex(t, -1) {
		g := 2
		for g < len(m) && m[g] < 0 {
			g += 2
		}
		if g >= len(m) {
			continue
		}
		v, err := strconv.ParseFloat(t[m[g]:m[g+1]], 64)
		if err != nil || v < advisor.MinCNYPerUSD || v > advisor.MaxCNYPerUSD {
			continue
		}
		if g == 6 && convMoneyAt(t[m[1]:]) {
			continue // "at 2.4/hr", "at 7 dollars": a price, not a rate
		}
		if r.value == 0 {
			r = statedRate{value: v}
		}
		t = blank(t, m[0], m[1])
	}
	return t, r
}

// convMoneyAt reports whether a figure just read continues as a price.
func convMoneyAt(rest string) bool {
	rest = strings.TrimLeft(rest, " ")
	for _, p := range []string{"/", "per ", "an ", "a ", "%", "元", "块", "刀", "美元", "dollar", "usd", "cny", "rmb", "k ", "万", "h ", "hr"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}

// convFigures reads the money figures of t that carry a currency, each
// with the period it is per.
func convFigures(t string) []convFigure {
	var out []convFigure
	for _, m := range reConvMoney.FindAllStringSubmatchIndex(t, -1) {
		pre, post := sub(t, m, 1), sub(t, m, 4)
		if pre == "" && post == "" {
			continue // a count or a card's name, not money
		}
		if start := m[4]; pre == "" && start > 0 && isWordByte(t[start-1]) {
			continue // "H100 人民币": a card's digits
		}
		cur := convCurrency(pre + post)
		raw := strings.TrimSpace(t[m[0]:m[1]])
		v, ok := parse.Number(sub(t, m, 2))
		if !ok {
			continue
		}
		switch sub(t, m, 3) {
		case "万":
			v *= 1e4
		case "千", "k":
			v *= 1e3
		case "m", "million":
			v *= 1e6
		}
		f := convFigure{m: parse.Money{Amount: v, Currency: cur}, raw: raw, cur: cur, from: m[0], to: m[1]}
		if cur == "EUR" {
			f.m.Currency = "EUR"
		}
		rest := t[m[1]:]
		if p := rePerBefore.FindStringSubmatchIndex(t[:m[0]]); p != nil {
			f.per = convPeriod(t[p[2]:p[3]]) // "每月 85万人民币", "月租 ¥68,000"
			f.from = p[0]
		}
		if p := rePerAfter.FindStringSubmatchIndex(rest); p != nil {
			f.per = convPeriod(rest[p[2]:p[3]])
			f.to += p[1]
			rest = rest[p[1]:]
		}
		window := rest[:min(len(rest), 24)]
		f.machine = strings.Contains(window, "per machine") || strings.Contains(window, "per box") || strings.Contains(window, "per node") ||
			strings.Contains(window, "per server") || strings.Contains(window, "每台") || strings.Contains(window, "整机") || strings.Contains(window, "一台")
		out = append(out, f)
	}
	return out
}

func sub(t string, m []int, g int) string {
	if m[2*g] < 0 {
		return ""
	}
	return strings.TrimSpace(t[m[2*g]:m[2*g+1]])
}

func isWordByte(c byte) bool {
	return c < unicode.MaxASCII && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)) || c == '-' || c == '_')
}

// reEuroWord and reYuanWord name the euro and the yuan, as a sign or a word.
var (
	reEuroWord = regexp.MustCompile(`€|eur|欧元`)
	reYuanWord = regexp.MustCompile(`[¥￥]|rmb|cny|元|块|人民币`)
)

// convCurrency is the currency a sign or word names.
func convCurrency(w string) string {
	w = strings.ToLower(w)
	switch {
	case reEuroWord.MatchString(w):
		return "EUR"
	case strings.Contains(w, "美元") || strings.Contains(w, "美金"):
		return "USD" // 美元 ends in 元, and is a dollar
	case reYuanWord.MatchString(w):
		return "CNY"
	}
	return "USD"
}

// convPeriod is the period a unit word names.
func convPeriod(u string) advisor.Period {
	switch {
	case strings.HasPrefix(u, "gpu") || strings.HasPrefix(u, "card") || strings.HasSuffix(u, "卡时"):
		return advisor.PerCardHour
	case strings.Contains(u, "year") || strings.Contains(u, "annual") || strings.Contains(u, "年"):
		return advisor.PerYear
	case strings.Contains(u, "month") || strings.Contains(u, "月"):
		return advisor.PerMonth
	case strings.HasPrefix(u, "h") || strings.Contains(u, "时"):
		return advisor.PerHour
	case strings.HasPrefix(u, "mo"):
		return advisor.PerMonth
	case strings.HasPrefix(u, "y"):
		return advisor.PerYear
	}
	return advisor.PerTotal
}

// samePer reports whether two figures are per the same span (an hour and
// a card-hour both are, said of one card).
func samePer(a, b advisor.Period) bool {
	hourly := func(p advisor.Period) bool { return p == advisor.PerHour || p == advisor.PerCardHour }
	return a == b || hourly(a) && hourly(b)
}

// wants lists the periods t asks for beyond per, in the order asked
// (the figure's own unit already blanked out of t by the caller's reading).
func wants(t string, per advisor.Period) []advisor.Period {
	if per == advisor.PerTotal {
		return nil
	}
	t = blankFigures(t)
	type hit struct {
		p  advisor.Period
		at int
	}
	var hits []hit
	for _, w := range []struct {
		re *regexp.Regexp
		p  advisor.Period
	}{{reWantYear, advisor.PerYear}, {reWantMonth, advisor.PerMonth}, {reWantCardHour, advisor.PerCardHour}} {
		if w.p == per || w.p == advisor.PerCardHour && per == advisor.PerHour {
			continue
		}
		if loc := w.re.FindStringIndex(t); loc != nil {
			hits = append(hits, hit{w.p, loc[0]})
		}
	}
	var out []advisor.Period
	for len(hits) > 0 {
		best := 0
		for i, h := range hits {
			if h.at < hits[best].at {
				best = i
			}
		}
		out = append(out, hits[best].p)
		hits = append(hits[:best], hits[best+1:]...)
	}
	return out
}

func wantsPeriod(t string, per advisor.Period) bool { return len(wants(t, per)) > 0 }

// blankFigures blanks each figure and its own unit out of t.
func blankFigures(t string) string {
	figs := convFigures(t)
	for i := len(figs) - 1; i >= 0; i-- {
		f := figs[i]
		t = t[:f.from] + strings.Repeat(" ", f.to-f.from) + t[f.to:]
	}
	return t
}

// allIn reports whether every figure is in cur already.
func allIn(figs []convFigure, cur knowledge.Currency) bool {
	for _, f := range figs {
		if f.cur != string(cur) {
			return false
		}
	}
	return true
}

// bareAsk reports whether t, its rates blanked, is a conversion ask and
// nothing else: "多少刀？按7.2算。", "what is that in USD?".
func bareAsk(t string) bool {
	t = reToCNY.ReplaceAllString(t, " ")
	t = reToUSD.ReplaceAllString(t, " ")
	t = reConvFiller.ReplaceAllString(t, " ")
	for _, r := range t {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// convTargets are the typed answer's asked figures for a conversion of f:
// the period asked first (a year of a monthly run rate), else the figure
// as given, then the other periods, then the choice when two were weighed.
func convTargets(f convFigure, want []advisor.Period, weighed bool) []string {
	var out []string
	lead := []advisor.Period{f.per}
	if len(want) > 0 && want[0] != advisor.PerCardHour {
		lead = []advisor.Period{want[0], f.per}
		want = want[1:]
	}
	for _, p := range append(lead, want...) {
		if n := askedName(p); !has(out, n) {
			out = append(out, n)
		}
	}
	if weighed {
		out = append(out, "which")
	}
	return out
}

// askedName is the typed answer's name for a figure per p.
func askedName(p advisor.Period) string {
	switch p {
	case advisor.PerMonth:
		return "money_monthly"
	case advisor.PerHour, advisor.PerCardHour:
		return "price_per_card_hour"
	}
	return "money_total"
}

// moneySlots returns a test of whether a figure is already one of the
// money slots the parser filled.
func moneySlots(s *parse.Slots) func(parse.Money) bool {
	return func(m parse.Money) bool {
		for _, p := range []*parse.Money{s.Price, s.Monthly, s.Rent, s.Amount, s.Budget, s.Ops, s.Power} {
			if p != nil && p.Amount == m.Amount {
				return true
			}
		}
		return false
	}
}

// reForeign names a currency other than CNY and USD; reToForeign asks
// for a figure in one ("how many GBP", "in pounds", "换成英镑").
var (
	reForeign   = regexp.MustCompile(`\bgbp\b|£|\bpounds?\b|英镑|\bjpy\b|日元|\byen\b|\beur\b|€|\beuros?\b|欧元`)
	reToForeign = regexp.MustCompile(`(?:how many|in|into|to|换成|折合|合多少|是多少)\s*(?:gbp|pounds?|£|英镑|jpy|yen|日元|eur|euros?|€|欧元)`)
)

// foreignCurrency is the code of a currency the message names that is
// neither CNY nor USD ("" when none).
func foreignCurrency(t string) string {
	switch m := reForeign.FindString(t); {
	case m == "":
		return ""
	case strings.Contains("gbp £ pound pounds 英镑", m):
		return "GBP"
	case strings.Contains("jpy 日元 yen", m):
		return "JPY"
	}
	return "EUR"
}
