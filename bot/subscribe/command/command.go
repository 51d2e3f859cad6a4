// Package command answers the subscribe intent — the commands that change
// which channels receive the scheduled posts:
//
//	/gpu subscribe prices [gpu=h100,4090] [threshold=5%] [quiet] [zh|en]
//	/gpu subscribe recap [zh|en]
//	/gpu unsubscribe [prices|recap]
//	/gpu subscriptions
//
// Subscribing and unsubscribing are for workspace admins
// (ledger.Authorizer); anyone may list. The subscriptions themselves are
// kept by package subscribe, which the scheduler reads; this package sits
// above it (it imports bot, parse and ledger) so that the scheduler does
// not (ARCHITECTURE.md, cmd/bot/deps_policy_test.go).
package command

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/present"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/subscribe"
)

// authorizer decides who may change a channel's subscriptions;
// *ledger.Authorizer satisfies it.
type authorizer interface {
	Check(ctx context.Context, team, user string, act ledger.Action) error
}

// Handler answers the Subscribe intent. Register it with
// bot.Route(parse.Subscribe, h).
type Handler struct {
	store *subscribe.Store
	auth  authorizer
	now   func() time.Time
	log   *slog.Logger
	slack conversations // nil: membership is not checked (console, CLI)
}

// conversations is the part of the Slack API a subscription needs: whether
// the bot is in the channel, and joining a public one. *slack.Client is one.
type conversations interface {
	GetConversationInfoContext(ctx context.Context, in *slack.GetConversationInfoInput) (*slack.Channel, error)
	JoinConversationContext(ctx context.Context, channelID string) (*slack.Channel, string, []string, error)
}

// CheckMembership makes subscribe confirm the bot can post in the channel
// (conversations.info), joining a public channel it is not in, and refuse
// with the /invite fix where it cannot: a subscription the bot cannot
// deliver would otherwise fail every day without a word.
func (h *Handler) CheckMembership(api conversations) { h.slack = api }

// member reports whether the bot can post in channel, joining it if it is
// public; the refusal says how to fix it.
func (h *Handler) member(ctx context.Context, channel, lang string) (bool, string) {
	if h.slack == nil || strings.HasPrefix(channel, "D") {
		return true, ""
	}
	invite := tr(lang, "I'm not in this channel, so I could not post there. Invite me first with /invite @gpubot, then subscribe again.",
		"我不在这个频道里，没法在这里推送。请先用 /invite @gpubot 邀请我，再重新订阅。")
	info, err := h.slack.GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: channel})
	if err != nil {
		h.log.WarnContext(ctx, "conversations.info before subscribing", "channel", channel, "err", err)
		if se, ok := errors.AsType[slack.SlackErrorResponse](err); ok && se.Err == "missing_scope" {
			// Not a membership problem: inviting would change nothing.
			return false, tr(lang, "I can't check this channel: the app lacks a permission Slack needs for it (groups:read for private channels, mpim:read for group DMs). Ask a workspace admin to reinstall gpubot from the current deploy/slack-manifest.yaml, then subscribe again.",
				"我无法查看这个频道：应用缺少 Slack 要求的权限（私有频道需要 groups:read，群组私信需要 mpim:read）。请工作区管理员按最新的 deploy/slack-manifest.yaml 重新安装 gpubot，再重新订阅。")
		}
		// A private channel the bot is not in is "channel_not_found" to it.
		return false, invite
	}
	if info.IsMember {
		return true, ""
	}
	if info.IsPrivate || info.IsGroup {
		return false, invite
	}
	if _, _, _, err := h.slack.JoinConversationContext(ctx, channel); err != nil {
		h.log.WarnContext(ctx, "joining a channel to subscribe it", "channel", channel, "err", err)
		return false, invite
	}
	h.log.InfoContext(ctx, "joined channel to post subscriptions", "channel", channel)
	return true, ""
}

// NewHandler returns a Handler over st; auth decides who is an admin. now
// nil is time.Now; log nil discards.
func NewHandler(st *subscribe.Store, auth authorizer, now func() time.Time, log *slog.Logger) *Handler {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Handler{store: st, auth: auth, now: now, log: log}
}

