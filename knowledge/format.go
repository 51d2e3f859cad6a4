package knowledge

import "strconv"

// trimFloat prints a figure without a trailing ".0".
func trimFloat(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}
