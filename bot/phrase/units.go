package phrase

import (
	"strings"
	"unicode"
)

// Dimensions a number can carry. A number with no unit has dimension "".
// Money is split by currency: CNY and USD never match each other.
const (
	dimNone  = ""
	dimMem   = "GB" // memory; base unit GB (10⁹ bytes)
	dimCNY   = "CNY"
	dimUSD   = "USD"
	dimEUR   = "EUR"
	dimRatio = "ratio" // base unit 1 (70% = 0.7)
	dimHour  = "h"
	dimMin   = "min"
	dimSec   = "s"
	dimDay   = "day"
	dimWeek  = "week"
	dimMonth = "month"
	dimYear  = "year"
)

// unitDef is one way of writing a unit: the dimension it belongs to, the
// factor to that dimension's base unit, and whether it is a complement
// (五折 = pay 50%, i.e. a 50% discount as well).
type unitDef struct {
	dim    string
	factor float64
	compl  bool
	count  bool // a counting word (张, cards, ×): the number stays plain
}

// unitWord is a unit as it may follow a number. adjacent means it must touch
// the number ("80G", "8s"); caseSensitive keeps "M"/"m" and "B"/"b" apart
// where it matters.
type unitWord struct {
	text          string
	def           unitDef
	adjacent      bool
	caseSensitive bool
}

func mem(f float64) unitDef    { return unitDef{dim: dimMem, factor: f} }
func money(dim string) unitDef { return unitDef{dim: dim, factor: 1} }
func ratio(f float64) unitDef  { return unitDef{dim: dimRatio, factor: f} }
func tm(dim string) unitDef    { return unitDef{dim: dim, factor: 1} }

// count marks counting words: the number stays plain.
var count = unitDef{factor: 1, count: true}

// unitWords lists units after a number, longest first within each script so
// that "个月" wins over "个" and "GiB" over "G".
var unitWords = []unitWord{
	// memory
	{text: "GiB", def: mem(1.073741824)},
	{text: "TiB", def: mem(1099.511627776)},
	{text: "MiB", def: mem(1.048576e-3)},
	{text: "GB", def: mem(1)},
	{text: "TB", def: mem(1e3)},
	{text: "MB", def: mem(1e-3)},
	{text: "G", def: mem(1), adjacent: true, caseSensitive: true},
	// money
	{text: "dollars", def: money(dimUSD)},
	{text: "dollar", def: money(dimUSD)},
	{text: "USD", def: money(dimUSD)},
	{text: "CNY", def: money(dimCNY)},
	{text: "RMB", def: money(dimCNY)},
	{text: "yuan", def: money(dimCNY)},
	{text: "EUR", def: money(dimEUR)},
	{text: "美元", def: money(dimUSD)},
	{text: "美金", def: money(dimUSD)},
	{text: "人民币", def: money(dimCNY)},
	{text: "块钱", def: money(dimCNY)},
	{text: "欧元", def: money(dimEUR)},
	{text: "元", def: money(dimCNY)},
	// ratios
	{text: "个百分点", def: ratio(0.01)},
	{text: "百分点", def: ratio(0.01)},
	{text: "percentage points", def: ratio(0.01)},
	{text: "percent", def: ratio(0.01)},
	{text: "per cent", def: ratio(0.01)},
	{text: "pct", def: ratio(0.01)},
	{text: "%", def: ratio(0.01)},
	{text: "‰", def: ratio(0.001)},
	{text: "成", def: ratio(0.1)},
	{text: "折", def: unitDef{dim: dimRatio, factor: 0.1, compl: true}},
	// time; GPU-hours are hours
	{text: "GPU-hours", def: tm(dimHour)},
	{text: "GPU hours", def: tm(dimHour)},
	{text: "GPU-hour", def: tm(dimHour)},
	{text: "card-hours", def: tm(dimHour)},
	{text: "card-hour", def: tm(dimHour)},
	{text: "卡·小时", def: tm(dimHour)},
	{text: "卡·时", def: tm(dimHour)},
	{text: "卡时", def: tm(dimHour)},
	{text: "机时", def: tm(dimHour)},
	{text: "hours", def: tm(dimHour)},
	{text: "hour", def: tm(dimHour)},
	{text: "hrs", def: tm(dimHour)},
	{text: "hr", def: tm(dimHour)},
	{text: "h", def: tm(dimHour), caseSensitive: true},
	{text: "小时", def: tm(dimHour)},
	{text: "个钟头", def: tm(dimHour)},
	{text: "minutes", def: tm(dimMin)},
	{text: "minute", def: tm(dimMin)},
	{text: "mins", def: tm(dimMin)},
	{text: "min", def: tm(dimMin)},
	{text: "分钟", def: tm(dimMin)},
	{text: "seconds", def: tm(dimSec)},
	{text: "second", def: tm(dimSec)},
	{text: "secs", def: tm(dimSec)},
	{text: "sec", def: tm(dimSec)},
	{text: "ms", def: unitDef{dim: dimSec, factor: 1e-3}, adjacent: true, caseSensitive: true},
	{text: "s", def: tm(dimSec), adjacent: true, caseSensitive: true},
	{text: "秒", def: tm(dimSec)},
	{text: "days", def: tm(dimDay)},
	{text: "day", def: tm(dimDay)},
	{text: "天", def: tm(dimDay)},
	{text: "weeks", def: tm(dimWeek)},
	{text: "week", def: tm(dimWeek)},
	{text: "个星期", def: tm(dimWeek)},
	{text: "周", def: tm(dimWeek)},
	{text: "months", def: tm(dimMonth)},
	{text: "month", def: tm(dimMonth)},
	{text: "mo", def: tm(dimMonth), adjacent: true, caseSensitive: true},
	{text: "个月", def: tm(dimMonth)},
	{text: "years", def: tm(dimYear)},
	{text: "year", def: tm(dimYear)},
	{text: "yrs", def: tm(dimYear)},
	{text: "yr", def: tm(dimYear)},
	{text: "年", def: tm(dimYear)},
	// counts: the number stays plain
	{text: "cards", def: count},
	{text: "card", def: count},
	{text: "GPUs", def: count},
	{text: "GPU", def: count},
	{text: "gpus", def: count},
	{text: "nodes", def: count},
	{text: "node", def: count},
	{text: "bits", def: count},
	{text: "bit", def: count},
	{text: "x", def: count, adjacent: true, caseSensitive: true},
	{text: "X", def: count, adjacent: true, caseSensitive: true},
	{text: "×", def: count},
	{text: "张", def: count},
	{text: "台", def: count},
	{text: "块", def: count},
	{text: "卡", def: count},
	{text: "个", def: count},
	{text: "倍", def: count},
	{text: "位", def: count},
}

