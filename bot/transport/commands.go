package transport

// What the bot answers, whichever transport brought it:
//
//	/gpu <anything>          slash: ack now, answer via response_url, only
//	                         to the asker, with "Share in channel"
//	/gpu listen on|off       slash: opt this channel in or out of unprompted answers
//	app_mention              answer in the question's thread (errors too: a
//	                         reply there is seen, an ephemeral one may not be)
//	message.im               answer inline (in the DM's thread if asked in one);
//	                         a mention or DM the router is unsure of gets its
//	                         two likeliest readings as buttons (bot.Clarify)
//	message.channels|groups  answer in thread: a read-only follow-up in a
//	                         thread the bot answered; otherwise only in opted-in
//	                         channels, only confident procurement questions
//	block_actions gpubot.*   working/more: the stored answer's view, to the
//	                         clicker only; currency/8-bit: the stored variant
//	                         (family.go), replacing the message for the asker
//	                         and as a private copy for anyone else; share: post
//	                         the stored answer in the channel through the click's
//	                         response_url (in_channel), "asked by @user";
//	                         ask: a clarifying question's reading, answered
//	                         like currency (replacing it for the asker)
//
// HTTP: POST /slack/commands, /slack/events, /slack/interactive (http.go).
// Socket Mode: slash_commands, events_api, interactive envelopes (socket.go).

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/knowledge"
)

// ack is the immediate answer to a slash command.
type ack struct {
	ResponseType string `json:"response_type"`
	Text         string `json:"text"`
}

// slash queues a /gpu command and returns the note to acknowledge it with.
// The answer waits for ready to close, so it never arrives before the ack.
func (a *App) slash(cmd slack.SlashCommand, ready <-chan struct{}) ack {
	lang := parse.Lang(cmd.Text)
	ok := a.enqueue("slash", "", func(ctx context.Context) { a.answerSlash(ctx, cmd, ready) })
	if !ok {
		return ack{slackpost.Ephemeral, tr(lang, "I'm swamped right now; please try again in a minute.", "我现在太忙了，请一分钟后再试。")}
	}
	q := clip(strings.TrimSpace(cmd.Text), 200)
	return ack{slackpost.Ephemeral, escape(tr(lang, "⏳ Working on: /gpu "+q, "⏳ 正在计算：/gpu "+q))}
}

func (a *App) answerSlash(ctx context.Context, cmd slack.SlashCommand, ready <-chan struct{}) {
	if cmd.TriggerID != "" && !a.claim(ctx, triggerKey("slash", cmd.TriggerID)) {
		return // a Socket Mode redelivery of a command already answered
	}
	// What the answer says later (a ledger write's settled outcome) goes
	// through the command's response_url (slackpost.Poster.Tell).
	ctx = slackpost.WithResponseURL(ctx, cmd.ResponseURL)
	onPanic(ctx, askerLang(cmd.Text, a.locale(ctx, cmd.TeamID, cmd.UserID, cmd.Text)), func(ctx context.Context, a *App, text string) {
		r := slackpost.Response{ResponseType: slackpost.Ephemeral, ReplaceOriginal: true, ReplacesAck: true, Text: text}
		if err := a.post.Respond(ctx, cmd.ResponseURL, r); err != nil {
			a.log.ErrorContext(ctx, "crash not reported to the asker", "channel", cmd.ChannelID, "err", err)
		}
	})
	var r slackpost.Response
	var ans bot.Answer
	var rep reply
	var st state
	arg, listen := listenCommand(cmd.Text)
	if !listen {
		st = state{Q: strings.TrimSpace(cmd.Text), Slash: true, Asker: cmd.UserID}
		msg := a.messageFor(ctx, st, cmd.TeamID, cmd.ChannelID, cmd.UserID)
		msg.ID = "slash:" + cmd.TriggerID
		ans = a.bot.Answer(ctx, msg)
		if ans.Intent == parse.Listen {
			// The router's reading of /gpu listen (odd spellings the
			// word check above misses); one parse serves both.
			arg, listen, ans = strings.ToLower(ans.Slots.Mode), true, bot.Answer{}
		} else {
			// Slash answers go to the asker alone (Slack shows no asker
			// on a bot's channel post); Share posts them with a name.
			st.Key = a.remember(ctx, st, msg, &ans)
			rep = compose(ans, st, true)
			r = slackpost.Response{ResponseType: slackpost.Ephemeral, Text: rep.Text, Blocks: rep.Blocks}
			if a.row(ans.Intent).Public && !ans.Ephemeral {
				// Meant for the channel: everyone should know what it will get.
				r.ResponseType = slackpost.InChannel
			}
		}
	}
	if listen {
		r = a.listen(ctx, cmd, arg)
	}
	after(ctx, ready)
	// One message per command: a private answer takes the place of the
	// "⏳ Working on…" note; one for the channel (Slack does not turn an
	// ephemeral message into a channel one) removes the note first.
	if r.ResponseType == slackpost.InChannel {
		if err := a.post.Respond(ctx, cmd.ResponseURL, slackpost.Response{DeleteOriginal: true}); err != nil {
			a.log.WarnContext(ctx, "working note not removed", "channel", cmd.ChannelID, "err", err)
		}
	} else {
		r.ReplaceOriginal, r.ReplacesAck = true, true
	}
	if err := a.post.Respond(ctx, cmd.ResponseURL, r); err != nil {
		a.log.ErrorContext(ctx, "slash answer not delivered", "team", cmd.TeamID, "channel", cmd.ChannelID, "user", cmd.UserID, "err", err)
		return
	}
	if ans.Text != "" {
		a.rephrase(ctx, ans, rep, func(ctx context.Context, text string, blocks []slack.Block) {
			if a.replaced(ctx, slashAnswerID(st.Key, cmd.UserID)) {
				return // a button replaced the answer: the rephrase would revert it
			}
			up := slackpost.Response{ResponseType: r.ResponseType, ReplaceOriginal: true, Text: present.Fallback(present.LangOf(ans.Lang), text), Blocks: blocks}
			if err := a.post.Respond(ctx, cmd.ResponseURL, up); err != nil {
				a.log.WarnContext(ctx, "rephrased answer not applied", "channel", cmd.ChannelID, "err", err)
			}
		})
	}
}

