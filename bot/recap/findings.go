package recap

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// Kinds of finding.
const (
	KindMonthlyPlan  = "monthly_plan"   // on-demand use that a monthly plan would have made cheaper
	KindUnusedPlan   = "unused_plan"    // a monthly plan used too little to beat on demand
	KindBuy          = "buy"            // a card busy enough, long enough, that owning may pay
	KindCheaperOffer = "cheaper_offer"  // the same card was listed cheaper, that month, on a platform the team may use
	KindProjectMoM   = "project_change" // a project's spend moved a lot from the month before
)

// Finding is one thing the team could change, with the money it is worth
// per month where the advisor could price it.
type Finding struct {
	Kind     string             `json:"kind"`
	GPU      string             `json:"gpu"`
	Platform string             `json:"platform,omitempty"`
	Projects []string           `json:"projects,omitempty"`
	Saving   float64            `json:"saving"` // per month, in Currency; 0 when not priced
	Currency knowledge.Currency `json:"currency"`
	Text     advisor.Text       `json:"text"`
	How      string             `json:"how"` // the figures behind it, from the advisor
	Command  string             `json:"command,omitempty"`
	// Change is a project's spend this month minus the month before
	// (KindProjectMoM), in Currency.
	Change float64 `json:"change,omitempty"`
	rank   float64 // Saving in CNY, for ordering
}

// usage is a set of entries summed: card-hours and amount of the priced
// ones (an entry without an amount says nothing about price).
type usage struct {
	gpu, platform string
	cur           knowledge.Currency
	cardHours     float64
	amount        float64
	cards         int // most cards in one entry
	projects      map[string]bool
}

func (u *usage) rate() float64 { return u.amount / u.cardHours }

func (u *usage) projectList() []string { return sortedKeys(u.projects) }

// sum groups the priced entries that keep returns true for by key.
func sum(es []ledger.Entry, keep func(ledger.Entry) bool, key func(ledger.Entry) string) []*usage {
	idx := map[string]*usage{}
	for _, e := range es {
		if !e.Priced() || e.CardHours() <= 0 || !keep(e) {
			continue
		}
		k := key(e)
		u, ok := idx[k]
		if !ok {
			u = &usage{gpu: e.GPU, platform: e.Platform, cur: e.Amount.Currency, projects: map[string]bool{}}
			idx[k] = u
		}
		u.cardHours += e.CardHours()
		u.amount += e.Amount.Float()
		u.cards = max(u.cards, e.Cards)
		u.projects[e.Project] = true
	}
	out := make([]*usage, 0, len(idx))
	for _, k := range sortedKeys(idx) {
		out = append(out, idx[k])
	}
	return out
}

func billing(b ledger.Billing) func(ledger.Entry) bool {
	return func(e ledger.Entry) bool { return e.Billing == b }
}

func byCardPlatform(e ledger.Entry) string {
	return e.GPU + "|" + e.Platform + "|" + string(e.Amount.Currency)
}

func byCard(e ledger.Entry) string { return e.GPU + "|" + string(e.Amount.Currency) }

// isMarket reports the pseudo-platforms that stand for a market range, not
// a place to rent from.
func isMarket(platform string) bool { return strings.HasSuffix(platform, "-market") }

