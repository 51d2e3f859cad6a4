package bot

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// The words of API questions live in the lexicon's apis section
// (knowledge.APIWords); api_names.go reads which API a question names.

// asksAPI reports whether a question is about a hosted API: an API word,
// or two API families named ("gpt-4o-mini vs claude haiku …": weighing
// APIs needs no word for them).
func asksAPI(text string) bool {
	return hasAny(strings.ToLower(text), apiWords().Words) || familiesWorded(text) >= 2
}

// apiWords is the lexicon's apis section.
func apiWords() knowledge.APIWords { return knowledge.MustLexicon().APIs }

// familyPrefix is the family of a model id by its first letters.
func familyPrefix(model string) string {
	m := strings.ToLower(model)
	for _, f := range apiWords().Families {
		if strings.HasPrefix(m, f.Family) {
			return f.Family
		}
	}
	return ""
}

// APIView is the self-host-vs-API answer: the serving plan and the API bills.
// Subject is the side a yes/no asks about ("api": "is the API cheaper
// than renting?", "self_host": "自建比调API便宜吗"): its verdict is yes
// when that side is the cheaper.
type APIView struct {
	advisor.APIResult
	SelfHost advisor.CostResult `json:"self_host"`
	Subject  string             `json:"subject"`
}

// api sizes the self-hosted plan with the cost engine, then bills the same
// load on every sourced host of the model and on the API the question
// names. A question naming an API but no model of its own ("is Claude
// Haiku cheaper than renting an H100 for 50M tokens a day?") is sized
// with an open model of the API's class (the lexicon's apis.classes),
// said as assumed.
func (b *Bot) api(ctx context.Context, a *Answer, req parse.Request) error {
	if picks, ok := b.apisCompared(req); ok { // "豆包和 qwen-plus 哪个便宜" (api_compare.go)
		return b.apiCompare(a, req, picks)
	}
	pick := b.namedAPI(req.Text, cmpOr(req.Slots.Model, req.Slots.Arch))
	sized := ""
	if req.Slots.ParamsB == 0 && req.Slots.Model == "" && req.Slots.Arch == "" && pick.Family != "" {
		if m, ok := apiClassModel(pick); ok {
			req.Slots.Model, req.Slots.ParamsB = m.ID, m.ParamsB
			if req.Slots.Method == "" {
				req.Slots.Method = string(advisor.Inference)
			}
			req.Slots.Missing = slices.DeleteFunc(slices.Clone(req.Slots.Missing), func(k string) bool { return k == "params_b" })
			sized = m.ID
		}
	}
	if sh := req.Slots.InputShare; sh > 0 && sh < 1 && req.Slots.InputTokens == 0 && req.Slots.OutputTokens == 0 {
		// "每天 2 亿输入 + 4000 万输出": the split stated is the requests'
		// shape, at the default 1,500 tokens a request (1,000 + 500)
		in := int(math.Round(1500 * sh))
		req.Slots.InputTokens, req.Slots.OutputTokens = max(in, 1), max(1500-in, 1)
		a.use("input_share", "the input:output split: each request's shape")
	}
	if err := b.cost(ctx, a, req); err != nil {
		return err
	}
	cr, ok := a.Result.(advisor.CostResult)
	if !ok || cr.Plan == nil {
		return nil // no serving plan (no load, or an image model): the cost answer stands
	}
	in := advisor.APIInput{
		Model: cmpOr(req.Slots.Model, req.Slots.Arch), TokensPerDay: req.Slots.TokensPerDay,
		InputTokens: cr.Inputs.InputTokens, OutputTokens: cr.Inputs.OutputTokens,
		Currency: cr.Currency, FX: b.fx(req.Slots), SelfHost: cr.Plan, Prices: b.kb.Procurement.APIs,
		Named: pick.Family, NamedModel: pick.Model, PerMonth: tokensGivenMonthly(req.Slots),
	}
	ask := apiAsk{yesNo: req.Slots.YesNo, sized: sized, pick: pick, billFirst: apiBillAsked(req.Text, pick) && pick.Unpriced == "",
		closest: b.closestAPIs(pick, cr.Currency, in.FX)}
	if b.projectIsAPI(req.Slots.Project) {
		a.use("project", "the API named") // "2B tokens/month on gpt-4o": the API, not a project
	}
	if pick.Unpriced != "" {
		in.Named, in.NamedModel = "", "" // "claude opus": not in the data, so no other model of the family stands in for it
	}
	res, err := advisor.CompareAPI(in)
	if err != nil {
		// no API price for this model: the cost answer stands, says nothing
		// it cannot source, and says why the API side is missing
		d := a.Doc
		en, zh := "No hosted API price for this model is in the data", "数据里没有这个模型的 API 报价"
		if in.Model != "" {
			en, zh = "No hosted API price for "+in.Model+" is in the data", "数据里没有 "+in.Model+" 的 API 报价"
		}
		d.Summary = append([]string{tr(a.Lang,
			en+", so the API side is not compared: the self-hosted bill above is what to weigh against your API invoice.",
			zh+"，所以没有和 API 对比：拿上面的自建月费和你的 API 账单比即可。")}, d.Summary...)
		if pick.Unpriced != "" {
			d.Headline = tr(a.Lang, pick.Unpriced+" has no API price in the data, so it is not weighed. Self-hosted: ",
				"数据里没有 "+pick.Unpriced+" 的 API 价格，没法比较。自建：") + d.Headline
			d.Summary = append(closestLines(a.Lang, pick, ask.closest, string(cr.Currency)), d.Summary...)
		}
		a.show(d)
		return nil
	}
	a.Intent = "api"
	for _, k := range []string{"cards", "method", "bits", "seq_len", "input_tokens", "output_tokens", "requests_per_s", "peak_requests_per_s", "platform", "engine"} {
		a.use(k, "the self-hosted serving plan")
	}
	if sized != "" {
		a.Assumed["model"] = sized
	}
	if pick.Unpriced != "" {
		a.Assumed["api"] = pick.Unpriced
	}
	// the cost engine's million tokens priced is not this answer's figure:
	// the load a day is
	delete(a.Assumed, "tokens")
	v := APIView{APIResult: res, SelfHost: cr, Subject: apiSubject(req.Text)}
	a.Result = v
	a.show(renderAPI(a.Lang, v, a.Assumed, ask))
	return nil
}

