package main

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/subscribe"
)

// replicaRedis points at database 9 of the real redis-server (make test sets
// REDIS_URL), emptied first, so this test shares nothing with the others.
func replicaRedis(t *testing.T) (string, *redis.Client) {
	t.Helper()
	opt, err := redis.ParseURL(bottest.RealRedisURL(t))
	if err != nil {
		t.Fatal(err)
	}
	opt.DB = 9
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { rdb.FlushDB(context.Background()); rdb.Close() })
	if err := rdb.FlushDB(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	return "redis://" + opt.Addr + "/9", rdb
}

// Three `bot serve` replicas in one process against one real redis-server and
// one fake Slack: an event delivered to all three is answered once, and the
// daily post goes out once; a replica stopped mid-way changes nothing.
func TestThreeReplicasAnswerAndPostOnce(t *testing.T) {
	url, rdb := replicaRedis(t)
	subs := subscribe.New(rdb, subscribe.Options{})
	if err := subs.Put(context.Background(), subscribe.Sub{Team: bottest.TeamID, Channel: "CREPL", Topic: subscribe.Prices, Lang: "en",
		CreatedAt: time.Now().Add(-48 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	fs := bottest.NewSlack(t)
	t.Setenv("SLACK_BOT_TOKEN", "xoxb-test")
	t.Setenv("SLACK_APP_TOKEN", "")
	t.Setenv("SLACK_SIGNING_SECRET", testSecret)
	t.Setenv("SLACK_API_URL", fs.APIURL())
	t.Setenv("HTTP_ADDR", "127.0.0.1:0")
	t.Setenv("REDIS_URL", url)
	t.Setenv("BOT_DATA_DIR", t.TempDir())
	t.Setenv("DAILY_POST_AT", "00:00") // always gone by: every replica tries to catch up at start
	t.Setenv("CATALOG_FILE", "testdata/team.yaml")
	t.Setenv("CATALOG_SKYPILOT", "")

	type replica struct {
		base   string
		cancel context.CancelFunc
		errc   chan error
	}
	var reps []*replica
	for range 3 {
		out := newOutput()
		ctx, cancel := context.WithCancel(context.Background())
		r := &replica{cancel: cancel, errc: make(chan error, 1)}
		go func() { r.errc <- run(ctx, []string{"serve"}, strings.NewReader(""), out, io.Discard) }()
		r.base = out.wait(t, regexp.MustCompile(`serving Slack HTTP on (http://\S+)`), r.errc)
		reps = append(reps, r)
	}
	stop := func(r *replica) {
		r.cancel()
		select {
		case err := <-r.errc:
			if err != nil {
				t.Errorf("replica: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("replica did not stop")
		}
	}
	defer func() {
		for _, r := range reps[1:] {
			stop(r)
		}
	}()

	// The same event (a retry, or Slack delivering to each replica) to all three at once.
	ev := bottest.EventCallback("EvRepl1", bottest.Msg("D1", "im", "U1", "1700000000.000100", "13b lora 要多大显存"))
	var wg sync.WaitGroup
	for _, r := range reps {
		wg.Go(func() {
			resp, err := http.DefaultClient.Do(bottest.SignedRequest(t, r.base+"/slack/events", testSecret, time.Now(), "application/json", ev))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		})
	}
	wg.Wait()

	// The first-DM welcome, the answer and the daily post: three messages
	// in all. Then stop the replicas one by one; a duplicate would show up
	// by the end.
	fs.WaitCalls(t, "chat.postMessage", 3)
	stop(reps[0])
	for _, r := range reps[1:] {
		stop(r)
	}
	reps = reps[:1] // all stopped; nothing left for the deferred stop
	if n := postsTo(fs, "D1"); n != 2 {
		t.Errorf("%d posts to one first DM delivered to three replicas, want 2 (the welcome, the answer)", n)
	}
	if n := postsTo(fs, "CREPL"); n != 1 {
		t.Errorf("%d daily posts from three replicas, want 1", n)
	}
}
