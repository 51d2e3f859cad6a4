package parse

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// finish turns what a message says into the slots of one intent: money goes
// to the slot the intent reads it as, hours become hours per month where the
// intent means that, and intent-specific words (billing, persona, topic,
// workload, month, project) are kept only where they mean something.
func (f *features) finish(in Intent) Slots {
	s := f.s
	s.GPUs = append([]string(nil), f.s.GPUs...)
	s.Notes = append([]string(nil), f.s.Notes...)
	// A weak method word ("deploy", "出图") alone names no workload to size,
	// except for images: "跑SD出图用什么卡" asks for generating, not training.
	if f.weakMethod && s.ParamsB == 0 && s.Arch == "" && (in != Recommend || f.workload != "diffusion") {
		s.Method = ""
	}
	keep := func(key string, dst *string, v string, ok bool) {
		if !f.kvSet[key] && ok {
			*dst = v
		}
	}
	keep("billing", &s.Billing, f.billing, in == Spend || in == Price)
	keep("persona", &s.Persona, f.persona, in == Recommend || in == Knowledge || in == Price || in == Cost || in == Monthly || in == Buy) // an enterprise is priced on contracted clouds (bot/price_persona.go)
	keep("workload", &s.Workload, f.workload, in == Recommend)
	if in == Knowledge {
		s.Topic = f.topic
	}
	// a project named in words is kept whatever was asked: a ledger entry
	// or budget books to it, any other answer says it did not use it
	keep("project", &s.Project, f.project, s.Project == "")
	if in == Budget {
		keep("month", &s.Month, f.month, s.Month == "") // "这个月还剩多少"
	}
	if in == Spend {
		if !f.kvSet["method"] {
			s.Method = "" // "pretrain" names what the cards ran, not a method to size
		}
		keep("month", &s.Month, f.month, s.Month == "")
		keep("id", &s.ID, f.id, s.ID == "")
	} else if !f.kvSet["date"] {
		s.Date = "" // a date means something only for a ledger entry
	}

	if f.future != (day{}) {
		f.futureDate(&s, in)
	}
	if f.spanHours && (in == Cost || in == Fit) && (s.Tokens > 0 || s.Samples > 0) && s.Days == 0 {
		// "白嫖了一张a100，能用一周，2万条能跑完吗": a job's week is the time it has
		s.Days, s.Hours = s.Hours/24, 0
		s.Notes = append(s.Notes, fmt.Sprintf("the %s days available read as the deadline", trim(s.Days)))
	}
	if (in == Monthly || in == Buy) && s.HoursPerMonth == 0 && s.Hours > 0 && !f.spanHours {
		s.HoursPerMonth, s.Hours = s.Hours, 0
		s.Notes = append(s.Notes, fmt.Sprintf("%s h read as hours per month", trim(s.HoursPerMonth)))
	}
	quiet := in == Knowledge || in == Help || in == Unknown
	if quiet && !f.kvSet["util"] {
		s.Utilization = 0 // "SLA 99.9%" is not utilisation
	}
	if !quiet {
		hourly := 0 // figures read as a price an hour: two beside commitment words are both rates
		for _, h := range f.money {
			if h.kind == kindHourly || h.kind == kindBare && h.m.Amount < 50 {
				hourly++
			}
		}
		for _, h := range f.money {
			f.assign(&s, in, h, hourly)
		}
		f.discount(&s, in)
	}
	if in == Spend && s.Mode == "" {
		s.Mode = spendMode(s, f.cueText)
	}
	if in != Spend {
		// a minus sign before a figure ("经费-8000块", "budget -$500"): refused
		// with what was read, never read as the positive figure
		for _, h := range f.money {
			if h.start > 0 && h.start <= len(f.cueText) && negativeBefore(f.cueText[:h.start]) {
				f.problem("amount", fmt.Sprintf("read a negative amount (−%s): prices, plans and budgets are positive", trim(h.m.Amount)),
					fmt.Sprintf("读到负数金额（−%s）：价格、包月价和预算都应为正数", trim(h.m.Amount)), "budget $500", "预算5000")
				break
			}
		}
		// a price, plan or budget of 0 prices nothing: refused with what was
		// read (it was quietly replaced by the catalogue's, or dropped)
		for _, z := range []struct {
			field, en, zh, hint, hintZH string
			m                           *Money
		}{{"price", "a price", "价格", "$2.49/h", "¥1.98/小时", s.Price}, {"rent", "a rent", "租金", "$2.49/h", "¥1.98/小时", s.Rent},
			{"monthly", "a monthly price", "包月价", "$1,500/month", "¥1,500/月", s.Monthly}, {"budget", "a budget", "预算", "budget $500", "预算5000", s.Budget}} {
			if z.m != nil && z.m.Amount == 0 {
				f.problem(z.field, "read "+z.en+" of 0: nothing can be priced at 0; give the figure", "读到"+z.zh+"为 0：按 0 无法计算；请给出实际数额", z.hint, z.hintZH)
				break
			}
		}
	}
	s.Missing = missing(in, s)
	return s
}

