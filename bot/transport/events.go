package transport

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/bot/slackpost"
)

// where a question was asked
type kind int

const (
	mention kind = iota // app_mention
	direct              // message.im
	ambient             // message.channels without a mention
)

// question is a message the bot may answer.
type question struct {
	kind                         kind
	team, channel, user, ts, thr string
	text                         string
}

// event queues an Events API callback (the raw JSON Slack sent, over either
// transport); it reports false when the queue is full.
func (a *App) event(raw []byte) bool {
	raw = append([]byte(nil), raw...)
	return a.enqueue("event", eventConversation(raw), func(ctx context.Context) { a.handleEvent(ctx, raw) })
}

func (a *App) handleEvent(ctx context.Context, raw []byte) {
	ev, err := slackevents.ParseEvent(json.RawMessage(raw), slackevents.OptionNoVerifyToken())
	if err != nil {
		a.log.DebugContext(ctx, "event ignored", "err", err) // types we do not subscribe to
		return
	}
	cb, ok := ev.Data.(*slackevents.EventsAPICallbackEvent)
	if ev.Type != slackevents.CallbackEvent || !ok {
		return
	}
	if a.upload(ctx, ev, cb.EventID) {
		return
	}
	if e, ok := ev.InnerEvent.Data.(*slackevents.AppHomeOpenedEvent); ok {
		if e.Tab == "home" {
			a.home(ctx, ev.TeamID, e.User)
		}
		return
	}
	if e, ok := ev.InnerEvent.Data.(*slackevents.MemberJoinedChannelEvent); ok {
		a.introduce(ctx, ev.TeamID, e)
		return
	}
	if a.edited(ctx, ev, cb.EventID) { // edit.go
		return
	}
	q, ok := a.question(ev)
	if !ok {
		return
	}
	msg := bot.Message{Text: q.text, Team: q.team, Channel: q.channel, User: q.user, ID: "msg:" + q.channel + ":" + q.ts, Thread: q.thr}
	if q.kind != ambient {
		msg.Locale = a.locale(ctx, q.team, q.user, q.text)
	}
	// Read in its conversation first: "20k samples" in a thread the bot
	// answered is a follow-up of the question there, not a stray line.
	req := a.bot.ParseInContext(ctx, msg)
	if q.kind == ambient && !a.unprompted(ctx, q, req) {
		return
	}
	// Retries and redeliveries share the event id; app_mention and
	// message.* deliveries of one message share its channel and ts.
	if (cb.EventID != "" && !a.claim(ctx, eventKey(cb.EventID))) || !a.claim(ctx, messageKey(q.team, q.channel, q.ts)) {
		a.log.DebugContext(ctx, "duplicate delivery dropped", "event_id", cb.EventID, "channel", q.channel, "ts", q.ts)
		return
	}
	onPanic(ctx, askerLang(q.text, msg.Locale), func(ctx context.Context, a *App, text string) {
		m := slackpost.Message{Channel: q.channel, ThreadTS: q.thr, Text: text, Key: "crash:" + q.team + ":" + q.channel + ":" + q.ts}
		if _, err := a.post.Post(ctx, m); err != nil {
			a.log.ErrorContext(ctx, "crash not reported to the asker", "channel", q.channel, "err", err)
		}
	})
	if q.kind == mention {
		done := a.thinking(ctx, q)
		defer done()
	}
	// A user's first DM gets a welcome with three example questions
	// (welcome.go); "hi" then needs nothing more.
	welcomed := a.welcome(ctx, q, askerLang(q.text, msg.Locale))
	st := state{Q: q.text, Asker: q.user}
	// A question asked of the bot that the router is unsure of gets the
	// two likeliest readings to pick from; a channel without a mention
	// got nothing above.
	ans, unsure := a.bot.Clarify(msg, req)
	if reply, ok := smallTalk(q, req); ok {
		if welcomed {
			return
		}
		ans, unsure = reply, true // nothing to store, rephrase or count
	}
	if !unsure {
		ans = a.bot.Answer(ctx, msg)
		st.Key = a.remember(ctx, st, msg, &ans)
	}
	rep := compose(ans, st, false)
	m := slackpost.Message{Channel: q.channel, ThreadTS: q.thr, Text: rep.Text, Blocks: rep.Blocks,
		Key: replyKey(q.team, q.channel, q.ts)}
	// Mentions are answered in their thread, errors and help included: a
	// thread reply is seen, while an ephemeral message aimed at a thread
	// that does not exist yet is shown to nobody. DMs are answered inline.
	ts, err := a.post.Post(ctx, m)
	if err != nil {
		a.log.ErrorContext(ctx, "answer not delivered", "team", q.team, "channel", q.channel, "user", q.user, "ts", q.ts, "err", err)
		return
	}
	if ts != "" && !unsure {
		a.rephrase(ctx, ans, rep, func(ctx context.Context, text string, blocks []slack.Block) {
			if a.replaced(ctx, postedAnswerID(q.channel, ts)) {
				return // a button replaced the answer: the rephrase would revert it
			}
			// The model's words are escaped like everything else.
			if err := a.post.Update(ctx, q.channel, ts, present.Fallback(present.LangOf(ans.Lang), text), blocks); err != nil {
				a.log.WarnContext(ctx, "rephrased answer not applied", "channel", q.channel, "ts", ts, "err", err)
			}
		})
	}
}

