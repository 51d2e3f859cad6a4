package transport

import (
	"context"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/present"
)

// HomeTab publishes the App Home tab when a user opens it: what the bot
// can do, the team's settings, budgets and the user's price watches with
// buttons to change them, and the five most useful commands. Each button
// opens a modal (modal.go); what a modal submits is answered as the typed
// /gpu command it spells, by the same handlers.
type HomeTab struct {
	Views viewAPI
	// Settings lists the team's scheduling settings as mrkdwn lines (time
	// zone, post times, subscribed channels as <#C…> links), escaped by the
	// caller; nil shows the defaults only.
	Settings func(ctx context.Context, team string) []string
	// Watches lists user's price watches, each with a Stop button; nil
	// leaves the section out.
	Watches func(ctx context.Context, team, user string) ([]HomeWatch, error)
}

// HomeWatch is one price watch on the Home tab: its id and what it
// watches, in words (watch.What).
type HomeWatch struct{ ID, Text string }

// viewAPI is views.publish and views.open; *slack.Client is one.
type viewAPI interface {
	PublishViewContext(ctx context.Context, req slack.PublishViewContextRequest) (*slack.ViewResponse, error)
	OpenViewContext(ctx context.Context, triggerID string, view slack.ModalViewRequest) (*slack.ViewResponse, error)
}

// homeCommands are the five commands most teams start with, both languages.
var homeCommands = []string{
	"/gpu fit 13b lora — VRAM needed and which cards fit · 显存与放得下的卡",
	"/gpu cost 70b inference 100M tokens — money and $/M tokens · 费用与每百万 token 成本",
	"/gpu monthly 4090 200h — monthly plan or on demand · 包月还是按需",
	"/gpu price h100 — every offer with its date · 全部报价及日期",
	"/gpu spend report — the team's spend this month · 团队本月花费",
}

// Home tab action ids: each opens its form (modal.go); unwatch ids end in
// the watch's id, so every action id on the tab is unique.
const (
	homePrefix  = actionPrefix + "home."
	homeUnwatch = homePrefix + "unwatch."
)

// homeButton is a button that opens form name.
func homeButton(name, text string) *slack.ButtonBlockElement {
	return slack.NewButtonBlockElement(homePrefix+name, name, present.Plain(text))
}

// home publishes the Home tab for user.
func (a *App) home(ctx context.Context, team, user string) {
	h := a.cfg.Home
	if h == nil || h.Views == nil || user == "" {
		return
	}
	lang := askerLang("", a.locale(ctx, team, user, ""))
	// The team's settings and budgets as the bot answers /gpu settings and
	// /gpu budget: the same handlers, in the user's language.
	show := func(cmd string) string {
		ans := a.bot.Answer(ctx, bot.Message{Text: cmd, Slash: true, Team: team, User: user, Channel: user, Locale: localeOf(lang)})
		return ans.Text
	}
	var schedules []string
	if h.Settings != nil {
		schedules = h.Settings(ctx, team)
	}
	blocks := []slack.Block{
		present.Header("gpubot"),
		present.Section(present.Escape("GPU procurement advice in English or Chinese: which card fits a job, what it costs, monthly plan or on demand, rent or buy, today's prices, and the team's own spend. Every number shows its working.\n" +
			"GPU 选型与采购建议（中英文）：哪张卡放得下、花多少钱、包月还是按需、租还是买、今日价格，以及团队自己的花费。每个数字都附计算过程。")),
		slack.NewActionBlock("home.spend", homeButton("spend", tr(lang, "➕ Log spend", "➕ 记一笔"))),
		slack.NewDividerBlock(),
		present.Header(tr(lang, "Team settings", "团队设置")),
		section("home.settings.text", clip(escape(show("settings")), 2900)),
	}
	if len(schedules) > 0 {
		blocks = append(blocks, present.Section("*"+present.Escape(tr(lang, "Scheduled posts", "定时推送"))+"*\n• "+strings.Join(schedules, "\n• ")))
	}
	blocks = append(blocks,
		slack.NewActionBlock("home.settings", homeButton("settings", tr(lang, "Change settings", "修改设置"))),
		slack.NewDividerBlock(),
		present.Header(tr(lang, "Budgets", "预算")),
		section("home.budget.text", clip(escape(show("budget")), 2900)),
		slack.NewActionBlock("home.budget", homeButton("budget", tr(lang, "Set a budget", "设置预算"))),
		slack.NewDividerBlock(),
	)
	if h.Watches != nil {
		blocks = append(blocks, present.Header(tr(lang, "Your price watches", "你的价格提醒")))
		ws, err := h.Watches(ctx, team, user)
		switch {
		case err != nil:
			a.log.WarnContext(ctx, "home tab: watches not read", "team", team, "user", user, "err", err)
			blocks = append(blocks, present.Context(escape(tr(lang, "Your watches could not be read just now; /gpu watch list shows them.", "暂时读不到你的价格提醒；/gpu watch list 可查看。"))))
		case len(ws) == 0:
			blocks = append(blocks, present.Context(escape(tr(lang, "None yet.", "暂无。"))))
		}
		for i, w := range ws {
			if i == 20 { // a view holds 100 blocks; the rest are one command away
				blocks = append(blocks, present.Context(escape(tr(lang, fmt.Sprintf("… and %d more: /gpu watch list", len(ws)-i), fmt.Sprintf("… 另有 %d 个：/gpu watch list", len(ws)-i)))))
				break
			}
			stop := slack.NewButtonBlockElement(homeUnwatch+w.ID, w.ID, present.Plain(tr(lang, "Stop", "取消")))
			blocks = append(blocks, slack.NewSectionBlock(mrkdwn(escape("#"+w.ID+" "+w.Text)), nil, slack.NewAccessory(stop), slack.SectionBlockOptionBlockID("home.watch."+w.ID)))
		}
		blocks = append(blocks, slack.NewActionBlock("home.watch", homeButton("watch", tr(lang, "➕ Watch a price", "➕ 添加价格提醒"))), slack.NewDividerBlock())
	}
	blocks = append(blocks,
		present.Section("*"+present.Escape("Start with · 常用命令")+"*\n"+present.Escape("• "+strings.Join(homeCommands, "\n• "))),
		present.Context(present.Escape("/gpu help lists everything · /gpu help 查看全部命令. Ask in a DM, mention @gpubot, or /gpu listen on in a channel.")),
	)
	view := slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: blocks}}
	if _, err := h.Views.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: user, View: view}); err != nil {
		a.log.WarnContext(ctx, "home tab not published", "team", team, "user", user, "err", err)
	}
}

// section is a mrkdwn section with a block id; the caller has escaped s.
func section(id, s string) slack.Block {
	if strings.TrimSpace(s) == "" {
		s = "—"
	}
	return slack.NewSectionBlock(mrkdwn(s), nil, nil, slack.SectionBlockOptionBlockID(id))
}

// localeOf is a Slack locale for lang, so a command answered for the Home
// tab is in the user's language.
func localeOf(lang string) string {
	if lang == "zh" {
		return "zh-CN"
	}
	return "en-US"
}