// discount reads a discount off on demand ("35% off", "打七折"): the
// money pass took its percent out, so it is never utilisation.
func (f *features) discount(s *Slots, in Intent) {
	if in == Spend || in == Budget {
		return
	}
	off, pct, ok := readDiscount(f.cueText)
	if !ok {
		return
	}
	s.Discount = off
	if pct != "" {
		s.Notes = append(s.Notes, fmt.Sprintf("%s%% read as a discount off on demand, not utilisation", pct))
	}
}

// assign puts one money figure in the slot the intent reads it as; hourly
// is how many figures in the message read as an hourly price.
func (f *features) assign(s *Slots, in Intent, h moneyHit, hourly int) {
	if h.weak && in != Buy && in != Monthly && in != Spend && in != Recommend {
		return
	}
	m := h.m
	put := func(dst **Money, what string) {
		if *dst != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("ignored a second %s (%s)", what, trim(m.Amount)))
			return
		}
		*dst = &m
	}
	kind := h.kind
	if in != Spend && kind == kindSpent {
		kind = kindBare
	}
	switch {
	case kind == kindBudget:
		put(&s.Budget, "budget")
	case kind == kindPower:
		put(&s.Power, "electricity price")
	case kind == kindOps || kind == kindYearly && in == Buy:
		put(&s.Ops, "operations cost")
	case in == Spend:
		if kind == kindHourly {
			put(&s.Price, "hourly price")
		} else {
			put(&s.Amount, "amount")
		}
	case kind == kindMonthly && f.onDemandBill(in, h):
		put(&s.OnDemandMonthly, "on-demand bill a month")
	case kind == kindMonthly:
		put(&s.Monthly, "monthly price")
	case kind == kindHourly && f.committedRate(in, h, hourly):
		put(&s.Committed, "committed rate")
	case kind == kindHourly:
		if in == Buy {
			put(&s.Rent, "hourly rent")
		} else {
			put(&s.Price, "hourly price")
		}
	case kind == kindPurchase:
		put(&s.Price, "price")
	default: // a bare figure: read by what the intent is about
		switch in {
		case Buy:
			if m.Amount >= 1000 || m.Amount >= 50 && f.hasHourly() {
				// "used 3090 for $700 vs renting a 4090 at $0.40/hr": beside
				// a rate an hour, a bare figure is what the card costs
				put(&s.Price, "purchase price")
			} else if f.committedRate(in, h, hourly) {
				put(&s.Committed, "committed rate")
				s.Notes = append(s.Notes, fmt.Sprintf("%s read as the committed rate per card-hour", trim(m.Amount)))
			} else {
				put(&s.Rent, "hourly rent")
				s.Notes = append(s.Notes, fmt.Sprintf("%s read as the hourly rent", trim(m.Amount)))
			}
		case Monthly:
			if m.Amount > 50 {
				put(&s.Monthly, "monthly price")
			} else if f.committedRate(in, h, hourly) {
				put(&s.Committed, "committed rate")
				s.Notes = append(s.Notes, fmt.Sprintf("%s read as the committed rate per card-hour", trim(m.Amount)))
			} else {
				put(&s.Price, "hourly price")
				s.Notes = append(s.Notes, fmt.Sprintf("%s read as the hourly price", trim(m.Amount)))
			}
		case Recommend, Cost, Fit:
			put(&s.Budget, "budget")
		default:
			put(&s.Price, "price")
		}
	}
}

// hasHourly reports whether a figure in the message is a price an hour.
func (f *features) hasHourly() bool {
	for _, h := range f.money {
		if h.kind == kindHourly {
			return true
		}
	}
	return false
}

// committedRate reports whether an hourly figure is a commitment's rate:
// commitment words nearest it in its clause, in a question that weighs a
// commitment (buy, monthly) or that states another hourly rate beside it.
func (f *features) committedRate(in Intent, h moneyHit, hourly int) bool {
	if in == Spend || in != Buy && in != Monthly && hourly < 2 {
		return false
	}
	return sideOf(f.cueText, h.start, h.end) == sideCommit
}

