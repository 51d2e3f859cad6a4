package command_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/subscribe"
	"github.com/gpubot/gpubot/bot/subscribe/command"
	"github.com/gpubot/gpubot/knowledge"
)

var t0 = time.Date(2026, 10, 8, 10, 0, 0, 0, time.UTC)

// users answers users.info: UADMIN is a workspace admin, UMEMBER is not,
// UBROKEN makes the lookup fail.
type users struct{}

func (users) GetUserInfoContext(_ context.Context, user string, _ ...slack.GetUserInfoOption) (*slack.User, error) {
	switch user {
	case "UADMIN":
		return &slack.User{ID: user, TeamID: "T1", IsAdmin: true}, nil
	case "UBROKEN":
		return nil, errors.New("slack is down")
	}
	return &slack.User{ID: user, TeamID: "T1"}, nil
}

type fixture struct {
	rdb     redis.UniversalClient
	store   *subscribe.Store
	bot     *bot.Bot
	persist int
}

func newFixture(t *testing.T, rdb redis.UniversalClient, prefix string) *fixture {
	t.Helper()
	f := &fixture{rdb: rdb}
	f.store = subscribe.New(rdb, subscribe.Options{Prefix: prefix, Persist: func(context.Context) error { f.persist++; return nil }})
	f.bot = bot.New(bot.Config{}, knowledge.MustShipped(), nil)
	auth := ledger.NewAuthorizer([]string{"UCONFIG"}, users{}, 0)
	f.bot.Route(parse.Subscribe, command.NewHandler(f.store, auth, func() time.Time { return t0 }, nil))
	return f
}

func miniFixture(t *testing.T) *fixture {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: miniredis.RunT(t).Addr()})
	t.Cleanup(func() { rdb.Close() })
	return newFixture(t, rdb, "")
}

func (f *fixture) say(user, channel, text string) bot.Answer {
	return f.bot.Answer(context.Background(), bot.Message{Text: text, Team: "T1", Channel: channel, User: user, Slash: true})
}

func TestSubscribeCommands(t *testing.T)      { suiteCommands(t, miniFixture(t)) }
func TestSubscribeAuthorisation(t *testing.T) { suiteAuthorisation(t, miniFixture(t)) }

func suiteCommands(t *testing.T, f *fixture) {
	ctx := context.Background()
	a := f.say("UADMIN", "C1", "subscribe prices gpu=h100,4090 threshold=5% quiet")
	if a.Ephemeral || !strings.Contains(a.Text, "Subscribed this channel: daily price changes; cards h100-sxm, rtx4090; moves of at least 5%; nothing on quiet days; in English") {
		t.Errorf("subscribe prices: %q (ephemeral %v)", a.Text, a.Ephemeral)
	}
	got, ok, err := f.store.Get(ctx, "T1", "C1", subscribe.Prices)
	if err != nil || !ok {
		t.Fatalf("Get = %v, %v", ok, err)
	}
	want := subscribe.Sub{Team: "T1", Channel: "C1", Topic: subscribe.Prices, GPUs: []string{"h100-sxm", "rtx4090"}, Threshold: 0.05,
		Quiet: true, Lang: "en", By: "UADMIN", CreatedAt: t0}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("stored subscription (-want +got):\n%s", d)
	}
	if f.persist == 0 {
		t.Error("a subscription was not persisted (embedded mode snapshot)")
	}

	a = f.say("UADMIN", "C1", "订阅 月报")
	if !strings.Contains(a.Text, "本频道已订阅：每月 1 日的月度花费回顾；中文") {
		t.Errorf("subscribe recap in Chinese: %q", a.Text)
	}
	a = f.say("UMEMBER", "C1", "subscriptions")
	if !a.Ephemeral || !strings.Contains(a.Text, "• daily price changes") || !strings.Contains(a.Text, "• monthly spend recap on the 1st; in Chinese") {
		t.Errorf("subscriptions (anyone may list): %q", a.Text)
	}
	all, err := f.store.All(ctx, subscribe.Recap)
	if err != nil || len(all) != 1 || all[0].Lang != "zh" {
		t.Errorf("All(recap) = %+v, %v", all, err)
	}

	// Re-subscribing keeps the original time, so today's post is not skipped.
	f2 := command.NewHandler(f.store, ledger.NewAuthorizer([]string{"UADMIN"}, nil, 0), func() time.Time { return t0.Add(time.Hour) }, nil)
	f.bot.Route(parse.Subscribe, f2)
	f.say("UADMIN", "C1", "subscribe prices threshold=10%")
	got, _, _ = f.store.Get(ctx, "T1", "C1", subscribe.Prices)
	if !got.CreatedAt.Equal(t0) || got.Threshold != 0.10 || len(got.GPUs) != 0 || got.Quiet {
		t.Errorf("re-subscribed: %+v; want the new settings and the first CreatedAt", got)
	}

	a = f.say("UADMIN", "C1", "unsubscribe prices")
	if !strings.Contains(a.Text, "Unsubscribed this channel from the daily price post.") || !strings.Contains(a.Text, "Still subscribed: monthly spend recap") {
		t.Errorf("unsubscribe prices: %q", a.Text)
	}
	a = f.say("UADMIN", "C1", "unsubscribe")
	if !strings.Contains(a.Text, "from the monthly recap") {
		t.Errorf("unsubscribe (all): %q", a.Text)
	}
	a = f.say("UADMIN", "C1", "unsubscribe")
	if !a.Ephemeral || !strings.Contains(a.Text, "no such subscription") {
		t.Errorf("unsubscribe with nothing left: %q", a.Text)
	}
	a = f.say("UADMIN", "C1", "subscribe")
	if !a.Ephemeral || !strings.Contains(a.Text, "Subscribe to what?") {
		t.Errorf("subscribe without a topic: %q", a.Text)
	}
	a = f.say("UADMIN", "C1", "subscribe prices threshold=150%")
	if !a.Ephemeral {
		t.Errorf("threshold 150%% accepted: %q", a.Text)
	}
	if subs, _ := f.store.Channel(ctx, "T1", "C1"); len(subs) != 0 {
		t.Errorf("left over: %+v", subs)
	}
}

