// Package amount is the one reader of numbers and money the bot has: the
// parser, the bill import and the rephrase guard all call it, so "1,200",
// "1.2万", "一万六", "16k", "$2k", "3000 刀", "5 千" and the traditional
// 萬/億 mean the same thing everywhere.
//
// It refuses rather than guesses: scientific notation ("1e308"), a decimal
// comma that could be a thousands separator ("18,50"), malformed grouping
// ("1,2345"), negative money and absurd amounts are errors that say what was
// read and what is accepted, in both languages.
package amount

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpubot/gpubot/bot/intent"
)

// Error is a value that could not be read; it is safe to show a user.
type Error struct {
	Input    string // what was read
	Reason   string // English
	ReasonZH string // Chinese
	Hint     string // the right form
}

func (e *Error) Error() string { return fmt.Sprintf("%q: %s", e.Input, e.Reason) }

// As lets errors.As read e as the user-facing *intent.Error: an invalid
// value, with what was read and the reason in both languages, and the
// right form.
func (e *Error) As(target any) bool {
	t, ok := target.(**intent.Error)
	if ok {
		*t = &intent.Error{Code: intent.EINVALID, Field: "amount", Hint: e.Hint, Err: e,
			Message: fmt.Sprintf("%q: %s", e.Input, e.Reason), MessageZH: fmt.Sprintf("“%s”：%s", e.Input, e.ReasonZH)}
	}
	return ok
}

// Say returns the reason in lang ("zh" or "en").
func (e *Error) Say(lang string) string {
	if lang == "zh" && e.ReasonZH != "" {
		return e.ReasonZH
	}
	return e.Reason
}

func errorf(in, hint, zh, en string, args ...any) *Error {
	return &Error{Input: in, Reason: fmt.Sprintf(en, args...), ReasonZH: fmt.Sprintf(zh, args...), Hint: hint}
}

// MaxMoney is the largest amount Money accepts: a trillion of anything is a
// typo, not a GPU bill.
const MaxMoney = 1e12

var cnDigits = map[rune]float64{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '兩': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
var cnUnits = map[rune]float64{'十': 10, '百': 100, '千': 1000}
var cnBig = map[rune]float64{'万': 1e4, '亿': 1e8, '萬': 1e4, '億': 1e8}

// magnitudes are the suffixes a figure may carry. "w" is the chat shorthand
// for 万 ("5w 条" = 50 000).
var magnitudes = map[string]float64{
	"k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12, "w": 1e4,
	"十": 10, "百": 100, "千": 1e3, "万": 1e4, "亿": 1e8, "萬": 1e4, "億": 1e8,
}

// normal maps full-width digits and punctuation to ASCII and the traditional
// magnitudes to the simplified ones.
var normal = strings.NewReplacer("，", ",", "．", ".", "。", ".", "萬", "万", "億", "亿", "兩", "两", "\u00a0", " ", "\u3000", " ")

func halfWidth(s string) string {
	if !strings.ContainsAny(s, "０１２３４５６７８９＄￥＋－") {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '０' && r <= '９':
			return r - '０' + '0'
		case r == '＄':
			return '$'
		case r == '￥':
			return '¥'
		case r == '＋':
			return '+'
		case r == '－':
			return '-'
		}
		return r
	}, s)
}

// IsCNNumeral reports whether r can be part of a Chinese numeral.
func IsCNNumeral(r rune) bool {
	_, d := cnDigits[r]
	return d || cnUnits[r] > 0 || cnBig[r] > 0
}

// englishNumbers are the English number words; englishMagnitudes multiply
// what comes before them.
var englishNumbers = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
	"thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
	"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
	"eighty": 80, "ninety": 90, "dozen": 12,
}

