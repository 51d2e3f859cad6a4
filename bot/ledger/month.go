package ledger

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Month is a calendar month. Which instants belong to it depends on the
// time zone (BOT_TIMEZONE): Start and End take the location.
type Month struct {
	Year  int
	Month time.Month
}

var reMonth = regexp.MustCompile(`^\s*(\d{4})\s*(?:-|/|\.|年)?\s*(\d{1,2})\s*月?\s*$`)

// ParseMonth reads "2026-10", "2026/10", "202610" or "2026年10月".
func ParseMonth(s string) (Month, error) {
	m := reMonth.FindStringSubmatch(s)
	if m == nil {
		return Month{}, &InputError{Field: "month", Reason: fmt.Sprintf("%q is not a month; write it as 2026-10", s)}
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	if mo < 1 || mo > 12 {
		return Month{}, &InputError{Field: "month", Reason: fmt.Sprintf("%q has no month %d", s, mo)}
	}
	return Month{Year: y, Month: time.Month(mo)}, nil
}

// relativeMonths are the spellings of "this month" (0) and "last month"
// (-1); the parser hands some through as they were typed ("last").
var relativeMonths = map[string]int{
	"this": 0, "this month": 0, "current": 0, "本月": 0, "这个月": 0, "这月": 0, "当月": 0,
	"last": -1, "last month": -1, "prev": -1, "previous": -1, "previous month": -1, "上月": -1, "上个月": -1, "上一个月": -1,
}

var reBareMonth = regexp.MustCompile(`^\s*(\d{1,2})\s*月?\s*$`)

// ResolveMonth reads what ParseMonth reads and, relative to now in loc,
// "上个月"/"last month", "本月"/"this month", and a month without a year
// ("11", "11月"): the most recent such month that has begun, so in
// February "11月" is last November.
func ResolveMonth(s string, now time.Time, loc *time.Location) (Month, error) {
	cur := MonthOf(now, loc)
	if d, ok := relativeMonths[strings.ToLower(strings.TrimSpace(s))]; ok {
		if d == -1 {
			return cur.Prev(), nil
		}
		return cur, nil
	}
	if m := reBareMonth.FindStringSubmatch(s); m != nil {
		mo, _ := strconv.Atoi(m[1])
		if mo < 1 || mo > 12 {
			return Month{}, &InputError{Field: "month", Reason: fmt.Sprintf("%q has no month %d", s, mo)}
		}
		out := Month{Year: cur.Year, Month: time.Month(mo)}
		if out.Month > cur.Month {
			out.Year--
		}
		return out, nil
	}
	out, err := ParseMonth(s)
	if err != nil {
		return Month{}, &InputError{Field: "month", Reason: fmt.Sprintf("%q is not a month; write it as 2026-10, 10月, 上个月 or last month", s)}
	}
	return out, nil
}

// MonthOf is the month t falls in, read on the wall clock of loc: 2026-10-31
// 23:30 in Asia/Shanghai is October although it is 15:30 UTC.
func MonthOf(t time.Time, loc *time.Location) Month {
	t = t.In(loc)
	return Month{Year: t.Year(), Month: t.Month()}
}

// Start is the first instant of the month in loc.
func (m Month) Start(loc *time.Location) time.Time {
	return time.Date(m.Year, m.Month, 1, 0, 0, 0, 0, loc)
}

// End is the first instant of the next month in loc (exclusive bound).
func (m Month) End(loc *time.Location) time.Time { return m.Next().Start(loc) }

// Prev is the month before.
func (m Month) Prev() Month {
	t := time.Date(m.Year, m.Month-1, 1, 0, 0, 0, 0, time.UTC)
	return Month{Year: t.Year(), Month: t.Month()}
}

// Next is the month after.
func (m Month) Next() Month {
	t := time.Date(m.Year, m.Month+1, 1, 0, 0, 0, 0, time.UTC)
	return Month{Year: t.Year(), Month: t.Month()}
}

// IsZero reports whether m is unset.
func (m Month) IsZero() bool { return m.Year == 0 && m.Month == 0 }

// String is "2026-10".
func (m Month) String() string { return fmt.Sprintf("%04d-%02d", m.Year, int(m.Month)) }

// MarshalText writes "2026-10".
func (m Month) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads what ParseMonth reads.
func (m *Month) UnmarshalText(b []byte) error {
	v, err := ParseMonth(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}
