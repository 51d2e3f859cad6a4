package advisor

import (
	"fmt"
	"math"

	"github.com/gpubot/gpubot/knowledge"
)

// compute fills the four annual lines, the break-evens and the payback.
// All amounts are per card, in the answer's currency.
func (r *BuyResult) compute(price, residual, rent, watts, pue, elec, ops, rate float64, in BuyInput, p *pricing) {
	c := string(p.cur)
	u := in.Utilization
	hours := u * hoursPerYear
	kwhPerHour := watts / 1000 * pue // energy drawn per working hour, facility included
	powerPerHour := kwhPerHour * elec

	dep := (price - residual) / in.Years
	power := powerPerHour * hours
	opp := rate * price
	fixed := dep + ops + opp
	r.OwnPerYear = Round2(fixed + power)
	// Renting costs the hours used, or every hour of the year on a
	// monthly plan (paid whether used or not).
	rentHours := hours
	if r.RentPlan {
		rentHours = hoursPerYear
	}
	r.RentPerYear = Round2(rentHours * rent)
	r.Cheaper = "rent"
	if r.OwnPerYear < r.RentPerYear {
		r.Cheaper = "buy"
	}
	r.SavingPerYear = Round2(math.Abs(r.RentPerYear - r.OwnPerYear)) // what the cheaper way saves a year

	r.Lines = append(r.Lines,
		Line{Key: "depreciation", Label: txt("depreciation per year", "每年折旧"), Value: Round2(dep), Unit: c,
			How: depHow(price, residual, in.Years, p.cur)},
		Line{Key: "power_cooling", Label: txt("power and cooling per year", "每年电费与散热"), Value: Round2(power), Unit: c,
			How: fmt.Sprintf("%s kW × PUE %s × %s h (%s%% of 8760) × %s/kWh", num(watts/1000), num(pue), num(round(hours, 1)), num(round(u*100, 1)), money(elec, p.cur))},
		Line{Key: "operations", Label: txt("operations per year", "每年运维"), Value: Round2(ops), Unit: c,
			How: "labour, spares, rack space"},
		Line{Key: "opportunity_cost", Label: txt("opportunity cost per year", "每年资金机会成本"), Value: Round2(opp), Unit: c,
			How: fmt.Sprintf("%s%% × %s", num(rate*100), money(price, p.cur))},
		Line{Key: "own_per_year", Label: txt("owning per year", "自购每年合计"), Value: r.OwnPerYear, Unit: c,
			How: "depreciation + power and cooling + operations + opportunity cost"},
		Line{Key: "rent_per_year", Label: txt("renting the same hours per year", "租用同样小时每年"), Value: r.RentPerYear, Unit: c,
			How: fmt.Sprintf("%s h × %s/h", num(round(hours, 1)), money(round(rent, 4), p.cur))},
	)
	if r.RentPlan {
		r.Lines[len(r.Lines)-1] = Line{Key: "rent_per_year", Label: txt("renting on the monthly plan per year", "包月租用每年"), Value: r.RentPerYear, Unit: c,
			How: fmt.Sprintf("8760 h × %s/h (12 months × 730 h: a plan is paid whether used or not)", money(round(rent, 4), p.cur))}
	}
	if r.PowerIncluded {
		r.Lines[1].How = "included in your hosting fee"
	}

	// Hardware-only break-even: depreciation ÷ (8760 × rent).
	if rent > 0 {
		r.HardwareBreakeven = round(dep/(hoursPerYear*rent), 4)
	}
	r.Lines = append(r.Lines, Line{Key: "breakeven_hardware", Label: txt("break-even utilisation, hardware only", "盈亏平衡利用率（只算硬件）"),
		Value: r.HardwareBreakeven, Unit: "", How: fmt.Sprintf("%s ÷ (8760 h × %s/h)", money(Round2(dep), p.cur), money(round(rent, 4), p.cur))})

	// All-in break-even: fixed costs ÷ (8760 × (rent − power per hour)).
	margin := rent - powerPerHour
	allHow := fmt.Sprintf("(%s + %s + %s) ÷ (8760 h × (%s − %s/h power))", money(Round2(dep), p.cur), money(Round2(ops), p.cur), money(Round2(opp), p.cur),
		money(round(rent, 4), p.cur), money(round(powerPerHour, 4), p.cur))
	if margin > 0 {
		r.BreakevenUtilization = round(fixed/(hoursPerYear*margin), 4)
	} else {
		r.NeverPays = true
		allHow += ": rent does not cover the power bill, owning never pays"
	}
	if r.RentPlan {
		allHow += "; against a monthly plan the plan is paid in full at any utilisation, so this is the break-even against renting by the hour at the plan's hourly rate"
	}
	r.Lines = append(r.Lines, Line{Key: "breakeven_all_in", Label: txt("break-even utilisation, all four costs", "盈亏平衡利用率（四笔账全算）"),
		Value: r.BreakevenUtilization, Unit: "", How: allHow})
	if r.BreakevenUtilization > 1 && !r.RentPlan {
		r.Assumptions = append(r.Assumptions, txt("break-even is above 100 %: at these prices owning never beats renting", "盈亏平衡点超过 100%：按这些价格自购永远不如租用"))
	}

	// Payback: price ÷ monthly saving of owning at this utilisation.
	monthlySaving := u*hoursPerYear/12*margin - (ops+opp)/12
	payHow := fmt.Sprintf("%s ÷ (%s h/month × (%s − %s) − (%s + %s) ÷ 12)", money(price, p.cur), num(round(u*hoursPerYear/12, 1)),
		money(round(rent, 4), p.cur), money(round(powerPerHour, 4), p.cur), money(Round2(ops), p.cur), money(Round2(opp), p.cur))
	if r.RentPlan {
		// The plan is avoided in full; power is paid only for hours worked.
		monthlySaving = knowledge.HoursPerMonth*rent - u*hoursPerYear/12*powerPerHour - (ops+opp)/12
		payHow = fmt.Sprintf("%s ÷ (730 h × %s plan − %s h/month × %s power − (%s + %s) ÷ 12)", money(price, p.cur), money(round(rent, 4), p.cur),
			num(round(u*hoursPerYear/12, 1)), money(round(powerPerHour, 4), p.cur), money(Round2(ops), p.cur), money(Round2(opp), p.cur))
	}
	if monthlySaving > 0 {
		r.PaybackMonths = round(price/monthlySaving, 1)
	} else {
		r.NeverPays = true
		payHow += ": no monthly saving, never pays back"
	}
	hwSaving := u * hoursPerYear / 12 * rent
	hwHours := u * hoursPerYear / 12
	if r.RentPlan {
		hwSaving, hwHours = knowledge.HoursPerMonth*rent, knowledge.HoursPerMonth
	}
	if hwSaving > 0 {
		r.HardwarePaybackMonths = round(price/hwSaving, 1)
	}
	r.Lines = append(r.Lines,
		Line{Key: "payback_months", Label: txt("payback, all costs", "回本月数（全成本）"), Value: r.PaybackMonths, Unit: "months", How: payHow},
		Line{Key: "payback_hardware", Label: txt("payback, hardware only", "回本月数（只算硬件）"), Value: r.HardwarePaybackMonths, Unit: "months",
			How: fmt.Sprintf("%s ÷ (%s h/month × %s)", money(price, p.cur), num(round(hwHours, 1)), money(round(rent, 4), p.cur))},
		Line{Key: "rule_of_thumb", Label: txt("rental guide's rule of thumb (context)", "租用指南经验值（仅供参照）"), Value: RuleBuyUtilization, Unit: "",
			How: fmt.Sprintf("guide: evaluate buying above ≈%s%% utilisation; computed here: %s%% all-in, %s%% hardware only",
				num(RuleBuyUtilization*100), num(round(r.BreakevenUtilization*100, 1)), num(round(r.HardwareBreakeven*100, 1)))},
	)
	r.whole(price, rent, watts, pue, elec, ops, opp, power, fixed, rentHours, in, p)
}

