package transport

import (
	"context"
	"strings"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/present"
)

// HomeTab publishes the App Home tab when a user opens it: what the bot
// can do, the team's settings, and the five most useful commands.
type HomeTab struct {
	Views viewPublisher
	// Settings lists the team's settings as mrkdwn lines (currency, time
	// zone, subscribed channels as <#C…> links), escaped by the caller;
	// nil shows the defaults only.
	Settings func(ctx context.Context, team string) []string
}

// viewPublisher is views.publish; *slack.Client is one.
type viewPublisher interface {
	PublishViewContext(ctx context.Context, req slack.PublishViewContextRequest) (*slack.ViewResponse, error)
}

// homeCommands are the five commands most teams start with, both languages.
var homeCommands = []string{
	"/gpu fit 13b lora — VRAM needed and which cards fit · 显存与放得下的卡",
	"/gpu cost 70b inference 100M tokens — money and $/M tokens · 费用与每百万 token 成本",
	"/gpu monthly 4090 200h — monthly plan or on demand · 包月还是按需",
	"/gpu price h100 — every offer with its date · 全部报价及日期",
	"/gpu spend report — the team's spend this month · 团队本月花费",
}

// home publishes the Home tab for user.
func (a *App) home(ctx context.Context, team, user string) {
	h := a.cfg.Home
	if h == nil || h.Views == nil || user == "" {
		return
	}
	settings := []string{
		present.Escape("Currency: CNY for Chinese questions, USD for English ones (currency=usd|cny on any question) · 币种：中文问题用人民币，英文用美元"),
	}
	if h.Settings != nil {
		settings = append(settings, h.Settings(ctx, team)...)
	}
	blocks := []slack.Block{
		present.Header("gpubot"),
		present.Section(present.Escape("GPU procurement advice in English or Chinese: which card fits a job, what it costs, monthly plan or on demand, rent or buy, today's prices, and the team's own spend. Every number shows its working.\n" +
			"GPU 选型与采购建议（中英文）：哪张卡放得下、花多少钱、包月还是按需、租还是买、今日价格，以及团队自己的花费。每个数字都附计算过程。")),
		present.Section("*" + present.Escape("Settings · 设置") + "*\n• " + strings.Join(settings, "\n• ")),
		present.Section("*" + present.Escape("Start with · 常用命令") + "*\n" + present.Escape("• "+strings.Join(homeCommands, "\n• "))),
		present.Context(present.Escape("/gpu help lists everything · /gpu help 查看全部命令. Ask in a DM, mention @gpubot, or /gpu listen on in a channel.")),
	}
	view := slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: present.Limit(blocks, 0)}}
	if _, err := h.Views.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: user, View: view}); err != nil {
		a.log.WarnContext(ctx, "home tab not published", "team", team, "user", user, "err", err)
	}
}
