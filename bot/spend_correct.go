package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
)

// correctionArg marks spend edit arguments that came from a correction
// in words (parse.ReadCorrection) rather than from "spend edit id k=v".
const correctionArg = "correction"

// deletionArg marks spend delete arguments read from a sentence
// (parse.ReadDeletion): the entry is found by its description.
const deletionArg = "deletion"

// ledgerInWords is the planner's one entry into the ledger's sentences:
// a correction of an entry in words becomes a spend edit (never a second
// entry), and a budget or spend question carrying its own figures
// becomes a spend check (see spendCheckInWords). ok is false for anything
// else; why says what was read.
func ledgerInWords(req parse.Request) (parse.Request, string, bool) {
	if req.Slash && !slashSentence(req) {
		return req, "", false
	}
	if c, ok := parse.ReadCorrection(req.Text); ok {
		req.Intent = parse.Spend
		req.Slots.Mode = "edit"
		req.Slots.ID = c.ID
		args := []string{correctionArg}
		if c.About != "" {
			args = append(args, "about="+c.About)
		}
		for _, f := range append(ledger.EditFields, "month") {
			if v, ok := c.Fields[f]; ok {
				args = append(args, f+"="+v)
			}
		}
		for _, f := range []string{"amount", "month"} {
			if v, ok := c.Old[f]; ok {
				args = append(args, "old."+f+"="+v) // the entry as it stands: how it is found
			}
		}
		req.Slots.Args = args
		// the month the typed slots say: the one moved to, else the entry's
		if mo := c.Fields["month"]; mo != "" {
			req.Slots.Month = fmt.Sprintf("%02s", mo)
		} else if mo := c.Old["month"]; mo != "" {
			req.Slots.Month = mo
			if len(mo) == 1 {
				req.Slots.Month = "0" + mo
			}
		}
		req.Slots.Missing, req.Problems = nil, nil
		// what the parser read for another question is the correction's now
		req.Slots.HoursPerMonth, req.Slots.Rent, req.Slots.Notes = 0, nil, nil
		if v, ok := c.Fields["amount"]; ok {
			if m, ok := parse.ParseMoney(v); ok {
				if m.Currency == "" {
					m.Currency = "CNY" // "是268不是286": the entry's own; the asker's, as read
					if req.Lang == "en" {
						m.Currency = "USD"
					}
				}
				req.Slots.Amount = &m // the typed slots say what was read
			}
		}
		if v, err := strconv.ParseFloat(c.Fields["hours"], 64); err == nil {
			req.Slots.Hours = v
		}
		if v, err := strconv.Atoi(c.Fields["cards"]); err == nil {
			req.Slots.Cards = v
		}
		return req, "a correction of a ledger entry", true
	}
	if args, ok := alertInWords(req); ok {
		// "alert me at 180% of the budget": over-spend alerts, not a utilisation
		req.Intent = parse.Budget
		req.Slots.Args = args
		req.Slots.Mode, req.Slots.Missing, req.Slots.Targets, req.Problems = "", nil, nil, nil
		req.Slots.Utilization = 0
		req.Slots.Budget, req.Slots.Monthly, req.Slots.Amount, req.Slots.Price = nil, nil, nil, nil
		if m, ok := parse.ParseMoney(strings.Split(args[len(args)-1], "/")[0]); ok {
			req.Slots.Budget = &m // the amount set, when one is: the typed slots say so
		}
		return req, "alerts on a budget", true
	}
	if args, ok := cardBudgetInWords(req); ok {
		req.Intent = parse.Budget
		req.Slots.Args = args
		req.Slots.Missing, req.Problems = nil, nil
		// the card and the amount are the command's words now
		req.Slots.GPUs, req.Slots.Budget, req.Slots.Monthly, req.Slots.Amount, req.Slots.Price = nil, nil, nil, nil, nil
		return req, "a budget for a card or card family", true
	}
	if commitmentsInWords(req) {
		req.Intent = parse.Spend
		req.Slots.Mode = "commitments"
		req.Slots.Missing, req.Problems = nil, nil
		return req, "a request for the commitments list", true
	}
	if d, ok := parse.ReadDeletion(req.Text); ok {
		// "把12月那笔腾讯云 ¥52,000 删掉吧": the entry described, removed
		req.Intent = parse.Spend
		req.Slots.Mode = "delete"
		if d.About == "" && req.Slots.Platform != "" {
			d.About = req.Slots.Platform // "两笔重复的阿里云扣费": the platform the parser read
		}
		req.Slots.Args = []string{deletionArg, "about=" + d.About, "amount=" + d.Amount, "month=" + d.Month}
		if len(d.Month) > 0 {
			req.Slots.Month = fmt.Sprintf("%02s", d.Month)
		}
		req.Slots.Missing, req.Problems = nil, nil
		req.Slots.GPUs, req.Slots.Budget, req.Slots.Monthly, req.Slots.Price = nil, nil, nil, nil
		return req, "a ledger entry removed in words", true
	}
	if r, ok := budgetStatusInWords(req); ok {
		return r, "a question about how the budgets stand", true
	}
	if r, ok := budgetSetAndCheck(req); ok {
		return r, "a budget set, and your spend checked against it", true
	}
	if args, ok := spendCheckInWords(req); ok {
		req.Intent = parse.Spend
		req.Slots.Mode = "check"
		req.Slots.Args = args
		req.Slots.Missing, req.Problems = nil, nil
		if args[0] == "pace" {
			// the budget and the spend stated are the figures projected:
			// the typed slots say so, and neither is "a second amount"
			_, budget, spent, _ := paceInWords(req)
			for _, f := range []**parse.Money{&req.Slots.Price, &req.Slots.Monthly, &req.Slots.Rent, &req.Slots.Ops} {
				if *f != nil && ((*f).Amount == budget.Amount || (*f).Amount == spent.Amount) {
					*f = nil // "burned $61k of its $80k" read as a purchase price
				}
			}
			req.Slots.Budget, req.Slots.Amount = &budget, &spent
			req.Slots.Notes = slices.DeleteFunc(req.Slots.Notes, func(n string) bool { return strings.HasPrefix(n, "ignored a second") })
			if rePaceAsk.MatchString(req.Slots.Project) || reNotProject.MatchString(req.Slots.Project) {
				req.Slots.Project = "" // "what is the run-rate?", "our annual budget": a word of the question, not a project
			}
			if req.Slots.Month == "" && req.MonthSaid != "" && reMonthNamed.MatchString(strings.ToLower(req.Text)) {
				req.Slots.Month = req.MonthSaid // "12月预算": the month projected
			}
			return req, "a budget's pace from your figures", true
		}
		if len(args) == 2 && args[0] == "left" {
			if m, ok := parse.ParseMoney(args[1]); ok {
				// the budget stated is the figure checked: the typed
				// slots say so, and it is not also an entry's amount
				req.Slots.Budget = &m
				if a := req.Slots.Amount; a != nil && a.Amount == m.Amount {
					req.Slots.Amount = nil
				}
			}
		}
		if args[0] == "left" && req.Slots.Month == "" && req.MonthSaid != "" {
			req.Slots.Month = req.MonthSaid // "这个月已经花了多少": the month checked (spend check reads it)
		}
		return req, "a budget question with its own figures", true
	}
	return req, "", false
}

