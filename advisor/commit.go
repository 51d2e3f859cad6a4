package advisor

import (
	"fmt"
	"math"
	"sort"

	"github.com/gpubot/gpubot/knowledge"
)

const commitHint = "/gpu buy h100 cards=16 util=70% 1y reserved"

// CommitInput is a commitment question: reserved instances, a savings plan,
// committed use, 包年 or 包月 against on-demand, for Cards cards.
type CommitInput struct {
	GPU           string             `json:"gpu"`
	Cards         int                `json:"cards"`           // default 1
	Term          string             `json:"term"`            // 1y, 3y or monthly; default 1y
	Utilization   float64            `json:"utilization"`     // share of the term the cards work; 0 = from HoursPerMonth, else 100 %
	HoursPerMonth float64            `json:"hours_per_month"` // stated usage per card
	Currency      knowledge.Currency `json:"currency"`
	FX            float64            `json:"fx"`
	// OnDemand (per card-hour) and Committed (per card-month of the term)
	// are the user's own prices; either replaces the sourced side.
	OnDemand  Money `json:"on_demand,omitzero"`
	Committed Money `json:"committed,omitzero"`
	// CommittedHourly is the user's committed rate per card-hour ("1-yr
	// reserved at $1.85/hr"), paid for every hour of the term; it wins
	// over Committed.
	CommittedHourly Money `json:"committed_hourly,omitzero"`
	// OnDemandMonthly is what on demand costs the Cards a month at the
	// stated use ("$38k/mo on 12 A100s"): the on-demand rate is this ÷
	// cards ÷ hours a card works a month (730 at full use). OnDemand wins.
	OnDemandMonthly Money `json:"on_demand_monthly,omitzero"`
	// Discount is the commitment's share off on demand (0.35 for "35%
	// off"): the committed rate is on demand × (1 − Discount) when no
	// committed price is given.
	Discount float64 `json:"discount,omitempty"`
	// Reserved and CN are the sourced rows (knowledge Procurement): cloud
	// terms, and Chinese platforms' 包月 beside their on-demand price.
	Reserved  []knowledge.ReservedPrice `json:"-"`
	CN        []knowledge.CNCloudPrice  `json:"-"`
	Defaulted []string                  `json:"defaulted"`
	// PreferCN puts Chinese platforms' pairs first (a team in China).
	PreferCN bool `json:"prefer_cn,omitempty"`
	// Platform puts the named platform's pairs first ("32 H100s on AWS").
	Platform string `json:"platform,omitempty"`
}

// CommitPair is one provider's on-demand and committed price for the same
// instance, per card-hour in the answer's currency.
type CommitPair struct {
	Provider  string  `json:"provider"`
	CN        bool    `json:"cn,omitempty"` // a Chinese platform's 包月 row
	Instance  string  `json:"instance"`
	Term      string  `json:"term"`
	OnDemand  float64 `json:"on_demand"` // per card-hour, low end
	Committed float64 `json:"committed"` // per card-hour over every hour of the term
	// The high ends where a row is a range (an aggregator's "$1.50-3.50"):
	// the pair is worked at the low ends and shown as ranges.
	OnDemandHigh  float64              `json:"on_demand_high,omitempty"`
	CommittedHigh float64              `json:"committed_high,omitempty"`
	Discount      float64              `json:"discount"` // 1 − committed ÷ on-demand
	Breakeven     float64              `json:"breakeven_utilization"`
	Confidence    knowledge.Confidence `json:"confidence"`
	Date          string               `json:"date"`
	Source        string               `json:"source"`
	ODSource      string               `json:"on_demand_source"`
}

