package bot

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
)

// These guards catch the negative figures the parser's frames do not: it
// refuses "-30h", "¥-500" and "-500元" itself (a Problem, before any
// handler runs), but reads neither the sign in front of a currency mark
// ("-¥500", "-$60") nor U+2212 "−" (phones and pasted spreadsheets), and
// without them "-¥500" was booked as ¥500. They look for the marks only;
// reading the numbers stays the parser's job.
var (
	reNegHours = regexp.MustCompile(`(?i)(?:^|[\s=:：,，(（])−\s*\d[\d.,]*\s*(?:h\b|hr|hrs|hours?|小时|个小时|卡时)`)
	reNegMoney = regexp.MustCompile(`(?i)(?:[-−]\s*(?:[¥￥$]|rmb|cny|usd|us\$)\s*\d[\d.,]*)|(?:(?:[¥￥$]|rmb|cny|usd|us\$)\s*−\s*\d[\d.,]*)|(?:(?:^|[\s=:：])−\s*\d[\d.,]*\s*(?:元|块|美元|usd|cny|rmb)\b?)`)
)

// refundWords mark a refund: the parser has no refund action, so
// "spend refund ¥500" arrives as an add.
var refundWords = []string{"refund", "credit", "退款", "退费", "返还", "返现", "退回"}

func refundWord(text string) bool {
	t := strings.ToLower(text)
	for _, w := range refundWords {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

func confirmWord(text string) bool {
	t := strings.ToLower(text)
	return strings.Contains(t, "confirm") || strings.Contains(t, "确认")
}

// refuseNegative turns a negative figure into a refusal that names what
// was read and the accepted forms.
func refuseNegative(text, lang string) error {
	if m := reNegHours.FindString(text); m != "" {
		return &advisor.InputError{Field: "hours",
			Reason: tr(lang, fmt.Sprintf("read %q: hours cannot be negative; give how long the cards ran (30h)", strings.TrimSpace(m)),
				fmt.Sprintf("读到 %q：时长不能为负，请写显卡运行了多久（30h）", strings.TrimSpace(m))),
			Hint: tr(lang, "/gpu spend add 30h 4090 ¥75 — money back is /gpu spend refund ¥500", "/gpu spend add 30h 4090 ¥75；退款请用 /gpu spend refund ¥500")}
	}
	if m := reNegMoney.FindString(text); m != "" {
		return &advisor.InputError{Field: "amount",
			Reason: tr(lang, fmt.Sprintf("read %q: a spend amount cannot be negative", strings.TrimSpace(m)),
				fmt.Sprintf("读到 %q：花费金额不能为负", strings.TrimSpace(m))),
			Hint: tr(lang, "money back (a refund or credit) is its own entry: /gpu spend refund ¥500 project=pretrain", "退款或返还单独记一笔：/gpu spend refund ¥500 project=pretrain")}
	}
	return nil
}

// entryDate is the day an entry is for: Slots.Date (YYYY-MM-DD in the
// ledger's zone, midnight: dated to the day) when the parser read one — it reads date=, 昨天,
// 11月3日 and refuses impossible or future days itself — else now. A month
// with no day ("11月", "November invoice") is the entry's period: dated
// to its first day, said in the answer.
func (s *Spend) entryDate(sl parse.Slots, a *Answer) (time.Time, error) {
	loc := s.ledger.Location()
	if sl.Date != "" {
		d, err := time.ParseInLocation("2006-01-02", sl.Date, loc)
		if err != nil {
			return time.Time{}, &advisor.InputError{Field: "date", Reason: fmt.Sprintf("%q is not a date", sl.Date), Hint: "date=2026-11-03"}
		}
		return d, nil // dated to the day: midnight, so today's entry is in today's usage at once
	}
	if sl.Month != "" {
		// "RunPod invoice for November", "包月…算12月的": the month is the
		// entry's period. It is dated to the month's first day (today, when
		// it is this month), and the answer says so.
		now := s.now().In(loc)
		mo, err := ledger.ResolveMonth(sl.Month, now, loc)
		if err != nil {
			return time.Time{}, &advisor.InputError{Field: "date", Reason: err.Error(), Hint: spendHint + " date=2026-11-03"}
		}
		d := mo.Start(loc)
		if mo == ledger.MonthOf(now, loc) {
			d = time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
		}
		a.Assumed["date"] = d.Format("2006-01-02")
		a.use("month", "the entry's month (no day given: dated "+d.Format("2006-01-02")+"; change it with date=)")
		return d, nil
	}
	a.Assumed["date"] = s.now().In(loc).Format("2006-01-02")
	return time.Time{}, nil
}