// correction reads the edit a correction in words asked for: the entry
// (its id, the entry described, or the asker's last one) and the fields.
//
// An amount said wrong with nothing else about the entry ("不对，是1800元
// 不是18000元") means the asker's latest entry even when its amount is not
// that figure (the figure they remember may be one the ledger never
// booked); note then says so before the edit. With a platform, card or
// month named, the entry must match all of it, else nothing is changed
// and the error says what was read and names the nearest entry.
func (s *Spend) correction(ctx context.Context, team string, m Message, req parse.Request, a *Answer) (id string, fields map[string]string, note string, err error) {
	hint := tr(a.Lang, "/gpu spend edit 7k2m9q amount=¥1800 (or: 不对，金额是1800元 right after the entry)", "/gpu spend edit 7k2m9q amount=¥1800（或在记账后直接说：不对，金额是1800元）")
	fields = map[string]string{}
	about, oldAmount, oldMonth := "", "", ""
	for _, kv := range req.Slots.Args[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "about":
			about = v
		case "old.amount":
			oldAmount = v
		case "old.month":
			oldMonth = v
		default:
			fields[k] = v
		}
	}
	var target ledger.Entry
	switch {
	case req.Slots.ID != "":
		nid, ok := ledger.NormalizeID(req.Slots.ID)
		if !ok {
			return "", nil, "", &advisor.InputError{Field: "id", Reason: tr(a.Lang, fmt.Sprintf("read #%s, which is not an entry id (ids are 6 letters and digits, e.g. #7k2m9q)", req.Slots.ID),
				fmt.Sprintf("读到 #%s，这不是记录编号（编号为 6 位字母数字，例如 #7k2m9q）", req.Slots.ID)), Hint: "/gpu spend list"}
		}
		if target, err = s.ledger.Get(ctx, team, nid); err != nil {
			return "", nil, "", err
		}
	default:
		keep, in := s.entrySaid(about, oldAmount, oldMonth)
		if in.IsZero() {
			target, err = s.ledger.Latest(ctx, team, m.User, keep)
		} else {
			loc := s.ledger.Location()
			target, err = s.ledger.LatestIn(ctx, team, m.User, keep, in.Start(loc), in.End(loc)) // the month said, however long ago
		}
		if errors.Is(err, ledger.ErrNotFound) && oldAmount != "" && about == "" && oldMonth == "" {
			// "不对，是1800元不是18000元": the asker's latest entry, whatever it booked
			if target, err = s.ledger.Latest(ctx, team, m.User, nil); err == nil {
				note = tr(a.Lang, fmt.Sprintf("Your latest entry #%s was booked at %s, not %s as you said; corrected that one. ", target.ID, target.Amount.String(), oldAmount),
					fmt.Sprintf("你最近的一条记录 #%s 记的是 %s，不是你说的 %s；已更正这一条。", target.ID, target.Amount.String(), oldAmount))
			}
		}
		if errors.Is(err, ledger.ErrNotFound) {
			what := tr(a.Lang, "you have no recent entry to correct; nothing was changed", "你最近没有可更正的记录，没有修改任何记录")
			if said := strings.Join(strings.Fields(strings.Join([]string{about, oldAmount, monthSaid(oldMonth, a.Lang)}, " ")), ", "); said != "" {
				what = tr(a.Lang, fmt.Sprintf("no recent entry matches what was read (%s); nothing was changed", said),
					fmt.Sprintf("最近没有与所读内容（%s）相符的记录，没有修改任何记录", said))
			}
			if near, err2 := s.ledger.Latest(ctx, team, m.User, s.ledger.Describes(about)); err2 == nil && about != "" {
				hint = tr(a.Lang, fmt.Sprintf("your latest %s entry is #%s (%s, %s); to change it: /gpu spend edit %s field=value", about, near.ID, near.Amount.String(), near.At.In(s.ledger.Location()).Format("2006-01-02"), near.ID),
					fmt.Sprintf("你最近一条 %s 记录是 #%s（%s，%s）；要改它：/gpu spend edit %s 字段=值", about, near.ID, near.Amount.String(), near.At.In(s.ledger.Location()).Format("2006-01-02"), near.ID))
			}
			return "", nil, "", &advisor.InputError{Field: "id", Reason: what, Hint: hint}
		}
		if err != nil {
			return "", nil, "", err
		}
	}
	if mo, ok := fields["month"]; ok {
		delete(fields, "month")
		n, _ := strconv.Atoi(mo)
		fields["date"] = movedToMonth(target.At.In(s.ledger.Location()), time.Month(n), s.now()).Format("2006-01-02")
	}
	if len(fields) == 0 {
		return "", nil, "", &advisor.InputError{Field: "edit", Reason: tr(a.Lang, "nothing to change was read", "没有读到要改的内容"), Hint: hint}
	}
	return target.ID, fields, note, nil
}

