package slackpost

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
)

func TestPaceAndKeysOnARealRedis(t *testing.T) {
	u := os.Getenv("REDIS_URL")
	if u == "" {
		t.Skip("REDIS_URL not set; make test runs this against a real redis-server")
	}
	opt, err := redis.ParseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	defer rdb.Close()
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
