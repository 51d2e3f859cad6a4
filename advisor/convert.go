package advisor

import (
	"fmt"
	"math"
	"slices"

	"github.com/gpubot/gpubot/knowledge"
)

// Period is what a money figure is per.
type Period string

// The periods a figure can be per. A figure per hour, month or year covers
// the cards it names (ConvertInput.Cards); a figure per card-hour covers one
// card.
const (
	PerTotal    Period = ""          // a one-off amount: a quote, a bill
	PerHour     Period = "hour"      // per hour of the cards it covers
	PerCardHour Period = "card_hour" // per card-hour
	PerMonth    Period = "month"
	PerYear     Period = "year"
)

// MonthsPerYear turns a month into a year and back.
const MonthsPerYear = 12

// ConvertInput is a money figure the user gave, to restate in another
// currency and, when asked, per other periods.
type ConvertInput struct {
	Amount Money              `json:"amount"` // the figure; its currency must be CNY or USD
	To     knowledge.Currency `json:"to"`     // the currency asked for (CNY or USD)
	FX     float64            `json:"fx"`     // CNY per USD; 0: DefaultCNYPerUSD
	// FXStated says the user gave FX (the rate is then stated "as given").
	FXStated bool   `json:"fx_stated,omitempty"`
	Per      Period `json:"per"` // what the figure is per
	// Want are the further periods asked for (month, year, card_hour), in
	// the order asked.
	Want []Period `json:"want,omitempty"`
	// Cards is how many cards the figure covers (a machine's 8); 0 or 1:
	// one. Only a per card-hour figure divides by it.
	Cards int `json:"cards,omitempty"`
	// HoursPerMonth is how many hours the cards run a month; 0: 730
	// (knowledge.HoursPerMonth, the month's average length).
	HoursPerMonth float64 `json:"hours_per_month,omitempty"`
}

// ConvertedFigure is the figure per one period, in the currency it was
// given in and in the one asked for.
type ConvertedFigure struct {
	Per  Period  `json:"per"`
	From float64 `json:"from"` // in the figure's currency
	To   float64 `json:"to"`   // in the currency asked for
}

// ConvertResult is a figure restated: as given, then per each period
// asked, each in both currencies, with the arithmetic in Lines.
type ConvertResult struct {
	Inputs      ConvertInput       `json:"inputs"`
	From        knowledge.Currency `json:"from"`     // the figure's currency
	Currency    knowledge.Currency `json:"currency"` // the currency asked for
	FX          float64            `json:"fx"`       // CNY per USD used
	FXGiven     bool               `json:"fx_given"`
	Figures     []ConvertedFigure  `json:"figures"` // the figure as given first, then each period asked
	Lines       []Line             `json:"lines"`
	Assumptions []Text             `json:"assumptions"`
}

