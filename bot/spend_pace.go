package bot

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// A pace question carries a budget, what is spent and how far into its
// period: "Atlas has $120k for Q1; spent $47k through Jan 31 — on
// track?", "rag-sg 12月预算 $15k，已经花了 $9.2k，还剩三周，照现在的速度够不够？".
// The period is projected at the same pace (ledger.ProjectPace) from the
// figures said; the ledger is not read.

// paceAmount is one money figure as people write it in a budget sentence.
const paceAmount = `((?:[¥￥$]|rmb\s?|us\$)?\s?\d[\d,]*(?:\.\d+)?\s?(?:万|千|k\b|w\b|m\b)?\s?(?:元|块|美元|美金|刀|rmb\b|usd\b|cny\b)?)`

var (
	// the pace or where the period lands is asked
	rePaceAsk = regexp.MustCompile(`(?i)on track|on pace|over pace|behind pace|ahead of pace|\bpace\b|projected|projection|run[- ]?rate|burn rate|blow (?:it|through|past|the)|going to (?:go over|exceed|overrun|overspend|run out)|at (?:this|the current|that) (?:rate|pace)|照现在的?速度|按现在的?速度|照这个速度|按这个速度|照目前的?速度|按目前的?速度|这个速度|月底会不会超|会不会超|预计|撑得到|撑到`)
	// "is it enough" asks about pace only when time left or gone is said
	rePaceEnough = regexp.MustCompile(`(?i)够不够|够吗|够用吗|够用不|\benough\b|\blast (?:until|till|through|to)\b`)
	// "spent 312k of 400k annual", "burned $61k of its $80k"
	reSpentOf = regexp.MustCompile(`(?i)(?:spent|burned|burnt|used|consumed|花了|用了|花掉了?|用掉了?)\s*(?:about|around|~|约)?\s*` + paceAmount + `\s*(?:of|out of)\s+(?:its|their|our|the|his|her|my|your)?\s*(?:(?:annual|yearly|quarterly|monthly|total)\s+)?` + paceAmount)
	// "Atlas has $120k for Q1"
	reHasFor = regexp.MustCompile(`(?i)\b(?:has|have|had|got|gets|get)\s+(?:an?\s+)?` + paceAmount + `\s*(?:budget\s*)?(?:for|this|per|a|each|to spend)\b`)
	// "we committed to $120k/year", "a commitment of $120k", "承诺了12万"
	reCommitted = regexp.MustCompile(`(?i)(?:\bcommit(?:ted|ment)?\s+(?:of\s+|to\s+)?(?:spend(?:ing)?\s+)?|承诺(?:了|消费|用量)?\s*)` + paceAmount)
	// "an $80k budget", "15k的预算"
	reAmountBudget = regexp.MustCompile(`(?i)` + paceAmount + `\s*(?:(?:annual|yearly|quarterly|monthly)\s+)?(?:budget|的预算|预算)`)
	// what is spent: "spent $47k", "已经花了 $9.2k", "已花 3万"
	rePaceSpent = regexp.MustCompile(`(?i)(?:已经|已)?(?:花了|花掉了?|用了|用掉了?|烧了|烧掉了?|已花|spent|burned|burnt|used|consumed)\s*(?:了|about|around|~|约|大概|so far)?\s*` + paceAmount)
)

