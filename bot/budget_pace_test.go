package bot_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/budget"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// paceBot is the bot as cmd/bot wires it — spend and budgets on one
// ledger, a stated budget naming the stored one — asked on 2026-12-02
// 09:00 Shanghai.
func paceBot(t *testing.T) (*bot.Bot, *ledger.Ledger) {
	t.Helper()
	st, err := store.OpenEmbedded(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := func() time.Time { return time.Date(2026, 12, 2, 9, 0, 0, 0, ledger.Shanghai) }
	kb := knowledge.MustShipped()
	l := ledger.New(st, ledger.Options{KB: kb, Now: now, Location: ledger.Shanghai})
	b := bot.New(bot.Config{FX: 7.2}, kb, nil)
	b.SetClock(now)
	alerts := budget.NewAlerts(budget.NewStore(st.Redis, nil), l, nil, 7.2)
	sp := bot.NewSpend(l, nil, 7.2, now)
	sp.UseStoredBudget(alerts.StoredFunc()) // as cmd/bot wires it
	b.Route(parse.Spend, sp)
	b.Route(parse.Budget, budget.NewHandler(alerts, nil, now))
	return b, l
}

func askPace(t *testing.T, b *bot.Bot, text string) bot.Answer {
	t.Helper()
	return b.Answer(context.Background(), bot.Message{Text: text, Team: "T1", Channel: "C1", User: "U1"})
}

// TestPaceFromStatedFigures: a budget, what is spent and how far into the
// period, projected at the same pace from the asker's own figures. By hand:
//
//   - Q1 is Jan 1–Mar 31, 31 + 28 + 31 = 90 days; through Jan 31 is 31 of
//     them: $47,000 × 90 ÷ 31 = $136,451.61, − $120,000 = $16,451.61 over;
//     "on track?" → no.
//   - 9 of 12 months by the end of September: 312,000 × 12 ÷ 9 = $416,000,
//     $16,000 over the $400,000; "over pace?" → yes.
//   - two thirds through: $61,000 ÷ 2/3 = $91,500, $11,500 over $80,000;
//     "on track?" → no.
//   - December has 31 days; three weeks (21 days) left → 10 gone:
//     $9,200 × 31 ÷ 10 = $28,520, $13,520 over $15,000; "够不够" → no.
//   - no time said: today, Dec 2, is day 2 of 31: $3,000 × 31 ÷ 2 =
//     $46,500, $3,500 under $50,000; "on track?" → yes.
//   - 还剩10天 of December's 31 → 21 gone: ¥15,000 × 31 ÷ 21 = ¥22,142.857
//     → ¥22,142.86, ¥2,142.86 over ¥20,000; "月底会不会超" → yes (the
//     "还剩" is the time left, not "what is left?").
//   - halfway through the year: $600,000 ÷ 1/2 = $1,200,000, $200,000 over
//     $1,000,000; "On track?" → no ("annual" is no project).
//   - 过了10天 of December's 31: ¥20,000 × 31 ÷ 10 = ¥62,000, ¥38,000 under
//     ¥100,000; "会不会超" → no.
func TestPaceFromStatedFigures(t *testing.T) {
	for _, c := range []struct {
		text            string
		projected, left float64 // left: budget − projected
		verdict         string
		want            []string
	}{
		{"Atlas has $120k for Q1; spent $47k through Jan 31 — on track, what is the run-rate?", 136451.61, -16451.61, "no",
			[]string{"Over pace, not on track: at this pace $136,451.61 for 2026-Q1, $16,451.61 over the $120,000.00 budget.",
				"31 of 90 days gone", "$1,516.13 a day", "How: $47,000.00 in 31 of 90 days → $47,000.00 × 90 ÷ 31 = $136,451.61"}},
		{"Team ML spent 312k of 400k annual by end Sept — over pace? projected?", 416000, -16000, "yes",
			[]string{"Over pace, not on track: at this pace $416,000.00 for 2026, $16,000.00 over the $400,000.00 budget.", "9 of 12 months gone",
				"How: $312,000.00 in 9 of 12 months → $312,000.00 × 12 ÷ 9 = $416,000.00"}},
		{"We're two thirds through Q4 and search has burned $61k of its $80k. On track, or are they going to blow it?", 91500, -11500, "no",
			[]string{"Over pace, not on track: at this pace $91,500.00 for 2026-Q4, $11,500.00 over", "How: $61,000.00 ÷ 2/3 of the period = $91,500.00; $91,500.00 − $80,000.00 = $11,500.00 over"}},
		{"rag-sg 12月预算 $15k，已经花了 $9.2k，还剩三周，照现在的速度够不够？", 28520, -13520, "no",
			[]string{"不够，照这个速度会超：照这个速度 rag-sg 2026-12 全期 $28,520.00，超出 $13,520.00（预算 $15,000.00）。", "31天 已过 10天",
				"算法：$9,200.00 × 31天 ÷ 10天 = $28,520.00"}},
		{"This month's budget is $50k and we've spent $3k — on track?", 46500, 3500, "yes",
			[]string{"On track: at this pace $46,500.00 for 2026-12, $3,500.00 under the $50,000.00 budget.", "2 of 31 days gone (through today, 2026-12-02)"}},
		{"月预算2万，已经花了1.5万，还剩10天，月底会不会超？", 22142.86, -2142.86, "yes",
			[]string{"照这个速度会超：照这个速度 2026-12 全期 ¥22,142.86，超出 ¥2,142.86（预算 ¥20,000.00）。", "31天 已过 21天（2026-12 还剩 10天）"}},
		{"We are halfway through the year and have used $600k of our $1M annual budget. On track?", 1200000, -200000, "no",
			[]string{"Over pace, not on track: at this pace $1,200,000.00 for 2026, $200,000.00 over the $1,000,000.00 budget."}},
		{"本月预算10万，已经花了2万，过了10天，照这个速度会不会超？", 62000, 38000, "no",
			[]string{"照这个速度不会超：照这个速度 2026-12 全期 ¥62,000.00，低于预算 ¥38,000.00（预算 ¥100,000.00）。"}},
	} {
		b, l := paceBot(t)
		a := askPace(t, b, c.text)
		if _, ok := a.Result.(ledger.Pace); !ok {
			t.Errorf("%s\nresult %T (%s), want a pace", c.text, a.Result, a.Text)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(a.Text, w) {
				t.Errorf("%s\n got %q\nwant %q in it", c.text, a.Text, w)
			}
		}
		ty := a.Typed
		if ty == nil || ty.Asked != "money_total" || ty.Value == nil || math.Abs(*ty.Value-c.projected) > 0.005 {
			t.Fatalf("%s: typed %+v, want money_total %.2f first", c.text, ty, c.projected)
		}
		if ty.Verdict == nil || *ty.Verdict != c.verdict {
			t.Errorf("%s: verdict %v, want %s", c.text, ty.Verdict, c.verdict)
		}
		if len(ty.Also) == 0 || ty.Also[0].Asked != "budget" || math.Abs(*ty.Also[0].Value-c.left) > 0.005 {
			t.Errorf("%s: also %+v, want budget left at this pace %.2f", c.text, ty.Also, c.left)
		}
		if a.Used["budget"] == "" || a.Used["amount"] == "" || len(a.Ignored) > 0 {
			t.Errorf("%s: used %v ignored %v, want the budget and the spend used and nothing ignored", c.text, a.Used, a.Ignored)
		}
		es, err := l.Between(context.Background(), "T1", time.Date(2025, 1, 1, 0, 0, 0, 0, ledger.Shanghai), time.Date(2028, 1, 1, 0, 0, 0, 0, ledger.Shanghai))
		if err != nil || len(es) != 0 {
			t.Errorf("%s: booked %d entries (err %v); a question books nothing", c.text, len(es), err)
		}
	}
}

// TestBudgetSetWithStatedSpend: the budget is set and the spend stated
// is checked against it: $56,300 of $50,000 is 112.6 %, $6,300 over.
func TestBudgetSetWithStatedSpend(t *testing.T) {
	b, _ := paceBot(t)
	a := askPace(t, b, "Set atlas budget to $50k/mo; spent $56,300 — over?")
	if !strings.HasPrefix(a.Text, "Over budget: $56,300.00 spent of atlas's $50,000.00 a month (112.6%), over by $6,300.00.") ||
		!strings.Contains(a.Text, "Budget set: atlas, $50,000.00 a month.") {
		t.Errorf("text %q, want the check first, then the budget set", a.Text)
	}
	if a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "yes" || a.Typed.Value == nil || *a.Typed.Value != -6300 {
		t.Errorf("typed %+v, want over (yes) by 6,300", a.Typed)
	}
	if a.Slots.Amount == nil || a.Slots.Amount.Amount != 56300 || a.Used["amount"] == "" {
		t.Errorf("amount slot %+v used %q: the spend stated is read and used", a.Slots.Amount, a.Used["amount"])
	}
	shown := askPace(t, b, "/gpu budget")
	if !strings.Contains(shown.Text, "atlas: $0.00 / $50,000.00") {
		t.Errorf("/gpu budget after the set: %q, want atlas's $50,000.00", shown.Text)
	}
}

// TestBudgetStatusWithoutTheWordBudget: "这季度超了没？" and "Q4 budget vs
// actual for every project" are the budgets' status. A $90,000 quarterly
// budget for atlas with $20,000 booked on Dec 1: 20,000 ÷ 90,000 = 22 %,
// not over.
func TestBudgetStatusWithoutTheWordBudget(t *testing.T) {
	b, l := paceBot(t)
	if _, err := l.Add(context.Background(), ledger.Entry{Team: "T1", User: "U1", GPU: "h100-sxm", Cards: 8, Hours: 100, Platform: "lambda", Project: "atlas",
		Amount: ledger.Money{Minor: 2_000_000, Currency: knowledge.USD}, At: time.Date(2026, 12, 1, 9, 0, 0, 0, ledger.Shanghai), Confirm: true}); err != nil {
		t.Fatal(err)
	}
	askPace(t, b, "/gpu budget set atlas $90000/quarter")
	for _, text := range []string{"这季度超了没？", "Q4 budget vs actual for every project please, as a table."} {
		a := askPace(t, b, text)
		if _, ok := a.Result.(budget.States); !ok || a.Intent != parse.Budget {
			t.Errorf("%s: %s %T (%s), want the budgets' status", text, a.Intent, a.Result, a.Text)
			continue
		}
		if !strings.Contains(a.Text, "$20,000.00 / $90,000.00 (22%)") {
			t.Errorf("%s: %q, want atlas's $20,000.00 of $90,000.00", text, a.Text)
		}
		if a.Slots.Project != "" {
			t.Errorf("%s: project %q read from the question's words", text, a.Slots.Project)
		}
	}
	if a := askPace(t, b, "这季度超了没？"); a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "no" || !strings.HasPrefix(a.Text, "没超：2026-Q4 花了 $20,000.00") {
		t.Errorf("typed %+v text %q, want not over (no) first", a.Typed, a.Text)
	}
}
