package advisor

import (
	"fmt"
	"math"

	"github.com/gpubot/gpubot/knowledge"
)

// Rent-versus-buy defaults. Each states its source or assumption; every one
// can be overridden.
const (
	// DefaultYears is straight-line depreciation over three years, the
	// rental guide's worked example (and a common accounting life for
	// servers; the guide warns economic life can be shorter).
	DefaultYears = 3
	// DefaultPUE is the data-centre power usage effectiveness: facility
	// power ÷ IT power. Efficient modern halls run 1.2–1.3, the Uptime
	// Institute's global average is about 1.55; 1.4 is assumed.
	DefaultPUE = 1.4
	// DefaultOpsShare is operations per card per year as a share of the
	// purchase price: support contracts, spares, rack space and the
	// engineer time a small team spends on drivers, scheduling and repairs.
	// Annual upkeep is commonly budgeted at 15–20 % of hardware price;
	// 20 % is assumed because small teams also pay in engineer time.
	DefaultOpsShare = 0.20
	// DefaultRate is the cost of capital: what the money would earn or cost
	// elsewhere, 5 % a year (assumption; use your own hurdle rate).
	DefaultRate = 0.05
	// DefaultUtilization is the utilisation payback is shown at when none
	// is given: the 70 % the rental guide names as the point where buying
	// is worth evaluating (a threshold, not a measurement).
	DefaultUtilization = 0.70
	// RuleBuyUtilization is the rental guide's rule of thumb, shown beside
	// the computed break-even.
	RuleBuyUtilization = 0.70
	// machinePowerFactor is a whole server's draw over its cards' TDP
	// (see Buy).
	machinePowerFactor = 1.5
	// DefaultHomePUE is a desktop card's PUE: a card in the user's own PC
	// has no data-centre cooling or facility overhead, only its own draw.
	DefaultHomePUE = 1.0
	hoursPerYear   = 8760
	buyHint        = "/gpu buy h100 price=25000usd rent=2.5usd"
)

// DefaultElectricity is the electricity price per kWh by currency: ¥0.8,
// mid of Chinese commercial and industrial tariffs (¥0.6–1.0), and $0.12,
// about the US commercial average (EIA 2024: ≈$0.13; industrial ≈$0.08).
var DefaultElectricity = map[knowledge.Currency]float64{knowledge.CNY: 0.8, knowledge.USD: 0.12}

// DefaultHomeElectricity is the household price per kWh for a consumer
// card in the user's own PC: ¥0.6, about the Chinese residential tariff
// (¥0.5–0.6 first tier, higher tiers above), and $0.16, about the US
// residential average (EIA 2024: ≈$0.16–0.17).
var DefaultHomeElectricity = map[knowledge.Currency]float64{knowledge.CNY: 0.6, knowledge.USD: 0.16}

// seedPurchase are purchase prices the seed documents state: the rental
// guide's rent-vs-buy section puts a high-end training card at $25–30k and
// works its example with $25k for the H100. Other cards need price=.
var seedPurchase = map[string]struct {
	price Money
	high  float64
	src   string
}{
	"h100-sxm": {Money{25000, knowledge.USD}, 30000, "seed:rental-guide rent-vs-buy guide (break-even section)"},
}

