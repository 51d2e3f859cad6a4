package advisor

import "math"

// Rental is what renting cards for a stretch costs at one hourly price:
// "租2张跑36小时，帮算下总价", "4x A100 on Lambda for 3 days, how much?".
type Rental struct {
	PricePerCardHour float64 `json:"price_per_card_hour"`
	Cards            int     `json:"cards"`
	Hours            float64 `json:"hours"`
	CardHours        float64 `json:"card_hours"`
	Total            float64 `json:"total"`
	Lines            []Line  `json:"lines"`
}

// RentalTotal prices cards × hours at a card-hour price. Cards below 1
// count as one card.
func RentalTotal(pricePerCardHour float64, cards int, hours float64) Rental {
	cards = max(cards, 1)
	r := Rental{PricePerCardHour: pricePerCardHour, Cards: cards, Hours: hours}
	r.CardHours = float64(cards) * hours
	r.Total = Round2(r.CardHours * pricePerCardHour)
	r.Lines = []Line{
		{Key: "card_hours", Label: Text{EN: "card-hours", ZH: "卡时"}, Value: r.CardHours, Unit: "card-h", How: num(float64(cards)) + " cards × " + num(hours) + " h"},
		{Key: "total", Label: Text{EN: "total", ZH: "合计"}, Value: r.Total, How: num(r.CardHours) + " card-h × " + num(pricePerCardHour) + " per card-hour"},
	}
	return r
}

// RentalFor is what a budget rents at one hourly price: "经费8000块，4090
// 2.2/h，够跑多少卡时？" — budget ÷ price card-hours, shared by the cards
// (hours = card-hours ÷ cards). Cards below 1 count as one card; a price
// of 0 or less rents nothing (Hours 0).
func RentalFor(budget, pricePerCardHour float64, cards int) Rental {
	cards = max(cards, 1)
	r := Rental{PricePerCardHour: pricePerCardHour, Cards: cards, Total: Round2(budget)}
	if pricePerCardHour <= 0 || budget <= 0 {
		return r
	}
	r.CardHours = round(budget/pricePerCardHour, 2)
	r.Hours = round(r.CardHours/float64(cards), 2)
	r.Lines = []Line{
		{Key: "card_hours", Label: Text{EN: "card-hours the budget rents", ZH: "预算能租的卡时"}, Value: r.CardHours, Unit: "card-h", How: num(budget) + " ÷ " + num(pricePerCardHour) + " per card-hour"},
		{Key: "hours", Label: Text{EN: "hours on the cards", ZH: "这些卡能跑的小时数"}, Value: r.Hours, Unit: "h", How: num(r.CardHours) + " card-h ÷ " + num(float64(cards)) + " cards"},
	}
	return r
}

// Affordable is how many cards a budget keeps running: "每月预算5万块，H20
// 能租几张？", "$500k a year — how many H100 24/7?". The budget covers
// Months months (0: a total with no period, priced as one month); each
// card runs HoursPerMonth a month at the rate. Cards are whole cards the
// budget pays for in full (floor); Left is what remains a month.
type Affordable struct {
	Cards         int     `json:"cards"`
	PerCardMonth  float64 `json:"per_card_month"`
	BudgetMonthly float64 `json:"budget_monthly"`
	CardHours     float64 `json:"card_hours"` // all the budget rents, at the rate
	Left          float64 `json:"left"`       // a month, after the whole cards
	Lines         []Line  `json:"lines"`
}

// CardsFor sizes the fleet a budget keeps running at one card-hour rate.
// A rate, hours or budget of 0 or less affords nothing.
func CardsFor(budget, pricePerCardHour, hoursPerMonth, months float64) Affordable {
	var a Affordable
	if budget <= 0 || pricePerCardHour <= 0 || hoursPerMonth <= 0 {
		return a
	}
	if months <= 0 {
		months = 1
	}
	a.BudgetMonthly = Round2(budget / months)
	a.PerCardMonth = Round2(pricePerCardHour * hoursPerMonth)
	a.Cards = int(math.Floor(a.BudgetMonthly/a.PerCardMonth + 1e-9))
	a.Left = Round2(a.BudgetMonthly - float64(a.Cards)*a.PerCardMonth)
	a.CardHours = round(budget/pricePerCardHour, 1)
	a.Lines = []Line{
		{Key: "budget_monthly", Label: txt("budget a month", "每月预算"), Value: a.BudgetMonthly, How: num(budget) + " ÷ " + num(months) + " months"},
		{Key: "per_card_month", Label: txt("one card a month", "每张卡每月"), Value: a.PerCardMonth, How: num(pricePerCardHour) + " per card-hour × " + num(hoursPerMonth) + " h"},
		{Key: "cards", Label: txt("cards the budget keeps running", "预算能养的卡数"), Value: float64(a.Cards), Unit: "cards", How: "floor(" + num(a.BudgetMonthly) + " ÷ " + num(a.PerCardMonth) + ")"},
		{Key: "card_hours", Label: txt("card-hours the budget rents", "预算能租的卡时"), Value: a.CardHours, Unit: "card-h", How: num(budget) + " ÷ " + num(pricePerCardHour)},
	}
	return a
}

// CardsForRange is CardsFor at both ends of a ranged rate ("$1.85–1.89"):
// the high end's fleet first (what the budget surely keeps running), then
// the low end's. With one figure both are the same.
func CardsForRange(budget, low, high, hoursPerMonth, months float64) (atHigh, atLow Affordable) {
	atLow = CardsFor(budget, low, hoursPerMonth, months)
	if high <= low {
		return atLow, atLow
	}
	return CardsFor(budget, high, hoursPerMonth, months), atLow
}
