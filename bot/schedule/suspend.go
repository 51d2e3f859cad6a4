package schedule

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"

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
// who made it, in a DM, how to restore it (Options.SuspendNote's words).
// The note's key makes it go out once however many replicas or ticks see
// the failure.
func (s *Scheduler) suspend(ctx context.Context, log *slog.Logger, sub subscribe.Sub, topic subscribe.Topic) {
	if _, err := s.opt.Subs.Delete(ctx, sub.Team, sub.Channel, topic); err != nil {
		log.ErrorContext(ctx, "suspend undeliverable subscription", "err", err)
		return
	}
	log.WarnContext(ctx, "bot not in channel: subscription suspended")
	if sub.By == "" {
		return
	}
	if s.opt.SuspendNote == nil {
		return
	}
	text, blocks := s.opt.SuspendNote(sub, topic)
	m := slackpost.Message{Channel: sub.By, Text: text, Blocks: blocks,
		Key: "suspended:" + sub.Team + ":" + sub.Channel + ":" + string(topic)}
	if _, err := s.opt.Poster.Post(ctx, m); err != nil && !errors.Is(err, slackpost.ErrDuplicate) {
		log.WarnContext(ctx, "suspension note not delivered", "user", sub.By, "err", err)
	}
}
