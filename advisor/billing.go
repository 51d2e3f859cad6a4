package advisor

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Granularity is a billing step in hours: 1/3600 for per-second billing,
// 1/60 per minute, 1 per hour.
type Granularity float64

// Billing steps the platforms use.
const (
	BillPerSecond Granularity = 1.0 / 3600
	BillPerMinute Granularity = 1.0 / 60
	BillPerHour   Granularity = 1
)

// ParseGranularity reads a billing granularity: ISO 8601 durations as the
// catalogue stores them (PT1S, PT1M, PT1H, PT15M) or the words second,
// minute, hour (and 秒, 分钟, 小时). ok is false for anything else.
func ParseGranularity(s string) (Granularity, bool) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "s", "sec", "second", "per-second", "秒", "按秒":
		return BillPerSecond, true
	case "m", "min", "minute", "per-minute", "分钟", "按分钟", "按分":
		return BillPerMinute, true
	case "h", "hour", "hourly", "per-hour", "小时", "按小时":
		return BillPerHour, true
	}
	if !strings.HasPrefix(t, "pt") || len(t) < 4 {
		return 0, false
	}
	n, err := strconv.ParseFloat(t[2:len(t)-1], 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	switch t[len(t)-1] {
	case 's':
		return Granularity(n / 3600), true
	case 'm':
		return Granularity(n / 60), true
	case 'h':
		return Granularity(n), true
	}
	return 0, false
}

// String names the step for a formula.
func (g Granularity) String() string {
	switch g {
	case BillPerSecond:
		return "per second"
	case BillPerMinute:
		return "per minute"
	case BillPerHour:
		return "per hour"
	}
	return fmt.Sprintf("per %s h", num(float64(g)))
}

// Bill rounds one job of h hours up to whole billing steps, as a platform
// that bills by the step charges it.
func (g Granularity) Bill(h float64) float64 {
	if g <= 0 {
		return h
	}
	steps := math.Ceil(h/float64(g) - 1e-9) // tolerate float noise on exact multiples
	return steps * float64(g)
}
