package bot_test

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/ledger"
)

// TestReportOfAProjectNamedBare (review Q51): "星火本月花了多少" names a
// project the ledger holds without the word 项目: the report is that
// project's. By hand: 星火 ¥2,000 (booked '给项目"星火"…' as ¥12,000, then
// corrected to ¥2,000) and another project's ¥500 → 星火 alone is ¥2,000.00.
func TestReportOfAProjectNamedBare(t *testing.T) {
	b, _ := paceBot(t)
	askPace(t, b, `给项目"星火"记一笔支出 1.2万元 A800租赁`)
	askPace(t, b, "不对，是2000元")
	askPace(t, b, "/gpu spend add a800 ¥500 project=other confirm")
	a := askPace(t, b, "星火本月花了多少")
	r, ok := a.Result.(*ledger.Report)
	if !ok || r.Total.Amount.String() != "¥2,000.00" || !strings.Contains(a.Text, "星火") {
		t.Fatalf("星火本月花了多少: %q; want 星火's ¥2,000.00 only", a.Text)
	}
}

// TestRecapEarlyInTheMonth (review Q57): "month-end recap for all
// projects" on 2 December, no month named, is November's — the month just
// ended — and says so first. November holds Atlas's $4,200; December none.
func TestRecapEarlyInTheMonth(t *testing.T) {
	b, _ := paceBot(t)
	askPace(t, b, "/gpu spend add h100 $4200 project=atlas date=2026-11-20 confirm")
	a := askPace(t, b, "month-end recap for all projects")
	r, ok := a.Result.(*ledger.Report)
	if !ok || r.Total.Amount.String() != "$4,200.00" || !strings.HasPrefix(a.Text, "Recap of 2026-11") {
		t.Fatalf("recap: %q; want November's $4,200.00, said first", a.Text)
	}
}
