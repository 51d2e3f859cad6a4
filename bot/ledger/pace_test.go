package ledger

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProjectPace: each row's figures worked by hand (minor units, cents
// or fen).
func TestProjectPace(t *testing.T) {
	for _, c := range []struct {
		name             string
		budget, spent    Money
		elapsed, total   float64
		unit             string
		projected, gap   Money
		over             bool
		runRate, allowed Money
		how              string
	}{
		{
			// $47,000 × 90 ÷ 31 = $136,451.6129 → $136,451.61; − $120,000 =
			// $16,451.61 over; $47,000 ÷ 31 = $1,516.129 → $1,516.13 a day; to
			// land on budget, ($120,000 − $47,000) ÷ 59 days = $1,237.288 → $1,237.29
			name: "Q1 $47k of $120k through Jan 31 is over", budget: usd(12_000_000), spent: usd(4_700_000), elapsed: 31, total: 90, unit: PaceDays,
			projected: usd(13_645_161), gap: usd(1_645_161), over: true, runRate: usd(151_613), allowed: usd(123_729),
			how: "$47,000.00 in 31 of 90 days → $47,000.00 × 90 ÷ 31 = $136,451.61 ($1,516.13 a day); $136,451.61 − $120,000.00 = $16,451.61 over",
		},
		{
			// 312,000 × 12 ÷ 9 = 416,000; − 400,000 = 16,000 over; 312,000 ÷ 9 =
			// 34,666.67 a month; (400,000 − 312,000) ÷ 3 = 29,333.33 a month allowed
			name: "312k of 400k by end of September is over", budget: usd(40_000_000), spent: usd(31_200_000), elapsed: 9, total: 12, unit: PaceMonths,
			projected: usd(41_600_000), gap: usd(1_600_000), over: true, runRate: usd(3_466_667), allowed: usd(2_933_333),
		},
		{
			// 61,000 ÷ (2/3) = 61,000 × 3 ÷ 2 = 91,500; − 80,000 = 11,500 over
			name: "two thirds through, 61k of 80k is over", budget: usd(8_000_000), spent: usd(6_100_000), elapsed: 2, total: 3, unit: PaceShare,
			projected: usd(9_150_000), gap: usd(1_150_000), over: true,
			how: "$61,000.00 ÷ 2/3 of the period = $91,500.00; $91,500.00 − $80,000.00 = $11,500.00 over",
		},
		{
			// 9,200 × 31 ÷ 10 = 28,520; − 15,000 = 13,520 over; 920 a day
			name: "December, three weeks left, 9.2k of 15k is over", budget: usd(1_500_000), spent: usd(920_000), elapsed: 10, total: 31, unit: PaceDays,
			projected: usd(2_852_000), gap: usd(1_352_000), over: true, runRate: usd(92_000), allowed: usd(27_619),
		},
		{
			// ¥30,000 × 30 ÷ 20 = ¥45,000; ¥50,000 − ¥45,000 = ¥5,000 under;
			// ¥1,500 a day; (50,000 − 30,000) ÷ 10 = ¥2,000 a day allowed
			name: "¥30k of ¥50k in 20 of 30 days is under", budget: cny(5_000_000), spent: cny(3_000_000), elapsed: 20, total: 30, unit: PaceDays,
			projected: cny(4_500_000), gap: cny(-500_000), runRate: cny(150_000), allowed: cny(200_000),
			how: "¥30,000.00 in 20 of 30 days → ¥30,000.00 × 30 ÷ 20 = ¥45,000.00 (¥1,500.00 a day); ¥50,000.00 − ¥45,000.00 = ¥5,000.00 under",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := ProjectPace(c.budget, c.spent, c.elapsed, c.total, c.unit)
			if err != nil {
				t.Fatal(err)
			}
			got := []any{p.Projected, p.Gap, p.Over, p.RunRate, p.Allowed}
			want := []any{c.projected, c.gap, c.over, c.runRate, c.allowed}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("ProjectPace(%s, %s, %v/%v %s) projected, gap, over, rate, allowed (-want +got):\n%s", c.budget, c.spent, c.elapsed, c.total, c.unit, d)
			}
			if c.how != "" && p.How != c.how {
				t.Errorf("How = %q\nwant %q", p.How, c.how)
			}
		})
	}
}

func TestProjectPaceRefuses(t *testing.T) {
	for _, c := range []struct {
		name           string
		budget, spent  Money
		elapsed, total float64
	}{
		{"no time gone", usd(100), usd(50), 0, 30},
		{"more time gone than the period", usd(100), usd(50), 31, 30},
		{"two currencies", usd(100), cny(50), 10, 30},
		{"no budget", usd(0), usd(50), 10, 30},
	} {
		if _, err := ProjectPace(c.budget, c.spent, c.elapsed, c.total, PaceDays); err == nil {
			t.Errorf("%s: ProjectPace gave no error", c.name)
		}
	}
}