// entrySaid keeps the entries a correction describes: the platform, card
// or project named (about), the amount it has now (oldAmount, "$320" of
// "$320应该是$230"; a bare figure matches in the entry's own currency) and
// the month it is in (oldMonth: 1–12, "last", "this"; returned as in).
// keep is nil when nothing was said: the asker's latest entry.
func (s *Spend) entrySaid(about, oldAmount, oldMonth string) (keep ledger.Filter, in ledger.Month) {
	desc := s.ledger.Describes(about)
	var want parse.Money
	if v, ok := parse.ParseMoney(oldAmount); ok {
		want = v
	}
	loc := s.ledger.Location()
	now := s.now().In(loc)
	var mon ledger.Month
	switch oldMonth {
	case "":
	case "last":
		mon = ledger.MonthOf(now, loc).Prev()
	case "this":
		mon = ledger.MonthOf(now, loc)
	default:
		if n, err := strconv.Atoi(oldMonth); err == nil && n >= 1 && n <= 12 {
			y := now.Year()
			if time.Month(n) > now.Month() {
				y-- // "11月那笔" in March: last November
			}
			mon = ledger.Month{Year: y, Month: time.Month(n)}
		}
	}
	if desc == nil && want.Amount == 0 && mon.Year == 0 {
		return nil, mon
	}
	return func(e ledger.Entry) bool {
		if desc != nil && !desc(e) {
			return false
		}
		if want.Amount > 0 && (math.Abs(e.Amount.Float()-want.Amount) > 0.005 || want.Currency != "" && string(e.Amount.Currency) != want.Currency) {
			return false
		}
		return mon.Year == 0 || ledger.MonthOf(e.At, loc) == mon
	}, mon
}

