package budget

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
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
	if v, ok := verbsZH[verb]; ok {
		verb = v // "/gpu 预算 设置 ¥2万/月"
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
		scope, stated := "", ""
		rest := args[:0:0]
		for _, w := range args {
			if v, ok := strings.CutPrefix(w, "spent="); ok {
				stated = v // "set … ; spent $56,300 — over?": checked once set
				continue
			}
			if k, v, ok := strings.Cut(w, "="); ok && gpuKeys[strings.ToLower(k)] {
				if _, ok := h.alerts.ledger.GPUFamily(v); !ok {
					return &advisor.InputError{Field: "gpu", Reason: present.Tr(a.Lang, fmt.Sprintf("read gpu=%s, which is no card or card family (H100, A100, 4090, h100-sxm …)", v),
						fmt.Sprintf("读到 gpu=%s，不是已知的显卡或系列（H100、A100、4090、h100-sxm……）", v)), Hint: "/gpu budget set gpu=H100 $20k/month"}
				}
			}
			if sc, ok := h.scopeArg(w); ok {
				scope = sc
				continue
			}
			if v, ok := strings.CutPrefix(strings.ToLower(w), "alerts="); ok {
				ts, err := ParseAlerts(v)
				if err != nil {
					return alertsError(a.Lang, v, err)
				}
				alerts = ts
				continue
			}
			rest = append(rest, w)
		}
		args = rest
		if alerts != nil && (len(args) == 0 || len(args) == 1 && !looksLikeAmount(args[0])) {
			// "set an alert when project Atlas hits 80% of budget": the
			// thresholds on the budget it has, its amount kept
			project := scope
			if len(args) == 1 {
				project = strings.ToLower(args[0])
			}
			if project == "" {
				// "alert me at 180% of the budget": the team's budget, or
				// the one budget there is
				p, err := h.onlyBudget(ctx, team, a.Lang)
				if err != nil {
					return err
				}
				project = p
			}
			return h.setAlerts(ctx, a, team, project, alerts)
		}
		if len(args) == 0 || len(args) > 2 {
			return &advisor.InputError{Field: "budget", Reason: present.Tr(a.Lang, "give a project (or none for the team) and a monthly amount", "请给出项目（不写即整个团队）和每月金额"), Hint: hint}
		}
		project := Team
		if len(args) == 2 {
			project = strings.ToLower(args[0])
		}
		if scope != "" {
			if len(args) == 2 {
				return &advisor.InputError{Field: "budget", Reason: present.Tr(a.Lang, "give one scope: a project, or team=, platform= or gpu=", "只能给一个范围：项目、team=、platform= 或 gpu="), Hint: hint}
			}
			project = scope
		}
		def := knowledge.CNY
		if a.Lang == "en" {
			def = knowledge.USD
		}
		amt, period, err := ParseBudget(args[len(args)-1], def)
		if err != nil {
			return &advisor.InputError{Field: "amount", Reason: present.Tr(a.Lang, fmt.Sprintf("read %q: %v", args[len(args)-1], err), fmt.Sprintf("读到 %q：不是可用的预算金额，请写金额和周期（如 ¥2万/月、$15k/quarter）", args[len(args)-1])), Hint: hint}
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
		a.Text += overAlertText(b, a.Lang)
		if stated != "" {
			c, err := h.checkStated(ctx, team, amt, stated, def, a.Lang)
			if err != nil {
				return err
			}
			// the question's answer first, then the budget it set
			a.Text = statedText(c, name(project, a.Lang), per, perZH, a.Lang) + "\n" + a.Text
			a.Result = c
			a.Use("amount", "what you said is spent: checked against the budget set")
			a.Blocks = []slack.Block{present.Section(present.EscapeControl(strings.TrimRight(a.Text, "\n")))}
			return nil
		}
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
	at := h.now()
	periodSaid := false
	if req.Slots.Month != "" && (verb == "show" || verb == "list") {
		// "上个月超预算了吗": the budget as that month closed
		loc := h.alerts.ledger.Location()
		mo, err := ledger.ResolveMonth(req.Slots.Month, at, loc)
		if err != nil {
			return err
		}
		if end := mo.End(loc); end.Before(at) {
			at = end.Add(-time.Nanosecond)
		}
		a.Use("month", "the month the budget is checked for")
		periodSaid = true
	} else if p, ok := ledger.ReadPeriod(m.Text, at, h.alerts.ledger.Location()); ok && (verb == "show" || verb == "list") {
		periodSaid = true
		// "Q3 budget vs actual": the budgets as that quarter or year closed
		if end := p.End(h.alerts.ledger.Location()); end.Before(at) {
			at = end.Add(-time.Nanosecond)
		}
	}
	states, err := h.states(ctx, team, at)
	if err != nil {
		return err
	}
	a.Result = States(states)
	pick, named := pickState(states, m.Text)
	if (verb == "show" || verb == "list") && pick >= 0 && reLeftAsk.MatchString(strings.ToLower(m.Text)) && (named || len(states) == 1 || states[pick].Budget.Project == Team) {
		// "nlp 这个月预算还剩多少？", "how much over or under budget is
		// infra?": the budget named, what is left (or over), first
		a.Text += leftLine(states[pick], a.Lang)
		a.Use("yes_no", "the budget's verdict and what is left")
	} else if req.Slots.YesNo && (verb == "show" || verb == "list") && len(states) > 0 {
		line := verdictLine(states[max(pick, 0)], a.Lang) // "上个月超预算了吗": the answer first
		if st := states[max(pick, 0)]; !periodSaid && st.Spent.Minor == 0 && !st.Unconverted {
			// "are we over budget?" on the 2nd with nothing booked yet:
			// this period is empty; last period's result is the answer wanted
			prev, err := h.alerts.Previous(ctx, st.Budget, at, h.alerts.teamFX(ctx, team))
			if err != nil {
				return err
			}
			line = emptyVerdict(st, prev, a.Lang)
			a.Use("yes_no", "this period has nothing booked: last period's result is given too")
		}
		a.Text += line
	}
	a.Text += Describe(states, a.Lang)
	a.Blocks = []slack.Block{present.Section(present.EscapeControl(a.Text))}
	return nil
}

// checkStated is the spend a budget change stated (stated, in def when
// it names no currency) against the amount set, converted at the team's
// rate when the two currencies differ.
func (h *Handler) checkStated(ctx context.Context, team string, amt ledger.Money, stated string, def knowledge.Currency, lang string) (ledger.Check, error) {
	spent, err := ledger.ParseAmount(stated, def)
	if err != nil {
		return ledger.Check{}, &advisor.InputError{Field: "amount", Reason: present.Tr(lang, fmt.Sprintf("read %q as what is spent: %v", stated, err), fmt.Sprintf("读到已花 %q：不是可用的金额", stated)), Hint: hint}
	}
	if spent.Currency != amt.Currency {
		fx := h.alerts.teamFX(ctx, team)
		conv := ledger.FX{To: amt.Currency, Rates: map[knowledge.Currency]float64{}}
		switch {
		case fx > 0 && amt.Currency == knowledge.CNY:
			conv.Rates[knowledge.USD] = fx
		case fx > 0 && amt.Currency == knowledge.USD:
			conv.Rates[knowledge.CNY] = 1 / fx
		}
		v, ok := conv.ConvertMoney(spent)
		if !ok {
			return ledger.Check{}, &advisor.InputError{Field: "amount", Reason: present.Tr(lang, fmt.Sprintf("the budget is in %s and the spend in %s, with no rate between them", amt.Currency, spent.Currency),
				fmt.Sprintf("预算是 %s，已花是 %s，没有换算汇率", amt.Currency, spent.Currency)), Hint: "/gpu settings fx=7.2"}
		}
		spent = v
	}
	return ledger.CheckSpent(amt, spent), nil
}

// statedText answers "over?" of a stated spend against the budget just
// set: the verdict, the figures and the arithmetic.
func statedText(c ledger.Check, who, per, perZH, lang string) string {
	pct := present.Pct(c.Share)
	if c.Over {
		over := ledger.Money{Minor: -c.Left.Minor, Currency: c.Left.Currency}
		return present.Tr(lang, fmt.Sprintf("Over budget: %s spent of %s's %s %s (%s), over by %s.\nHow: %s (your figures; the ledger was not read)", c.Spent, who, c.Budget, per, pct, over, c.How),
			fmt.Sprintf("超了：%s %s预算 %s，已花 %s（%s），超出 %s。\n算法：%s（用你给的数，未读账本）", who, perZH, c.Budget, c.Spent, pct, over, c.How))
	}
	return present.Tr(lang, fmt.Sprintf("Within budget: %s spent of %s's %s %s (%s), %s left.\nHow: %s (your figures; the ledger was not read)", c.Spent, who, c.Budget, per, pct, c.Left, c.How),
		fmt.Sprintf("没超：%s %s预算 %s，已花 %s（%s），还剩 %s。\n算法：%s（用你给的数，未读账本）", who, perZH, c.Budget, c.Spent, pct, c.Left, c.How))
}

func (h *Handler) states(ctx context.Context, team string, now time.Time) ([]State, error) {
	bs, err := h.alerts.st.List(ctx, team)
	if err != nil || len(bs) == 0 {
		return nil, err
	}
	fx := h.alerts.teamFX(ctx, team)
	var out []State
	for _, b := range bs {
		st, err := h.alerts.State(ctx, b, now, fx)
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
		en, zh := knowledge.MustShipped().PlatformNames(strings.TrimPrefix(project, PlatformScope))
		return present.Tr(lang, "platform "+en, "平台 "+zh)
	case strings.HasPrefix(project, GPUScope):
		return cardsName(strings.TrimPrefix(project, GPUScope), lang)
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
	case "gpu", "card", "cards", "显卡", "卡", "型号": // gpuKeys
		if fam, ok := h.alerts.ledger.GPUFamily(v); ok {
			return GPUScope + fam, true
		}
		return "", false
	}
	return "", false
}

// gpuKeys are the keys of a card budget's scope (gpu=H100).
var gpuKeys = map[string]bool{"gpu": true, "card": true, "cards": true, "显卡": true, "卡": true, "型号": true}

// cardsName is a card budget's scope for people: "H100 cards (H100 SXM,
// H100 PCIe)" for a family, "A10 cards" for one card.
func cardsName(fam, lang string) string {
	kb := knowledge.MustShipped()
	var members []string
	for _, g := range kb.GPUs {
		if ledger.InFamily(g.ID, fam) {
			members = append(members, kb.GPUName(g.ID))
		}
	}
	head := strings.ToUpper(fam)
	if len(members) == 1 {
		head = members[0]
	}
	if len(members) > 1 {
		return present.Tr(lang, head+" cards ("+strings.Join(members, ", ")+")", head+" 系列显卡（"+strings.Join(members, "、")+"）")
	}
	return present.Tr(lang, head+" cards", head+" 显卡")
}

// Describe lists budget states, one line each.
func Describe(states []State, lang string) string {
	if len(states) == 0 {
		return present.Tr(lang, "No budgets yet. Set one: "+hint, "还没有预算。设置：/gpu budget set pretrain ¥100k/month")
	}
	var b strings.Builder
	one := true // every budget's period is the same: the heading names it
	for _, s := range states {
		one = one && s.Period == states[0].Period
	}
	if one {
		b.WriteString(present.Tr(lang, "Budgets for ", "预算 ") + states[0].Period + ":\n")
	} else {
		b.WriteString(present.Tr(lang, "Budgets:\n", "预算：\n"))
	}
	for _, s := range states {
		reach := ""
		if s.ReachDay > 0 {
			reach = present.Tr(lang, fmt.Sprintf("; at this pace reached on the %s", ordinal(s.ReachDay)), fmt.Sprintf("；按目前速度 %d 日用完", s.ReachDay))
		}
		who := name(s.Budget.Project, lang)
		if !one {
			who += " (" + s.Period + ")"
		}
		projected := present.Tr(lang, "projected", "月底预计")
		if s.Budget.Period != Month {
			projected = present.Tr(lang, "projected", "期末预计")
		}
		fmt.Fprintf(&b, "• %s: %s / %s (%.0f%%), %s %s%s\n", who, s.Spent, s.Budget.Amount, s.Share*100, projected, s.Projected, reach)
	}
	return strings.TrimRight(b.String(), "\n")
}

// verdictLine answers "are we over?" for the first budget listed (the
// team's, when it has one): over or not, spent of the budget, the period.
func verdictLine(st State, lang string) string {
	spent, budget := st.Spent.String(), st.Budget.Amount.String()
	pct := present.Pct(st.Share)
	if st.Share > 1 {
		return present.Tr(lang, fmt.Sprintf("Over budget: %s spent of %s for %s (%s).\n", spent, budget, st.Period, pct),
			fmt.Sprintf("超了：%s 花了 %s，预算 %s（%s）。\n", st.Period, spent, budget, pct))
	}
	return present.Tr(lang, fmt.Sprintf("Within budget: %s spent of %s for %s (%s).\n", spent, budget, st.Period, pct),
		fmt.Sprintf("没超：%s 花了 %s，预算 %s（%s）。\n", st.Period, spent, budget, pct))
}

// reLeftAsk asks what is left of a budget, or by how much it is over.
var reLeftAsk = regexp.MustCompile(`还剩|剩多少|剩下多少|剩余多少|还能花|超了多少|超多少|\bleft\b|remaining|headroom|over or under|under or over|how far (?:over|under)`)

// pickState is the state whose budget the text names ("nlp", "team
// vision", "project falcon"); named is false when none is, and pick is then
// the first state (-1 when there are none).
func pickState(states []State, text string) (pick int, named bool) {
	t := strings.ToLower(text)
	for i, st := range states {
		p := st.Budget.Project
		for _, pre := range []string{TeamScope, PlatformScope, GPUScope} {
			p = strings.TrimPrefix(p, pre)
		}
		if stem := teamStem(p); stem != "" && p != Team && strings.Contains(t, stem) {
			return i, true
		}
	}
	if len(states) == 0 {
		return -1, false
	}
	for i, st := range states {
		if st.Budget.Project == Team {
			return i, false // none named: the whole team's, when there is one
		}
	}
	return 0, false
}

// leftLine says what is left of st's budget, or by how much it is over.
func leftLine(st State, lang string) string {
	who := name(st.Budget.Project, lang)
	left := ledger.Money{Minor: st.Budget.Amount.Minor - st.Spent.Minor, Currency: st.Spent.Currency}
	spent, budget, pct := st.Spent.String(), st.Budget.Amount.String(), present.Pct(st.Share)
	if left.Minor < 0 {
		over := ledger.Money{Minor: -left.Minor, Currency: left.Currency}
		return present.Tr(lang, fmt.Sprintf("Over budget: %s is %s over its %s for %s (%s spent, %s).\n", who, over, budget, st.Period, spent, pct),
			fmt.Sprintf("超了：%s %s 超出预算 %s（预算 %s，已花 %s，%s）。\n", who, st.Period, over, budget, spent, pct))
	}
	return present.Tr(lang, fmt.Sprintf("Under budget: %s has %s left of %s for %s (%s spent, %s).\n", who, left, budget, st.Period, spent, pct),
		fmt.Sprintf("没超：%s %s 预算还剩 %s（预算 %s，已花 %s，%s）。\n", who, st.Period, left, budget, spent, pct))
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

// verbsZH are the budget command's verbs written in Chinese.
var verbsZH = map[string]string{"设置": "set", "设": "set", "改": "set", "查看": "show", "看": "show", "列表": "list", "清除": "clear", "删除": "delete"}

// looksLikeAmount reports whether w reads as a budget's amount (the
// budget reader's), not a project's name.
func looksLikeAmount(w string) bool {
	_, _, err := ParseBudget(strings.TrimSpace(w), knowledge.USD)
	return err == nil
}

// setAlerts puts new alert thresholds on a budget that exists, keeping its
// amount and period; with none, it says how to set one with the alert.
func (h *Handler) setAlerts(ctx context.Context, a *bot.Answer, team, project string, alerts []int) error {
	bs, err := h.alerts.st.List(ctx, team)
	if err != nil {
		return err
	}
	for _, b := range bs {
		if b.Project != project {
			continue
		}
		b.Alerts = alerts
		if err := h.alerts.st.Set(ctx, b); err != nil {
			return err
		}
		var pct []string
		for _, t := range b.thresholds() {
			pct = append(pct, fmt.Sprint(t))
		}
		per := map[string][2]string{Month: {"a month", "每月"}, Quarter: {"a quarter", "每季度"}, Year: {"a year", "每年"}}[cmp.Or(b.Period, Month)]
		a.Text = present.Tr(a.Lang, fmt.Sprintf("Alerts set: %s's budget (%s %s) alerts at %s %%.\n", name(project, "en"), b.Amount, per[0], strings.Join(pct, ", ")),
			fmt.Sprintf("提醒已设置：%s的预算（%s %s）在 %s%% 时提醒。\n", name(project, "zh"), per[1], b.Amount, strings.Join(pct, "%、")))
		a.Text += overAlertText(b, a.Lang)
		return nil
	}
	pct := make([]string, len(alerts))
	for i, t := range alerts {
		pct[i] = fmt.Sprint(t)
	}
	return &advisor.InputError{Field: "budget",
		Reason: present.Tr(a.Lang, fmt.Sprintf("%s has no budget to alert on: set one with the alert", name(project, "en")), fmt.Sprintf("%s还没有预算，无法设置提醒：请连同提醒一起设置预算", name(project, "zh"))),
		Hint:   strings.Replace(fmt.Sprintf("/gpu budget set %s $5000 alerts=%s", project, strings.Join(pct, ",")), " "+Team+" ", " ", 1)} // the team's budget names no project
}
