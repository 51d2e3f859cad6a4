package transport

import (
	"context"
	"fmt"

	"github.com/slack-go/slack"

	budgets "github.com/gpubot/gpubot/bot/budget"
	"github.com/gpubot/gpubot/bot/slackpost"
)

// acknowledge records a click on a budget alert's Acknowledge button
// (Config.Acknowledge) and says who acknowledged it under the alert. A
// redelivered click is answered once.
func (a *App) acknowledge(ctx context.Context, cb slack.InteractionCallback, act *slack.BlockAction) {
	if !a.claim(ctx, triggerKey("click", cb.User.ID+":"+act.ActionTs)) {
		return
	}
	r := slackpost.Response{ResponseType: slackpost.InChannel, Text: fmt.Sprintf("✅ <@%s> acknowledged this budget alert.", cb.User.ID)}
	if err := a.cfg.Acknowledge(ctx, cb.Team.ID, act.Value, cb.User.ID); err != nil {
		a.log.ErrorContext(ctx, "budget alert acknowledgement not saved", "team", cb.Team.ID, "alert", act.Value, "err", err)
		r = slackpost.Response{ResponseType: slackpost.Ephemeral, Text: "I couldn't record that just now; please click again in a minute."}
	}
	if err := a.post.Respond(ctx, cb.ResponseURL, r); err != nil {
		a.log.ErrorContext(ctx, "acknowledgement reply not delivered", "team", cb.Team.ID, "err", err)
	}
}

// isAck reports a budget alert's Acknowledge button.
func isAck(act *slack.BlockAction) bool { return act.ActionID == budgets.AckAction }