// findings computes every finding, most valuable first.
func findings(in Input, opt Options) []Finding {
	if opt.KB == nil {
		return nil
	}
	market := advisor.MarketOf(opt.KB)
	// Judge a month with the prices that were known in it: an offer first
	// seen on 1 December says nothing about what November should have cost.
	offers := validIn(in.Offers, in.Month, opt)
	market.Offers = offers
	n := names{kb: opt.KB}
	cur := in.entries(in.Month)
	var out []Finding
	// What the team paid on demand per card-hour, by card, platform and
	// currency: the fairest on-demand price to compare its plans with.
	ownRate := map[string]float64{}
	for _, u := range sum(cur, billing(ledger.OnDemand), byCardPlatform) {
		ownRate[u.gpu+"|"+u.platform+"|"+string(u.cur)] = u.rate()
	}
	for _, u := range sum(cur, billing(ledger.OnDemand), byCardPlatform) {
		if f, ok := monthlyPlan(u, market, opt, n); ok {
			out = append(out, f)
		}
	}
	// A plan is weighed against on demand only from recorded hours and for
	// a one-month fee: a line whose hours are unknown says nothing about
	// use, and a prepaid term's amount is not one month's fee.
	weighed := func(e ledger.Entry) bool {
		return e.Billing == ledger.Monthly && !e.HoursUnknown && e.TermMonths <= 1 && e.CardHours() > 0
	}
	for _, u := range sum(cur, weighed, byCardPlatform) {
		if f, ok := unusedPlan(u, ownRate[u.gpu+"|"+u.platform+"|"+string(u.cur)], in.Month, market, opt, n); ok {
			out = append(out, f)
		}
	}
	out = append(out, idlePlans(cur, n)...)
	out = append(out, buys(in, market, opt, n)...)
	var listed []knowledge.Offer
	for _, o := range offers {
		if !isMarket(o.Platform) && in.allowed(o.Platform) {
			listed = append(listed, o)
		}
	}
	for _, u := range sum(cur, billing(ledger.OnDemand), byCard) {
		if f, ok := cheaperOffer(u, listed, in.Month, opt, n); ok {
			out = append(out, f)
		}
	}
	out = append(out, projectChanges(in, opt)...)
	for i := range out {
		out[i].rank = advisor.Convert(out[i].Saving, out[i].Currency, knowledge.CNY, opt.FX)
		if out[i].Kind == KindProjectMoM {
			// A change to look at, not money saved: after every saving,
			// largest move first.
			out[i].rank = -1 / (1 + math.Abs(out[i].Change))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].rank > out[j].rank })
	return out
}

func money(v float64, c knowledge.Currency) string { return ledger.MoneyFromFloat(v, c).String() }

// hours writes card-hours without noise: 162.5, 200.
func hours(h float64) string { return ledger.FormatCardHours(h) }

// monthlyPlan: on-demand use of one card on one platform that a monthly
// plan on that platform would have made cheaper (advisor.Monthly with the
// team's own hours and its own on-demand rate). Plans are counted for the
// most cards the team ran at once.
func monthlyPlan(u *usage, m advisor.Market, opt Options, n names) (Finding, bool) {
	perCard := math.Min(u.cardHours/float64(u.cards), 744)
	res, err := advisor.Monthly(advisor.MonthlyInput{GPU: u.gpu, Platform: u.platform, HoursPerMonth: perCard, Cards: u.cards,
		Hourly: advisor.Money{Amount: u.rate(), Currency: u.cur}, Currency: u.cur, FX: opt.FX}, m)
	if err != nil || res.Cheaper != "monthly" || res.Saving <= 0 {
		return Finding{}, false
	}
	cards := fmt.Sprintf("%d card", u.cards)
	cardsZH := fmt.Sprintf("%d 张卡", u.cards)
	if u.cards > 1 {
		cards += "s"
	}
	f := Finding{Kind: KindMonthlyPlan, GPU: u.gpu, Platform: u.platform, Projects: u.projectList(), Saving: res.Saving, Currency: res.Currency,
		How:     fmt.Sprintf("advisor.Monthly: on demand %s vs plan %s (%s × %s); break-even %s h per card", money(res.OnDemandCost, res.Currency), money(res.MonthlyCost, res.Currency), money(res.MonthlyPrice, res.Currency), cards, hours(res.BreakevenHoursPerMonth)),
		Command: fmt.Sprintf("/gpu monthly %s @%s %sh", u.gpu, u.platform, hours(perCard))}
	f.Text = advisor.Text{
		EN: fmt.Sprintf("%s on demand at %s: %s card-h (%s, %s h each) at %s/card-h. A monthly plan would have cost %s less (%s vs %s); break-even is %s h a card.",
			n.gpu(u.gpu), n.platform(u.platform, "en"), hours(u.cardHours), cards, hours(perCard), money(u.rate(), u.cur),
			money(res.Saving, res.Currency), money(res.MonthlyCost, res.Currency), money(res.OnDemandCost, res.Currency), hours(res.BreakevenHoursPerMonth)),
		ZH: fmt.Sprintf("%s 在 %s 按量用了 %s 卡时（%s，每张 %s 小时），均价 %s/卡时。包月可少花 %s（%s 对 %s）；盈亏平衡为每卡 %s 小时。",
			n.gpu(u.gpu), n.platform(u.platform, "zh"), hours(u.cardHours), cardsZH, hours(perCard), money(u.rate(), u.cur),
			money(res.Saving, res.Currency), money(res.MonthlyCost, res.Currency), money(res.OnDemandCost, res.Currency), hours(res.BreakevenHoursPerMonth)),
	}
	return f, true
}

