package bot

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/ledger"
)

// TestSpendAddEntryForms: a space-grouped amount is read whole, a team is
// kept on the entry, an invoice without hours is booked with its hours
// marked unknown, and a dated entry is dated to the day (midnight), not
// stamped 12:00.
func TestSpendAddEntryForms(t *testing.T) {
	b, _ := spendBot(t)
	for _, c := range []struct {
		text  string
		check func(e ledger.Entry) string
	}{
		// ¥1 000 is a thousand yuan (100000 fen), not ¥1.00: 500 h on a
		// 4090 at ¥2.00 per card-hour.
		{"/gpu spend add 500h 4090 @autodl ¥1 000", func(e ledger.Entry) string {
			if e.Amount.Minor != 100000 {
				return "amount " + e.Amount.String() + ", want ¥1,000.00"
			}
			return ""
		}},
		{"/gpu spend add 40h 4090 @autodl ¥75 team=vision", func(e ledger.Entry) string {
			if e.CostCenter != "vision" {
				return "team " + e.CostCenter + ", want vision"
			}
			return ""
		}},
		{"/gpu spend add invoice ¥1800 a100 @autodl", func(e ledger.Entry) string {
			if !e.HoursUnknown || e.Hours != 0 || e.Amount.Minor != 180000 {
				return "want ¥1,800.00 with hours unknown"
			}
			return ""
		}},
		{"/gpu spend add 10h 4090 @autodl ¥20 date=2026-10-19", func(e ledger.Entry) string {
			if e.At.Format("2006-01-02 15:04") != "2026-10-19 00:00" {
				return "dated " + e.At.Format("2006-01-02 15:04") + ", want 2026-10-19 00:00"
			}
			return ""
		}},
	} {
		a := say(b, "U1", c.text)
		e, ok := a.Result.(ledger.Entry)
		if a.Err != "" || !ok {
			t.Errorf("%s: not saved: %q", c.text, a.Text)
			continue
		}
		if msg := c.check(e); msg != "" {
			t.Errorf("%s: %s (%s)", c.text, msg, a.Text)
		}
	}
	if a := say(b, "U1", "/gpu spend add invoice ¥1800 a100 @autodl"); !strings.Contains(a.Text, "hours unknown") {
		t.Errorf("the reply does not say the hours are unknown: %q", a.Text)
	}
}
