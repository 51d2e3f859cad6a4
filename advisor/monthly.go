package advisor

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// Rules of thumb from the rental guide, shown beside the computed figures,
// never instead of them.
const (
	RuleMonthlyHours       = 150  // "月均使用 150 小时以上，包月通常更划算"
	RuleMonthlySavingLow   = 0.20 // "包月通常比按需省 20-30%"
	RuleMonthlySavingHigh  = 0.30
	maxHoursPerMonth       = 744 // 31 days × 24 h
	maxJobsPerMonth        = 100000
	monthlyHint            = "/gpu monthly 4090 200h"
	monthlyHintWithPrices  = "/gpu monthly 4090 200h price=1.8 monthly=900"
	monthlyCheaperMonthly  = "monthly"
	monthlyCheaperOnDemand = "on_demand"
)

// MonthlyInput is a monthly-plan (包月) versus on-demand (按需) question.
// Zero values mean "use the default"; Defaulted names what was filled.
type MonthlyInput struct {
	GPU           string  `json:"gpu"`
	Platform      string  `json:"platform"`        // platform id; "" = the cheapest plan anywhere
	HoursPerMonth float64 `json:"hours_per_month"` // hours each card is used per month
	// HoursPerMonthHigh is the high end when the use varies from month to
	// month ("有的月200小时有的月600小时"): HoursPerMonth is then the low end.
	HoursPerMonthHigh float64 `json:"hours_per_month_high,omitempty"`
	Jobs              float64 `json:"jobs"`      // jobs per month, for billing rounding
	JobHours          float64 `json:"job_hours"` // hours each job runs
	Cards             int     `json:"cards"`     // default 1
	Hourly            Money   `json:"hourly"`    // price=: on-demand rent per card-hour
	Monthly           Money   `json:"monthly"`   // monthly=: plan price per card-month
	Billing           string  `json:"billing"`   // on-demand billing step: PT1S, PT1M, PT1H or second/minute/hour

	Currency  knowledge.Currency `json:"currency"`
	FX        float64            `json:"fx"`
	Defaulted []string           `json:"defaulted"`
}

// MonthlyResult compares a monthly plan with paying by the hour. Field names
// match the bot's JSON contract.
type MonthlyResult struct {
	Inputs                 MonthlyInput       `json:"inputs"`
	Currency               knowledge.Currency `json:"currency"`
	Hourly                 float64            `json:"hourly"`        // on-demand per card-hour
	MonthlyPrice           float64            `json:"monthly_price"` // plan per card-month
	BreakevenHoursPerMonth float64            `json:"breakeven_hours_per_month"`
	BreakevenUsedHours     float64            `json:"breakeven_used_hours"` // in hours actually used, after billing rounding
	BilledHours            float64            `json:"billed_hours"`         // per card
	OnDemandCost           float64            `json:"on_demand_cost"`
	MonthlyCost            float64            `json:"monthly_cost"`
	Cheaper                string             `json:"cheaper"` // monthly, on_demand, or "" when no hours were given
	Saving                 float64            `json:"saving"`  // what the cheaper option saves per month
	SavingPct              float64            `json:"saving_pct"`
	FullMonthDiscount      float64            `json:"full_month_discount"` // plan vs 730 on-demand hours
	// Reserved is the cheapest reserved-term price for the card on the
	// same platform, when the catalogue has one; nil otherwise. When the
	// platform sells no monthly plan, the term stands in for it
	// (PlanIsTerm) and MonthlyPrice is its monthly bill.
	Reserved   *TermOption `json:"reserved,omitempty"`
	PlanIsTerm bool        `json:"plan_is_term,omitempty"`
	// Best is the cheapest of on_demand, monthly and reserved at the hours
	// given ("" without hours or without a reserved term).
	Best string `json:"best,omitempty"`
	// High is the month at the high end of a range of use (nil without one).
	High *MonthlyAt `json:"high,omitempty"`
	// PlanMissing is set by MonthlyWithoutPlan: no plan price is known for
	// the card, so only the on-demand side is priced and there is no
	// verdict. PlanPaysBelow is then the most a plan may cost per
	// card-month to pay at the hours given (billed hours × hourly: the
	// break-even hours are the plan price ÷ hourly).
	// PlanPlatform and HourlyPlatform are the platforms whose figures
	// priced the plan and the on-demand side ("" for a figure the user
	// gave), so that an answer names the source of each price: sellers
	// differ tenfold (腾讯云 lists an A100 40GB at ¥28.64/card-hour, a
	// retail platform rents one at ¥2.4–3.45).
	PlanPlatform   string        `json:"plan_platform,omitempty"`
	HourlyPlatform string        `json:"hourly_platform,omitempty"`
	PlanMissing    bool          `json:"plan_missing,omitempty"`
	PlanPaysBelow  float64       `json:"plan_pays_below,omitempty"`
	Lines          []Line        `json:"lines"`
	Assumptions    []Text        `json:"assumptions"`
	Sources        []PriceSource `json:"sources"`
}

