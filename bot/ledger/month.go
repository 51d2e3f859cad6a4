package ledger

import (
	"fmt"
	"regexp"
	"strconv"
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