// CommitResult compares a commitment with on-demand for the same use.
type CommitResult struct {
	Inputs      CommitInput        `json:"inputs"`
	GPU         string             `json:"gpu"`
	Currency    knowledge.Currency `json:"currency"`
	Chosen      CommitPair         `json:"chosen"`
	Pairs       []CommitPair       `json:"pairs"` // every provider priced, chosen first
	TermHours   float64            `json:"term_hours"`
	Utilization float64            `json:"utilization"`
	// Costs over the whole term for all cards.
	OnDemandCost  float64 `json:"on_demand_cost"`
	CommittedCost float64 `json:"committed_cost"`
	Saving        float64 `json:"saving"` // on-demand − committed (negative: the commitment costs more)
	Cheaper       string  `json:"cheaper"`
	// BreakevenUtilization is the share of the term the cards must work for
	// the commitment to cost no more than on-demand.
	BreakevenUtilization float64 `json:"breakeven_utilization"`
	// BreakevenHoursPerMonth is the same break-even as hours a card must
	// work each month (utilisation × 730 h): "how many hours before the
	// monthly deal wins".
	BreakevenHoursPerMonth float64 `json:"breakeven_hours_per_month"`
	// CommittedMonthly is the commitment's bill a month for all the
	// cards: committed over the term ÷ the term's 730-hour months.
	CommittedMonthly float64 `json:"committed_monthly"`
	// OnDemandMonthly is on demand's bill a month for the same cards at
	// the utilisation: on demand over the term ÷ the term's months.
	OnDemandMonthly float64 `json:"on_demand_monthly"`
	// SavingMonthly and SavingYearly are Saving a 730-hour month and an
	// 8,760-hour year of the term (negative: the commitment costs more).
	SavingMonthly float64 `json:"saving_monthly"`
	SavingYearly  float64 `json:"saving_yearly"`
	Lines         []Line  `json:"lines"`
	Assumptions   []Text  `json:"assumptions"`
}

var termHours = map[string]float64{"1y": hoursPerYear, "3y": 3 * hoursPerYear, "monthly": knowledge.HoursPerMonth}

// onDemandGiven and committedGiven report whether the user gave that side
// of the commitment themselves.
func (in CommitInput) onDemandGiven() bool { return in.OnDemand.Given() || in.OnDemandMonthly.Given() }

func (in CommitInput) committedGiven() bool {
	return in.Committed.Given() || in.CommittedHourly.Given() || in.Discount > 0
}