// Monthly compares a monthly plan with on-demand rent for the hours given.
// Break-even hours per month = monthly price ÷ hourly price. Short jobs on a
// platform that bills by the hour pay for whole hours, so with a job pattern
// (Jobs, JobHours) the billed hours are jobs × each job rounded up to the
// billing step. Prices come from the user or the catalogue; with no monthly
// price for the card (and platform) and no package offer, it returns an
// InputError asking for monthly=.
func Monthly(in MonthlyInput, m Market) (MonthlyResult, error) {
	in, p, gran, err := in.normalize()
	if err != nil {
		return MonthlyResult{}, err
	}
	res := MonthlyResult{Currency: p.cur}
	var g knowledge.GPU
	if in.GPU != "" {
		if g, err = m.card(in.GPU, monthlyHint); err != nil {
			return res, err
		}
		in.GPU = g.ID
	} else if !in.Hourly.Given() || !in.Monthly.Given() {
		return res, inputErr("gpu", "name the card (or give both price= and monthly=)", monthlyHint)
	}

	// Monthly plan price per card-month.
	planPlatform := in.Platform
	var monthlyHow string
	if in.Monthly.Given() {
		res.MonthlyPrice = p.money(in.Monthly)
		monthlyHow = "given" + p.convHow(in.Monthly.Currency)
		res.Sources = append(res.Sources, givenSource("monthly", in.Monthly, p.cur, "/card-month"))
	} else if cp, found := pairedPlan(g.ID, in.Platform, m.Offers, p); found {
		if cp.Original.Currency != p.cur {
			p.converted = true
		}
		res.MonthlyPrice, monthlyHow = monthlyOf(cp, p)
		planPlatform = cp.Platform
		res.Sources = append(res.Sources, offerSource("monthly", cp))
		if cp.Original.Unit == knowledge.PerHour {
			res.Assumptions = append(res.Assumptions, txt(
				fmt.Sprintf("the catalogue gives this plan only as an hourly equivalent (%s); read as monthly price ÷ 730 h. If your plan's monthly price differs, give monthly=", cp.Original.String()),
				fmt.Sprintf("目录只给出这个包月的小时折算价（%s），按“月价 ÷ 730 小时”还原；如果你的包月价不同，请用 monthly= 给出", cp.Original.String())))
		}
	} else {
		// No monthly plan: a reserved term is the committed option to
		// weigh against on demand, billed 730 h a month.
		tcp, to, ok := cheapestTerm(g.ID, in.Platform, m.Offers, p)
		if !ok {
			// No catalogue plan or term: the nearest sourced plan, on the
			// platform asked about first, else anywhere (said as such).
			cp, found := planRow(g, in.Platform, m, p)
			if !found && in.Platform != "" {
				if cp, found = pairedPlan(g.ID, "", m.Offers, p); !found {
					cp, found = planRow(g, "", m, p)
				}
				if found {
					res.Assumptions = append(res.Assumptions, platformMissingNote(in.Platform, g, cp, txt("monthly plan", "包月")))
				}
			}
			if !found {
				where := ""
				if in.Platform != "" {
					where = " on " + in.Platform + " or any other platform"
				}
				return res, inputErrZH("monthly", fmt.Sprintf("no monthly plan, reserved price or sourced figure is known for %s%s; give monthly= (price per card-month)", g.Name, where),
					fmt.Sprintf("数据里没有 %s 的包月价、预留价或其他有出处的价格；请用 monthly= 给出每卡每月价格", g.Name), monthlyHintWithPrices)
			}
			if cp.Original.Currency != p.cur {
				p.converted = true
			}
			if cp.Offer != "" && strings.HasPrefix(cp.Offer, "row-") {
				res.Assumptions = append(res.Assumptions, sourcedRowNote(g, cp, txt("monthly plan", "包月")))
			}
			res.MonthlyPrice, monthlyHow = monthlyOf(cp, p)
			planPlatform = cp.Platform
			res.Sources = append(res.Sources, offerSource("monthly", cp))
			return res.finish(in, p, gran, g, m, planPlatform, monthlyHow)
		}
		if tcp.Original.Currency != p.cur {
			p.converted = true
		}
		res.Reserved, res.PlanIsTerm = termOption(tcp, to, in.Cards), true
		res.MonthlyPrice, planPlatform = res.Reserved.MonthlyBill, tcp.Platform
		monthlyHow = fmt.Sprintf("%s reserved (%s): %s/card-hour × 730 h, billed whether used or not", tcp.Platform, res.Reserved.TermLabel.EN, money(tcp.Low, p.cur))
		res.Sources = append(res.Sources, offerSource("reserved", tcp))
		res.Assumptions = append(res.Assumptions, txt(
			fmt.Sprintf("%s sells no monthly plan for %s here: the committed option is its reserved price (%s), %s/card-hour for every hour of a month, used or not", tcp.Platform, g.Name, res.Reserved.TermLabel.EN, money(tcp.Low, p.cur)),
			fmt.Sprintf("这里没有 %s 在 %s 的包月价：承诺用量的选项是其预留价（%s），每卡每小时 %s，整月每小时都计费，用不用都算", g.Name, tcp.Platform, res.Reserved.TermLabel.ZH, money(tcp.Low, p.cur))))
	}
	return res.finish(in, p, gran, g, m, planPlatform, monthlyHow)
}

