package main

import (
	"context"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/subscribe"
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