// Commit answers reserved vs on-demand. Per card-hour, with the committed
// price paid for every hour of the term and on-demand only for hours used:
//
//	break-even utilisation = committed ÷ on-demand
//	on-demand cost = cards × term hours × utilisation × on-demand
//	committed cost = cards × term hours × committed
//
// The pair used is the best-sourced one (confidence, then newest, then
// cheapest commitment); every other pair found is listed. Chinese
// platforms' 包月 answers monthly and 包年 questions (no Chinese platform in
// the data publishes a yearly price: 包年 is priced as 12 × 包月).
func Commit(in CommitInput) (CommitResult, error) {
	res := CommitResult{Currency: in.Currency}
	switch {
	case in.GPU == "" && !(in.onDemandGiven() && in.committedGiven()):
		// both rates the user's own need no card: they are the whole sum
		return res, inputErr("gpu", "name the card to commit to", commitHint)
	case math.IsNaN(in.Discount) || in.Discount < 0 || in.Discount >= 1:
		return res, inputErr("discount", fmt.Sprintf("a discount is between 0 and 100%%, got %s", num(in.Discount)), commitHint)
	case in.Cards < 0 || in.Cards > MaxGPUs:
		return res, inputErr("cards", fmt.Sprintf("cards must be between 1 and %d, got %d", MaxGPUs, in.Cards), commitHint)
	case math.IsNaN(in.Utilization) || in.Utilization < 0 || in.Utilization > 1:
		return res, inputErr("utilization", fmt.Sprintf("utilisation is between 0 and 100%%, got %s", num(in.Utilization)), commitHint)
	case math.IsNaN(in.HoursPerMonth) || in.HoursPerMonth < 0 || in.HoursPerMonth > 744:
		return res, inputErr("hours_per_month", fmt.Sprintf("hours per month must be between 0 and 744, got %s", num(in.HoursPerMonth)), commitHint)
	}
	if in.Term == "" {
		in.Term = "1y"
		in.Defaulted = append(in.Defaulted, "term")
	}
	if _, ok := termHours[in.Term]; !ok {
		return res, inputErr("term", fmt.Sprintf("term is 1y, 3y or monthly, got %q", in.Term), commitHint)
	}
	if in.Cards == 0 {
		in.Cards = 1
		in.Defaulted = append(in.Defaulted, "cards")
	}
	if in.Currency == "" {
		in.Currency = knowledge.USD
	}
	if in.FX <= 0 {
		in.FX = DefaultCNYPerUSD
	}
	res.Currency = in.Currency
	u := in.Utilization
	switch {
	case u == 0 && in.HoursPerMonth > 0:
		u = math.Min(1, in.HoursPerMonth/knowledge.HoursPerMonth)
	case u == 0:
		u = 1
		in.Defaulted = append(in.Defaulted, "utilization")
	}
	res.Utilization = round(u, 4)
	res.GPU = in.GPU

	for _, mm := range []struct {
		f string
		m Money
	}{{"price", in.OnDemand}, {"monthly", in.Committed}, {"committed", in.CommittedHourly}, {"on_demand_monthly", in.OnDemandMonthly}} {
		if err := checkMoney(mm.f, mm.m, commitHint); err != nil {
			return res, err
		}
	}
	res.Pairs = commitPairs(in)
	if in.onDemandGiven() || in.committedGiven() {
		p, err := givenPair(in, res.Pairs)
		if err != nil {
			return res, err
		}
		res.Pairs = append([]CommitPair{p}, res.Pairs...)
	}
	if len(res.Pairs) == 0 {
		return res, inputErrZH("gpu", fmt.Sprintf("no sourced on-demand and %s price pair is known for %s; give both: price= (on-demand per card-hour) and monthly= (committed per card-month)", termName(in.Term), in.GPU),
			fmt.Sprintf("数据里没有 %s 同一平台的按需价与%s价；请两个都给出：price=（按需每卡每小时）和 monthly=（承诺价每卡每月）", in.GPU, map[string]string{"1y": "包年", "3y": "3 年承诺", "monthly": "包月"}[in.Term]), commitHint+" price=26 monthly=12000")
	}
	c := res.Pairs[0]
	res.Chosen = c
	res.TermHours = termHours[in.Term]
	if in.Term == "1y" && c.Term == "monthly" {
		res.Assumptions = append(res.Assumptions, txt(
			"no yearly price is published by this platform: 包年 priced as 12 × its monthly plan (包月); ask for a yearly discount",
			"该平台没有公开包年价：按 12 个月包月价计算；包年折扣请向平台询价"))
	}
	n := float64(in.Cards)
	res.OnDemandCost = Round2(n * res.TermHours * u * c.OnDemand)
	res.CommittedCost = Round2(n * res.TermHours * c.Committed)
	res.Saving = Round2(res.OnDemandCost - res.CommittedCost)
	res.BreakevenUtilization = c.Breakeven
	res.BreakevenHoursPerMonth = round(c.Breakeven*knowledge.HoursPerMonth, 2)
	res.CommittedMonthly = Round2(res.CommittedCost / (res.TermHours / knowledge.HoursPerMonth))
	res.OnDemandMonthly = Round2(res.OnDemandCost / (res.TermHours / knowledge.HoursPerMonth))
	// the saving a month and a year of the term: the term's saving over
	// its 730-hour months and 8,760-hour years
	res.SavingMonthly = Round2(res.Saving / (res.TermHours / knowledge.HoursPerMonth))
	res.SavingYearly = Round2(res.Saving / (res.TermHours / hoursPerYear))
	res.Cheaper = "on_demand"
	if res.Saving > 0 {
		res.Cheaper = "commit"
	}
	cur := in.Currency
	res.Lines = []Line{
		{Key: "on_demand", Label: txt("on-demand per card-hour", "按需每卡时"), Value: round(c.OnDemand, 4), Unit: string(cur), How: c.ODSource},
		{Key: "committed", Label: txt("committed per card-hour", "承诺价每卡时"), Value: round(c.Committed, 4), Unit: string(cur), How: c.Source},
		{Key: "discount", Label: txt("discount vs on-demand", "相对按需的折扣"), Value: c.Discount, Unit: "",
			How: fmt.Sprintf("1 − %s ÷ %s", money(round(c.Committed, 4), cur), money(round(c.OnDemand, 4), cur))},
		{Key: "breakeven_utilization", Label: txt("break-even utilisation", "打平利用率"), Value: c.Breakeven, Unit: "",
			How: fmt.Sprintf("%s ÷ %s (the commitment is paid for every hour of the term)", money(round(c.Committed, 4), cur), money(round(c.OnDemand, 4), cur))},
		{Key: "breakeven_hours_per_month", Label: txt("break-even hours a card-month", "每卡每月打平小时数"), Value: res.BreakevenHoursPerMonth, Unit: "h",
			How: fmt.Sprintf("%s × %s h a month", num(c.Breakeven), num(knowledge.HoursPerMonth))},
		{Key: "on_demand_cost", Label: txt("on-demand over the term", "整个期限按需"), Value: res.OnDemandCost, Unit: string(cur),
			How: fmt.Sprintf("%d cards × %s h × %s%% × %s", in.Cards, num(res.TermHours), num(round(u*100, 2)), money(round(c.OnDemand, 4), cur))},
		{Key: "committed_cost", Label: txt("committed over the term", "整个期限承诺"), Value: res.CommittedCost, Unit: string(cur),
			How: fmt.Sprintf("%d cards × %s h × %s", in.Cards, num(res.TermHours), money(round(c.Committed, 4), cur))},
		{Key: "saving", Label: txt("saving of committing", "承诺节省"), Value: res.Saving, Unit: string(cur), How: "on-demand − committed"},
		{Key: "saving_monthly", Label: txt("saving a month", "每月节省"), Value: res.SavingMonthly, Unit: string(cur),
			How: fmt.Sprintf("%s ÷ %s months of %s h", money(res.Saving, cur), num(res.TermHours/knowledge.HoursPerMonth), num(knowledge.HoursPerMonth))},
		{Key: "saving_yearly", Label: txt("saving a year", "每年节省"), Value: res.SavingYearly, Unit: string(cur),
			How: fmt.Sprintf("%s ÷ %s years of %s h", money(res.Saving, cur), num(res.TermHours/hoursPerYear), num(hoursPerYear))},
	}
	if c.Provider == "given" {
		res.Assumptions = append(res.Assumptions, txt(
			"the rates given: the committed rate is paid for every hour of the term, on demand only for the hours used",
			"按给出的价格：承诺价在期限内每小时都计费，按需只按实际使用小时计费"))
	} else {
		res.Assumptions = append(res.Assumptions, txt(
			fmt.Sprintf("prices are sourced rows (%s, confidence %s), not live quotes: commitments are negotiated; confirm the provider's current terms (payment option, region)", c.Date, c.Confidence),
			fmt.Sprintf("价格来自有出处的记录（%s，可信度 %s），不是实时报价：承诺折扣可谈，请向平台确认当前条款（付款方式、地域）", c.Date, c.Confidence)))
	}
	if in.Currency == knowledge.CNY || c.Provider == "" {
		res.Assumptions = append(res.Assumptions, txt(fmt.Sprintf("exchange rate ¥%s per $ where a row is in the other currency", num(in.FX)), fmt.Sprintf("汇率按 ¥%s/$ 换算另一币种的记录", num(in.FX))))
	}
	res.Inputs = in
	return res, nil
}

