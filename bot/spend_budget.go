package bot

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

var (
	// a budget's status is asked: over, within, what is left
	reCheckAsk = regexp.MustCompile(`(?i)超了|超没超|超支|超出|超过|会不会超|超预算|够不够|够吗|还剩|剩多少|剩下|剩余|\bover\b|\bwithin\b|\bleft\b|remaining|enough|headroom`)
	// money set aside: "今年给了５万算力费", "预算5000", "we were given $20k this year"
	// money already spent, said in the question: "已经花了32万", "we spent ¥9,000"
	reSpentStated = regexp.MustCompile(`(?i)(?:已经|已)?(?:花了|花掉了|花掉|用了|用掉了|用掉|烧了|spent|burned|used)\s*(?:了|about|around|~|约|大概)?\s*((?:[¥￥$]|rmb\s?|us\$)?\s?\d[\d,]*(?:\.\d+)?\s?(?:万|千|k\b|w\b)?\s?(?:元|块|美元|美金|刀|rmb\b|usd\b|cny\b)?)`)
	reGiven       = regexp.MustCompile(`(?i)(?:预算|给了|批了|拨了|分了|额度|上限|封顶|budget(?:ed)?|allocated|given|granted|\bcap)\s*(?:是|为|有|of|is|was)?\s*((?:[¥￥$]|rmb\s?|us\$)?\s?\d[\d,]*(?:\.\d+)?\s?(?:万|千|k\b|w\b)?\s?(?:元|块|美元|美金|刀|rmb\b|usd\b|cny\b)?)`)
)

// spendCheckInWords reads a budget question that carries its own figures:
//
//   - a what-if: a budget, card-hours (or cards × hours) and a rate, and
//     "is it over": "组里每月预算5000 rmb，目前4090用了1800个卡时，按2块一小时算，
//     是不是已经超了" → args [whatif];
//   - a budget given in words and what is left of it this year, quarter
//     or month, from the ledger: "我们组今年给了５万算力费，现在还剩多少啊" →
//     args [left ¥50000];
//   - a budget, what is spent and how far into the period, and the pace
//     asked: "spent $47k of $120k through Jan 31 — on track?" → args
//     [pace $120000 spent=$47000] (spend_pace.go).
//
// A question about a model or a job ("预算5000，13b lora") is not one.
func spendCheckInWords(req parse.Request) ([]string, bool) {
	s := req.Slots
	t := parse.Clean(req.Text)
	if s.ParamsB > 0 || s.Model != "" || s.Arch != "" {
		return nil, false
	}
	hours := s.GPUHours > 0 || s.Hours > 0
	if !hours {
		if args, _, _, ok := paceInWords(req); ok {
			return args, true // "spent $47k of $120k through Jan 31 — on track?"
		}
	}
	if !reCheckAsk.MatchString(t) {
		return nil, false
	}
	if s.Budget != nil && hours && s.Price != nil {
		return []string{"whatif"}, true
	}
	if hours || s.Price != nil {
		return nil, false
	}
	if m := reGiven.FindStringSubmatch(t); m != nil {
		if money, ok := parse.ParseMoney(strings.TrimRight(strings.ReplaceAll(m[1], " ", ""), ",")); ok && money.Amount > 0 { // "budget $30, are we over": the comma ends the amount
			args := []string{"left", budgetAmountArg(money, req.Lang)}
			if sp := reSpentStated.FindStringSubmatch(t); sp != nil {
				// "已经花了32万，超了没有", "we spent ¥9,000": their own figure
				if v, ok := parse.ParseMoney(strings.TrimRight(strings.ReplaceAll(sp[1], " ", ""), ",")); ok && v.Amount > 0 {
					args = append(args, "spent="+budgetAmountArg(v, req.Lang))
				}
			}
			return args, true
		}
	}
	if b := s.Budget; b != nil && b.Amount > 0 && len(s.GPUs) == 0 && s.Cards == 0 && !reBudgetForJob.MatchString(strings.ToLower(t)) && !reBudgetBuys.MatchString(t) {
		// "we have ¥85,000 for orion this month — are we over?", "我们这个月
		// orion有8.5万预算，超了吗": the figure said is the budget asked
		// against, not the stored one (the answer names that when it differs)
		args := []string{"left", budgetAmountArg(*b, req.Lang)}
		if sp := reSpentStated.FindStringSubmatch(t); sp != nil {
			if v, ok := parse.ParseMoney(strings.TrimRight(strings.ReplaceAll(sp[1], " ", ""), ",")); ok && v.Amount > 0 && v.Amount != b.Amount {
				args = append(args, "spent="+budgetAmountArg(v, req.Lang))
			}
		}
		return args, true
	}
	return nil, false
}