// ListenRow is the intent table's row for /gpu listen, which the
// transport answers itself (a channel's opt-in is the transport's state).
// Its words are the lexicon's (intents: listen).
func ListenRow() intent.Row {
	w := knowledge.MustLexicon().Intents[string(parse.Listen)]
	return intent.Row{ID: parse.Listen, Words: w.Words, Sub: w.Sub, Example: "/gpu listen on", Writes: true,
		Help: "answer GPU questions here without a mention", HelpZH: "本频道无需 @ 也回答 GPU 问题"}
}

// listenCommand recognises "listen [on|off|status]" and "监听 [开|关]" by
// the listen row's words, without asking the router, and returns the mode
// (on, off, status; "" when none was said; the word itself when it is
// none of them); answerSlash also takes the router's Listen intent.
func listenCommand(text string) (string, bool) {
	row := ListenRow()
	f := strings.Fields(strings.ToLower(text))
	if len(f) == 0 || !slices.Contains(row.Words, f[0]) {
		return "", false
	}
	if len(f) == 1 {
		return "", true
	}
	for mode, words := range row.Sub {
		if slices.Contains(words, f[1]) {
			return mode, true
		}
	}
	return f[1], true
}

// listen turns unprompted answers in a channel on or off, or reports them.
func (a *App) listen(ctx context.Context, cmd slack.SlashCommand, arg string) slackpost.Response {
	lang := parse.Lang(cmd.Text)
	say := func(rt, en, zh string) slackpost.Response {
		t := tr(lang, en, zh)
		return slackpost.Response{ResponseType: rt, Text: escape(t), Blocks: []slack.Block{slack.NewSectionBlock(mrkdwn(escape(t)), nil, nil)}}
	}
	if strings.HasPrefix(cmd.ChannelID, "D") {
		return say(slackpost.Ephemeral, "In a direct message I already answer everything you write.", "私信里我本来就会回答每一条消息。")
	}
	var on bool
	switch arg {
	case "on":
		on = true
	case "off":
	case "", "status":
		listening, err := a.listening(ctx, cmd.TeamID, cmd.ChannelID)
		if err != nil {
			a.log.ErrorContext(ctx, "read channel opt-in", "channel", cmd.ChannelID, "err", err)
			return say(slackpost.Ephemeral, "I couldn't check that just now; please try again.", "暂时查不到，请稍后再试。")
		}
		if listening {
			return say(slackpost.Ephemeral, "I answer GPU questions in this channel without a mention. Stop with /gpu listen off.", "本频道已开启：无需 @ 我也会回答 GPU 问题。关闭：/gpu listen off")
		}
		return say(slackpost.Ephemeral, "I answer here only when mentioned. Turn on unprompted answers with /gpu listen on.", "本频道只在 @ 我时回答。开启：/gpu listen on")
	default:
		return say(slackpost.Ephemeral, "Usage: /gpu listen on | off | status", "用法：/gpu listen on | off | status")
	}
	if !a.mayManage(ctx, cmd.UserID) {
		return say(slackpost.Ephemeral, "Only workspace admins and owners (or the bot's admins, BOT_ADMINS) can turn unprompted answers on or off here; /gpu listen status shows the setting.",
			"只有工作区管理员/所有者（或机器人管理员 BOT_ADMINS）可以开关本频道的免 @ 回答；/gpu listen status 可查看当前设置。")
	}
	by := func(r slackpost.Response) slackpost.Response { // who changed it, for everyone to see
		note := tr(lang, " (changed by <@"+cmd.UserID+">)", "（由 <@"+cmd.UserID+"> 更改）")
		r.Text += note
		r.Blocks = []slack.Block{slack.NewSectionBlock(mrkdwn(r.Text), nil, nil)}
		return r
	}
	if err := a.setListening(ctx, cmd.TeamID, cmd.ChannelID, on); err != nil {
		a.log.ErrorContext(ctx, "save channel opt-in", "channel", cmd.ChannelID, "err", err)
		return say(slackpost.Ephemeral, "I couldn't save that just now; please try again.", "暂时保存失败，请稍后再试。")
	}
	a.log.InfoContext(ctx, "channel opt-in changed", "team", cmd.TeamID, "channel", cmd.ChannelID, "user", cmd.UserID, "listening", on)
	if on {
		return by(say(slackpost.InChannel,
			"From now on I'll answer GPU procurement questions in this channel without a mention, when I'm confident that's what they are (in the question's thread). Make sure I'm a member of the channel (/invite @gpubot). Stop with /gpu listen off.",
			"已开启：本频道里的 GPU 选型/采购问题，无需 @ 我也会在该消息的话题里回答（仅在我确定是这类问题时）。请确认我已在频道中（/invite @gpubot）。关闭：/gpu listen off"))
	}
	return by(say(slackpost.InChannel,
		"Done: in this channel I'll answer only when mentioned.",
		"已关闭：本频道只在 @ 我时回答。"))
}