func termName(t string) string {
	return map[string]string{"1y": "1-year", "3y": "3-year", "monthly": "monthly"}[t]
}

// commitPairs pairs on-demand and committed rows of the same provider and
// instance, best-sourced first.
func commitPairs(in CommitInput) []CommitPair {
	cur, fx := in.Currency, in.FX
	confRank := map[knowledge.Confidence]int{knowledge.High: 0, knowledge.Medium: 1, knowledge.Low: 2}
	type key struct{ p, i string }
	type side struct {
		lo   float64
		hi   float64
		conf knowledge.Confidence
		date string
		src  string
		cn   bool
	}
	od, cm := map[key]side{}, map[key]side{}
	put := func(m map[key]side, k key, s side) {
		if old, ok := m[k]; !ok || s.lo < old.lo {
			m[k] = s
		}
	}
	wantTerm := in.Term
	for _, r := range in.Reserved {
		if r.GPU != in.GPU {
			continue
		}
		lo, hi, ok := r.GPUHour()
		if !ok {
			continue
		}
		lo, hi = Convert(lo, r.Currency, cur, fx), Convert(hi, r.Currency, cur, fx)
		s := side{lo, hi, r.Confidence, r.Date, fmt.Sprintf("%s %s %s %s (%s, %s)", r.Provider, r.Instance, r.Term, priceText(r.Low, r.High, r.Currency, r.Unit), r.SourceTitle, r.Date), false}
		k := key{r.Provider, r.Instance}
		switch r.Term {
		case "on_demand":
			put(od, k, s)
		case wantTerm:
			put(cm, k, s)
		}
	}
	for _, r := range in.CN {
		if r.GPU != in.GPU || r.PlatformID == "" || r.Confidence == knowledge.Low {
			continue
		}
		n := float64(max(r.GPUs, 1))
		var lo, hi float64
		switch r.Unit {
		case "per_gpu_hour":
			lo, hi = r.Low, r.High
		case "per_instance_hour":
			lo, hi = r.Low/n, r.High/n
		case "per_month":
			lo, hi = r.Low/n/knowledge.HoursPerMonth, r.High/n/knowledge.HoursPerMonth
		default:
			continue
		}
		lo, hi = Convert(lo, r.Currency, cur, fx), Convert(hi, r.Currency, cur, fx)
		s := side{lo, hi, r.Confidence, r.Date, fmt.Sprintf("%s %d× %s %s %s (%s)", r.Platform, max(r.GPUs, 1), r.Card, r.Billing, priceText(r.Low, r.High, r.Currency, r.Unit), r.SourceTitle), true}
		k := key{r.Platform, fmt.Sprintf("%d× %s", max(r.GPUs, 1), r.Card)}
		switch {
		case r.Billing == "on_demand":
			put(od, k, s)
		case r.Billing == "monthly" && (wantTerm == "monthly" || wantTerm == "1y"):
			s.src += map[bool]string{true: "; 包年 = 12 × 包月", false: ""}[wantTerm == "1y"]
			put(cm, k, s)
		}
	}
	var out []CommitPair
	for k, c := range cm {
		o, ok := od[k]
		if !ok || o.lo <= 0 {
			continue
		}
		conf := c.conf
		if confRank[o.conf] > confRank[conf] {
			conf = o.conf
		}
		term := wantTerm
		if wantTerm == "1y" && c.cn {
			term = "monthly"
		}
		p := CommitPair{CN: c.cn, Provider: k.p, Instance: k.i, Term: term, OnDemand: o.lo, Committed: c.lo,
			Discount: round(1-c.lo/o.lo, 4), Breakeven: round(c.lo/o.lo, 4), Confidence: conf, Date: c.date, Source: c.src, ODSource: o.src}
		if o.hi > o.lo {
			p.OnDemandHigh = round(o.hi, 4)
		}
		if c.hi > c.lo {
			p.CommittedHigh = round(c.hi, 4)
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if in.Platform != "" {
			pa, pb := onPlatform(a, in.Platform), onPlatform(b, in.Platform)
			if pa != pb {
				return pa
			}
		}
		if in.PreferCN && a.CN != b.CN {
			return a.CN
		}
		if confRank[a.Confidence] != confRank[b.Confidence] {
			return confRank[a.Confidence] < confRank[b.Confidence]
		}
		da, db := (knowledge.Provenance{Date: a.Date}).Sortable(), (knowledge.Provenance{Date: b.Date}).Sortable()
		if da != db {
			return da > db
		}
		if a.Committed != b.Committed {
			return a.Committed < b.Committed
		}
		return a.Provider+a.Instance < b.Provider+b.Instance
	})
	return out
}

