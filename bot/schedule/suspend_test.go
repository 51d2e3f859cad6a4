package schedule_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/subscribe"
)

// A subscription in a channel the bot is not in failed every tick forever.
// Now the first not_in_channel suspends it and tells its admin once.
func TestNotInChannelSuspendsTheSubscriptionAndTellsTheAdminOnce(t *testing.T) {
	e := newEnv(t)
	day := time.Date(2026, 10, 9, 0, 0, 0, 0, e.loc)
	if err := e.subs.Put(context.Background(), subscribe.Sub{Team: e.team, Channel: "CGONE", Topic: subscribe.Prices, Lang: "en", By: "UADMIN", CreatedAt: day.AddDate(0, 0, -1)}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		e.slack.Script("chat.postMessage", bottest.Reply{Body: `{"ok":false,"error":"not_in_channel"}`})
	}
	c := bottest.NewClock(day.Add(9*time.Hour + 31*time.Minute))
	r := e.replica(c, e.poster(nil), "", e.daily(nil))
	for i := range 3 {
		c.Set(day.Add(9*time.Hour + time.Duration(31+i)*time.Minute))
		e.tick(r)
	}
	if subs, _ := e.subs.Channel(context.Background(), e.team, "CGONE"); len(subs) != 0 {
		t.Errorf("subscription still active after not_in_channel: %v", subs)
	}
	var notes int
	for _, call := range e.slack.Calls("chat.postMessage") {
		if call.Form.Get("channel") == "UADMIN" {
			notes++
			if got, want := call.Form.Get("text"), "stopped prices in CGONE"; got != want {
				t.Errorf("the note reads %q, want Options.SuspendNote's %q", got, want)
			}
		}
	}
	if notes != 1 {
		t.Errorf("%d notes to the admin, want exactly 1", notes)
	}
	if n := len(e.slack.Calls("chat.postMessage")); n > 2 {
		t.Errorf("%d chat.postMessage calls; the channel was retried after it was suspended", n)
	}
}
