package bot

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

// An API's own price: "deepseek api 一百万token多少钱", "how much is
// gpt-4o-mini per million tokens?" name a hosted API and ask what it
// charges, with no load and nothing to self-host — no model size is
// needed, the sourced price per million input and output tokens is the
// answer.

// apiPriceAsked is the API whose price a question asks, ok false when it
// asks something else: an API named, a price word (the lexicon's
// apis.price), and nothing to self-host — no card, no self-hosting word,
// no model but the API's own ("the deepseek api": deepseek-v3). A load
// a day is billed on the API ("2M tokens a day for 10 days").
func (b *Bot) apiPriceAsked(req parse.Request) (apiPick, bool) {
	s := req.Slots
	t := strings.ToLower(req.Text)
	if len(s.GPUs) > 0 || s.RequestsPerS > 0 || s.PeakRequestsPerS > 0 || hasAny(t, apiWords().SelfHost) || !hasAny(t, apiWords().Price) {
		return apiPick{}, false
	}
	p := b.namedAPI(req.Text, "")
	if p.Family == "" {
		return p, false
	}
	if m := cmpOr(s.Model, s.Arch); m != "" && familyPrefix(m) != p.Family || m == "" && s.ParamsB > 0 {
		return apiPick{}, false // a model of another family, or a size: something to self-host
	}
	return p, true
}

// apiPrice answers an API's price per million tokens from the data.
func (b *Bot) apiPrice(a *Answer, req parse.Request, pick apiPick) error {
	if picks, ok := b.apisCompared(req); ok { // "豆包和 qwen-plus 每百万 token 多少钱，一个月10亿" (api_compare.go)
		return b.apiCompare(a, req, picks)
	}
	cur := b.currency(req)
	s := req.Slots
	days := s.Days
	if days == 0 && s.Hours > 0 {
		days = s.Hours / 24 // "for 10 days" read as 240 hours
		a.use("hours", "the period billed")
	}
	res, err := advisor.APIPrice(advisor.APIPriceInput{Family: pick.Family, Model: pick.Model, Tokens: s.Tokens,
		TokensPerDay: s.TokensPerDay, Days: days, PerMonth: tokensGivenMonthly(s), InputTokens: s.InputTokens, OutputTokens: s.OutputTokens,
		Currency: cur, FX: b.fx(req.Slots), Prices: b.kb.Procurement.APIs})
	if err != nil {
		return err
	}
	a.Intent = "api"
	a.Result = res
	if s.Tokens > 0 {
		a.use("tokens", "the tokens priced, as input and as output")
	}
	for k, how := range map[string]string{"tokens_per_day": "the load billed on the API", "days": "the days billed",
		"input_tokens": "request shape: the blended price", "output_tokens": "request shape: the blended price",
		"model": "the API's family: its own prices", "params_b": "the API's family: its own prices", "arch": "the API's family: its own prices"} {
		a.use(k, how)
	}
	for _, k := range []string{"currency", "fx"} {
		a.use(k, "the answer's currency")
	}
	q := res.Quotes[0]
	also := []Typed{{Asked: "money_per_m_tokens", Value: val(q.Output), Unit: "M output tokens", Currency: string(cur), Choice: q.Model}}
	if res.TokensInput > 0 {
		also = append(also, Typed{Asked: "money_total", Value: val(res.TokensInput), Unit: "input", Currency: string(cur), Choice: q.Model},
			Typed{Asked: "money_total", Value: val(res.TokensOutput), Unit: "output", Currency: string(cur), Choice: q.Model})
	}
	per := Typed{Asked: "money_per_m_tokens", Value: val(q.Input), Unit: "M input tokens", Currency: string(cur), Choice: q.Model, Also: also}
	if res.Bill > 0 {
		asked, unit := "money_total", "total"
		if days <= 0 {
			asked, unit = "money_monthly", "month"
		}
		bill := Typed{Asked: asked, Value: val(res.Bill), Unit: unit, Currency: string(cur), Choice: q.Model}
		if !hasAny(strings.ToLower(req.Text), apiWords().PerMillion) {
			// "每天500万token 多少钱": the bill is the answer, the price behind it
			bill.Also = append([]Typed{{Asked: per.Asked, Value: per.Value, Unit: per.Unit, Currency: per.Currency, Choice: per.Choice}}, also...)
			per = bill
		} else {
			per.Also = append(per.Also, bill)
		}
	}
	a.Typed = &per
	if b.projectIsAPI(s.Project) {
		a.use("project", "the API named") // "2B tokens/month on gpt-4o": the API, not a project
	}
	billFirst := res.Bill > 0 && !hasAny(strings.ToLower(req.Text), apiWords().PerMillion)
	a.show(renderAPIPrice(a.Lang, res, pick, a.Assumed, billFirst))
	return nil
}

