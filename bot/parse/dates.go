package parse

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Dates of ledger entries: "昨天", "前天", "上周三", "周五", "11月3日",
// "2026-11-03", "3 天前", "yesterday", "last wed", "nov 3", "date=…". They
// are resolved against the now the caller passes (its time zone is the
// team's, BOT_TIMEZONE); parse has no clock. A relative date without a now
// is left unread with a note, never guessed.
var (
	reISODate  = rx(`(?P<pre>^|[^0-9])(20\d\d)\s?[-/.年]\s?(\d{1,2})\s?[-/.月]\s?(\d{1,2})\s?[日号]?(?P<end>$|[^0-9])`, true, "20")
	reMonthDay = rx(`(?P<pre>^|[^0-9])(\d{1,2})\s?月\s?(\d{1,2})\s?[日号]`, true, "月")
	reENDate   = rx(`\b(`+alternation(vocab.monthWords())+`)[a-z]*\.?\s?(\d{1,2})(?:st|nd|rd|th)?\b|\b(\d{1,2})(?:st|nd|rd|th)?\s(`+alternation(vocab.monthWords())+`)[a-z]*\b`, true, vocab.monthWords()...)
	reDaysAgo  = rx(`(\d+)\s?(?:天前|days? ago)`, true, "天前", "ago")
	reWeekday  = rx(`(上上|上|这|本|下)?\s?(?:周|星期|礼拜)(`+wordClass(vocab.zhWeekdays)+`)`, false, "周", "星期", "礼拜")
	reENWeek   = rx(`\b(last|this|on)?\s?(`+alternation(vocab.enWeekdays)+`)\b`, false, vocab.enWeekdays...)
	reRelDay   = rx(alternation(vocab.daysBackWords()), false, vocab.daysBackWords()...)
)

// day is a calendar date without a clock.
type day struct{ y, m, d int }

func (d day) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.y, d.m, d.d) }

func dayOf(t time.Time) day { y, m, d := t.Date(); return day{y, int(m), d} }

func (d day) valid() bool {
	if d.m < 1 || d.m > 12 || d.d < 1 || d.d > 31 {
		return false
	}
	t := time.Date(d.y, time.Month(d.m), d.d, 12, 0, 0, 0, time.UTC)
	return t.Day() == d.d
}

func (d day) time() time.Time { return time.Date(d.y, time.Month(d.m), d.d, 12, 0, 0, 0, time.UTC) }

