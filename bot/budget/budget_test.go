package budget

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/robfig/cron/v3"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/profile"
	"github.com/gpubot/gpubot/bot/schedule"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/bot/subscribe"
	"github.com/gpubot/gpubot/knowledge"
)

func cny(v int64) ledger.Money { return ledger.Money{Minor: v * 100, Currency: knowledge.CNY} }

// Hand calculation, October 2026 (31 days), budget ¥100,000 for pretrain:
//   - 10 Oct 00:00, 9 days gone, ¥30,000 spent: 30 %; pace ¥3,333.33 a day,
//     × 31 = ¥103,333.33 projected; ¥100,000 ÷ ¥3,333.33 = 30 days → the
//     30th. Due: the forecast only.
//   - 16 Oct 00:00, 15 days, ¥52,000: 52 %; pace ¥3,466.67, ¥107,466.67
//     projected, 100,000 ÷ 3,466.67 = 28.8 → the 29th. Due: 50 % and the
//     forecast.
//   - A refund of ¥5,000 and a USD entry ($1,000 at 7.2 = ¥7,200) count:
//     ¥52,000 − ¥5,000 + ¥7,200 = ¥54,200.
func TestComputeAndDue(t *testing.T) {
	loc := ledger.Shanghai
	b := Budget{Team: "T1", Project: "pretrain", Amount: cny(100000)}
	oct := ledger.Month{Year: 2026, Month: time.October}
	e := func(project string, m ledger.Money) ledger.Entry {
		return ledger.Entry{Project: project, Amount: m, Kind: ledger.Spend}
	}
	s := Compute(b, []ledger.Entry{e("pretrain", cny(30000)), e("other", cny(99999))}, oct, time.Date(2026, 10, 10, 0, 0, 0, 0, loc), loc, 7.2)
	if s.Spent != cny(30000) || s.Projected.String() != "¥103,333.33" || s.ReachDay != 30 {
		t.Errorf("10 Oct: spent %s, projected %s, reach %d; want ¥30,000.00, ¥103,333.33, 30", s.Spent, s.Projected, s.ReachDay)
	}
	if d := Due(s); len(d) != 1 || d[0].Kind != Forecast || !strings.Contains(d[0].Text("en"), "reaches its ¥100,000.00 budget for 2026-10 on the 30th") {
		t.Errorf("10 Oct due = %+v", d)
	}
	s = Compute(b, []ledger.Entry{e("pretrain", cny(52000))}, oct, time.Date(2026, 10, 16, 0, 0, 0, 0, loc), loc, 7.2)
	if d := Due(s); len(d) != 2 || d[0].Kind != "50" || d[1].Kind != Forecast || s.ReachDay != 29 || s.Projected.String() != "¥107,466.67" {
		t.Errorf("16 Oct: due %+v, reach %d, projected %s; want 50 + forecast, 29, ¥107,466.67", d, s.ReachDay, s.Projected)
	}
	refund := ledger.Entry{Project: "pretrain", Amount: cny(-5000), Kind: ledger.Refund}
	usd := e("pretrain", ledger.Money{Minor: 100000, Currency: knowledge.USD})
	superseded := e("pretrain", cny(40000))
	superseded.SupersededBy = "abc123"
	s = Compute(b, []ledger.Entry{e("pretrain", cny(52000)), refund, usd, superseded}, oct, time.Date(2026, 10, 16, 0, 0, 0, 0, loc), loc, 7.2)
	if s.Spent != cny(54200) {
		t.Errorf("with a refund and USD: spent %s, want ¥54,200.00", s.Spent)
	}
	if al := (Alert{Project: "p", Month: oct, Kind: "100"}); len(al.Covers()) != 3 {
		t.Errorf("the 100%% alert covers %v, want itself, 50 and 80", al.Covers())
	}
}

