package slackpost

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
)

type outboxFixture struct {
	*fixture
	mu     sync.Mutex
	events []string
}

func (f *outboxFixture) Events() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.events...)
}

func newOutboxFixture(t *testing.T) *outboxFixture {
	t.Helper()
	fs := bottest.NewSlack(t)
	rdb := redis.NewClient(&redis.Options{Addr: miniredis.RunT(t).Addr()})
	t.Cleanup(func() { rdb.Close() })
	c := newClock()
	api := slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL()))
	f := &outboxFixture{}
	f.fixture = &fixture{slack: fs, rdb: rdb, clock: c, p: New(api, rdb, Options{Now: c.Now, Wait: c.Wait, Pace: -1,
		Outbox: true, OnOutbox: func(e string) { f.mu.Lock(); f.events = append(f.events, e); f.mu.Unlock() }})}
	return f
}

func fails(n int, r bottest.Reply) []bottest.Reply {
	out := make([]bottest.Reply, n)
	for i := range out {
		out[i] = r
	}
	return out
}

// TestOutboxDeliversAMessageAfterAnOutage: Slack refuses every try of a
// Post (429s past MaxAttempts), so the answer goes to the outbox; once Slack
// is back, the next pass posts it once, with its key, and the outbox is
// empty. A redelivery of the same event meanwhile posts nothing.
func TestOutboxDeliversAMessageAfterAnOutage(t *testing.T) {
	f := newOutboxFixture(t)
	f.slack.Script("chat.postMessage", fails(4, bottest.Reply{Status: 429, RetryAfter: 1})...)
	_, err := f.p.Post(context.Background(), Message{Channel: "C1", ThreadTS: "1.1", Text: "13B LoRA: 41.13 GB", Key: "answer:T:C1:1.1",
		Blocks: []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "13B LoRA: *41.13 GB*", false, false), nil, nil)}})
	if !errors.Is(err, ErrQueued) {
		t.Fatalf("Post = %v, want ErrQueued", err)
	}
	if n := f.p.OutboxLen(context.Background()); n != 1 {
		t.Fatalf("outbox holds %d, want 1", n)
	}
	if _, err := f.p.Post(context.Background(), Message{Channel: "C1", Text: "again", Key: "answer:T:C1:1.1"}); !errors.Is(err, ErrDuplicate) {
		t.Errorf("a redelivery while queued: %v, want ErrDuplicate", err)
	}
	if n := f.p.DrainOutbox(context.Background()); n != 0 {
		t.Errorf("delivered %d before it was due", n)
	}
	f.clock.Wait(context.Background(), time.Minute)
	if n := f.p.DrainOutbox(context.Background()); n != 1 {
		t.Fatalf("delivered %d once due, want 1", n)
	}
	msgs := f.slack.Messages("C1")
	if len(msgs) != 1 || msgs[0].Text != "13B LoRA: 41.13 GB" || msgs[0].ThreadTS != "1.1" {
		t.Fatalf("channel holds %+v, want the answer once in its thread", msgs)
	}
	if got := f.slack.Calls("chat.postMessage"); len(got) != 5 || got[4].Form.Get("blocks") == "" {
		t.Errorf("%d chat.postMessage calls (want 4 refused + 1), blocks %q", len(got), got[len(got)-1].Form.Get("blocks"))
	}
	if n := f.p.OutboxLen(context.Background()); n != 0 {
		t.Errorf("outbox holds %d after delivery", n)
	}
	if ts, err := f.p.Post(context.Background(), Message{Channel: "C1", Text: "again", Key: "answer:T:C1:1.1"}); err != nil || ts != msgs[0].TS {
		t.Errorf("a redelivery after: ts %q err %v, want the delivered message's %q", ts, err, msgs[0].TS)
	}
	if got, want := f.Events(), []string{OutboxQueued, OutboxDelivered}; !equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
}