// finish prices the on-demand side and compares: the plan is set.
func (res MonthlyResult) finish(in MonthlyInput, p *pricing, gran Granularity, g knowledge.GPU, m Market, planPlatform, monthlyHow string) (MonthlyResult, error) {
	// A reserved term on the plan's platform is the third option.
	if !res.PlanIsTerm && planPlatform != "" && !in.Monthly.Given() {
		if tcp, to, ok := cheapestTerm(g.ID, planPlatform, m.Offers, p); ok {
			if tcp.Original.Currency != p.cur {
				p.converted = true
			}
			res.Reserved = termOption(tcp, to, in.Cards)
			res.Sources = append(res.Sources, offerSource("reserved", tcp))
		}
	}

	// On-demand price per card-hour, from the plan's platform when it has one.
	hourlyHow, err := res.onDemandRate(&in, p, &gran, g, m, planPlatform)
	if err != nil {
		return res, err
	}
	if res.Hourly <= 0 || res.MonthlyPrice <= 0 {
		return res, inputErr("price", "prices must be positive", monthlyHintWithPrices)
	}
	if !in.Monthly.Given() {
		res.PlanPlatform = planPlatform
	}
	res.sourcesSaid()
	res.compare(&in, p, gran)
	res.compareTerm(&in, p)
	res.Inputs = in
	res.Assumptions = append(res.Assumptions, p.assumption()...)
	res.Assumptions = withConfirm(res.Assumptions, res.Sources)
	res.Lines = append([]Line{
		{Key: "hourly", Label: txt("on-demand per card-hour", "按需每卡每小时"), Value: res.Hourly, Unit: string(p.cur) + "/h", How: hourlyHow},
		{Key: "monthly_price", Label: txt("monthly plan per card", "包月每卡每月"), Value: res.MonthlyPrice, Unit: string(p.cur) + "/month", How: monthlyHow},
	}, res.Lines...)
	return res, nil
}

// onDemandRate sets the on-demand price per card-hour: the one given, else
// the platform's own catalogue offer or sourced row, else the cheapest
// elsewhere (said). It fills the billing step from the offer when none was
// given, and returns how the rate was found.
func (res *MonthlyResult) onDemandRate(in *MonthlyInput, p *pricing, gran *Granularity, g knowledge.GPU, m Market, planPlatform string) (string, error) {
	var hourlyHow string
	if in.Hourly.Given() {
		res.Hourly = p.money(in.Hourly)
		hourlyHow = "given" + p.convHow(in.Hourly.Currency)
		res.Sources = append(res.Sources, givenSource("hourly", in.Hourly, p.cur, "/card-hour"))
	} else {
		// The same platform's on-demand price: not spot, not a member price.
		f := OfferFilter{Platform: planPlatform, NoInterruptible: true, NoMember: true}
		cp, found, _ := Cheapest(g.ID, m.Offers, p.cur, p.fx, f)
		if !found {
			// No catalogue offer by the hour there: the platform's own
			// sourced row.
			if cp, found = m.cheapestRow(g.ID, p, f); found {
				res.Assumptions = append(res.Assumptions, sourcedRowNote(g, cp, txt("on-demand", "按需")))
			}
		}
		if !found && planPlatform != "" {
			// No on-demand price on the plan's own platform: compare with the
			// cheapest provider elsewhere (a catalogue offer, else a sourced
			// row), and say that the two prices come from different platforms.
			f.Platform, f.NoMarketRange = "", true
			if cp, found, _ = Cheapest(g.ID, m.Offers, p.cur, p.fx, f); !found {
				if cp, found = m.cheapestRow(g.ID, p, f); found {
					res.Assumptions = append(res.Assumptions, sourcedRowNote(g, cp, txt("on-demand", "按需")))
				}
			}
			if found {
				res.Assumptions = append(res.Assumptions, txt(
					fmt.Sprintf("%s lists no on-demand price for %s: the on-demand side is %s's, another platform, so the comparison is only indicative", planPlatform, g.Name, cp.Platform),
					fmt.Sprintf("%s 没有 %s 的按需价：按需一侧取自另一个平台 %s，对比仅供参考", planPlatform, g.Name, cp.Platform)))
			}
		}
		if !found {
			return "", inputErrZH("price", fmt.Sprintf("no on-demand price or sourced figure is known for %s; give price= per card-hour", g.Name),
				fmt.Sprintf("数据里没有 %s 的按需价；请用 price= 给出每卡每小时价格", g.Name), monthlyHintWithPrices)
		}
		if cp.Original.Currency != p.cur {
			p.converted = true
		}
		res.Hourly = cp.Price()
		res.HourlyPlatform = cp.Platform
		hourlyHow = fmt.Sprintf("%s: %s, low end", offerLabel(cp, "en"), cp.How)
		res.Sources = append(res.Sources, offerSource("hourly", cp))
		if *gran == 0 {
			if gg, ok := ParseGranularity(m.granularity(cp)); ok {
				*gran = gg
				in.Billing = m.granularity(cp)
			}
		}
	}
	return hourlyHow, nil
}

// sourcesSaid says whose prices the comparison uses, with their dates,
// when both come from the data: "the plan and on demand are both
// tencent-cloud's list prices (plan dated …)".
func (res *MonthlyResult) sourcesSaid() {
	var plan, hourly *PriceSource
	for i := range res.Sources {
		switch s := &res.Sources[i]; {
		case (s.What == "monthly" || s.What == "reserved") && plan == nil && !s.Given:
			plan = s
		case s.What == "hourly" && hourly == nil && !s.Given:
			hourly = s
		}
	}
	if plan == nil || hourly == nil {
		return
	}
	if plan.Platform == hourly.Platform {
		res.Assumptions = append(res.Assumptions, txt(
			fmt.Sprintf("both prices are %s's: plan %s (dated %s), on demand %s (dated %s); other sellers' prices differ", plan.Platform, plan.Figure, plan.ObservedAt, hourly.Figure, hourly.ObservedAt),
			fmt.Sprintf("两个价格都取自 %s：包月 %s（日期 %s），按需 %s（日期 %s）；其他平台价格不同", plan.Platform, plan.Figure, plan.ObservedAt, hourly.Figure, hourly.ObservedAt)))
		return
	}
	res.Assumptions = append(res.Assumptions, txt(
		fmt.Sprintf("plan from %s: %s (dated %s); on demand from %s: %s (dated %s)", plan.Platform, plan.Figure, plan.ObservedAt, hourly.Platform, hourly.Figure, hourly.ObservedAt),
		fmt.Sprintf("包月取自 %s：%s（日期 %s）；按需取自 %s：%s（日期 %s）", plan.Platform, plan.Figure, plan.ObservedAt, hourly.Platform, hourly.Figure, hourly.ObservedAt)))
}