// unprompted reports whether an un-mentioned channel message is answered:
// a read-only follow-up in a thread the bot answered always (the
// conversation is under way there, the bot may have asked for the
// figure), any other
// message only in a channel that opted in and only when the router is
// confident it is a procurement question.
func (a *App) unprompted(ctx context.Context, q question, req parse.Request) bool {
	if req.Intent == parse.Unknown || req.Intent == parse.Help {
		return false
	}
	if req.FollowUp {
		// Never a write nobody addressed to the bot: "and 20h on h100"
		// under a spend entry is not booked without a mention.
		return !a.writes(req.Intent)
	}
	if req.Confidence < parse.ChannelThreshold {
		return false
	}
	on, err := a.listening(ctx, q.team, q.channel)
	if err != nil {
		a.log.WarnContext(ctx, "read channel opt-in", "channel", q.channel, "err", err)
		return false // unprompted answers are optional; stay quiet when unsure
	}
	return on
}

// question picks the messages the bot answers: mentions, DMs and channel
// messages; never bots (itself included), edits or other subtypes.
func (a *App) question(ev slackevents.EventsAPIEvent) (question, bool) {
	var q question
	switch e := ev.InnerEvent.Data.(type) {
	case *slackevents.AppMentionEvent:
		if e.BotID != "" || e.Edited != nil || e.User == "" || e.User == a.cfg.BotUserID {
			return q, false
		}
		q = question{kind: mention, channel: e.Channel, user: e.User, ts: e.TimeStamp, thr: e.ThreadTimeStamp, text: e.Text}
		if strings.HasPrefix(e.Channel, "D") {
			q.kind = direct // a mention inside a DM is a DM: answered inline
		}
	case *slackevents.MessageEvent:
		// A thread reply also sent to the channel (thread_broadcast) is a
		// reply like any other; other subtypes (edits, joins) are not questions.
		if (e.SubType != "" && e.SubType != "thread_broadcast") || e.BotID != "" || e.User == "" || e.User == a.cfg.BotUserID {
			return q, false
		}
		switch e.ChannelType {
		case "im":
			q.kind = direct
		case "channel", "group", "mpim": // public, private and group channels
			if a.cfg.BotUserID != "" && strings.Contains(e.Text, "<@"+a.cfg.BotUserID) {
				return q, false // app_mention answers it
			}
			q.kind = ambient
		default:
			return q, false
		}
		q.channel, q.user, q.ts, q.thr, q.text = e.Channel, e.User, e.TimeStamp, e.ThreadTimeStamp, e.Text
	default:
		return q, false
	}
	q.team = ev.TeamID
	if q.thr == "" && q.kind != direct {
		q.thr = q.ts // DMs are answered inline; channels in the question's thread
	}
	q.text = plainText(q.text)
	return q, q.channel != "" && q.ts != ""
}

var (
	reUserRef = regexp.MustCompile(`<[@!][^>]*>[,:：，]?`)    // <@U123>, <!here>
	reChanRef = regexp.MustCompile(`<#[A-Z0-9]+\|([^>]*)>`) // <#C123|general>
	reLinkRef = regexp.MustCompile(`<((?:https?|mailto):[^>|]*)(?:\|([^>]*))?>`)
	reSpaces  = regexp.MustCompile(`[ \t]+`)
)

