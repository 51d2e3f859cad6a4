package main

import (
	"context"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/subscribe"
	"github.com/gpubot/gpubot/bot/watch"
	"github.com/gpubot/gpubot/knowledge"
)

// App Home said "daily post 09:30" whatever DAILY_POST_AT was.
func TestHomeShowsTheConfiguredPostTimes(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: miniredis.RunT(t).Addr()})
	t.Cleanup(func() { rdb.Close() })
	lines := homeSettings(subscribe.New(rdb, subscribe.Options{}), "Europe/Berlin", "07:45", "11:00")(context.Background(), "T1")
	if len(lines) == 0 || !strings.Contains(lines[0], "daily post 07:45") || !strings.Contains(lines[0], "recap on the 1st at 11:00") ||
		!strings.Contains(lines[0], "Europe/Berlin") || strings.Contains(lines[0], "09:30") {
		t.Errorf("home settings %q, want the configured 07:45 daily post and 11:00 recap", lines)
	}
}

// The Home tab lists a user's own watches with their ids (for the Stop
// buttons) and in words; another user's and another team's are not shown.
func TestHomeListsTheUsersWatches(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: miniredis.RunT(t).Addr()})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	st := watch.NewStore(rdb, "")
	mine, err := st.Add(ctx, watch.Watch{Team: "T1", User: "U1", GPU: "h100-sxm", Mode: watch.Below, Threshold: 2, Currency: "USD"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	st.Add(ctx, watch.Watch{Team: "T1", User: "U2", GPU: "a100-80g", Mode: watch.Below, Threshold: 1, Currency: "USD"}, 0)
	st.Add(ctx, watch.Watch{Team: "T2", User: "U1", GPU: "rtx4090", Mode: watch.Below, Threshold: 1, Currency: "USD"}, 0)
	got, err := homeWatches(st, knowledge.MustShipped())(ctx, "T1", "U1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != mine.ID || !strings.Contains(got[0].Text, "H100") || !strings.Contains(got[0].Text, "$2") {
		t.Errorf("home watches %+v, want only U1's H100 under $2 (#%s)", got, mine.ID)
	}
}
