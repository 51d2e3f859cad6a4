package bot

import (
	"cmp"
	"regexp"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/bot/parse"
)

// The ledger's questions in words: a budget's status or change, and what
// the team spent, read from a sentence into the budget and spend commands'
// arguments (plan() calls these first: a ledger question is never sized as
// a job).

// reNewBudget is the amount a budget change sets, after its verb: "从3万提到
// 4.5万", "下调到每季度9万", "cap copilot at $8k/month", "make it ¥200k",
// "should be $6,500 per month … not $5k".
var reNewBudget = regexp.MustCompile(`(?:改成|改为|设成|设为|调到|调整为|定为|设置为|提到|提高到|降到|下调到|上调到|加到|封顶|\bat\b|\bto\b|\bof\b|make it|should be|应该是|是)\s*(?:每月|每个月|每季度|每季|每年|一个季度|一年|monthly|quarterly|yearly)?\s*((?:[¥$￥]|usd|rmb|cny)?\s?\d[\d,]*(?:\.\d+)?\s?(?:万|千|k|m)?(?:\s?(?:元|块|美元|刀|人民币|rmb|usd))?)`)

// newBudgetAmount reads the amount a budget change sets; nil when none is
// written after a change verb.
func newBudgetAmount(t string) *parse.Money {
	for _, loc := range reNewBudget.FindAllStringSubmatchIndex(t, -1) {
		if rest := strings.TrimSpace(t[loc[1]:]); strings.HasPrefix(rest, "%") {
			continue // "alert me at 80%": a threshold, not the amount
		}
		v, ok := parse.ParseMoney(strings.ReplaceAll(strings.TrimSpace(t[loc[2]:loc[3]]), " ", ""))
		if ok && v.Amount > 0 {
			return &v
		}
	}
	return nil
}

// budgetPeriod is the period a budget change names, as the budget
// command writes it ("" for a month, the default).
func budgetPeriod(t string) string {
	switch _, per := budgetMonths(t); per {
	case "quarter":
		return "/quarter"
	case "year":
		return "/year"
	}
	return ""
}

// reAlertAt is an alert threshold said with a budget change.
var reAlertAt = regexp.MustCompile(`(?:告警阈值|告警|提醒|预警|alerts?(?: me)?)\D{0,40}?(\d{1,3})\s?%`)

var (
	// a budget is being changed: "改成", "设个", "set", "raise … to"
	reBudgetChange = regexp.MustCompile(`(?i)budget (?:for|of) [^.?!]{1,40}\b(?:is|=|will be)\s*[$¥￥\d]|预算(?:是|为)\s*[¥￥$\d]|预算.{0,12}(?:改成|改为|设成|设为|调到|调整为|定为|设置为|提到|提高到|降到|加到)|(?:设个|设一个|建|建个|新建|加进|加入|设置|设|定个).{0,8}预算|预算.{0,6}(?:封顶|上限)|(?:set|create|add|raise|lower|increase|reduce|change|update|make)\b.{0,40}\bbudget|budget.{0,40}\b(?:should be|to \$|to ¥|set to|raised to|lowered to|make it)|\bcap\b[^.?!]{0,30}\bat\b|(?:set|add|create|turn on)\b.{0,20}\balerts?\b.{0,60}\bbudget|(?:设|设置|加|开).{0,6}(?:告警|提醒|预警).{0,20}预算|预算.{0,20}(?:设|设置|加|开).{0,6}(?:告警|提醒|预警)`)
	// a budget is asked about: status, what is left, over or under
	reBudgetAsk    = regexp.MustCompile(`预算|超支|budget|overspent|\bcap\b[^.?!]{0,30}\bat\b`)
	reBudgetStatus = regexp.MustCompile(`还剩|剩多少|剩下|剩余|超了|超没超|超支|超出|会不会超|超预算|用了多少|用掉|花到|花了|花掉|执行|进度|情况|状态|多少了|百分之多少|\bleft\b|remaining|\bover\b|\bunder\b|on track|status|burn|pace|land|how much of|used|spent|headroom`)
	// a budget that sizes a purchase or a job, not the ledger's
	reBudgetForJob = regexp.MustCompile(`推荐|什么卡|哪张卡|用什么|怎么配|怎么搭配|买什么|能买|能租|够买|够租|够跑|跑多少|which (?:gpu|card)|recommend|what (?:gpu|card)|can (?:we|i) (?:buy|rent|afford)|afford`)
	// money the team spent is asked about
	reSpentAsk = regexp.MustCompile(`anything booked|booked to|\bburn(?:ed)? (?:on|in)\b|did (?:i|we|they|each team) burn|gpu (?:hours|hrs) did (?:i|we)|花了多少|一共花了|总共花了|花在|花到|花费多少|支出多少|开销多少|用了多少钱|账单多少|花了$|各花了|花最多|最大的.{0,4}(?:开支|支出|花费)|spent|spend (?:on|in|for|by|last|this)|how much did (?:we|the team|our)|what did (?:we|the team|our) spend|line items?|biggest (?:cost|spend|line)|burn rate|run rate|our bill|this quarter's bill`)
)

