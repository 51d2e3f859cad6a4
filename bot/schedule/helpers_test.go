package schedule_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // Asia/Shanghai on machines without zoneinfo

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/schedule"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/subscribe"
)

func shanghai(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// suspendNote stands in for subscribe/command.SuspendNote (whose words
// that package tests): the scheduler must send whatever it is given.
func suspendNote(sub subscribe.Sub, topic subscribe.Topic) (string, []slack.Block) {
	return "stopped " + string(topic) + " in " + sub.Channel, nil
}

func noWait(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// env is one Redis and one fake Slack that any number of replicas share.
type env struct {
	t      *testing.T
	mini   *miniredis.Miniredis // nil against a real Redis
	rdb    redis.UniversalClient
	slack  *bottest.Slack
	subs   *subscribe.Store
	loc    *time.Location
	prefix string
	lock   string
	team   string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	id := newID()
	return newEnvOn(t, m, rdb, "gpubot-test-"+id+":", id)
}

// newID names one env's lock and team, so envs can share a Redis.
func newID() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// newEnvOn is an env over rdb with the given key prefix and id.
func newEnvOn(t *testing.T, m *miniredis.Miniredis, rdb redis.UniversalClient, prefix, id string) *env {
	t.Helper()
	return &env{t: t, mini: m, rdb: rdb, slack: bottest.NewSlack(t), subs: subscribe.New(rdb, subscribe.Options{Prefix: prefix}),
		loc: shanghai(t), prefix: prefix, lock: "scheduler-" + id, team: "T" + id}
}

// subscribe opens channels to topic, subscribed at `at`.
func (e *env) subscribe(topic subscribe.Topic, at time.Time, channels ...string) {
	e.t.Helper()
	for _, ch := range channels {
		if err := e.subs.Put(context.Background(), subscribe.Sub{Team: e.team, Channel: ch, Topic: topic, Lang: "en", CreatedAt: at}); err != nil {
			e.t.Fatal(err)
		}
	}
}

// poster is one replica's Slack client; rt, when set, carries its requests.
func (e *env) poster(rt http.RoundTripper) *slackpost.Poster {
	opts := []slack.Option{slack.OptionAPIURL(e.slack.APIURL())}
	if rt != nil {
		opts = append(opts, slack.OptionHTTPClient(&http.Client{Transport: rt}))
	}
	return slackpost.New(slack.New("xoxb-test", opts...), e.rdb, slackpost.Options{Pace: -1, Wait: noWait})
}

// daily is a daily delivery at 09:30 whose post names the channel and day,
// with a chart.
func (e *env) daily(compose func(ctx context.Context, s schedule.Slot) (*schedule.Post, error)) schedule.Delivery {
	e.t.Helper()
	sched, err := schedule.Daily("09:30", e.loc)
	if err != nil {
		e.t.Fatal(err)
	}
	if compose == nil {
		compose = func(_ context.Context, s schedule.Slot) (*schedule.Post, error) {
			return &schedule.Post{Text: "prices for " + s.Period + " since " + s.LastPosted,
				File: &slackpost.File{Name: "prices-" + s.Period + ".png", Data: []byte("png")}}, nil
		}
	}
	return schedule.Delivery{Name: "daily", Topic: subscribe.Prices, Schedule: sched, Period: schedule.DayPeriod(e.loc), Compose: compose}
}

// replica is one bot's scheduler.
func (e *env) replica(c *bottest.Clock, p *slackpost.Poster, lockName string, ds ...schedule.Delivery) *schedule.Scheduler {
	if lockName == "" {
		lockName = e.lock
	}
	return schedule.New(e.rdb, c.Now, schedule.Options{Location: e.loc, LockName: lockName, Prefix: e.prefix,
		Poster: p, Subs: e.subs, Deliveries: ds, ClaimTTL: time.Minute, SettleAfter: 2 * time.Minute, SuspendNote: suspendNote})
}

func (e *env) tick(s *schedule.Scheduler) {
	e.t.Helper()
	if err := s.Tick(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// posts counts the messages in a channel that mention period.
func (e *env) posts(channel, period string) int {
	n := 0
	for _, m := range e.slack.Messages(channel) {
		if strings.Contains(m.Text, period) {
			n++
		}
	}
	return n
}

// blockingTransport holds chat.postMessage requests until their context
// ends. With deliver set, the request reaches Slack first, so the message
// is posted and only the answer is lost.
type blockingTransport struct {
	deliver bool
	started chan struct{}
	once    sync.Once
}

func (b *blockingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(r.URL.Path, "/chat.postMessage") {
		return http.DefaultTransport.RoundTrip(r)
	}
	if b.deliver {
		resp, err := http.DefaultTransport.RoundTrip(r.Clone(context.WithoutCancel(r.Context())))
		if err == nil {
			resp.Body.Close()
		}
	}
	b.once.Do(func() { close(b.started) })
	<-r.Context().Done()
	return nil, r.Context().Err()
}