// BuyInput is a rent-versus-buy question for one card. Zero values mean
// "use the default"; the pointer fields are nil for "not given", so that an
// explicit 0 (watts=0 ops=0 rate=0, the hardware-only case) is kept.
type BuyInput struct {
	GPU      string `json:"gpu"`
	Purchase Money  `json:"purchase"` // price=: purchase price per card
	Rent     Money  `json:"rent"`     // rent=: rent per card-hour; default the cheapest non-interruptible offer
	// RentMonthly is a monthly plan (包月) per card-month to weigh owning
	// against: a plan is paid for every hour of the month, used or not.
	RentMonthly Money       `json:"rent_monthly,omitzero"`
	Years       float64     `json:"years"`       // depreciation years; default 3
	Utilization float64     `json:"utilization"` // share of the year the card works, 0–1; default 0.7
	Watts       *float64    `json:"watts"`       // power per card; default the card's TDP
	PUE         *float64    `json:"pue"`         // default 1.4
	Power       *Money      `json:"power"`       // electricity per kWh; default ¥0.8 or $0.12
	Ops         *Money      `json:"ops"`         // operations per card per year; default 20 % of the purchase price
	Rate        *float64    `json:"rate"`        // cost of capital per year; default 5 %
	Where       OfferFilter `json:"where"`       // which offers may set the rent
	// Cards is the machine's card count when a whole server is bought
	// ("8x h800 price=2100000"): the price is then the machine's and is
	// divided by its cards, and power is the machine's.
	Cards int `json:"cards,omitempty"`
	// HoursPerMonth is the stated usage; utilisation is hours ÷ 730.
	HoursPerMonth float64 `json:"hours_per_month,omitempty"`
	// PerCardQuote reads a given price as per card even for a machine of
	// Cards cards ("8 cards at ¥13,000 each"); otherwise a price given with
	// Cards > 1 is the machine's total.
	PerCardQuote bool `json:"per_card_quote,omitempty"`
	// Condition is "new" (default) or "used": which market price prices a
	// card when no quote is given. Server asks for an 8-GPU server's price.
	Condition string `json:"condition,omitempty"`
	Server    bool   `json:"server,omitempty"`
	// Residual is the share of the purchase price the hardware is worth at
	// the end of Years (0–0.9); default 0, the conservative case.
	Residual *float64 `json:"residual"`
	// Hosted marks Ops as a stated hosting fee (colo, 托管): it is the whole
	// running cost, power and space included, so no default power is
	// added unless power= is given, and no cost of capital unless rate= is.
	Hosted bool `json:"hosted,omitempty"`
	// OwnPC says the card goes in the user's own computer ("自己买一张",
	// "for my PC"): one consumer card then runs at home (BuyResult.Home).
	OwnPC bool `json:"own_pc,omitempty"`
	// Purchases are the sourced market purchase prices (knowledge
	// Procurement) used when no price= is given.
	Purchases []knowledge.PurchasePrice `json:"-"`
	// Reserved are the sourced cloud prices (knowledge Procurement): a
	// cluster (more than ClusterCards cards) rents from their on-demand rows.
	Reserved []knowledge.ReservedPrice `json:"-"`

	Currency  knowledge.Currency `json:"currency"`
	FX        float64            `json:"fx"`
	Defaulted []string           `json:"defaulted"`
}

