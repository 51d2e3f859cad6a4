package bot

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/ledger"
)

// TestSpendQuarterAndPlatforms (#24 items 2 and 6): a quarter report adds
// up its three months against the quarter before, month by month; a
// question over two platforms names their total and the larger one.
//
// Q3 2026 (clock 2026-10-20): 08-03 4090 40 h autodl ¥75; 09-03 H100 10 h
// volcengine ¥300; 09-13 4090 100 h autodl ¥190; Q2: 06-10 4090 10 h autodl ¥20.
// Q3 = 75 + 300 + 190 = ¥565.00, 150 card-hours; vs Q2 ¥20.00: +¥545.00.
// July 0 (June ¥20: −¥20.00), August ¥75.00 (+75), September ¥490.00 (+415).
// By platform: volcengine ¥300.00 = 53 % of ¥565 (300 ÷ 565 = 0.531), autodl ¥265.00.
func TestSpendQuarterAndPlatforms(t *testing.T) {
	b, _ := spendBot(t)
	for _, text := range []string{
		"/gpu spend add 40h 4090 @autodl ¥75 date=2026-08-03",
		"/gpu spend add 10h h100 @火山引擎 ¥300 date=2026-09-03",
		"/gpu spend add 100h 4090 @autodl ¥190 date=2026-09-13",
		"/gpu spend add 10h 4090 @autodl ¥20 date=2026-06-10",
	} {
		if a := say(b, "U1", text); a.Err != "" {
			t.Fatalf("%s: %s", text, a.Text)
		}
	}
	for _, text := range []string{"/gpu spend report 2026-Q3", "三季度花了多少"} {
		a := say(b, "U1", text)
		r, ok := a.Result.(*ledger.Report)
		if !ok {
			t.Fatalf("%s: %T %q", text, a.Result, a.Text)
		}
		if r.Label() != "2026-Q3" || r.Total.Amount.String() != "¥565.00" || r.Total.CardHours != 150 || r.Prev.Amount.String() != "¥20.00" || r.PrevLabel() != "2026-Q2" {
			t.Errorf("%s: %s %s %v h, prev %s %s", text, r.Label(), r.Total.Amount, r.Total.CardHours, r.PrevLabel(), r.Prev.Amount)
		}
		var months []string
		for _, g := range r.ByMonth {
			months = append(months, g.Key+" "+g.Amount.String()+" "+g.Change().String())
		}
		if got := strings.Join(months, "; "); got != "2026-07 0 -¥20.00; 2026-08 ¥75.00 ¥75.00; 2026-09 ¥490.00 ¥415.00" {
			t.Errorf("%s: by month %s", text, got)
		}
	}
	a := say(b, "U1", "三季度在火山引擎和AutoDL上一共花了多少？哪家占大头？")
	if head, _, _ := strings.Cut(a.Text, "\n"); !strings.HasPrefix(head, "2026-Q3 在 火山引擎、AutoDL") || !strings.Contains(head, "一共花了 ¥565.00；火山引擎 占大头：¥300.00（53%）") {
		t.Errorf("platforms: %q", head)
	}
}