// TermOption is a reserved-term price (or a package sold by the day, week
// or year): a commitment billed for every hour of its term, used or not,
// so its monthly bill is its hourly equivalent × 730 h whatever the hours.
type TermOption struct {
	Platform   string `json:"platform"`
	Offer      string `json:"offer"`
	Term       string `json:"term"` // ISO 8601 (P1W, P1M, P1Y, P3Y); "" when the source does not state it
	TermLabel  Text   `json:"term_label"`
	ObservedAt string `json:"observed_at"`
	// Hourly is per card-hour; MonthlyBill per card per month; Cost for
	// all cards per month.
	Hourly      float64 `json:"hourly"`
	MonthlyBill float64 `json:"monthly_bill"`
	Cost        float64 `json:"cost"`
	// BreakevenHoursPerMonth is MonthlyBill ÷ the on-demand hourly price:
	// the hours a month above which the term beats on demand.
	BreakevenHoursPerMonth float64 `json:"breakeven_hours_per_month"`
}

// TermText names a commitment term for a reader: "1 year", "3 个月"; ""
// (the source does not say) reads "term not stated".
func TermText(term string) Text {
	if _, ok := knowledge.TermHours(term); !ok {
		return txt("term not stated by the source", "来源未注明期限")
	}
	n := term[1 : len(term)-1]
	unit := map[byte][2]string{'Y': {"year", "年"}, 'M': {"month", "个月"}, 'W': {"week", "周"}, 'D': {"day", "天"}}[term[len(term)-1]]
	en := n + " " + unit[0]
	if n != "1" {
		en += "s"
	}
	return txt(en, n+" "+unit[1])
}

// isTerm reports whether an offer is a commitment other than a monthly
// plan: a reserved price, or a package sold by the day, week or year.
func isTerm(o knowledge.Offer, cp CardPrice) bool {
	return o.Model == knowledge.Reserved || o.Model == knowledge.Package && !cp.Monthly
}

// cheapestTerm is the cheapest term offer for a card on platform (any
// platform when ""; then one that also rents the card on demand first, so
// the comparison stays on one platform). Market-wide ranges are skipped
// unless named.
func cheapestTerm(gpuID, platform string, offers []knowledge.Offer, p *pricing) (CardPrice, knowledge.Offer, bool) {
	onDemand := map[string]bool{}
	for _, o := range offers {
		if o.GPU == gpuID && o.Status != "disappeared" {
			if c, ok := normalizeOffer(&o, p.cur, p.fx, false); ok && !c.Package && !c.Interruptible && o.Model != knowledge.Member {
				onDemand[o.Platform] = true
			}
		}
	}
	type pick struct {
		cp CardPrice
		o  knowledge.Offer
		ok bool
	}
	var paired, any pick
	better := func(b pick, c CardPrice) bool {
		return !b.ok || c.Low < b.cp.Low || c.Low == b.cp.Low && c.Offer < b.cp.Offer
	}
	for _, o := range offers {
		if o.GPU != gpuID || o.Status == "disappeared" || platform != "" && o.Platform != platform || platform == "" && IsMarketRange(o.Platform) {
			continue
		}
		c, ok := NormalizeOffer(o, p.cur, p.fx)
		if !ok || !isTerm(o, c) {
			continue
		}
		if better(any, c) {
			any = pick{c, o, true}
		}
		if onDemand[o.Platform] && better(paired, c) {
			paired = pick{c, o, true}
		}
	}
	if paired.ok {
		return paired.cp, paired.o, true
	}
	return any.cp, any.o, any.ok
}

// termOption prices a term offer for a month of cards.
func termOption(cp CardPrice, o knowledge.Offer, cards int) *TermOption {
	bill := Round2(cp.Low * knowledge.HoursPerMonth)
	return &TermOption{Platform: cp.Platform, Offer: cp.Offer, Term: o.Term, TermLabel: TermText(o.Term), ObservedAt: cp.ObservedAt,
		Hourly: cp.Low, MonthlyBill: bill, Cost: Round2(bill * float64(cards))}
}

// cardsWord writes "1 card" or "4 cards".
func cardsWord(n int) string {
	if n == 1 {
		return "1 card"
	}
	return fmt.Sprintf("%d cards", n)
}

// cheapestPlan is the cheapest monthly plan offer for a card (on one
// platform when given), by the low end of its range.
func cheapestPlan(gpuID, platform string, offers []knowledge.Offer, p *pricing) (CardPrice, bool) {
	var best CardPrice
	found := false
	for _, o := range offers {
		if o.GPU != gpuID || (platform != "" && o.Platform != platform) || o.Status == "disappeared" {
			continue
		}
		c, ok := NormalizeOffer(o, p.cur, p.fx)
		if ok && c.Monthly && (!found || c.Low < best.Low || (c.Low == best.Low && c.Offer < best.Offer)) {
			best, found = c, true
		}
	}
	return best, found
}