// monthSaid names a month a correction said the entry is in.
func monthSaid(mo, lang string) string {
	switch mo {
	case "":
		return ""
	case "last":
		return tr(lang, "last month", "上个月")
	case "this":
		return tr(lang, "this month", "本月")
	}
	n, _ := strconv.Atoi(mo)
	if n < 1 || n > 12 {
		return ""
	}
	return tr(lang, time.Month(n).String(), mo+"月")
}

// movedToMonth is day t moved to month mo: the same day of the month
// (the month's last day when it has fewer), in the latest year that puts
// it no later than now ("dated November not December" in December is
// this November; in January, last November).
func movedToMonth(t time.Time, mo time.Month, now time.Time) time.Time {
	y := t.Year()
	if mo > t.Month() && t.Month() < 3 && mo > 9 {
		y-- // "December not January": the year before
	}
	last := time.Date(y, mo+1, 0, 0, 0, 0, 0, t.Location()).Day()
	out := time.Date(y, mo, min(t.Day(), last), 0, 0, 0, 0, t.Location())
	if out.After(now) {
		out = out.AddDate(-1, 0, 0)
	}
	return out
}

// described finds the entry a removal in words describes: the asker's
// latest entry matching the platform, card or project named, the amount
// and the month when given.
func (s *Spend) described(ctx context.Context, team string, m Message, args []string, lang string) (string, error) {
	var about, amount, month string
	for _, kv := range args[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "about":
			about = v
		case "amount":
			amount = v
		case "month":
			month = v
		}
	}
	var want float64
	if v, ok := parse.ParseMoney(amount); ok {
		want = v.Amount
	}
	desc := s.ledger.Describes(about)
	mon, _ := strconv.Atoi(month)
	loc := s.ledger.Location()
	keep := func(e ledger.Entry) bool {
		if desc != nil && !desc(e) {
			return false
		}
		if want > 0 && math.Abs(e.Amount.Float()-want) > 0.005 {
			return false
		}
		return mon == 0 || int(e.At.In(loc).Month()) == mon
	}
	e, err := s.ledger.Latest(ctx, team, m.User, keep)
	if errors.Is(err, ledger.ErrNotFound) {
		what := strings.Join(strings.Fields(strings.Join([]string{about, amount, month}, " ")), " ")
		en, zh := fmt.Sprintf("no recent entry of yours matches (%s); nothing was removed", what), fmt.Sprintf("你最近的记录里没有相符的（%s），没有删除任何记录", what)
		if what == "" { // "删掉刚才那笔" with nothing booked
			en, zh = "you have no recent entry to remove; nothing was removed", "你最近没有可删除的记录，没有删除任何记录"
		}
		return "", &advisor.InputError{Field: "id", Reason: tr(lang, en, zh),
			Hint: tr(lang, "/gpu spend list, then /gpu spend delete <id>", "先 /gpu spend list，再 /gpu spend delete <编号>")}
	}
	return e.ID, err
}

