package bot

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// PriceOffer is one offer in the price answer (the contract's keys first).
type PriceOffer struct {
	Platform      string  `json:"platform"`
	GPU           string  `json:"gpu"`
	Price         float64 `json:"price"` // per card-hour, low end
	PriceHigh     float64 `json:"price_high"`
	Currency      string  `json:"currency"`
	Unit          string  `json:"unit"`
	Billing       string  `json:"billing"`
	ObservedAt    string  `json:"observed_at"`
	AgeDays       int     `json:"age_days"` // days since observed_at
	PricingModel  string  `json:"pricing_model"`
	Interruptible bool    `json:"interruptible"`
	Monthly       bool    `json:"monthly"`
	Original      string  `json:"original"` // the figure as published
	Source        string  `json:"source"`
	Note          string  `json:"note,omitempty"`
	OfferDetail           // the catalogue's detail: instance type, regions, freshness (price_catalog.go)
}

// PriceView is the price answer: every offer per asked card, cheapest first.
type PriceView struct {
	GPUs        []string            `json:"gpus"`
	Currency    string              `json:"currency"`
	FX          float64             `json:"fx"`
	Offers      []PriceOffer        `json:"offers"`
	Lists       []advisor.PriceList `json:"lists"`
	Assumptions []string            `json:"assumptions"`
	// NotListed names the asked platform when it lists none of the asked
	// cards; Offers then shows where they are priced instead.
	NotListed string `json:"not_listed,omitempty"`
	Platform  string `json:"platform,omitempty"` // the platform asked about, if any
	// PerMonth is the first offer's price per card-month when a monthly
	// plan was asked for and only plans are shown ("腾讯云 A100 包月多少钱").
	PerMonth float64 `json:"per_month,omitempty"`
	// NoPlan names the cards a monthly plan (包月/包年) was asked for that
	// no shipped row or offer prices that way: the headline says so
	// before the on-demand prices shown instead.
	NoPlan []string `json:"no_plan,omitempty"`
	// Spot is set when interruptible capacity was asked for: the headline
	// quotes the cheapest spot offer.
	Spot bool `json:"spot,omitempty"`
	// Rental is the stated cards × hours at the headline's price ("租2张跑
	// 36小时，帮算下总价"), when hours were given.
	Rental *advisor.Rental `json:"rental,omitempty"`
	// RentalCurrency is set when the rental is at the user's own rate (in
	// its currency) rather than the headline's offer.
	RentalCurrency string `json:"rental_currency,omitempty"`
	// Area is what a region filter ("US only") kept and left out.
	Area *AreaFilter `json:"area,omitempty"`
	// Afford is the fleet a budget keeps running, when how many cards it
	// pays for was asked.
	Afford *AffordView `json:"afford,omitempty"`
	// DeadlineHours is how long the cards can run before a deadline said
	// with a budget's hours: the lower of the two limits the job.
	DeadlineHours float64 `json:"deadline_hours,omitempty"`
	// Affordable marks a rental sized by a budget: the hours it buys.
	Affordable bool `json:"affordable,omitempty"`
	// Quote weighs a card-hour price the asker was quoted against the
	// market's on-demand offers for the card ("有渠道报18块，贵不贵？").
	Quote *QuoteView `json:"quote,omitempty"`
	// Persona says an enterprise asker was priced on contracted clouds
	// only (price_persona.go); also one of the assumptions.
	Persona string `json:"persona,omitempty"`
	// Term is a commitment at the user's own rate ("a 1-year commitment
	// of 16 H100s at $1.85/hr — total annual cost?"): Rental is then the
	// whole term, every hour paid.
	Term *TermQuote `json:"term,omitempty"`
	// Machine is a machine's (node's) hourly rate said for its cards
	// ("$16/hr for the 8xH100 node"): Rental is at its rate per card.
	Machine *MachineRate `json:"machine,omitempty"`
	// Year is the month's rental (Rental, 730 h) over a year of 8,760 h,
	// when a year was asked beside it ("monthly spend, and annualized?").
	Year *advisor.Rental `json:"year,omitempty"`
	// Compare is each card's price on the platforms the question names,
	// when it names two or more ("lambda or runpod, by how much?"): the
	// headline says which is cheaper and by how much (price_platforms.go).
	Compare []PlatformCompare `json:"compare,omitempty"`
}

