package phrase

import (
	"math"
	"strings"
)

var cnDigit = map[rune]int{
	'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '兩': 2, '三': 3, '四': 4,
	'五': 5, '六': 6, '七': 7, '八': 8, '九': 9,
}

var cnSmall = map[rune]float64{'十': 10, '百': 100, '千': 1000}

var cnBig = map[rune]float64{'万': 1e4, '萬': 1e4, '亿': 1e8, '億': 1e8}

func isCNNumeral(r rune) bool {
	_, d := cnDigit[r]
	return d || cnSmall[r] > 0 || cnBig[r] > 0
}

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

func cnDigitAt(s *scanner, i int) bool {
	_, ok := cnDigit[s.at(i)]
	return ok
}

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

// parseCN reads a Chinese numeral: positional (七十, 一千二百, 三万五千,
// 一亿五千万), colloquial tails (两百五 = 250, 三万五 = 35,000) and decimals
// (一点五). step is the precision written: 1 for whole numbers, the last
// 万/亿 for numbers ending in one, the implied place for colloquial tails.
func parseCN(rs []rune) (v, step float64, dec int, ok bool) {
	intPart, frac := rs, []rune(nil)
	for k, r := range rs {
		if r == '点' {
			intPart, frac = rs[:k], rs[k+1:]
			break
		}
	}
	if len(intPart) == 0 {
		return 0, 0, 0, false
	}
	// a run of digits only: 二〇二六, or one digit
	allDigits := true
	for _, r := range intPart {
		if _, d := cnDigit[r]; !d {
			allDigits = false
		}
	}
	if allDigits {
		if len(intPart) > 1 {
			return 0, 0, 0, false // 三三两两, 四五 (four or five), 二〇二六 without 年
		}
		v = float64(cnDigit[intPart[0]])
		step = 1
	} else {
		var total, section float64
		digit := -1
		lastSmall, lastBig := 0.0, 0.0
		zero := false
		endsBig := false
		for _, r := range intPart {
			endsBig = false
			if d, isD := cnDigit[r]; isD {
				if digit >= 0 && d != 0 && digit != 0 {
					return 0, 0, 0, false // two digits in a row: 七八十
				}
				if d == 0 {
					zero = true
					digit = -1
					continue
				}
				digit = d
				continue
			}
			if u := cnSmall[r]; u > 0 {
				if digit < 0 {
					if u != 10 || section > 0 {
						return 0, 0, 0, false // 百 or 千 with no digit
					}
					digit = 1 // 十二 = 12
				}
				if lastSmall > 0 && u >= lastSmall {
					return 0, 0, 0, false
				}
				section += float64(digit) * u
				digit, lastSmall, zero = -1, u, false
				continue
			}
			u := cnBig[r]
			if digit > 0 {
				section += float64(digit)
				digit = -1
			}
			if section == 0 && total == 0 {
				return 0, 0, 0, false // 万 with no digit
			}
			if lastBig > 0 && u >= lastBig && section == 0 {
				return 0, 0, 0, false // 万万
			}
			if u == 1e8 {
				total = (total + section) * u
			} else {
				total += section * u
			}
			section, lastSmall, lastBig, zero, endsBig = 0, 0, u, false, true
		}
		step = 1
		switch {
		case endsBig:
			step = lastBig
		case digit > 0 && !zero && lastSmall > 0:
			section += float64(digit) * lastSmall / 10 // 两百五
			step = lastSmall / 10
		case digit > 0 && !zero && lastSmall == 0 && lastBig > 0:
			total += float64(digit) * lastBig / 10 // 三万五, 一亿五
			step = lastBig / 10
		case digit > 0:
			section += float64(digit)
		}
		v = total + section
	}
	if len(frac) > 0 {
		if step != 1 {
			return 0, 0, 0, false
		}
		for k, r := range frac {
			d, isD := cnDigit[r]
			if !isD {
				return 0, 0, 0, false
			}
			v += float64(d) * math.Pow10(-(k + 1))
		}
		dec = len(frac)
		step = 0
	}
	if step == 1 {
		step = 0 // whole number: precision comes from dec (0) as for Arabic numerals
	}
	return v, step, dec, true
}