var englishMagnitudes = map[string]float64{"hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9}

// English reads one English number word, any case: "two" is 2, "forty"
// 40, "dozen" 12; magnitude is true for "hundred", "thousand", "million"
// and "billion", which multiply the words before them.
func English(word string) (v float64, magnitude, ok bool) {
	w := strings.ToLower(word)
	if v, ok := englishNumbers[w]; ok {
		return v, false, true
	}
	v, ok = englishMagnitudes[w]
	return v, ok, ok
}

// EnglishWords lists every word English reads, in no set order.
func EnglishWords() []string {
	out := make([]string, 0, len(englishNumbers)+len(englishMagnitudes))
	for _, m := range []map[string]float64{englishNumbers, englishMagnitudes} {
		for w := range m {
			out = append(out, w)
		}
	}
	return out
}

// IsCNDigit reports whether r is a Chinese digit (零 to 九, 两).
func IsCNDigit(r rune) bool { _, ok := cnDigits[r]; return ok }

// Chinese reads a Chinese numeral: "七十", "一百三十", "两", "十二",
// "一亿二千万", "三点一四", and the spoken short forms "三万五" (35 000),
// "一万六" (16 000) and "两千五" (2 500). ok is false when s is not
// entirely a numeral.
func Chinese(s string) (float64, bool) {
	f, ok := ReadChinese(s)
	return f.Value, ok
}

// Figure is a Chinese numeral as written: its value and how precisely it
// was written, which the rephrase guard needs to accept a rounding.
type Figure struct {
	Value float64
	// Step is the place of the last digit written when the numeral ends in
	// a magnitude or a spoken tail: 1e4 for "二十万", 1000 for "三万五",
	// 100 for "一千二". It is 0 for a numeral written out to the unit
	// ("三万五千", "七十") or with decimals.
	Step float64
	// Decimals counts the digits after 点 ("三点一四": 2).
	Decimals int
}

// ReadChinese is Chinese with the precision written. It refuses what is
// not one numeral: two digits in a row ("四五", "七八十", "二〇二六" without
// 年), a magnitude with no digit ("万", "万一"), a unit with no digit after
// another ("一百十"), units out of order ("十百") and decimals after a
// magnitude ("一万点五").
func ReadChinese(s string) (Figure, bool) {
	intPart, frac, hasPoint := strings.Cut(s, "点")
	if intPart == "" || hasPoint && frac == "" {
		return Figure{}, false
	}
	var total, section, digit float64
	haveDigit := false // a digit waits for its unit
	prevDigit := false // the rune before was a digit
	prevZero := false  // …and it was 零
	lastUnit := 0.0    // the unit just applied, for "三万五"
	lastSmall := 0.0   // the last 十/百/千 in this section, for order
	zero := false      // a 零 was seen since the last unit
	seen, endsBig := false, false
	for _, r := range intPart {
		d, isDigit := cnDigits[r]
		endsBig = false
		switch {
		case isDigit:
			// a digit may follow a digit only after 零 ("一千零五"); 零
			// itself only after a unit ("二〇" is no numeral)
			if prevDigit && !prevZero || d == 0 && prevDigit {
				return Figure{}, false
			}
			if d == 0 {
				zero = true
			}
			digit, haveDigit, seen = d, true, true
			prevDigit, prevZero = true, d == 0
			continue
		case cnUnits[r] > 0:
			u := cnUnits[r]
			if lastSmall > 0 && u >= lastSmall {
				return Figure{}, false // "十百"
			}
			if !haveDigit {
				if section > 0 {
					return Figure{}, false // "一百十": the unit needs its digit
				}
				digit = 1 // "十二" is 12, "百万" a million
			}
			section += digit * u
			digit, haveDigit, seen, zero = 0, false, true, false
			lastUnit, lastSmall = u, u
		case cnBig[r] > 0:
			big := cnBig[r]
			v := section + digit
			switch {
			case v == 0 && !seen:
				return Figure{}, false // "万一" is not a number
			case v == 0 && total > 0:
				total *= big // "五万亿"
			default:
				total += v * big
			}
			section, digit, haveDigit, zero = 0, 0, false, false
			lastUnit, lastSmall = big, 0
			seen, endsBig = true, true
		default:
			return Figure{}, false
		}
		prevDigit, prevZero = false, false
	}
	f := Figure{}
	switch {
	case endsBig:
		f.Step = lastUnit
	case haveDigit && !zero && lastUnit >= 100:
		// "三万五" = 3.5万, "两千五" = 2500: a trailing digit right after a
		// unit of 100 or more counts in the next lower unit.
		digit *= lastUnit / 10
		f.Step = lastUnit / 10
	}
	f.Value = total + section + digit
	if hasPoint {
		if f.Step != 0 {
			return Figure{}, false
		}
		for _, r := range frac {
			d, ok := cnDigits[r]
			if !ok {
				return Figure{}, false
			}
			f.Decimals++
			f.Value += d * math.Pow10(-f.Decimals)
		}
	}
	return f, seen
}

// Number reads one figure: "13", "1,200", "12,345,678.90", "1.5", "1.6万",
// "3千万", "5 千", "七十", "一万六", "32k", "100M", "5w", "1.2萬" and
// full-width digits. Suffixes k/m/b/t (thousand, million, billion,
// trillion), w/万, 千, 百 and 亿 multiply and may stack ("1.2万亿"). It
// refuses scientific notation, a comma that is not a thousands separator
// and anything that is not entirely a number; it never returns NaN or ±Inf.
func Number(s string) (float64, error) {
	raw := s
	s = strings.TrimSpace(normal.Replace(halfWidth(s)))
	if s == "" {
		return 0, errorf(raw, "1200, 1.5万, 16k", "没有数字", "no number")
	}
	if v, ok := Chinese(s); ok {
		return v, nil
	}
	i := 0
	if s[0] == '-' || s[0] == '+' {
		i++
	}
	start := i
	grouped := false
	for i < len(s) && (isDigit(s[i]) || s[i] == ',') {
		if s[i] == ',' {
			grouped = true
		}
		i++
	}
	intPart := s[start:i]
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	body := s[start:i]
	if body == "" || body == "." || strings.HasPrefix(body, ",") {
		return 0, errorf(raw, "1200, 1.5万, 16k", "%q 不是数字", "%q is not a number", raw)
	}
	if grouped {
		if err := checkGrouping(raw, intPart, body); err != nil {
			return 0, err
		}
		body = strings.ReplaceAll(body, ",", "")
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') && i+1 < len(s) && (isDigit(s[i+1]) || s[i+1] == '-' || s[i+1] == '+') {
		return 0, errorf(raw, "2500, 2.5k, 1.2万", "不接受科学计数法 %q，请直接写数字", "scientific notation %q is not accepted; write the figure out", raw)
	}
	v, err := strconv.ParseFloat(body, 64)
	if err != nil {
		return 0, errorf(raw, "1200, 1.5万, 16k", "%q 不是数字", "%q is not a number", raw)
	}
	if s[0] == '-' {
		v = -v
	}
	last := 0.0
	for rest := strings.TrimSpace(s[i:]); rest != ""; {
		r, size := utf8.DecodeRuneInString(rest)
		m, ok := magnitudes[strings.ToLower(string(r))]
		if !ok {
			// "1万6", "3千5": one trailing digit after 千 or 万 counts in
			// the next lower unit, as in "一万六".
			d, isCN := cnDigits[r]
			if !isCN && len(rest) == 1 && isDigit(rest[0]) {
				d, isCN = float64(rest[0]-'0'), true
			}
			if isCN && size == len(rest) && last >= 1e3 && v == math.Trunc(v) {
				v += d * last / 10
				break
			}
			return 0, errorf(raw, "1200, 1.5万, 16k", "%q 不是数字", "%q is not a number", raw)
		}
		v *= m
		last = m
		rest = strings.TrimSpace(rest[size:])
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e300 {
		return 0, errorf(raw, "1200, 1.5万, 16k", "%q 太大了", "%q is too large", raw)
	}
	return v, nil
}

// checkGrouping accepts "1,200" and "12,345,678.90" and refuses a comma
// that may be a decimal comma ("18,50") or sits in the wrong place
// ("1,2345").
func checkGrouping(raw, intPart, body string) *Error {
	groups := strings.Split(intPart, ",")
	if len(groups) == 2 && len(groups[1]) <= 2 && !strings.Contains(body, ".") && groups[1] != "" && len(groups[0]) > 0 {
		return errorf(raw, strings.ReplaceAll(intPart, ",", ".")+" or "+strings.ReplaceAll(intPart, ",", ""),
			"%q 里的逗号看不出是小数点还是千位分隔符：是 %s 还是 %s？请用小数点写",
			"the comma in %q could be a decimal comma or a thousands separator: %s or %s? Write it with a decimal point",
			raw, strings.ReplaceAll(intPart, ",", "."), strings.ReplaceAll(intPart, ",", ""))
	}
	for k, g := range groups {
		if g == "" || k == 0 && len(g) > 3 || k > 0 && len(g) != 3 {
			return errorf(raw, "1,200 or 1200", "%q 的千位分隔符位置不对", "%q has a misplaced thousands separator", raw)
		}
	}
	return nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Money is an amount with its currency ("CNY", "USD", or "" when none was
// written) and the period it is priced per, when it carries one.
type Money struct {
	Amount   float64
	Currency string
	// Per is "hour", "month", "year", "kwh" or "" for a plain amount.
	Per string
}

// Minor is the amount in cents (fen), rounded half away from zero.
func (m Money) Minor() int64 { return int64(math.Round(m.Amount * 100)) }

// currency marks, longest first so "us$" is not read as "$" and "块钱" as "块".
var currencies = []struct{ mark, code string }{
	{"us dollars", "USD"}, {"us$", "USD"}, {"usd", "USD"}, {"美元", "USD"}, {"美金", "USD"}, {"dollars", "USD"}, {"dollar", "USD"}, {"bucks", "USD"}, {"刀", "USD"}, {"$", "USD"},
	{"renminbi", "CNY"}, {"rmb", "CNY"}, {"cny", "CNY"}, {"人民币", "CNY"}, {"块钱", "CNY"}, {"yuan", "CNY"}, {"元", "CNY"}, {"块", "CNY"}, {"¥", "CNY"},
}

// Currency returns the ISO code of a currency mark ("¥", "刀", "usd"), or "".
func Currency(mark string) string {
	mark = strings.ToLower(strings.TrimSpace(halfWidth(mark)))
	for _, c := range currencies {
		if mark == c.mark {
			return c.code
		}
	}
	return ""
}

var pers = []struct{ mark, per string }{
	{"/小时", "hour"}, {"/卡时", "hour"}, {"/hour", "hour"}, {"/hr", "hour"}, {"/h", "hour"}, {"/时", "hour"}, {"每小时", "hour"},
	{"/个月", "month"}, {"/月", "month"}, {"/month", "month"}, {"/mo", "month"}, {"每月", "month"},
	{"/年", "year"}, {"/year", "year"}, {"/yr", "year"}, {"每年", "year"},
	{"/kwh", "kwh"}, {"/度", "kwh"},
}

// Read reads one money value: "¥1,000", "1,200 块", "$12,345,678.90",
// "1.2万", "一万六", "16k", "$2k", "3000 刀", "5 千", "2.5 USD",
// "RMB 75", "$2.5/h", "900/月". A bare figure has no currency; the caller
// picks the default and says so. Negative amounts, amounts above MaxMoney
// and two currencies in one value are refused.
func Read(s string) (Money, error) {
	raw := s
	s = strings.ToLower(strings.TrimSpace(normal.Replace(halfWidth(s))))
	s = strings.ReplaceAll(s, " ", "")
	var m Money
	for _, p := range pers {
		if strings.HasSuffix(s, p.mark) {
			m.Per, s = p.per, strings.TrimSuffix(s, p.mark)
			break
		}
	}
	neg := false
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	for again := true; again; {
		again = false
		for _, c := range currencies {
			var ok bool
			if strings.HasPrefix(s, c.mark) {
				s, ok = strings.TrimPrefix(s, c.mark), true
			} else if strings.HasSuffix(s, c.mark) {
				s, ok = strings.TrimSuffix(s, c.mark), true
			}
			if !ok {
				continue
			}
			if m.Currency != "" && m.Currency != c.code {
				return Money{}, errorf(raw, "¥75 or $75", "%q 写了两种货币", "%q names two currencies", raw)
			}
			m.Currency, again = c.code, true
			break
		}
	}
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	if s == "" {
		return Money{}, errorf(raw, "¥75, $2.5, 1.2万", "%q 里没有金额", "no amount in %q", raw)
	}
	v, err := Number(s)
	if err != nil {
		e := err.(*Error)
		e.Input = raw
		return Money{}, e
	}
	if neg || v < 0 {
		return Money{}, errorf(raw, "¥75", "金额不能是负数（读到 %s）", "an amount cannot be negative (read %s)", raw)
	}
	if v > MaxMoney {
		return Money{}, errorf(raw, "¥75, $2k, 1.2万", "金额 %s 超出可接受范围（0 到 1 万亿）", "the amount %s is outside the accepted range (0 to 1 trillion)", raw)
	}
	m.Amount = v
	return m, nil
}
