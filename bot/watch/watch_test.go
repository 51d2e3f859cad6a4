package watch

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/knowledge"
)

// market is a catalogue the test moves.
type market struct {
	mu     sync.Mutex
	offers []knowledge.Offer
}

func (m *market) set(os ...knowledge.Offer) {
	m.mu.Lock()
	m.offers = os
	m.mu.Unlock()
}

func (m *market) get(context.Context) ([]knowledge.Offer, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]knowledge.Offer(nil), m.offers...), nil
}

func offer(key, platform, gpu string, price float64, cur knowledge.Currency) knowledge.Offer {
	return knowledge.Offer{Key: key, Platform: platform, GPU: gpu, GPUCount: 1, PriceLow: price, PriceHigh: price, Currency: cur,
		Unit: knowledge.PerHour, Basis: knowledge.PerGPU, Model: knowledge.OnDemand, ObservedAt: "2026-12-01T08:00:00Z", Source: "test"}
}

type env struct {
	rdb      *redis.Client
	store    *Store
	slack    *bottest.Slack
	replicas []*Evaluator
	market   *market
	handler  *Handler
	now      time.Time
}

// newEnv is three bot replicas over one Redis and one fake Slack, each
// with its own poster, as three pods would run.
func newEnv(t *testing.T) *env {
	t.Helper()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	e := &env{rdb: rdb, store: NewStore(rdb, ""), slack: bottest.NewSlack(t), market: &market{},
		now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	kb := knowledge.MustShipped()
	for range 3 {
		p := slackpost.New(slack.New("xoxb-test", slack.OptionAPIURL(e.slack.APIURL())), rdb, slackpost.Options{Pace: -1})
		e.replicas = append(e.replicas, &Evaluator{Store: NewStore(rdb, ""), Prices: e.market.get, Post: p, KB: kb, FX: 7.2})
	}
	e.handler = &Handler{Store: e.store, Prices: e.market.get, KB: kb, FX: 7.2, Now: func() time.Time { return e.now }}
	return e
}

// set answers a /gpu watch command as the bot would route it.
func (e *env) set(t *testing.T, text, channel string) bot.Answer {
	t.Helper()
	req := parse.New(knowledge.MustShipped()).Parse(text)
	if len(req.Problems) > 0 {
		t.Fatalf("%q: %+v", text, req.Problems)
	}
	a := bot.Answer{Lang: req.Lang, Slots: req.Slots}
	if err := e.handler.Handle(context.Background(), bot.Message{Text: text, Team: "T1", Channel: channel, User: "U1", Slash: true}, req, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// tick runs the three replicas' evaluations at the same moment.
func (e *env) tick(t *testing.T) {
	t.Helper()
	var wg sync.WaitGroup
	for _, r := range e.replicas {
		wg.Go(func() {
			if err := r.Run(context.Background(), e.now); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

func (e *env) posts(channel string) []string {
	var out []string
	for _, c := range e.slack.Calls("chat.postMessage") {
		if c.Form.Get("channel") == channel {
			out = append(out, c.Form.Get("text"))
		}
	}
	return out
}

func TestBelowFiresOncePerCrossingAcrossReplicas(t *testing.T) {
	e := newEnv(t)
	e.market.set(offer("lambda-h100", "lambda", "h100-sxm", 2.35, knowledge.USD))
	a := e.set(t, "/gpu watch h100 < $2/h", "C1")
	if !strings.Contains(a.Text, "$2.35") || !strings.Contains(a.Text, "under $2") {
		t.Errorf("answer:\n%s", a.Text)
	}
	steps := []struct {
		price float64
		want  int // messages so far
	}{
		{2.10, 0}, // above: nothing
		{1.95, 1}, // first crossing: one message, from one of three replicas
		{1.90, 1}, // still under: no repeat
		{2.20, 1}, // back over: re-armed, silent
		{1.99, 2}, // crosses again
	}
	for _, s := range steps {
		e.market.set(offer("lambda-h100", "lambda", "h100-sxm", s.price, knowledge.USD))
		e.tick(t)
		e.tick(t) // a second round of the same catalogue changes nothing
		if got := e.posts("C1"); len(got) != s.want {
			t.Fatalf("at $%v: %d messages, want %d: %q", s.price, len(got), s.want, got)
		}
	}
	msg := e.posts("C1")[0]
	for _, want := range []string{"#1", "$1.95/card-hour", "Lambda", "under your $2", "/gpu watch off 1"} {
		if !strings.Contains(msg, want) {
			t.Errorf("notification lacks %q: %s", want, msg)
		}
	}
}

func TestNewLowOnAPlatformInChinese(t *testing.T) {
	e := newEnv(t)
	e.market.set(offer("autodl-4090", "autodl", "rtx4090", 1.98, knowledge.CNY), offer("other-4090", "suanjiayun", "rtx4090", 1.2, knowledge.CNY))
	e.set(t, "/gpu watch 4090 @autodl 降价", "D1")
	for _, s := range []struct {
		price float64
		want  int
	}{{1.98, 0}, {1.78, 1}, {1.78, 1}, {1.88, 1}, {1.80, 1}, {1.70, 2}} {
		e.market.set(offer("autodl-4090", "autodl", "rtx4090", s.price, knowledge.CNY), offer("other-4090", "suanjiayun", "rtx4090", 1.2, knowledge.CNY))
		e.tick(t)
		if got := e.posts("D1"); len(got) != s.want {
			t.Fatalf("at ¥%v: %d messages, want %d: %q", s.price, len(got), s.want, got)
		}
	}
	if msg := e.posts("D1")[0]; !strings.Contains(msg, "创新低") || !strings.Contains(msg, "¥1.78") || !strings.Contains(msg, "AutoDL") {
		t.Errorf("notification: %s", msg)
	}
}

func TestFailedPostIsRetriedOnce(t *testing.T) {
	e := newEnv(t)
	e.market.set(offer("lambda-h100", "lambda", "h100-sxm", 2.35, knowledge.USD))
	e.set(t, "/gpu watch h100 < $2/h", "C1")
	e.slack.Script("chat.postMessage", bottest.Reply{Body: `{"ok":false,"error":"channel_not_found"}`})
	e.market.set(offer("lambda-h100", "lambda", "h100-sxm", 1.95, knowledge.USD))
	e.replicas[0].Run(context.Background(), e.now) // Slack refuses: the crossing stays pending
	e.tick(t)
	if got := e.posts("C1"); len(got) != 2 { // the refused call, then exactly one retry
		t.Fatalf("%d calls, want the refused one and one retry: %q", len(got), got)
	}
	e.tick(t)
	if got := e.posts("C1"); len(got) != 2 {
		t.Errorf("posted again after the retry: %d", len(got))
	}
}

func TestListAndOff(t *testing.T) {
	e := newEnv(t)
	e.market.set(offer("lambda-h100", "lambda", "h100-sxm", 2.35, knowledge.USD))
	e.set(t, "/gpu watch h100 < $2/h", "C1")
	e.set(t, "/gpu watch 4090 @autodl 降价", "C1")
	if a := e.set(t, "/gpu watch list", "C1"); !strings.Contains(a.Text, "#1") || !strings.Contains(a.Text, "#2") {
		t.Errorf("list:\n%s", a.Text)
	}
	e.set(t, "/gpu watch off 1", "C1")
	mine, _ := e.store.Of(context.Background(), "T1", "U1")
	if len(mine) != 1 || mine[0].ID != "2" {
		t.Errorf("after off 1: %+v", mine)
	}
	// A removed watch never fires.
	e.market.set(offer("lambda-h100", "lambda", "h100-sxm", 1.5, knowledge.USD))
	e.tick(t)
	if got := e.posts("C1"); len(got) != 0 {
		t.Errorf("removed watch fired: %q", got)
	}
}