// OnPlatform reports whether a pair is the named platform's: a cloud's
// reserved row ("AWS") or a Chinese platform's own id.
func OnPlatform(p CommitPair, platform string) bool { return onPlatform(p, platform) }

func onPlatform(p CommitPair, platform string) bool {
	return p.Provider == platform || knowledge.ReservedPlatform(p.Provider) == platform
}

// priceText writes a sourced figure: "$88.49/instance-hour", "¥13748/month".
func priceText(lo, hi float64, c knowledge.Currency, unit string) string {
	s := money(lo, c)
	if hi != lo {
		s += "–" + num(hi)
	}
	return s + map[string]string{"per_gpu_hour": "/GPU-hour", "per_instance_hour": "/instance-hour", "per_month": "/month", "per_year": "/year"}[unit]
}

// givenPair is the pair the user's own prices make: a given side replaces
// the sourced one of the best-sourced pair; with no sourced pair both
// sides must be given.
func givenPair(in CommitInput, sourced []CommitPair) (CommitPair, error) {
	cur, fx := in.Currency, in.FX
	var p CommitPair
	if len(sourced) > 0 {
		p = sourced[0]
	}
	if in.OnDemand.Given() {
		c := in.OnDemand.Currency
		if c == "" {
			c = cur
		}
		p.OnDemand = Convert(in.OnDemand.Amount, c, cur, fx)
		p.ODSource = fmt.Sprintf("given: %s/card-hour", money(in.OnDemand.Amount, c))
	} else if in.OnDemandMonthly.Given() {
		c := in.OnDemandMonthly.Currency
		if c == "" {
			c = cur
		}
		// the month's on-demand bill over the card-hours it paid for: the
		// cards × the hours each works a month (730 at full use)
		hours := knowledge.HoursPerMonth
		switch {
		case in.Utilization > 0:
			hours = in.Utilization * knowledge.HoursPerMonth
		case in.HoursPerMonth > 0:
			hours = in.HoursPerMonth
		}
		n := float64(max(in.Cards, 1))
		p.OnDemand = Convert(in.OnDemandMonthly.Amount, c, cur, fx) / n / hours
		p.ODSource = fmt.Sprintf("given: %s a month on demand ÷ %s cards ÷ %s h", money(in.OnDemandMonthly.Amount, c), num(n), num(round(hours, 2)))
	}
	switch {
	case in.CommittedHourly.Given():
		c := in.CommittedHourly.Currency
		if c == "" {
			c = cur
		}
		p.Committed = Convert(in.CommittedHourly.Amount, c, cur, fx)
		p.Source = fmt.Sprintf("given: %s/card-hour, every hour of the term", money(in.CommittedHourly.Amount, c))
		p.Term = in.Term
	case in.Committed.Given():
		c := in.Committed.Currency
		if c == "" {
			c = cur
		}
		// Per card-month of the term ÷ 730 h: paid for every hour.
		p.Committed = Convert(in.Committed.Amount, c, cur, fx) / knowledge.HoursPerMonth
		p.Source = fmt.Sprintf("given: %s/card-month ÷ 730 h", money(in.Committed.Amount, c))
		p.Term = in.Term
	case in.Discount > 0 && p.OnDemand > 0:
		// "35% off on demand": the committed rate is what is left of it
		p.Committed = p.OnDemand * (1 - in.Discount)
		p.Source = fmt.Sprintf("given: %s%% off on demand, %s × %s", num(round(in.Discount*100, 2)), money(round(p.OnDemand, 4), cur), num(round(1-in.Discount, 4)))
		p.Term = in.Term
	}
	switch {
	case p.OnDemand <= 0:
		return p, inputErrZH("price", fmt.Sprintf("no sourced on-demand price is known for %s to set beside the committed one; give price= (on-demand per card-hour)", in.GPU),
			fmt.Sprintf("数据里没有 %s 的按需价可与承诺价对比；请用 price= 给出按需每卡每小时价格", in.GPU), commitHint+" price=26")
	case p.Committed <= 0:
		return p, inputErrZH("monthly", fmt.Sprintf("no sourced %s price is known for %s to set beside the on-demand one; give monthly= (committed per card-month)", termName(in.Term), in.GPU),
			fmt.Sprintf("数据里没有 %s 的%s价可与按需价对比；请用 monthly= 给出承诺价（每卡每月），或写明折扣（如“七折”）", in.GPU, map[string]string{"1y": "包年", "3y": "3 年承诺", "monthly": "包月"}[in.Term]), commitHint+" monthly=12000")
	}
	p.Provider, p.Instance, p.CN = "given", "", false
	if in.onDemandGiven() != in.committedGiven() && len(sourced) > 0 {
		p.Provider = "given + " + sourced[0].Provider
		p.Instance = sourced[0].Instance
	}
	p.Confidence, p.Date = knowledge.High, "given"
	p.Discount, p.Breakeven = round(1-p.Committed/p.OnDemand, 4), round(p.Committed/p.OnDemand, 4)
	return p, nil
}

