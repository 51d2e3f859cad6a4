package transport

import (
	"context"
	"fmt"

	"github.com/slack-go/slack"

	budgets "github.com/gpubot/gpubot/bot/budget"
	"github.com/gpubot/gpubot/bot/slackpost"
)

// acknowledge records a click on a budget alert's Acknowledge button
// (Config.Acknowledge) and rewrites the alert in place: the clicked
// alert's button gives way to who acknowledged it, so the channel sees
// one acknowledgement on the alert itself and nobody clicks it again. A
// redelivered click is answered once.
func (a *App) acknowledge(ctx context.Context, cb slack.InteractionCallback, act *slack.BlockAction) {
	if !a.claim(ctx, triggerKey("click", cb.User.ID+":"+act.ActionTs)) {
		return
	}
	if !a.mayManage(ctx, cb.User.ID) {
		r := slackpost.Response{ResponseType: slackpost.Ephemeral, Text: "Only workspace admins and owners (or the bot's admins) can acknowledge a budget alert for everyone. · 只有工作区管理员/所有者（或机器人管理员）可以确认预算提醒。"}
		if err := a.post.Respond(ctx, cb.ResponseURL, r); err != nil {
			a.log.ErrorContext(ctx, "acknowledgement refusal not delivered", "team", cb.Team.ID, "err", err)
		}
		return
	}
	if err := a.cfg.Acknowledge(ctx, cb.Team.ID, act.Value, cb.User.ID); err != nil {
		a.log.ErrorContext(ctx, "budget alert acknowledgement not saved", "team", cb.Team.ID, "alert", act.Value, "err", err)
		r := slackpost.Response{ResponseType: slackpost.Ephemeral, Text: "I couldn't record that just now; please click again in a minute."}
		if err := a.post.Respond(ctx, cb.ResponseURL, r); err != nil {
			a.log.ErrorContext(ctx, "acknowledgement reply not delivered", "team", cb.Team.ID, "err", err)
		}
		return
	}
	r := slackpost.Response{ResponseType: slackpost.InChannel, Text: fmt.Sprintf("✅ <@%s> acknowledged this budget alert.", cb.User.ID)}
	if blocks, text, ok := acknowledged(cb.Message, act.Value, cb.User.ID); ok {
		r = slackpost.Response{ResponseType: slackpost.InChannel, ReplaceOriginal: true, Text: text, Blocks: blocks}
	}
	if err := a.post.Respond(ctx, cb.ResponseURL, r); err != nil {
		a.log.ErrorContext(ctx, "acknowledgement reply not delivered", "team", cb.Team.ID, "err", err)
	}
}

// acknowledged is the alert message with alert id's button replaced by a
// note of who acknowledged it; the other alerts in the same post keep
// their buttons. ok is false when the message Slack sent back holds no
// such button (an old client, a trimmed payload): the caller then replies
// under the alert instead of guessing at its content.
func acknowledged(msg slack.Message, id, user string) (blocks []slack.Block, text string, ok bool) {
	for _, b := range msg.Blocks.BlockSet {
		s, isSection := b.(*slack.SectionBlock)
		if !isSection || s.Accessory == nil || s.Accessory.ButtonElement == nil ||
			s.Accessory.ButtonElement.ActionID != budgets.AckAction || s.Accessory.ButtonElement.Value != id {
			blocks = append(blocks, b)
			continue
		}
		note := fmt.Sprintf("✅ Acknowledged by <@%s>", user)
		if t := s.Accessory.ButtonElement.Text; t != nil && t.Text == "知道了" { // the alert was posted in Chinese
			note = fmt.Sprintf("✅ <@%s> 已确认", user)
		}
		clean := *s
		clean.Accessory = nil
		blocks = append(blocks, &clean, slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, note, false, false)))
		text, ok = msg.Text+"\n"+note, true
	}
	return blocks, text, ok
}

// isAck reports a budget alert's Acknowledge button.
func isAck(act *slack.BlockAction) bool { return act.ActionID == budgets.AckAction }
