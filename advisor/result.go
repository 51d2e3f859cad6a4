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

// appendNum appends num(f) to b.
func appendNum(b []byte, f float64) []byte {
	switch {
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return strconv.AppendFloat(b, f, 'f', 0, 64)
	case math.Abs(f) >= 100:
		return strconv.AppendFloat(b, f, 'f', 1, 64)
	default:
		return strconv.AppendFloat(b, round(f, 3), 'f', -1, 64)
	}
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
