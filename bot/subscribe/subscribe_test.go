package subscribe_test

import (
	"context"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/subscribe"
)

// One record that does not decode must not stop every channel's post: All
// returns the good ones and names the bad one in its error.
func TestAllSkipsAnUndecodableRecord(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: miniredis.RunT(t).Addr()})
	t.Cleanup(func() { rdb.Close() })
	st := subscribe.New(rdb, subscribe.Options{})
	ctx := context.Background()
	if err := st.Put(ctx, subscribe.Sub{Team: "T1", Channel: "C1", Topic: subscribe.Prices, Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	rdb.HSet(ctx, "gpubot:sub:prices", "T1:CBAD", "{not json")
	subs, err := st.All(ctx, subscribe.Prices)
	if err == nil || len(subs) != 1 || subs[0].Channel != "C1" {
		t.Errorf("All = %+v, %v; want C1 and an error naming T1:CBAD", subs, err)
	}
}

// The store refuses what the scheduler could not deliver to.
func TestPutRefusesAnUnknownTopicOrNoChannel(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: miniredis.RunT(t).Addr()})
	t.Cleanup(func() { rdb.Close() })
	st := subscribe.New(rdb, subscribe.Options{})
	if err := st.Put(context.Background(), subscribe.Sub{Team: "T1", Channel: "C1", Topic: "weather"}); err == nil {
		t.Error("Put accepted topic \"weather\"")
	}
	if err := st.Put(context.Background(), subscribe.Sub{Team: "T1", Topic: subscribe.Recap}); err == nil {
		t.Error("Put accepted a subscription with no channel")
	}
}
