package bot

import (
	"slices"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// ConvertView is the conversion answer's result: the figure restated, the
// two figures weighed when the question compared them, and the figures
// as the asker wrote them.
type ConvertView struct {
	advisor.ConvertResult
	Said  string            `json:"said"`            // the figure as written
	GPU   string            `json:"gpu,omitempty"`   // the card the figure is for
	Cards int               `json:"cards,omitempty"` // the cards it covers, when named with the card
	Lead  int               `json:"lead"`            // the figure the headline leads with (Figures index)
	Weigh *advisor.Weighing `json:"weigh,omitempty"`
	Other string            `json:"other,omitempty"` // the second figure as written, when weighed
	// Verdict answers "is it cheaper?" ("yes": the figure converted is the
	// lower), or "is it dearer?" the other way round; nil when not asked.
	Verdict *string `json:"verdict,omitempty"`
}

// convert answers a conversion the planner marked (convert.go): the
// figure in the currency asked, per the periods asked, and which of two is
// lower when the question weighs them.
func (b *Bot) convert(a *Answer, req parse.Request) error {
	s := req.Slots
	a.Intent = convertIntent
	lang := a.Lang
	hint := tr(lang, "convert ¥68,000 a month to USD at 7.2", "¥68,000 一个月折合多少美元？按7.2算")
	to := knowledge.Currency("")
	for _, arg := range s.Args[1:] {
		if v, ok := strings.CutPrefix(arg, "to="); ok {
			to = knowledge.Currency(v)
		}
	}
	t := strings.ToLower(req.Text)
	text, rate := stripRates(t)
	figs := convFigures(text)
	other := foreignCurrency(t)
	for _, f := range append(figs, convFigure{}) {
		if f.cur == "EUR" || rate.pair == "EUR" || other != "" && other != "EUR" {
			if other == "" || f.cur == "EUR" || rate.pair == "EUR" {
				other = "EUR"
			}
			a.use("currency", "checked: only CNY and USD convert")
			for _, k := range []string{"price", "monthly", "rent", "amount", "budget"} {
				if m := moneySlot(s, k); m != nil {
					a.use(k, "a figure of a message in euros: the answer says why none is converted")
				}
			}
			return &advisor.InputError{Field: "currency",
				Reason:   other + " is not supported: I convert between CNY (¥) and USD ($) only, so I won't guess a figure in " + other,
				ReasonZH: "不支持" + foreignZH[other] + "（" + other + "）：只能在人民币（¥）和美元（$）之间换算，" + foreignZH[other] + "的数不做猜测",
				Hint:     tr(lang, "convert $2.40 to CNY at 7.2", "$2.40 换成人民币是多少？按7.2算")}
		}
	}
	if len(figs) == 0 {
		if s.FX > 0 {
			a.use("fx", "the exchange rate, for when the amount is given")
		}
		a.use("currency", "the currency asked for")
		return &advisor.InputError{Field: "amount",
			Reason:   tr(lang, "which amount should I convert? give the figure with its currency", "换算哪个金额？请写出金额和币种"),
			ReasonZH: "换算哪个金额？请写出金额和币种",
			Hint:     hint}
	}
	weigh := len(figs) == 2 && reWeigh.MatchString(t)
	mi := 0
	if to != "" {
		for i, f := range figs {
			if f.cur != string(to) {
				mi = i // the figure not yet in the currency asked
				break
			}
		}
	} else {
		to = knowledge.CNY // two currencies weighed: in the other one's
		if figs[0].cur == "CNY" {
			to = knowledge.USD
		}
		if weigh {
			to = knowledge.Currency(figs[1].cur)
		}
	}
	main := figs[mi]
	if main.per == advisor.PerHour && !main.machine && s.Cards <= 1 && (len(s.GPUs) > 0 || s.QuotePer == "card") {
		main.per = advisor.PerCardHour // "$2.49一小时的H100": one card's hour
	}
	want := wants(text, main.per)
	cards := 0
	if want != nil && (main.machine || s.QuotePer == "machine" || s.Cards > 1 && s.QuotePer != "card") {
		cards = s.Cards
	}
	hours := s.HoursPerMonth
	if hours == 0 && main.per == advisor.PerMonth {
		hours = s.Hours
	}
	res, err := advisor.ConvertFigure(advisor.ConvertInput{Amount: money(&main.m), To: to, FX: b.fx(s), FXStated: s.FX > 0,
		Per: main.per, Want: want, Cards: cards, HoursPerMonth: hours})
	if err != nil {
		return err
	}
	v := ConvertView{ConvertResult: res, Said: main.raw}
	if len(s.GPUs) > 0 {
		v.GPU, v.Cards = s.GPUs[0], s.Cards
		a.use("gpus", "the card the figure is for, named in the answer")
		if s.Cards > 0 && cards == 0 {
			a.use("cards", "the machine the figure is for, named in the answer")
			if s.QuotePer != "" {
				a.use("quote_per", "the figure is the whole machine's")
			}
		}
	}
	if len(want) > 0 && want[0] != advisor.PerCardHour {
		v.Lead = 1 // "… what is that per year?": the year leads
	}
	used := moneySlots(&s)
	a.use(slotOf(s, main.m), "the figure converted")
	a.use("currency", "the currency converted to")
	a.use("fx", "the exchange rate")
	if weigh {
		other := figs[1-mi]
		w, err := advisor.WeighFigures(money(&main.m), money(&other.m), to, b.fx(s))
		if err != nil {
			return err
		}
		v.Weigh, v.Other = &w, other.raw
		if used(other.m) {
			a.use(slotOf(s, other.m), "the figure it is weighed against")
		}
		if q := strings.ToLower(req.Text); s.YesNo || reAsksExpensive.MatchString(q) || reAsksDearer.MatchString(q) || strings.Contains(q, "cheaper") {
			yes := w.Lower == 0
			if reAsksDearer.MatchString(q) || reAsksExpensive.MatchString(q) || strings.Contains(q, "more expensive") {
				yes = w.Lower == 1
			}
			v.Verdict = verdict(yes)
		}
	}
	if cards > 0 {
		a.use("cards", "the cards the figure covers: per GPU-hour")
		if s.QuotePer != "" {
			a.use("quote_per", "the figure covers the whole machine")
		}
	}
	if hours > 0 && slices.Contains(want, advisor.PerCardHour) {
		a.use("hours_per_month", "the hours a month the figure pays for: per GPU-hour")
		if s.Hours > 0 {
			a.use("hours", "the hours a month the figure pays for: per GPU-hour")
		}
	}
	a.Result = v
	a.Currency = string(res.Currency)
	a.show(renderConvert(lang, v))
	return nil
}

// moneySlot is the money slot named k, nil when not said.
func moneySlot(s parse.Slots, k string) *parse.Money {
	switch k {
	case "price":
		return s.Price
	case "monthly":
		return s.Monthly
	case "rent":
		return s.Rent
	case "amount":
		return s.Amount
	case "budget":
		return s.Budget
	}
	return nil
}

// slotOf names the money slot holding m ("amount" when the parser put it
// in none: the planner then set it there).
func slotOf(s parse.Slots, m parse.Money) string {
	for _, p := range []struct {
		k string
		m *parse.Money
	}{{"price", s.Price}, {"monthly", s.Monthly}, {"rent", s.Rent}, {"amount", s.Amount}, {"budget", s.Budget}, {"ops", s.Ops}, {"power", s.Power}} {
		if p.m != nil && p.m.Amount == m.Amount {
			return p.k
		}
	}
	return "amount"
}

// perText writes "a month", "/卡时" after a figure per p.
func perText(lang string, p advisor.Period) string {
	switch p {
	case advisor.PerHour:
		return tr(lang, "/h", "/小时")
	case advisor.PerCardHour:
		return tr(lang, " per card-hour", "/卡时")
	case advisor.PerMonth:
		return tr(lang, " a month", "/月")
	case advisor.PerYear:
		return tr(lang, " a year", "/年")
	}
	return ""
}

// renderConvert: the figure in the currency asked first, the arithmetic
// with the rate on a "How:" line, the other periods and the weighing after.
func renderConvert(lang string, v ConvertView) present.Doc {
	var d present.Doc
	from, cur := string(v.From), string(v.Currency)
	given := v.Figures[0]
	lead := v.Figures[min(v.Lead, len(v.Figures)-1)]
	rate := fmtNum(v.FX)
	name := ""
	if v.GPU != "" {
		name = gpuName(v.GPU) + tr(lang, ": ", "：")
		if v.Cards > 1 {
			name = fmtNum(float64(v.Cards)) + "× " + name
		}
	}
	head := name + moneyStr(lead.To, cur) + perText(lang, lead.Per)
	said := moneyStr(given.From, from) + perText(lang, given.Per)
	if from == cur {
		d.Headline = head + tr(lang, " — "+said+" restated", "（即 "+said+"）")
	} else {
		d.Headline = head + tr(lang, " — "+said+" at "+rate+" CNY per USD", "（"+said+"，按 1 美元 = "+rate+" 元）")
	}
	if w := v.Weigh; w != nil {
		other := moneyStr(w.Second, string(w.Currency)) + perText(lang, given.Per)
		switch w.Lower {
		case 0:
			d.Headline += tr(lang, "; cheaper than "+other+" by "+moneyStr(w.Difference, string(w.Currency)), "；比 "+other+" 便宜 "+moneyStr(w.Difference, string(w.Currency)))
		case 1:
			d.Headline += tr(lang, "; dearer than "+other+" by "+moneyStr(w.Difference, string(w.Currency)), "；比 "+other+" 贵 "+moneyStr(w.Difference, string(w.Currency)))
		default:
			d.Headline += tr(lang, "; the same as "+other, "；与 "+other+" 相同")
		}
	}
	// How: the conversion, then each period from it
	var steps []string
	conv := said
	if from != cur {
		op := " × "
		if from == "CNY" {
			op = " ÷ "
		}
		conv = said + op + rate + " = " + moneyStr(given.To, cur) + perText(lang, given.Per)
	}
	steps = append(steps, conv)
	for _, f := range v.Figures[1:] {
		switch f.Per {
		case advisor.PerCardHour:
			in := v.Inputs
			n := fmtNum(float64(max(in.Cards, 1)))
			h := fmtNum(hoursIn(in, given.Per))
			s := tr(lang, "per GPU-hour: ", "每卡时：") + moneyStr(given.From, from) + " ÷ (" + n + tr(lang, " cards × ", " 卡 × ") + h + tr(lang, " h", " 小时") + ") = " + moneyStr(f.From, from)
			if from != cur {
				s += " = " + moneyStr(f.To, cur)
			}
			steps = append(steps, s)
		default:
			steps = append(steps, moneyStr(given.To, cur)+" × "+fmtNum(f.To/given.To)+" = "+moneyStr(f.To, cur)+perText(lang, f.Per))
		}
	}
	source := tr(lang, "the bot's rate; say “at 7.15” to use another", "默认汇率；可说“按7.15算”换一个")
	if v.FXGiven {
		source = tr(lang, "your rate", "按你给的汇率")
	}
	d.Summary = append(d.Summary, tr(lang, "How: ", "算法：")+strings.Join(steps, tr(lang, "; ", "；"))+
		tr(lang, " (1 USD = "+rate+" CNY, "+source+")", "（1 美元 = "+rate+" 元，"+source+"）"))
	for i, f := range v.Figures {
		label := tr(lang, "in "+cur, "折合"+currencyName(lang, cur))
		if i > 0 {
			label = periodLabel(lang, f.Per)
		}
		d.Figures = append(d.Figures, present.Figure{Label: label, Value: moneyStr(f.To, cur) + perText(lang, f.Per)})
	}
	var wk working
	wk.result(lang, v.Lines, v.Assumptions, nil)
	if v.Weigh != nil {
		wk.lines(lang, v.Weigh.Lines)
	}
	d.Working = wk
	return d
}

// periodLabel names a figure per p in the key figures.
func periodLabel(lang string, p advisor.Period) string {
	switch p {
	case advisor.PerHour:
		return tr(lang, "per hour", "每小时")
	case advisor.PerCardHour:
		return tr(lang, "per GPU-hour", "每卡时")
	case advisor.PerMonth:
		return tr(lang, "per month", "每月")
	case advisor.PerYear:
		return tr(lang, "per year", "每年")
	}
	return tr(lang, "total", "合计")
}

// hoursIn is the hours the given figure's period spans (per-GPU-hour
// working): a month's running hours, a year's twelve of them, one hour.
func hoursIn(in advisor.ConvertInput, p advisor.Period) float64 {
	month := in.HoursPerMonth
	if month <= 0 {
		month = knowledge.HoursPerMonth
	}
	switch p {
	case advisor.PerMonth:
		return month
	case advisor.PerYear:
		return month * advisor.MonthsPerYear
	}
	return 1
}

// currencyName names a currency in a sentence.
func currencyName(lang, cur string) string {
	if cur == "USD" {
		return tr(lang, "USD", "美元")
	}
	return tr(lang, "CNY", "人民币")
}

// convertFigures are a conversion's typed figures (resultFigures): the
// figure the headline leads with first, each period's, the weighing.
func convertFigures(v ConvertView) ([]typedFigure, *string, string) {
	cur := string(v.Currency)
	unit := func(p advisor.Period) string {
		switch p {
		case advisor.PerHour, advisor.PerCardHour:
			return "card_hour"
		case advisor.PerMonth, advisor.PerYear:
			return string(p)
		}
		return ""
	}
	var figs []typedFigure
	for _, f := range v.Figures {
		figs = append(figs, typedFigure{asked: askedName(f.Per), value: f.To, unit: unit(f.Per), currency: cur})
	}
	if w := v.Weigh; w != nil {
		choice := v.Said
		if w.Lower == 1 {
			choice = v.Other
		}
		figs = append(figs, typedFigure{asked: "which", value: w.Difference, unit: unit(v.Figures[0].Per), currency: string(w.Currency), choice: choice},
			typedFigure{asked: "saving", value: w.Difference, unit: unit(v.Figures[0].Per), currency: string(w.Currency), choice: choice})
	}
	lead := v.Figures[min(v.Lead, len(v.Figures)-1)]
	return figs, v.Verdict, askedName(lead.Per)
}

// foreignZH names the currencies not converted, in Chinese.
var foreignZH = map[string]string{"EUR": "欧元", "GBP": "英镑", "JPY": "日元"}