// apiPerM weighs a self-hosted cost per million tokens against the APIs
// when the question asks for both ("每百万token成本多少？跟官方API价差几倍？"):
// the same requests billed by the API the question names, else the
// model's cheapest host. ok is false when the question does not ask, or
// no API price is sourced (the answer then says so).
func (b *Bot) apiPerM(req parse.Request, res advisor.CostResult) (advisor.APIPerMResult, bool, error) {
	if !asksAPI(req.Text) || res.Plan != nil || res.PerMTokens <= 0 || res.Inputs.Workload.Method != advisor.Inference {
		return advisor.APIPerMResult{}, false, nil
	}
	model := cmpOr(req.Slots.Model, req.Slots.Arch)
	pick := b.namedAPI(req.Text, model)
	in := advisor.APIInput{Model: model, InputTokens: res.Inputs.InputTokens, OutputTokens: res.Inputs.OutputTokens,
		Currency: res.Currency, FX: b.fx(req.Slots), Prices: b.kb.Procurement.APIs, Named: pick.Family, NamedModel: pick.Model}
	cmp, err := advisor.CompareAPIPerM(in, res.PerMTokens)
	return cmp, err == nil, err
}

// withAPIPerM adds the API's price per million output tokens and the
// ratio to a cost answer's headline, the steps to its working.
func withAPIPerM(lang string, d present.Doc, c advisor.APIPerMResult) present.Doc {
	cur := string(c.Currency)
	q := c.Best
	ratio := tr(lang, fmt.Sprintf("self-hosting costs %s× the API", fmtNum(c.Ratio)), fmt.Sprintf("自建是 API 的 %s 倍", fmtNum(c.Ratio)))
	if c.Ratio > 0 && c.Ratio < 0.5 {
		// a small fraction reads better the other way round
		ratio = tr(lang, fmt.Sprintf("the API costs %s× self-hosting", fmtNum(c.APIRatio)), fmt.Sprintf("API 是自建的 %s 倍", fmtNum(c.APIRatio)))
	}
	if q.FirstParty {
		ratio += tr(lang, " (the API is a different model)", "（API 是另一个模型）")
	}
	d.Headline += tr(lang,
		fmt.Sprintf("; %s %s bills %s per million output tokens for the same requests — %s", q.Provider, q.Model, moneyStr(c.PerMOutput, cur), ratio),
		fmt.Sprintf("；同样的请求 %s %s 每百万输出 token %s——%s", q.Provider, q.Model, moneyStr(c.PerMOutput, cur), ratio))
	var wk working
	wk.result(lang, c.Lines, c.Assumptions, nil)
	d.Working = append(d.Working, wk...)
	return d
}
