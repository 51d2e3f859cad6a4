package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// spendBot is a bot with a ledger on an embedded store and a fixed clock.
func spendBot(t *testing.T) (*Bot, *store.Store) {
	t.Helper()
	st, err := store.OpenEmbedded(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := func() time.Time { return time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC) }
	kb := knowledge.MustShipped()
	l := ledger.New(st, ledger.Options{KB: kb, Now: now})
	b := New(Config{FX: 7.2}, kb, nil)
	b.SetClock(func() time.Time { return now().Add(time.Minute) }) // asked a minute after the entries
	b.Route(parse.Spend, NewSpend(l, ledger.NewAuthorizer([]string{"UADMIN"}, nil, 0), 7.2, now))
	b.UseUsage(l)
	return b, st
}

func say(b *Bot, user, text string) Answer {
	return b.Answer(context.Background(), Message{Text: text, Team: "T1", Channel: "C1", User: user})
}

func TestSpendAddListReportUndo(t *testing.T) {
	b, _ := spendBot(t)
	a := say(b, "U1", "/gpu spend add 40h 4090 @autodl ¥75 project=llm-ft")
	if a.Err != "" || !strings.Contains(a.Text, "#") || !strings.Contains(a.Text, "¥75") {
		t.Fatalf("add: %q", a.Text)
	}
	say(b, "U1", "记一笔：4090 跑了 20 小时 50 块 项目 aigc")
	say(b, "U2", "/gpu spend add 3x h100 8h lambda $96 project=pretrain")

	r := say(b, "U1", "/gpu spend report 2026-10")
	rep, ok := r.Result.(*ledger.Report)
	if !ok {
		t.Fatalf("report result is %T: %s", r.Result, r.Text)
	}
	// Hand sums: ¥75 + ¥50 = ¥125 and $96; card-hours 40 + 20 + 3×8 = 84.
	if got := rep.Total.Amount.String(); got != "¥125.00 + $96.00" {
		t.Errorf("total = %s, want ¥125.00 + $96.00", got)
	}
	if rep.Total.CardHours != 84 {
		t.Errorf("card-hours = %v, want 84", rep.Total.CardHours)
	}

	l := say(b, "U1", "/gpu spend list project=aigc")
	if !strings.Contains(l.Text, "1") || !strings.Contains(l.Text, "aigc") {
		t.Errorf("list: %q", l.Text)
	}
	u := say(b, "U1", "/gpu spend undo")
	if !strings.Contains(u.Text, "20") {
		t.Errorf("undo removed the wrong entry: %q", u.Text)
	}
}

func TestSpendDeleteOthersNeedsAdmin(t *testing.T) {
	b, _ := spendBot(t)
	a := say(b, "U1", "/gpu spend add 40h 4090 ¥75")
	res := a.Result.(ledger.Entry)
	if d := say(b, "U2", "/gpu spend delete "+res.ID); d.Err == "" {
		t.Errorf("another user deleted U1's entry: %q", d.Text)
	}
	if d := say(b, "UADMIN", "/gpu spend delete "+res.ID); d.Err != "" {
		t.Errorf("admin could not delete: %q", d.Text)
	}
}

func TestSpendWhenRedisIsDownSaysNotSaved(t *testing.T) {
	mini := miniredis.RunT(t)
	st, err := store.Open(context.Background(), "redis://"+mini.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kb := knowledge.MustShipped()
	b := New(Config{FX: 7.2}, kb, nil)
	b.Route(parse.Spend, NewSpend(ledger.New(st, ledger.Options{KB: kb}), nil, 7.2, nil))
	mini.Close()
	a := say(b, "U1", "/gpu spend add 40h 4090 ¥75")
	if a.Err != "not_saved" || !strings.Contains(a.Text, "NOT saved") {
		t.Errorf("with Redis down: err %q text %q", a.Err, a.Text)
	}
}

func TestMonthlyWithoutHoursUsesTheTeamsUsage(t *testing.T) {
	b, _ := spendBot(t)
	say(b, "U1", "/gpu spend add 120h 4090 @autodl ¥200")
	say(b, "U1", "/gpu spend add 92h 4090 @autodl ¥150")
	a := say(b, "U1", "包月划算吗")
	if a.Err != "" {
		t.Fatalf("monthly: %q", a.Text)
	}
	// 120 + 92 = 212 card-hours on one card in the last 30 days.
	if a.Assumed["hours_per_month"] != 212.0 {
		t.Errorf("hours_per_month assumed = %v, want 212 from the ledger", a.Assumed["hours_per_month"])
	}
	if !strings.Contains(a.Text, "30 天") {
		t.Errorf("the answer does not say the hours came from the team's usage:\n%s", a.Text)
	}
}
