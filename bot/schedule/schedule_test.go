package schedule_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/robfig/cron/v3"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/schedule"
	"github.com/gpubot/gpubot/bot/subscribe"
	"github.com/gpubot/gpubot/infra/lock"
)

func TestLastSlotIsTodaysOnly(t *testing.T) {
	loc := shanghai(t)
	daily, err := schedule.Daily("09:30", loc)
	if err != nil {
		t.Fatal(err)
	}
	at := func(d, h, m int) time.Time { return time.Date(2026, 10, d, h, m, 0, 0, loc) }
	for _, c := range []struct {
		name string
		now  time.Time
		want time.Time
	}{
		{"before 09:30 nothing is due", at(9, 9, 29), time.Time{}},
		{"at 09:30 the slot is due", at(9, 9, 30), at(9, 9, 30)},
		{"late in the day it is still due", at(9, 23, 59), at(9, 9, 30)},
		{"after midnight yesterday's slot is gone", at(10, 0, 5), time.Time{}},
		{"the day is Shanghai's, not UTC's", time.Date(2026, 10, 9, 16, 30, 0, 0, time.UTC), time.Time{}}, // 00:30 on the 10th
	} {
		got, ok := schedule.LastSlot(daily, c.now, loc)
		if !got.Equal(c.want) || ok == c.want.IsZero() {
			t.Errorf("%s: LastSlot(%v) = %v, %v; want %v", c.name, c.now, got, ok, c.want)
		}
	}
}

func TestMonthlySlotAndPeriodFollowTheTimeZone(t *testing.T) {
	loc := shanghai(t)
	monthly, err := schedule.Monthly("09:30", loc)
	if err != nil {
		t.Fatal(err)
	}
	period := schedule.PrevMonthPeriod(loc)
	for _, c := range []struct {
		name       string
		now        time.Time
		wantSlot   bool
		wantPeriod string
	}{
		// 2026-10-31 23:30 UTC is 2026-11-01 07:30 in Shanghai: the 1st, but before 09:30.
		{"1 November before 09:30 Shanghai", time.Date(2026, 10, 31, 23, 30, 0, 0, time.UTC), false, ""},
		{"1 November 09:30 Shanghai recaps October", time.Date(2026, 11, 1, 1, 30, 0, 0, time.UTC), true, "2026-10"},
		{"still due late on the 1st", time.Date(2026, 11, 1, 15, 59, 0, 0, time.UTC), true, "2026-10"},
		{"gone on the 2nd (16:00 UTC on the 1st)", time.Date(2026, 11, 1, 16, 0, 0, 0, time.UTC), false, ""},
		{"January recaps December of the year before", time.Date(2026, 1, 1, 10, 0, 0, 0, loc), true, "2025-12"},
		{"the 15th has no recap", time.Date(2026, 10, 15, 10, 0, 0, 0, loc), false, ""},
	} {
		slot, ok := schedule.LastSlot(monthly, c.now, loc)
		if ok != c.wantSlot {
			t.Errorf("%s: slot %v, %v; want due %v", c.name, slot, ok, c.wantSlot)
			continue
		}
		if ok && period(slot) != c.wantPeriod {
			t.Errorf("%s: period %q, want %q", c.name, period(slot), c.wantPeriod)
		}
	}
}

func TestScheduleSpecs(t *testing.T) {
	loc := shanghai(t)
	for _, bad := range []string{"9.30", "25:00", "noon", ""} {
		if _, err := schedule.Daily(bad, loc); err == nil {
			t.Errorf("Daily(%q) accepted", bad)
		}
	}
	s, err := schedule.Parse("0 */4 * * *", loc)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Next(time.Date(2026, 10, 9, 9, 30, 0, 0, loc)); !got.Equal(time.Date(2026, 10, 9, 12, 0, 0, 0, loc)) {
		t.Errorf("every 4 h after 09:30 = %v, want 12:00 Shanghai", got)
	}
	every, err := schedule.Parse("@every 4h", loc)
	if err != nil {
		t.Fatal(err)
	}
	if got := every.Next(time.Date(2026, 10, 9, 9, 30, 0, 0, loc)); !got.Equal(time.Date(2026, 10, 9, 13, 30, 0, 0, loc)) {
		t.Errorf("@every 4h after 09:30 = %v, want 13:30", got)
	}
	if _, err := schedule.Parse("every four hours", loc); err == nil {
		t.Error("Parse accepted prose")
	}
}

