package present

import (
	"math"
	"strconv"
)

// FormulaNum writes a number inside a formula or an assumption the way
// the engine's working does: an integer as is, from 100 up one decimal,
// below 100 up to three decimals without trailing zeros (no grouping, unlike
// Num: "331776 bytes/token" reads as the count it is).
func FormulaNum(f float64) string {
	a := math.Abs(f)
	switch {
	case f == math.Trunc(f) && a < 1e15:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case a >= 100:
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(math.Round(f*1000)/1000, 'f', -1, 64)
}
