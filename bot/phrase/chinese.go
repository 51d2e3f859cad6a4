package phrase

import (
	"strings"

	"github.com/gpubot/gpubot/bot/parse/amount"
)

// Chinese numerals are read by the bot's one number reader (package
// amount), so the guard and the parser agree on 萬/億, "三万五" and "一万六";
// this file decides only where a numeral stands in prose.

func isCNNumeral(r rune) bool { return amount.IsCNNumeral(r) }

// cnMeasure are the words after which a lone numeral (一, 两, 三 …) is read
// as a number: 两张卡, 三倍, 七成, 八折, 五元. Without one, a lone numeral is
// ordinary text (一些, 统一, 两者, 之一).
var cnMeasure = []string{
	"张", "台", "块", "卡", "倍", "成", "折", "元", "美元", "美金", "块钱", "人民币",
	"个", "小时", "个月", "年", "天", "周", "万", "亿", "千", "百",
}

// cnMeasureOne is the shorter list for 一, which is mostly "a"/"one" in prose
// (一个, 一年, 一次性): only counts of cards, multiples, tenths and money.
var cnMeasureOne = []string{"张", "台", "块", "卡", "倍", "成", "折", "元", "美元", "美金", "块钱"}

// chinese reads a Chinese numeral at i: 七十, 两百, 一千二百, 三万五, 一点五,
// 七十亿, and a lone numeral only before a measure word.
func (s *scanner) chinese(i int) int {
	rs := s.rs
	j := i
	for j < len(rs) && (isCNNumeral(rs[j]) || (rs[j] == '点' && j > i && cnDigitAt(s, j+1))) {
		j++
		if j-i > 40 {
			break
		}
	}
	run := string(rs[i:j])
	prev := s.at(i - 1)
	// ordinals, weekdays and approximations: 第一, 周一, 几十, 数百, 上百
	if strings.ContainsRune("第周期拜几数上近好", prev) {
		return j
	}
	v, step, dec, ok := parseCN([]rune(run))
	if !ok {
		return j
	}
	if len([]rune(run)) == 1 {
		list := cnMeasure
		if rs[i] == '一' {
			list = cnMeasureOne
		}
		if !s.measureAt(j, list) {
			return j
		}
	}
	// idioms that read as numbers: 十分 (very), 十足, 万一
	if run == "十" && (s.at(j) == '分' || s.at(j) == '足') {
		return j
	}
	q := qty{kind: kNumber, start: i, num: v, dec: dec, step0: step, scale: 1, def: unitDef{factor: 1}}
	if s.curUntil >= i && s.cur != "" {
		q.def, q.unit, q.hasUnit, q.start = money(s.cur), s.curUnit, true, s.curStart
	}
	s.cur = ""
	j = s.suffix(&q, j)
	q.end, q.raw = j, string(rs[q.start:j])
	s.out = append(s.out, q)
	return j
}

func cnDigitAt(s *scanner, i int) bool { return amount.IsCNDigit(s.at(i)) }

func (s *scanner) measureAt(j int, list []string) bool {
	if s.at(j) == ' ' {
		j++
	}
	for _, m := range list {
		if s.hasPrefix(j, m) {
			if m == "成" || m == "折" || m == "个" || m == "块" || m == "周" || m == "天" {
				return s.unitFits(unitWord{text: m}, j+len([]rune(m)))
			}
			return true
		}
	}
	return false
}

// percentOf reads 百分之七十, 百分之 7.5.
func (s *scanner) percentOf(i int) int {
	j := i + 3
	if s.at(j) == ' ' {
		j++
	}
	start := len(s.out)
	var end int
	switch {
	case isDigit(s.at(j)):
		end = s.number(j)
	case isCNNumeral(s.at(j)):
		rs := s.rs
		k := j
		for k < len(rs) && (isCNNumeral(rs[k]) || (rs[k] == '点' && cnDigitAt(s, k+1))) && k-j < 40 {
			k++
		}
		v, step, dec, ok := parseCN(rs[j:k])
		if !ok {
			return k
		}
		s.out = append(s.out, qty{kind: kNumber, num: v, dec: dec, step0: step, scale: 1})
		end = k
	default:
		return j
	}
	if len(s.out) == start+1 && s.out[start].kind == kNumber {
		q := &s.out[start]
		q.start, q.end = i, end
		q.def, q.unit, q.hasUnit = ratio(0.01), "%", true
		q.scale, q.hasScale, q.binary = 1, false, false
		q.raw = string(s.rs[i:end])
		return end
	}
	return end
}

// parseCN reads a Chinese numeral with amount.ReadChinese. step is the
// precision written (the last 万/亿 for numbers ending in one, the implied
// place for colloquial tails such as 两百五), 0 when the numeral is written
// out to the unit; dec counts the digits after 点. In prose a numeral that
// opens with 百 or 千 is a word, not a figure ("每百万 token" is per
// million, "千万别" is "by no means"), so the guard does not read one.
func parseCN(rs []rune) (v, step float64, dec int, ok bool) {
	if len(rs) > 0 && (rs[0] == '百' || rs[0] == '千') {
		return 0, 0, 0, false
	}
	f, ok := amount.ReadChinese(string(rs))
	return f.Value, f.Step, f.Decimals, ok
}
