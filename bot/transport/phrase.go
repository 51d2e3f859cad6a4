package transport

import (
	"context"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/phrase"
)

// improver rephrases an answer in the background; *phrase.Phraser is one.
// The template answer is always posted first, so a slow, failing or
// unfaithful model costs the user nothing.
type improver interface {
	Enabled() bool
	Improve(ctx context.Context, in phrase.Input, deliver func(text string)) <-chan struct{}
}

// rephrase asks the model for a friendlier wording of a posted answer and,
// when one passes the number guard in time, hands deliver the replacement
// message: the rephrased text on top, the original figures, context and
// buttons under it. It returns when the attempt is over, so the worker (and
// a graceful shutdown) waits for it.
func (a *App) rephrase(ctx context.Context, ans bot.Answer, rep reply, deliver func(text string, blocks []slack.Block)) {
	if a.cfg.Phraser == nil || !a.cfg.Phraser.Enabled() || ans.Err != "" || ans.Ephemeral {
		return
	}
	facts, essential := phrase.FactsFrom(ans.Text, ans.Result, ans.Slots, ans.Assumed)
	in := phrase.Input{Lang: ans.Lang, Template: ans.Text, Facts: facts, Essential: essential}
	done := a.cfg.Phraser.Improve(ctx, in, func(text string) {
		blocks := append([]slack.Block{slack.NewSectionBlock(mrkdwn(escape(text)), nil, nil)}, withoutHeader(rep.Blocks)...)
		deliver(text, clamp(blocks, maxBlocks))
	})
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// withoutHeader drops a leading header block: the rephrased text replaces it.
func withoutHeader(bs []slack.Block) []slack.Block {
	if len(bs) > 0 && bs[0].BlockType() == slack.MBTHeader {
		return bs[1:]
	}
	return bs
}