// pairedPlan is the cheapest monthly plan for a card on a platform that
// also rents it on demand, so monthly and on-demand are compared on the same
// platform and unit; without such a pair, the cheapest plan. Market-wide
// ranges are not platforms and are skipped unless named.
func pairedPlan(gpuID, platform string, offers []knowledge.Offer, p *pricing) (CardPrice, bool) {
	onDemand := map[string]bool{}
	for _, o := range offers {
		if o.GPU != gpuID || o.Status == "disappeared" {
			continue
		}
		if c, ok := NormalizeOffer(o, p.cur, p.fx); ok && !c.Package && !c.Interruptible {
			onDemand[o.Platform] = true
		}
	}
	var best, any CardPrice
	found, foundAny := false, false
	for _, o := range offers {
		if o.GPU != gpuID || (platform != "" && o.Platform != platform) || o.Status == "disappeared" {
			continue
		}
		if platform == "" && IsMarketRange(o.Platform) {
			continue
		}
		c, ok := NormalizeOffer(o, p.cur, p.fx)
		if !ok || !c.Monthly {
			continue
		}
		if !foundAny || c.Low < any.Low || (c.Low == any.Low && c.Offer < any.Offer) {
			any, foundAny = c, true
		}
		if onDemand[o.Platform] && (!found || c.Low < best.Low || (c.Low == best.Low && c.Offer < best.Offer)) {
			best, found = c, true
		}
	}
	if found {
		return best, true
	}
	if foundAny {
		return any, true
	}
	return cheapestPlan(gpuID, platform, offers, p)
}

// monthlyOf turns a plan offer back into a price per card-month.
func monthlyOf(cp CardPrice, p *pricing) (float64, string) {
	o := cp.Original
	perCard := o.Low / o.Cards * knowledge.HoursPerMonth / o.Hours
	v := round(p.to(perCard, o.Currency), 2)
	how := fmt.Sprintf("%s: %s", cp.Platform, o.String())
	if o.Hours == 1 {
		how += " × 730 h"
	} else if math.Abs(o.Hours-knowledge.HoursPerMonth) >= 1 {
		how += fmt.Sprintf(" × 730 ÷ %s h", num(round(o.Hours, 2)))
	}
	if o.Cards != 1 {
		how += fmt.Sprintf(" ÷ %s cards", num(o.Cards))
	}
	how += p.convHow(o.Currency) + " (low end)"
	return v, how
}

func (in MonthlyInput) normalize() (MonthlyInput, *pricing, Granularity, error) {
	in.Defaulted = nil
	for _, f := range []struct {
		name string
		v    float64
		max  float64
	}{{"hours_per_month", in.HoursPerMonth, maxHoursPerMonth}, {"hours_per_month_high", in.HoursPerMonthHigh, maxHoursPerMonth}, {"jobs", in.Jobs, maxJobsPerMonth}, {"job_hours", in.JobHours, maxHoursPerMonth}} {
		if math.IsNaN(f.v) || f.v < 0 || f.v > f.max {
			return in, nil, 0, inputErr(f.name, fmt.Sprintf("must be between 0 and %s, got %s", num(f.max), num(f.v)), monthlyHint)
		}
	}
	if in.Cards < 0 || in.Cards > MaxGPUs {
		return in, nil, 0, inputErr("cards", fmt.Sprintf("cards must be between 1 and %d", MaxGPUs), monthlyHint)
	}
	if in.Cards == 0 {
		in.Cards = 1
		in.Defaulted = append(in.Defaulted, "cards")
	}
	for _, mm := range []struct {
		f string
		m Money
	}{{"price", in.Hourly}, {"monthly", in.Monthly}} {
		if err := checkMoney(mm.f, mm.m, monthlyHintWithPrices); err != nil {
			return in, nil, 0, err
		}
	}
	// The job pattern and the monthly hours must agree; one fills the other.
	switch {
	case in.Jobs > 0 && in.JobHours > 0:
		h := in.Jobs * in.JobHours
		if in.HoursPerMonth > 0 && math.Abs(h-in.HoursPerMonth) > 0.01*in.HoursPerMonth {
			return in, nil, 0, inputErr("hours_per_month", fmt.Sprintf("%s jobs × %s h = %s h, not %s h", num(in.Jobs), num(in.JobHours), num(h), num(in.HoursPerMonth)), monthlyHint+" jobs=40 job=3h")
		}
		if h > maxHoursPerMonth {
			return in, nil, 0, inputErr("jobs", fmt.Sprintf("%s jobs × %s h = %s h is more than a month", num(in.Jobs), num(in.JobHours), num(h)), monthlyHint+" jobs=40 job=3h")
		}
		if in.HoursPerMonth == 0 {
			in.HoursPerMonth = h
			in.Defaulted = append(in.Defaulted, "hours_per_month")
		}
	case in.JobHours > 0 && in.HoursPerMonth > 0:
		in.Jobs = in.HoursPerMonth / in.JobHours
		in.Defaulted = append(in.Defaulted, "jobs")
	case in.Jobs > 0 && in.HoursPerMonth > 0:
		in.JobHours = in.HoursPerMonth / in.Jobs
		in.Defaulted = append(in.Defaulted, "job_hours")
	}
	var gran Granularity
	if in.Billing != "" {
		g, ok := ParseGranularity(in.Billing)
		if !ok {
			return in, nil, 0, inputErr("billing", fmt.Sprintf("unknown billing step %q; use second, minute or hour", in.Billing), monthlyHint+" billing=hour")
		}
		gran = g
	}
	def := in.Monthly.Currency
	if def == "" {
		def = in.Hourly.Currency
	}
	p, err := newPricing(in.Currency, def, in.FX, monthlyHint, &in.Defaulted)
	if err != nil {
		return in, nil, 0, err
	}
	in.Currency, in.FX = p.cur, p.fx
	return in, p, gran, nil
}