// check answers spendCheckInWords' questions, verdict first.
func (s *Spend) check(ctx context.Context, team string, m Message, req parse.Request, a *Answer) error {
	args := req.Slots.Args
	if len(args) == 0 {
		return &advisor.InputError{Field: "check", Reason: tr(a.Lang, "nothing to check", "没有可核对的内容"), Hint: "/gpu budget"}
	}
	def := knowledge.CNY
	if a.Lang == "en" {
		def = knowledge.USD
	}
	money := func(p *parse.Money) ledger.Money {
		cur := knowledge.Currency(p.Currency)
		if cur == "" {
			cur = def
		}
		return ledger.MoneyFromFloat(p.Amount, cur)
	}
	per, perZH := periodWords(m.Text)
	switch args[0] {
	case "pace":
		return s.pace(ctx, team, m, req, a)
	case "whatif":
		sl := req.Slots
		hours := sl.GPUHours
		if hours == 0 {
			hours = sl.Hours * float64(max(sl.Cards, 1))
		}
		budget, rate := money(sl.Budget), money(sl.Price)
		if budget.Currency != rate.Currency {
			if fx := s.reportFX(ctx, team, a.Lang); fx != nil {
				fx.To = budget.Currency
				fx.Rates = invertTo(fx, budget.Currency)
				if r, ok := fx.ConvertMoney(rate); ok {
					rate = r
				}
			}
		}
		c, err := ledger.CheckStated(budget, hours, rate)
		if err != nil {
			return err
		}
		a.Result = c
		a.Text = tr(a.Lang,
			fmt.Sprintf("%s: by your figures, %s card-hours × %s = %s, %.0f%% of the %s budget%s; %s.",
				verdictEN(c), fmtNum(hours), rate, c.Spent, c.Share*100, budget, per, leftEN(c)),
			fmt.Sprintf("%s：按你给的数，%s 卡时 × %s = %s，占%s预算 %s 的 %.0f%%，%s。",
				verdictZH(c), fmtNum(hours), rate, c.Spent, perZH, budget, c.Share*100, leftZH(c)))
		a.Text += "\n" + tr(a.Lang,
			fmt.Sprintf("How: %s card-hours × %s = %s; %s − %s = %s (your figures; the ledger was not read)", fmtNum(hours), rate, c.Spent, budget, c.Spent, c.Left),
			fmt.Sprintf("算法：%s 卡时 × %s = %s；%s − %s = %s（用你给的数，未读账本）", fmtNum(hours), rate, c.Spent, budget, c.Spent, c.Left))
		a.use("budget", "the budget checked")
		a.use("gpus", "the card named")
		a.verdictAsked = true
	case "left":
		budget, err := ledger.ParseAmount(args[1], def)
		if err != nil {
			return err
		}
		now := s.now()
		p, ok := ledger.ReadPeriod(m.Text, now, s.ledger.Location())
		if !ok {
			p = ledger.MonthPeriod(ledger.MonthOf(now, s.ledger.Location()))
			if mo := cmp.Or(req.Slots.Month, req.MonthSaid); mo != "" {
				// "上个月预算8万，超了吗": that month
				if m, err := ledger.ResolveMonth(mo, now, s.ledger.Location()); err == nil {
					p = ledger.MonthPeriod(m)
				}
			}
		}
		gpu, scope, scopeZh := "", "", ""
		if len(req.Slots.GPUs) > 0 {
			gpu = cardFamilyAsked(req.Slots.GPUs[0], m.Text) // "H100 每月预算2万美元够吗": the H100s, not the whole ledger
			scope, scopeZh = " on "+strings.ToUpper(gpu), strings.ToUpper(gpu)+" "
		}
		if req.Slots.Project == "" && req.Slots.Team == "" {
			if n := s.projectNamed(ctx, team, m.Text); n != "" {
				req.Slots.Project = n // "we have ¥85,000 for orion": a project the ledger knows, named bare
				a.use("project", "a project of your ledger named in the question")
			}
		}
		switch {
		case req.Slots.Project != "" && gpu == "":
			scope, scopeZh = " for "+req.Slots.Project, req.Slots.Project+" "
		case req.Slots.Team != "" && gpu == "":
			scope, scopeZh = " for team "+req.Slots.Team, "团队 "+req.Slots.Team+" "
		}
		fx := s.reportFX(ctx, team, a.Lang)
		keep := ledger.Where(req.Slots.Project, req.Slots.Team, req.Slots.Platform, gpu)
		spent, t, err := s.spentIn(ctx, team, p, keep, fx, budget.Currency)
		if err != nil {
			return err
		}
		if len(args) > 2 && strings.HasPrefix(args[2], "spent=") {
			// their own figure for what is spent: checked as said, the
			// ledger not read
			stated, err := ledger.ParseAmount(strings.TrimPrefix(args[2], "spent="), def)
			if err != nil {
				return err
			}
			if stated.Currency != budget.Currency && fx != nil {
				f := *fx
				f.Rates = invertTo(fx, budget.Currency)
				f.To = budget.Currency
				if v, ok := f.ConvertMoney(stated); ok {
					stated = v
				}
			}
			if stated.Currency == budget.Currency {
				c := ledger.CheckSpent(budget, stated)
				a.Result = c
				a.Text = tr(a.Lang,
					fmt.Sprintf("%s: by your figures, %s spent of the %s for %s%s, %s; %s.", verdictEN(c), stated, budget, p.Label, scope, present.Pct(c.Share), leftEN(c)),
					fmt.Sprintf("%s：按你给的数，%s %s的 %s 已花 %s，占 %s，%s。", verdictZH(c), p.Label, scopeZh, budget, stated, present.Pct(c.Share), leftZH(c)))
				a.Text += "\n" + tr(a.Lang, "How: ", "算法：") + c.How + tr(a.Lang, " (your figures; the ledger was not read)", "（用你给的数，未读账本）")
				a.use("budget", "the budget given")
				a.use("amount", "what you said is spent")
				a.verdictAsked = true
				return nil
			}
		}
		c := ledger.CheckSpent(budget, spent)
		a.Result = c
		a.Text = tr(a.Lang,
			fmt.Sprintf("%s: the %s you were given for %s%s, %s (spent %s, %.0f%%, %d entries in the ledger).",
				verdictEN(c), budget, p.Label, scope, leftEN(c), spent, c.Share*100, t.Entries),
			fmt.Sprintf("%s：%s %s的 %s %s（账本里已花 %s，占 %.0f%%，%d 条记录）。",
				verdictZH(c), p.Label, scopeZh, budget, leftZH(c), spent, c.Share*100, t.Entries))
		a.use("budget", "the budget given")
		last := ""
		if t.Entries == 0 && now.Before(p.End(s.ledger.Location())) {
			// nothing booked yet this period: the period before, against the same figure
			pp := p.Prev()
			before, bt, err := s.spentIn(ctx, team, pp, keep, fx, budget.Currency)
			if err != nil {
				return err
			}
			if bt.Entries > 0 {
				last = emptyPeriodNote(a.Lang, p, ledger.CheckSpent(budget, before))
			}
		}
		extra := s.storedNote(ctx, team, req.Slots.Project, req.Slots.Team, p, budget, a.Lang)
		a.Text += last + extra
		a.Text += "\n" + tr(a.Lang, "How: ", "算法：") + c.How
		a.verdictAsked = true
		if len(t.Amount) > 1 || len(t.Amount) == 1 && t.Amount.Currencies()[0] != budget.Currency {
			a.Text += rateNote(a.Lang, fx)
		}
		unit := map[int]string{1: "/month", 3: "/quarter", 12: "/year"}[p.Months]
		on := ""
		switch {
		case gpu != "":
			on = "gpu=" + gpu + " "
			a.use("gpus", "the cards the budget is for")
		case req.Slots.Project != "":
			on = "project=" + req.Slots.Project + " " // the budget of what was asked about
		case req.Slots.Team != "":
			on = "team=" + req.Slots.Team + " "
		}
		a.Text += tr(a.Lang, ". To be alerted as it runs down: /gpu budget set "+on+args[1]+unit, "。要在用到 50/80/100% 时提醒：/gpu budget set "+on+args[1]+unit)
	default:
		return &advisor.InputError{Field: "check", Reason: "unknown check " + args[0], Hint: "/gpu budget"}
	}
	a.say(a.Text)
	return nil
}