// depHow writes the depreciation step: (price − residual) ÷ years.
func depHow(price, residual, years float64, c knowledge.Currency) string {
	if residual == 0 {
		return fmt.Sprintf("%s ÷ %s years (straight line, no residual value)", money(price, c), num(years))
	}
	return fmt.Sprintf("(%s − %s residual) ÷ %s years (straight line)", money(price, c), money(Round2(residual), c), num(years))
}

// residualText states the residual value assumed.
func residualText(share, price, years float64, c knowledge.Currency) Text {
	if share == 0 {
		return txt(fmt.Sprintf("residual value after %s years: 0 assumed (conservative; give residual=20%% if you expect to resell)", num(years)),
			fmt.Sprintf("%s 年后残值：按 0 计（保守；预计能转卖可用 residual=20%% 给出）", num(years)))
	}
	return txt(fmt.Sprintf("residual value after %s years: %s%% of the price = %s", num(years), num(share*100), money(Round2(share*price), c)),
		fmt.Sprintf("%s 年后残值：购置价的 %s%% = %s", num(years), num(share*100), money(Round2(share*price), c)))
}

// BuyWhole is the purchase as a whole: all Units cards bought, per month
// and per year, in the answer's currency. Payback months are the same for
// one card and for all of them (every amount scales with the cards).
type BuyWhole struct {
	Units    int     `json:"units"`    // cards bought: Cards, at least 1
	Purchase float64 `json:"purchase"` // price per card × units
	// RentPerMonth is the rent owning avoids a month: units × hours a
	// month × rent (730 h on a monthly plan, whatever the use).
	RentPerMonth float64 `json:"rent_per_month"`
	// The running cost a month: power (hours worked), operations and the
	// cost of capital; RunningPerMonth is their sum.
	PowerPerMonth   float64 `json:"power_per_month"`
	OpsPerMonth     float64 `json:"ops_per_month"`
	CapitalPerMonth float64 `json:"capital_per_month"`
	RunningPerMonth float64 `json:"running_per_month"`
	// A year, every card: owning (depreciation + running cost), renting
	// and the difference.
	DepreciationPerYear float64 `json:"depreciation_per_year"`
	OwnPerYear          float64 `json:"own_per_year"`
	RentPerYear         float64 `json:"rent_per_year"`
	SavingPerYear       float64 `json:"saving_per_year"`
}