// Result is the machine-readable answer (bot ask --json's "result").
type Result struct {
	Mode          string          `json:"mode"` // subscribe, unsubscribe, list
	Subscriptions []subscribe.Sub `json:"subscriptions"`
	Removed       []subscribe.Sub `json:"removed,omitempty"`
}

// Handle answers /gpu subscribe, /gpu unsubscribe and /gpu subscriptions.
func (h *Handler) Handle(ctx context.Context, m bot.Message, req parse.Request, a *bot.Answer) error {
	lang := a.Lang
	say := func(ephemeral bool, text string) {
		a.Text, a.Blocks, a.Ephemeral = text, textBlocks(text), ephemeral
	}
	if m.Team == "" || m.Channel == "" {
		say(true, tr(lang, "Subscriptions are per Slack channel: run this command in the channel that should get the posts.",
			"订阅按 Slack 频道设置：请在要接收推送的频道里使用这个命令。"))
		return nil
	}
	s := req.Slots
	mode := s.Mode
	if mode == "" {
		mode = "subscribe"
	}
	if mode != "list" {
		if err := h.auth.Check(ctx, m.Team, m.User, ledger.Subscribe); err != nil {
			if !errors.Is(err, ledger.ErrForbidden) {
				h.log.ErrorContext(ctx, "subscription admin check", "team", m.Team, "user", m.User, "err", err)
				say(true, tr(lang, "I couldn't check whether you are a workspace admin just now; please try again.",
					"暂时无法确认你是否为工作区管理员，请稍后再试。"))
				return nil
			}
			say(true, tr(lang, "Only workspace admins can change this channel's subscriptions. /gpu subscriptions shows them.",
				"只有工作区管理员可以修改本频道的订阅。查看订阅：/gpu subscriptions"))
			return nil
		}
	}
	var err error
	switch mode {
	case "subscribe":
		err = h.subscribe(ctx, m, req, a)
	case "unsubscribe":
		err = h.unsubscribe(ctx, m, req, a)
	default:
		err = h.list(ctx, m, a)
	}
	if err != nil {
		h.log.ErrorContext(ctx, "subscription", "mode", mode, "team", m.Team, "channel", m.Channel, "err", err)
		say(true, tr(lang, "I couldn't save that just now, so nothing changed; please try again.",
			"暂时保存失败，订阅没有改变，请稍后再试。"))
	}
	return nil
}

// options are the words a subscribe command may carry besides key=value
// settings.
type options struct {
	quiet bool
	lang  string
}

func readOptions(args []string) options {
	var o options
	for _, w := range args {
		switch strings.ToLower(strings.Trim(w, ",.;，。")) {
		case "quiet", "silent", "silence", "静默", "安静", "免打扰":
			o.quiet = true
		case "zh", "cn", "chinese", "中文", "汉语":
			o.lang = "zh"
		case "en", "english", "英文", "英语":
			o.lang = "en"
		}
	}
	return o
}