// spentIn is what the team spent in p on the entries keep accepts, in
// cur (converted at the team's rate when it covers every currency), with
// the totals it came from.
func (s *Spend) spentIn(ctx context.Context, team string, p ledger.Period, keep ledger.Filter, fx *ledger.FX, cur knowledge.Currency) (ledger.Money, ledger.Totals, error) {
	loc := s.ledger.Location()
	es, err := s.ledger.Between(ctx, team, p.Start(loc), p.End(loc))
	if err != nil {
		return ledger.Money{}, ledger.Totals{}, err
	}
	var t ledger.Totals
	for _, e := range keep.Apply(es) {
		t.Add(e)
	}
	spent := t.Amount.Money(cur)
	if fx != nil && len(t.Amount) > 0 {
		f := *fx
		f.Rates = invertTo(fx, cur)
		f.To = cur
		if v, ok := f.Convert(t.Amount); ok {
			spent = v
		}
	}
	return spent, t, nil
}

// invertTo is fx's rates re-expressed for converting into cur (CNY or USD).
func invertTo(fx *ledger.FX, cur knowledge.Currency) map[knowledge.Currency]float64 {
	if fx.To == cur {
		return fx.Rates
	}
	r := fx.Rates[cur] // how many fx.To one cur is worth
	if r <= 0 {
		return map[knowledge.Currency]float64{}
	}
	return map[knowledge.Currency]float64{fx.To: 1 / r}
}

