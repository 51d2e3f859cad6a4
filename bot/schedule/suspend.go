package schedule

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/subscribe"
)

// notInChannel reports whether Slack refused a post because the bot is not
// in the channel (removed, or never invited to a private one).
func notInChannel(err error) bool {
	if err == nil {
		return false
	}
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		return se.Err == "not_in_channel" || se.Err == "channel_not_found"
	}
	return strings.Contains(err.Error(), "not_in_channel")
}

// suspend removes a subscription the bot cannot deliver and tells the user
// who made it, in a DM, how to restore it. The note's key makes it go out
// once however many replicas or ticks see the failure.
func (s *Scheduler) suspend(ctx context.Context, log *slog.Logger, sub subscribe.Sub, topic subscribe.Topic) {
	if _, err := s.opt.Subs.Delete(ctx, sub.Team, sub.Channel, topic); err != nil {
		log.ErrorContext(ctx, "suspend undeliverable subscription", "err", err)
		return
	}
	log.WarnContext(ctx, "bot not in channel: subscription suspended")
	if sub.By == "" {
		return
	}
	lang := present.LangOf(sub.Lang)
	text := lang.Pick(
		"I could not post the "+string(topic)+" subscription in <#"+sub.Channel+"> because I'm not a member there, so I stopped it. To restore it: /invite @gpubot in that channel, then /gpu subscribe "+string(topic)+" again.",
		"我不在 <#"+sub.Channel+"> 频道里，无法推送 "+string(topic)+" 订阅，已暂停。恢复方法：在该频道 /invite @gpubot，然后重新 /gpu subscribe "+string(topic)+"。")
	m := slackpost.Message{Channel: sub.By, Text: text, Blocks: []slack.Block{present.Section(text)}, // our words, a Slack channel id and a topic name: nothing to escape
		Key: "suspended:" + sub.Team + ":" + sub.Channel + ":" + string(topic)}
	if _, err := s.opt.Poster.Post(ctx, m); err != nil && !errors.Is(err, slackpost.ErrDuplicate) {
		log.WarnContext(ctx, "suspension note not delivered", "user", sub.By, "err", err)
	}
}
