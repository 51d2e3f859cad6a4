package parse

import (
	"strconv"
	"strings"
)

var cnDigits = map[rune]float64{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
var cnUnits = map[rune]float64{'十': 10, '百': 100, '千': 1000}
var cnBig = map[rune]float64{'万': 1e4, '亿': 1e8}

// cnNumber reads a Chinese numeral such as "七十", "一百三十", "两" or
// "十二". ok is false when s is not entirely a numeral.
func cnNumber(s string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	var total, section, digit float64
	seen := false
	for _, r := range s {
		switch {
		case isCNDigit(r):
			digit = cnDigits[r]
			seen = true
		case cnUnits[r] > 0:
			if digit == 0 && !seen {
				digit = 1 // "十二" is 12
			}
			section += digit * cnUnits[r]
			digit, seen = 0, true
		case cnBig[r] > 0:
			total += (section + digit) * cnBig[r]
			section, digit = 0, 0
			seen = true
		default:
			return 0, false
		}
	}
	return total + section + digit, seen
}

func isCNDigit(r rune) bool { _, ok := cnDigits[r]; return ok }

// IsCNNumeral reports whether r can be part of a Chinese numeral.
func IsCNNumeral(r rune) bool { return isCNDigit(r) || cnUnits[r] > 0 || cnBig[r] > 0 }

// Number reads "1,200", "1.5", "1.6万", "七十", "32k", "100M", "2.5e3".
// Suffixes k/m/b (thousand/million/billion) and 万/亿 multiply.
func Number(s string) (float64, bool) {
	s = strings.TrimSpace(strings.ReplaceAll(s, ",", ""))
	if s == "" {
		return 0, false
	}
	if v, ok := cnNumber(s); ok {
		return v, true
	}
	mult := 1.0
	lower := strings.ToLower(s)
	for _, suf := range []struct {
		s string
		m float64
	}{{"万", 1e4}, {"亿", 1e8}, {"k", 1e3}, {"m", 1e6}, {"b", 1e9}} {
		if strings.HasSuffix(lower, suf.s) {
			mult = suf.m
			lower = strings.TrimSuffix(lower, suf.s)
			break
		}
	}
	v, err := strconv.ParseFloat(lower, 64)
	if err != nil {
		if cv, ok := cnNumber(lower); ok {
			return cv * mult, true
		}
		return 0, false
	}
	return v * mult, true
}
