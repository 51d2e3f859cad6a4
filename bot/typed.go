package bot

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// Typed is the answer as a value (the ask --json contract's "answer"):
// what was asked, its value, and the verdict when a yes/no was asked. Also
// carries the other figures a compound question asked for.
type Typed struct {
	Asked    string   `json:"asked"`
	Value    *float64 `json:"value"`
	Unit     string   `json:"unit,omitempty"`
	Currency string   `json:"currency,omitempty"`
	Verdict  *string  `json:"verdict"`
	Choice   string   `json:"choice,omitempty"`
	Also     []Typed  `json:"also,omitempty"`
}

func val(v float64) *float64 { return &v }

func verdict(yes bool) *string {
	v := "no"
	if yes {
		v = "yes"
	}
	return &v
}

// typedFigure is one typed typedFigure a result offers, by asked name.
type typedFigure struct {
	asked, unit, currency, choice string
	value                         float64
}

// typed builds the answer's value from its result: the figures the
// result has, the one the question asked for first, the other asked ones
// in Also, and the verdict when the question was yes/no (or the result
// is one by nature: a budget check, a fit on the user's own card).
func (a *Answer) typed(s parse.Slots) {
	r := a.Result
	if c, ok := r.(advisor.CostResult); ok && a.apiPerM != nil {
		r = apiPerMCost{c, *a.apiPerM}
	}
	figs, v, primary := resultFigures(r)
	if a.planTerm != nil {
		// the plan's cards on a commitment: the month's difference, its side
		onDemand := 0.0
		switch res := a.Result.(type) {
		case advisor.CostResult:
			if res.Plan != nil {
				onDemand = res.Plan.MonthlyOnDemand
			}
		case SLOAnswer:
			onDemand = res.MonthlyTotal
		}
		pt := advisor.WeighPlanTerm(onDemand, *a.planTerm)
		cur := string(a.planTerm.Currency)
		figs = append(figs, typedFigure{asked: "saving", value: pt.Difference, unit: "month", currency: cur, choice: pt.Cheaper},
			typedFigure{asked: "which", value: pt.Difference, unit: "month", currency: cur, choice: pt.Cheaper})
	}
	if len(figs) == 0 {
		figs, v, primary = ledgerFigures(a.Result, a.question)
	}
	if len(figs) == 0 {
		if a.Typed == nil {
			a.Typed = &Typed{Asked: intentAsked(a.Intent)}
		}
		return
	}
	byName := map[string]typedFigure{}
	for _, f := range figs {
		if _, ok := byName[f.asked]; !ok {
			byName[f.asked] = f
		}
	}
	order := []string{}
	for _, t := range s.Targets {
		if _, ok := byName[t]; ok && !has(order, t) {
			order = append(order, t)
		}
	}
	if len(order) == 0 || primary != "" && !has(s.Targets, order[0]) {
		order = append([]string{primary}, order...)
	}
	if primary != "" && len(s.Targets) == 0 {
		order = []string{primary}
	}
	if _, list := a.Result.(SpendCommitments); list {
		for _, f := range figs { // a list's figures are all its answer
			if !has(order, f.asked) {
				order = append(order, f.asked)
			}
		}
	}
	if order[0] == "which" {
		// a choice's margin is part of its answer ("which is cheaper" —
		// by how much); a yes/no choice ("is reserved still cheaper?") is
		// still a choice: the option first, with its verdict, the saving
		// the figure behind it
		if _, ok := byName["saving"]; ok {
			order = slices.DeleteFunc(order, func(o string) bool { return o == "saving" })
			order = append(order, "saving")
		}
		if _, api := a.Result.(APIView); api && !has(order, "money_monthly") {
			order = append(order, "money_monthly") // self-host vs API: the month's bill of each is what is weighed
		}
	}
	for _, k := range companions(a.Result) {
		// the other figures the headline states with the first: a plan's
		// cards and its monthly bill, a plan-or-not verdict and its saving
		if _, ok := byName[k]; ok && !has(order, k) {
			order = append(order, k)
		}
	}
	if c, ok := a.Result.(advisor.CostResult); ok && a.planMonthly != nil && c.Plan != nil {
		pt := advisor.WeighPlanTerm(c.Plan.MonthlyOnDemand, advisor.CommitResult{CommittedMonthly: a.planMonthly.MonthlyCost})
		side := map[string]string{"commit": "monthly", "on_demand": "on_demand"}[pt.Cheaper]
		f := typedFigure{asked: "saving", value: pt.Difference, unit: "month", currency: string(c.Currency), choice: side}
		byName["saving"], byName["which"] = f, typedFigure{asked: "which", value: pt.Difference, unit: "month", currency: string(c.Currency), choice: side}
		if !has(order, "saving") {
			order = append(order, "saving")
		}
		if s.YesNo {
			v = verdict(pt.Cheaper == "commit") // "is a monthly plan cheaper?"
		}
	}
	if a.planTerm != nil && !has(order, "saving") {
		order = append(order, "saving") // the headline says what the commitment saves a month
	}
	if s.Budget != nil {
		// a budget stated: the figure weighed against it is part of the
		// answer (the job's total, or the month's bill for a service)
		for _, k := range []string{"money_monthly", "money_total"} {
			if _, ok := byName[k]; ok && !has(order, k) {
				order = append(order, k)
				break
			}
		}
	}
	if m := a.memVerdict; m != nil {
		// their memory against the need: the verdict, memory first
		v = verdict(m[0] <= m[1])
		if _, ok := byName["memory_gb"]; ok {
			order = append([]string{"memory_gb"}, slices.DeleteFunc(order, func(o string) bool { return o == "memory_gb" })...)
		}
	}
	pv, priced := a.Result.(PriceView)
	sizedByBudget := priced && pv.Afford != nil // the budget sized the fleet: it is not also a yes/no
	if !sizedByBudget && v == nil && s.Budget != nil && s.Budget.Amount > 0 && (s.YesNo || a.verdictAsked || a.Ignored["budget"] != "") {
		// a budget beside a rental or a job the answer did not weigh
		// ("200 hours of H100, budget $500?") is weighed here, never dropped
		// "can i do this under $20", "预算300块够吗": the job's money
		// against the budget is the yes/no, and leads
		keys := []string{"money_total", "money_monthly"}
		if months, _ := budgetMonths(a.question); months == 1 {
			keys = []string{"money_monthly", "money_total"}
		}
		for _, k := range keys {
			f, ok := byName[k]
			if !ok || s.Budget.Currency != "" && f.currency != "" && f.currency != s.Budget.Currency {
				continue
			}
			v = verdict(f.value <= s.Budget.Amount)
			asked := "within"
			if q := strings.ToLower(a.question); reAsksOverBudget.MatchString(q) && !reEnoughAsked.MatchString(q) {
				v, asked = verdict(f.value > s.Budget.Amount), "over" // "超不超200万预算": yes means over
			}
			a.overBudget = &[4]string{trimNum(f.value), trimNum(s.Budget.Amount), cmpOr(f.currency, s.Budget.Currency), asked}
			if !has(s.Targets, order[0]) || len(s.Targets) == 0 {
				order = append([]string{k}, slices.DeleteFunc(order, func(o string) bool { return o == k })...)
			}
			break
		}
	}
	if _, fit := a.Result.(FitResult); fit && v != nil && a.verdictAsked && !has(s.Targets, primary) {
		// "does it fit on my L40S? if not, how many A100s?": whether it
		// fits leads, with the memory it needs; the rest follows
		order = append([]string{primary}, slices.DeleteFunc(order, func(o string) bool { return o == primary })...)
	}
	if a.fallback != nil {
		// "X? if not, Y?": the first way's memory and verdict lead
		if _, ok := byName["memory_gb"]; ok {
			order = append([]string{"memory_gb"}, slices.DeleteFunc(order, func(o string) bool { return o == "memory_gb" })...)
		}
	}
	t := toTyped(byName[order[0]])
	for _, o := range order[1:] {
		if o != order[0] {
			t.Also = append(t.Also, toTyped(byName[o]))
		}
	}
	if q := strings.ToLower(a.question); isExport(a.Result) && v != nil && reAsksRestricted.MatchString(q) && !reAsksBuyable.MatchString(q) {
		v = verdict(*v == "no") // "L20受不受出口管制？": yes means restricted
	}
	if q := strings.ToLower(a.question); v != nil && isChoice(a.Result) && reAsksDearer.MatchString(q) {
		v = verdict(*v == "no") // "自建是不是反而更贵？": yes means the option asked about costs more
	}
	if pv, ok := a.Result.(PriceView); ok && pv.Quote != nil && v != nil && reAsksExpensive.MatchString(strings.ToLower(a.question)) {
		v = verdict(*v == "no") // "贵不贵？": yes means the quote is dear
	}
	if v != nil && (s.YesNo || a.verdictAsked || a.overBudget != nil) {
		t.Verdict = v // a budget weighed is a yes/no even when not asked as one
	}
	if a.tooFew {
		t.Verdict = verdict(false) // their cards cannot hold it, whatever the rest says
	}
	if fb := a.fallback; fb != nil {
		// the fallback's memory, with its own yes/no when their card is known
		alt := Typed{Asked: "memory_gb", Value: val(fb.MemoryGB), Unit: "GB", Choice: altChoice(fb.Workload)}
		if fb.Verdict != nil {
			alt.Verdict = verdict(fb.Verdict.Fits)
		}
		t.Also = append(t.Also, alt)
	}
	a.Typed = &t
}

