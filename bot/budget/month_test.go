package budget

import (
	"context"
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
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	loc := ledger.Shanghai
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, loc)
	kb := knowledge.MustShipped()
	l := ledger.New(&store.Store{Redis: rdb}, ledger.Options{Location: loc, KB: kb, Now: func() time.Time { return now }})
	for _, e := range []ledger.Entry{
		{Team: "T1", User: "U1", GPU: "h800", Cards: 8, Hours: 100, Platform: "aliyun", Amount: cny(26000), At: time.Date(2026, 11, 10, 9, 0, 0, 0, loc), Confirm: true},
		{Team: "T1", User: "U1", GPU: "4090", Cards: 1, Hours: 500, Platform: "autodl", Amount: cny(1000), At: time.Date(2026, 11, 20, 9, 0, 0, 0, loc), Confirm: true},
		{Team: "T1", User: "U1", GPU: "4090", Cards: 1, Hours: 500, Platform: "autodl", Amount: cny(1000), At: time.Date(2026, 12, 2, 9, 0, 0, 0, loc), Confirm: true},
	} {
		if _, err := l.Add(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	al := NewAlerts(NewStore(rdb, nil), l, nil, 7.2)
	b := bot.New(bot.Config{FX: 7.2}, kb, nil)
	b.SetClock(func() time.Time { return now })
	b.Route(parse.Budget, NewHandler(al, nil, func() time.Time { return now }))
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