// BuyResult compares owning a card with renting it for the same hours. The
// first four Lines are the annual cost lines of owning (depreciation, power
// and cooling, operations, opportunity cost); AnnualLines returns them.
type BuyResult struct {
	Inputs   BuyInput           `json:"inputs"`
	GPU      string             `json:"gpu"`
	Currency knowledge.Currency `json:"currency"`
	// BreakevenUtilization is the share of the year (0–1) at which owning
	// costs the same as renting, all four lines counted. Above 1 owning
	// never pays; 0 with NeverPays when rent does not even cover power.
	BreakevenUtilization float64 `json:"breakeven_utilization"`
	// HardwareBreakeven counts depreciation alone, as the guide's table does.
	HardwareBreakeven     float64 `json:"hardware_breakeven_utilization"`
	PaybackMonths         float64 `json:"payback_months"` // at Utilization, all-in; 0 with NeverPays
	HardwarePaybackMonths float64 `json:"hardware_payback_months"`
	NeverPays             bool    `json:"never_pays"` // owning never recovers its price at this utilisation
	OwnPerYear            float64 `json:"own_per_year"`
	RentPerYear           float64 `json:"rent_per_year"`
	// SavingPerYear is what the cheaper of owning and renting saves a
	// year: |RentPerYear − OwnPerYear|.
	SavingPerYear float64 `json:"saving_per_year"`
	Cheaper       string  `json:"cheaper"` // buy or rent, at Utilization
	// PricePerCard is the purchase price per card (a machine's price ÷
	// its cards); Utilization the share of the year used in the figures.
	PricePerCard float64 `json:"price_per_card"`
	// MarketPurchase is the dated market price used when no quote was given.
	MarketPurchase *PurchaseQuote `json:"market_purchase,omitempty"`
	// RentPlan marks rent from a monthly plan: renting costs every hour
	// of the year (8760 h × rent), whatever the utilisation.
	RentPlan bool `json:"rent_plan,omitempty"`
	// ClusterRent is the cluster seller's rent used for a plan bigger than
	// one listing.
	ClusterRent *ClusterPrice `json:"cluster_rent,omitempty"`
	Utilization float64       `json:"utilization"`
	Cards       int           `json:"cards,omitempty"`
	// Home marks one consumer card in the user's own PC (OwnPC): household
	// power, no data-centre PUE and no operations cost by default.
	Home bool `json:"home,omitempty"`
	// PowerIncluded marks power as part of a stated hosting fee (Hosted).
	PowerIncluded bool `json:"power_included,omitempty"`
	// Whole is the purchase as a whole: every card bought, a month and a
	// year (payback.go).
	Whole        BuyWhole      `json:"whole"`
	MachineWatts float64       `json:"machine_watts,omitempty"`
	Lines        []Line        `json:"lines"`
	Assumptions  []Text        `json:"assumptions"`
	Sources      []PriceSource `json:"sources"`
}

// AnnualLines returns the four annual cost lines of owning.
func (r BuyResult) AnnualLines() []Line {
	if len(r.Lines) < 4 {
		return r.Lines
	}
	return r.Lines[:4]
}