// budgetInWords reads a budget question written as a sentence: its status
// ("上个月超预算了吗", "预算还剩多少", "are we over budget") or a change
// ("把 llm-ft 的预算改成每月1.2万", "set a budget of $15k for rag-sg"), as the
// /gpu budget arguments that answer it. A question that sizes a job
// within a budget ("预算 $300, 13b qlora") is not one.
func budgetInWords(req parse.Request) (parse.Intent, []string, bool) {
	t := strings.ToLower(req.Text)
	s := req.Slots
	if s.ParamsB > 0 || s.Model != "" || s.Arch != "" || !reBudgetAsk.MatchString(t) {
		return "", nil, false
	}
	change := reBudgetChange.MatchString(t)
	if !change && (!reBudgetStatus.MatchString(t) || reBudgetForJob.MatchString(t)) {
		return "", nil, false // "预算 5000 推荐什么卡": a budget for a purchase, not the ledger's
	}
	if len(s.GPUs) > 0 && (s.Price != nil || s.Monthly != nil || s.Hours > 0 || s.HoursPerMonth > 0) && !change {
		return "", nil, false // "预算 1万, 4090 按 2 块一小时, 能跑多久": a cost question with a budget
	}
	project := s.Project // read from words by the parser (bot/parse/owners.go)
	if change {
		amount := newBudgetAmount(t)
		if amount == nil {
			amount = s.Budget
		}
		if amount == nil {
			amount = s.Monthly
		}
		if amount == nil {
			amount = s.Amount
		}
		if amount == nil {
			amount = s.Price
		}
		if amount == nil {
			amount = lastAmount(t) // "预算周期改成按季度：推理组一个季度15万"
		}
		// the budget's scope: the project, else the team ("NLP组的月预算",
		// "the vision team"), else the whole team's
		args := []string{"set"}
		switch {
		case project != "":
			args = append(args, project)
		case s.Team != "":
			args = append(args, "team="+s.Team)
		case teamWord(req.Text) != "":
			// "set a monthly budget of ¥30,000 for team nlp": the team named
			// in words, as spend entries are booked to it
			args = append(args, "team="+teamWord(req.Text))
		case reBudgetFor.MatchString(req.Text):
			// "Set Q2 GPU budget for Research at $120,000": a name after
			// "budget for", booked as a team's
			args = append(args, "team="+strings.ToLower(reBudgetFor.FindStringSubmatch(req.Text)[1]))
		}
		if amount != nil {
			if m := reAlertAt.FindStringSubmatch(t); m != nil {
				args = append(args, "alerts="+m[1]) // "告警阈值设成90%", "alert me at 80%"
			}
			return parse.Budget, append(args, budgetAmountArg(*amount, req.Lang)+budgetPeriod(t)), true
		}
		if m := reAlertAt.FindStringSubmatch(t); m != nil {
			// "set an alert when project Atlas hits 80% of budget": the
			// threshold on the budget it has (bot/budget keeps its amount)
			return parse.Budget, append(args, "alerts="+m[1]), true
		}
		if reSetBudgetOf.MatchString(t) {
			// "set a monthly budget of abc for team nlp": a change whose
			// amount could not be read — the command says what it accepts,
			// never shows the budgets as if nothing was asked
			return parse.Budget, args, true
		}
	}
	return parse.Budget, []string{"show"}, true
}

// reBudgetFor is the name a budget is set for: "budget for Research at
// $120,000", "budget for project Atlas is $50k".
var reBudgetFor = regexp.MustCompile(`(?i)budget for (?:team |project |the )?([A-Za-z][\w-]{1,30})\b`)

// reSetBudgetOf is a budget being set to an amount ("set a budget of …",
// "预算设成…"), whatever the amount's words.
var reSetBudgetOf = regexp.MustCompile(`\bset\b.{0,30}\bbudget\b.{0,12}\b(?:of|to|at)\b|budget\b.{0,20}\b(?:to|at|of)\b|预算.{0,6}(?:设成|设为|改成|改为|定为|调到)`)

// spendInWords reads a question about what the team spent ("上个季度 Vast.ai
// 跟 RunPod 各花了多少", "what did we spend on AWS in November") as a spend
// report.
func spendInWords(req parse.Request) bool {
	s := req.Slots
	if s.ParamsB > 0 || s.Model != "" || s.Arch != "" {
		return false
	}
	t := strings.ToLower(req.Text)
	return reSpentAsk.MatchString(t) || reRecapAsk.MatchString(t) && len(s.GPUs) == 0
}