func toTyped(f typedFigure) Typed {
	return Typed{Asked: f.asked, Value: val(f.value), Unit: f.unit, Currency: f.currency, Choice: f.choice}
}

// intentAsked is what an answer without figures answers.
func intentAsked(in parse.Intent) string {
	switch in {
	case parse.Spend:
		return "spend"
	case parse.Budget:
		return "budget"
	case parse.Knowledge, parse.Help, parse.Unknown:
		return "info"
	}
	return string(in)
}

// resultFigures lists the figures a result carries, the one its headline
// leads with, and its yes/no when it has one.
func resultFigures(r any) ([]typedFigure, *string, string) {
	switch res := r.(type) {
	case FitResult:
		var figs []typedFigure
		figs = append(figs, typedFigure{asked: "memory_gb", value: res.MemoryGB, unit: "GB"})
		if r := res.Rental; r != nil && r.Price != nil {
			// "不行的话租 A100 80G 跑 10 小时要多少钱": the fallback's bill
			figs = append(figs, typedFigure{asked: "money_total", value: r.Total, currency: r.Currency, choice: r.GPU})
		}
		if res.Verdict != nil {
			figs = append(figs, typedFigure{asked: "cards", value: float64(res.Verdict.Cards), unit: "cards", choice: res.Verdict.GPU})
			if res.Verdict.MaxConcurrency > 0 {
				figs = append(figs, typedFigure{asked: "concurrency", value: res.Verdict.MaxConcurrency, unit: "sequences", choice: res.Verdict.GPU})
			}
			return figs, verdict(res.Verdict.Fits), "memory_gb"
		}
		for _, x := range res.Variants {
			figs = append(figs, typedFigure{asked: "cards", value: float64(x.Cards), unit: "cards", choice: x.GPU})
		}
		if len(res.Variants) > 0 {
			return figs, nil, "cards" // "141G 和 96G 两个版本分别说一下": each size's count
		}
		for _, o := range res.Options {
			if o.Fits || o.Count > 0 {
				figs = append(figs, typedFigure{asked: "cards", value: float64(o.Count), unit: "cards", choice: o.GPU})
				if o.Cheapest != nil {
					figs = append(figs, typedFigure{asked: "price_per_card_hour", value: o.Cheapest.Price, unit: "card_hour", currency: o.Cheapest.Currency})
				}
				break
			}
		}
		return figs, nil, "memory_gb"
	case advisor.CostResult:
		return costFigures(res)
	case apiPerMCost:
		figs, v, primary := costFigures(res.CostResult)
		c := res.cmp
		cur := string(c.Currency)
		figs = append(figs, typedFigure{asked: "saving", value: c.SavingPerM, unit: "M tokens", currency: cur, choice: c.Cheaper},
			typedFigure{asked: "which", value: c.PerMOutput, unit: "M tokens", currency: cur, choice: c.Cheaper})
		return figs, v, primary
	case SLOAnswer:
		r := res.SLOResult
		figs := []typedFigure{{asked: "cards", value: float64(r.Cards), unit: "cards", choice: r.Replica.GPU}}
		if r.Priced {
			figs = append(figs, typedFigure{asked: "money_monthly", value: r.MonthlyTotal, unit: "month", currency: r.Currency})
		}
		if r.WithinBudget != nil {
			return append(figs, typedFigure{asked: "money_monthly", value: r.MonthlyTotal, unit: "month", currency: r.Currency}), verdict(*r.WithinBudget), "money_monthly"
		}
		figs = append(figs, []typedFigure{
			{asked: "concurrency", value: float64(r.PerReplica), unit: "sequences per replica"},
			{asked: "tokens_per_s", value: r.PerSequenceTPS, unit: "tokens/s per user"},
			{asked: "ttft_ms", value: r.TTFTms, unit: "ms"},
		}...)
		return figs, verdict(r.Feasible && (r.Cards > 0 || r.Plan != nil)), "cards"
	case advisor.MonthlyResult:
		if res.PlanMissing {
			// no plan price sourced: the on-demand half, and no verdict
			cur := string(res.Currency)
			rate := typedFigure{asked: "price_per_card_hour", value: res.Hourly, unit: "card_hour", currency: cur}
			if res.OnDemandCost <= 0 {
				return []typedFigure{rate}, nil, "price_per_card_hour"
			}
			month := typedFigure{asked: "money_monthly", value: res.OnDemandCost, unit: "month", currency: cur, choice: "on_demand"}
			total := month
			total.asked = "money_total"
			return []typedFigure{month, total, rate}, nil, "money_monthly"
		}
		month := typedFigure{asked: "money_monthly", value: res.MonthlyPrice, unit: "card_month", currency: string(res.Currency)}
		if res.Inputs.Cards > 1 && res.Cheaper != "" {
			// several cards at known hours: the month's bill, the cheaper way
			month = typedFigure{asked: "money_monthly", value: math.Min(res.OnDemandCost, res.MonthlyCost), unit: "month", currency: string(res.Currency), choice: res.Cheaper}
		}
		figs := []typedFigure{
			{asked: "break_even_hours", value: res.BreakevenHoursPerMonth, unit: "h/month"},
			month,
			{asked: "price_per_card_hour", value: res.Hourly, unit: "card_hour", currency: string(res.Currency)},
		}
		if res.Cheaper != "" {
			choice := res.Cheaper
			if res.Best != "" {
				choice = res.Best
			}
			figs = append(figs, typedFigure{asked: "saving", value: res.Saving, unit: "month", currency: string(res.Currency), choice: choice},
				typedFigure{asked: "which", value: res.Saving, unit: "month", currency: string(res.Currency), choice: choice},
				typedFigure{asked: "money_total", value: math.Min(res.OnDemandCost, res.MonthlyCost), unit: "month", currency: string(res.Currency), choice: choice})
			return figs, verdict(res.Cheaper == "monthly"), "break_even_hours"
		}
		return figs, nil, "break_even_hours"
	case BuyView:
		figs, v, primary := resultFigures(res.BuyResult)
		if w := res.Whole; w.Units > 0 {
			// all the cards bought: the purchase and the year's difference
			for i := range figs {
				switch figs[i].asked {
				case "money_total":
					figs[i].value = w.Purchase
				case "which", "saving":
					figs[i].value = w.SavingPerYear
				}
			}
		}
		if res.Asked != "" {
			primary = res.Asked // what the question asked leads (buy_words.go buyAsked)
		}
		return figs, v, primary
	case advisor.PlanPricesResult:
		// platforms' monthly plans: the cheaper one and by how much; with
		// fewer than two priced, the one priced and no choice
		cur := string(res.Currency)
		for _, p := range res.Plans {
			if !p.Found || res.Cheapest != "" && p.Platform != res.Cheapest {
				continue
			}
			figs := []typedFigure{{asked: "money_monthly", value: p.PerCardMonth, unit: "card_month", currency: cur, choice: p.Platform}}
			if res.Cheapest == "" {
				return figs, nil, "money_monthly"
			}
			return append(figs, typedFigure{asked: "which", value: res.Difference, unit: "card_month", currency: cur, choice: res.Cheapest},
				typedFigure{asked: "saving", value: res.Difference, unit: "card_month", currency: cur, choice: res.Cheapest}), nil, "which"
		}
		return nil, nil, ""
	case advisor.BuyResult:
		figs := []typedFigure{
			{asked: "break_even_util", value: res.BreakevenUtilization, unit: "share"},
			{asked: "payback_months", value: res.PaybackMonths, unit: "months"},
			{asked: "money_total", value: res.PricePerCard * float64(max(res.Cards, 1)), unit: "purchase", currency: string(res.Currency)},
			{asked: "which", value: res.SavingPerYear, unit: "year", currency: string(res.Currency), choice: res.Cheaper},
			{asked: "saving", value: res.SavingPerYear, unit: "year", currency: string(res.Currency), choice: res.Cheaper},
		}
		return figs, verdict(res.Cheaper == "buy"), "break_even_util"
	case PriceView:
		if len(res.Offers) == 0 || len(res.GPUs) == 0 {
			return nil, nil, ""
		}
		o, _, ok := headlineOffer(res.Offers, res.GPUs[0], res.Spot) // the offer the headline quotes
		if !ok {
			o = res.Offers[0]
		}
		if f := res.Afford; f != nil {
			// a budget's fleet: the cards, what one costs a month, the card-hours
			return []typedFigure{{asked: "cards", value: float64(f.Cards), unit: "cards", choice: res.GPUs[0]},
				{asked: "money_monthly", value: f.PerCardMonth, unit: "card_month", currency: f.Currency},
				{asked: "gpu_hours", value: f.CardHours, unit: "GPU-h"}}, nil, "cards"
		}
		if q := res.Quote; q != nil {
			// a quote weighed: the market's price, and whether theirs is
			// fair (yes) — turned round when the question asks "dear?"
			return []typedFigure{{asked: "price_per_card_hour", value: q.Median, unit: "card_hour", currency: q.Currency},
				{asked: "which", value: q.Min, unit: "card_hour", currency: q.Currency, choice: q.Cheapest}}, verdict(!q.Dear), "price_per_card_hour"
		}
		if r := res.Rental; r != nil && res.Affordable {
			// a budget's hours: the card-hours it rents, then the hours
			return []typedFigure{{asked: "gpu_hours", value: r.CardHours, unit: "GPU-h"},
				{asked: "hours", value: r.Hours, unit: "h"},
				{asked: "price_per_card_hour", value: r.PricePerCardHour, unit: "card_hour", currency: cmpOr(res.RentalCurrency, o.Currency)}}, nil, "gpu_hours"
		}
		if len(res.GPUs) > 0 {
			if c, ok := res.compared(res.GPUs[0]); ok && c.Cheaper != "" {
				// "lambda or runpod, by how much?": the cheaper named platform,
				// by how much a card-hour, and over the rental when one was asked
				w := c.Rows[0].Offer
				figs := []typedFigure{{asked: "which", value: c.Difference, unit: "card_hour", currency: w.Currency, choice: c.Cheaper},
					{asked: "price_per_card_hour", value: w.Price, unit: "card_hour", currency: w.Currency, choice: c.Cheaper}}
				if c.Hours > 0 {
					figs = append(figs, typedFigure{asked: "saving", value: c.TotalDifference, currency: w.Currency, choice: c.Cheaper},
						typedFigure{asked: "money_total", value: c.Rows[0].Total, currency: w.Currency, choice: c.Cheaper})
				}
				return figs, nil, "price_per_card_hour"
			}
		}
		if r := res.Rental; r != nil && res.PerMonth == 0 {
			if res.RentalCurrency != "" { // at their own rate
				return []typedFigure{{asked: "money_total", value: r.Total, currency: res.RentalCurrency},
					{asked: "price_per_card_hour", value: r.PricePerCardHour, unit: "card_hour", currency: res.RentalCurrency}}, nil, "money_total"
			}
			return []typedFigure{{asked: "money_total", value: r.Total, currency: o.Currency, choice: o.Platform},
				{asked: "price_per_card_hour", value: o.Price, unit: o.Unit, currency: o.Currency, choice: o.Platform},
				{asked: "which", value: o.Price, unit: o.Unit, currency: o.Currency, choice: o.Platform}}, nil, "money_total"
		}
		if res.PerMonth > 0 { // a monthly plan asked for: its price per card-month first
			return []typedFigure{{asked: "money_monthly", value: res.PerMonth, unit: "card_month", currency: o.Currency, choice: o.Platform},
				{asked: "price_per_card_hour", value: o.Price, unit: o.Unit, currency: o.Currency, choice: o.Platform},
				{asked: "which", value: o.Price, unit: o.Unit, currency: o.Currency, choice: o.Platform}}, nil, "money_monthly"
		}
		if best, ok := cheapestCard(res); ok {
			// "B200 vs H200, which is cheaper?": the card, at its headline price
			return []typedFigure{{asked: "price_per_card_hour", value: o.Price, unit: o.Unit, currency: o.Currency, choice: o.Platform},
				{asked: "which", value: best.Price, unit: best.Unit, currency: best.Currency, choice: best.GPU}}, nil, "price_per_card_hour"
		}
		return []typedFigure{{asked: "price_per_card_hour", value: o.Price, unit: o.Unit, currency: o.Currency, choice: o.Platform},
			{asked: "which", value: o.Price, unit: o.Unit, currency: o.Currency, choice: o.Platform}}, nil, "price_per_card_hour"
	case advisor.Comparison:
		// the most compute for the money
		best := -1
		for i, r := range res.Rows {
			if r.PerTFLOPHour > 0 && (best < 0 || r.PerTFLOPHour < res.Rows[best].PerTFLOPHour) {
				best = i
			}
		}
		if best < 0 {
			return nil, nil, ""
		}
		r := res.Rows[best]
		return []typedFigure{{asked: "which", value: r.PriceLow, unit: "card_hour", currency: string(res.Inputs.Currency), choice: r.GPU},
			{asked: "price_per_card_hour", value: r.PriceLow, unit: "card_hour", currency: string(res.Inputs.Currency), choice: r.GPU}}, nil, "which"
	case advisor.Recommendation:
		for _, rk := range res.Rankings {
			if len(rk.Rows) > 0 {
				r := rk.Rows[0]
				return []typedFigure{{asked: "which", value: r.Price, unit: "card_hour", currency: string(r.Currency), choice: r.GPU},
					{asked: "price_per_card_hour", value: r.Price, unit: "card_hour", currency: string(r.Currency), choice: r.GPU}}, nil, "which"
			}
		}
		return nil, nil, ""
	case advisor.ImageResult:
		if o := res.Options; res.Best == nil && len(o) > 0 && o[0].Fits && o[0].TrainHours > 0 {
			// a fine-tune: how long its steps take on the card cheapest to
			// finish, and what that costs (the headline's figures)
			cur := string(res.Currency)
			return []typedFigure{{asked: "hours", value: o[0].TrainHours, unit: "h", choice: o[0].GPU},
				{asked: "money_total", value: o[0].TrainCost, currency: cur, choice: o[0].GPU},
				{asked: "memory_gb", value: res.MemoryGB, unit: "GB"},
				{asked: "price_per_card_hour", value: o[0].Hourly, unit: "card_hour", currency: cur}}, nil, "hours"
		}
		if res.Best == nil {
			return []typedFigure{{asked: "memory_gb", value: res.MemoryGB, unit: "GB"}}, nil, "memory_gb"
		}
		cur := string(res.Currency)
		figs := []typedFigure{
			{asked: "money_per_image", value: res.Best.PerThousand / 1000, unit: "image", currency: cur, choice: res.Best.GPU},
			{asked: "images_per_hour", value: res.Best.ImagesPerS * 3600, unit: "images/h", choice: res.Best.GPU},
			{asked: "memory_gb", value: res.MemoryGB, unit: "GB"},
			{asked: "price_per_card_hour", value: res.Best.Hourly, unit: "card_hour", currency: cur},
		}
		if res.Total > 0 {
			figs = append([]typedFigure{{asked: "money_total", value: res.Total, currency: cur}}, figs...)
			if res.TotalHours > 0 {
				// the images' time on one card (the headline's card-hours)
				figs = append(figs, typedFigure{asked: "gpu_hours", value: res.TotalHours, unit: "GPU-h", choice: res.Best.GPU},
					typedFigure{asked: "hours", value: res.TotalHours, unit: "h on one card", choice: res.Best.GPU})
			}
			return figs, nil, "money_total"
		}
		return figs, nil, "money_per_image"
	case CommitView:
		r := res.CommitResult
		cur := string(r.Currency)
		// the saving over the period the question asked: a month, a year, the term
		sv, per := r.Saving, "term"
		switch res.Per {
		case "month":
			sv, per = r.SavingMonthly, "month"
		case "year":
			sv, per = r.SavingYearly, "year"
		}
		figs := []typedFigure{
			{asked: "break_even_util", value: r.BreakevenUtilization, unit: "share"},
			{asked: "break_even_hours", value: r.BreakevenHoursPerMonth, unit: "h/month"},
			{asked: "saving", value: sv, unit: per, currency: cur, choice: r.Cheaper},
			{asked: "which", value: sv, unit: per, currency: cur, choice: r.Cheaper},
			{asked: "money_total", value: math.Min(r.OnDemandCost, r.CommittedCost), unit: "term", currency: cur, choice: r.Cheaper},
		}
		if months := r.TermHours / knowledge.HoursPerMonth; months > 0 {
			// the committed bill a month: every hour of the term is paid
			figs = append(figs, typedFigure{asked: "money_monthly", value: r.CommittedCost / months, unit: "month", currency: cur, choice: "commit"})
		}
		figs = append(figs, typedFigure{asked: "price_per_card_hour", value: r.Chosen.Committed, unit: "card_hour", currency: cur, choice: r.Chosen.Provider})
		if r.Chosen.Provider == "given" && res.Asked != "" {
			return figs, verdict(r.Saving > 0), res.Asked // both rates theirs: what they asked leads (commit.go)
		}
		if r.Inputs.Utilization > 0 || r.Inputs.HoursPerMonth > 0 {
			return figs, verdict(r.Saving > 0), "which" // their usage is known: the choice at it leads
		}
		return figs, verdict(r.Saving > 0), "break_even_util"
	case CommitGap: // no sourced term price: on demand over the term, no verdict (commit.go)
		cur := string(res.Currency)
		return []typedFigure{
			{asked: "money_total", value: res.TermCost, unit: "term", currency: cur, choice: "on_demand"},
			{asked: "price_per_card_hour", value: res.OnDemand.Low, unit: "card_hour", currency: cur, choice: res.OnDemand.Platform},
		}, nil, "money_total"
	case APIView:
		r := res.APIResult
		cur := string(r.Currency)
		figs := []typedFigure{{asked: "which", value: r.SelfHostMonthly, unit: "month", currency: cur, choice: r.Cheaper}}
		if len(r.Quotes) > 0 {
			q := r.Quotes[0]
			figs = append(figs, typedFigure{asked: "saving", value: r.SavingMonthly, unit: "month", currency: cur, choice: r.Cheaper},
				typedFigure{asked: "money_monthly", value: math.Min(r.SelfHostMonthly, q.Monthly), unit: "month", currency: cur, choice: r.Cheaper},
				typedFigure{asked: "money_per_m_tokens", value: q.Blended, unit: "M tokens", currency: cur, choice: q.Provider})
		}
		if res.SelfHost.Plan != nil {
			figs = append(figs, typedFigure{asked: "cards", value: float64(res.SelfHost.Plan.Cards), unit: "cards", choice: res.SelfHost.GPU})
		}
		return figs, verdict(r.Cheaper == cmp.Or(res.Subject, "self_host")), "which" // the side the yes/no asks about (api.go)
	case ConvertView: // a figure in the other currency (convert_render.go)
		return convertFigures(res)
	case ExportView:
		if len(res.Cards) == 0 {
			return nil, nil, ""
		}
		c := res.Cards[0]
		return []typedFigure{{asked: "export_status", value: 0, unit: c.Status, choice: c.GPU}}, verdict(c.Status == "allowed"), "export_status"
	case OptionsAnswer:
		var figs []typedFigure
		if len(res.Rows) > 0 {
			best := res.Rows[0]
			cur := res.Currency
			if !strings.HasPrefix(res.Asked, "money") {
				cur = "" // ranked by GPU-hours or wall-clock
			}
			figs = append(figs, typedFigure{asked: "which", value: best.Value, unit: res.Unit, currency: cur, choice: best.GPU})
			figs = append(figs, typedFigure{asked: res.Asked, value: best.Value, unit: res.Unit, currency: cur, choice: best.GPU})
			if best.Result.TokensPerS > 0 {
				figs = append(figs, typedFigure{asked: "tokens_per_s", value: best.Result.TokensPerS, unit: "tokens/s per replica", choice: best.GPU})
			}
			figs = append(figs, typedFigure{asked: "cards", value: float64(best.Result.GPUs), unit: "cards", choice: best.GPU})
			if p := best.Result.Plan; p != nil {
				figs[len(figs)-1].value = float64(p.Cards)
				// the headline states the month and a million tokens of the plan
				figs = append(figs, typedFigure{asked: "money_monthly", value: p.MonthlyOnDemand, unit: "month", currency: res.Currency, choice: best.GPU},
					typedFigure{asked: "money_per_m_tokens", value: p.PerMTokens, unit: "M tokens", currency: res.Currency, choice: best.GPU})
			} else if res.Asked == "tokens_per_s" {
				// ranked by speed: the headline states its million tokens' price too
				figs = append(figs, typedFigure{asked: "money_per_m_tokens", value: best.Result.PerMTokens, unit: "M tokens", currency: res.Currency, choice: best.GPU})
			} else if best.Result.Inputs.Workload.Method != advisor.Inference {
				figs = append(figs, typedFigure{asked: "hours", value: best.Result.WallHours, unit: "h", choice: best.GPU},
					typedFigure{asked: "money_total", value: best.Result.Total, currency: res.Currency, choice: best.GPU},
					typedFigure{asked: "gpu_hours", value: best.Result.GPUHours, unit: "GPU-h", choice: best.GPU})
			}
			if best.Platform != "" {
				figs[0].choice = best.Platform
			}
			if bc := best.Result.BudgetCheck; bc != nil {
				return figs, verdict(bc.WithinBudget), "which"
			}
		}
		return figs, nil, "which"
	}
	return nil, nil, ""
}

