package ledger

import (
	"fmt"
	"github.com/gpubot/gpubot/bot/parse/amount"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// Money is an amount in minor units (fen, cents: 1/100) of one currency, so
// sums are exact. The zero value, with no currency, means "no amount".
type Money struct {
	Minor    int64              `json:"minor"`
	Currency knowledge.Currency `json:"currency"`
}

// MoneyFromFloat rounds v to the nearest minor unit (half away from zero).
// It goes through v's shortest decimal spelling, so 75.005 becomes 75.01 and
// not 75.00 as v*100 in binary floating point would give.
func MoneyFromFloat(v float64, cur knowledge.Currency) Money {
	m, err := decimalMinor(strconv.FormatFloat(v, 'f', -1, 64))
	if err != nil { // NaN or ±Inf: nothing sensible to book
		return Money{Currency: cur}
	}
	return Money{Minor: m, Currency: cur}
}

// IsZero reports whether m carries no amount at all (no currency).
func (m Money) IsZero() bool { return m.Currency == "" }

// Float is the amount in major units, for display maths and charts.
func (m Money) Float() float64 { return float64(m.Minor) / 100 }

// Decimal is the amount as a plain decimal, "7515.50".
func (m Money) Decimal() string {
	sign := ""
	v := m.Minor
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

// String is the amount for people: "¥7,515.50", "$50.00", "12.00 EUR".
func (m Money) String() string {
	sign := ""
	v := m.Minor
	if v < 0 {
		sign, v = "-", -v
	}
	num := groupThousands(v/100) + fmt.Sprintf(".%02d", v%100)
	switch m.Currency {
	case knowledge.CNY:
		return sign + "¥" + num
	case knowledge.USD:
		return sign + "$" + num
	case "":
		return sign + num
	}
	return sign + num + " " + string(m.Currency)
}

func groupThousands(v int64) string {
	s := strconv.FormatInt(v, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Amounts holds a sum per currency in minor units. Currencies are never added
// to each other; FX.Convert gives one figure when a rate is supplied.
type Amounts map[knowledge.Currency]int64

func (a Amounts) add(m Money) {
	if m.IsZero() {
		return
	}
	a[m.Currency] += m.Minor
}

// Money returns the sum in one currency.
func (a Amounts) Money(c knowledge.Currency) Money { return Money{Minor: a[c], Currency: c} }

// Currencies lists the currencies present, sorted.
func (a Amounts) Currencies() []knowledge.Currency {
	out := make([]knowledge.Currency, 0, len(a))
	for c := range a {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Sub is a − b per currency (the change from b to a), over the currencies of
// both.
func (a Amounts) Sub(b Amounts) Amounts {
	out := Amounts{}
	for c, v := range a {
		out[c] += v
	}
	for c, v := range b {
		out[c] -= v
	}
	return out
}

// String lists each currency's sum, "¥7,515.50 + $50.00", or "0" when empty.
func (a Amounts) String() string {
	if len(a) == 0 {
		return "0"
	}
	parts := make([]string, 0, len(a))
	for _, c := range a.Currencies() {
		parts = append(parts, a.Money(c).String())
	}
	return strings.Join(parts, " + ")
}

// FX converts amounts into one currency. Rates[c] is how many units of To one
// unit of c is worth (FX{To: CNY, Rates: {USD: 7.2}}); To itself is 1.
type FX struct {
	To    knowledge.Currency
	Rates map[knowledge.Currency]float64
}

// Convert sums a into fx.To, rounding each converted currency to a minor
// unit. ok is false, and the sum is not given, when a currency has no rate.
func (fx FX) Convert(a Amounts) (Money, bool) {
	total := Money{Currency: fx.To}
	for c, v := range a {
		if c == fx.To {
			total.Minor += v
			continue
		}
		r, ok := fx.Rates[c]
		if !ok || r <= 0 {
			return Money{}, false
		}
		total.Minor += int64(math.Round(float64(v) * r))
	}
	return total, true
}

// ParseAmount reads money the way bills and people write it: "¥75", "￥1,600.00",
// "75元", "75块", "$2.5", "US$2.5", "2.5 USD", "RMB 75", "75.00", "1.6万",
// "一万六", "1.2萬" — with the one reader the parser uses (bot/parse/amount).
// A bare number takes def as its currency. Hourly rates ("$2.5/h"), negative
// amounts, scientific notation and an ambiguous decimal comma are refused:
// the ledger books what was spent, as it was written.
func ParseAmount(s string, def knowledge.Currency) (Money, error) {
	if strings.Contains(s, "每") {
		return Money{}, fmt.Errorf("%q looks like a rate; give the total spent", s)
	}
	m, err := amount.Read(s)
	if err != nil {
		return Money{}, err
	}
	if m.Per != "" || strings.Contains(s, "/") {
		return Money{}, fmt.Errorf("%q looks like a rate; give the total spent", s)
	}
	cur := knowledge.Currency(m.Currency)
	if cur == "" {
		cur = def
	}
	return MoneyFromFloat(m.Amount, cur), nil // exact decimal rounding of the figure as written
}

// decimalMinor reads a plain decimal ("1600", "56.4", "0.005") into minor
// units, rounding the third decimal half away from zero, without going
// through binary floating point.
func decimalMinor(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" {
		return 0, fmt.Errorf("no digits")
	}
	for _, part := range []string{whole, frac} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return 0, fmt.Errorf("not a decimal")
			}
		}
	}
	if len(whole) > 15 {
		return 0, fmt.Errorf("too large")
	}
	var w int64
	if whole != "" {
		w, _ = strconv.ParseInt(whole, 10, 64)
	}
	frac += "000"
	cents, _ := strconv.ParseInt(frac[:2], 10, 64)
	v := w*100 + cents
	if frac[2] >= '5' {
		v++
	}
	if neg {
		v = -v
	}
	return v, nil
}