func (h *Handler) subscribe(ctx context.Context, m bot.Message, req parse.Request, a *bot.Answer) error {
	lang, s := a.Lang, req.Slots
	topic := subscribe.Topic(s.Topic)
	if topic == "" {
		a.Ephemeral = true
		a.Text = tr(lang,
			"Subscribe to what? /gpu subscribe prices [gpu=h100,4090] [threshold=5%] [quiet] for the daily price post, /gpu subscribe recap for the monthly spend recap.",
			"订阅哪一项？每日价格推送：/gpu subscribe prices [gpu=h100,4090] [threshold=5%] [quiet]；月度花费回顾：/gpu subscribe recap")
		a.Blocks = textBlocks(a.Text)
		return nil
	}
	o := readOptions(s.Args)
	sub := subscribe.Sub{Team: m.Team, Channel: m.Channel, Topic: topic, Lang: o.lang, By: m.User, CreatedAt: h.now().UTC()}
	if sub.Lang == "" {
		sub.Lang = lang
	}
	sub.Lang = string(present.LangOf(sub.Lang)) // zh or en
	var notes []string
	if topic == subscribe.Prices {
		sub.GPUs = s.GPUs
		sub.Quiet = o.quiet
		if s.Threshold != nil {
			t := *s.Threshold
			if math.IsNaN(t) || t < 0 || t > 1 {
				a.Ephemeral = true
				a.Text = tr(lang, "threshold is a share of the price between 0 and 100%, e.g. threshold=5%",
					"threshold 是价格变动的百分比，在 0 到 100% 之间，例如 threshold=5%")
				a.Blocks = textBlocks(a.Text)
				return nil
			}
			sub.Threshold = t
		}
	} else if len(s.GPUs) > 0 || s.Threshold != nil || o.quiet {
		notes = append(notes, tr(lang, "gpu=, threshold= and quiet apply to the price post only; the recap covers all of the team's spend.",
			"gpu=、threshold= 和 quiet 只用于价格推送；月度回顾覆盖团队的全部花费。"))
	}
	// Keep the original subscription time, so re-subscribing to change a
	// setting does not skip today's post.
	if old, ok, err := h.store.Get(ctx, m.Team, m.Channel, topic); err != nil {
		return err
	} else if ok && !old.CreatedAt.IsZero() {
		sub.CreatedAt = old.CreatedAt
	}
	if ok, why := h.member(ctx, m.Channel, lang); !ok {
		a.Ephemeral = true
		a.Text = why
		a.Blocks = textBlocks(a.Text)
		return nil
	}
	if err := h.store.Put(ctx, sub); err != nil {
		return err
	}
	h.log.InfoContext(ctx, "channel subscribed", "team", m.Team, "channel", m.Channel, "topic", topic, "user", m.User)
	text := tr(lang, "Subscribed this channel: ", "本频道已订阅：") + Describe(sub, lang)
	text += "\n" + tr(lang, "Stop with /gpu unsubscribe "+string(topic)+".", "取消：/gpu unsubscribe "+string(topic))
	for _, n := range notes {
		text += "\n" + n
	}
	a.Text, a.Blocks, a.Ephemeral = text, textBlocks(text), false
	a.Result = Result{Mode: "subscribe", Subscriptions: []subscribe.Sub{sub}}
	return nil
}

func (h *Handler) unsubscribe(ctx context.Context, m bot.Message, req parse.Request, a *bot.Answer) error {
	lang := a.Lang
	topics := subscribe.Topics
	if t := subscribe.Topic(req.Slots.Topic); t != "" {
		topics = []subscribe.Topic{t}
	}
	res := Result{Mode: "unsubscribe"}
	for _, t := range topics {
		sub, ok, err := h.store.Get(ctx, m.Team, m.Channel, t)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if _, err := h.store.Delete(ctx, m.Team, m.Channel, t); err != nil {
			return err
		}
		res.Removed = append(res.Removed, sub)
	}
	left, err := h.store.Channel(ctx, m.Team, m.Channel)
	if err != nil {
		return err
	}
	res.Subscriptions = left
	a.Result = res
	if len(res.Removed) == 0 {
		a.Text = tr(lang, "This channel had no such subscription; nothing changed.", "本频道没有这项订阅，没有改变。")
		a.Blocks, a.Ephemeral = textBlocks(a.Text), true
		return nil
	}
	h.log.InfoContext(ctx, "channel unsubscribed", "team", m.Team, "channel", m.Channel, "topics", len(res.Removed), "user", m.User)
	var names []string
	for _, s := range res.Removed {
		names = append(names, topicName(s.Topic, lang))
	}
	a.Text = tr(lang, "Unsubscribed this channel from ", "本频道已取消订阅：") + strings.Join(names, tr(lang, " and ", "和")) + tr(lang, ".", "。")
	if len(left) > 0 {
		a.Text += "\n" + tr(lang, "Still subscribed: ", "仍在订阅：") + describeAll(left, lang)
	}
	a.Blocks, a.Ephemeral = textBlocks(a.Text), false
	return nil
}