// reNotProject are words of a budget question the parser may take for a
// project's name ("… of our $1M annual budget", "every project please").
var reNotProject = regexp.MustCompile(`(?i)^(?:annual|yearly|quarterly|monthly|month|quarter|year|budget|total|please|pace|run-?rate|last|this|next|each|every|per|all|much|so|far)$`)

// budgetSetAndCheck reads a budget change that also states what is spent
// and asks about it — "Set atlas budget to $50k/mo; spent $56,300 —
// over?" — as the budget set with the spend to check against it: the
// budget command's arguments with spent=AMOUNT last (bot/budget checks
// it after setting). ok is false for anything else.
func budgetSetAndCheck(req parse.Request) (parse.Request, bool) {
	in, args, ok := budgetInWords(req)
	if !ok || args[0] != "set" || !(readOnly[req.Intent] || req.Intent == parse.Spend) {
		return req, false
	}
	t := parse.Clean(req.Text)
	if !reCheckAsk.MatchString(t) && !rePaceAsk.MatchString(t) {
		return req, false
	}
	m := rePaceSpent.FindStringSubmatch(t)
	if m == nil {
		return req, false
	}
	spent, ok := parse.ParseMoney(strings.TrimRight(strings.ReplaceAll(m[1], " ", ""), ","))
	last, _, _ := strings.Cut(args[len(args)-1], "/") // "$50000/quarter": the amount set
	set, ok2 := parse.ParseMoney(last)
	if !ok || !ok2 || spent.Amount <= 0 || spent.Amount == set.Amount {
		return req, false
	}
	if spent.Currency == "" {
		spent.Currency = set.Currency
	}
	req.Intent = in
	req.Slots.Args = append(args, "spent="+budgetAmountArg(spent, req.Lang))
	req.Slots.Missing, req.Problems, req.Slots.Mode = nil, nil, ""
	for _, p := range []**parse.Money{&req.Slots.Amount, &req.Slots.Monthly, &req.Slots.Price, &req.Slots.Budget, &req.Slots.Rent} {
		if *p != nil && ((*p).Amount == set.Amount || (*p).Amount == spent.Amount) {
			*p = nil
		}
	}
	req.Slots.Budget, req.Slots.Amount = &set, &spent
	req.Slots.YesNo = true // "— over?": the check is a yes/no
	req.Slots.Notes = slices.DeleteFunc(req.Slots.Notes, func(n string) bool { return strings.HasPrefix(n, "ignored a second") })
	return req, true
}
