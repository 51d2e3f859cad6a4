package parse

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gpubot/gpubot/bot/parse/amount"
)

// Number reads one figure with the shared reader (package amount): "1,200",
// "1.5", "1.6万", "3千万", "七十", "32k", "100M", "5w" and full-width
// digits. ok is false for anything amount refuses (scientific notation, a
// decimal comma, a word).
func Number(s string) (float64, bool) {
	v, err := amount.Number(s)
	return v, err == nil
}

func cnNumber(s string) (float64, bool) { return amount.Chinese(s) }

// IsCNNumeral reports whether r can be part of a Chinese numeral.
func IsCNNumeral(r rune) bool { return amount.IsCNNumeral(r) }

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
	spacedMag  = regexp.MustCompile(`(\d)\s+(万|亿|千万|百万|千)`)
	percentCN  = regexp.MustCompile(`百分之([零〇一二两三四五六七八九十百\d.]+)`)
	halfA      = regexp.MustCompile(`\bhalf an? (million|billion|thousand|mil|bn)\b`)
	digitsMag  = regexp.MustCompile(`\b(\d+(?:\.\d+)?) ?(million|billion|mil|bn)\b`)
	magnitudes = map[string]float64{"million": 1e6, "mil": 1e6, "billion": 1e9, "bn": 1e9, "thousand": 1e3}
	enNumber   = regexp.MustCompile(`\b(` + alternation(countWords()) + `)\b`)
)

// countWords are the English number words (package amount's) arabize
// rewrites as digits: all but "one" and "zero", which are mostly words in
// a question ("the cheapest one", "zero downtime"), and the magnitudes
// above a hundred, which only scale a figure already read.
func countWords() []string {
	var out []string
	for _, w := range amount.EnglishWords() {
		if v, mag, _ := amount.English(w); w != "one" && w != "zero" && (!mag || v == 100) {
			out = append(out, w)
		}
	}
	return out
}

// singles are the one-word counts: "单卡" is one card.
var singles = strings.NewReplacer("单卡", "1卡", "双卡", "2卡", "单张", "1张", "单台", "1台", "单机", "1台")

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
	// "half a million dollars", "1.5 million tokens": written out in digits
	t = halfA.ReplaceAllStringFunc(t, func(m string) string {
		return trim(magnitudes[halfA.FindStringSubmatch(m)[1]] / 2)
	})
	t = digitsMag.ReplaceAllStringFunc(t, func(m string) string {
		sub := digitsMag.FindStringSubmatch(m)
		v, err := strconv.ParseFloat(sub[1], 64)
		if err != nil {
			return m
		}
		return trim(v * magnitudes[sub[2]])
	})
	var b strings.Builder
	last := 0
	for _, loc := range cnRun.FindAllStringIndex(t, -1) {
		run, after := t[loc[0]:loc[1]], t[loc[1]:]
		if out, ok := arabizeRun(run, after); ok {
			b.WriteString(t[last:loc[0]])
			// "h200一台8卡", "4090d一张": a numeral after a model name is a
			// count of its own, never more digits of the name
			if loc[0] > 0 && isASCIIAlnum(t[loc[0]-1]) {
				b.WriteByte(' ')
			}
			b.WriteString(out)
			last = loc[1]
		}
	}
	b.WriteString(t[last:])
	t = b.String()
	t = spacedMag.ReplaceAllString(t, "$1$2")
	return enNumber.ReplaceAllStringFunc(t, func(w string) string {
		v, _, _ := amount.English(w)
		return strconv.FormatFloat(v, 'f', -1, 64)
	})
}

// arabizeRun converts one run of numeral characters given what follows it.
// A run that ends in 万/亿 keeps that magnitude as a suffix ("七十亿" →
// "70亿") so later patterns still see it.
func arabizeRun(run, after string) (string, bool) {
	first, _ := utf8.DecodeRuneInString(run)
	if first == '万' || first == '亿' {
		return "", false // "万一"
	}
	if (run == "百" || run == "千") && !strings.HasPrefix(after, "亿") && !strings.HasPrefix(after, "万") {
		return "", false // "百度", "千万别"
	}
	after = strings.TrimLeft(after, " ")
	if run == "一" {
		for _, w := range vocab.loneOne {
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
	hasDigit, hasUnit := false, false
	for _, r := range body {
		if amount.IsCNDigit(r) {
			hasDigit = true
		} else {
			hasUnit = true
		}
	}
	// "一万六", "两千五", "三百": a numeral with a unit is a number
	// whatever follows it
	if hasDigit && hasUnit && suffix == "" {
		v, ok := cnNumber(body)
		if !ok {
			return "", false
		}
		if strings.ContainsRune(body, '万') && v < 1e8 {
			return strconv.FormatFloat(v/1e4, 'f', -1, 64) + "万", true // stays a money candidate, like "1.6万"
		}
		return strconv.FormatFloat(v, 'f', -1, 64), true
	}
	if suffix == "" || !hasDigit {
		counted := false
		for _, c := range vocab.counters {
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

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
