package bot

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
)

// reToDateAsked is a spend question about everything booked so far: "how
// much has atlas spent so far?", "total to date", "atlas 到目前为止一共花了
// 多少", "累计花了多少". With no month, quarter or year said it means since
// the first entry; "这个月一共花了多少" stays this month.
var reToDateAsked = regexp.MustCompile(`(?i)\bso far\b|\bto date\b|\bin total\b|\ball[- ]time\b|\bsince (?:the )?(?:start|beginning)\b|\bever\b|\boverall\b|累计|累積|到目前为止|到现在为止|迄今|至今|一共|总共|总计|合计`)

// reYearSaid is a calendar year written out ("2026 so far"): a period, not
// all time.
var reYearSaid = regexp.MustCompile(`\b20\d\d\b|20\d\d\s*年`)

// toDateAsked reports whether a spend report asks for all time: a to-date
// word and no month, quarter or year.
func toDateAsked(req parse.Request, text string, periodSaid bool) bool {
	if periodSaid || req.Slots.Month != "" || req.MonthSaid != "" {
		return false
	}
	t := strings.ToLower(text)
	return reToDateAsked.MatchString(t) && !reYearSaid.MatchString(t)
}

// SpendToDate answers "how much so far": the whole span from the first
// entry to today, and the month report beside it.
type SpendToDate struct {
	ledger.ToDate
	Report *ledger.Report `json:"report"`
}

// renderToDate is the headline of a to-date answer: the span it covers
// (first entry → today), its total, and this month's share.
func renderToDate(lang string, d ledger.ToDate) string {
	if d.Total.Entries == 0 {
		return tr(lang, "Nothing is booked in the ledger yet, so nothing spent to date.", "账本里还没有记录，到目前为止没有支出。")
	}
	first, today := d.First.Format("2006-01-02"), d.Through.Format("2006-01-02")
	total, month := toDateAmount(d.Total), toDateAmount(d.ThisMonth)
	entries := "entries"
	if d.Total.Entries == 1 {
		entries = "entry"
	}
	return tr(lang,
		fmt.Sprintf("Spent to date (all time, %s → %s, from the first entry to today): %s, %s GPU-hours, %d %s. This month (%s): %s.",
			first, today, total, ledger.FormatCardHours(d.Total.CardHours), d.Total.Entries, entries, d.Month, month),
		fmt.Sprintf("到目前为止累计（全部记录，%s → %s，从第一笔到今天）：%s，%s 卡时，%d 条记录。本月（%s）：%s。",
			first, today, total, ledger.FormatCardHours(d.Total.CardHours), d.Total.Entries, d.Month, month))
}

// toDateAmount is a total as the report writes it: per currency, with the
// converted figure when more than one currency (or another) is in it.
func toDateAmount(t ledger.Totals) string {
	s := t.Amount.String()
	if t.Converted != nil && (len(t.Amount) > 1 || len(t.Amount) == 1 && t.Amount.Currencies()[0] != t.Converted.Currency) {
		s += " ≈ " + t.Converted.String()
	}
	return s
}