// scaleWord multiplies the number before any unit ("1.2万元", "$1.2k").
type scaleWord struct {
	text          string
	mult          float64
	adjacent      bool
	caseSensitive bool
	binary        bool // k may mean 1,024 ("32k context" = 32,768)
}

var scaleWords = []scaleWord{
	{text: "万亿", mult: 1e12},
	{text: "千亿", mult: 1e11},
	{text: "百亿", mult: 1e10},
	{text: "千万", mult: 1e7},
	{text: "百万", mult: 1e6},
	{text: "亿", mult: 1e8},
	{text: "萬", mult: 1e4},
	{text: "億", mult: 1e8},
	{text: "万", mult: 1e4},
	{text: "千", mult: 1e3},
	{text: "thousand", mult: 1e3},
	{text: "million", mult: 1e6},
	{text: "billion", mult: 1e9},
	{text: "trillion", mult: 1e12},
	{text: "bn", mult: 1e9, adjacent: true},
	{text: "k", mult: 1e3, adjacent: true, caseSensitive: true, binary: true},
	{text: "K", mult: 1e3, adjacent: true, caseSensitive: true, binary: true},
	{text: "M", mult: 1e6, adjacent: true, caseSensitive: true},
	{text: "B", mult: 1e9, adjacent: true, caseSensitive: true},
	{text: "b", mult: 1e9, adjacent: true, caseSensitive: true},
	{text: "T", mult: 1e12, adjacent: true, caseSensitive: true},
}