// QuoteView is a quoted card-hour price weighed against the market, in
// the currency of the offers it is weighed against.
type QuoteView struct {
	GPU      string  `json:"gpu"`
	Currency string  `json:"currency"`
	Said     float64 `json:"said"`          // the quote as written
	SaidIn   string  `json:"said_currency"` // its currency
	Cheapest string  `json:"cheapest"`      // the platform of the lowest offer
	// Monthly is a month's quote weighed per card-hour (for MonthlyCards
	// cards over 730 h); 0 when an hourly price was quoted.
	Monthly      float64 `json:"monthly,omitempty"`
	MonthlyCards int     `json:"monthly_cards,omitempty"`
	advisor.QuoteCheck
}

func (b *Bot) price(ctx context.Context, a *Answer, req parse.Request) error {
	s := req.Slots
	if ok, err := b.termAnswer(ctx, a, req); ok || err != nil {
		return err // sourced term rates for nodes, platforms, a budget or regions (price_terms.go)
	}
	if len(s.GPUs) == 0 {
		return &advisor.InputError{Field: "gpu", Reason: tr(a.Lang, "which card? name one or more", "哪张卡？请指明型号"), Hint: "/gpu price h100"}
	}
	if s.Billing == "monthly" && len(s.GPUs) == 1 && len(s.Platforms) >= 2 && s.Hours == 0 && s.HoursPerMonth == 0 && s.Price == nil && s.Budget == nil {
		return b.planPrices(ctx, a, req) // "4090 包月多少钱？AutoDL 和恒源云哪个便宜？": each platform's plan, the cheaper (monthly.go)
	}
	cur, fx := b.currency(req), b.fx(s)
	m, personaNote := b.personaMarket(ctx, a, req, b.market(ctx)) // an enterprise: contracted clouds only (price_persona.go)
	var variantNotes []string                                     // a platform asked for that lists only a variant of the card (price_variant.go)
	comparing := len(s.Platforms) >= 2                            // "lambda or runpod": the named platforms compared (price_platforms.go)
	if comparing {
		s.GPUs, variantNotes = platformsVariants(m.Offers, s.Platforms, s.GPUs, a.Lang)
	} else {
		s.GPUs, variantNotes = platformVariants(m.Offers, s.Platform, s.GPUs, a.Lang)
	}
	view := PriceView{GPUs: s.GPUs, Assumptions: variantNotes, Currency: string(cur), FX: fx, Platform: s.Platform}
	now := b.now()
	var all []PriceOffer
	ages := map[string]int{} // offers share a few observation dates
	for _, g := range s.GPUs {
		list, err := m.PriceList(g, cur, fx)
		if err != nil {
			return err
		}
		// No catalogue offer for the card, or none on the platform asked:
		// the sourced rows (knowledge Procurement.Rows) answer, each with
		// its grade and date, never beside a catalogue offer of that
		// platform (AutoDL's RTX 5090 ¥2.78, a 2026-08 note; Ascend 910B).
		list.Offers = append(list.Offers, rowFallback(m, g, s, list.Offers, cur, fx)...)
		view.Lists = append(view.Lists, list)
		details := detailsFor(slices.Concat(m.Offers, m.Rows), g)
		all = slices.Grow(all, len(list.Offers))
		if s.Platform == "" && !comparing {
			view.Offers = slices.Grow(view.Offers, len(list.Offers))
		}
		for _, cp := range list.Offers {
			age, ok := ages[cp.ObservedAt]
			if !ok {
				age = ageDays(cp.ObservedAt, now)
				ages[cp.ObservedAt] = age
			}
			po := PriceOffer{
				Platform: cp.Platform, GPU: cp.GPU, Price: cp.Low, PriceHigh: cp.High, Currency: string(cp.Currency),
				Unit: "card_hour", Billing: billingName(cp), ObservedAt: cp.ObservedAt, AgeDays: age,
				PricingModel: string(cp.Original.Model), Interruptible: cp.Interruptible, Monthly: cp.Monthly,
				Original: cp.Original.String(), Source: cp.Source, Note: cp.Note,
				OfferDetail: details.of(cp.Offer, cp.Original.Cards, a.Lang, now),
			}
			all = append(all, po)
			if (s.Platform != "" || comparing) && !wanted(s, cp.Platform) {
				continue
			}
			view.Offers = append(view.Offers, po)
		}
		for _, t := range list.Assumptions {
			view.Assumptions = appendOnce(view.Assumptions, t.In(a.Lang))
		}
	}
	if personaNote != "" {
		view.Assumptions = append(view.Assumptions, personaNote)
		view.Persona = personaNote
	}
	if s.Region != "" {
		// "US only", "EU only", "国内": offers elsewhere left out, those
		// whose source names no region kept and counted
		view.Offers, view.Area = inArea(view.Offers, s.Region)
		a.use("region", "offers outside it left out")
	}
	named := view.Offers // the named platforms' offers of every kind, for the comparison
	view.Offers = packageAsked(view.Offers, s.Billing, s.Platform)
	if s.Billing == "monthly" {
		view.NoPlan = withoutPlan(view.GPUs, view.Offers)
	} // "腾讯云 A100 包月多少钱" (price_variant.go)
	if s.Billing == "monthly" && len(view.Offers) > 0 && view.Offers[0].Monthly {
		view.PerMonth = advisor.Round2(view.Offers[0].Price * knowledge.HoursPerMonth)
	}
	if comparing {
		if len(view.Offers) == 0 {
			view.Offers = all // none of the named platforms lists the cards: where they are priced (said first)
			if s.Region != "" {
				view.Offers, view.Area = inArea(all, s.Region) // in the region asked, still
			}
		}
	} else {
		notListed(&view, s.Platform, all)
	}
	view.Spot = s.Spot || s.Billing == "spot"
	hours := s.Hours
	budgetAsked := s.Budget != nil && (has(s.Targets, "gpu_hours") || has(s.Targets, "hours") || has(s.Targets, "cards"))
	if hours == 0 && !budgetAsked && s.GPUHours > 0 {
		hours = s.GPUHours / float64(max(s.Cards, 1)) // "估计要100个卡时A100，租的话多少钱"
		a.use("gpu_hours", "the card-hours rented")
	}
	if hours == 0 && s.Days > 0 && !(s.Budget != nil && (has(s.Targets, "gpu_hours") || has(s.Targets, "hours"))) {
		hours = s.Days * 24 // "10天内": the rental's length — unless a budget's hours are asked ("下周五前…够跑多少小时")
	}
	if hours == 0 && !budgetAsked && s.HoursPerMonth > 0 && (has(s.Targets, "money_total") || has(s.Targets, "money_monthly")) {
		hours = s.HoursPerMonth // "8张卡跑满一个月，一共多少钱": a month of it
		a.use("hours_per_month", "the month's hours rented")
	} else if hours == 0 && !budgetAsked && s.Cards > 1 && s.Price == nil && has(s.Targets, "money_monthly") {
		hours = knowledge.HoursPerMonth // "租32张H20，一个月多少钱": their cards for a month, every hour (the headline says 730 h)
	}
	var term *TermQuote
	if hours == 0 && s.Price != nil && s.Price.Amount > 0 && s.Budget == nil && asksCommit(req.Text) {
		// a commitment at their rate: every hour of the term is paid
		if years := termYears(req); years > 0 {
			hours, term = years*12*knowledge.HoursPerMonth, &TermQuote{Years: years, Term: commitTerm(req.Text)}
		}
	}
	if s.Price != nil && s.Price.Amount > 0 && s.QuotePer == "machine" && reMachineRate.MatchString(strings.ToLower(req.Text)) {
		// "$16/hr for the 8xH100 node": the machine's rate, per card ÷ its cards
		if per, machines := machineCards(req); per >= 2 {
			view.Machine = &MachineRate{Rate: s.Price.Amount, Currency: cmpOr(s.Price.Currency, view.Currency), Cards: per, Machines: machines}
			p := *s.Price
			p.Amount = s.Price.Amount / float64(per)
			s.Price = &p
		}
	}
	if s.Budget != nil && s.Budget.Amount > 0 && len(view.GPUs) > 0 && has(s.Targets, "cards") && s.Cards == 0 {
		// "每月预算5万块，H20能租几张？": the cards the budget keeps running
		rate, cur := b.budgetRate(a, s, view, req.Text)
		if rate > 0 {
			budget := s.Budget.Amount
			if bc := knowledge.Currency(s.Budget.Currency); bc != "" && bc != knowledge.Currency(cur) {
				budget = advisor.Convert(budget, bc, knowledge.Currency(cur), b.fx(s))
			}
			months, per := budgetMonths(req.Text)
			hpm, allDay := s.HoursPerMonth, false
			if hpm == 0 || hpm == knowledge.HoursPerMonth {
				hpm, allDay = knowledge.HoursPerMonth, true // none said, or "24/7"
			}
			view.Afford = &AffordView{Affordable: advisor.CardsFor(budget, rate, hpm, months), Currency: cur, Months: months, Per: per, HoursPerMonth: hpm, AroundTheClock: allDay}
			a.use("budget", "what the cards cost a month, against it")
			a.use("hours_per_month", "each card's hours a month")
		}
	} else if hours > 0 && s.Price != nil && s.Price.Amount > 0 && len(view.GPUs) > 0 {
		// "3090s at $0.22/hr … for 200h, what do I pay": their own rate
		r := advisor.RentalTotal(s.Price.Amount, s.Cards, hours)
		view.Rental, view.RentalCurrency = &r, cmpOr(s.Price.Currency, view.Currency)
		a.use("hours", "the rental's length, at your rate")
		a.use("price", "your rate per card-hour")
		a.use("cards", "the cards rented")
		a.use("quote_per", "your rate is per card")
		if view.Machine != nil {
			a.use("price", "the machine's rate per hour, ÷ its cards = per card-hour")
			a.use("quote_per", "the rate is the whole machine's")
			a.use("cards", "the machines' cards: machines × cards in one")
		}
		if term != nil {
			b.termQuote(ctx, a, req, term, view, all, fx)
			view.Term = term
		} else if hours == knowledge.HoursPerMonth && reYearAsked.MatchString(strings.ToLower(req.Text)) {
			// "monthly spend, and annualized?": the year too, every hour of
			// 8,760 (a month is 730 of them, so the year is 12 months)
			y := advisor.RentalTotal(s.Price.Amount, s.Cards, 12*knowledge.HoursPerMonth)
			view.Year = &y
		}
	} else if hours == 0 && s.Budget != nil && s.Budget.Amount > 0 && len(view.GPUs) > 0 && (has(s.Targets, "gpu_hours") || has(s.Targets, "hours")) {
		// "经费8000块，4090 2.2/h，够我跑多少卡时？": the hours the budget
		// rents, at their rate or else the headline's
		rate, cur := b.budgetRate(a, s, view, req.Text)
		if rate > 0 {
			budget := s.Budget.Amount
			rateCur := knowledge.Currency(cmpOr(cur, view.Currency))
			if bc := knowledge.Currency(s.Budget.Currency); bc != "" && rateCur != "" && bc != rateCur {
				// "budget $5000, H100 at ¥20/h": the budget in the rate's currency
				budget = advisor.Convert(budget, bc, rateCur, b.fx(s))
				cur = string(rateCur)
			}
			r := advisor.RentalFor(budget, rate, s.Cards)
			view.Rental, view.RentalCurrency, view.Affordable = &r, cur, true
			a.use("budget", "what it rents: budget ÷ the rate")
			a.use("cards", "the cards the hours are shared by")
			if s.Days > 0 {
				// "下周五前要跑完": the calendar caps the hours too
				view.DeadlineHours = s.Days * 24
				a.use("days", "the deadline: hours the cards can run by then")
			}
		}
	} else if hours > 0 && len(view.GPUs) > 0 {
		if o, _, ok := headlineOffer(view.Offers, view.GPUs[0], view.Spot); ok {
			r := advisor.RentalTotal(o.Price, s.Cards, hours)
			view.Rental = &r
			a.use("hours", "the rental's length, priced at the headline's rate")
			a.use("days", "the rental's length, priced at the headline's rate")
			a.use("cards", "the cards rented")
		}
	}
	quote, monthly := s.Price, 0.0
	if quote == nil && s.Monthly != nil && s.Monthly.Amount > 0 && view.Rental == nil && view.Afford == nil && view.PerMonth == 0 {
		// a month's quote, per card-hour over 730 h (a machine's ÷ its cards)
		per := s.Monthly.Amount
		if s.QuotePer == "machine" && s.Cards > 1 {
			per /= float64(s.Cards)
			a.use("cards", "the machine's cards: its month ÷ them")
			a.use("quote_per", "the month quoted is the machine's")
		}
		monthly = s.Monthly.Amount
		quote = &parse.Money{Amount: advisor.Round2(per / knowledge.HoursPerMonth), Currency: s.Monthly.Currency}
		a.use("monthly", "the month quoted, per card-hour over 730 h")
	}
	if view.Rental == nil && view.Afford == nil && quote != nil && quote.Amount > 0 && len(view.GPUs) > 0 {
		// "有渠道报18块一卡时，贵不贵？": their quote against the market
		view.Quote = quoteAgainst(all, view.GPUs[0], *quote, view.Currency, fx)
		if view.Quote != nil && monthly > 0 {
			view.Quote.Monthly, view.Quote.MonthlyCards = monthly, max(s.Cards, 1)
		}
		if view.Quote != nil {
			a.use("price", "the quote weighed against the market")
			q := strings.ToLower(req.Text)
			a.verdictAsked = a.verdictAsked || reAsksExpensive.MatchString(q) || reAsksFair.MatchString(q) // "reasonable?" is a yes/no
		}
	}
	if comparing {
		cards, hours := 0, 0.0
		if r := view.Rental; r != nil && !view.Affordable && view.RentalCurrency == "" && view.PerMonth == 0 {
			cards, hours = r.Cards, r.Hours // the rental asked, on each platform
		}
		for _, g := range view.GPUs {
			view.Compare = append(view.Compare, comparePlatforms(named, g, s.Platforms, kindOrder(view.Spot, s.Billing), cards, hours, listedVariants(m.Offers, s.Platforms, g), all))
		}
		a.use("platforms", platformsUsed(view.Compare))
		a.use("platform", "the first platform named, compared with the others")
	}
	a.Result = view
	notePersona(a, personaNote)
	a.Currency = view.Currency
	a.show(renderPrice(a.Lang, view, now))
	return nil
}