func TestParseAmount(t *testing.T) {
	for in, want := range map[string]ledger.Money{
		"¥100k/month": cny(100000), "10万/月": cny(100000), "100000": cny(100000), "$5,000": {Minor: 500000, Currency: knowledge.USD},
		"¥1.5k": cny(1500), "8万元": cny(80000),
	} {
		if got, err := ParseAmount(in, knowledge.CNY); err != nil || got != want {
			t.Errorf("ParseAmount(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "-5k", "0"} {
		if got, err := ParseAmount(in, knowledge.CNY); err == nil {
			t.Errorf("ParseAmount(%q) = %v, want refused", in, got)
		}
	}
}

// Three replicas that each believe they lead (separate lock names) tick at
// once, again and again: each threshold's alert reaches the team's channel
// once, with an Acknowledge button; a higher one later, once more.
func TestAlertsOnceAcrossThreeReplicas(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	st := &store.Store{Redis: rdb}
	loc := ledger.Shanghai
	c := bottest.NewClock(time.Date(2026, 10, 16, 0, 0, 0, 0, loc))
	l := ledger.New(st, ledger.Options{Location: loc, Now: c.Now})
	bs := NewStore(rdb, nil)
	if err := bs.Set(ctx, Budget{Team: bottest.TeamID, Project: "pretrain", Amount: cny(100000)}); err != nil {
		t.Fatal(err)
	}
	add := func(amount int64, key string) {
		t.Helper()
		if _, err := l.Add(ctx, ledger.Entry{Team: bottest.TeamID, User: "U1", GPU: "h800", Cards: 8, Hours: 24, Project: "pretrain",
			Amount: cny(amount), Key: key, At: c.Now().Add(-time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	add(52000, "m1") // 52 % on the 16th: the 50 % alert and the forecast
	subs := subscribe.New(rdb, subscribe.Options{})
	if err := subs.Put(ctx, subscribe.Sub{Team: bottest.TeamID, Channel: "C1", Topic: subscribe.Recap, Lang: "en", CreatedAt: c.Now().AddDate(0, -1, 0)}); err != nil {
		t.Fatal(err)
	}
	fs := bottest.NewSlack(t)
	alerts := NewAlerts(bs, l, nil, 7.2)
	every := cron.Every(5 * time.Minute)
	var replicas []*schedule.Scheduler
	for i := range 3 {
		p := slackpost.New(slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL())), rdb, slackpost.Options{Pace: -1,
			Wait: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
		replicas = append(replicas, schedule.New(rdb, c.Now, schedule.Options{Location: loc, LockName: "budget-test-" + string(rune('a'+i)),
			Poster: p, Subs: subs, Deliveries: []schedule.Delivery{alerts.Delivery(every, loc)}, ClaimTTL: time.Minute, SettleAfter: 2 * time.Minute}))
	}
	tickAll := func() {
		var wg sync.WaitGroup
		for _, r := range replicas {
			for range 3 {
				wg.Go(func() {
					if err := r.Tick(ctx); err != nil {
						t.Error(err)
					}
				})
			}
		}
		wg.Wait()
	}
	count := func(substr string) int {
		n := 0
		for _, msg := range fs.Messages("C1") {
			n += strings.Count(msg.Text, substr)
		}
		return n
	}
	for range 3 {
		tickAll()
		c.Set(c.Now().Add(5 * time.Minute)) // the next check slot
	}
	if n50, nf := count("past 50% of its"), count("Budget forecast"); n50 != 1 || nf != 1 {
		t.Errorf("after three checks: %d 50%% alerts, %d forecasts; want 1 each", n50, nf)
	}
	var sawButton bool
	for _, call := range fs.Calls("chat.postMessage") {
		sawButton = sawButton || strings.Contains(call.Form.Get("blocks"), AckAction)
	}
	if !sawButton {
		t.Error("the alert has no Acknowledge button")
	}
	add(30000, "m2") // ¥82,000: 82 %
	for range 3 {
		tickAll()
		c.Set(c.Now().Add(5 * time.Minute))
	}
	if n80, n50 := count("past 80% of its"), count("past 50% of its"); n80 != 1 || n50 != 1 {
		t.Errorf("after 82%%: %d 80%% alerts, %d 50%% alerts; want 1 and still 1", n80, n50)
	}
	if err := bs.Ack(ctx, bottest.TeamID, "pretrain|2026-10|80", "U2"); err != nil {
		t.Fatal(err)
	}
	if who, _ := bs.Acked(ctx, bottest.TeamID, "pretrain|2026-10|80"); who != "U2" {
		t.Errorf("acknowledged by %q, want U2", who)
	}
}

func TestBudgetCommand(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	loc := ledger.Shanghai
	now := func() time.Time { return time.Date(2026, 10, 10, 0, 0, 0, 0, loc) }
	l := ledger.New(&store.Store{Redis: rdb}, ledger.Options{Location: loc, Now: now})
	if _, err := l.Add(ctx, ledger.Entry{Team: "T1", User: "U1", GPU: "h800", Cards: 8, Hours: 24, Project: "pretrain", Amount: cny(30000), At: now().Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	kb := knowledge.MustShipped()
	b := bot.New(bot.Config{FX: 7.2}, kb, nil)
	b.Route(parse.Budget, NewHandler(NewAlerts(NewStore(rdb, nil), l, nil, 7.2), nil, now))
	say := func(text string) bot.Answer {
		return b.Answer(ctx, bot.Message{Text: text, Team: "T1", Channel: "C1", User: "U1"})
	}
	a := say("/gpu budget set pretrain ¥100k/month")
	if !strings.Contains(a.Text, "Budget set: pretrain, ¥100,000.00 a month") ||
		!strings.Contains(a.Text, "pretrain: ¥30,000.00 / ¥100,000.00 (30%), projected ¥103,333.33; at this pace reached on the 30th") {
		t.Errorf("set: %s", a.Text)
	}
	if a := say("/gpu budget set pretrain ¥-5"); !strings.Contains(a.Text, `read "¥-5"`) {
		t.Errorf("negative budget: %s", a.Text)
	}
	if a := say("/gpu budget clear pretrain"); !strings.Contains(a.Text, "Budget removed: pretrain") || !strings.Contains(a.Text, "No budgets yet") {
		t.Errorf("clear: %s", a.Text)
	}
}

// A profile that names a channel gets the team's alerts there, even when
// that channel subscribed to nothing, and the recap subscribers elsewhere
// get none; a team with budgets and no subscription at all is reached
// through its profile channel. Three replicas, each alert once.
func TestAlertsGoToProfileChannel(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	st := &store.Store{Redis: rdb}
	loc := ledger.Shanghai
	c := bottest.NewClock(time.Date(2026, 10, 16, 0, 0, 0, 0, loc))
	l := ledger.New(st, ledger.Options{Location: loc, Now: c.Now})
	bs := NewStore(rdb, nil)
	profiles := profile.New(rdb, nil)
	for _, team := range []string{bottest.TeamID, "T2"} {
		if err := bs.Set(ctx, Budget{Team: team, Project: "pretrain", Amount: cny(100000)}); err != nil {
			t.Fatal(err)
		}
		// ¥52,000 of ¥100,000 on the 16th: the 50 % alert and the forecast.
		if _, err := l.Add(ctx, ledger.Entry{Team: team, User: "U1", GPU: "h800", Cards: 8, Hours: 24, Project: "pretrain",
			Amount: cny(52000), Key: "m1-" + team, At: c.Now().Add(-time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := profiles.Put(ctx, profile.Profile{Team: bottest.TeamID, RecapChannel: "C9"}); err != nil {
		t.Fatal(err)
	}
	if err := profiles.Put(ctx, profile.Profile{Team: "T2", RecapChannel: "C7", Currency: knowledge.CNY}); err != nil {
		t.Fatal(err)
	}
	subs := subscribe.New(rdb, subscribe.Options{})
	if err := subs.Put(ctx, subscribe.Sub{Team: bottest.TeamID, Channel: "C1", Topic: subscribe.Recap, Lang: "en", CreatedAt: c.Now().AddDate(0, -1, 0)}); err != nil {
		t.Fatal(err)
	}
	fs := bottest.NewSlack(t)
	alerts := NewAlerts(bs, l, profiles, 7.2)
	every := cron.Every(5 * time.Minute)
	var replicas []*schedule.Scheduler
	for i := range 3 {
		p := slackpost.New(slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL())), rdb, slackpost.Options{Pace: -1,
			Wait: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
		replicas = append(replicas, schedule.New(rdb, c.Now, schedule.Options{Location: loc, LockName: "budget-test-" + string(rune('a'+i)),
			Poster: p, Subs: subs, Deliveries: []schedule.Delivery{alerts.Delivery(every, loc)}, ClaimTTL: time.Minute, SettleAfter: 2 * time.Minute}))
	}
	for range 3 {
		var wg sync.WaitGroup
		for _, r := range replicas {
			wg.Go(func() {
				if err := r.Tick(ctx); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		c.Set(c.Now().Add(5 * time.Minute))
	}
	count := func(channel, substr string) int {
		n := 0
		for _, msg := range fs.Messages(channel) {
			n += strings.Count(msg.Text, substr)
		}
		return n
	}
	if n50, nf := count("C9", "past 50% of its"), count("C9", "Budget forecast"); n50 != 1 || nf != 1 {
		t.Errorf("profile channel C9: %d 50%% alerts, %d forecasts; want 1 each", n50, nf)
	}
	if n := len(fs.Messages("C1")); n != 0 {
		t.Errorf("recap subscriber C1 got %d posts; the profile names C9, want none", n)
	}
	if n := len(fs.Messages("C7")); n != 1 || !strings.Contains(fs.Messages("C7")[0].Text, "50%") || strings.Contains(fs.Messages("C7")[0].Text, "past 50%") {
		t.Errorf("T2's profile channel C7 (no subscription) got %d posts %+v; want one post with the 50%% alert, in Chinese", n, fs.Messages("C7"))
	}
}

// The forecast adds committed spend once and extrapolates only usage, at a
// rate over at least 7 days: one 包月 charge on the 1st is not a month's
// pace (it used to project ¥36,000 × 30 days = ¥1.08M against ¥250k).
//
// 2 Nov 00:00, budget ¥250,000/month: a ¥36,000 包月 plan (committed) and
// ¥7,000 of on-demand usage in the first day.
//
//	usage rate = 7,000 ÷ max(1 day, 7) = ¥1,000 a day
//	projected  = 36,000 + 7,000 + 1,000 × 29 days left = ¥72,000
//
// No forecast alert: ¥72,000 is far under ¥250,000.
func TestForecastIsCommittedPlusRunRate(t *testing.T) {
	loc := ledger.Shanghai
	nov := ledger.Month{Year: 2026, Month: time.November}
	b := Budget{Team: "T1", Project: Team, Amount: cny(250000)}
	plan := ledger.Entry{Project: "p", Amount: cny(36000), Kind: ledger.Spend, Billing: ledger.Monthly, At: time.Date(2026, 11, 1, 0, 0, 0, 0, loc)}
	run := ledger.Entry{Project: "p", Amount: cny(7000), Kind: ledger.Spend, Billing: ledger.OnDemand, At: time.Date(2026, 11, 1, 10, 0, 0, 0, loc)}
	s := Compute(b, []ledger.Entry{plan, run}, nov, time.Date(2026, 11, 2, 0, 0, 0, 0, loc), loc, 7.2)
	if s.Committed != cny(36000) || s.Projected != cny(72000) || s.ReachDay != 0 {
		t.Errorf("committed %s, projected %s, reach day %d; want ¥36,000.00, ¥72,000.00, 0", s.Committed, s.Projected, s.ReachDay)
	}
	if d := Due(s); len(d) != 0 {
		t.Errorf("due %+v, want nothing", d)
	}
	if !strings.Contains(s.How, "at least 7") || !strings.Contains(s.How, "committed") {
		t.Errorf("the method is not stated: %q", s.How)
	}
}

// A quarterly budget with custom thresholds: Q4 2026, ¥300,000, alerts at
// 60 and 90 %. On 15 Nov 00:00 (45 of Q4's 92 days), ¥150,000 spent in
// October and ¥40,000 in November = ¥190,000 (63.3 %): the 60 % alert.
//
//	rate      = 190,000 ÷ 45 = ¥4,222.22 a day
//	projected = 190,000 + 4,222.22… × 47 = ¥388,444.44
//	reached   = 45 + (300,000 − 190,000) ÷ 4,222.22… = 71.05 → day 72 of Q4
func TestQuarterlyBudgetWithCustomAlerts(t *testing.T) {
	loc := ledger.Shanghai
	b := Budget{Team: "T1", Project: Team, Amount: cny(300000), Period: Quarter, Alerts: []int{60, 90}}
	now := time.Date(2026, 11, 15, 0, 0, 0, 0, loc)
	first, from, to, label := b.PeriodOf(now, loc)
	if label != "2026-Q4" || !from.Equal(time.Date(2026, 10, 1, 0, 0, 0, 0, loc)) || !to.Equal(time.Date(2027, 1, 1, 0, 0, 0, 0, loc)) {
		t.Fatalf("period %s %v–%v", label, from, to)
	}
	es := []ledger.Entry{
		{Project: "p", Amount: cny(150000), Kind: ledger.Spend, At: time.Date(2026, 10, 20, 0, 0, 0, 0, loc)},
		{Project: "p", Amount: cny(40000), Kind: ledger.Spend, At: time.Date(2026, 11, 10, 0, 0, 0, 0, loc)},
	}
	s := ComputePeriod(b, es, first, from, to, label, now, loc, 7.2)
	if s.Projected.String() != "¥388,444.44" || s.ReachDay != 72 {
		t.Errorf("projected %s, reach day %d; want ¥388,444.44, 72", s.Projected, s.ReachDay)
	}
	d := Due(s)
	if len(d) != 2 || d[0].Kind != "60" || d[0].ID() != "*|2026-Q4|60" || d[1].Kind != Forecast {
		t.Fatalf("due %+v; want the 60%% alert (*|2026-Q4|60) and the forecast", d)
	}
	if !strings.Contains(d[1].Text("en"), "on day 72 of 2026-Q4") {
		t.Errorf("forecast text: %q", d[1].Text("en"))
	}
	if m, period, err := ParseBudget("30万/季度", knowledge.CNY); err != nil || m != cny(300000) || period != Quarter {
		t.Errorf("ParseBudget(30万/季度) = %s, %q, %v", m, period, err)
	}
	if ts, err := ParseAlerts("80,50,100"); err != nil || len(ts) != 3 || ts[0] != 50 {
		t.Errorf("ParseAlerts = %v, %v", ts, err)
	}
}

// The reply to a ledger write names the alerts it made due: ¥30,000 spent
// of ¥50,000 on 10 Oct is 60 % (the 50 % alert) and, at ¥30,000 ÷ 9 days
// a day, reached on day 9 + 20,000 ÷ 3,333.33 = 15 → the 15th (forecast).
func TestNotesForAWriteThatCrossesAThreshold(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	loc := ledger.Shanghai
	now := time.Date(2026, 10, 10, 0, 0, 0, 0, loc)
	l := ledger.New(&store.Store{Redis: rdb}, ledger.Options{Location: loc, Now: func() time.Time { return now }})
	st := NewStore(rdb, nil)
	if err := st.Set(ctx, Budget{Team: "T1", Project: Team, Amount: cny(50000)}); err != nil {
		t.Fatal(err)
	}
	al := NewAlerts(st, l, nil, 7.2)
	if notes, err := al.Notes(ctx, "T1", now, "en"); err != nil || len(notes) != 0 {
		t.Fatalf("before any spend: %v, %v", notes, err)
	}
	if _, err := l.Add(ctx, ledger.Entry{Team: "T1", User: "U1", GPU: "h800", Cards: 8, Hours: 24, Amount: cny(30000), At: now.Add(-time.Hour), Confirm: true}); err != nil {
		t.Fatal(err)
	}
	notes, err := al.Notes(ctx, "T1", now, "en")
	if err != nil || len(notes) != 2 || !strings.Contains(notes[0], "past 50% of its ¥50,000.00 budget (60%)") || !strings.Contains(notes[1], "on the 15th") {
		t.Errorf("notes = %q, %v; want the 50%% alert and the forecast for the 15th", notes, err)
	}
}
