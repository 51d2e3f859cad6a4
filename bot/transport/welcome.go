package transport

import (
	"context"

	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/bot/slackpost"
)

// welcomeKey marks a user who has been welcomed (their first DM to the
// bot). It has no TTL: it is state, kept by the embedded mode's snapshot
// like the ledger, so a restart never welcomes anyone twice.
func welcomeKey(team, user string) string { return "gpubot:welcomed:" + team + ":" + user }

// welcomeText is the short welcome a user's first DM gets, with three
// questions they can send as they are (each is answered by the bot today;
// docs/commands.md shows their answers).
func welcomeText(lang string) string {
	return tr(lang,
		"👋 Welcome! I'm gpubot: GPU procurement advice with the working shown. Ask me in your own words, for example:\n"+
			"• how much VRAM to serve a 70B with 50 users?\n"+
			"• how much to fine-tune a 7B with LoRA on 100k samples?\n"+
			"• what does 70b inference cost per million tokens on h100?\n"+
			"/gpu help lists every command; your team's settings, budgets and watches are on my Home tab.",
		"👋 你好！我是 gpubot：GPU 选型与采购建议，每个数字都附计算过程。直接用自己的话问我，例如：\n"+
			"• 13B 模型 LoRA 微调要多大显存\n"+
			"• h100 买还是租，利用率七成\n"+
			"• 4090 现在多少钱\n"+
			"/gpu help 查看全部命令；团队的设置、预算和价格提醒在我的「主页」标签里。")
}

// welcome posts the welcome in q's DM if this is the first DM the user
// sent the bot, and reports whether it did. The mark is set before the
// post (SET NX, no TTL), so two first messages at once get one welcome; a
// Redis that cannot answer means no welcome rather than a second one.
func (a *App) welcome(ctx context.Context, q question, lang string) bool {
	if !a.cfg.Welcome || q.kind != direct || q.user == "" {
		return false
	}
	first, err := a.rdb.SetNX(ctx, welcomeKey(q.team, q.user), 1, 0).Result()
	if err != nil {
		a.log.DebugContext(ctx, "welcome not checked", "user", q.user, "err", err)
		return false
	}
	if !first {
		return false
	}
	if a.cfg.Persist != nil {
		if err := a.cfg.Persist(ctx); err != nil {
			a.log.WarnContext(ctx, "welcome mark not persisted", "user", q.user, "err", err)
		}
	}
	raw := welcomeText(lang)
	m := slackpost.Message{Channel: q.channel, ThreadTS: q.thr, Text: present.Escape(raw), Blocks: present.TextBlocks(raw),
		Key: "welcome:" + q.team + ":" + q.user}
	if _, err := a.post.Post(ctx, m); err != nil {
		a.log.WarnContext(ctx, "welcome not posted", "channel", q.channel, "user", q.user, "err", err)
		return false
	}
	return true
}
