package advisor

import "slices"

// QuoteBand is how far above the market's median a quote may sit and
// still be "about the market": prices of one card spread by more than
// that between platforms, so a quote 5 % over the median is not dear.
const QuoteBand = 0.10

// QuoteCheck weighs a price someone was quoted against the market's
// offers for the same card: "有渠道报18块一卡时，贵不贵？", "is $2.50/hr for
// an H100 a fair price?". Prices are per card-hour in one currency.
type QuoteCheck struct {
	Quote  float64 `json:"quote"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
	Offers int     `json:"offers"`
	// Cheaper counts the offers below the quote.
	Cheaper int `json:"cheaper"`
	// Ratio is quote ÷ median.
	Ratio float64 `json:"ratio"`
	// Dear is true when the quote is more than QuoteBand above the median.
	Dear  bool   `json:"dear"`
	Lines []Line `json:"lines"`
}

// CheckQuote weighs quote against prices (the market's offers for the
// card, per card-hour, in the quote's currency). With no prices it
// returns the quote alone (Offers 0).
func CheckQuote(quote float64, prices []float64) QuoteCheck {
	q := QuoteCheck{Quote: quote, Offers: len(prices)}
	if len(prices) == 0 {
		return q
	}
	p := slices.Clone(prices)
	slices.Sort(p)
	q.Min, q.Max = p[0], p[len(p)-1]
	if n := len(p); n%2 == 1 {
		q.Median = p[n/2]
	} else {
		q.Median = (p[n/2-1] + p[n/2]) / 2
	}
	for _, v := range p {
		if v < quote {
			q.Cheaper++
		}
	}
	if q.Median > 0 {
		q.Ratio = round(quote/q.Median, 3)
	}
	q.Dear = quote > q.Median*(1+QuoteBand)
	q.Lines = []Line{
		{Key: "median", Label: txt("market median", "市场中位数"), Value: q.Median, Unit: "card_hour", How: "middle of " + num(float64(len(p))) + " on-demand offers, " + num(q.Min) + " to " + num(q.Max)},
		{Key: "ratio", Label: txt("quote ÷ median", "报价 ÷ 中位数"), Value: q.Ratio, How: num(quote) + " ÷ " + num(q.Median)},
		{Key: "cheaper", Label: txt("offers below the quote", "低于报价的报价数"), Value: float64(q.Cheaper), How: "of " + num(float64(len(p)))},
	}
	return q
}