// paceInWords reads a pace question: the check's arguments [pace BUDGET
// spent=SPENT], the budget and spend as the parser's money. ok is false
// when the question does not ask about pace, or states no budget, no
// spend, or (for "is it enough") no time gone or left.
func paceInWords(req parse.Request) (args []string, budget, spent parse.Money, ok bool) {
	t := parse.Clean(req.Text)
	if !rePaceAsk.MatchString(t) && !(rePaceEnough.MatchString(t) && paceTimeSaid(t)) {
		return nil, budget, spent, false
	}
	money := func(s string) (parse.Money, bool) {
		v, ok := parse.ParseMoney(strings.TrimRight(strings.ReplaceAll(s, " ", ""), ","))
		return v, ok && v.Amount > 0
	}
	var bOK, sOK bool
	if m := reSpentOf.FindStringSubmatch(t); m != nil {
		spent, sOK = money(m[1])
		budget, bOK = money(m[2])
	}
	for _, re := range []*regexp.Regexp{reGiven, reHasFor, reAmountBudget, reCommitted} {
		if bOK {
			break
		}
		if m := re.FindStringSubmatch(t); m != nil {
			budget, bOK = money(m[1])
		}
	}
	if !sOK {
		if m := rePaceSpent.FindStringSubmatch(t); m != nil {
			spent, sOK = money(m[1])
		}
	}
	if !bOK || !sOK {
		return nil, budget, spent, false
	}
	if budget.Currency == "" && spent.Currency != "" {
		budget.Currency = spent.Currency // "$9.2k of 15k": one currency said once
	}
	if spent.Currency == "" && budget.Currency != "" {
		spent.Currency = budget.Currency
	}
	if budget.Currency == "" {
		// "312k of 400k": the asker's currency, as the check reads it
		budget.Currency, spent.Currency = "CNY", "CNY"
		if req.Lang == "en" {
			budget.Currency, spent.Currency = "USD", "USD"
		}
	}
	return []string{"pace", budgetAmountArg(budget, req.Lang), "spent=" + budgetAmountArg(spent, req.Lang)}, budget, spent, true
}

var (
	// a share of the period gone: "two thirds through", "halfway", "75% through", "过了三分之二"
	reShareGone = regexp.MustCompile(`(?i)\b(half|one|two|three|a|\d+)[ -]?(halves|half|thirds?|quarters?|fourths?)\s+(?:of the way\s+)?(?:through|into|in|gone|done)|\b(half ?way|halfway)\b|\b(\d{1,3})\s?%\s+(?:of the way\s+)?(?:through|into|in)\b|(?:过了|已过|过去了?)\s*([一二两三四\d])\s*分之\s*([一二两三四\d])|([一二两三四\d])\s*分之\s*([一二两三四\d])\s*(?:已经)?过去|(?:过半|过了一半|一半已过)`)
	// time left: "还剩三周", "三周后结束", "3 weeks left", "10 days to go"
	reTimeLeft = regexp.MustCompile(`(?i)(?:还剩|还有|剩下|剩)\s*([\d一二两三四五六七八九十]+)\s*(天|日|周|个?星期|个?礼拜|个?月)|([\d一二两三四五六七八九十]+)\s*(天|周|个?星期|个?月)\s*(?:后|就)?(?:结束|到期)|\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(days?|weeks?|months?)\s+(?:left|to go|remaining)\b`)
	// time gone: "10 days in", "three weeks into the quarter", "过了10天"
	reTimeGone = regexp.MustCompile(`(?i)(?:过了|已过|过去了?)\s*([\d一二两三四五六七八九十]+)\s*(天|周|个?星期|个?月)|\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(days?|weeks?|months?)\s+in(?:to)?\b`)
	// the day spend runs to: "through Jan 31", "as of 1/31", "截至1月31日"
	reAsOfDay   = regexp.MustCompile(`(?i)\b(?:through|thru|as of|by|until|till|up to|to)\s+(?:the\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b|(?:到|截至|截止到?|至)\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]`)
	reAsOfMonth = regexp.MustCompile(`(?i)\b(?:by|through|thru|as of|until|till|at|to)\s+(?:the\s+)?end(?:\s+of)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b(?:through|thru)\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b(?:\s*[^\s\d]|$)|(\d{1,2})\s*月(?:底|末|份结束)`)
	// the period a budget is for, said as a budget's length
	reYearBudget    = regexp.MustCompile(`(?i)\bannual(?:ly)?\b|\byearly\b|\b(?:a|per|each|for the) year\b|/\s*(?:yr|year)\b|全年|年度|年预算|一年`)
	reQuarterBudget = regexp.MustCompile(`(?i)\bquarterly\b|\b(?:a|per|each|for the) quarter\b|/\s*(?:qtr|quarter)\b|每季度?|一个季度`)
	reMonthNamed    = regexp.MustCompile(`(?i)(\d{1,2})\s*月(?:份)?(?:的)?\s*预算|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+budget\b|\b(?:for|in)\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b`)
)

var monthAbbr = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}

var paceWords = map[string]float64{"a": 1, "one": 1, "half": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}

