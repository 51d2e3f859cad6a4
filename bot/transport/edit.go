package transport

import (
	"context"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/bot/slackpost"
)

// replyKey is the idempotency key of the bot's reply to a message
// (handleEvent); slackpost remembers the reply's ts under it for a day.
func replyKey(team, channel, ts string) string { return "answer:" + team + ":" + channel + ":" + ts }

// edited answers a message_changed event: when the bot answered the
// message (its reply is still known, slackpost.Poster.Posted: 24 hours)
// and the text changed, the question is answered again and the bot's reply
// is updated in place (chat.update), marked as updated. A write — the
// edited text or the original one (a spend entry, a budget, a watch) — is
// never re-run by an edit: what was booked stays booked, and the asker is
// told how to change it. It reports whether ev was an edit.
func (a *App) edited(ctx context.Context, ev slackevents.EventsAPIEvent, eventID string) bool {
	e, ok := ev.InnerEvent.Data.(*slackevents.MessageEvent)
	if !ok || e.SubType != "message_changed" {
		return false
	}
	now, prev := e.Message, e.PreviousMessage
	if now == nil || prev == nil || now.User == "" || now.BotID != "" || now.User == a.cfg.BotUserID || e.Channel == "" || now.Timestamp == "" {
		return true
	}
	text, before := plainText(now.Text), plainText(prev.Text)
	if text == before || text == "" {
		return true // an unfurl or an attachment changed, not the question
	}
	team := ev.TeamID
	replyTS := a.post.Posted(ctx, replyKey(team, e.Channel, now.Timestamp))
	if replyTS == "" {
		return true // not a message the bot answered (or over a day ago)
	}
	editTS := now.Timestamp
	if now.Edited != nil {
		editTS = now.Edited.Timestamp
	}
	if (eventID != "" && !a.claim(ctx, eventKey(eventID))) || !a.claim(ctx, "edit:"+team+":"+e.Channel+":"+now.Timestamp+":"+editTS) {
		return true
	}
	thr := now.ThreadTimestamp
	if thr == "" && !strings.HasPrefix(e.Channel, "D") && e.ChannelType != "im" {
		thr = now.Timestamp // channels are answered in the question's thread
	}
	msg := bot.Message{Text: text, Team: team, Channel: e.Channel, User: now.User, Thread: thr,
		ID: "edit:" + e.Channel + ":" + now.Timestamp + ":" + editTS}
	msg.Locale = a.locale(ctx, team, now.User, text)
	lang := askerLang(text, msg.Locale)
	onPanic(ctx, lang, func(ctx context.Context, a *App, text string) {
		m := slackpost.Message{Channel: e.Channel, ThreadTS: thr, Text: text, Key: "crash:" + msg.ID}
		if _, err := a.post.Post(ctx, m); err != nil {
			a.log.ErrorContext(ctx, "crash not reported to the asker", "channel", e.Channel, "err", err)
		}
	})
	old := msg
	old.Text = before
	req := a.bot.ParseInContext(ctx, msg)
	if a.writes(req.Intent) || a.writes(a.bot.Parse(old).Intent) {
		raw := tr(lang,
			"✏️ I saw your edit but did not run it again: an edit never changes the ledger, a budget or a watch. What the first message did stands; to change it, send the new version as a new message (for a spend entry: /gpu spend undo, or /gpu spend delete <id>, first).",
			"✏️ 看到你修改了消息，但我不会按修改重新执行：编辑消息从不改动账本、预算或价格提醒，原消息的操作保持不变。如需更改，请把新内容作为一条新消息发送（记账可先用 /gpu spend undo 或 /gpu spend delete <编号> 撤销）。")
		m := slackpost.Message{Channel: e.Channel, ThreadTS: thr, Text: present.Escape(raw), Blocks: present.TextBlocks(raw), Key: "edit-refused:" + msg.ID}
		if _, err := a.post.Post(ctx, m); err != nil {
			a.log.WarnContext(ctx, "edit refusal not posted", "channel", e.Channel, "err", err)
		}
		return true
	}
	st := state{Q: text, Asker: now.User}
	ans, unsure := a.bot.Clarify(msg, req)
	if !unsure {
		ans = a.bot.Answer(ctx, msg)
		st.Key = a.remember(ctx, st, msg, &ans)
	}
	rep := compose(ans, st, false)
	note := present.Context(present.Escape(tr(lang, "✏️ Updated for your edited question", "✏️ 已按你修改后的问题更新")))
	blocks := present.Limit(append([]slack.Block{note}, rep.Blocks...), 0)
	// A rephrase of the first answer still on its way must not put it back.
	a.markReplaced(ctx, postedAnswerID(e.Channel, replyTS))
	if err := a.post.Update(ctx, e.Channel, replyTS, rep.Text, blocks); err != nil {
		a.log.ErrorContext(ctx, "answer to an edited question not updated", "channel", e.Channel, "ts", replyTS, "err", err)
	}
	return true
}