func (h *Handler) list(ctx context.Context, m bot.Message, a *bot.Answer) error {
	lang := a.Lang
	subs, err := h.store.Channel(ctx, m.Team, m.Channel)
	if err != nil {
		return err
	}
	a.Result = Result{Mode: "list", Subscriptions: subs}
	if len(subs) == 0 {
		a.Text = tr(lang,
			"This channel has no subscriptions. Admins can add /gpu subscribe prices [gpu=h100,4090] [threshold=5%] [quiet] or /gpu subscribe recap.",
			"本频道没有订阅。管理员可以添加：/gpu subscribe prices [gpu=h100,4090] [threshold=5%] [quiet] 或 /gpu subscribe recap")
	} else {
		a.Text = tr(lang, "This channel's subscriptions:", "本频道的订阅：")
		for _, s := range subs {
			a.Text += "\n• " + Describe(s, lang)
		}
	}
	a.Blocks, a.Ephemeral = textBlocks(a.Text), true
	return nil
}

// Describe says in one line what a subscription delivers.
func Describe(s subscribe.Sub, lang string) string {
	var parts []string
	switch s.Topic {
	case subscribe.Prices:
		parts = append(parts, tr(lang, "daily price changes", "每日价格变动"))
		if len(s.GPUs) > 0 {
			parts = append(parts, tr(lang, "cards ", "显卡 ")+strings.Join(s.GPUs, ", "))
		} else {
			parts = append(parts, tr(lang, "all cards", "全部显卡"))
		}
		if s.Threshold > 0 {
			parts = append(parts, tr(lang, "moves of at least ", "变动至少 ")+pct(s.Threshold))
		} else {
			parts = append(parts, tr(lang, "moves of at least 1%", "变动至少 1%"))
		}
		if s.Quiet {
			parts = append(parts, tr(lang, "nothing on quiet days", "无变化时不推送"))
		} else {
			parts = append(parts, tr(lang, "a one-line note on quiet days", "无变化时发一行说明"))
		}
	case subscribe.Recap:
		parts = append(parts, tr(lang, "monthly spend recap on the 1st", "每月 1 日的月度花费回顾"))
	}
	if present.LangOf(s.Lang) == present.ZH {
		parts = append(parts, tr(lang, "in Chinese", "中文"))
	} else {
		parts = append(parts, tr(lang, "in English", "英文"))
	}
	return strings.Join(parts, tr(lang, "; ", "；"))
}

func describeAll(subs []subscribe.Sub, lang string) string {
	var out []string
	for _, s := range subs {
		out = append(out, Describe(s, lang))
	}
	return strings.Join(out, " | ")
}

func topicName(t subscribe.Topic, lang string) string {
	if t == subscribe.Recap {
		return tr(lang, "the monthly recap", "月度回顾")
	}
	return tr(lang, "the daily price post", "每日价格推送")
}

func pct(share float64) string {
	return strconv.FormatFloat(math.Round(share*1000)/10, 'f', -1, 64) + "%"
}

var (
	tr     = present.Tr
	escape = present.EscapeControl // text safe as Slack mrkdwn
)

func textBlocks(s string) []slack.Block {
	return []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, escape(s), false, false), nil, nil)}
}

// SuspendNote is the DM to a subscription's author when the scheduler
// stopped it because the bot is not in the channel: what happened and the
// two commands that restore it, in the subscription's language. The text
// holds our words, a Slack channel id and a topic name: nothing to escape.
func SuspendNote(sub subscribe.Sub, topic subscribe.Topic) (string, []slack.Block) {
	text := tr(sub.Lang,
		"I could not post the "+string(topic)+" subscription in <#"+sub.Channel+"> because I'm not a member there, so I stopped it. To restore it: /invite @gpubot in that channel, then /gpu subscribe "+string(topic)+" again.",
		"我不在 <#"+sub.Channel+"> 频道里，无法推送 "+string(topic)+" 订阅，已暂停。恢复方法：在该频道 /invite @gpubot，然后重新 /gpu subscribe "+string(topic)+"。")
	return text, []slack.Block{present.Section(text)}
}

// Row is the intent table's row for subscriptions, answered by h (nil: facts
// only, for help and tests). Its words are the lexicon's (intents: subscribe).
func Row(h *Handler) intent.Row {
	r := intent.Row{ID: parse.Subscribe, Example: "/gpu subscribe daily", Writes: true, Public: true,
		Help: "daily price post and monthly recap in this channel", HelpZH: "在本频道订阅每日价格和月度回顾"}
	if h != nil {
		r.Handler = h
	}
	return r
}