// paceCount reads "3", "三", "two".
func paceCount(s string) (float64, bool) {
	if v, ok := paceWords[strings.ToLower(s)]; ok {
		return v, true
	}
	return parse.Number(s)
}

// paceTimeSaid reports whether the text says how much of the period is
// gone or left (not only today's date).
func paceTimeSaid(t string) bool {
	return reShareGone.MatchString(t) || reTimeLeft.MatchString(t) || reTimeGone.MatchString(t) || reAsOfDay.MatchString(t) || reAsOfMonth.MatchString(t)
}

// paceSpan is how far into its period a pace question is: Elapsed of
// Total Unit, and the words that said it.
type paceSpan struct {
	period         ledger.Period
	elapsed, total float64
	unit           string
	said, saidZH   string // "through 2026-01-31", "还剩 3 周"
}

// readPaceSpan reads the period and how far into it the question is, at
// now in loc: a share gone ("two thirds through"), time left ("还剩三周"),
// time gone ("10 days in"), the day or month spend runs to ("through Jan
// 31", "by end Sept"), else today.
func readPaceSpan(text string, now time.Time, loc *time.Location) (paceSpan, error) {
	t := parse.Clean(text)
	lower := strings.ToLower(t)
	today := time.Date(now.In(loc).Year(), now.In(loc).Month(), now.In(loc).Day(), 0, 0, 0, 0, loc)
	// the day or month the spend runs to, its year the latest not after
	// this month (a pace looks back)
	var asOf time.Time
	monthEnd := false
	dated := func(mo time.Month, d int) time.Time {
		y := today.Year()
		if mo > today.Month() {
			y--
		}
		return time.Date(y, mo, d, 0, 0, 0, 0, loc)
	}
	if m := reAsOfDay.FindStringSubmatch(lower); m != nil {
		if m[1] != "" {
			d, _ := strconv.Atoi(m[2])
			asOf = dated(monthAbbr[m[1]], d)
		} else {
			mo, _ := strconv.Atoi(m[3])
			d, _ := strconv.Atoi(m[4])
			asOf = dated(time.Month(mo), d)
		}
	} else if m := reAsOfMonth.FindStringSubmatch(lower); m != nil {
		var mo time.Month
		switch {
		case m[1] != "":
			mo = monthAbbr[m[1]]
		case m[2] != "":
			mo = monthAbbr[m[2]]
		default:
			n, _ := strconv.Atoi(m[3])
			mo = time.Month(n)
		}
		if mo >= 1 && mo <= 12 {
			asOf = dated(mo, 1).AddDate(0, 1, -1) // the month's last day
			monthEnd = true
		}
	}
	anchor := ledger.MonthOf(now, loc)
	if !asOf.IsZero() {
		anchor = ledger.MonthOf(asOf, loc)
	}
	// the period: a quarter or year named, a budget's length, a month named
	var p ledger.Period
	named, ok := ledger.ReadPeriod(t, now, loc)
	switch {
	case ok:
		p = named
		if !asOf.IsZero() && (asOf.Before(p.Start(loc)) || !asOf.Before(p.End(loc))) {
			// "Q1 … through Jan 31": the quarter that holds the day
			switch p.Months {
			case 3:
				p = ledger.QuarterOf(anchor)
			case 12:
				p = ledger.YearOf(anchor)
			}
		}
	case reYearBudget.MatchString(t):
		p = ledger.YearOf(anchor)
	case reQuarterBudget.MatchString(t):
		p = ledger.QuarterOf(anchor)
	default:
		p = ledger.MonthPeriod(anchor)
		if m := reMonthNamed.FindStringSubmatch(lower); m != nil && asOf.IsZero() {
			var mo time.Month
			switch {
			case m[1] != "":
				n, _ := strconv.Atoi(m[1])
				mo = time.Month(n)
			case m[2] != "":
				mo = monthAbbr[m[2]]
			default:
				mo = monthAbbr[m[3]]
			}
			if mo >= 1 && mo <= 12 {
				y := today.Year()
				if mo > today.Month()+1 {
					y-- // a month well after this one: last year's
				}
				p = ledger.MonthPeriod(ledger.Month{Year: y, Month: mo})
			}
		}
	}
	start, end := p.Start(loc), p.End(loc)
	days := math.Round(end.Sub(start).Hours() / 24)
	span := paceSpan{period: p, total: days, unit: ledger.PaceDays}
	weeks := func(n float64, u string) float64 {
		if strings.Contains(u, "周") || strings.Contains(u, "星期") || strings.Contains(u, "礼拜") || strings.HasPrefix(u, "week") {
			return n * 7
		}
		return n
	}
	months := func(u string) bool { return strings.Contains(u, "月") || strings.HasPrefix(u, "month") }
	switch {
	case reShareGone.MatchString(lower):
		m := reShareGone.FindStringSubmatch(lower)
		var n, d float64
		switch {
		case m[1] != "":
			n, _ = paceCount(m[1])
			d = map[string]float64{"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fourth": 4, "fourths": 4}[m[2]]
		case m[3] != "":
			n, d = 1, 2
		case m[4] != "":
			n, _ = strconv.ParseFloat(m[4], 64)
			d = 100
		case m[5] != "":
			d, _ = paceCount(m[6]) // "过了三分之二": 三 parts, 二 of them
			n, _ = paceCount(m[5])
			n, d = d, n
		case m[7] != "":
			d, _ = paceCount(m[7])
			n, _ = paceCount(m[8])
		default:
			n, d = 1, 2
		}
		span.elapsed, span.total, span.unit = n, d, ledger.PaceShare
		span.said, span.saidZH = fmt.Sprintf("%s/%s of %s gone", fmtNum(n), fmtNum(d), p.Label), fmt.Sprintf("%s 已过 %s/%s", p.Label, fmtNum(n), fmtNum(d))
	case reTimeLeft.MatchString(t):
		m := reTimeLeft.FindStringSubmatch(t)
		num, u := m[1], m[2]
		if num == "" {
			num, u = m[3], m[4]
		}
		if num == "" {
			num, u = m[5], m[6]
		}
		n, ok := paceCount(num)
		if !ok {
			return span, &advisor.InputError{Field: "period", Reason: "could not read the time left " + m[0]}
		}
		if months(u) && p.Months > 1 {
			span.total, span.unit = float64(p.Months), ledger.PaceMonths
			span.elapsed = span.total - n
		} else {
			if months(u) {
				n = days // a month left of a month: none of it gone
			}
			span.elapsed = days - weeks(n, u)
		}
		span.said, span.saidZH = fmt.Sprintf("%s %s left of %s", fmtNum(n), strings.TrimSuffix(u, "s")+"s", p.Label), fmt.Sprintf("%s 还剩 %s%s", p.Label, fmtNum(n), u)
	case reTimeGone.MatchString(t):
		m := reTimeGone.FindStringSubmatch(t)
		num, u := m[1], m[2]
		if num == "" {
			num, u = m[3], m[4]
		}
		n, _ := paceCount(num)
		if months(u) && p.Months > 1 {
			span.elapsed, span.total, span.unit = n, float64(p.Months), ledger.PaceMonths
		} else {
			span.elapsed = weeks(n, u)
		}
		span.said, span.saidZH = fmt.Sprintf("%s %s into %s", fmtNum(n), u, p.Label), fmt.Sprintf("%s 已过 %s%s", p.Label, fmtNum(n), u)
	case !asOf.IsZero():
		if asOf.Before(start) || !asOf.Before(end) {
			return span, &advisor.InputError{Field: "date", Reason: fmt.Sprintf("%s is not in %s", asOf.Format("2006-01-02"), p.Label)}
		}
		if monthEnd && p.Months > 1 {
			// "by end Sept" of a year: whole months gone
			gone := (asOf.Year()-p.First.Year)*12 + int(asOf.Month()-p.First.Month) + 1
			span.elapsed, span.total, span.unit = float64(gone), float64(p.Months), ledger.PaceMonths
		} else {
			span.elapsed = math.Round(asOf.Sub(start).Hours()/24) + 1 // through that day
		}
		span.said, span.saidZH = "through "+asOf.Format("2006-01-02"), "截至 "+asOf.Format("2006-01-02")
	default:
		// no time said: today, within the period
		switch {
		case today.Before(start):
			return span, &advisor.InputError{Field: "period", Reason: p.Label + " has not begun; say how far into it the spend runs (through Jan 31, two thirds through)"}
		case !today.Before(end):
			span.elapsed = days
		default:
			span.elapsed = math.Round(today.Sub(start).Hours()/24) + 1
		}
		span.said, span.saidZH = "through today, "+today.Format("2006-01-02"), "截至今天 "+today.Format("2006-01-02")
	}
	return span, nil
}