func TestTwoSchedulersRacingPostOncePerChannelPerDay(t *testing.T) {
	for _, c := range []struct {
		name       string
		sameLeader bool
	}{
		{"sharing the leader lock", true},
		// Both think they lead: only the channel claims stand between them.
		{"each with its own lock", false},
	} {
		t.Run(c.name, func(t *testing.T) { racing(t, newEnv(t), c.sameLeader) })
	}
}

func racing(t *testing.T, e *env, sameLeader bool) {
	day := time.Date(2026, 10, 9, 0, 0, 0, 0, e.loc)
	e.subscribe(subscribe.Prices, day.AddDate(0, 0, -1), "C1", "C2", "C3")
	c := bottest.NewClock(day.Add(9*time.Hour + 31*time.Minute))
	locks := []string{"", ""}
	if !sameLeader {
		locks = []string{e.lock + "-a", e.lock + "-b"}
	}
	replicas := []*schedule.Scheduler{
		e.replica(c, e.poster(nil), locks[0], e.daily(nil)),
		e.replica(c, e.poster(nil), locks[1], e.daily(nil)),
	}
	var wg sync.WaitGroup
	for _, r := range replicas {
		for range 5 {
			wg.Go(func() {
				if err := r.Tick(context.Background()); err != nil {
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
	// Later ticks the same day add nothing.
	for _, r := range replicas {
		e.tick(r)
	}
	for _, ch := range []string{"C1", "C2", "C3"} {
		if n := e.posts(ch, "2026-10-09"); n != 1 {
			t.Errorf("%s got %d posts for 2026-10-09, want 1", ch, n)
		}
		if n := len(e.slack.Files(ch)); n != 1 {
			t.Errorf("%s got %d charts, want 1", ch, n)
		} else if f := e.slack.Files(ch)[0]; f.ThreadTS == "" {
			t.Errorf("%s chart shared as a top-level post, want it in the post's thread", ch)
		}
	}
	// The next day, one more each.
	c.Set(day.AddDate(0, 0, 1).Add(9*time.Hour + 30*time.Minute))
	for _, r := range replicas {
		e.tick(r)
	}
	for _, ch := range []string{"C1", "C2", "C3"} {
		if n := e.posts(ch, "2026-10-10 since 2026-10-09"); n != 1 {
			t.Errorf("%s got %d posts for 2026-10-10 (since the 9th), want 1", ch, n)
		}
	}
}

func TestCatchUpAfterDowntime(t *testing.T) {
	e := newEnv(t)
	day := time.Date(2026, 10, 9, 0, 0, 0, 0, e.loc)
	e.subscribe(subscribe.Prices, day.AddDate(0, 0, -1), "C1")
	c := bottest.NewClock(day.Add(8 * time.Hour))
	s := e.replica(c, e.poster(nil), "", e.daily(nil))

	e.tick(s)
	if n := len(e.slack.Messages("C1")); n != 0 {
		t.Fatalf("%d posts before 09:30, want none", n)
	}
	// The bot was down from 08:00 to 14:00: the post goes out when it is back.
	c.Set(day.Add(14 * time.Hour))
	e.tick(s)
	e.tick(s)
	if n := e.posts("C1", "2026-10-09"); n != 1 {
		t.Errorf("%d posts for the 9th after the bot came back, want 1", n)
	}
	// Down all of the 10th: that day's post is not sent late on the 11th.
	c.Set(day.AddDate(0, 0, 2).Add(9*time.Hour + 45*time.Minute))
	e.tick(s)
	if n := e.posts("C1", "2026-10-10"); n != 0 {
		t.Errorf("%d posts for the 10th on the 11th, want none", n)
	}
	if n := e.posts("C1", "2026-10-11 since 2026-10-09"); n != 1 {
		t.Errorf("%d posts for the 11th (since the 9th), want 1", n)
	}
}

func TestChannelsSubscribedAfterTheSlotStartTomorrow(t *testing.T) {
	e := newEnv(t)
	day := time.Date(2026, 10, 9, 0, 0, 0, 0, e.loc)
	e.subscribe(subscribe.Prices, day.Add(11*time.Hour), "CNEW")
	c := bottest.NewClock(day.Add(12 * time.Hour))
	s := e.replica(c, e.poster(nil), "", e.daily(nil))
	e.tick(s)
	if n := len(e.slack.Messages("CNEW")); n != 0 {
		t.Errorf("%d posts the day the channel subscribed (after 09:30), want none", n)
	}
	c.Set(day.AddDate(0, 0, 1).Add(9*time.Hour + 30*time.Minute))
	e.tick(s)
	if n := e.posts("CNEW", "2026-10-10"); n != 1 {
		t.Errorf("%d posts the next day, want 1", n)
	}
}

func TestNothingToPostCountsAsDone(t *testing.T) {
	e := newEnv(t)
	day := time.Date(2026, 10, 9, 0, 0, 0, 0, e.loc)
	e.subscribe(subscribe.Prices, day.AddDate(0, 0, -1), "CQUIET")
	var composed atomic.Int32
	quiet := e.daily(func(context.Context, schedule.Slot) (*schedule.Post, error) {
		composed.Add(1)
		return nil, nil
	})
	c := bottest.NewClock(day.Add(10 * time.Hour))
	var mu sync.Mutex
	seen := map[string]int{}
	s := schedule.New(e.rdb, c.Now, schedule.Options{Location: e.loc, LockName: e.lock, Prefix: e.prefix, Poster: e.poster(nil), Subs: e.subs,
		Deliveries: []schedule.Delivery{quiet}, Observe: func(kind, outcome string) {
			mu.Lock()
			seen[kind+" "+outcome]++
			mu.Unlock()
		}})
	e.tick(s)
	e.tick(s)
	mu.Lock()
	if seen["daily quiet"] != 1 || len(seen) != 1 {
		t.Errorf("observed %v, want one quiet daily run", seen)
	}
	mu.Unlock()
	if n := len(e.slack.Calls("chat.postMessage")); n != 0 {
		t.Errorf("%d posts on a quiet day, want none", n)
	}
	if n := composed.Load(); n != 1 {
		t.Errorf("composed %d times, want once: a quiet day is done", n)
	}
	handled, posted, err := s.Handled(context.Background(), "daily", e.team, "CQUIET")
	if err != nil || handled != "2026-10-09" || posted != "" {
		t.Errorf("Handled = %q, %q, %v; want 2026-10-09 handled, nothing posted", handled, posted, err)
	}
}

func TestAComposeErrorIsRetriedNextTick(t *testing.T) {
	e := newEnv(t)
	day := time.Date(2026, 10, 9, 0, 0, 0, 0, e.loc)
	e.subscribe(subscribe.Prices, day.AddDate(0, 0, -1), "C1")
	var fail atomic.Bool
	fail.Store(true)
	d := e.daily(func(_ context.Context, s schedule.Slot) (*schedule.Post, error) {
		if fail.Load() {
			return nil, errors.New("catalogue unavailable")
		}
		return &schedule.Post{Text: "prices for " + s.Period}, nil
	})
	c := bottest.NewClock(day.Add(10 * time.Hour))
	s := e.replica(c, e.poster(nil), "", d)
	e.tick(s)
	fail.Store(false)
	e.tick(s)
	if n := e.posts("C1", "2026-10-09"); n != 1 {
		t.Errorf("%d posts, want 1 after the retry", n)
	}
}

// A leader dies while its post is in flight. The next leader takes over,
// and the post goes out exactly once.
func TestLeaderKilledMidPostTheNextOnePostsOnce(t *testing.T) {
	for _, c := range []struct {
		name    string
		reached bool // Slack took the message before the leader died
	}{
		{"the message never reached Slack", false},
		{"Slack took the message, the answer was lost", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			day := time.Date(2026, 10, 9, 0, 0, 0, 0, e.loc)
			e.subscribe(subscribe.Prices, day.AddDate(0, 0, -1), "C1")
			clk := bottest.NewClock(day.Add(9*time.Hour + 30*time.Minute))

			rt := &blockingTransport{deliver: c.reached, started: make(chan struct{})}
			a := e.replica(clk, e.poster(rt), "", e.daily(nil))
			b := e.replica(clk, e.poster(nil), "", e.daily(nil))
			ctx, kill := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); a.Tick(ctx) }()
			<-rt.started
			e.tick(b) // A still leads: B does nothing
			if n := len(e.slack.Calls("chat.postMessage")); n > 1 {
				t.Fatalf("%d posts while A was posting", n)
			}
			kill()
			<-done

			e.tick(b)
			if c.reached {
				e.mini.FastForward(3 * time.Minute) // past SettleAfter: still no second post
				e.tick(b)
				if n := e.posts("C1", "2026-10-09"); n != 1 {
					t.Errorf("%d posts after takeover, want just A's", n)
				}
				if n := len(e.slack.Files("C1")); n != 1 {
					t.Errorf("%d charts after takeover, want 1", n)
				}
				return
			}
			if n := len(e.slack.Messages("C1")); n != 0 {
				t.Fatalf("B posted while A's attempt could still be in flight")
			}
			e.mini.FastForward(3 * time.Minute) // past SettleAfter
			e.tick(b)
			e.tick(b)
			if n := e.posts("C1", "2026-10-09"); n != 1 {
				t.Errorf("%d posts after takeover, want 1", n)
			}
		})
	}
}

// A leader is killed outright (no clean-up at all) after claiming a channel
// and starting its post: its lease, its claim and the post's pending
// record stay in Redis. The next leader waits out the lease, takes the
// claim over with its larger fence, and posts once.
func TestHardKilledLeaderIsTakenOver(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	day := time.Date(2026, 10, 9, 0, 0, 0, 0, e.loc)
	e.subscribe(subscribe.Prices, day.AddDate(0, 0, -1), "C1")
	clk := bottest.NewClock(day.Add(9*time.Hour + 30*time.Minute))

	dead, err := lock.Acquire(ctx, e.rdb, lock.Prefix, e.lock, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	id := e.team + ":C1"
	state := e.prefix + "sched:{daily}:state"
	e.rdb.Set(ctx, e.prefix+"sched:{daily}:claim:"+id+":2026-10-09", dead.Fence(), time.Minute)
	e.rdb.HSet(ctx, state, id+"|attempt", "2026-10-09")
	e.rdb.Set(ctx, "gpubot:post:daily:"+id+":2026-10-09", "pending", 24*time.Hour)

	b := e.replica(clk, e.poster(nil), "", e.daily(nil))
	e.tick(b)
	if n := len(e.slack.Messages("C1")); n != 0 {
		t.Fatal("B posted while the dead leader's lease was live")
	}
	e.mini.FastForward(31 * time.Second) // the lease expires; the claim (1 min) does not
	e.tick(b)
	if n := len(e.slack.Messages("C1")); n != 0 {
		t.Fatal("B posted over a pending attempt younger than SettleAfter")
	}
	e.mini.FastForward(3 * time.Minute)
	e.tick(b)
	e.tick(b)
	if n := e.posts("C1", "2026-10-09"); n != 1 {
		t.Errorf("%d posts, want 1", n)
	}
	handled, posted, _ := b.Handled(ctx, "daily", e.team, "C1")
	if handled != "2026-10-09" || posted != "2026-10-09" {
		t.Errorf("Handled = %q, %q; want the 9th posted", handled, posted)
	}
	if v, _ := e.rdb.HGet(ctx, state, id+"|attempt").Result(); v != "" {
		t.Errorf("attempt mark %q left behind", v)
	}
}

func TestTasksRunWhenDueAndCatchUpOnce(t *testing.T) {
	e := newEnv(t)
	refresh, err := schedule.Parse("0 */4 * * *", e.loc)
	if err != nil {
		t.Fatal(err)
	}
	var runs []time.Time
	var mu sync.Mutex
	task := schedule.Task{Name: "refresh-" + e.team, Schedule: refresh, Run: func(_ context.Context, now time.Time) error {
		mu.Lock()
		runs = append(runs, now)
		mu.Unlock()
		return nil
	}}
	c := bottest.NewClock(time.Date(2026, 10, 9, 9, 10, 0, 0, e.loc))
	s := schedule.New(e.rdb, c.Now, schedule.Options{Location: e.loc, LockName: e.lock, Prefix: e.prefix, Tasks: []schedule.Task{task}})
	step := func(at time.Time) {
		c.Set(at)
		e.tick(s)
	}
	step(c.Now())                                      // never ran: runs at once
	step(time.Date(2026, 10, 9, 11, 0, 0, 0, e.loc))   // next is 12:00
	step(time.Date(2026, 10, 9, 11, 59, 40, 0, e.loc)) // within half a tick of 12:00: runs for 12:00
	step(time.Date(2026, 10, 9, 12, 0, 30, 0, e.loc))  // already ran for 12:00
	step(time.Date(2026, 10, 10, 3, 0, 0, 0, e.loc))   // down since: one catch-up run
	step(time.Date(2026, 10, 10, 3, 30, 0, 0, e.loc))  // next is 04:00
	want := []string{"09:10", "11:59", "03:00"}
	mu.Lock()
	defer mu.Unlock()
	if len(runs) != len(want) {
		t.Fatalf("runs at %v, want %v", runs, want)
	}
	for i, r := range runs {
		if got := r.In(e.loc).Format("15:04"); got != want[i] {
			t.Errorf("run %d at %s, want %s", i, got, want[i])
		}
	}
}

func TestFailedTaskIsRetriedNextTick(t *testing.T) {
	e := newEnv(t)
	var calls atomic.Int32
	task := schedule.Task{Name: "flaky-" + e.team, Schedule: everyMinute(t), Run: func(context.Context, time.Time) error {
		if calls.Add(1) == 1 {
			return errors.New("redis went away")
		}
		return nil
	}}
	c := bottest.NewClock(time.Date(2026, 10, 9, 9, 10, 0, 0, e.loc))
	s := schedule.New(e.rdb, c.Now, schedule.Options{Location: e.loc, LockName: e.lock, Prefix: e.prefix, Tasks: []schedule.Task{task}})
	e.tick(s)
	e.tick(s)
	e.tick(s) // succeeded on the second: not due again in the same minute
	if n := calls.Load(); n != 2 {
		t.Errorf("task ran %d times, want 2 (a failure, then the retry)", n)
	}
}

func everyMinute(t *testing.T) cron.Schedule {
	t.Helper()
	return mustParse(t, "@every 1m", time.UTC)
}

func TestRunReturnsWhenTheContextEnds(t *testing.T) {
	e := newEnv(t)
	c := bottest.NewClock(time.Date(2026, 10, 9, 9, 10, 0, 0, e.loc))
	s := schedule.New(e.rdb, c.Now, schedule.Options{Location: e.loc, LockName: e.lock, Prefix: e.prefix, Tick: time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
}

func TestOnlyTheLeaderTicks(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	id := newID()
	e := newEnvOn(t, m, rdb, "gpubot-test-"+id+":", id)
	var runs atomic.Int32
	task := schedule.Task{Name: "count", Schedule: mustParse(t, "@every 1m", e.loc), Run: func(context.Context, time.Time) error {
		runs.Add(1)
		return nil
	}}
	c := bottest.NewClock(time.Date(2026, 10, 9, 9, 10, 0, 0, e.loc))
	s := schedule.New(rdb, c.Now, schedule.Options{Location: e.loc, LockName: e.lock, Prefix: e.prefix, Tasks: []schedule.Task{task}})
	other, err := lock.Acquire(context.Background(), rdb, lock.Prefix, e.lock, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	e.tick(s)
	if runs.Load() != 0 {
		t.Fatal("a replica ran a task while another held the leader lock")
	}
	other.Release(context.Background())
	e.tick(s)
	if runs.Load() != 1 {
		t.Errorf("task ran %d times once the lock was free, want 1", runs.Load())
	}
}

func mustParse(t *testing.T, spec string, loc *time.Location) cron.Schedule {
	t.Helper()
	s, err := schedule.Parse(spec, loc)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