func billingName(cp advisor.CardPrice) string {
	switch {
	case cp.Monthly:
		return "monthly"
	case cp.Package:
		return "package"
	case cp.Interruptible:
		return "spot"
	}
	return "on_demand"
}

// ageDays is how many whole days ago a date was (0 when unreadable).
func ageDays(observed string, now time.Time) int {
	t, err := time.Parse("2006-01-02", observed)
	if err != nil {
		if t, err = time.Parse(time.RFC3339, observed); err != nil {
			return 0
		}
	}
	return max(0, int(now.Sub(t).Hours()/24))
}

// wanted reports whether an offer's platform is one the question names
// ("只看阿里云和腾讯云的A10": every one of them, not only the first).
// rowFallback is the sourced rows for card g that a price answer shows:
// every one when no catalogue offer prices the card, else only those of
// the platforms asked that no offer prices.
func rowFallback(m advisor.Market, g string, s parse.Slots, have []advisor.CardPrice, cur knowledge.Currency, fx float64) []advisor.CardPrice {
	priced := map[string]bool{}
	for _, cp := range have {
		priced[cp.Platform] = true
	}
	if len(s.Platforms) >= 2 || len(have) > 0 && (s.Platform == "" || priced[s.Platform]) {
		return nil // named platforms compared (price_platforms.go), or the catalogue answers
	}
	var rows []knowledge.Offer // the Chinese platforms' rows (reserved_prices.csv's are the commitment answers')
	for _, o := range m.Rows {
		if o.GPU == g && strings.HasPrefix(o.Key, "row-cn-") {
			rows = append(rows, o)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	rl, err := advisor.Market{GPUs: m.GPUs, Offers: rows}.PriceList(g, cur, fx)
	if err != nil {
		return nil
	}
	var out []advisor.CardPrice
	for _, cp := range rl.Offers {
		if len(have) > 0 && !wanted(s, cp.Platform) {
			continue
		}
		out = append(out, cp)
	}
	return out
}

func wanted(s parse.Slots, platform string) bool {
	if len(s.Platforms) >= 2 {
		return slices.Contains(s.Platforms, platform)
	}
	return platform == s.Platform
}

// withoutPlan are the cards with no monthly-plan offer among offers ("H200
// 包月多少钱": no sourced H200 包月 price, on demand shown).
func withoutPlan(gpus []string, offers []PriceOffer) []string {
	var out []string
	for _, g := range gpus {
		plan := false
		for _, o := range offers {
			plan = plan || (o.GPU == g && (o.Monthly || o.Billing == "package"))
		}
		if !plan {
			out = append(out, g)
		}
	}
	return out
}

// budgetRate is the card-hour rate a budget is spent at: theirs when
// given, else the headline's offer; its currency ("" for the view's).
func (b *Bot) budgetRate(a *Answer, s parse.Slots, view PriceView, text string) (float64, string) {
	if s.Price != nil && s.Price.Amount > 0 {
		a.use("price", "your rate per card-hour")
		return s.Price.Amount, cmpOr(s.Price.Currency, view.Currency)
	}
	if s.Billing == "monthly" || strings.Contains(text, "包月") || strings.Contains(strings.ToLower(text), "monthly plan") {
		// "AutoDL 4090 包月的话能租几张？": the cheapest monthly plan's fee
		// (its per card-hour over 730 h), not the on-demand rate
		var best *PriceOffer
		for i, o := range view.Offers {
			if o.GPU == view.GPUs[0] && o.Monthly && (best == nil || o.Price < best.Price) {
				best = &view.Offers[i]
			}
		}
		if best != nil {
			a.use("billing", "the monthly plan's fee, not the on-demand rate")
			return best.Price, cmpOr(best.Currency, view.Currency)
		}
	}
	if o, _, ok := headlineOffer(view.Offers, view.GPUs[0], view.Spot); ok {
		return o.Price, cmpOr(o.Currency, view.Currency)
	}
	return 0, ""
}

// AffordView is the fleet a budget keeps running (advisor.CardsFor), in
// the rate's currency, with the budget's period as read.
type AffordView struct {
	advisor.Affordable
	Currency       string  `json:"currency"`
	Months         float64 `json:"months"` // the budget's period; 0: a total, priced as one month
	Per            string  `json:"per"`    // month, quarter, year or ""
	HoursPerMonth  float64 `json:"hours_per_month"`
	AroundTheClock bool    `json:"around_the_clock"` // no hours said: 24/7 assumed
}

var (
	reBudgetYear    = regexp.MustCompile(`每年|一年|年度|年预算|全年|今年|/\s?y(?:ea)?r\b|per year|a year|for the year|annual|yearly|\bfy\s?\d*\b`)
	reBudgetQuarter = regexp.MustCompile(`季度|每季|quarter|\bq[1-4]\b`)
	reBudgetMonth   = regexp.MustCompile(`每月|月预算|每个月|一个月|/\s?mo(?:nth)?\b|per month|a month|monthly`)
)

// budgetMonths is the period a budget is said for, in months: a year 12,
// a quarter 3, a month 1; 0 when none is said (a total). The one reader of
// a budget's period in words (budgetPeriod writes it for the command).
func budgetMonths(text string) (float64, string) {
	t := strings.ToLower(text)
	switch {
	case reBudgetMonth.MatchString(t):
		return 1, "month"
	case reBudgetQuarter.MatchString(t):
		return 3, "quarter"
	case reBudgetYear.MatchString(t):
		return 12, "year"
	}
	return 0, ""
}

// AreaFilter counts what a region filter did to the offers.
type AreaFilter struct {
	Want    string `json:"want"`
	In      int    `json:"in"`      // listed in the region
	Unknown int    `json:"unknown"` // no region stated
	Out     int    `json:"out"`     // elsewhere: left out
	// Kept is set when none is listed in the region and the offers that
	// name none are shown instead (else they are left out too).
	Kept bool `json:"kept,omitempty"`
}

// inArea keeps the offers listed in area want; when none is, those whose
// source names no region (outside China: they may be there), said so. It
// counts each kind.
func inArea(offers []PriceOffer, want string) ([]PriceOffer, *AreaFilter) {
	f := &AreaFilter{Want: want}
	var in, unstated []PriceOffer
	for _, o := range offers {
		ok, unknown := knowledge.InArea(o.Area, want)
		switch {
		case unknown:
			f.Unknown++
			unstated = append(unstated, o)
		case ok:
			f.In++
			in = append(in, o)
		default:
			f.Out++
		}
	}
	if f.In > 0 {
		return in, f
	}
	f.Kept = true
	return unstated, f
}

// quoteAgainst weighs a quoted card-hour price against the on-demand
// offers for gpu (spot, prepaid and monthly plans are other deals), in
// the offers' currency; nil when the market has none.
func quoteAgainst(all []PriceOffer, gpu string, quote parse.Money, cur string, fx float64) *QuoteView {
	var prices []float64
	cheapest := PriceOffer{}
	for _, o := range all {
		if o.GPU != gpu || o.Billing != "on_demand" || o.Currency != cur {
			continue
		}
		prices = append(prices, o.Price)
		if cheapest.Platform == "" || o.Price < cheapest.Price {
			cheapest = o
		}
	}
	if len(prices) == 0 {
		return nil
	}
	q := quote.Amount
	if qc := knowledge.Currency(quote.Currency); qc != "" && string(qc) != cur {
		q = advisor.Convert(q, qc, knowledge.Currency(cur), fx)
	}
	return &QuoteView{GPU: gpu, Currency: cur, Said: quote.Amount, SaidIn: cmpOr(quote.Currency, cur), Cheapest: cheapest.Platform,
		QuoteCheck: advisor.CheckQuote(advisor.Round2(q), prices)}
}

// TermQuote is a commitment at the user's own rate: the term's total is
// the view's Rental; a month of it, the rate against the market's
// on-demand offers, and the sourced committed rate for the card and term
// (nil when none is sourced) beside it.
type TermQuote struct {
	Years   float64             `json:"years"`
	Term    string              `json:"term"` // 1y, 3y
	Month   advisor.Rental      `json:"month"`
	Market  *QuoteView          `json:"market,omitempty"`
	Sourced *advisor.CommitPair `json:"sourced,omitempty"`
}

// MachineRate is an hourly rate said for a whole machine (a node) of
// Cards cards, Machines of them asked about.
type MachineRate struct {
	Rate     float64 `json:"rate"` // per machine-hour, as said
	Currency string  `json:"currency"`
	Cards    int     `json:"cards"` // in one machine
	Machines int     `json:"machines"`
}

// termYears is the commitment's length in years: as said ("3年包年",
// "1-year"), else the term's words (1 for 包年, reserved).
func termYears(req parse.Request) float64 {
	if y := req.Slots.Years; y > 0 {
		return y
	}
	return map[string]float64{"1y": 1, "3y": 3}[commitTerm(req.Text)]
}

// termQuote fills a commitment at the user's rate: a month of it (730 h),
// the rate against the market's on-demand offers, and the sourced term
// for the card (the term asked; its provider's rate per card-hour).
func (b *Bot) termQuote(ctx context.Context, a *Answer, req parse.Request, t *TermQuote, view PriceView, all []PriceOffer, fx float64) {
	s := req.Slots
	r := view.Rental
	t.Month = advisor.RentalTotal(r.PricePerCardHour, r.Cards, knowledge.HoursPerMonth)
	a.use("years", "the term: every hour of it paid at your rate")
	a.use("price", "your committed rate per card-hour")
	if len(view.GPUs) == 0 {
		return
	}
	t.Market = quoteAgainst(all, view.GPUs[0], *s.Price, view.Currency, fx)
	term := cmpOr(t.Term, "1y")
	if t.Years == 3 {
		term = "3y"
	}
	in := advisor.CommitInput{GPU: view.GPUs[0], Cards: r.Cards, Term: term, Utilization: 1, Currency: knowledge.Currency(cmpOr(s.Price.Currency, view.Currency)),
		FX: fx, Reserved: b.kb.Procurement.Reserved, CN: b.kb.Procurement.CNCloud, PreferCN: preferCN(req), Platform: s.Platform}
	if s.Platform != "" {
		// the platform named has its own sourced row for the term (Lambda's
		// 1-year "reserved clusters" rate pairs with no on-demand row, so
		// Commit would never choose it): that row, not another cloud's
		if r, ok := advisor.SourcedTermRate(b.kb.Procurement.Reserved, view.GPUs[0], term, s.Platform, in.Currency, fx); ok {
			t.Sourced = &advisor.CommitPair{Provider: r.Provider, Instance: r.Instance, Term: r.Term, Committed: r.Low, CommittedHigh: r.High,
				Confidence: r.Confidence, Date: r.Date, Source: r.Source}
			t.Term = term
			return
		}
	}
	if cr, err := advisor.Commit(in); err == nil && cr.Chosen.Provider != "" && cr.Chosen.Provider != "given" && cr.Chosen.Term == term {
		t.Sourced = &cr.Chosen
	}
	t.Term = term
}