// ConvertFigure restates a money figure in another currency at fx yuan per
// dollar and, when asked, per other periods: a month is HoursPerMonth
// hours (730 unless given), a year twelve months, and a card-hour the
// figure's hours divided by the cards it covers.
func ConvertFigure(in ConvertInput) (ConvertResult, error) {
	const hint = "convert $14,342 to CNY at 7.2"
	if err := checkMoney("amount", in.Amount, hint); err != nil {
		return ConvertResult{}, err
	}
	if in.Amount.Currency == "" {
		return ConvertResult{}, inputErrZH("currency", "say which currency the figure is in (¥ or $)", "请写明金额的币种（¥ 或 $）", hint)
	}
	if in.To == "" {
		return ConvertResult{}, inputErrZH("currency", "say which currency to convert to (CNY or USD)", "请说明换算成哪种货币（人民币或美元）", hint)
	}
	var defaulted []string
	p, err := newPricing(in.To, "", in.FX, hint, &defaulted)
	if err != nil {
		return ConvertResult{}, err
	}
	cards := max(in.Cards, 1)
	month := in.HoursPerMonth
	if month <= 0 {
		month = knowledge.HoursPerMonth
	}
	if math.IsNaN(month) || math.IsInf(month, 0) || month > 744 {
		return ConvertResult{}, inputErrZH("hours_per_month", fmt.Sprintf("a month has at most 744 hours, got %s", num(month)), fmt.Sprintf("一个月最多 744 小时，给的是 %s", num(month)), hint)
	}
	// hoursOf is the hours a period spans: a month of the cards' running
	// hours, a year twelve of them
	hoursOf := func(p Period) float64 {
		switch p {
		case PerMonth:
			return month
		case PerYear:
			return month * MonthsPerYear
		}
		return 1
	}
	from := in.Amount.Currency
	p.fxGiven = in.FXStated
	r := ConvertResult{Inputs: in, From: from, Currency: p.cur, FX: p.fx, FXGiven: p.fxGiven}
	given := ConvertedFigure{Per: in.Per, From: in.Amount.Amount, To: p.to(in.Amount.Amount, from)}
	r.Figures = append(r.Figures, given)
	r.Lines = append(r.Lines, Line{Key: "converted", Label: txt("the figure in "+string(p.cur), "换算成"+currencyZH(p.cur)),
		Value: given.To, Unit: string(p.cur) + perUnit(in.Per),
		How: money(given.From, from) + p.convHow(from) + " = " + money(given.To, p.cur)})
	for _, w := range in.Want {
		if w == in.Per || slices.ContainsFunc(r.Figures, func(f ConvertedFigure) bool { return f.Per == w }) {
			continue
		}
		if in.Per == PerTotal {
			return ConvertResult{}, inputErrZH("per", "a one-off amount has no per-period figure; say what it is per (a month, an hour)",
				"一次性的金额没法按时间摊；请说明是每月还是每小时的价格", hint)
		}
		f := ConvertedFigure{Per: w}
		var how string
		switch {
		case w == PerCardHour && in.Per != PerCardHour:
			// the figure's hours spread over the cards it covers
			n := hoursOf(in.Per) * float64(cards)
			f.From, f.To = given.From/n, given.To/n
			how = money(given.From, from) + " ÷ (" + num(float64(cards)) + " × " + num(hoursOf(in.Per)) + " h) = " + money(f.From, from)
			if from != p.cur {
				how += p.convHow(from) + " = " + money(f.To, p.cur)
			}
		default:
			// one card's figure or the same cards', over a longer or shorter span
			k := hoursOf(w) / hoursOf(in.Per)
			f.From, f.To = given.From*k, given.To*k
			how = money(given.To, p.cur) + " × " + num(k) + " = " + money(f.To, p.cur)
			if w == PerYear && in.Per == PerMonth {
				how = money(given.To, p.cur) + " × 12 = " + money(f.To, p.cur)
			}
		}
		r.Figures = append(r.Figures, f)
		r.Lines = append(r.Lines, Line{Key: "per_" + string(w), Label: txt("per "+periodEN(w), "每"+periodZH(w)),
			Value: f.To, Unit: string(p.cur) + perUnit(w), How: how})
	}
	if slices.Contains(in.Want, PerCardHour) && in.Per != PerCardHour {
		r.Assumptions = append(r.Assumptions, txt(fmt.Sprintf("%s cards running %s h a month", num(float64(cards)), num(month)),
			fmt.Sprintf("%s 张卡，每月运行 %s 小时", num(float64(cards)), num(month))))
	}
	longer := slices.ContainsFunc(in.Want, func(w Period) bool { return w == PerYear || w == PerMonth })
	switch hourly := in.Per == PerCardHour || in.Per == PerHour; {
	case longer && hourly:
		r.Assumptions = append(r.Assumptions, txt(fmt.Sprintf("a month is %s h, a year 12 months", num(month)), fmt.Sprintf("一个月按 %s 小时，一年按 12 个月", num(month))))
	case longer:
		r.Assumptions = append(r.Assumptions, txt("a year is 12 months", "一年按 12 个月"))
	}
	r.Assumptions = append(r.Assumptions, p.assumption()...)
	return r, nil
}

// Weighing is two figures per the same period put in one currency: which
// is lower, and by how much.
type Weighing struct {
	Currency   knowledge.Currency `json:"currency"`
	First      float64            `json:"first"`  // the first figure in Currency
	Second     float64            `json:"second"` // the second figure in Currency
	Lower      int                `json:"lower"`  // 0: the first, 1: the second, -1: equal
	Difference float64            `json:"difference"`
	Lines      []Line             `json:"lines"`
}

// WeighFigures puts two figures per the same period in currency to at fx
// yuan per dollar and says which is lower.
func WeighFigures(first, second Money, to knowledge.Currency, fx float64) (Weighing, error) {
	const hint = "$2.49/h vs ¥15.8/h"
	for _, m := range []Money{first, second} {
		if err := checkMoney("amount", m, hint); err != nil {
			return Weighing{}, err
		}
	}
	var defaulted []string
	p, err := newPricing(to, "", fx, hint, &defaulted)
	if err != nil {
		return Weighing{}, err
	}
	w := Weighing{Currency: p.cur, First: p.money(first), Second: p.money(second), Lower: -1}
	w.Difference = math.Abs(w.First - w.Second)
	switch {
	case w.First < w.Second:
		w.Lower = 0
	case w.Second < w.First:
		w.Lower = 1
	}
	w.Lines = []Line{
		{Key: "first", Label: txt("the first figure", "第一个价格"), Value: w.First, Unit: string(p.cur), How: money(first.Amount, first.Currency) + p.convHow(first.Currency)},
		{Key: "second", Label: txt("the second figure", "第二个价格"), Value: w.Second, Unit: string(p.cur), How: money(second.Amount, second.Currency) + p.convHow(second.Currency)},
		{Key: "difference", Label: txt("difference", "差额"), Value: w.Difference, Unit: string(p.cur), How: "|" + money(w.First, p.cur) + " − " + money(w.Second, p.cur) + "|"},
	}
	return w, nil
}

// perUnit is the unit suffix of a figure per p ("/month").
func perUnit(p Period) string {
	switch p {
	case PerHour:
		return "/h"
	case PerCardHour:
		return "/card-hour"
	case PerMonth:
		return "/month"
	case PerYear:
		return "/year"
	}
	return ""
}

func periodEN(p Period) string {
	if p == PerCardHour {
		return "card-hour"
	}
	return string(p)
}

func periodZH(p Period) string {
	switch p {
	case PerHour:
		return "小时"
	case PerCardHour:
		return "卡时"
	case PerMonth:
		return "月"
	case PerYear:
		return "年"
	}
	return ""
}

func currencyZH(c knowledge.Currency) string {
	if c == knowledge.USD {
		return "美元"
	}
	return "人民币"
}