// pace answers a pace question from its own figures, verdict first.
func (s *Spend) pace(ctx context.Context, team string, m Message, req parse.Request, a *Answer) error {
	args := req.Slots.Args
	def := knowledge.CNY
	if a.Lang == "en" {
		def = knowledge.USD
	}
	if len(args) < 3 {
		return &advisor.InputError{Field: "check", Reason: tr(a.Lang, "need a budget and what is spent", "需要预算和已花金额"), Hint: "/gpu budget"}
	}
	budget, err := ledger.ParseAmount(args[1], def)
	if err != nil {
		return err
	}
	spent, err := ledger.ParseAmount(strings.TrimPrefix(args[2], "spent="), def)
	if err != nil {
		return err
	}
	if spent.Currency != budget.Currency {
		if fx := s.reportFX(ctx, team, a.Lang); fx != nil {
			f := *fx
			f.Rates = invertTo(fx, budget.Currency)
			f.To = budget.Currency
			if v, ok := f.ConvertMoney(spent); ok {
				spent = v
			}
		}
	}
	span, err := readPaceSpan(m.Text, s.now(), s.ledger.Location())
	if err != nil {
		return err
	}
	p, err := ledger.ProjectPace(budget, spent, span.elapsed, span.total, span.unit)
	if err != nil {
		return err
	}
	a.Result = p
	label, labelZH := span.period.Label, span.period.Label
	if pr := req.Slots.Project; pr != "" {
		label, labelZH = span.period.Label+" ("+pr+")", pr+" "+span.period.Label // "rag-sg 2026-12": whose budget it is
		a.use("project", "whose budget it is: named in the answer")
	}
	abs := ledger.Money{Minor: max(p.Gap.Minor, -p.Gap.Minor), Currency: p.Gap.Currency}
	enough := rePaceEnough.MatchString(m.Text)
	var en, zh string
	switch {
	case p.Over && enough:
		en, zh = "Not enough at this pace", "不够，照这个速度会超"
	case p.Over:
		en, zh = "Over pace, not on track", "照这个速度会超"
	case enough:
		en, zh = "Enough at this pace", "够，照这个速度不会超"
	default:
		en, zh = "On track", "照这个速度不会超"
	}
	side, sideZH := "over", "超出"
	switch {
	case p.Gap.Minor == 0:
		side, sideZH = "from", "差" // "$0.00 from the budget": it lands on it
	case !p.Over:
		side, sideZH = "under", "低于预算"
	}
	a.Text = tr(a.Lang,
		fmt.Sprintf("%s: at this pace %s for %s, %s %s the %s budget.", en, p.Projected, label, abs, side, budget),
		fmt.Sprintf("%s：照这个速度 %s 全期 %s，%s %s（预算 %s）。", zh, labelZH, p.Projected, sideZH, abs, budget))
	gone, goneZH := paceGone(p, a.Lang), paceGone(p, a.Lang)
	if span.unit != ledger.PaceShare {
		gone, goneZH = gone+" ("+span.said+")", goneZH+"（"+span.saidZH+"）"
	}
	share := present.Pct(float64(spent.Minor) / float64(budget.Minor))
	a.Text += "\n" + tr(a.Lang, fmt.Sprintf("Spent %s (%s of the budget) with %s.", spent, share, gone), fmt.Sprintf("已花 %s（预算的 %s），%s。", spent, share, goneZH))
	if p.Allowed.Minor > 0 && p.Over {
		per, perZH := "a day", "每天"
		if p.Unit == ledger.PaceMonths {
			per, perZH = "a month", "每月"
		}
		a.Text += "\n" + tr(a.Lang,
			fmt.Sprintf("To land on %s: at most %s %s for the rest of %s (now %s).", budget, p.Allowed, per, label, p.RunRate),
			fmt.Sprintf("要守住 %s：%s 余下时间%s最多花 %s（现在 %s）。", budget, labelZH, perZH, p.Allowed, p.RunRate))
	}
	a.Text += "\n" + tr(a.Lang, "How: "+p.How+" (your figures; the ledger was not read)", "算法："+paceHowZH(p)+"（用你给的数，未读账本）")
	a.use("budget", "the budget the pace is weighed against")
	a.use("amount", "what you said is spent: projected at its pace")
	if req.Slots.Date != "" {
		a.use("date", "the day the spend runs to")
	}
	if req.Slots.Month != "" {
		a.use("month", "the period projected, or the month the spend runs to")
	}
	a.verdictAsked = true
	// the typed answer: the period's projected total first, with the
	// verdict the way it was asked ("on track?" yes = under, "over pace?"
	// yes = over); then what is left of the budget at this pace
	// (negative: over) and what is spent
	cur := string(budget.Currency)
	a.Typed = &Typed{Asked: "money_total", Value: val(p.Projected.Float()), Unit: "projected", Currency: cur, Verdict: paceVerdict(m.Text, p.Over),
		Also: []Typed{{Asked: "budget", Value: val(-p.Gap.Float()), Unit: "left at this pace", Currency: cur}, {Asked: "spend", Value: val(spent.Float()), Unit: "spent", Currency: cur}}}
	a.say(a.Text)
	return nil
}

