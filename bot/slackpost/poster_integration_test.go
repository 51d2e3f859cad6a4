package slackpost

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
)

func TestPaceAndKeysOnARealRedis(t *testing.T) {
	rdb, _ := bottest.RealRedis(t) // one server, or a Redis Cluster (make test-cluster)
	fs := bottest.NewSlack(t)
	c := newClock()
	api := slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL()))
	a := New(api, rdb, Options{Now: c.Now, Wait: c.Wait})
	b := New(api, rdb, Options{Now: c.Now, Wait: c.Wait})
	nonce := fmt.Sprint(time.Now().UnixNano())
	ch, key := "CINT"+nonce, "int:"+nonce
	defer rdb.Del(context.Background(), "gpubot:pace:"+ch, recordKey(key))

	ctx := context.Background()
	ts1, err := a.Post(ctx, Message{Channel: ch, Text: "x", Key: key})
	if err != nil {
		t.Fatal(err)
	}
	ts2, err := b.Post(ctx, Message{Channel: ch, Text: "x", Key: key}) // the other replica, same key
	if err != nil || ts2 != ts1 {
		t.Errorf("second replica: ts %q err %v, want the first post's %q", ts2, err, ts1)
	}
	if _, err := b.Post(ctx, Message{Channel: ch, Text: "y"}); err != nil {
		t.Fatal(err)
	}
	if n := len(fs.Messages(ch)); n != 2 {
		t.Errorf("%d messages, want 2", n)
	}
	if diff := cmp.Diff([]time.Duration{time.Second}, c.Waits()); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

// TestOutboxOnARealRedis: the outbox's claim script and its two keys (one
// hash tag) on a real Redis, or a Redis Cluster.
func TestOutboxOnARealRedis(t *testing.T) {
	rdb, _ := bottest.RealRedis(t)
	fs := bottest.NewSlack(t)
	c := newClock()
	api := slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL()))
	p := New(api, rdb, Options{Now: c.Now, Wait: c.Wait, Pace: -1, Outbox: true, MaxAttempts: 1})
	nonce := fmt.Sprint(time.Now().UnixNano())
	ch := "COUTBOX" + nonce
	fs.Script("chat.postMessage", bottest.Reply{Status: 429, RetryAfter: 1})
	ctx := context.Background()
	if _, err := p.Post(ctx, Message{Channel: ch, Text: "queued " + nonce, Key: "outbox:" + nonce}); err == nil {
		t.Fatal("Post succeeded with Slack refusing")
	}
	defer rdb.Del(ctx, recordKey("outbox:"+nonce))
	c.Wait(ctx, time.Hour-time.Minute) // due, and still under the hour
	for range 5 {
		p.DrainOutbox(ctx)
		if len(fs.Messages(ch)) > 0 {
			break
		}
	}
	if msgs := fs.Messages(ch); len(msgs) != 1 || msgs[0].Text != "queued "+nonce {
		t.Errorf("channel holds %+v, want the queued message once", msgs)
	}
}