// PlanTerm is a serving plan's cards on a commitment against the plan's
// own on-demand month (the figure its answer shows), the cards busy every
// hour as an always-on service is.
type PlanTerm struct {
	OnDemandMonthly  float64 `json:"on_demand_monthly"`
	CommittedMonthly float64 `json:"committed_monthly"`
	Difference       float64 `json:"difference"` // what the cheaper side saves a month
	Cheaper          string  `json:"cheaper"`    // commit or on_demand
}

// WeighPlanTerm is the plan's on-demand month against cr's month
// committed for the same cards: on demand − committed, either way.
func WeighPlanTerm(onDemandMonthly float64, cr CommitResult) PlanTerm {
	t := PlanTerm{OnDemandMonthly: Round2(onDemandMonthly), CommittedMonthly: cr.CommittedMonthly, Cheaper: "commit"}
	t.Difference = Round2(t.OnDemandMonthly - t.CommittedMonthly)
	if t.Difference < 0 {
		t.Difference, t.Cheaper = -t.Difference, "on_demand"
	}
	return t
}

// TermMonthly is cr's month committed against its own sheet's on-demand
// price for the same cards, every hour of a 730-hour month: one source
// and date on both sides.
func TermMonthly(cr CommitResult) PlanTerm {
	return WeighPlanTerm(cr.Chosen.OnDemand*knowledge.HoursPerMonth*float64(cr.Inputs.Cards), cr)
}