// Buy compares buying a card with renting it. Per year at utilisation u
// (hours = u × 8760):
//
//	depreciation  = price ÷ years
//	power+cooling = watts ÷ 1000 × PUE × hours × electricity per kWh
//	operations    = ops per year
//	opportunity   = rate × price
//	rent          = hours × rent per hour
//
// Break-even utilisation = (depreciation + operations + opportunity) ÷
// (8760 × (rent − kW × PUE × electricity)); hardware-only break-even =
// depreciation ÷ (8760 × rent). Payback months = price ÷ the monthly saving
// of owning (rent avoided − power − operations − opportunity, per month).
func Buy(in BuyInput, m Market) (BuyResult, error) {
	in, p, err := in.normalize()
	if err != nil {
		return BuyResult{}, err
	}
	res := BuyResult{Currency: p.cur}
	var g knowledge.GPU
	if in.GPU != "" {
		if g, err = m.card(in.GPU, buyHint); err != nil {
			return res, err
		}
		in.GPU, res.GPU = g.ID, g.ID
	} else if !in.Purchase.Given() || !in.Rent.Given() || in.Watts == nil {
		return res, inputErr("gpu", "name the card (or give price=, rent= and watts=)", buyHint)
	}

	// Purchase price: the quote, else the dated market price, else the
	// rental guide's figure.
	var purchaseHow string
	quoted := in.Purchase.Given()
	if quoted {
		purchaseHow = "given" + p.convHow(in.Purchase.Currency)
		res.Sources = append(res.Sources, givenSource("purchase", in.Purchase, p.cur, " per card"))
	} else if q, ok := MarketPurchase(in.Purchases, g.ID, in.Condition, in.Server && in.Cards > 1, p.cur, p.fx); ok {
		res.MarketPurchase = &q
		in.Purchase = Money{q.PerCard(), p.cur}
		in.Defaulted = append(in.Defaulted, "purchase")
		purchaseHow = q.how("en")
		if q.Server {
			purchaseHow = fmt.Sprintf("%s ÷ 8 cards; %s", money(q.Price, p.cur), purchaseHow)
		}
		for _, r := range q.Rows {
			res.Sources = append(res.Sources, PriceSource{What: "purchase", GPU: g.ID, Figure: r.Figure + " (" + r.Item + ", " + r.Region + ")", ObservedAt: r.Date,
				Source: fmt.Sprintf("%s — %s (confidence %s)", r.Source, r.URL, r.Confidence)})
		}
		for _, r := range q.Rows {
			if r.Currency != p.cur {
				p.converted = true
			}
		}
	} else if sp, ok := seedPurchase[g.ID]; ok && in.Condition != "used" {
		in.Purchase = sp.price
		in.Defaulted = append(in.Defaulted, "purchase")
		purchaseHow = fmt.Sprintf("rental guide: %s–%s per card, low end%s", money(sp.price.Amount, sp.price.Currency), num(sp.high), p.convHow(sp.price.Currency))
		res.Sources = append(res.Sources, PriceSource{What: "purchase", GPU: g.ID, Figure: fmt.Sprintf("%s–%s per card", money(sp.price.Amount, sp.price.Currency), num(sp.high)), Source: sp.src})
	} else {
		cond := "new"
		if in.Condition == "used" {
			cond = "used"
		}
		return res, inputErrZH("price", fmt.Sprintf("no %s purchase price is known for %s; give price= (per card, or the machine's total with cards=)", cond, g.Name),
			fmt.Sprintf("数据里没有 %s 的%s购置价；请用 price= 给出（每卡价，或整机总价并写 cards=）", g.Name, map[string]string{"new": "新卡", "used": "二手"}[cond]), "/gpu buy 4090 price=16000 rent=1.8")
	}
	price := p.money(in.Purchase)
	if in.Cards > 1 {
		res.Cards = in.Cards
		if quoted && !in.PerCardQuote {
			machine := price
			price = machine / float64(in.Cards)
			purchaseHow = fmt.Sprintf("the machine's %s ÷ %d cards%s", money(Round2(machine), p.cur), in.Cards, p.convHow(in.Purchase.Currency))
		} else if quoted {
			purchaseHow = "given per card" + p.convHow(in.Purchase.Currency)
		}
	}
	res.PricePerCard = Round2(price)

	// Rent per card-hour.
	var rentHow string
	switch {
	case in.Rent.Given():
		rentHow = "given" + p.convHow(in.Rent.Currency)
		res.Sources = append(res.Sources, givenSource("rent", in.Rent, p.cur, "/card-hour"))
	case in.RentMonthly.Given():
		// A monthly plan: paid for all 730 h of every month.
		res.RentPlan = true
		in.Rent = Money{p.money(in.RentMonthly) / knowledge.HoursPerMonth, p.cur}
		rentHow = fmt.Sprintf("given monthly plan %s/card-month ÷ 730 h%s, paid for every hour of the month", money(in.RentMonthly.Amount, cur(in.RentMonthly.Currency, p.cur)), p.convHow(in.RentMonthly.Currency))
		res.Sources = append(res.Sources, givenSource("rent", in.RentMonthly, p.cur, "/card-month"))
	default:
		f := in.Where
		f.NoInterruptible = true
		f.NoMarketRange = !IsMarketRange(f.Platform)
		cp, found, plan, notes := rentFor(g, m, p, f)
		if !found && f.Platform != "" {
			// The platform asked about rents no such card in the data: the
			// market's rent, named as such.
			f.Platform = ""
			if cp, found, plan, notes = rentFor(g, m, p, f); found {
				notes = append(notes, platformMissingNote(in.Where.Platform, g, cp, txt("rent", "租用")))
			}
		}
		if !found {
			return res, inputErrZH("rent", fmt.Sprintf("no on-demand rent, monthly plan or sourced figure is known for %s; give rent= per card-hour or a monthly plan (monthly=, per card-month)", g.Name),
				fmt.Sprintf("数据里没有 %s 的按需租金、包月价或其他有出处的价格；请用 rent= 给出每卡每小时租金，或用 monthly= 给出每卡每月包月价", g.Name), buyHint)
		}
		res.RentPlan = plan
		res.Assumptions = append(res.Assumptions, notes...)
		if cp.Original.Currency != p.cur {
			p.converted = true
		}
		in.Rent = Money{cp.Price(), p.cur}
		in.Defaulted = append(in.Defaulted, "rent")
		rentHow = fmt.Sprintf("cheapest non-interruptible offer: %s, %s, low end", offerLabel(cp, "en"), cp.How)
		if res.RentPlan {
			rentHow = fmt.Sprintf("monthly plan: %s, %s, low end, paid for every hour of the month", offerLabel(cp, "en"), cp.How)
		}
		res.Sources = append(res.Sources, offerSource("rent", cp))
		if in.Cards > ClusterCards && !res.RentPlan {
			// A single listing cannot supply a cluster: rent from the
			// cheapest seller of whole 8-GPU machines, the listing shown
			// beside it (scale.go).
			if cr, ok := ClusterRent(in.Reserved, g.ID, p.cur, p.fx); ok && cr.PerGPUHour > in.Rent.Amount {
				res.ClusterRent = &cr
				res.Assumptions = append(res.Assumptions, txt(
					fmt.Sprintf("%d cards are more than one marketplace listing supplies: rent priced on a cluster seller, %s (the single-listing low, %s/card-hour, is not used)", in.Cards, cr.How, money(round(in.Rent.Amount, 4), p.cur)),
					fmt.Sprintf("%d 张卡超出单个市场挂单的供给：租金按整机集群卖家计，%s（单挂单最低价 %s/卡时不采用）", in.Cards, cr.How, money(round(in.Rent.Amount, 4), p.cur))))
				in.Rent = Money{cr.PerGPUHour, p.cur}
				rentHow = "cluster seller: " + cr.How
				res.Sources = append(res.Sources, PriceSource{What: "rent", GPU: g.ID, Figure: cr.Figure, ObservedAt: cr.Date, Source: cr.Source})
			}
		}
	}
	rent := p.money(in.Rent)

	// Running-cost inputs. One consumer card bought for the user's own PC
	// runs at home: household power, no PUE, no operations by default.
	res.Home = in.OwnPC && g.Tier == knowledge.TierConsumer && in.Cards <= 1 && !in.Server
	watts := g.TDPWatts
	wattsHow := fmt.Sprintf("%s board power (TDP); host CPUs, memory and fans not included", g.Name)
	if in.Cards > 1 && in.Watts == nil {
		// A whole server also powers CPUs, memory, NICs and fans: 1.5 × the
		// cards' TDP (NVIDIA's DGX H100 is rated 10.2 kW at most for 8 ×
		// 700 W GPUs; typical draw is below the maximum).
		res.MachineWatts = float64(in.Cards) * g.TDPWatts * machinePowerFactor
		watts = res.MachineWatts / float64(in.Cards)
		wattsHow = fmt.Sprintf("the machine's %s W (%d × %s W TDP × %s for host CPUs, memory, NICs and fans) ÷ %d cards",
			num(res.MachineWatts), in.Cards, num(g.TDPWatts), num(machinePowerFactor), in.Cards)
	}
	if in.Watts != nil {
		watts, wattsHow = *in.Watts, "given"
		if in.Cards > 1 {
			res.MachineWatts = watts * float64(in.Cards)
		}
	} else {
		in.Defaulted = append(in.Defaulted, "watts")
	}
	pue := DefaultPUE
	if res.Home {
		pue = DefaultHomePUE
	}
	if in.PUE != nil {
		pue = *in.PUE
	} else {
		in.Defaulted = append(in.Defaulted, "pue")
	}
	elec := DefaultElectricity[p.cur]
	elecHow := "default for " + string(p.cur)
	if res.Home {
		elec, elecHow = DefaultHomeElectricity[p.cur], "household tariff default for "+string(p.cur)
	}
	if in.Power != nil {
		elec, elecHow = p.money(*in.Power), "given"
		res.Sources = append(res.Sources, givenSource("electricity", *in.Power, p.cur, "/kWh"))
	} else if in.Hosted && in.Ops != nil {
		// a colo or hosting fee covers the power it delivers
		elec, elecHow = 0, "included in the stated hosting fee"
		res.PowerIncluded = true
	} else {
		in.Defaulted = append(in.Defaulted, "power")
		res.Sources = append(res.Sources, defaultSource("electricity", money(elec, p.cur)+"/kWh", "typical tariff, see DefaultElectricity"))
	}
	ops := DefaultOpsShare * price
	opsHow := fmt.Sprintf("%s%% of the purchase price", num(DefaultOpsShare*100))
	if res.Home {
		ops, opsHow = 0, "a card in your own PC: no rack, support contract or ops staff"
	}
	if in.Ops != nil {
		ops, opsHow = p.money(*in.Ops), "given"
		if in.Hosted {
			opsHow = "given hosting fee, power and space included"
		}
	} else {
		in.Defaulted = append(in.Defaulted, "ops")
	}
	residual := 0.0
	if in.Residual != nil {
		residual = *in.Residual
	} else {
		in.Defaulted = append(in.Defaulted, "residual")
	}
	rate := DefaultRate
	switch {
	case in.Rate != nil:
		rate = *in.Rate
	case in.Hosted && in.Ops != nil:
		// their price and hosting fee stand as the whole cost, as they
		// laid it out; a cost of capital is added only when asked (rate=)
		rate = 0
		res.Assumptions = append(res.Assumptions, txt("no cost of capital added: your price and hosting fee are taken as the whole cost (rate=5% adds one)",
			"未计资金成本：按你给的买价和托管费算全部成本（可用 rate=5% 加上）"))
	default:
		in.Defaulted = append(in.Defaulted, "rate")
	}
	res.Inputs = in
	res.Utilization = in.Utilization
	res.compute(price, price*residual, rent, watts, pue, elec, ops, rate, in, p)

	// Make the defaults readable next to the lines.
	res.Assumptions = append(res.Assumptions,
		powerText(watts, wattsHow, pue, elec, elecHow, res.Home, res.PowerIncluded, p.cur),
		opsText(ops, opsHow, res.Home, in.Ops != nil, p.cur),
		residualText(residual, price, in.Years, p.cur),
		txt(fmt.Sprintf("purchase %s (%s); rent %s/card-hour (%s)", money(price, p.cur), purchaseHow, money(round(rent, 4), p.cur), rentHow),
			fmt.Sprintf("购置价 %s（%s）；租金每卡每小时 %s（%s）", money(price, p.cur), purchaseHow, money(round(rent, 4), p.cur), rentHow)))
	if in.HoursPerMonth > 0 {
		res.Assumptions = append(res.Assumptions, txt(
			fmt.Sprintf("utilisation %s%% from the stated %s h/month ÷ 730 h", num(round(in.Utilization*100, 1)), num(in.HoursPerMonth)),
			fmt.Sprintf("利用率 %s%%，按每月 %s 小时 ÷ 730 小时", num(round(in.Utilization*100, 1)), num(in.HoursPerMonth))))
	}
	res.Assumptions = append(res.Assumptions, p.assumption()...)
	res.Assumptions = withConfirm(res.Assumptions, res.Sources)
	return res, nil
}

