package profile

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// authorizer says who may change a team's settings (workspace admins);
// *ledger.Authorizer satisfies it.
type authorizer interface {
	IsAdmin(ctx context.Context, team, user string) (bool, error)
}

// Handler answers /gpu settings: alone it shows the profile; with
// key=value words (admins only) it changes them.
type Handler struct {
	st   *Store
	kb   *knowledge.Base
	auth authorizer
	now  func() time.Time
}

// NewHandler returns the /gpu settings handler; auth nil lets anyone change
// settings (the console).
func NewHandler(st *Store, kb *knowledge.Base, auth authorizer, now func() time.Time) *Handler {
	if now == nil {
		now = time.Now
	}
	return &Handler{st: st, kb: kb, auth: auth, now: now}
}

var tr = present.Tr

// Handle answers one /gpu settings command.
func (h *Handler) Handle(ctx context.Context, m bot.Message, req parse.Request, a *bot.Answer) error {
	team, console := m.Team, m.Team == ""
	if console {
		team = "local" // console and CLI share one workspace and are trusted, as for bill imports
	}
	p, err := h.st.Get(ctx, team)
	if err != nil {
		return err
	}
	args := req.Slots.Args
	if len(args) > 0 && (args[0] == "show" || args[0] == "list") {
		args = args[1:]
	}
	if len(args) > 0 {
		if h.auth != nil && !console {
			ok, err := h.auth.IsAdmin(ctx, team, m.User)
			if err != nil || !ok {
				return &intent.Error{Code: intent.EFORBIDDEN, Field: "settings", Hint: "/gpu settings", Err: err,
					Message: "only workspace admins can change the team's settings", MessageZH: "只有工作区管理员可以修改团队设置"}
			}
		}
		next, changed, err := Apply(p, args, h.kb)
		if err != nil {
			return err // a *SettingError reads as an invalid intent.Error
		}
		next.Team, next.UpdatedBy, next.UpdatedAt = team, m.User, h.now().UTC().Round(0)
		if err := h.st.Put(ctx, next); err != nil {
			return err
		}
		p = next
		a.Text = tr(a.Lang, "Settings saved: ", "设置已保存：") + strings.Join(changed, "; ") + "\n"
	}
	a.Result = p
	a.Text += Describe(p, a.Lang)
	a.Blocks = []slack.Block{present.Section(present.EscapeControl(a.Text))}
	return nil
}

// Describe is the profile as /gpu settings shows it, defaults named.
func Describe(p Profile, lang string) string {
	val := func(set bool, v, def string) string {
		if set {
			return v
		}
		return def
	}
	cur := val(p.Currency != "", string(p.Currency), tr(lang, "by the asker's language (CNY in Chinese, USD in English)", "按提问语言（中文 CNY，英文 USD）"))
	fx := val(p.FX > 0, fmt.Sprintf("%g CNY per USD", p.FX), tr(lang, "the bot's default rate", "机器人默认汇率"))
	pl := val(len(p.Platforms) > 0, strings.Join(p.Platforms, ", "), tr(lang, "any", "不限"))
	cards := val(len(p.Cards) > 0, cardList(p.Cards), tr(lang, "none", "无"))
	ch := val(p.RecapChannel != "", "<#"+p.RecapChannel+">", tr(lang, "not set", "未设置"))
	persona := val(p.Persona != "", p.Persona, tr(lang, "not set (every offer is priced)", "未设置（所有报价都计入）"))
	if p.Persona == "enterprise" {
		persona = tr(lang, "enterprise (prices from contracted clouds only, no spot or marketplaces unless asked)", "企业（只按签约型云厂商报价，除非指明否则不含竞价和算力市场）")
	}
	return tr(lang,
		fmt.Sprintf("Team settings — currency: %s · FX: %s · platforms: %s · cards owned: %s · recap and budget channel: %s · persona: %s\nChange with /gpu settings currency=CNY fx=7.2 platforms=aliyun,autodl cards=h800:8 channel=#gpu-spend persona=enterprise",
			cur, fx, pl, cards, ch, persona),
		fmt.Sprintf("团队设置 — 币种：%s · 汇率：%s · 可用平台：%s · 自有显卡：%s · 月报和预算提醒频道：%s · 身份：%s\n修改：/gpu settings currency=CNY fx=7.2 platforms=aliyun,autodl cards=h800:8 channel=#gpu-spend persona=enterprise",
			cur, fx, pl, cards, ch, persona))
}

// Row is the intent table's row for team settings, answered by h (nil: facts
// only, for help and tests). Its words are the lexicon's (intents: settings).
func Row(h *Handler) intent.Row {
	r := intent.Row{ID: parse.Settings, Example: "/gpu settings", Writes: true,
		Help: "team defaults: currency, platforms, cards", HelpZH: "团队设置：币种、平台、自有卡"}
	if h != nil {
		r.Handler = h
	}
	return r
}