// TermRate is one provider's sourced rate for a card under one term
// (on_demand, 1y, 3y), per card-hour in the answer's currency: the row
// alone, not paired with an on-demand row of the same instance (Lambda's
// 1-year rate is for "reserved clusters", its on-demand rows for "8x H100
// SXM": a pair would never form, yet the 1-year rate is Lambda's).
type TermRate struct {
	Provider   string               `json:"provider"`
	Platform   string               `json:"platform,omitempty"` // platform id, "" when the bot has none
	Instance   string               `json:"instance"`
	Term       string               `json:"term"`
	Low        float64              `json:"low"` // per card-hour
	High       float64              `json:"high,omitempty"`
	Region     string               `json:"region"`
	Confidence knowledge.Confidence `json:"confidence"`
	Date       string               `json:"date"`
	Source     string               `json:"source"`
}

// SourcedTermRate is the best-sourced row for gpu under term on platform
// (a platform id such as "aws"; "" for any provider): highest confidence,
// then newest, then cheapest. A market index is no provider's rate and is
// taken only when no platform is asked. ok is false when no row prices it.
func SourcedTermRate(reserved []knowledge.ReservedPrice, gpu, term, platform string, cur knowledge.Currency, fx float64) (TermRate, bool) {
	confRank := map[knowledge.Confidence]int{knowledge.High: 0, knowledge.Medium: 1, knowledge.Low: 2}
	var best TermRate
	found := false
	for _, r := range reserved {
		if r.GPU != gpu || r.Term != term {
			continue
		}
		if platform != "" && r.Provider != platform && knowledge.ReservedPlatform(r.Provider) != platform {
			continue
		}
		lo, hi, ok := r.GPUHour()
		if !ok || lo <= 0 {
			continue
		}
		t := TermRate{Provider: r.Provider, Platform: knowledge.ReservedPlatform(r.Provider), Instance: r.Instance, Term: r.Term,
			Low: round(Convert(lo, r.Currency, cur, fx), 4), Region: r.Region, Confidence: r.Confidence, Date: r.Date,
			Source: fmt.Sprintf("%s %s %s %s (%s, %s)", r.Provider, r.Instance, r.Term, priceText(r.Low, r.High, r.Currency, r.Unit), r.SourceTitle, r.Date)}
		if hi > lo {
			t.High = round(Convert(hi, r.Currency, cur, fx), 4)
		}
		if !found {
			best, found = t, true
			continue
		}
		ca, cb := confRank[t.Confidence], confRank[best.Confidence]
		da, db := (knowledge.Provenance{Date: t.Date}).Sortable(), (knowledge.Provenance{Date: best.Date}).Sortable()
		if ca < cb || ca == cb && (da > db || da == db && t.Low < best.Low) {
			best = t
		}
	}
	return best, found
}