// perWords are the denominators of a rate, after "/" or "每" ("元/小时",
// "$2.5/h", "每卡时"); the value is the canonical name.
var perWords = []struct{ text, per string }{
	{"GPU-hour", "h"}, {"GPU-hr", "h"}, {"GPU·h", "h"}, {"GPU-h", "h"}, {"GPU/h", "h"}, {"gpu/h", "h"},
	{"card-hour", "h"}, {"card-hr", "h"}, {"card·h", "h"}, {"card/h", "h"},
	{"卡/小时", "h"}, {"卡·小时", "h"}, {"卡/时", "h"}, {"卡·时", "h"}, {"卡时", "h"}, {"卡/h", "h"}, {"卡·h", "h"},
	{"hour", "h"}, {"hr", "h"}, {"小时", "h"}, {"时", "h"}, {"h", "h"},
	{"month", "month"}, {"mo", "month"}, {"月", "month"},
	{"year", "year"}, {"yr", "year"}, {"年", "year"},
	{"day", "day"}, {"天", "day"}, {"日", "day"},
	{"1M tokens", "Mtok"}, {"1M token", "Mtok"}, {"M tokens", "Mtok"}, {"M token", "Mtok"}, {"Mtok", "Mtok"},
	{"million tokens", "Mtok"}, {"百万 tokens", "Mtok"}, {"百万tokens", "Mtok"}, {"百万 token", "Mtok"}, {"百万token", "Mtok"},
	{"百万", "Mtok"},
	{"张卡", "card"}, {"卡", "card"}, {"card", "card"}, {"GPU", "card"}, {"gpu", "card"},
	{"s", "s"}, {"sec", "s"}, {"秒", "s"},
	{"kWh", "kWh"}, {"度", "kWh"},
}

// lookupUnit reads a fact's Unit string: "GB", "CNY/h", "USD/M tokens",
// "%", "ratio", "h/month", "B" (billions, as in params_b), "" …
func lookupUnit(u string) (def unitDef, scale float64, per string) {
	u = strings.TrimSpace(u)
	scale = 1
	if u == "" {
		return unitDef{factor: 1}, 1, ""
	}
	head, tail, ok := strings.Cut(u, "/")
	if ok {
		per = canonicalPer(strings.TrimSpace(tail))
	}
	head = strings.TrimSpace(head)
	switch strings.ToLower(head) {
	case "", "count", "x", "×":
		return unitDef{factor: 1}, 1, per
	case "ratio", "fraction":
		return ratio(1), 1, per
	case "¥", "￥", "元", "cny", "rmb":
		return money(dimCNY), 1, per
	case "$", "usd", "us$":
		return money(dimUSD), 1, per
	case "€", "eur":
		return money(dimEUR), 1, per
	case "hours", "hour", "hr":
		return tm(dimHour), 1, per
	case "months", "mo":
		return tm(dimMonth), 1, per
	case "years", "yr":
		return tm(dimYear), 1, per
	case "days":
		return tm(dimDay), 1, per
	case "weeks":
		return tm(dimWeek), 1, per
	}
	for _, s := range scaleWords {
		if head == s.text {
			return unitDef{factor: 1}, s.mult, per
		}
	}
	for _, w := range unitWords {
		if head == w.text || (!w.caseSensitive && strings.EqualFold(head, w.text)) {
			d := w.def
			if d.count {
				d = unitDef{factor: 1}
			}
			return d, 1, per
		}
	}
	return unitDef{factor: 1}, 1, per
}

// canonicalPer names a rate's denominator ("hour", "小时", "card-hour" → "h").
func canonicalPer(s string) string {
	for _, p := range perWords {
		if strings.EqualFold(s, p.text) {
			return p.per
		}
	}
	switch strings.ToLower(s) {
	case "hours", "hrs":
		return "h"
	case "months":
		return "month"
	case "years":
		return "year"
	case "days":
		return "day"
	case "cards", "gpus":
		return "card"
	}
	return strings.ToLower(s)
}

// foldWidth maps full-width ASCII forms (１２００, ＧＢ, ％, ＄) to ASCII and
// Unicode spaces and dashes to their plain forms, rune for rune, so offsets
// into the folded text are offsets into the original. The Chinese comma stays:
// it separates clauses, not thousands.
func foldWidth(r rune) rune {
	switch {
	case r >= '０' && r <= '９':
		return '0' + (r - '０')
	case r >= 'Ａ' && r <= 'Ｚ':
		return 'A' + (r - 'Ａ')
	case r >= 'ａ' && r <= 'ｚ':
		return 'a' + (r - 'ａ')
	}
	switch r {
	case '．':
		return '.'
	case '％':
		return '%'
	case '＄':
		return '$'
	case '￥':
		return '¥'
	case '～':
		return '~'
	case '－', '−', '‐', '‑':
		return '-'
	case '／':
		return '/'
	case '：':
		return ':'
	case '（':
		return '('
	case '）':
		return ')'
	case '＋':
		return '+'
	case '×', '✕', '╳':
		return '×'
	case '\u00a0', '\u2009', '\u202f', '\u3000':
		return ' '
	}
	if r != ' ' && r != '\n' && unicode.IsSpace(r) {
		return ' '
	}
	return r
}
