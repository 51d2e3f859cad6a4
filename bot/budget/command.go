package budget

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

type authorizer interface {
	IsAdmin(ctx context.Context, team, user string) (bool, error)
}

// Handler answers /gpu budget [show], /gpu budget set [project] AMOUNT/month
// and /gpu budget clear [project].
type Handler struct {
	alerts *Alerts
	auth   authorizer
	now    func() time.Time
}

// NewHandler returns the /gpu budget handler; auth nil lets anyone set
// budgets (the console).
func NewHandler(a *Alerts, auth authorizer, now func() time.Time) *Handler {
	if now == nil {
		now = time.Now
	}
	return &Handler{alerts: a, auth: auth, now: now}
}

const hint = "/gpu budget set pretrain ¥100k/month"

// Handle answers one /gpu budget command.
func (h *Handler) Handle(ctx context.Context, m bot.Message, req parse.Request, a *bot.Answer) error {
	team, console := m.Team, m.Team == ""
	if console {
		team = "local"
	}
	args := req.Slots.Args
	verb := "show"
	if len(args) > 0 {
		verb, args = args[0], args[1:]
	}
	if verb == "set" || verb == "clear" || verb == "delete" || verb == "remove" {
		if h.auth != nil && !console {
			if ok, err := h.auth.IsAdmin(ctx, team, m.User); err != nil || !ok {
				return &advisor.InputError{Field: "budget", Reason: present.Tr(a.Lang, "only workspace admins can set budgets", "只有工作区管理员可以设置预算"), Hint: "/gpu budget"}
			}
		}
	}
	st := h.alerts.st
	switch verb {
	case "set":
		var alerts []int
		scope := ""
		rest := args[:0:0]
		for _, w := range args {
			if sc, ok := h.scopeArg(w); ok {
				scope = sc
				continue
			}
			if v, ok := strings.CutPrefix(strings.ToLower(w), "alerts="); ok {
				ts, err := ParseAlerts(v)
				if err != nil {
					return &advisor.InputError{Field: "alerts", Reason: present.Tr(a.Lang, err.Error(), fmt.Sprintf("%q 不是百分比列表，例如 50,80,100", v)), Hint: hint + " alerts=50,80,100"}
				}
				alerts = ts
				continue
			}
			rest = append(rest, w)
		}
		args = rest
		if len(args) == 0 || len(args) > 2 {
			return &advisor.InputError{Field: "budget", Reason: present.Tr(a.Lang, "give a project (or none for the team) and a monthly amount", "请给出项目（不写即整个团队）和每月金额"), Hint: hint}
		}
		project := Team
		if len(args) == 2 {
			project = strings.ToLower(args[0])
		}
		if scope != "" {
			if len(args) == 2 {
				return &advisor.InputError{Field: "budget", Reason: present.Tr(a.Lang, "give one scope: a project, or team=, or platform=", "只能给一个范围：项目、team= 或 platform="), Hint: hint}
			}
			project = scope
		}
		def := knowledge.CNY
		if a.Lang == "en" {
			def = knowledge.USD
		}
		amt, period, err := ParseBudget(args[len(args)-1], def)
		if err != nil {
			return &advisor.InputError{Field: "amount", Reason: present.Tr(a.Lang, fmt.Sprintf("read %q: %v", args[len(args)-1], err), fmt.Sprintf("读到 %q：%v", args[len(args)-1], err)), Hint: hint}
		}
		b := Budget{Team: team, Project: project, Amount: amt, SetBy: m.User, SetAt: h.now().UTC().Round(0), Period: period, Alerts: alerts}
		if err := st.Set(ctx, b); err != nil {
			return err
		}
		per, perZH := map[string][2]string{Month: {"a month", "每月"}, Quarter: {"a quarter", "每季度"}, Year: {"a year", "每年"}}[period][0], map[string][2]string{Month: {"a month", "每月"}, Quarter: {"a quarter", "每季度"}, Year: {"a year", "每年"}}[period][1]
		var pct []string
		for _, t := range b.thresholds() {
			pct = append(pct, fmt.Sprint(t))
		}
		a.Text = present.Tr(a.Lang, fmt.Sprintf("Budget set: %s, %s %s. Alerts at %s %% and when the forecast (committed spend + run rate) will pass it.\n", name(project, "en"), amt, per, strings.Join(pct, ", ")),
			fmt.Sprintf("预算已设置：%s，%s %s。达到 %s%% 以及按预测（固定费用 + 运行速率）将超支时提醒。\n", name(project, "zh"), perZH, amt, strings.Join(pct, "%、")))
	case "clear", "delete", "remove":
		project := Team
		if len(args) > 0 {
			project = strings.ToLower(args[0])
			if sc, ok := h.scopeArg(args[0]); ok {
				project = sc
			}
		}
		ok, err := st.Clear(ctx, team, project)
		if err != nil {
			return err
		}
		if !ok {
			return &advisor.InputError{Field: "budget", Reason: present.Tr(a.Lang, fmt.Sprintf("%s has no budget", name(project, "en")), fmt.Sprintf("%s没有预算", name(project, "zh"))), Hint: "/gpu budget"}
		}
		a.Text = present.Tr(a.Lang, "Budget removed: "+name(project, "en")+"\n", "预算已删除："+name(project, "zh")+"\n")
	case "show", "list":
	default:
		return &advisor.InputError{Field: "budget", Reason: present.Tr(a.Lang, fmt.Sprintf("unknown budget action %q", verb), fmt.Sprintf("不认识的预算操作 %q", verb)), Hint: hint}
	}
	states, err := h.states(ctx, team)
	if err != nil {
		return err
	}
	a.Result = States(states)
	a.Text += Describe(states, a.Lang)
	a.Blocks = []slack.Block{present.Section(present.EscapeControl(a.Text))}
	return nil
}

