package budget

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// TestLastMonthsBudgetInWords: "上个月超预算了吗" on 2026-12-05 is checked
// against November as it closed, verdict first. By hand: November holds
// ¥26,000 + ¥1,000 = ¥27,000 against ¥25,000 a month → 108 %, over;
// December holds ¥1,000 → 4 %, within.
func TestLastMonthsBudgetInWords(t *testing.T) {
	ctx := context.Background()
	loc := ledger.Shanghai
	b, l := wordsBot(t)
	for _, e := range []ledger.Entry{
		{Team: "T1", User: "U1", GPU: "h800", Cards: 8, Hours: 100, Platform: "aliyun", Amount: cny(26000), At: time.Date(2026, 11, 10, 9, 0, 0, 0, loc), Confirm: true},
		{Team: "T1", User: "U1", GPU: "4090", Cards: 1, Hours: 500, Platform: "autodl", Amount: cny(1000), At: time.Date(2026, 11, 20, 9, 0, 0, 0, loc), Confirm: true},
		{Team: "T1", User: "U1", GPU: "4090", Cards: 1, Hours: 500, Platform: "autodl", Amount: cny(1000), At: time.Date(2026, 12, 2, 9, 0, 0, 0, loc), Confirm: true},
	} {
		if _, err := l.Add(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	ask := func(text string) bot.Answer {
		return b.Answer(ctx, bot.Message{Text: text, Team: "T1", Channel: "C1", User: "U1"})
	}
	ask("/gpu budget set ¥25000/month")
	a := ask("上个月超预算了吗")
	if !strings.HasPrefix(a.Text, "超了：2026-11 花了 ¥27,000.00，预算 ¥25,000.00（108%）") {
		t.Errorf("last month: %q", a.Text)
	}
	if a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "yes" {
		t.Errorf("last month typed %+v, want yes (over)", a.Typed)
	}
	if a.Used["month"] == "" {
		t.Errorf("month not used: used %v ignored %v", a.Used, a.Ignored)
	}
	a = ask("are we over budget this month?")
	if !strings.HasPrefix(a.Text, "Within budget: ¥1,000.00 spent of ¥25,000.00 for 2026-12 (4%)") {
		t.Errorf("this month: %q", a.Text)
	}
}

// TestBudgetChangesInWords: a budget set or changed in a sentence sets the
// amount written after the change (not the old one, not the alert's
// percent), for the team or project named, over the period named.
func TestBudgetChangesInWords(t *testing.T) {
	ctx := context.Background()
	b, _ := wordsBot(t)
	for _, c := range []struct{ text, want string }{
		{"NLP组的月预算从3万提到4.5万，告警阈值设成90%。", "预算已设置：团队 nlp，每月 ¥45,000.00。达到 90% "},
		{"set a budget of $15k for rag-sg, alert me at 80%", "Budget set: rag-sg, $15,000.00 a month. Alerts at 80 %"},
		{"Please cap copilot at $8k/month on GPU rental, it keeps creeping up.", "Budget set: copilot, $8,000.00 a month."},
		{"kb-qa budget: make it ¥200k for the year.", "Budget set: kb-qa, ¥200,000.00 a year."},
		{"doc-ai 预算下调到每季度9万", "预算已设置：项目 doc-ai，每季度 ¥90,000.00。"},
		{"Set the Q1 budget for the vision team at ¥360,000", "Budget set: team vision, ¥360,000.00 a quarter."},
		// the amount stated after the clause the verb opens, for the group named
		{"预算周期改成按季度：推理组一个季度15万。", "预算已设置：团队 推理组，每季度 ¥150,000.00。"},
	} {
		a := b.Answer(ctx, bot.Message{Text: c.text, Team: "T1", Channel: "C1", User: "U1"})
		if a.Intent != parse.Budget || !strings.HasPrefix(a.Text, c.want) {
			t.Errorf("%s\n got %s: %q\nwant %q…", c.text, a.Intent, a.Text, c.want)
		}
	}
	// the command in Chinese: /gpu 预算 设置 …, answered in Chinese
	if a := b.Answer(ctx, bot.Message{Text: "/gpu 预算 设置 ¥20000/月", Team: "T2", Channel: "C1", User: "U1", Slash: true}); !strings.HasPrefix(a.Text, "预算已设置：整个团队，每月 ¥20,000.00") {
		t.Errorf("/gpu 预算 设置: %q", a.Text)
	}
	// the cap was not booked as an $8,000 spend entry
	r := b.Answer(ctx, bot.Message{Text: "/gpu spend report", Team: "T1", Channel: "C1", User: "U1"})
	if rep, ok := r.Result.(*ledger.Report); !ok || rep.Total.Entries != 0 {
		t.Errorf("entries booked by budget sentences: %s", r.Text)
	}
}

// wordsBot is a bot asked in words on 2026-12-05 10:00 Shanghai, with the
// budget and spend handlers on one miniredis ledger.
func wordsBot(t *testing.T) (*bot.Bot, *ledger.Ledger) {
	t.Helper()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	now := func() time.Time { return time.Date(2026, 12, 5, 10, 0, 0, 0, ledger.Shanghai) }
	kb := knowledge.MustShipped()
	l := ledger.New(&store.Store{Redis: rdb}, ledger.Options{Location: ledger.Shanghai, KB: kb, Now: now})
	b := bot.New(bot.Config{FX: 7.2}, kb, nil)
	b.SetClock(now)
	b.Route(parse.Budget, NewHandler(NewAlerts(NewStore(rdb, nil), l, nil, 7.2), nil, now))
	b.Route(parse.Spend, bot.NewSpend(l, nil, 7.2, now))
	return b, l
}

// TestBudgetStatedInTheQuestion: a budget the question states is the
// figure checked, and the typed slots carry it. By hand: ¥12,000 less the
// ¥5,000 booked in December leaves ¥7,000; ¥300,000 for the quarter less
// the same ¥5,000 leaves ¥295,000.
func TestBudgetStatedInTheQuestion(t *testing.T) {
	ctx := context.Background()
	b, l := wordsBot(t)
	if _, err := l.Add(ctx, ledger.Entry{Team: "T1", User: "U1", GPU: "4090", Cards: 1, Hours: 100, Platform: "autodl", Amount: cny(5000),
		At: time.Date(2026, 12, 2, 9, 0, 0, 0, ledger.Shanghai), Confirm: true}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text, want string
		budget     float64
	}{
		{"How much headroom is left for December? I think the cap is ¥12,000/month.", "¥7,000.00 left", 12000},
		{"这个季度预算30万，现在花到哪了？照这个速度季度末会不会超？", "还剩 ¥295,000.00", 300000},
	} {
		a := b.Answer(ctx, bot.Message{Text: c.text, Team: "T1", Channel: "C1", User: "U1"})
		if !strings.Contains(a.Text, c.want) {
			t.Errorf("%s\n got %q, want %q in it", c.text, a.Text, c.want)
		}
		if a.Slots.Budget == nil || a.Slots.Budget.Amount != c.budget {
			t.Errorf("%s: budget slot %+v, want %v", c.text, a.Slots.Budget, c.budget)
		}
	}
}

// TestWhereTheBudgetLands: "照这个速度，这个月会花到多少？会不会超？" leads
// with the month's projection: what is spent plus the run rate (the last
// 7 days' spend a day) over the days left. By hand, 2026-12-05 10:00
// Shanghai: ¥20,000 spent, ¥20,000 ÷ 7 a day × 26.5833 days left =
// ¥75,952.38, so ¥95,952.38 — under the ¥100,000 budget: no.
func TestWhereTheBudgetLands(t *testing.T) {
	ctx := context.Background()
	b, l := wordsBot(t)
	if _, err := l.Add(ctx, ledger.Entry{Team: "T1", User: "U1", GPU: "h800", Cards: 8, Hours: 10, Platform: "aliyun", Amount: cny(20000),
		At: time.Date(2026, 12, 2, 9, 0, 0, 0, ledger.Shanghai), Confirm: true}); err != nil {
		t.Fatal(err)
	}
	b.Answer(ctx, bot.Message{Text: "/gpu budget set ¥100000/month", Team: "T1", Channel: "C1", User: "U1"})
	a := b.Answer(ctx, bot.Message{Text: "照这个速度，这个月预算会花到多少？会不会超？", Team: "T1", Channel: "C1", User: "U1"})
	want := 20000 + 20000.0/7*(26+14.0/24)
	if a.Typed == nil || a.Typed.Asked != "money_total" || a.Typed.Value == nil || math.Abs(*a.Typed.Value-want) > 0.01 {
		t.Fatalf("typed %+v (%s), want the projected ¥%.2f first", a.Typed, a.Text, want)
	}
	if a.Typed.Verdict == nil || *a.Typed.Verdict != "no" {
		t.Errorf("verdict %v: ¥%.2f projected is under ¥100,000, so 会不会超 is no", a.Typed.Verdict, want)
	}
}

// TestSpentStatedInTheQuestion: what the question says is spent is the
// figure checked, not the ledger's, and nothing is booked. By hand:
// ¥320,000 of ¥300,000 is 106.67 %, ¥20,000 over; ¥9,000 of the $12,000 cap
// at 7.2 CNY per USD is $1,250 (10.42 %), $10,750 left.
func TestSpentStatedInTheQuestion(t *testing.T) {
	ctx := context.Background()
	b, l := wordsBot(t)
	for _, c := range []struct{ text, want string }{
		{"这个季度预算30万，已经花了32万，超了没有？", "已经超了：按你给的数，2026-Q4 的 ¥300,000.00 已花 ¥320,000.00，占 106.67%，超出 ¥20,000.00。"},
		{"the cap is $12,000, we spent ¥9,000 this month, are we over?", "Not over: by your figures, $1,250.00 spent of the $12,000.00 for 2026-12, 10.42%; $10,750.00 left."},
	} {
		a := b.Answer(ctx, bot.Message{Text: c.text, Team: "T1", Channel: "C1", User: "U1"})
		if !strings.HasPrefix(a.Text, c.want) {
			t.Errorf("%s\n got %q\nwant %q…", c.text, a.Text, c.want)
		}
	}
	es, err := l.Between(ctx, "T1", time.Date(2026, 1, 1, 0, 0, 0, 0, ledger.Shanghai), time.Date(2027, 1, 1, 0, 0, 0, 0, ledger.Shanghai))
	if err != nil || len(es) != 0 {
		t.Errorf("the questions booked %d entries (err %v); a budget question books nothing", len(es), err)
	}
}