// unusedPlan: a monthly plan used too few hours to beat paying by the
// hour (advisor.Monthly with the plan's fee and hours; on-demand at the
// team's own rate for that card and platform, else the catalogue's).
func unusedPlan(u *usage, ownRate float64, month ledger.Month, m advisor.Market, opt Options, n names) (Finding, bool) {
	perCard := math.Min(u.cardHours/float64(u.cards), 744)
	in := advisor.MonthlyInput{GPU: u.gpu, Platform: u.platform, HoursPerMonth: perCard, Cards: u.cards,
		Monthly: advisor.Money{Amount: u.amount / float64(u.cards), Currency: u.cur}, Currency: u.cur, FX: opt.FX}
	rateFrom := advisor.Text{EN: "the catalogue's on-demand price", ZH: "目录里的按量价"}
	if ownRate > 0 {
		in.Hourly = advisor.Money{Amount: ownRate, Currency: u.cur}
		rateFrom = advisor.Text{EN: "your own on-demand rate there in " + month.String(), ZH: "你们 " + month.String() + " 在该平台的按量均价"}
	}
	res, err := advisor.Monthly(in, m)
	if err != nil || res.Cheaper != "on_demand" || res.Saving <= 0 {
		return Finding{}, false
	}
	projects := strings.Join(u.projectList(), ", ")
	f := Finding{Kind: KindUnusedPlan, GPU: u.gpu, Platform: u.platform, Projects: u.projectList(), Saving: res.Saving, Currency: res.Currency,
		How:     fmt.Sprintf("advisor.Monthly: plan %s vs on demand %s h × %s; break-even %s h per card", money(res.MonthlyCost, res.Currency), hours(res.BilledHours), money(res.Hourly, res.Currency), hours(res.BreakevenHoursPerMonth)),
		Command: fmt.Sprintf("/gpu monthly %s @%s %sh monthly=%s", u.gpu, u.platform, hours(perCard), ledger.MoneyFromFloat(res.MonthlyPrice, res.Currency).Decimal())}
	f.Text = advisor.Text{
		EN: fmt.Sprintf("The %s monthly plan at %s (%s) ran %s h a card. At %s/card-h (%s) on demand would have cost %s, %s less than the plan's %s; a plan pays from %s h a month.",
			n.gpu(u.gpu), n.platform(u.platform, "en"), projects, hours(perCard), money(res.Hourly, res.Currency), rateFrom.EN,
			money(res.OnDemandCost, res.Currency), money(res.Saving, res.Currency), money(res.MonthlyCost, res.Currency), hours(res.BreakevenHoursPerMonth)),
		ZH: fmt.Sprintf("%s 在 %s 的包月（%s）每张卡只用了 %s 小时。按 %s/卡时（%s）按量只需 %s，比包月的 %s 少 %s；每月超过 %s 小时包月才划算。",
			n.gpu(u.gpu), n.platform(u.platform, "zh"), projects, hours(perCard), money(res.Hourly, res.Currency), rateFrom.ZH,
			money(res.OnDemandCost, res.Currency), money(res.MonthlyCost, res.Currency), money(res.Saving, res.Currency), hours(res.BreakevenHoursPerMonth)),
	}
	return f, true
}