func (in BuyInput) normalize() (BuyInput, *pricing, error) {
	in.Defaulted = nil
	for _, mm := range []struct {
		f string
		m Money
	}{{"price", in.Purchase}, {"rent", in.Rent}, {"monthly", in.RentMonthly}} {
		if err := checkMoney(mm.f, mm.m, buyHint); err != nil {
			return in, nil, err
		}
	}
	for _, mm := range []struct {
		f string
		m *Money
	}{{"power", in.Power}, {"ops", in.Ops}} {
		if mm.m != nil {
			if err := checkMoney(mm.f, *mm.m, buyHint); err != nil {
				return in, nil, err
			}
		}
	}
	bad := func(v float64, lo, hi float64) bool { return math.IsNaN(v) || v < lo || v > hi }
	switch {
	case bad(in.Years, 0, 20):
		return in, nil, inputErr("years", fmt.Sprintf("years must be between 0.5 and 20, got %s", num(in.Years)), buyHint+" years=3")
	case in.Years != 0 && in.Years < 0.5:
		return in, nil, inputErr("years", fmt.Sprintf("years must be between 0.5 and 20, got %s", num(in.Years)), buyHint+" years=3")
	case bad(in.Utilization, 0, 1):
		return in, nil, inputErr("utilization", fmt.Sprintf("utilisation is a share of the year between 0 and 1 (or 0–100%%), got %s", num(in.Utilization)), buyHint+" util=70%")
	case in.Watts != nil && bad(*in.Watts, 0, 20000):
		return in, nil, inputErr("watts", "watts must be between 0 and 20000 per card", buyHint+" watts=700")
	case in.PUE != nil && bad(*in.PUE, 1, 3):
		return in, nil, inputErr("pue", "PUE must be between 1 and 3", buyHint+" pue=1.4")
	case in.Residual != nil && bad(*in.Residual, 0, 0.9):
		return in, nil, inputErr("residual", "residual value is a share of the purchase price between 0 and 90%", buyHint+" residual=20%")
	case in.Condition != "" && in.Condition != "new" && in.Condition != "used":
		return in, nil, inputErr("condition", fmt.Sprintf("condition is new or used, got %q", in.Condition), buyHint)
	case in.Rate != nil && bad(*in.Rate, 0, 1):
		return in, nil, inputErr("rate", "cost of capital is a yearly share between 0 and 1 (or 0–100%)", buyHint+" rate=5%")
	}
	if in.Years == 0 {
		in.Years = DefaultYears
		in.Defaulted = append(in.Defaulted, "years")
	}
	switch {
	case math.IsNaN(in.HoursPerMonth) || in.HoursPerMonth < 0 || in.HoursPerMonth > 744:
		return in, nil, inputErr("hours_per_month", fmt.Sprintf("hours per month must be between 0 and 744, got %s", num(in.HoursPerMonth)), buyHint+" 500h/month")
	case in.Cards < 0 || in.Cards > MaxGPUs:
		return in, nil, inputErr("cards", fmt.Sprintf("cards must be between 1 and %d, got %d", MaxGPUs, in.Cards), buyHint)
	}
	if in.Utilization == 0 && in.HoursPerMonth > 0 {
		in.Utilization = math.Min(1, in.HoursPerMonth/knowledge.HoursPerMonth)
	}
	if in.Utilization == 0 {
		in.Utilization = DefaultUtilization
		in.Defaulted = append(in.Defaulted, "utilization")
	}
	def := in.Purchase.Currency
	if def == "" {
		def = in.Rent.Currency
	}
	p, err := newPricing(in.Currency, def, in.FX, buyHint, &in.Defaulted)
	if err != nil {
		return in, nil, err
	}
	in.Currency, in.FX = p.cur, p.fx
	return in, p, nil
}