func (h *Handler) states(ctx context.Context, team string) ([]State, error) {
	bs, err := h.alerts.st.List(ctx, team)
	if err != nil || len(bs) == 0 {
		return nil, err
	}
	now := h.now()
	var out []State
	for _, b := range bs {
		st, err := h.alerts.State(ctx, b, now, h.alerts.fx)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// name is what a budget covers, for people: "the team", "team vision",
// "platform autodl", "project llm-ft" (a project alone in English).
func name(project, lang string) string {
	switch {
	case project == Team:
		return present.Tr(lang, "the team", "整个团队")
	case strings.HasPrefix(project, TeamScope):
		return present.Tr(lang, "team ", "团队 ") + strings.TrimPrefix(project, TeamScope)
	case strings.HasPrefix(project, PlatformScope):
		id := strings.TrimPrefix(project, PlatformScope)
		if pl, ok := knowledge.MustShipped().Platform(id); ok {
			if lang == "zh" && pl.NameZH != "" {
				id = pl.NameZH
			} else if pl.Name != "" {
				id = pl.Name
			}
		}
		return present.Tr(lang, "platform ", "平台 ") + id
	}
	return present.Tr(lang, project, "项目 "+project)
}

// scopeArg reads a budget's scope written as a setting: team=vision (or
// 团队=, cost_center=), platform=autodl (平台=), project=llm-ft; ok is
// false for any other word.
func (h *Handler) scopeArg(w string) (string, bool) {
	k, v, ok := strings.Cut(w, "=")
	if !ok || strings.TrimSpace(v) == "" {
		return "", false
	}
	switch strings.ToLower(k) {
	case "team", "团队", "部门", "cost_center", "costcenter", "cost-center":
		return TeamScope + ledger.FoldName(v), true
	case "platform", "平台", "on":
		return PlatformScope + h.alerts.ledger.Platform(v), true
	case "project", "项目", "proj":
		return ledger.FoldName(v), true
	}
	return "", false
}

// Describe lists budget states, one line each.
func Describe(states []State, lang string) string {
	if len(states) == 0 {
		return present.Tr(lang, "No budgets yet. Set one: "+hint, "还没有预算。设置：/gpu budget set pretrain ¥100k/month")
	}
	var b strings.Builder
	b.WriteString(present.Tr(lang, "Budgets for ", "预算 ") + states[0].Month.String() + ":\n")
	for _, s := range states {
		reach := ""
		if s.ReachDay > 0 {
			reach = present.Tr(lang, fmt.Sprintf("; at this pace reached on the %s", ordinal(s.ReachDay)), fmt.Sprintf("；按目前速度 %d 日用完", s.ReachDay))
		}
		fmt.Fprintf(&b, "• %s: %s / %s (%.0f%%), %s %s%s\n", name(s.Budget.Project, lang), s.Spent, s.Budget.Amount, s.Share*100,
			present.Tr(lang, "projected", "月底预计"), s.Projected, reach)
	}
	return strings.TrimRight(b.String(), "\n")
}

// Row is the intent table's row for budgets, answered by h (nil: facts
// only, for help and tests). Its words are the lexicon's (intents: budget).
func Row(h *Handler) intent.Row {
	r := intent.Row{ID: parse.Budget, Example: "/gpu budget set pretrain ¥100k/month", ExampleZH: "/gpu budget", Writes: true,
		Help: "monthly budgets with alerts", HelpZH: "月度预算与超支提醒"}
	if h != nil {
		r.Handler = h
	}
	return r
}