func periodWords(text string) (en, zh string) {
	t := strings.ToLower(text)
	switch {
	case strings.Contains(t, "每月") || strings.Contains(t, "月预算") || strings.Contains(t, "monthly") || strings.Contains(t, "a month") || strings.Contains(t, "per month"):
		return " a month", "每月"
	case strings.Contains(t, "季度") || strings.Contains(t, "quarter"):
		return " a quarter", "每季度"
	case strings.Contains(t, "今年") || strings.Contains(t, "每年") || strings.Contains(t, "year"):
		return " for the year", "全年"
	}
	return "", ""
}

func verdictEN(c ledger.Check) string {
	if c.Over {
		return "Over budget"
	}
	return "Not over"
}

func verdictZH(c ledger.Check) string {
	if c.Over {
		return "已经超了"
	}
	return "没有超"
}

func leftEN(c ledger.Check) string {
	if c.Over {
		return fmt.Sprintf("over by %s", ledger.Money{Minor: -c.Left.Minor, Currency: c.Left.Currency})
	}
	return fmt.Sprintf("%s left", c.Left)
}

func leftZH(c ledger.Check) string {
	if c.Over {
		return fmt.Sprintf("超出 %s", ledger.Money{Minor: -c.Left.Minor, Currency: c.Left.Currency})
	}
	return fmt.Sprintf("还剩 %s", c.Left)
}

var (
	// a budget is stated for a period: "每月预算2万", "$20k a month", "monthly budget"
	rePerPeriod = regexp.MustCompile(`(?i)每月|每个月|月度|月预算|每季度?|季度|每年|年度|/\s*(?:month|mo|quarter|qtr|year|yr)\b|\b(?:a|per|each) (?:month|quarter|year)\b|\bmonthly\b|\bquarterly\b|\byearly\b|\bannual\b`)
	reQuarter   = regexp.MustCompile(`(?i)季|quarter|qtr`)
	reYear      = regexp.MustCompile(`(?i)每年|年度|year|\byr\b|annual`)
	// how long or how many a budget buys: a cost question, not a budget
	reBudgetBuys = regexp.MustCompile(`(?i)多久|多少小时|几张|多少张|how long|how many|能用|能跑`)
)