// costFigures are a cost result's figures: a serving plan's cards and
// monthly bill, a deadline's cluster, a job's money and time.
func costFigures(res advisor.CostResult) ([]typedFigure, *string, string) {
	cur := string(res.Currency)
	var figs []typedFigure
	var v *string
	primary := "money_total"
	if res.WithinBudget != nil {
		v = verdict(*res.WithinBudget)
	}
	switch {
	case res.Plan != nil:
		primary = "cards"
		figs = append(figs,
			typedFigure{asked: "cards", value: float64(res.Plan.Cards), unit: "cards", choice: res.GPU},
			typedFigure{asked: "money_monthly", value: res.Plan.MonthlyOnDemand, unit: "month", currency: cur},
			typedFigure{asked: "money_per_m_tokens", value: res.Plan.PerMTokens, unit: "M tokens", currency: cur})
		if res.Serving != nil {
			figs = append(figs, typedFigure{asked: "ttft_ms", value: res.Serving.TTFTms, unit: "ms"},
				typedFigure{asked: "tokens_per_s", value: res.Serving.PerSequenceTPS, unit: "tokens/s per user"})
		}
	case res.Deadline != nil && res.Inputs.GPUs > 0:
		// the cards were given: does the job finish on them in time?
		primary = "hours"
		figs = append(figs, typedFigure{asked: "hours", value: res.WallHours, unit: "h"},
			typedFigure{asked: "cards", value: float64(res.Deadline.Cards), unit: "cards", choice: res.GPU})
		if v == nil {
			v = verdict(res.WallHours <= res.Deadline.Days*24)
		}
	case res.Deadline != nil:
		primary = "cards"
		figs = append(figs,
			typedFigure{asked: "cards", value: float64(res.Deadline.Cards), unit: "cards", choice: res.GPU},
			typedFigure{asked: "hours", value: res.Deadline.WallHours, unit: "h"})
		if v == nil {
			v = verdict(res.Deadline.Meets)
		}
	}
	if res.PerMTokens > 0 && res.Plan == nil {
		primary = "money_per_m_tokens"
		figs = append(figs, typedFigure{asked: "money_per_m_tokens", value: res.PerMTokens, unit: "M tokens", currency: cur})
	}
	figs = append(figs,
		typedFigure{asked: "money_total", value: res.Total, currency: cur},
		typedFigure{asked: "hours", value: res.WallHours, unit: "h"},
		typedFigure{asked: "gpu_hours", value: res.GPUHours, unit: "GPU-h"},
		typedFigure{asked: "cards", value: float64(res.GPUs), unit: "cards", choice: res.GPU},
		typedFigure{asked: "price_per_card_hour", value: res.Hourly, unit: "card_hour", currency: cur})
	if res.Inputs.GPU == "" && res.GPU != "" {
		// no card named: the engine picked the cheapest that holds it — the
		// answer to "which card?"
		w := typedFigure{asked: "which", value: res.Total, currency: cur, choice: res.GPU}
		if res.Plan != nil {
			w.value, w.unit = res.Plan.MonthlyOnDemand, "month"
		}
		figs = append(figs, w)
	}
	if res.TokensPerS > 0 {
		figs = append(figs, typedFigure{asked: "tokens_per_s", value: res.TokensPerS, unit: "tokens/s per replica"})
	}
	if res.Serving != nil {
		figs = append(figs, typedFigure{asked: "ttft_ms", value: res.Serving.TTFTms, unit: "ms"},
			typedFigure{asked: "concurrency", value: float64(res.Serving.Concurrency), unit: "sequences per replica"})
	}
	return figs, v, primary
}