// plainText turns Slack's message markup back into what the user typed:
// mentions dropped, channel and link labels kept, entities unescaped.
func plainText(s string) string {
	s = reUserRef.ReplaceAllString(s, " ")
	s = reChanRef.ReplaceAllString(s, "#$1")
	s = reLinkRef.ReplaceAllStringFunc(s, func(m string) string {
		sm := reLinkRef.FindStringSubmatch(m)
		if sm[2] != "" {
			return sm[2]
		}
		return sm[1]
	})
	s = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
	s = reSpaces.ReplaceAllString(s, " ")
	return strings.Trim(s, " \t\n,:：，")
}

// smallTalkWords are whole messages that are courtesy, not questions.
var smallTalkWords = map[string]bool{
	"thanks": true, "thank you": true, "thx": true, "ty": true, "cheers": true, "hi": true, "hello": true, "hey": true,
	"ok": true, "okay": true, "cool": true, "great": true, "nice": true, "got it": true, "👍": true,
	"谢谢": true, "多谢": true, "感谢": true, "好的": true, "好": true, "你好": true, "嗯": true, "收到": true, "明白": true,
}

// smallTalk is a short friendly reply to "thanks", "hi" or "ok" in a DM,
// which the router, rightly, cannot place (it said "I can't answer that").
func smallTalk(q question, req parse.Request) (bot.Answer, bool) {
	t := strings.ToLower(strings.Trim(strings.TrimSpace(q.text), "!！.。~～?？ "))
	if q.kind != direct || req.Intent != parse.Unknown || !smallTalkWords[t] {
		return bot.Answer{}, false
	}
	lang := askerLang(q.text, "")
	text := tr(lang, "Happy to help! Ask me anything about GPUs — e.g. /gpu fit 13b lora, or \"what does a 70b lora cost on h100?\"",
		"不客气！GPU 的问题随时问我，例如 /gpu fit 13b lora，或者“70b lora 在 h100 上要花多少钱？”")
	a := bot.Answer{Intent: parse.Unknown, Lang: lang, Text: text}
	return a, true
}

// reactor adds and removes emoji reactions; *slack.Client is one.
type reactor interface {
	AddReactionContext(ctx context.Context, name string, item slack.ItemRef) error
	RemoveReactionContext(ctx context.Context, name string, item slack.ItemRef) error
}

// thinking puts 👀 on a mention while it is answered, so the channel sees
// the bot has it; the returned func takes it off once the answer is out.
// A reaction that fails (an install without reactions:write) costs the
// answer nothing.
func (a *App) thinking(ctx context.Context, q question) func() {
	if a.cfg.Reactions == nil {
		return func() {}
	}
	item := slack.NewRefToMessage(q.channel, q.ts)
	if err := a.cfg.Reactions.AddReactionContext(ctx, "eyes", item); err != nil {
		a.log.DebugContext(ctx, "thinking reaction not added", "channel", q.channel, "err", err)
		return func() {}
	}
	return func() {
		if err := a.cfg.Reactions.RemoveReactionContext(context.WithoutCancel(ctx), "eyes", item); err != nil {
			a.log.DebugContext(ctx, "thinking reaction not removed", "channel", q.channel, "err", err)
		}
	}
}

// introduce posts a short intro when the bot itself joins a channel
// (invited, or joined to deliver a subscription), once per channel.
func (a *App) introduce(ctx context.Context, team string, e *slackevents.MemberJoinedChannelEvent) {
	if e.User == "" || e.User != a.cfg.BotUserID || e.Channel == "" || !a.claim(ctx, "intro:"+team+":"+e.Channel) {
		return
	}
	raw := "👋 Hi, I'm gpubot: GPU procurement advice with the working shown — which card fits a job, what it costs, monthly plan or on demand, rent or buy, today's prices. Mention me with a question (@gpubot fit 13b lora), or try /gpu help. /gpu listen on lets me answer GPU questions here without a mention.\n" +
		"👋 大家好，我是 gpubot：GPU 选型与采购建议，每个数字都附计算过程。@ 我提问（例如 @gpubot 13b lora 要多大显存），或输入 /gpu help。/gpu listen on 可让我无需 @ 也回答本频道的 GPU 问题。"
	// TextBlocks escapes what it is given; the fallback text is escaped here.
	m := slackpost.Message{Channel: e.Channel, Text: present.Escape(raw), Blocks: present.TextBlocks(raw), Key: "intro:" + team + ":" + e.Channel}
	if _, err := a.post.Post(ctx, m); err != nil {
		a.log.WarnContext(ctx, "channel intro not posted", "channel", e.Channel, "err", err)
	}
}
