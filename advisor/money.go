package advisor

import (
	"fmt"
	"math"

	"github.com/gpubot/gpubot/knowledge"
)

// DefaultCNYPerUSD is the exchange rate used when the caller configures
// none: 7.2 yuan per dollar, about where the PBOC central parity has sat
// (7.1–7.3) since 2023. The bot passes its configured FX instead.
const DefaultCNYPerUSD = 7.2

// Limits on an exchange rate a user may give (fx=).
const (
	MinCNYPerUSD = 1.0
	MaxCNYPerUSD = 20.0
)

// Money is an amount in a currency. A zero Amount means "not given"; an
// empty Currency means "the currency of the answer".
type Money struct {
	Amount   float64            `json:"amount"`
	Currency knowledge.Currency `json:"currency,omitempty"`
}

// Given reports whether the user stated the amount.
func (m Money) Given() bool { return m.Amount != 0 }

// Convert returns amount, priced in from, in currency to, at fx yuan per
// dollar. Both currencies must be CNY or USD and fx positive.
func Convert(amount float64, from, to knowledge.Currency, fx float64) float64 {
	switch {
	case from == to:
		return amount
	case from == knowledge.USD && to == knowledge.CNY:
		return amount * fx
	default: // CNY -> USD
		return amount / fx
	}
}

// symbol is the sign a currency is written with in formulas.
func symbol(c knowledge.Currency) string {
	switch c {
	case knowledge.CNY:
		return "¥"
	case knowledge.USD:
		return "$"
	}
	return string(c) + " "
}

// money prints an amount with its currency sign, e.g. "¥1.8" or "$0.198".
func money(amount float64, c knowledge.Currency) string {
	var b [40]byte
	return string(appendMoney(b[:0], amount, c))
}

// appendMoney appends money(amount, c) to b.
func appendMoney(b []byte, amount float64, c knowledge.Currency) []byte {
	if amount < 0 {
		return appendNum(append(append(b, "−"...), symbol(c)...), -amount)
	}
	return appendNum(append(b, symbol(c)...), amount)
}

// pricing is the currency context one calculation runs in: the answer's
// currency, the exchange rate, and whether a conversion was needed (so the
// rate is stated only when it mattered).
type pricing struct {
	cur       knowledge.Currency
	fx        float64
	fxGiven   bool
	converted bool
}

// newPricing checks the currency and rate, filling defaults and recording
// them in defaulted. def is the currency used when cur is empty.
func newPricing(cur, def knowledge.Currency, fx float64, hint string, defaulted *[]string) (*pricing, error) {
	p := &pricing{cur: cur, fx: fx, fxGiven: fx != 0}
	if p.cur == "" {
		p.cur = def
		if p.cur == "" {
			p.cur = knowledge.CNY
		}
		*defaulted = append(*defaulted, "currency")
	}
	if p.cur != knowledge.CNY && p.cur != knowledge.USD {
		return nil, inputErr("currency", fmt.Sprintf("currency must be CNY or USD, got %q", p.cur), hint)
	}
	if p.fx == 0 {
		p.fx = DefaultCNYPerUSD
		*defaulted = append(*defaulted, "fx")
	}
	if math.IsNaN(p.fx) || p.fx < MinCNYPerUSD || p.fx > MaxCNYPerUSD {
		return nil, inputErr("fx", fmt.Sprintf("exchange rate must be between %s and %s CNY per USD, got %s", num(MinCNYPerUSD), num(MaxCNYPerUSD), num(p.fx)), hint+" fx=7.2")
	}
	return p, nil
}

// to converts amount from c into the answer's currency, noting whether a
// conversion happened.
func (p *pricing) to(amount float64, c knowledge.Currency) float64 {
	if c == "" || c == p.cur {
		return amount
	}
	p.converted = true
	return Convert(amount, c, p.cur, p.fx)
}

// money converts a user-given amount (empty currency = the answer's).
func (p *pricing) money(m Money) float64 { return p.to(m.Amount, m.Currency) }

// convHow writes the conversion step for a formula, or "" when none.
func (p *pricing) convHow(c knowledge.Currency) string {
	switch {
	case c == "" || c == p.cur:
		return ""
	case c == knowledge.USD:
		return " × " + num(p.fx)
	default:
		return " ÷ " + num(p.fx)
	}
}

// assumption states the exchange rate when a conversion was made.
func (p *pricing) assumption() []Text {
	if !p.converted {
		return nil
	}
	how := "the default rate; set fx= to change it"
	howZH := "默认汇率，可用 fx= 修改"
	if p.fxGiven {
		how, howZH = "as given", "按你给的汇率"
	}
	v := num(p.fx)
	return []Text{txt("1 USD = "+v+" CNY ("+how+")", "1 美元 = "+v+" 元（"+howZH+"）")}
}

// checkMoney rejects a negative or non-finite amount and an unknown currency.
func checkMoney(field string, m Money, hint string) error {
	switch {
	case math.IsNaN(m.Amount) || math.IsInf(m.Amount, 0):
		return inputErr(field, "amount is not a number", hint)
	case m.Amount < 0:
		return inputErr(field, fmt.Sprintf("amount must not be negative, got %s", num(m.Amount)), hint)
	case m.Currency != "" && m.Currency != knowledge.CNY && m.Currency != knowledge.USD:
		return inputErr(field, fmt.Sprintf("currency must be CNY or USD, got %q", m.Currency), hint)
	}
	return nil
}