var (
	// the yes/no asks whether it is enough or on track (yes: under) …
	rePaceYesUnder = regexp.MustCompile(`(?i)on track|on pace|\benough\b|\bwithin\b|\blast (?:until|till|through|to)\b|够|撑得到|撑到|来得及`)
	// … or whether it goes over (yes: over)
	rePaceYesOver = regexp.MustCompile(`(?i)\bover\b|\bblow|\bexceed|overrun|overspend|run out|超`)
)

// paceVerdict is the yes/no of a pace question the way it was asked: the
// first of "on track? / 够不够" (yes means under) and "over pace? / 会不会超"
// (yes means over) in the question decides ("On track, or are they going
// to blow it?" asks the first). Neither: yes means over.
func paceVerdict(question string, over bool) *string {
	u, o := rePaceYesUnder.FindStringIndex(question), rePaceYesOver.FindStringIndex(question)
	if u != nil && (o == nil || u[0] < o[0]) {
		return verdict(!over)
	}
	return verdict(over)
}

// paceGone says how much of the period is gone: "31 of 90 days gone",
// "2/3 of the period gone".
func paceGone(p ledger.Pace, lang string) string {
	if p.Unit == ledger.PaceShare {
		return tr(lang, fmt.Sprintf("%s/%s of the period gone", fmtNum(p.Elapsed), fmtNum(p.Total)), fmt.Sprintf("时间已过 %s/%s", fmtNum(p.Elapsed), fmtNum(p.Total)))
	}
	u := map[string]string{ledger.PaceDays: "天", ledger.PaceMonths: "个月"}[p.Unit]
	return tr(lang, fmt.Sprintf("%s of %s %s gone", fmtNum(p.Elapsed), fmtNum(p.Total), p.Unit), fmt.Sprintf("%s%s 已过 %s%s", fmtNum(p.Total), u, fmtNum(p.Elapsed), u))
}

// paceHowZH is the pace's arithmetic in Chinese.
func paceHowZH(p ledger.Pace) string {
	gap := fmt.Sprintf("%s − %s = 超出 %s", p.Projected, p.Budget, p.Gap)
	if !p.Over {
		gap = fmt.Sprintf("%s − %s = 余 %s", p.Budget, p.Projected, ledger.Money{Minor: -p.Gap.Minor, Currency: p.Gap.Currency})
	}
	if p.Unit == ledger.PaceShare {
		return fmt.Sprintf("%s ÷ %s/%s = %s；%s", p.Spent, fmtNum(p.Elapsed), fmtNum(p.Total), p.Projected, gap)
	}
	u, per := map[string]string{ledger.PaceDays: "天", ledger.PaceMonths: "个月"}[p.Unit], map[string]string{ledger.PaceDays: "每天", ledger.PaceMonths: "每月"}[p.Unit]
	return fmt.Sprintf("%s × %s%s ÷ %s%s = %s（%s %s）；%s", p.Spent, fmtNum(p.Total), u, fmtNum(p.Elapsed), u, p.Projected, per, p.RunRate, gap)
}
