package bot

import (
	"context"

	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/thread"
)

// UseThreads makes the bot read a message in a thread (or a DM soon after
// a question) as a follow-up of the conversation's last request when it
// only adds or changes slots ("20k samples", "那 qlora 呢").
func (b *Bot) UseThreads(s *thread.Store) { b.threads = s }

// remember keeps req — as planned, so the next message follows the
// question that was answered ("A800 8卡按量跑一个月多少钱" is priced, and
// "包月呢" asks the price's plan, not a cost's) — as its conversation's
// last request. A store that cannot be written costs the follow-up, never
// the answer.
func (b *Bot) remember(ctx context.Context, m Message, req parse.Request) {
	if b.threads == nil || m.Slash || m.Variant {
		return
	}
	c := thread.Conversation{Team: m.Team, Channel: m.Channel, Thread: m.Thread}
	if err := b.threads.Put(ctx, c, req); err != nil {
		b.log.WarnContext(ctx, "conversation", "err", err)
	}
}

// ParseInContext parses m as Answer would, merged with its conversation's
// last request when it is a follow-up, without recording it: transports
// ask it before deciding to answer (an un-mentioned "20k samples" in a
// thread the bot answered is a follow-up, not a stray low-confidence line).
func (b *Bot) ParseInContext(ctx context.Context, m Message) parse.Request {
	if b.threads == nil || m.Slash {
		return b.Parse(m)
	}
	c := thread.Conversation{Team: m.Team, Channel: m.Channel, Thread: m.Thread}
	prev, ok, err := b.threads.Last(ctx, c)
	if err != nil {
		b.log.WarnContext(ctx, "conversation", "err", err)
	}
	if !ok {
		return b.Parse(m)
	}
	req, _ := b.parser.FollowUp(prev, m.Text, b.now())
	return req
}
