package parse

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

var cnDigits = map[rune]float64{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
var cnUnits = map[rune]float64{'十': 10, '百': 100, '千': 1000}
var cnBig = map[rune]float64{'万': 1e4, '亿': 1e8}

// cnNumber reads a Chinese numeral: "七十", "一百三十", "两", "十二",
// "一亿二千万", and the spoken short forms "三万五" (35 000) and "两千五"
// (2 500). ok is false when s is not entirely a numeral.
func cnNumber(s string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	var total, section, digit float64
	haveDigit := false // a digit waits for its unit
	lastUnit := 0.0    // the unit just applied, for "三万五"
	zero := false      // a 零 was seen since the last unit
	seen := false
	for _, r := range s {
		switch {
		case isCNDigit(r):
			if haveDigit && cnDigits[r] != 0 && !zero {
				return 0, false // "一二" is not a numeral
			}
			if cnDigits[r] == 0 {
				zero = true
			}
			digit, haveDigit, seen = cnDigits[r], true, true
		case cnUnits[r] > 0:
			if !haveDigit {
				digit = 1 // "十二" is 12
			}
			section += digit * cnUnits[r]
			digit, haveDigit, seen, zero = 0, false, true, false
			lastUnit = cnUnits[r]
		case cnBig[r] > 0:
			big := cnBig[r]
			v := section + digit
			switch {
			case v == 0 && !seen:
				return 0, false // "万一" is not a number
			case v == 0 && total > 0:
				total *= big // "五万亿"
			default:
				total += v * big
			}
			section, digit, haveDigit, zero = 0, 0, false, false
			lastUnit = big
			seen = true
		default:
			return 0, false
		}
	}
	if haveDigit && !zero && lastUnit >= 100 {
		// "三万五" = 3.5万, "两千五" = 2500: a trailing digit right after a
		// unit of 100 or more counts in the next lower unit.
		digit *= lastUnit / 10
	}
	return total + section + digit, seen
}

func isCNDigit(r rune) bool { _, ok := cnDigits[r]; return ok }

// IsCNNumeral reports whether r can be part of a Chinese numeral.
func IsCNNumeral(r rune) bool { return isCNDigit(r) || cnUnits[r] > 0 || cnBig[r] > 0 }

// magnitudes are the suffixes Number multiplies by. "w" is the chat
// shorthand for 万 ("5w 条" = 50 000).
var magnitudes = map[string]float64{
	"k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12, "w": 1e4,
	"十": 10, "百": 100, "千": 1e3, "万": 1e4, "亿": 1e8,
}

// Number reads "1,200", "1.5", "1.6万", "3千万", "七十", "32k", "100M",
// "5w", "2.5e3" and full-width digits. Suffixes k/m/b/t (thousand, million,
// billion, trillion), w/万, 千, 百 and 亿 multiply and may stack ("1.2万亿").
// It never returns NaN or ±Inf.
func Number(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if strings.ContainsAny(s, "０１２３４５６７８９") {
		s = strings.Map(func(r rune) rune {
			if r >= '０' && r <= '９' {
				return r - '０' + '0'
			}
			return r
		}, s)
	}
	s = strings.ReplaceAll(s, ",", "")
	if v, ok := cnNumber(s); ok {
		return v, true
	}
	// the numeric part: sign, digits, fraction, exponent
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i == start || i == start+1 && s[start] == '.' {
		return 0, false
	}
	if i+1 < len(s) && (s[i] == 'e' || s[i] == 'E') && (isDigit(s[i+1]) || (s[i+1] == '-' || s[i+1] == '+') && i+2 < len(s) && isDigit(s[i+2])) {
		j := i + 1
		if s[j] == '-' || s[j] == '+' {
			j++
		}
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		i = j
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, false
	}
	for rest := strings.TrimSpace(s[i:]); rest != ""; {
		r, size := utf8.DecodeRuneInString(rest)
		m, ok := magnitudes[strings.ToLower(string(r))]
		if !ok {
			return 0, false
		}
		v *= m
		rest = rest[size:]
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// ParseFraction reads "70%", "0.7", "七成", "7成", "百分之七十" as 0.7. A
// bare number above 1 is a percentage ("util=70").
func ParseFraction(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	var v float64
	var ok bool
	switch {
	case strings.HasPrefix(s, "百分之"):
		v, ok = Number(strings.TrimPrefix(s, "百分之"))
		v /= 100
	case strings.HasSuffix(s, "%"):
		v, ok = Number(strings.TrimSuffix(s, "%"))
		v /= 100
	case strings.HasSuffix(s, "成"):
		v, ok = Number(strings.TrimSuffix(s, "成"))
		v /= 10
	default:
		v, ok = Number(s)
		if v > 1 {
			v /= 100
		}
	}
	if !ok || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

var (
	cnRun = regexp.MustCompile(`[零〇一二两三四五六七八九十百千万亿]+`)
	// a digit run and a magnitude written apart: "2 万", "1.5 亿"
	spacedMag = regexp.MustCompile(`(\d)\s+(万|亿|千万|百万)`)
	percentCN = regexp.MustCompile(`百分之([零〇一二两三四五六七八九十百\d.]+)`)
	enNumber  = regexp.MustCompile(`\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|twenty|thirty|forty|fifty|sixty|hundred|dozen)\b`)
)

// singles are the one-word counts: "单卡" is one card.
var singles = strings.NewReplacer("单卡", "1卡", "双卡", "2卡", "单张", "1张", "单台", "1台", "单机", "1台")

var enNumbers = map[string]string{
	"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
	"nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "sixteen": "16", "twenty": "20",
	"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "hundred": "100", "dozen": "12",
}

// cnCounters are what may follow a Chinese numeral for it to be read as a
// number: counters, units, magnitudes. Other runs ("一下", "千万别",
// "三点开会") are words and stay.
var cnCounters = []string{
	"张", "块", "台", "卡", "片", "条", "轮", "遍", "个", "小时", "钟头", "天", "年", "成", "倍",
	"并发", "路", "人", "月", "周", "度", "元", "刀", "美元", "美金", "万", "亿", "千", "百",
	"token", "b", "k", "w", "epoch", "位", "bit", "比特", "次", "机", "节点", "样本", "参数", "以",
}

// loneOneIdioms follow a lone 一 in per-unit phrases ("块钱一小时",
// "一个月", "一年") that must stay words: they mean "per", not "1".
var loneOneIdioms = []string{"小时", "个小时", "个月", "月", "年", "天", "周", "度", "晚", "下", "共", "起", "般", "直", "些", "定"}

// arabize rewrites the numbers in lower-cased text as digits, so extractors
// need only one form: "七十亿" → "70亿", "两轮" → "2轮", "五万条" →
// "5万条", "百分之七十" → "70%", "two h100s" → "2 h100s", "单卡" → "1卡".
func arabize(t string) string {
	t = percentCN.ReplaceAllStringFunc(t, func(m string) string {
		if v, ok := Number(strings.TrimPrefix(m, "百分之")); ok {
			return strconv.FormatFloat(v, 'f', -1, 64) + "%"
		}
		return m
	})
	t = singles.Replace(t)
	var b strings.Builder
	last := 0
	for _, loc := range cnRun.FindAllStringIndex(t, -1) {
		run, after := t[loc[0]:loc[1]], t[loc[1]:]
		if out, ok := arabizeRun(run, after); ok {
			b.WriteString(t[last:loc[0]])
			b.WriteString(out)
			last = loc[1]
		}
	}
	b.WriteString(t[last:])
	t = b.String()
	t = spacedMag.ReplaceAllString(t, "$1$2")
	return enNumber.ReplaceAllStringFunc(t, func(w string) string { return enNumbers[w] })
}

// arabizeRun converts one run of numeral characters given what follows it.
// A run that ends in 万/亿 keeps that magnitude as a suffix ("七十亿" →
// "70亿") so later patterns still see it.
func arabizeRun(run, after string) (string, bool) {
	first, _ := utf8.DecodeRuneInString(run)
	if cnBig[first] > 0 {
		return "", false // "万一"
	}
	if (run == "百" || run == "千") && !strings.HasPrefix(after, "亿") && !strings.HasPrefix(after, "万") {
		return "", false // "百度", "千万别"
	}
	after = strings.TrimLeft(after, " ")
	if run == "一" {
		for _, w := range loneOneIdioms {
			if strings.HasPrefix(after, w) {
				return "", false
			}
		}
	}
	suffix := ""
	body := run
	if strings.HasSuffix(body, "亿") {
		suffix, body = "亿", strings.TrimSuffix(body, "亿")
		if strings.HasSuffix(body, "万") { // "万亿"
			suffix, body = "万亿", strings.TrimSuffix(body, "万")
		}
	} else if strings.HasSuffix(body, "万") && !strings.ContainsRune(strings.TrimSuffix(body, "万"), '万') {
		suffix, body = "万", strings.TrimSuffix(body, "万")
	}
	hasDigit := false
	for _, r := range body {
		if isCNDigit(r) {
			hasDigit = true
		}
	}
	if suffix == "" || !hasDigit {
		counted := false
		for _, c := range cnCounters {
			if strings.HasPrefix(after, c) {
				counted = true
				break
			}
		}
		if !counted {
			return "", false
		}
	}
	if body == "" {
		return "", false
	}
	v, ok := cnNumber(body)
	if !ok {
		return "", false
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + suffix, true
}