// interact queues a button click. Slack needs only an empty 200 for it.
func (a *App) interact(cb slack.InteractionCallback) bool {
	if cb.Type != slack.InteractionTypeBlockActions {
		return true
	}
	for _, ba := range cb.ActionCallback.BlockActions {
		if strings.HasPrefix(ba.ActionID, homePrefix) {
			// A Home tab button opens its modal at once (its trigger_id
			// lasts 3 seconds); it belongs to no conversation.
			return a.enqueue("home", "", func(ctx context.Context) { a.homeAction(ctx, cb, ba) })
		}
	}
	// A click is read in its conversation's turn, after the messages
	// before it (order.go).
	key := conversationKey(cb.Team.ID, cmp.Or(cb.Channel.ID, cb.Container.ChannelID), cb.Container.ThreadTs, cb.Container.MessageTs)
	return a.enqueue("interactive", key, func(ctx context.Context) { a.answerClick(ctx, cb) })
}

func (a *App) answerClick(ctx context.Context, cb slack.InteractionCallback) {
	var act *slack.BlockAction
	for _, ba := range cb.ActionCallback.BlockActions {
		if strings.HasPrefix(ba.ActionID, actionPrefix) {
			act = ba
			break
		}
	}
	if act == nil || cb.ResponseURL == "" {
		return
	}
	if isAck(act) && a.cfg.Acknowledge != nil {
		a.acknowledge(ctx, cb, act) // ack.go
		return
	}
	st, err := decodeState(act.Value)
	if err != nil {
		a.log.WarnContext(ctx, "button value refused", "action", act.ActionID, "user", cb.User.ID, "err", err)
		return
	}
	once := cb.TriggerID
	if once == "" {
		once = cb.User.ID + ":" + act.ActionTs
	}
	if !a.claim(ctx, triggerKey("click", once)) {
		return
	}
	onPanic(ctx, askerLang(st.Q, a.locale(ctx, cb.Team.ID, cb.User.ID, st.Q)), func(ctx context.Context, a *App, text string) {
		if err := a.post.Respond(ctx, cb.ResponseURL, slackpost.Response{ResponseType: slackpost.Ephemeral, Text: text}); err != nil {
			a.log.ErrorContext(ctx, "crash not reported to the clicker", "err", err)
		}
	})
	channel := cb.Channel.ID
	if channel == "" {
		channel = cb.Container.ChannelID
	}
	own := st.Asker == "" || st.Asker == cb.User.ID
	origKey, origSlash := st.Key, st.Slash
	// A click is read on its own, never in its conversation: the message
	// names no channel or thread, so the bot finds no conversation to
	// merge it into ("what about on a100?" re-asked after a spend add in
	// the same DM was read as that spend add, and booked once per click).
	// The write check below reads the very message Answer gets: with no
	// conversation the parse it sees is the parse that answers.
	msg := a.messageFor(ctx, st, cb.Team.ID, "", cb.User.ID)
	msg.ID = "click:" + once
	if req := a.bot.ParseInContext(ctx, msg); a.writes(req.Intent) {
		// No answer to a write command has buttons; a value that asks to
		// re-run one was not made by us.
		a.log.WarnContext(ctx, "button asked to re-run a write command", "action", act.ActionID, "user", cb.User.ID)
		return
	}
	// The variant the settings ask for, from the stored family; without
	// it (expired, Redis down) the read-only question is asked again, on
	// its own, which writes nothing (write commands were refused above).
	ans, ok := a.recall(ctx, st.Key, st.Set)
	if !ok {
		if st.Key != "" {
			a.log.InfoContext(ctx, "answer family gone; asking the read-only question again on its own, nothing is written", "action", act.ActionID, "user", cb.User.ID)
		}
		ans = a.bot.Answer(ctx, msg)
		if a.writes(ans.Intent) {
			// Cannot happen while the parse is deterministic (checked
			// above on this very message); logged loudly if it ever does.
			a.log.ErrorContext(ctx, "a click's question was answered as a write command", "action", act.ActionID, "user", cb.User.ID, "intent", ans.Intent)
			return
		}
		st.Key = a.remember(ctx, st, msg, &ans)
	}
	var r slackpost.Response
	switch actionKind(act.ActionID) {
	case actShare:
		a.share(ctx, cb, channel, st, ans)
		return
	case actWorking, actMore, actBreakdown:
		// Another view of the answer on screen, to the clicker only.
		rep := compose(ans, st, false)
		r = slackpost.Response{ResponseType: slackpost.Ephemeral, Text: rep.Text, Blocks: rep.Blocks}
	default: // currency, 8-bit: the answer in another variant; ask: the reading picked
		if !own {
			st.Asker = cb.User.ID // the copy is theirs
		}
		rep := compose(ans, st, st.Slash)
		r = slackpost.Response{ReplaceOriginal: true, Text: rep.Text, Blocks: rep.Blocks}
		if st.Slash {
			r.ResponseType = slackpost.Ephemeral
		}
		if ans.Ephemeral || !own {
			// An error must not replace the answer, and another
			// member's click must not rewrite it for everyone: a copy
			// only the clicker sees.
			r = slackpost.Response{ResponseType: slackpost.Ephemeral, Text: rep.Text, Blocks: rep.Blocks}
		}
	}
	if r.ReplaceOriginal {
		// A rephrase of the first answer still on its way must not put
		// it back over what the click chose.
		a.markReplaced(ctx, postedAnswerID(channel, cb.Container.MessageTs))
		if origSlash {
			a.markReplaced(ctx, slashAnswerID(origKey, cb.User.ID))
		}
	}
	if err := a.post.Respond(ctx, cb.ResponseURL, r); err != nil {
		a.log.ErrorContext(ctx, "button answer not delivered", "team", cb.Team.ID, "channel", channel, "user", cb.User.ID, "err", err)
	}
}