// listPrice is a quote's price as the source gives it, when that is
// another currency than the answer's ("$0.15").
func listPrice(lang string, q advisor.APIQuote, cur string) string {
	if string(q.ListCurrency) == cur || q.ListCurrency == "" {
		return ""
	}
	return tr(lang, " (list "+moneyStr(q.ListInput, string(q.ListCurrency))+" / "+moneyStr(q.ListOutput, string(q.ListCurrency))+")",
		"（原价 "+moneyStr(q.ListInput, string(q.ListCurrency))+" / "+moneyStr(q.ListOutput, string(q.ListCurrency))+"）")
}

func renderAPIPrice(lang string, r advisor.APIPriceResult, pick apiPick, as map[string]any, billFirst bool) present.Doc {
	cur := string(r.Currency)
	q := r.Quotes[0]
	var d present.Doc
	lead := ""
	if pick.Unpriced != "" {
		lead = tr(lang, pick.Unpriced+" has no price in the data; the family's newest: ", "数据里没有 "+pick.Unpriced+" 的价格；同系列最新的：")
	}
	d.Headline = lead + tr(lang,
		fmt.Sprintf("%s %s: %s per million input tokens, %s per million output tokens%s — %s, %s", q.Provider, q.Model, moneyStr(q.Input, cur), moneyStr(q.Output, cur), listPrice(lang, q, cur), q.Date, sourceTitle(q.Source)),
		fmt.Sprintf("%s %s：每百万输入 token %s，每百万输出 token %s%s——%s，%s", q.Provider, q.Model, moneyStr(q.Input, cur), moneyStr(q.Output, cur), listPrice(lang, q, cur), q.Date, sourceTitle(q.Source)))
	if r.Bill > 0 && billFirst && r.Inputs.Days <= 0 {
		// "用通义千问API每天1亿token，一个月多少钱": the month is the answer;
		// the split it assumes and the prices behind it follow
		load := tr(lang, fmtNum(r.Inputs.TokensPerDay)+" tokens/day", "每天 "+fmtNum(r.Inputs.TokensPerDay)+" token")
		if r.TokensPerMonth > 0 {
			load = tr(lang, fmt.Sprintf("%s tokens/month (%s a day)", fmtNum(r.TokensPerMonth), fmtNum(math.Round(r.Inputs.TokensPerDay))),
				fmt.Sprintf("每月 %s token（折合每天 %s）", fmtNum(r.TokensPerMonth), fmtNum(math.Round(r.Inputs.TokensPerDay))))
		}
		split := tr(lang, fmtNum(r.SplitInput)+" input : "+fmtNum(r.SplitOutput)+" output", fmtNum(r.SplitInput)+" : "+fmtNum(r.SplitOutput))
		d.Headline = lead + tr(lang,
			fmt.Sprintf("%s %s at %s ≈ %s a month — %s tokens per request assumed (say input_tokens= / output_tokens= to change it), %s in / %s out per million tokens%s, %s blended (%s, %s)",
				q.Provider, q.Model, load, moneyStr(r.Bill, cur), split, moneyStr(q.Input, cur), moneyStr(q.Output, cur), listPrice(lang, q, cur), moneyStr(r.Blended, cur), q.Date, sourceTitle(q.Source)),
			fmt.Sprintf("%s %s：%s，每月约 %s——按每个请求输入 : 输出 = %s token 假设（可用 input_tokens= / output_tokens= 修改），每百万输入 %s、输出 %s%s，混合 %s（%s，%s）",
				q.Provider, q.Model, load, moneyStr(r.Bill, cur), split, moneyStr(q.Input, cur), moneyStr(q.Output, cur), listPrice(lang, q, cur), moneyStr(r.Blended, cur), q.Date, sourceTitle(q.Source)))
		if pick.Model == "" && pick.Unpriced == "" && len(r.Quotes) > 1 {
			d.Summary = append(d.Summary, tr(lang,
				"No model was named: this is the family's newest in the data; its other models are listed below — name yours to bill it.",
				"没有说具体型号：按数据里该系列最新的型号计算；其它型号见下，说出你用的型号即可按它计算。"))
		}
	} else if r.Bill > 0 {
		days := tr(lang, "a month", "每月")
		if r.Inputs.Days > 0 {
			days = tr(lang, "over "+fmtNum(r.Inputs.Days)+" days", fmtNum(r.Inputs.Days)+" 天")
		}
		d.Headline += tr(lang,
			fmt.Sprintf("; %s tokens a day cost %s %s (%s per million blended)", fmtNum(r.Inputs.TokensPerDay), moneyStr(r.Bill, cur), days, moneyStr(r.Blended, cur)),
			fmt.Sprintf("；每天 %s token，%s %s（混合每百万 %s）", fmtNum(r.Inputs.TokensPerDay), days, moneyStr(r.Bill, cur), moneyStr(r.Blended, cur)))
	}
	if r.TokensInput > 0 {
		d.Summary = append(d.Summary, tr(lang,
			fmt.Sprintf("%s tokens cost %s as input, %s as output.", fmtNum(r.Inputs.Tokens), moneyStr(r.TokensInput, cur), moneyStr(r.TokensOutput, cur)),
			fmt.Sprintf("%s token：按输入 %s，按输出 %s。", fmtNum(r.Inputs.Tokens), moneyStr(r.TokensInput, cur), moneyStr(r.TokensOutput, cur))))
	}
	d.Figures = []present.Figure{
		{Label: tr(lang, "input per M tokens", "每百万输入 token"), Value: moneyStr(q.Input, cur)},
		{Label: tr(lang, "output per M tokens", "每百万输出 token"), Value: moneyStr(q.Output, cur)},
	}
	for _, o := range r.Quotes[1:] {
		d.Summary = append(d.Summary, fmt.Sprintf("• %s %s: %s in / %s out per M%s (%s, %s)", o.Provider, o.Model, moneyStr(o.Input, cur), moneyStr(o.Output, cur), listPrice(lang, o, cur), o.Date, o.Confidence))
	}
	d.Summary = append(d.Summary, tr(lang, "Sourced list prices, not quotes: confirm on the provider's page.", "以上为有出处的公开价，不是报价，请以官网为准。"))
	d.Assumed = assumedPairs(as)
	var wk working
	wk.result(lang, r.Lines, r.Assumptions, nil)
	d.Working = wk
	return d
}

// sourceTitle is a quote's source without its address.
func sourceTitle(src string) string {
	t, _, _ := strings.Cut(src, " — http")
	return t
}

// routesToAPI reports whether a question another intent's row received is
// a self-host-vs-API one: a load a day, an API word and an API named ("is
// claude haiku api cheaper than renting an H100 for 50M tokens a day?" is
// read as a rent-or-buy question by the router). The buy row asks it
// before answering (intents.go).
func (b *Bot) routesToAPI(req parse.Request) bool {
	return req.Slots.TokensPerDay > 0 && asksAPI(req.Text) && b.namedAPI(req.Text, cmpOr(req.Slots.Model, req.Slots.Arch)).Family != ""
}
