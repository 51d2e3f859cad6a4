package transport

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/slackpost"
)

// Two replicas behind Slack's load balancer get the same event (a retry
// lands on the other one): one reply.
func TestReplicasOnOneRedisReplyOnce(t *testing.T) {
	rdb, _ := bottest.RealRedis(t) // one server, or a Redis Cluster (make test-cluster)
	fs := bottest.NewSlack(t)
	api := slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL()))
	nonce := fmt.Sprint(time.Now().UnixNano())
	var servers []*httptest.Server
	var apps []*App
	for range 2 {
		app := New(Config{SigningSecret: secret, BotUserID: bottest.BotUserID}, &fakeBot{}, rdb,
			slackpost.New(api, rdb, slackpost.Options{Pace: -1}), slog.New(slog.DiscardHandler))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { app.Run(ctx); close(done) }()
		t.Cleanup(func() { cancel(); <-done })
		srv := httptest.NewServer(app.Handler())
		t.Cleanup(srv.Close)
		servers, apps = append(servers, srv), append(apps, app)
	}
	ts := "1700000000." + nonce[len(nonce)-6:]
	channel := "CINT" + nonce
	body := bottest.EventCallback("EvInt"+nonce, bottest.Mention(channel, "U1", ts, "<@UBOT> fit 13b lora"))
	for _, srv := range servers {
		h := &harness{srv: srv}
		if got := h.send(t, "/slack/events", jsonType, body); got.status != 200 {
			t.Fatalf("status %d", got.status)
		}
	}
	for _, app := range apps {
		app.inflight.Wait()
	}
	t.Cleanup(func() {
		rdb.Del(context.Background(), "gpubot:seen:"+eventKey("EvInt"+nonce), "gpubot:seen:"+messageKey(bottest.TeamID, channel, ts),
			"gpubot:post:answer:"+bottest.TeamID+":"+channel+":"+ts)
	})
	if n := len(fs.Calls("chat.postMessage")); n != 1 {
		t.Errorf("chat.postMessage called %d times across two replicas, want 1", n)
	}
	if ttl := rdb.TTL(context.Background(), "gpubot:seen:"+eventKey("EvInt"+nonce)).Val(); ttl <= 0 || ttl > 24*time.Hour {
		t.Errorf("event key TTL %v, want within (0, 24h]", ttl)
	}
}