// reAsksRestricted asks whether a card is restricted (the yes/no is then
// "restricted?", not "may we buy?").
var reAsksRestricted = regexp.MustCompile(`受不受|是否受|管制吗|被禁|禁了吗|被卡|受限吗|restricted|banned|sanctioned|under export control`)

// reAsksBuyable asks whether a card may be bought: that question's yes/no
// wins over a remark that it is restricted ("还能买到吗？听说又被卡了").
var reAsksBuyable = regexp.MustCompile(`能买|买到|买得到|可以买|can (?:we|i) (?:still )?buy|still buy|allowed to buy|legal to buy`)

func isExport(r any) bool { _, ok := r.(ExportView); return ok }

// reAsksDearer asks whether an option costs more, not whether it saves:
// the choice's yes/no turns round.
var reAsksDearer = regexp.MustCompile(`更贵|反而贵|贵一些吗|亏了|亏不亏|是不是亏|会亏|吃亏|more expensive|costlier|pricier|cost (?:us )?more\b|a loss\b|losing money|lose money`)

// reAsksExpensive asks whether a quote is dear, not whether it is fair.
var reAsksExpensive = regexp.MustCompile(`贵不贵|贵吗|偏贵|太贵|贵了|expensive|overpriced|pricey|too (?:much|high)|rip[- ]?off`)

