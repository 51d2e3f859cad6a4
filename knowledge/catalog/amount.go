package catalog

import (
	"fmt"
	"math"
	"strconv"
)

// FormatAmount writes a price as the shortest decimal string that parses
// back to the same float64, so "1.19" read from a provider is stored as
// "1.19" and reads back bit-for-bit. Redis only ever holds these strings.
func FormatAmount(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// ParseAmount reads a decimal price string written by FormatAmount or a
// provider; empty is an error.
func ParseAmount(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("price %q: %w", s, err)
	}
	return f, nil
}

// roundDerived trims a derived figure (a per-card hourly from a division) to
// six decimals, well below a cent, so 3.24/2 stays "1.62" and a long binary
// tail never reaches storage or a diff.
func roundDerived(f float64) float64 { return math.Round(f*1e6) / 1e6 }