// idlePlans: monthly plans booked with no hours at all this month. The
// whole fee bought nothing; there is no break-even to compute.
func idlePlans(es []ledger.Entry, n names) []Finding {
	type plan struct {
		fee      float64
		cards    int
		projects map[string]bool
	}
	idx := map[string]*plan{}
	var keys []string
	for _, e := range es {
		if e.Billing != ledger.Monthly || !e.Priced() || e.IsRefund() || e.SupersededBy != "" {
			continue
		}
		if e.HoursUnknown {
			// A bill line for a plan says what was paid, not what ran: idle
			// is only said from recorded usage.
			continue
		}
		k := byCardPlatform(e)
		p, ok := idx[k]
		if !ok {
			p = &plan{projects: map[string]bool{}}
			idx[k] = p
			keys = append(keys, k)
		}
		if e.CardHours() > 0 {
			p.fee = -1 // used at least once: unusedPlan weighs it
			continue
		}
		if p.fee >= 0 {
			fee := e.Amount.Float()
			if e.TermMonths > 1 {
				fee /= float64(e.TermMonths) // a 包年 plan idle this month wastes this month's share, not the year
			}
			p.fee += fee
			p.cards += e.Cards
			p.projects[e.Project] = true
		}
	}
	var out []Finding
	for _, k := range keys {
		p := idx[k]
		if p.fee <= 0 {
			continue
		}
		parts := strings.SplitN(k, "|", 3)
		gpu, platform, cur := parts[0], parts[1], knowledge.Currency(parts[2])
		projects := sortedKeys(p.projects)
		f := Finding{Kind: KindUnusedPlan, GPU: gpu, Platform: platform, Projects: projects, Saving: p.fee, Currency: cur,
			How: fmt.Sprintf("plan fee %s for %d card(s), 0 card-h used", money(p.fee, cur), p.cards), Command: "/gpu spend list"}
		f.Text = advisor.Text{
			EN: fmt.Sprintf("The %s monthly plan at %s (%s) was paid (%s) and never used: 0 card-hours this month. Cancel it or move work onto it: %s wasted.",
				n.gpu(gpu), n.platform(platform, "en"), strings.Join(projects, ", "), money(p.fee, cur), money(p.fee, cur)),
			ZH: fmt.Sprintf("%s 在 %s 的包月（%s）付了 %s，本月一小时都没用：浪费 %s。请退订，或把任务挪到这张卡上。",
				n.gpu(gpu), n.platform(platform, "zh"), strings.Join(projects, ", "), money(p.fee, cur), money(p.fee, cur)),
		}
		out = append(out, f)
	}
	return out
}