// share posts a private slash answer in the channel, saying who asked,
// through the click's response_url with response_type in_channel: Slack
// takes it in any conversation the command was run in — a public channel
// the bot was never invited to, a private channel, a DM or group DM
// between people — where chat.postMessage gets not_in_channel. The
// private copy then becomes a note that it was shared.
func (a *App) share(ctx context.Context, cb slack.InteractionCallback, channel string, st state, ans bot.Answer) {
	st.Asker, st.Slash = cb.User.ID, false
	rep := compose(ans, st, false)
	lang := present.LangOf(ans.Lang)
	by := lang.Pick("asked by <@"+cb.User.ID+">: /gpu ", "<@"+cb.User.ID+"> 提问：/gpu ") + escape(clip(st.text(), 200))
	blocks := present.Limit(append([]slack.Block{present.Context(by)}, rep.Blocks...), 0)
	text := lang.Pick("asked by <@"+cb.User.ID+">", "<@"+cb.User.ID+"> 提问") + "\n" + rep.Text // rep.Text is escaped; the mention is live
	pub := slackpost.Response{ResponseType: slackpost.InChannel, Text: text, Blocks: blocks}
	if err := a.post.Respond(ctx, cb.ResponseURL, pub); err != nil {
		a.log.ErrorContext(ctx, "shared answer not posted", "team", cb.Team.ID, "channel", channel, "user", cb.User.ID, "err", err)
		fail := lang.Pick("I couldn't share it just now; please click Share again in a minute.", "暂时无法分享，请稍后再点一次「分享到频道」。")
		if err := a.post.Respond(ctx, cb.ResponseURL, slackpost.Response{ResponseType: slackpost.Ephemeral, Text: fail}); err != nil {
			a.log.WarnContext(ctx, "share failure not reported", "err", err)
		}
		return
	}
	done := lang.Pick("Shared in the channel.", "已分享到频道。")
	if err := a.post.Respond(ctx, cb.ResponseURL, slackpost.Response{ResponseType: slackpost.Ephemeral, ReplaceOriginal: true, Text: done, Blocks: present.TextBlocks(done)}); err != nil {
		a.log.WarnContext(ctx, "private answer not marked shared", "err", err)
	}
}