// cheapestMonthlyPlan is the cheapest monthly plan (包月) for a card that
// the filter keeps: a catalogue offer, else a sourced row; per card-hour
// at 730 h a month.
func cheapestMonthlyPlan(gpu string, m Market, p *pricing, f OfferFilter) (CardPrice, bool) {
	for _, offers := range [][]knowledge.Offer{m.Offers, m.Rows} {
		var best CardPrice
		found := false
		for _, o := range offers {
			if o.GPU != gpu {
				continue
			}
			c, ok := NormalizeOffer(o, p.cur, p.fx)
			if !ok || !c.Monthly || !f.keep(&o, &c, p.cur) {
				continue
			}
			if !found || c.Low < best.Low || c.Low == best.Low && c.Offer < best.Offer {
				best, found = c, true
			}
		}
		if found {
			return best, true
		}
	}
	return CardPrice{}, false
}

// rentFor finds the rent to weigh owning against: the cheapest provider
// renting the card by the hour (not spot), else the market-wide range,
// else the nearest sourced on-demand row, else a monthly plan (包月, plan
// true), each said in notes.
func rentFor(g knowledge.GPU, m Market, p *pricing, f OfferFilter) (cp CardPrice, found, plan bool, notes []Text) {
	if cp, found, _ = Cheapest(g.ID, m.Offers, p.cur, p.fx, f); found {
		return cp, true, false, nil
	}
	if f.NoMarketRange {
		// No provider lists the card: the market-wide range, said as such.
		mf := f
		mf.NoMarketRange = false
		if cp, found, _ = Cheapest(g.ID, m.Offers, p.cur, p.fx, mf); found {
			return cp, true, false, []Text{marketRangeNote(g, cp)}
		}
	}
	// No catalogue offer rents the card by the hour: the nearest sourced
	// on-demand row.
	if cp, found = m.cheapestRow(g.ID, p, f); found {
		return cp, true, false, []Text{sourcedRowNote(g, cp, txt("on-demand", "按需"))}
	}
	// Still nothing by the hour: a monthly plan, a catalogue offer before
	// a sourced row, paid for every hour of the month.
	pf := f
	pf.Packages, pf.NoMarketRange = true, false
	if cp, found = cheapestMonthlyPlan(g.ID, m, p, pf); found {
		return cp, true, true, []Text{txt(
			fmt.Sprintf("no on-demand rent is known for %s: renting is priced as the monthly plan %s %s (dated %s), paid for every hour of the month", g.Name, cp.Platform, cp.Original.String(), cp.ObservedAt),
			fmt.Sprintf("没有 %s 的按需租金：租用按包月计，%s %s（日期 %s），整月每小时都计费", g.Name, cp.Platform, cp.Original.String(), cp.ObservedAt))}
	}
	return CardPrice{}, false, false, nil
}