// buys: cards the team kept busy every one of the last Options.Months
// months. Utilisation of a month = card-hours ÷ (cards × hours in the
// month), cards being the most run at once that month. When the advisor
// (advisor.Buy at the average utilisation, rent at the team's on-demand
// rate) says owning is cheaper, the finding carries the monthly saving;
// above the guide's 70 % without a purchase price, it points at /gpu buy.
func buys(in Input, m advisor.Market, opt Options, n names) []Finding {
	months := make([]ledger.Month, opt.Months)
	mo := in.Month
	for i := opt.Months - 1; i >= 0; i-- {
		months[i] = mo
		mo = mo.Prev()
	}
	type util struct {
		u     []float64
		fleet int
	}
	utils := map[string]*util{}
	for i, mo := range months {
		span := mo.End(opt.Location).Sub(mo.Start(opt.Location)).Hours()
		for _, u := range sum(in.entries(mo), func(ledger.Entry) bool { return true }, func(e ledger.Entry) string { return e.GPU }) {
			x, ok := utils[u.gpu]
			if !ok {
				x = &util{u: make([]float64, len(months))}
				utils[u.gpu] = x
			}
			x.u[i] = u.cardHours / (float64(u.cards) * span)
			x.fleet = max(x.fleet, u.cards)
		}
	}
	var out []Finding
	for _, gpu := range sortedKeys(utils) {
		x := utils[gpu]
		lowest, avg := 1.0, 0.0
		for _, v := range x.u {
			lowest = math.Min(lowest, v)
			avg += v / float64(len(x.u))
		}
		if lowest < 0.5 {
			continue
		}
		pctU := int(math.Round(avg * 100))
		// Rent at what the team paid on demand for the card this month, in
		// the currency it paid most in.
		var rent advisor.Money
		cur := knowledge.CNY
		best := 0.0
		for _, u := range sum(in.entries(in.Month), billing(ledger.OnDemand), byCard) {
			if u.gpu == gpu && u.amount > best {
				best, cur = u.amount, u.cur
				rent = advisor.Money{Amount: u.rate(), Currency: u.cur}
			}
		}
		f := Finding{Kind: KindBuy, GPU: gpu, Currency: cur,
			Command: fmt.Sprintf("/gpu buy %s util=%d%%", gpu, pctU)}
		res, err := advisor.Buy(advisor.BuyInput{GPU: gpu, Utilization: math.Min(avg, 1), Rent: rent, Currency: cur, FX: opt.FX}, m)
		switch {
		case err == nil && res.Cheaper == "buy":
			f.Saving = advisor.Round2((res.RentPerYear - res.OwnPerYear) / 12 * float64(x.fleet))
			f.How = fmt.Sprintf("advisor.Buy at %d%%: own %s vs rent %s a year per card; break-even %d%%", pctU, money(res.OwnPerYear, cur), money(res.RentPerYear, cur), int(math.Round(res.BreakevenUtilization*100)))
			f.Text = advisor.Text{
				EN: fmt.Sprintf("%s ran %d%% of the time for %d months (%d cards). At that utilisation owning would cost about %s a month less than renting (break-even %d%%): see %s.",
					n.gpu(gpu), pctU, opt.Months, x.fleet, money(f.Saving, cur), int(math.Round(res.BreakevenUtilization*100)), f.Command),
				ZH: fmt.Sprintf("%s 连续 %d 个月利用率 %d%%（%d 张卡）。按这个利用率，自购每月约比租用省 %s（盈亏平衡 %d%%）：详见 %s",
					n.gpu(gpu), opt.Months, pctU, x.fleet, money(f.Saving, cur), int(math.Round(res.BreakevenUtilization*100)), f.Command),
			}
		case err != nil && avg >= advisor.RuleBuyUtilization:
			f.How = "no purchase price in the catalogue: " + err.Error()
			f.Command += " price="
			f.Text = advisor.Text{
				EN: fmt.Sprintf("%s ran %d%% of the time for %d months (%d cards), above the 70%% where buying is worth a look: see %s<price per card>.",
					n.gpu(gpu), pctU, opt.Months, x.fleet, f.Command),
				ZH: fmt.Sprintf("%s 连续 %d 个月利用率 %d%%（%d 张卡），超过值得考虑自购的 70%%：详见 %s<单卡价格>",
					n.gpu(gpu), opt.Months, pctU, x.fleet, f.Command),
			}
		default:
			continue
		}
		out = append(out, f)
	}
	return out
}

// cheaperOffer: the same card listed today (on demand, same currency,
// not interruptible) at least 5 % under what the team paid on average.
// The saving is this month's card-hours at the difference.
func cheaperOffer(u *usage, offers []knowledge.Offer, month ledger.Month, opt Options, n names) (Finding, bool) {
	cp, found, err := advisor.Cheapest(u.gpu, offers, u.cur, opt.FX, advisor.OfferFilter{NoInterruptible: true, NativeOnly: true})
	paid := u.rate()
	if err != nil || !found || cp.Low > paid*0.95 {
		return Finding{}, false
	}
	saving := advisor.Round2(u.cardHours * (paid - cp.Low))
	f := Finding{Kind: KindCheaperOffer, GPU: u.gpu, Platform: cp.Platform, Projects: u.projectList(), Saving: saving, Currency: u.cur,
		How:     fmt.Sprintf("%s card-h × (%s − %s); offer %s, %s, observed %s", hours(u.cardHours), money(paid, u.cur), money(cp.Low, u.cur), cp.Offer, cp.How, cp.ObservedAt),
		Command: "/gpu price " + u.gpu}
	f.Text = advisor.Text{
		EN: fmt.Sprintf("%s: you paid %s/card-h on average on demand; %s lists %s today (observed %s). %s's %s card-h would have cost %s less: see %s.",
			n.gpu(u.gpu), money(paid, u.cur), n.platform(cp.Platform, "en"), money(cp.Low, u.cur), cp.ObservedAt, month.String(), hours(u.cardHours), money(saving, u.cur), f.Command),
		ZH: fmt.Sprintf("%s：你们按量均价 %s/卡时；%s 今天报价 %s（采集于 %s）。%s 的 %s 卡时可少花 %s：详见 %s",
			n.gpu(u.gpu), money(paid, u.cur), n.platform(cp.Platform, "zh"), money(cp.Low, u.cur), cp.ObservedAt, month.String(), hours(u.cardHours), money(saving, u.cur), f.Command),
	}
	return f, true
}