// TestOutboxChecksBeforeReposting: the outage's last try got a 500 after
// Slack had stored the message; the outbox finds it by its key and posts
// nothing more.
func TestOutboxChecksBeforeReposting(t *testing.T) {
	f := newOutboxFixture(t)
	f.slack.Script("chat.postMessage", bottest.Reply{Status: 500, Posted: true})
	f.slack.Script("conversations.history", fails(1, bottest.Reply{Status: 500})...)
	if _, err := f.p.Post(context.Background(), Message{Channel: "C1", Text: "hello", Key: "k"}); !errors.Is(err, ErrQueued) {
		t.Fatalf("Post = %v, want ErrQueued (the check failed)", err)
	}
	f.clock.Wait(context.Background(), time.Minute)
	f.p.DrainOutbox(context.Background())
	if msgs := f.slack.Messages("C1"); len(msgs) != 1 {
		t.Errorf("channel holds %d messages, want the first one only", len(msgs))
	}
	if n := f.p.OutboxLen(context.Background()); n != 0 {
		t.Errorf("outbox holds %d", n)
	}
}

// TestOutboxGivesUpAfterAnHour: Slack stays down; the item is retried with
// a growing pause and dropped once an hour old, logged and counted.
func TestOutboxGivesUpAfterAnHour(t *testing.T) {
	f := newOutboxFixture(t)
	f.slack.Script("chat.postMessage", fails(1000, bottest.Reply{Status: 503})...)
	f.slack.Script("conversations.history", fails(1000, bottest.Reply{Status: 503})...)
	f.p.opt.MaxAttempts = 1
	if _, err := f.p.Post(context.Background(), Message{Channel: "C1", Text: "hello", Key: "k"}); !errors.Is(err, ErrQueued) {
		t.Fatalf("Post = %v, want ErrQueued", err)
	}
	tries := 0
	for range 200 {
		f.clock.Wait(context.Background(), time.Minute)
		f.p.DrainOutbox(context.Background())
		if f.p.OutboxLen(context.Background()) == 0 {
			break
		}
		tries++
	}
	ev := f.Events()
	if len(ev) == 0 || ev[len(ev)-1] != OutboxDropped {
		t.Fatalf("events %v, want it dropped at the end", ev)
	}
	// 30 s, 1, 2, 4, 8, 10, 10 … minutes: about a dozen passes in an hour, not one a minute.
	if calls := len(f.slack.Calls("conversations.history")); calls < 6 || calls > 14 {
		t.Errorf("%d retries in the hour, want a backoff's 6–14", calls)
	}
	if tries < 55 || tries > 65 {
		t.Errorf("dropped after %d minutes, want about 60", tries)
	}
}

// TestOutboxResponseURL: a slash answer whose response_url Slack refuses
// for a while is queued and posted later; a refusal for good (expired_url)
// is not queued; a replacement is never queued.
func TestOutboxResponseURL(t *testing.T) {
	f := newOutboxFixture(t)
	f.slack.Script(bottest.ResponseURLMethod, bottest.Reply{Status: 503})
	err := f.p.Respond(context.Background(), f.slack.ResponseURL("r1"), Response{ResponseType: InChannel, Text: "13B LoRA: 41.13 GB"})
	if !errors.Is(err, ErrQueued) {
		t.Fatalf("Respond = %v, want ErrQueued", err)
	}
	f.clock.Wait(context.Background(), time.Minute)
	if n := f.p.DrainOutbox(context.Background()); n != 1 {
		t.Fatalf("delivered %d, want 1", n)
	}
	calls := f.slack.Calls(bottest.ResponseURLMethod)
	if len(calls) != 2 || calls[1].JSON(t)["text"] != "13B LoRA: 41.13 GB" || calls[1].JSON(t)["response_type"] != InChannel {
		t.Errorf("response_url calls %d, last %s", len(calls), calls[len(calls)-1].Body)
	}

	f.slack.Script(bottest.ResponseURLMethod, bottest.Reply{Status: 404, Body: `{"ok":false,"error":"expired_url"}`})
	if err := f.p.Respond(context.Background(), f.slack.ResponseURL("r2"), Response{Text: "x"}); err == nil || errors.Is(err, ErrQueued) {
		t.Errorf("expired_url: %v, want a plain error", err)
	}
	f.slack.Script(bottest.ResponseURLMethod, fails(4, bottest.Reply{Status: 503})...)
	if err := f.p.Respond(context.Background(), f.slack.ResponseURL("r3"), Response{ReplaceOriginal: true, Text: "x"}); err == nil || errors.Is(err, ErrQueued) {
		t.Errorf("replace_original: %v, want a plain error", err)
	}
	if n := f.p.OutboxLen(context.Background()); n != 0 {
		t.Errorf("outbox holds %d", n)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
