package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/bot/subscribe"
	"github.com/gpubot/gpubot/bot/transport"
	"github.com/gpubot/gpubot/bot/watch"
	"github.com/gpubot/gpubot/knowledge"
)

// homeWatches lists a user's price watches for the App Home tab, each
// with its id (for its Stop button) and what it watches in words.
func homeWatches(st *watch.Store, kb *knowledge.Base) func(ctx context.Context, team, user string) ([]transport.HomeWatch, error) {
	return func(ctx context.Context, team, user string) ([]transport.HomeWatch, error) {
		mine, err := st.Of(ctx, team, user)
		if err != nil {
			return nil, err
		}
		out := make([]transport.HomeWatch, len(mine))
		for i, w := range mine {
			out[i] = transport.HomeWatch{ID: w.ID, Text: watch.What(w, kb)}
		}
		return out, nil
	}
}

// homeSettings lists a team's settings for the App Home tab: its time zone,
// when the scheduled posts go out (DAILY_POST_AT, RECAP_POST_AT) and the
// channels subscribed to each, as escaped mrkdwn (channel ids come from
// Slack and become <#C…> links).
func homeSettings(subs *subscribe.Store, tz, dailyAt, recapAt string) func(ctx context.Context, team string) []string {
	return func(ctx context.Context, team string) []string {
		lines := []string{present.Escape(fmt.Sprintf("Time zone: %s (daily post %s, recap on the 1st at %s) · 时区：%s（每日推送 %s，每月 1 日 %s 发月度回顾）",
			tz, dailyAt, recapAt, tz, dailyAt, recapAt))}
		for _, t := range subscribe.Topics {
			all, err := subs.All(ctx, t)
			if err != nil {
				continue // the tab still shows the rest
			}
			var chans []string
			for _, s := range all {
				if s.Team == team {
					chans = append(chans, "<#"+present.Escape(s.Channel)+">")
				}
			}
			if len(chans) == 0 {
				chans = []string{present.Escape("none yet (/gpu subscribe " + string(t) + " in a channel) · 暂无")}
			}
			lines = append(lines, fmt.Sprintf("Subscribed to %s · 订阅 %s: %s", t, t, strings.Join(chans, ", ")))
		}
		return lines
	}
}
