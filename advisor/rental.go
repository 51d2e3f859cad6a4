package advisor

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