// dates reads the first date in t.
func (x extractor) dates(t *text, f *features, now time.Time) {
	if f.s.Date != "" {
		return
	}
	set := func(d day, what string) bool {
		if !d.valid() {
			f.problem("date", fmt.Sprintf("%q is not a date", what), fmt.Sprintf("%q 不是有效日期", what), "2026-11-03, nov 3, yesterday", "2026-11-03, 11月3日, 昨天")
			return true
		}
		if !now.IsZero() && d.time().After(dayOf(now).time()) {
			f.future = d // a deadline, or a ledger entry's impossible date: finish knows which
			return true
		}
		f.s.Date = d.String()
		return true
	}
	relative := func(what string, d func(today time.Time) time.Time) bool {
		if now.IsZero() {
			f.note(fmt.Sprintf("%q needs today's date; no date set", what))
			return true
		}
		return set(dayOf(d(now)), what)
	}
	t.first(reISODate, 2, func(m []string, at int) bool {
		y, _ := strconv.Atoi(m[2])
		mo, _ := strconv.Atoi(m[3])
		d, _ := strconv.Atoi(m[4])
		return set(day{y, mo, d}, strings.TrimSpace(m[0]))
	})
	if f.s.Date != "" || len(f.probs) > 0 && f.probs[len(f.probs)-1].Field == "date" {
		return
	}
	monthDay := func(mo, d int, what string) bool {
		if now.IsZero() {
			f.note(fmt.Sprintf("%q needs today's date for its year; no date set", what))
			return true
		}
		// the most recent such day: entries are for the past
		y := now.Year()
		if (day{y, mo, d}).time().After(dayOf(now).time()) {
			y--
		}
		return set(day{y, mo, d}, what)
	}
	t.first(reMonthDay, 2, func(m []string, at int) bool {
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		return monthDay(mo, d, strings.TrimSpace(m[0]))
	})
	if f.s.Date == "" && t.may(reENDate) {
		t.first(reENDate, 0, func(m []string, at int) bool {
			name, num := m[1], m[2]
			if name == "" {
				name, num = m[4], m[3]
			}
			mo := vocab.months[name]
			if mo == 5 && num == "" || mo == 3 && !strings.Contains(t.s, "spend") && !strings.Contains(t.s, "log") {
				return false // "may", "mar(ch)" are too often other words
			}
			d, _ := strconv.Atoi(num)
			return monthDay(mo, d, m[0])
		})
	}
	t.first(reDaysAgo, 1, func(m []string, at int) bool {
		n, _ := strconv.Atoi(m[1])
		return relative(m[0], func(now time.Time) time.Time { return now.AddDate(0, 0, -n) })
	})
	if !t.may(reRelDay) {
		// no word for a day counted back
	} else if loc := reRelDay.FindStringIndex(t.s); loc != nil && f.s.Date == "" {
		w := t.s[loc[0]:loc[1]]
		back := vocab.daysBack[w]
		relative(w, func(now time.Time) time.Time { return now.AddDate(0, 0, -back) })
		t.blank(loc[0], loc[1])
	}
	t.first(reWeekday, 0, func(m []string, at int) bool {
		if strings.HasSuffix(strings.TrimRight(t.s[:at], " "), "每") {
			return false // "每周一" is every Monday, not a date
		}
		wd := vocab.weekdays[m[2]]
		return relative(m[0], func(now time.Time) time.Time { return weekday(now, wd, m[1]) })
	})
	t.first(reENWeek, 0, func(m []string, at int) bool {
		wd := vocab.weekdays[m[2]]
		if m[1] == "" && len(m[2]) <= 3 && m[2] != "wed" && m[2] != "fri" {
			return false // "sun", "sat", "mon" alone are too often other words
		}
		return relative(strings.TrimSpace(m[0]), func(now time.Time) time.Time {
			if m[1] == "last" {
				return lastWeekday(now.AddDate(0, 0, -1), wd)
			}
			return lastWeekday(now, wd)
		})
	})
}

// weekday resolves 周三 (the most recent Wednesday, today included), 上周三
// (Wednesday of last week; weeks start on Monday), 上上周三, 本周三/这周三.
func weekday(now time.Time, wd time.Weekday, which string) time.Time {
	// Monday of this week
	off := (int(now.Weekday()) + 6) % 7
	monday := now.AddDate(0, 0, -off)
	idx := (int(wd) + 6) % 7
	switch which {
	case "上":
		return monday.AddDate(0, 0, idx-7)
	case "上上":
		return monday.AddDate(0, 0, idx-14)
	case "下":
		return monday.AddDate(0, 0, idx+7)
	case "这", "本":
		return monday.AddDate(0, 0, idx)
	}
	return lastWeekday(now, wd)
}

// lastWeekday is the most recent wd on or before now.
func lastWeekday(now time.Time, wd time.Weekday) time.Time {
	back := (int(now.Weekday()) - int(wd) + 7) % 7
	return now.AddDate(0, 0, -back)
}

// readDate reads the value of date=… with the same rules.
func (x extractor) readDate(val string, now time.Time) (string, *Problem) {
	var f features
	t := &text{s: arabize(strings.ToLower(val)), digits: strings.ContainsAny(val, "0123456789")}
	x.dates(t, &f, now)
	if len(f.probs) > 0 {
		return "", &f.probs[0]
	}
	if f.future != (day{}) { // date= is only ever a ledger entry's
		return "", &Problem{Field: "date", Reason: fmt.Sprintf("%s is in the future; the ledger books what was already spent", f.future), Hint: "yesterday, nov 3, date=2026-11-03",
			zh: fmt.Sprintf("%s 还没到；账本只记已经发生的花费", f.future), hintZH: "昨天, 11月3日, date=2026-11-03"}
	}
	if f.s.Date == "" {
		return "", &Problem{Field: "date", Reason: fmt.Sprintf("cannot read date=%s", val), Hint: "date=2026-11-03, date=yesterday", zh: fmt.Sprintf("看不懂 date=%s", val), hintZH: "date=2026-11-03, date=昨天"}
	}
	return f.s.Date, nil
}