// compare fills break-even, billed hours, both costs and the verdict.
func (r *MonthlyResult) compare(in *MonthlyInput, p *pricing, gran Granularity) {
	c := string(p.cur)
	cards := float64(in.Cards)
	// Break-even hours per month = monthly price ÷ hourly price.
	be := r.MonthlyPrice / r.Hourly
	r.BreakevenHoursPerMonth = round(be, 1)
	r.BreakevenUsedHours = r.BreakevenHoursPerMonth
	r.Lines = append(r.Lines, Line{Key: "breakeven", Label: txt("break-even hours per month", "每月盈亏平衡小时数"), Value: r.BreakevenHoursPerMonth, Unit: "h",
		How: fmt.Sprintf("%s ÷ %s/h", money(r.MonthlyPrice, p.cur), money(r.Hourly, p.cur))})
	if be > knowledge.HoursPerMonth {
		r.Assumptions = append(r.Assumptions, txt(
			fmt.Sprintf("the plan costs more than %s h of on-demand use: it never pays, even running all month", num(knowledge.HoursPerMonth)),
			fmt.Sprintf("包月价高于按需跑满 %s 小时：即使整月不停也不划算", num(knowledge.HoursPerMonth))))
	}

	billedHow, perJob := r.bill(in, gran)
	if perJob > 0 {
		// In hours actually used, the plan pays off sooner by the rounding ratio.
		r.BreakevenUsedHours = round(be*in.JobHours/perJob, 1)
		r.Lines = append(r.Lines, Line{Key: "breakeven_used", Label: txt("break-even in hours actually used", "按实际使用小时的盈亏平衡"), Value: r.BreakevenUsedHours, Unit: "h",
			How: fmt.Sprintf("%s h × %s h used ÷ %s h billed per job", num(r.BreakevenHoursPerMonth), num(in.JobHours), num(round(perJob, 4)))})
	}

	r.MonthlyCost = Round2(r.MonthlyPrice * cards)
	r.FullMonthDiscount = round(1-r.MonthlyPrice/(r.Hourly*knowledge.HoursPerMonth), 3)
	if in.HoursPerMonth > 0 {
		r.OnDemandCost = Round2(r.BilledHours * r.Hourly * cards)
		r.Lines = append(r.Lines,
			Line{Key: "billed_hours", Label: txt("billed hours per card", "每卡计费小时"), Value: r.BilledHours, Unit: "h", How: billedHow},
			Line{Key: "on_demand_cost", Label: txt("on demand per month", "按需每月"), Value: r.OnDemandCost, Unit: c,
				How: fmt.Sprintf("%s h × %s × %s", num(r.BilledHours), money(r.Hourly, p.cur), cardsWord(in.Cards))},
			Line{Key: "monthly_cost", Label: txt("monthly plan per month", "包月每月"), Value: r.MonthlyCost, Unit: c,
				How: fmt.Sprintf("%s × %s", money(r.MonthlyPrice, p.cur), cardsWord(in.Cards))})
		r.Cheaper, r.Saving = monthlyCheaperOnDemand, Round2(r.MonthlyCost-r.OnDemandCost)
		base := r.MonthlyCost
		if r.MonthlyCost < r.OnDemandCost {
			r.Cheaper, r.Saving, base = monthlyCheaperMonthly, Round2(r.OnDemandCost-r.MonthlyCost), r.OnDemandCost
		}
		r.SavingPct = round(r.Saving/base, 3)
		r.Lines = append(r.Lines, Line{Key: "saving", Label: txt("saving of the cheaper option", "更便宜方案每月节省"), Value: r.Saving, Unit: c,
			How: fmt.Sprintf("|%s − %s| = %s (%s%% of the dearer option)", money(r.OnDemandCost, p.cur), money(r.MonthlyCost, p.cur), money(r.Saving, p.cur), num(round(r.SavingPct*100, 1)))})
	} else {
		r.MonthlyCost = Round2(r.MonthlyPrice * cards)
		r.Assumptions = append(r.Assumptions, txt(
			"no hours per month given: compare your own hours with the break-even",
			"未给出每月使用小时：请用自己的用量对照盈亏平衡点"))
	}
	r.rangeHigh(in, p)
	r.Lines = append(r.Lines,
		Line{Key: "full_month_discount", Label: txt("plan discount if used all month", "整月用满时的包月折扣"), Value: r.FullMonthDiscount, Unit: "",
			How: fmt.Sprintf("1 − %s ÷ (%s × 730 h)", money(r.MonthlyPrice, p.cur), money(r.Hourly, p.cur))},
		Line{Key: "rule_of_thumb", Label: txt("rental guide's rule of thumb (context)", "租用指南经验值（仅供参照）"), Value: RuleMonthlyHours, Unit: "h",
			How: fmt.Sprintf("guide: a plan usually pays above ≈%d h/month and saves %d–%d %%; computed for these prices: %s h",
				RuleMonthlyHours, int(RuleMonthlySavingLow*100), int(RuleMonthlySavingHigh*100), num(r.BreakevenHoursPerMonth))})
}

