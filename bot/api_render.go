package bot

import (
	"fmt"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
)

// apiAsk is what a self-host-vs-API question asked beyond its figures:
// a yes/no, the open model assumed for the self-hosted side ("" when the
// question sized it), and the API it named.
type apiAsk struct {
	yesNo bool
	sized string
	pick  apiPick
}

// apiLabel names the API a verdict is on: the one the question named, the
// cheapest host of the model itself, or — when no host serves it — the
// cheapest API listed, said to be a different model.
func apiLabel(lang string, q advisor.APIQuote, model string) string {
	name := q.Provider + " " + q.Model
	switch {
	case q.Named:
		return name
	case !q.FirstParty:
		return tr(lang, "the cheapest host of "+model+" ("+name+")", model+" 最便宜的托管 API（"+name+"）")
	}
	return tr(lang, "the cheapest API listed ("+name+", a different model)", "所列最便宜的 API（"+name+"，不是同一个模型）")
}

func renderAPI(lang string, v APIView, as map[string]any, ask apiAsk) present.Doc {
	r, cr := v.APIResult, v.SelfHost
	cur := string(r.Currency)
	best := r.Quotes[0]
	pl := cr.Plan
	load := fmtNum(r.Inputs.TokensPerDay)
	model := r.Inputs.Model
	if model == "" {
		model = tr(lang, "the "+fmtNum(cr.Inputs.Workload.ParamsB)+"B model", fmtNum(cr.Inputs.Workload.ParamsB)+"B 模型")
	}
	api := apiLabel(lang, best, model)
	plan := tr(lang, fmt.Sprintf("%s× %s ×%s", fmtNum(float64(pl.Replicas)), gpuName(cr.GPU), fmtNum(float64(cr.GPUs))),
		fmt.Sprintf("%s 个副本 × %s 张 %s", fmtNum(float64(pl.Replicas)), fmtNum(float64(cr.GPUs)), gpuName(cr.GPU)))
	var d present.Doc
	be := tr(lang, "no break-even: the API is cheaper at any load", "没有打平点：任何负载下 API 都更便宜")
	if !r.NoBreakeven {
		be = tr(lang, fmt.Sprintf("self-hosting pays above ≈%s tokens/day", fmtNum(r.BreakevenTokensPerDay)), fmt.Sprintf("每天超过约 %s token 自建更省", fmtNum(r.BreakevenTokensPerDay)))
		if r.BreakevenReplicas > 1 {
			be = tr(lang, fmt.Sprintf("self-hosting on %s replicas pays above ≈%s tokens/day", fmtNum(float64(r.BreakevenReplicas)), fmtNum(r.BreakevenTokensPerDay)),
				fmt.Sprintf("按 %s 个副本，每天超过约 %s token 自建更省", fmtNum(float64(r.BreakevenReplicas)), fmtNum(r.BreakevenTokensPerDay)))
		}
	}
	lead := ""
	if ask.yesNo && ask.pick.Unpriced == "" {
		yes := r.Cheaper == v.Subject
		lead = tr(lang, "No — ", "不是，")
		if yes {
			lead = tr(lang, "Yes — ", "是的，")
		}
	}
	if ask.pick.Unpriced != "" {
		lead = tr(lang, ask.pick.Unpriced+" has no API price in the data, so it is not weighed; with what the data has: ",
			"数据里没有 "+ask.pick.Unpriced+" 的 API 价格，没法直接比；按数据里有的价格：")
	}
	apiWins, selfWins := "Call the API", "Self-host"
	if lead != "" {
		apiWins, selfWins = "the API is cheaper", "self-hosting is cheaper"
	}
	if r.Cheaper == "api" {
		d.Headline = lead + tr(lang,
			fmt.Sprintf(apiWins+": %s tokens/day on %s costs %s a month vs %s self-hosted (%s), %s a month less — %s", load, api, moneyStr(best.Monthly, cur), moneyStr(r.SelfHostMonthly, cur), plan, moneyStr(r.SavingMonthly, cur), be),
			fmt.Sprintf("调 API 更省：每天 %s token，%s 每月 %s，自建（%s）每月 %s，每月省 %s——%s", load, api, moneyStr(best.Monthly, cur), plan, moneyStr(r.SelfHostMonthly, cur), moneyStr(r.SavingMonthly, cur), be))
	} else {
		d.Headline = lead + tr(lang,
			fmt.Sprintf(selfWins+": %s tokens/day costs %s a month on %s vs %s on %s, %s a month less — %s", load, moneyStr(r.SelfHostMonthly, cur), plan, moneyStr(best.Monthly, cur), api, moneyStr(r.SavingMonthly, cur), be),
			fmt.Sprintf("自建更省：每天 %s token，自建（%s）每月 %s，%s 每月 %s，每月省 %s——%s", load, plan, moneyStr(r.SelfHostMonthly, cur), api, moneyStr(best.Monthly, cur), moneyStr(r.SavingMonthly, cur), be))
	}
	if best.Named && best.FirstParty {
		d.Summary = append(d.Summary, tr(lang,
			fmt.Sprintf("%s is a different model from %s: compare answer quality as well as price.", best.Model, model),
			fmt.Sprintf("%s 和 %s 不是同一个模型：除价格外也要比较效果。", best.Model, model)))
	}
	if c := r.Cheapest; c != nil {
		what := tr(lang, "a different model", "不是同一个模型")
		if !c.FirstParty {
			what = tr(lang, "a host of "+model+" itself", model+" 本身的托管")
		}
		d.Summary = append(d.Summary, tr(lang,
			fmt.Sprintf("Cheaper in the list: %s %s at %s a month (%s).", c.Provider, c.Model, moneyStr(c.Monthly, cur), what),
			fmt.Sprintf("列表里更便宜的：%s %s，每月 %s（%s）。", c.Provider, c.Model, moneyStr(c.Monthly, cur), what)))
	}
	if ask.sized != "" {
		d.Summary = append(d.Summary, tr(lang,
			fmt.Sprintf("No model to self-host was named: the plan runs %s, an open model of the class of %s — name yours to change it (e.g. “self-host qwen2.5-32b”).", ask.sized, cmpOr(best.Model, "the API")),
			fmt.Sprintf("没有说自建哪个模型：按与 %s 同档的开源模型 %s 估算——换成你的模型请直接说（如“自建 qwen2.5-32b”）。", cmpOr(best.Model, "该 API"), ask.sized)))
	}
	d.Figures = []present.Figure{
		{Label: tr(lang, "API per month", "API 每月"), Value: moneyStr(best.Monthly, cur)},
		{Label: tr(lang, "self-hosted per month", "自建每月"), Value: moneyStr(r.SelfHostMonthly, cur)},
	}
	for i, q := range r.Quotes {
		if i == 6 {
			d.Summary = append(d.Summary, tr(lang, fmt.Sprintf("…and %s more prices in the data", fmtNum(float64(len(r.Quotes)-6))), fmt.Sprintf("……数据里另有 %s 个价格", fmtNum(float64(len(r.Quotes)-6)))))
			break
		}
		kind := ""
		if q.FirstParty {
			kind = tr(lang, " [first-party, a different model]", "［官方 API，不同模型］")
		}
		d.Summary = append(d.Summary, fmt.Sprintf("• %s %s%s: %s in / %s out per M → %s%s (%s, %s)", q.Provider, q.Model, kind, moneyStr(q.Input, cur), moneyStr(q.Output, cur),
			moneyStr(q.Monthly, cur), tr(lang, "/month", "/月"), q.Date, q.Confidence))
	}
	d.Assumed = assumedPairs(as)
	var wk working
	wk.result(lang, append(r.Lines, cr.Lines...), append(r.Assumptions, cr.Assumptions...), cr.Sources)
	d.Working = wk
	return d
}
