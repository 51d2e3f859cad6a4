// Package advisor is gpubot's deterministic engine: pure functions from a
// workload, card specs and prices to numbers that explain themselves. It does
// no I/O and reads no clock: prices, dates and usage arrive as arguments.
package advisor

import (
	"fmt"
	"math"
	"strconv"
)

// Text is a sentence in both answer languages.
type Text struct {
	EN string `json:"en"`
	ZH string `json:"zh"`
}

// In picks the language ("zh" or anything else for English).
func (t Text) In(lang string) string {
	if lang == "zh" && t.ZH != "" {
		return t.ZH
	}
	return t.EN
}

func txt(en, zh string) Text { return Text{EN: en, ZH: zh} }

// Line is one step of a calculation: a labelled value and how it was reached.
// Every number a user sees comes from a Line or a typed result field.
type Line struct {
	Key   string  `json:"key"`
	Label Text    `json:"label"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	How   string  `json:"how"` // the formula with the numbers put in
}

// num prints a number for formulas: up to 3 decimals, no trailing zeros.
func num(f float64) string {
	var b [32]byte
	return string(appendNum(b[:0], f))
}

// appendNum appends num(f) to b: an integer as is, from 100 up one
// decimal, below 100 up to 3 decimals without trailing zeros. A price list
// writes a few numbers per offer, so the common cases are written from
// integers (the digits strconv would write: see TestAppendNumMatchesStrconv),
// and strconv formats the rest (zero, huge values, halfway cases, NaN).
func appendNum(b []byte, f float64) []byte {
	a := math.Abs(f)
	switch {
	case f == math.Trunc(f) && a < 1e15:
		if f != 0 { // ±0 keeps strconv's sign
			return strconv.AppendInt(b, int64(f), 10)
		}
		return strconv.AppendFloat(b, f, 'f', 0, 64)
	case a >= 100:
		if x := a * 10; a < 1e12 {
			// |x| < 1e13, so its rounding error is under 0.002: away
			// from a half, math.Round gives strconv's rounding.
			if k := math.Round(x); math.Abs(x-k) < 0.45 {
				return appendFixed(b, f < 0, int64(k), 10)
			}
		}
		return strconv.AppendFloat(b, f, 'f', 1, 64)
	default:
		// round(f, 3) is the double nearest k/1000, whose shortest form
		// is k/1000's decimals.
		if k := math.Round(f * 1000); k != 0 && a < 100 {
			return appendFixed(b, k < 0, int64(math.Abs(k)), 1000)
		}
		return strconv.AppendFloat(b, round(f, 3), 'f', -1, 64)
	}
}

// appendFixed appends k/scale (scale 10: always one decimal; 1000: up to
// three, trailing zeros dropped), with a minus sign when neg.
func appendFixed(b []byte, neg bool, k, scale int64) []byte {
	if neg {
		b = append(b, '-')
	}
	b = strconv.AppendInt(b, k/scale, 10)
	frac := k % scale
	if scale == 10 {
		return append(b, '.', byte('0'+frac))
	}
	if frac == 0 {
		return b
	}
	d := [3]byte{byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
	n := 3
	for d[n-1] == '0' {
		n--
	}
	return append(append(b, '.'), d[:n]...)
}

// round rounds to n decimals for display-stable results.
func round(f float64, n int) float64 {
	var p float64
	if n >= 0 && n < len(pow10) {
		p = pow10[n] // the figure math.Pow gives, without its cost on every row
	} else {
		p = math.Pow(10, float64(n))
	}
	return math.Round(f*p) / p
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// Round2 rounds to two decimals, the precision money and GB are shown in.
func Round2(f float64) float64 { return round(f, 2) }

func gb(f float64) string { return fmt.Sprintf("%s GB", num(round(f, 2))) }