// TermAsk is one (platform, term) a question prices.
type TermAsk struct {
	Platform string `json:"platform"` // platform id; "" for any provider
	Term     string `json:"term"`     // on_demand, 1y, 3y
}

// TermCost is Cards × Hours at a sourced term rate, every hour paid:
// Total at the rate's low end, TotalHigh at its high end (0 when the row
// is one figure).
type TermCost struct {
	TermRate
	Cards     int     `json:"cards"`
	Hours     float64 `json:"hours"`
	Total     float64 `json:"total"`
	TotalHigh float64 `json:"total_high,omitempty"`
	Line      Line    `json:"line"`
}

// TermSheet prices the same cards for the same hours on each (platform,
// term) asked, from the sourced rows.
type TermSheet struct {
	Cards int     `json:"cards"`
	Hours float64 `json:"hours"` // 730 a month, 8,760 a year
	// Costs are in the order asked; Missing are the asks no row prices.
	Costs   []TermCost `json:"costs"`
	Missing []TermAsk  `json:"missing,omitempty"`
	// Order is Costs' indexes cheapest first (by the low end); Gap is the
	// second cheapest's Total less the cheapest's (0 with fewer than two).
	Order []int   `json:"order"`
	Gap   float64 `json:"gap"`
}

// PriceTerms prices cards × hours on every ask: for each, the sourced
// rate (SourcedTermRate) × cards × hours (730 h a month, 8,760 h a year:
// 24 × 365), the low and high ends of a ranged row.
func PriceTerms(reserved []knowledge.ReservedPrice, gpu string, asks []TermAsk, cards int, hours float64, cur knowledge.Currency, fx float64) TermSheet {
	cards = max(cards, 1)
	sh := TermSheet{Cards: cards, Hours: hours}
	n := float64(cards)
	for _, a := range asks {
		r, ok := SourcedTermRate(reserved, gpu, a.Term, a.Platform, cur, fx)
		if !ok {
			sh.Missing = append(sh.Missing, a)
			continue
		}
		c := TermCost{TermRate: r, Cards: cards, Hours: hours, Total: Round2(n * hours * r.Low)}
		how := fmt.Sprintf("%d cards × %s h × %s", cards, num(hours), money(r.Low, cur))
		if r.High > r.Low {
			c.TotalHigh = Round2(n * hours * r.High)
			how += "–" + num(r.High)
		}
		c.Line = Line{Key: a.Platform + "_" + a.Term, Label: txt(r.Provider+" "+r.Term, r.Provider+" "+r.Term), Value: c.Total, Unit: string(cur), How: how + " (" + r.Source + ")"}
		sh.Costs = append(sh.Costs, c)
	}
	for i := range sh.Costs {
		sh.Order = append(sh.Order, i)
	}
	sort.SliceStable(sh.Order, func(i, j int) bool { return sh.Costs[sh.Order[i]].Total < sh.Costs[sh.Order[j]].Total })
	if len(sh.Order) >= 2 {
		sh.Gap = Round2(sh.Costs[sh.Order[1]].Total - sh.Costs[sh.Order[0]].Total)
	}
	return sh
}