// cardBudgetInWords reads a budget for a card or card family set in
// words — "H100 每月预算2万美元", "set a budget of $20k a month for H100" —
// as /gpu budget set gpu=FAMILY AMOUNT[/period] arguments. A budget that
// sizes a job, asks what it buys or whether it is enough is not one.
func cardBudgetInWords(req parse.Request) ([]string, bool) {
	s := req.Slots
	t := parse.Clean(req.Text)
	if len(s.GPUs) == 0 || s.ParamsB > 0 || s.Model != "" || s.Arch != "" || s.Hours > 0 || s.GPUHours > 0 || s.Cards > 1 ||
		!reBudgetAsk.MatchString(strings.ToLower(t)) || reBudgetForJob.MatchString(strings.ToLower(t)) || reCheckAsk.MatchString(t) || reBudgetBuys.MatchString(t) {
		return nil, false
	}
	if !reBudgetChange.MatchString(strings.ToLower(t)) && !rePerPeriod.MatchString(t) {
		return nil, false
	}
	amount := s.Budget
	for _, m := range []*parse.Money{s.Monthly, s.Amount, s.Price} {
		if amount == nil {
			amount = m
		}
	}
	if amount == nil || amount.Amount <= 0 {
		return nil, false
	}
	arg := budgetAmountArg(*amount, req.Lang)
	switch {
	case reQuarter.MatchString(t):
		arg += "/quarter"
	case reYear.MatchString(t):
		arg += "/year"
	}
	return []string{"set", "gpu=" + cardFamilyAsked(s.GPUs[0], t), arg}, true
}

// cardFamilyAsked is the family of card id when the text names the family
// and not the variant ("H100" for h100-sxm: every H100), else the id
// ("H100 PCIe" stays h100-pcie, "910B" stays ascend-910b).
func cardFamilyAsked(id, text string) string {
	i := strings.LastIndexByte(id, '-')
	if i < 0 {
		return id
	}
	fam, variant := id[:i], id[i+1:]
	t := strings.ToLower(strings.ReplaceAll(text, " ", ""))
	if strings.Contains(t, fam) && !strings.Contains(t, variant) {
		return fam
	}
	return id
}

var (
	// over a budget asked without the word budget: "这季度超了没？", "are we
	// over this month?"
	reOverAsked = regexp.MustCompile(`(?i)超了没|超没超|超了吗|超了么|超支了?[吗没]|有没有超|超出预算|超过预算|over budget|\bare (?:we|they|any \w+) over\b|\bover (?:yet|already)\b|\bexceed(?:ed)?\b.{0,30}\bbudget|\b(?:go|went|gone|run|ran) over\b.{0,30}\bbudget|\boverspen[dt]\b`)
	// a budget against its actual spend: "Q4 budget vs actual", "预算执行情况"
	reVersusAsked = regexp.MustCompile(`(?i)budget (?:vs\.?|versus|against|compared (?:to|with)) (?:actuals?|spend|spent)|预算(?:和|与|跟)?(?:实际|实花|实际花费|支出)(?:对比|对照|比)?|预算执行|预算对比`)
	// every project, not one named "please"
	reEveryProject = regexp.MustCompile(`(?i)every project|all (?:the )?projects|each project|per project|by project|每个项目|所有项目|各个?项目|分项目`)
)

// budgetStatusInWords reads a question about how the budgets stand that
// names no figure of its own — "这季度超了没？", "Q4 budget vs actual for
// every project please, as a table." — as /gpu budget show. A question
// with money, cards, hours or a model in it is not one.
func budgetStatusInWords(req parse.Request) (parse.Request, bool) {
	s := req.Slots
	if !readOnly[req.Intent] || s.ParamsB > 0 || s.Model != "" || s.Arch != "" || len(s.GPUs) > 0 || s.Hours > 0 || s.GPUHours > 0 ||
		s.Price != nil || s.Budget != nil || s.Amount != nil || s.Monthly != nil || s.Rent != nil {
		return req, false
	}
	t := parse.Clean(req.Text)
	_, period := ledger.ReadPeriod(t, time.Time{}, time.UTC)
	if !reVersusAsked.MatchString(t) && !(period || req.MonthSaid != "") || !reVersusAsked.MatchString(t) && !reOverAsked.MatchString(t) {
		return req, false
	}
	req.Intent = parse.Budget
	req.Slots.Args = []string{"show"}
	if reOverAsked.MatchString(t) {
		req.Slots.YesNo = true // "were we over budget in Q3?", "did we exceed the Q3 budget?": the verdict first
	}
	req.Slots.Mode, req.Slots.Missing, req.Slots.Targets, req.Problems = "", nil, nil, nil
	if req.Slots.Month == "" {
		req.Slots.Month = req.MonthSaid // "上个月超了没": that month as it closed
	}
	if reEveryProject.MatchString(t) || reNotProject.MatchString(req.Slots.Project) {
		req.Slots.Project = "" // "for every project please": all of them, none named
	}
	return req, true
}