func suiteAuthorisation(t *testing.T, f *fixture) {
	ctx := context.Background()
	for _, c := range []struct {
		user    string
		allowed bool
		says    string
	}{
		{"UMEMBER", false, "Only workspace admins"},
		{"UBROKEN", false, "couldn't check whether you are a workspace admin"},
		{"UCONFIG", true, "Subscribed"}, // in the configured admin list
		{"UADMIN", true, "Subscribed"},  // a Slack workspace admin
	} {
		a := f.say(c.user, "C-"+c.user, "subscribe prices")
		if !strings.Contains(a.Text, c.says) {
			t.Errorf("%s: %q, want %q", c.user, a.Text, c.says)
		}
		_, ok, _ := f.store.Get(ctx, "T1", "C-"+c.user, subscribe.Prices)
		if ok != c.allowed {
			t.Errorf("%s: subscribed = %v, want %v", c.user, ok, c.allowed)
		}
	}
	f.say("UADMIN", "CX", "subscribe recap")
	a := f.say("UMEMBER", "CX", "unsubscribe")
	if !strings.Contains(a.Text, "Only workspace admins") {
		t.Errorf("a member unsubscribed: %q", a.Text)
	}
	if _, ok, _ := f.store.Get(ctx, "T1", "CX", subscribe.Recap); !ok {
		t.Error("the recap subscription is gone after a member's unsubscribe")
	}
	// Outside a Slack channel (the console, bot ask) there is nothing to subscribe.
	a = f.bot.Answer(ctx, bot.Message{Text: "/gpu subscribe prices", User: "cli", Channel: "cli"})
	if !strings.Contains(a.Text, "per Slack channel") {
		t.Errorf("console subscribe: %q", a.Text)
	}
}

// These run against a real redis-server at REDIS_URL (make test starts one)
// and skip when it is unset; bottest.RealRedis gives the test its own key
// prefix and deletes its keys afterwards.
func realFixture(t *testing.T) *fixture {
	t.Helper()
	rdb, prefix := bottest.RealRedis(t)
	return newFixture(t, rdb, prefix)
}

func TestRealRedisSubscribeCommands(t *testing.T)      { suiteCommands(t, realFixture(t)) }
func TestRealRedisSubscribeAuthorisation(t *testing.T) { suiteAuthorisation(t, realFixture(t)) }