// reRecapAsk asks for the month's recap of spend ("give me the monthly recap
// for atlas", "上个月的月报"): the spend report, by project, with budgets.
var reRecapAsk = regexp.MustCompile(`\brecap\b|月报|月度总结|月度报告|monthly (?:report|summary)|spend report|费用报告|支出报告`)

// budgetAmountArg writes an amount the budget command reads.
func budgetAmountArg(m parse.Money, lang string) string {
	sym := "¥"
	switch {
	case m.Currency == "USD":
		sym = "$"
	case m.Currency == "" && lang == "en":
		sym = "$"
	}
	return sym + strconv.FormatFloat(m.Amount, 'f', -1, 64)
}

// reAmount is a money figure written with its scale or currency ("15万",
// "¥90,000", "$8k", "3000元").
var reAmount = regexp.MustCompile(`(?:[¥$￥]\s?\d[\d,]*(?:\.\d+)?\s?(?:万|千|k|m)?|\d[\d,]*(?:\.\d+)?\s?(?:万|千|k)(?:元|块)?|\d[\d,]*(?:\.\d+)?\s?(?:元|块|美元|刀))`)

// lastAmount is the last money figure in t a budget change states after
// its verb's clause ("改成按季度：推理组一个季度15万"), nil when none.
func lastAmount(t string) *parse.Money {
	all := reAmount.FindAllString(t, -1)
	for i := len(all) - 1; i >= 0; i-- {
		if v, ok := parse.ParseMoney(strings.ReplaceAll(all[i], " ", "")); ok && v.Amount >= 100 {
			return &v
		}
	}
	return nil
}

// rePaidPast says money was paid: "还花了 500 美元 OpenAI API", "we also paid
// $1,200 for storage".
var rePaidPast = regexp.MustCompile(`花了|还花了|付了|支付了|充值了|\bspent\b|\bpaid\b|\bcharged\b|\bbilled\b`)

// reAsksAnything is a question, not a statement to book.
var reAsksAnything = regexp.MustCompile(`[?？]|多少|吗|几|how much|how many|what|which|did we|have we`)

// spendStatedInWords books money a team says it paid outside a GPU rental
// ("rec 组还花了 500 美元 OpenAI API"): no card, no hours, the amount and who
// paid it. Only a statement (no question) with an amount is one.
func spendStatedInWords(req parse.Request) (parse.Request, bool) {
	s := req.Slots
	t := strings.ToLower(req.Text)
	if !req.Slash && s.ParamsB == 0 && s.Model == "" && s.Monthly != nil && (req.Intent == parse.Monthly || req.Intent == parse.Price || req.Intent == parse.Unknown) &&
		reRentedPast.MatchString(t) && !reAsksAnything.MatchString(t) {
		// "cv 组本月租了腾讯云 A100 包月 2 台，每台 13748 元": a plan rented,
		// its month's fee booked — each unit's fee × the units
		total := *s.Monthly
		if n := unitsRented(t, s.Cards); n > 1 && reEachUnit.MatchString(t) {
			total.Amount *= float64(n)
			req.Slots.Cards = n
		}
		req.Intent, req.Slots.Mode, req.Slots.Billing = parse.Spend, "add", "monthly"
		req.Slots.Amount, req.Slots.Monthly, req.Slots.QuotePer = &total, nil, ""
		req.Slots.Missing = nil
		return req, true
	}
	if req.Slash || req.Intent != parse.Unknown && req.Intent != parse.Knowledge || s.ParamsB > 0 || s.Model != "" {
		return req, false
	}
	if !rePaidPast.MatchString(t) || reAsksAnything.MatchString(t) {
		return req, false
	}
	amt := cmp.Or(s.Amount, s.Price, s.Budget)
	if amt == nil {
		amt = lastAmount(t)
	}
	if amt == nil || amt.Amount <= 0 {
		return req, false
	}
	req.Intent = parse.Spend
	req.Slots.Mode = "add"
	req.Slots.Amount, req.Slots.Price, req.Slots.Budget = amt, nil, nil
	req.Slots.Missing = nil
	return req, true
}

var (
	// reRentedPast says a plan was rented: "本月租了", "we rented", "订了包月"
	reRentedPast = regexp.MustCompile(`租了|订了|续了|开了.{0,6}包月|\bwe rented\b|\bwe've rented\b|\bwe took\b|\bsigned up for\b`)
	// reEachUnit says a fee is each unit's: "每台", "每张", "each"
	reEachUnit = regexp.MustCompile(`每台|每张|每卡|各|\beach\b|\bapiece\b|per (?:card|machine|server|node)`)
	reUnits    = regexp.MustCompile(`(\d+)\s?(?:台|张|个|nodes?\b|machines?\b|servers?\b|cards?\b|x\b)`)
)

// unitsRented is how many machines or cards a rental names ("2 台").
func unitsRented(t string, cards int) int {
	if cards > 0 {
		return cards
	}
	if m := reUnits.FindStringSubmatch(t); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}
