package schedule

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// Parse reads a cron schedule — five standard fields ("0 */4 * * *"), a
// descriptor ("@every 4h", "@daily"), optionally led by CRON_TZ=Zone — and
// runs it on loc's wall clock unless it names its own zone.
func Parse(spec string, loc *time.Location) (cron.Schedule, error) {
	spec = strings.TrimSpace(spec)
	s, err := cron.ParseStandard(spec)
	if err != nil {
		return nil, fmt.Errorf("cron schedule %q: %w", spec, err)
	}
	if ss, ok := s.(*cron.SpecSchedule); ok && loc != nil && !strings.HasPrefix(spec, "TZ=") && !strings.HasPrefix(spec, "CRON_TZ=") {
		ss.Location = loc
	}
	return s, nil
}

var reClock = regexp.MustCompile(`^([01]?\d|2[0-3]):([0-5]\d)$`)

// clock reads "09:30" or "9:30".
func clock(at string) (h, m int, ok bool) {
	g := reClock.FindStringSubmatch(strings.TrimSpace(at))
	if g == nil {
		return 0, 0, false
	}
	h, _ = strconv.Atoi(g[1])
	m, _ = strconv.Atoi(g[2])
	return h, m, true
}

// Daily is the schedule of a post every day at "HH:MM" on loc's wall
// clock. A full cron spec is accepted too, for other rhythms.
func Daily(at string, loc *time.Location) (cron.Schedule, error) {
	if h, m, ok := clock(at); ok {
		return Parse(fmt.Sprintf("%d %d * * *", m, h), loc)
	}
	if len(strings.Fields(at)) >= 5 {
		return Parse(at, loc)
	}
	return nil, fmt.Errorf("post time %q: write it as HH:MM, e.g. 09:30", at)
}

// Monthly is the schedule of a post on the first day of every month at
// "HH:MM" on loc's wall clock. A full cron spec is accepted too.
func Monthly(at string, loc *time.Location) (cron.Schedule, error) {
	if h, m, ok := clock(at); ok {
		return Parse(fmt.Sprintf("%d %d 1 * *", m, h), loc)
	}
	if len(strings.Fields(at)) >= 5 {
		return Parse(at, loc)
	}
	return nil, fmt.Errorf("post time %q: write it as HH:MM, e.g. 09:30", at)
}

// maxFires bounds the walks over a schedule's fire times (a day of a
// per-minute schedule is 1440).
const maxFires = 100000

// LastSlot is the latest time s fired at or before now on now's calendar
// day in loc; ok is false when it has not fired yet today. A post whose
// slot passed while the bot was down goes out on the same day only.
func LastSlot(s cron.Schedule, now time.Time, loc *time.Location) (time.Time, bool) {
	n := now.In(loc)
	day := time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, loc)
	var last time.Time
	for t, i := s.Next(day.Add(-time.Nanosecond)), 0; !t.IsZero() && !t.After(now) && i < maxFires; t, i = s.Next(t), i+1 {
		last = t
	}
	return last, !last.IsZero()
}

// DayPeriod names a daily slot by its date in loc: "2026-10-09".
func DayPeriod(loc *time.Location) func(slot time.Time) string {
	return func(slot time.Time) string { return slot.In(loc).Format(time.DateOnly) }
}

// PrevMonthPeriod names a monthly slot by the month before it in loc: the
// recap posted on 2026-11-01 covers "2026-10".
func PrevMonthPeriod(loc *time.Location) func(slot time.Time) string {
	return func(slot time.Time) string {
		t := slot.In(loc)
		first := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, loc)
		return first.AddDate(0, -1, 0).Format("2006-01")
	}
}
