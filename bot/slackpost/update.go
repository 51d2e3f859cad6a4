package slackpost

import (
	"context"
	"fmt"

	"github.com/slack-go/slack"
)

// Update replaces a posted message's text and blocks (chat.update). Editing
// is idempotent, so every retryable failure is retried, within MaxAttempts;
// refused blocks fall back to the text alone.
func (p *Poster) Update(ctx context.Context, channel, ts, text string, blocks []slack.Block) error {
	if text == "" {
		return fmt.Errorf("update %s/%s: empty text", channel, ts)
	}
	for attempt := 1; ; attempt++ {
		opts := []slack.MsgOption{slack.MsgOptionText(text, false)}
		if len(blocks) > 0 {
			opts = append(opts, slack.MsgOptionBlocks(blocks...))
		}
		_, _, _, err := p.api.UpdateMessageContext(ctx, channel, ts, opts...)
		if err == nil {
			return nil
		}
		p.observe("chat.update", err)
		out, delay := classify(err)
		switch out {
		case notSent:
		case maybeSent:
			delay = p.backoff(attempt)
		case badBlocks:
			blocks, delay = nil, 0
		default:
			return fmt.Errorf("chat.update: %w", err)
		}
		if attempt >= p.opt.MaxAttempts {
			return fmt.Errorf("chat.update: gave up after %d attempts: %w", attempt, err)
		}
		if err := p.pause(ctx, delay); err != nil {
			return err
		}
	}
}
