package transport

import (
	"context"
	"time"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/phrase"
)

// improver rephrases an answer in the background; *phrase.Phraser is one.
// The template answer is always posted first, so a slow, failing or
// unfaithful model costs the user nothing.
type improver interface {
	Enabled() bool
	ImproveFunc(ctx context.Context, build func() phrase.Input, deliver func(text string)) <-chan struct{}
}

// rephrase asks the model for a friendlier wording of a posted answer and,
// when one passes the guard in time, hands deliver the replacement message:
// the rephrased text on top, the original figures, context and buttons
// under it. It returns at once: the attempt runs in the phraser's own
// bounded pool (Improve skips it when every slot is taken or its circuit
// breaker is open), so the answer worker is free for the next question
// however slow the model is. deliver gets a context of its own, bounded by
// rephraseDeliverTimeout, since the worker's ends when rephrase returns.
// The attempt counts as in flight (inflight) until it is over.
func (a *App) rephrase(ctx context.Context, ans bot.Answer, rep reply, deliver func(ctx context.Context, text string, blocks []slack.Block)) {
	if a.cfg.Phraser == nil || !a.cfg.Phraser.Enabled() || ans.Err != "" || ans.Ephemeral || a.writes(ans.Intent) {
		// A write's answer is the team's own records or a change to them
		// (a report's ¥200 must not come back as ¥20): never sent to the model.
		return
	}
	build := func() phrase.Input { // in the pool, only if admitted
		// the facts are every number the answer holds; the essential ones
		// are those its intent names as the answer (bot's intent table)
		facts := phrase.FactsFrom(ans.Text, ans.Result, ans.Slots, ans.Assumed)
		essential := phrase.EssentialFrom(ans.Headline, ans.Result, a.row(ans.Intent).Essential)
		return phrase.Input{Lang: ans.Lang, Template: ans.Text, Facts: facts, Essential: essential}
	}
	live := context.WithoutCancel(ctx) // the phraser bounds its own call
	a.inflight.Add(1)
	done := a.cfg.Phraser.ImproveFunc(live, build, func(text string) {
		blocks := append([]slack.Block{slack.NewSectionBlock(mrkdwn(escape(text)), nil, nil)}, withoutHeader(rep.Blocks)...)
		dctx, cancel := context.WithTimeout(live, rephraseDeliverTimeout)
		defer cancel()
		deliver(dctx, text, clamp(blocks, maxBlocks)) // the callers escape the fallback text (present.Fallback)
	})
	go func() {
		<-done
		a.inflight.Done()
	}()
}

// rephraseDeliverTimeout bounds posting a rephrase once it passed the guard.
const rephraseDeliverTimeout = 30 * time.Second

// withoutHeader drops a leading header block: the rephrased text replaces it.
func withoutHeader(bs []slack.Block) []slack.Block {
	if len(bs) > 0 && bs[0].BlockType() == slack.MBTHeader {
		return bs[1:]
	}
	return bs
}