// bill sets the billed hours per card: the hours used, or with a job
// pattern each job rounded up to the billing step (per hour when the step
// is not stated: the costliest case, said). It returns how, and the hours
// billed per job (0 without a pattern).
func (r *MonthlyResult) bill(in *MonthlyInput, gran Granularity) (string, float64) {
	r.BilledHours = round(in.HoursPerMonth, 2)
	if in.Jobs <= 0 || in.JobHours <= 0 {
		if in.HoursPerMonth > 0 {
			r.Assumptions = append(r.Assumptions, txt(
				"no job pattern given: billed hours = hours used; many short jobs on per-hour billing cost more (give jobs= and job=)",
				"未给出任务模式：计费小时 = 使用小时；按小时计费时大量短任务会更贵（可给 jobs= 和 job=）"))
		}
		return fmt.Sprintf("%s h used; no job pattern given, so no rounding", num(in.HoursPerMonth)), 0
	}
	if gran == 0 {
		gran = BillPerHour
		in.Defaulted = append(in.Defaulted, "billing")
		r.Assumptions = append(r.Assumptions, txt(
			"billing step not stated for this offer: per-hour rounding assumed (the costliest case); give billing=second if the platform bills by the second",
			"该报价未说明计费粒度：按小时向上取整计算（最不利的情况）；如果平台按秒计费，请给 billing=second"))
	}
	perJob := gran.Bill(in.JobHours)
	r.BilledHours = round(in.Jobs*perJob, 2)
	return fmt.Sprintf("%s jobs × %s h each, billed %s: %s h", num(round(in.Jobs, 2)), num(in.JobHours), gran, num(round(perJob, 4))), perJob
}

// MonthlyAt is a month at one level of use: both bills for all the cards,
// the cheaper and by how much (on demand only when no plan is priced).
type MonthlyAt struct {
	HoursPerMonth float64 `json:"hours_per_month"`
	OnDemandCost  float64 `json:"on_demand_cost"`
	MonthlyCost   float64 `json:"monthly_cost,omitempty"`
	Cheaper       string  `json:"cheaper,omitempty"`
	Saving        float64 `json:"saving,omitempty"`
}

// rangeHigh prices the high end of a range of use (HoursPerMonthHigh, no
// job pattern: billed = used), beside the low end the result holds.
func (r *MonthlyResult) rangeHigh(in *MonthlyInput, p *pricing) {
	h := in.HoursPerMonthHigh
	if h <= in.HoursPerMonth || in.HoursPerMonth <= 0 || in.Jobs > 0 && in.JobHours > 0 || r.Hourly <= 0 {
		in.HoursPerMonthHigh = 0
		return
	}
	cards := float64(in.Cards)
	at := &MonthlyAt{HoursPerMonth: h, OnDemandCost: Round2(h * r.Hourly * cards)}
	r.Lines = append(r.Lines, Line{Key: "on_demand_cost_high", Label: txt("on demand per month at the high end", "用量高的月份按需每月"), Value: at.OnDemandCost, Unit: string(p.cur),
		How: fmt.Sprintf("%s h × %s × %s", num(h), money(r.Hourly, p.cur), cardsWord(in.Cards))})
	if r.MonthlyPrice > 0 {
		at.MonthlyCost = r.MonthlyCost
		at.Cheaper, at.Saving = monthlyCheaperOnDemand, Round2(at.MonthlyCost-at.OnDemandCost)
		if at.MonthlyCost < at.OnDemandCost {
			at.Cheaper, at.Saving = monthlyCheaperMonthly, Round2(at.OnDemandCost-at.MonthlyCost)
		}
		r.Lines = append(r.Lines, Line{Key: "saving_high", Label: txt("saving of the cheaper option at the high end", "用量高的月份更便宜方案每月节省"), Value: at.Saving, Unit: string(p.cur),
			How: fmt.Sprintf("|%s − %s| at %s h: %s is cheaper", money(at.OnDemandCost, p.cur), money(at.MonthlyCost, p.cur), num(h), at.Cheaper)})
	}
	r.High = at
}