// whole fills r.Whole from the per-card amounts (unrounded, so that the
// totals are the cards × the exact figure), and adds its steps.
//
//	rent a month    = units × rent hours a year ÷ 12 × rent
//	running a month = units × (power a year + ops + capital) ÷ 12
//	payback         = purchase ÷ (rent a month − running a month)
func (r *BuyResult) whole(price, rent, watts, pue, elec, ops, opp, power, fixed, rentHours float64, in BuyInput, p *pricing) {
	n := float64(max(in.Cards, 1))
	w := BuyWhole{Units: int(n)}
	w.Purchase = Round2(n * price)
	w.RentPerMonth = Round2(n * rentHours / 12 * rent)
	w.PowerPerMonth = Round2(n * power / 12)
	w.OpsPerMonth = Round2(n * ops / 12)
	w.CapitalPerMonth = Round2(n * opp / 12)
	w.RunningPerMonth = Round2(n * (power + ops + opp) / 12)
	dep := fixed - ops - opp
	w.DepreciationPerYear = Round2(n * dep)
	w.OwnPerYear = Round2(n * (fixed + power))
	w.RentPerYear = Round2(n * rentHours * rent)
	w.SavingPerYear = Round2(math.Abs(n*rentHours*rent - n*(fixed+power)))
	r.Whole = w

	c := string(p.cur)
	cards := ""
	if n > 1 {
		cards = fmt.Sprintf("%d × ", w.Units)
	}
	hours := rentHours / 12
	powerHow := fmt.Sprintf("%s%s kW × PUE %s × %s h × %s/kWh", cards, num(watts/1000), num(pue), num(round(in.Utilization*hoursPerYear/12, 1)), money(elec, p.cur))
	if r.PowerIncluded {
		powerHow = "included in your hosting fee"
	}
	r.Lines = append(r.Lines,
		Line{Key: "rent_per_month", Label: txt("renting a month, all cards", "租用每月（全部卡）"), Value: w.RentPerMonth, Unit: c,
			How: fmt.Sprintf("%s%s h × %s/h", cards, num(round(hours, 1)), money(round(rent, 4), p.cur))},
		Line{Key: "running_per_month", Label: txt("running cost a month, all cards", "运行成本每月（全部卡）"), Value: w.RunningPerMonth, Unit: c,
			How: fmt.Sprintf("power %s (%s) + operations %s (%s%s ÷ 12) + cost of capital %s (%s%s ÷ 12)",
				money(w.PowerPerMonth, p.cur), powerHow, money(w.OpsPerMonth, p.cur), cards, money(Round2(ops), p.cur), money(w.CapitalPerMonth, p.cur), cards, money(Round2(opp), p.cur))},
	)
	if n > 1 {
		r.Lines = append(r.Lines,
			Line{Key: "purchase_total", Label: txt("purchase, all cards", "购置总价（全部卡）"), Value: w.Purchase, Unit: c,
				How: fmt.Sprintf("%d × %s", w.Units, money(Round2(price), p.cur))},
			Line{Key: "own_per_year_all", Label: txt("owning per year, all cards", "自购每年（全部卡）"), Value: w.OwnPerYear, Unit: c,
				How: fmt.Sprintf("%d × %s", w.Units, money(Round2(fixed+power), p.cur))},
			Line{Key: "rent_per_year_all", Label: txt("renting per year, all cards", "租用每年（全部卡）"), Value: w.RentPerYear, Unit: c,
				How: fmt.Sprintf("%d × %s h × %s/h", w.Units, num(round(rentHours, 1)), money(round(rent, 4), p.cur))},
		)
	}
}