// reAsksOverBudget asks whether a job goes over its budget: the yes/no
// turns round ("超不超200万预算" → yes when over).
var reAsksOverBudget = regexp.MustCompile(`超不超|会不会超|超了吗|超预算|超支|over budget|go over|exceed`)

// reAsksFair asks whether a quote is fair.
var reAsksFair = regexp.MustCompile(`合理|公道|正常|划算|值不值|便宜吗|fair|reasonable|good (?:deal|price)|decent|normal|ok\b|okay`)

// isChoice reports whether a result's verdict is "the option asked about
// is the cheaper one" (self-host vs API, buy vs rent, commit vs on demand).
func isChoice(r any) bool {
	switch r.(type) {
	case APIView, BuyView, advisor.BuyResult, CommitView, advisor.MonthlyResult:
		return true
	}
	return false
}

// companions are the figures a result's headline states beside the one
// asked for, so the typed answer carries them too.
func companions(r any) []string {
	switch res := r.(type) {
	case FitResult:
		if res.Verdict != nil && res.Verdict.Cards > 0 {
			return []string{"cards"} // "fits on 8× H200?": the headline says how many cards it takes
		}
	case advisor.CostResult:
		if res.Plan != nil {
			return []string{"cards", "money_monthly"}
		}
	case SLOAnswer:
		if res.Priced {
			return []string{"cards", "money_monthly"}
		}
	case advisor.MonthlyResult:
		if res.Cheaper != "" {
			return []string{"saving"}
		}
	case CommitView:
		return []string{"saving"}
	case OptionsAnswer:
		if len(res.Rows) > 0 {
			if r := res.Rows[0].Result; r.Plan != nil {
				return []string{"cards", "money_monthly", "money_per_m_tokens"} // the choice's headline states all three
			} else if r.Inputs.Workload.Method != advisor.Inference {
				return []string{"cards", "hours"}
			}
		}
	case PriceView:
		if len(res.GPUs) > 0 {
			if c, ok := res.compared(res.GPUs[0]); ok && c.Cheaper != "" && c.Hours > 0 {
				return []string{"money_total", "saving"} // the headline totals the rental on each platform, and the difference
			}
		}
		if res.Rental != nil && res.PerMonth == 0 && !res.Affordable {
			return []string{"money_total"} // "8 H100s for 10 days": the headline totals the rental
		}
	case APIView:
		if len(res.Quotes) > 0 {
			return []string{"money_monthly", "saving"} // the headline weighs the two months' bills and says the difference
		}
	case BuyView:
		if r := res.BuyResult; r.Cheaper != "" && !r.NeverPays && r.BreakevenUtilization <= 1 && !r.RentPlan {
			return []string{"saving"} // the headline says what the cheaper way saves a year
		}
	}
	return nil
}

// apiPerMCost is a cost result weighed against the APIs per million
// tokens: its figures and the API's.
type apiPerMCost struct {
	advisor.CostResult
	cmp advisor.APIPerMResult
}