// onDemandBill reports whether a monthly figure is what on demand costs a
// month ("$38k/mo on 12 A100s on demand"), said in a commitment question:
// on-demand words nearest it in its clause.
func (f *features) onDemandBill(in Intent, h moneyHit) bool {
	if in == Spend || in == Budget || !commitTalk(f.cueText) {
		return false
	}
	return sideOf(f.cueText, h.start, h.end) == sideOnDemand
}

// futureDate places a date ahead of today: a ledger entry cannot have
// one (refused, with the right form); for a job it is the deadline, in
// days from today ("下周五前要跑完"), when no other deadline was said; any
// other answer gets a note that the date was read and not used.
func (f *features) futureDate(s *Slots, in Intent) {
	d := f.future
	switch {
	case in == Spend:
		f.problem("date", fmt.Sprintf("%s is in the future; the ledger books what was already spent", d), fmt.Sprintf("%s 还没到；账本只记已经发生的花费", d), "yesterday, nov 3, date=2026-11-03", "昨天, 11月3日, date=2026-11-03")
	case (in == Cost || in == Fit || in == Recommend) && s.Days == 0 && !f.now.IsZero():
		today := dayOf(f.now).time()
		s.Days = math.Ceil(d.time().Sub(today).Hours() / 24)
		s.Notes = append(s.Notes, fmt.Sprintf("deadline %s read as %s days from %s", d, trim(s.Days), dayOf(f.now)))
	default:
		s.Notes = append(s.Notes, fmt.Sprintf("the date %s was read as a deadline; this answer does not use one", d))
	}
}

// missing names what an intent needs and the slots do not have, most
// important first. "a|b" means either will do.
func missing(in Intent, s Slots) []string {
	var out []string
	need := func(name string, have bool) {
		if !have {
			out = append(out, name)
		}
	}
	model := s.ParamsB > 0 || s.Arch != ""
	switch in {
	case Fit:
		need("params_b", model)
	case Cost:
		direct := s.GPUHours > 0 || s.Hours > 0
		need("params_b", model || direct)
		serving := s.TokensPerDay > 0 || s.RequestsPerS > 0
		if model && !direct && !serving {
			if s.Method == "inference" {
				need("tokens", s.Tokens > 0)
			} else {
				need("tokens|samples", s.Tokens > 0 || s.Samples > 0)
			}
		}
	case Monthly:
		need("gpus", len(s.GPUs) > 0)
		need("hours_per_month", s.HoursPerMonth > 0 || s.Utilization > 0)
	case Buy:
		need("gpus", len(s.GPUs) > 0)
		need("utilization|hours_per_month", s.Utilization > 0 || s.HoursPerMonth > 0)
	case Price:
		need("gpus", len(s.GPUs) > 0)
	case Compare:
		need("gpus", len(s.GPUs) >= 2 || len(s.Platforms) >= 2)
	case Recommend:
		need("workload|params_b|budget", s.Workload != "" || model || s.Budget != nil)
	case Spend:
		switch s.Mode {
		case "add":
			need("gpus", len(s.GPUs) > 0)
			need("amount|hours", s.Amount != nil || s.Hours > 0 || s.GPUHours > 0)
		case "delete":
			need("id", s.ID != "")
		}
	case Listen:
		need("mode", s.Mode != "")
	}
	return out
}

// spendMode decides what a ledger message asks for.
func spendMode(s Slots, t string) string {
	c := compact(t)
	for _, m := range vocab.spendModes {
		if m.Value == "delete" && s.ID == "" {
			continue // deleting needs the entry's id
		}
		if termIn(m, t, c) {
			return m.Value
		}
	}
	if (s.Amount != nil || s.Hours > 0 && len(s.GPUs) > 0) && !anyTermWord(vocab.asking, t, c) && !strings.ContainsAny(t, "?？") {
		// a figure stated, nothing asked: an entry; "spent $47k — on
		// track?" asks, and a question never writes
		return "add"
	}
	return "report"
}

// negativeBefore reports whether a figure starting after before is signed
// negative: a minus right before it (spaces or a currency mark between),
// not a range's dash after a number ("1.8-2.5") or a word's hyphen.
func negativeBefore(before string) bool {
	b := strings.TrimRight(before, " ¥$￥")
	if !strings.HasSuffix(b, "-") && !strings.HasSuffix(b, "−") {
		return false
	}
	b = strings.TrimSuffix(strings.TrimSuffix(b, "-"), "−")
	if b == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(b)
	// after an ASCII digit or letter the dash is a range's or a word's
	// ("1.8-2.5", "a100-80g"); after anything else (a space, punctuation, a
	// Chinese character: "经费-8000") it is a sign
	return r >= utf8.RuneSelf || !unicode.IsDigit(r) && !unicode.IsLetter(r)
}
