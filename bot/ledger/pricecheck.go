package ledger

import (
	"fmt"
	"math"

	"github.com/gpubot/gpubot/knowledge"
)

// A price per card-hour this far outside what the catalogue knows for the
// card is more likely a typo (a decimal comma read as a thousands one, a
// missing zero) than a deal: ask before booking it.
const (
	priceLowFactor  = 0.2
	priceHighFactor = 5.0
)

// PriceError is an entry whose price per card-hour (or, for a monthly
// plan, per card-month) is outside priceLowFactor–priceHighFactor of the
// catalogue's range for that card. Resend with Entry.Confirm to book it.
type PriceError struct {
	GPU      string
	Per      string  // "card-hour" or "card-month"
	Price    float64 // what the entry works out to
	Low      float64 // the catalogue's range, in the entry's currency
	High     float64
	Currency knowledge.Currency
}

func (e *PriceError) Error() string {
	ratio := e.Price / e.High
	if e.Price < e.Low {
		ratio = e.Price / e.Low
	}
	return fmt.Sprintf("%s %.2f per %s is %s the catalogue's %s–%s for %s (%.1f×); check the amount and the decimal separator, or confirm it",
		e.Currency, e.Price, e.Per, map[bool]string{true: "far below", false: "far above"}[e.Price < e.Low],
		fmtMoney(e.Low), fmtMoney(e.High), e.GPU, ratio)
}

// machineCards is the cards of the usual machine (8): an entry that names
// no card count may be a whole machine's hours.
const machineCards = 8

func fmtMoney(v float64) string { return fmt.Sprintf("%.2f", v) }

// checkPrice compares e's price with the shipped catalogue's range for its
// card, in e's currency (offers in the other of CNY/USD are converted at
// FX when it is set). No offers for the card, no check.
func (l *Ledger) checkPrice(e Entry) error {
	if l.kb == nil || !e.Priced() || e.IsRefund() || e.CardHours() <= 0 {
		return nil
	}
	lo, hi := math.Inf(1), 0.0
	for _, o := range l.kb.Offers {
		if o.GPU != e.GPU {
			continue
		}
		a, b, ok := o.CardHourly()
		if !ok {
			continue
		}
		r := l.rate(o.Currency, e.Amount.Currency)
		if r == 0 {
			continue
		}
		lo, hi = math.Min(lo, a*r), math.Max(hi, b*r)
	}
	if hi == 0 {
		return nil
	}
	per, price := "card-hour", e.Amount.Float()/e.CardHours()
	if e.Billing == Monthly {
		// A plan's fee is due however little it ran: compare the fee per
		// card with a month of the hourly range, not the used hours.
		per, price = "card-month", e.Amount.Float()/float64(e.Cards)
		lo, hi = lo*knowledge.HoursPerMonth, hi*knowledge.HoursPerMonth
	}
	if price > priceHighFactor*hi && e.Cards <= 1 && price/machineCards <= priceHighFactor*hi {
		// "H20 按量 … 共 ¥23,460，跑了340小时" with no card count: ¥69 an
		// hour is a whole 8-card machine's rate, not a slip of the decimal
		return nil
	}
	if price < priceLowFactor*lo || price > priceHighFactor*hi {
		return &PriceError{GPU: e.GPU, Per: per, Price: price, Low: lo, High: hi, Currency: e.Amount.Currency}
	}
	return nil
}

// rate converts one unit of from into to: 1 for the same currency, FX or
// 1/FX between CNY and USD when FX is set, else 0 (not comparable).
func (l *Ledger) rate(from, to knowledge.Currency) float64 {
	switch {
	case from == to:
		return 1
	case l.fx <= 0:
		return 0
	case from == knowledge.USD && to == knowledge.CNY:
		return l.fx
	case from == knowledge.CNY && to == knowledge.USD:
		return 1 / l.fx
	}
	return 0
}