// validIn keeps the offers observed by the end of month m (in the recap's
// zone); an offer whose date cannot be read is kept (the shipped seeds all
// have one).
func validIn(offers []knowledge.Offer, m ledger.Month, opt Options) []knowledge.Offer {
	end := m.End(opt.Location)
	var out []knowledge.Offer
	for _, o := range offers {
		if t, err := o.Observed(); err == nil && !t.Before(end) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// projectMoMMin is the smallest move (in CNY, converted) worth a finding,
// and projectMoMShare the smallest relative one.
const (
	projectMoMMin   = 1000.0
	projectMoMShare = 0.25
)

// projectChanges: projects whose spend moved by at least projectMoMShare
// and projectMoMMin from the month before, converted to CNY at Options.FX
// (the rate is stated in How).
func projectChanges(in Input, opt Options) []Finding {
	fx := opt.fx()
	cur, prev := in.entries(in.Month), in.entries(in.Month.Prev())
	var out []Finding
	for _, g := range ledger.Rollup(cur, prev, func(e ledger.Entry) string { return e.Project }, fx) {
		now, ok1 := fx.Convert(g.Amount)
		before, ok2 := fx.Convert(g.Prev.Amount)
		if !ok1 || !ok2 {
			continue
		}
		d := now.Float() - before.Float()
		if math.Abs(d) < projectMoMMin || before.Float() > 0 && math.Abs(d) < projectMoMShare*before.Float() {
			continue
		}
		pct := ""
		if before.Float() > 0 {
			pct = fmt.Sprintf(" (%+.0f%%)", d/before.Float()*100)
		}
		f := Finding{Kind: KindProjectMoM, Projects: []string{g.Key}, Change: advisor.Round2(d), Currency: knowledge.CNY,
			How: fmt.Sprintf("%s − %s, at %.4g CNY per USD", now, before, opt.FX), Command: "/gpu spend report " + in.Month.String()}
		f.Text = advisor.Text{
			EN: fmt.Sprintf("Project %s spent %s in %s against %s in %s: %s%s, %s card-h against %s.",
				g.Key, now, in.Month, before, in.Month.Prev(), money(d, knowledge.CNY), pct, hours(g.CardHours), hours(g.Prev.CardHours)),
			ZH: fmt.Sprintf("项目 %s 在 %s 花了 %s，%s 为 %s：变化 %s%s，卡时 %s 对 %s。",
				g.Key, in.Month, now, in.Month.Prev(), before, money(d, knowledge.CNY), pct, hours(g.CardHours), hours(g.Prev.CardHours)),
		}
		out = append(out, f)
	}
	return out
}

// names turns ids into display names.
type names struct{ kb *knowledge.Base }

func (n names) gpu(id string) string { return n.kb.GPUName(id) }

// platform is knowledge.Base.PlatformNames, as answers and the daily post
// name platforms: market providers ("primeintellect" → Prime Intellect)
// too, not only platforms.yaml's.
func (n names) platform(id, lang string) string {
	if id == "" {
		return present.Tr(lang, "(no platform given)", "（未填写平台）") // a row, not a blank name
	}
	en, zh := n.kb.PlatformNames(id)
	return present.Tr(lang, en, zh)
}