// powerText states the power assumed: the card's draw, the PUE and the
// price per kWh, or that a hosting fee includes it.
func powerText(watts float64, wattsHow string, pue, elec float64, elecHow string, home, included bool, c knowledge.Currency) Text {
	if included {
		return txt("power: included in your hosting fee (give power= per kWh to count it apart)", "电费：含在你给的托管费里（要单独算请用 power= 给出每度电价）")
	}
	where, whereZH := "cooling and facility", "散热与机房"
	if home {
		where, whereZH = "a desktop in your own room: no data-centre cooling", "自己电脑：不计机房散热"
	}
	return txt(fmt.Sprintf("power %s W (%s) × PUE %s (%s) × %s/kWh (%s); power counted only for hours worked", num(watts), wattsHow, num(pue), where, money(elec, c), elecHow),
		fmt.Sprintf("功耗 %s W（%s）× PUE %s（%s）× %s/度（%s）；电费只按工作小时计", num(watts), wattsHow, num(pue), whereZH, money(elec, c), elecHow))
}

// opsText states the operations cost assumed a year.
func opsText(ops float64, how string, home, given bool, c knowledge.Currency) Text {
	if home && !given {
		return txt("operations: none for a consumer card in your own PC (no rack, support contract or ops staff; give ops= per year if you pay any)",
			"运维：自己电脑里的消费级显卡不计（无机柜、维保合同与运维人员；有的话用 ops= 给出每年金额）")
	}
	return txt(fmt.Sprintf("operations %s a year (%s): support, spares, rack space and engineer time", money(Round2(ops), c), how),
		fmt.Sprintf("运维每年 %s（%s）：维保、备件、机柜与工程师时间", money(Round2(ops), c), how))
}