// MonthlyWithoutPlan answers the half of a monthly question that can be
// answered when no plan price is known for the card (Monthly's "monthly"
// InputError): the on-demand rate, the month on demand at the hours
// given for all the cards, and PlanPaysBelow, the most a plan may cost per
// card-month to pay at those hours (break-even hours = plan price ÷
// hourly, so a plan pays at h hours when it costs less than h × hourly).
// PlanMissing is set and Cheaper is "": there is no verdict.
func MonthlyWithoutPlan(in MonthlyInput, m Market) (MonthlyResult, error) {
	in, p, gran, err := in.normalize()
	if err != nil {
		return MonthlyResult{}, err
	}
	res := MonthlyResult{Currency: p.cur, PlanMissing: true}
	if in.GPU == "" {
		return res, inputErr("gpu", "name the card (or give both price= and monthly=)", monthlyHint)
	}
	g, err := m.card(in.GPU, monthlyHint)
	if err != nil {
		return res, err
	}
	in.GPU = g.ID
	hourlyHow, err := res.onDemandRate(&in, p, &gran, g, m, in.Platform)
	if err != nil {
		return res, err
	}
	if res.Hourly <= 0 {
		return res, inputErr("price", "prices must be positive", monthlyHintWithPrices)
	}
	c := string(p.cur)
	where := ""
	if in.Platform != "" {
		where = " on " + in.Platform
	}
	res.Assumptions = append(res.Assumptions, txt(
		fmt.Sprintf("no monthly plan price is sourced for %s%s: the on-demand side only; give the plan's price as monthly= (per card-month) for a verdict", g.Name, where),
		fmt.Sprintf("数据里没有 %s 的包月价（未找到有出处的报价）：只算按需一侧；给出包月价 monthly=（每卡每月）即可判断", g.Name)))
	res.Lines = append(res.Lines, Line{Key: "hourly", Label: txt("on-demand per card-hour", "按需每卡每小时"), Value: res.Hourly, Unit: c + "/h", How: hourlyHow})
	if in.HoursPerMonth > 0 {
		billedHow, _ := res.bill(&in, gran)
		res.OnDemandCost = Round2(res.BilledHours * res.Hourly * float64(in.Cards))
		res.PlanPaysBelow = Round2(res.BilledHours * res.Hourly)
		res.Lines = append(res.Lines,
			Line{Key: "billed_hours", Label: txt("billed hours per card", "每卡计费小时"), Value: res.BilledHours, Unit: "h", How: billedHow},
			Line{Key: "on_demand_cost", Label: txt("on demand per month", "按需每月"), Value: res.OnDemandCost, Unit: c,
				How: fmt.Sprintf("%s h × %s × %s", num(res.BilledHours), money(res.Hourly, p.cur), cardsWord(in.Cards))},
			Line{Key: "plan_pays_below", Label: txt("a plan pays at these hours below (per card-month)", "包月低于此价（每卡每月）才划算"), Value: res.PlanPaysBelow, Unit: c,
				How: fmt.Sprintf("break-even hours = plan price ÷ %s/h; at %s h a plan pays when it costs less than %s h × %s", money(res.Hourly, p.cur), num(res.BilledHours), num(res.BilledHours), money(res.Hourly, p.cur))})
		res.rangeHigh(&in, p)
	} else {
		in.HoursPerMonthHigh = 0
	}
	res.Inputs = in
	res.Assumptions = append(res.Assumptions, p.assumption()...)
	res.Assumptions = withConfirm(res.Assumptions, res.Sources)
	return res, nil
}

// compareTerm adds the reserved term's lines: its per-hour figure, its
// monthly bill at any hours (a term bills every hour), its break-even
// against on demand and, with hours, which of the options is cheapest.
func (r *MonthlyResult) compareTerm(in *MonthlyInput, p *pricing) {
	t := r.Reserved
	if t == nil {
		return
	}
	c := string(p.cur)
	t.BreakevenHoursPerMonth = round(t.MonthlyBill/r.Hourly, 1)
	r.Lines = append(r.Lines,
		Line{Key: "reserved_hourly", Label: txt("reserved per card-hour ("+t.TermLabel.EN+")", "预留每卡每小时（"+t.TermLabel.ZH+"）"), Value: t.Hourly, Unit: c + "/h",
			How: fmt.Sprintf("%s, %s, observed %s", t.Platform, t.Offer, t.ObservedAt)},
		Line{Key: "reserved_monthly_bill", Label: txt("reserved per card per month", "预留每卡每月"), Value: t.MonthlyBill, Unit: c,
			How: fmt.Sprintf("%s/h × 730 h: a term bills every hour, used or not", money(t.Hourly, p.cur))},
		Line{Key: "reserved_breakeven", Label: txt("reserved beats on demand above (hours per month)", "预留比按需划算的每月小时数"), Value: t.BreakevenHoursPerMonth, Unit: "h",
			How: fmt.Sprintf("%s ÷ %s/h", money(t.MonthlyBill, p.cur), money(r.Hourly, p.cur))},
		Line{Key: "reserved_cost", Label: txt("reserved per month", "预留每月"), Value: t.Cost, Unit: c,
			How: fmt.Sprintf("%s × %s", money(t.MonthlyBill, p.cur), cardsWord(in.Cards))})
	if in.HoursPerMonth <= 0 {
		return
	}
	best := r.OnDemandCost
	r.Best = monthlyCheaperOnDemand
	if !r.PlanIsTerm && r.MonthlyCost < best {
		r.Best, best = monthlyCheaperMonthly, r.MonthlyCost
	}
	if t.Cost < best {
		r.Best, best = "reserved", t.Cost
	}
	how := fmt.Sprintf("on demand %s", money(r.OnDemandCost, p.cur))
	if !r.PlanIsTerm {
		how += fmt.Sprintf(", monthly plan %s", money(r.MonthlyCost, p.cur))
	}
	how += fmt.Sprintf(", reserved %s: %s is lowest", money(t.Cost, p.cur), r.Best)
	r.Lines = append(r.Lines, Line{Key: "best", Label: txt("cheapest option at these hours", "这些小时数下最便宜的方案"), Value: best, Unit: c, How: how})
}

// planRow is the cheapest sourced monthly-plan row for a card (on one
// platform when given): a provider's before a market-wide one.
func planRow(g knowledge.GPU, platform string, m Market, p *pricing) (CardPrice, bool) {
	f := OfferFilter{Platform: platform, Packages: true, NoInterruptible: true, NoMarketRange: true}
	if cp, ok := cheapestMonthlyPlan(g.ID, Market{Rows: m.Rows}, p, f); ok {
		return cp, true
	}
	f.NoMarketRange = false
	return cheapestMonthlyPlan(g.ID, Market{Rows: m.Rows}, p, f)
}
