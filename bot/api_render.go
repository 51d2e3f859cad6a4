package bot

import (
	"fmt"
	"math"
	"strings"

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
	// billFirst: the question asks what the API costs ("DeepSeek官方API一个月
	// 多少钱？自建H20划算吗"), so its bill is the first line and the
	// self-hosted verdict the second.
	billFirst bool
	// closest are the sourced prices nearest an API the data lacks.
	closest []advisor.APIQuote
}

// apiLoad is the load as the question gave it: a day's, or a month's with
// the day it was read as ("2,000,000,000 tokens/month (65,753,425 a day:
// ÷ 30.42 days)").
func apiLoad(lang string, r advisor.APIResult) string {
	day := fmtNum(math.Round(r.Inputs.TokensPerDay))
	if !r.Inputs.PerMonth {
		return tr(lang, day+" tokens/day", "每天 "+day+" token")
	}
	return tr(lang, fmt.Sprintf("%s tokens/month (%s a day: ÷ %s days)", fmtNum(r.TokensPerMonth), day, fmtNum(r.DaysPerMonth)),
		fmt.Sprintf("每月 %s token（按 %s 天折合每天 %s）", fmtNum(r.TokensPerMonth), fmtNum(r.DaysPerMonth), day))
}

// apiBill is the API's month at the load: the split assumed and the
// prices per million tokens with their date, so the user can check and
// change both.
func apiBill(lang string, r advisor.APIResult, q advisor.APIQuote) string {
	cur := string(r.Currency)
	split := tr(lang, fmtNum(r.SplitInput)+" input : "+fmtNum(r.SplitOutput)+" output", fmtNum(r.SplitInput)+" : "+fmtNum(r.SplitOutput))
	return tr(lang,
		fmt.Sprintf("%s %s at %s ≈ %s a month — %s tokens per request assumed (say input_tokens= / output_tokens= to change it), %s in / %s out per million tokens%s, %s blended (%s)",
			q.Provider, q.Model, apiLoad(lang, r), moneyStr(q.Monthly, cur), split, moneyStr(q.Input, cur), moneyStr(q.Output, cur), listPrice(lang, q, cur), moneyStr(q.Blended, cur), q.Date),
		fmt.Sprintf("%s %s：%s，每月约 %s——按每个请求输入 : 输出 = %s token 假设（可用 input_tokens= / output_tokens= 修改），每百万输入 %s、输出 %s%s，混合 %s（%s）",
			q.Provider, q.Model, apiLoad(lang, r), moneyStr(q.Monthly, cur), split, moneyStr(q.Input, cur), moneyStr(q.Output, cur), listPrice(lang, q, cur), moneyStr(q.Blended, cur), q.Date))
}

// closestLines name the sourced prices nearest an API the data lacks —
// named, not billed in its place.
func closestLines(lang string, pick apiPick, qs []advisor.APIQuote, cur string) []string {
	if len(qs) == 0 {
		return []string{tr(lang, "The data has no price for any model of "+pick.Unpriced+"'s provider.", "数据里没有 "+pick.Unpriced+" 所属厂商任何模型的价格。")}
	}
	var names []string
	for _, q := range qs {
		names = append(names, fmt.Sprintf("%s %s %s / %s (%s)", q.Provider, q.Model, moneyStr(q.Input, cur), moneyStr(q.Output, cur), q.Date))
	}
	return []string{tr(lang,
		"Closest sourced prices, per million input / output tokens (other models, not billed here): "+strings.Join(names, "; ")+".",
		"最接近的有出处价格（每百万输入 / 输出 token；是别的型号，未代入计算）："+strings.Join(names, "；")+"。")}
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
	load := apiLoad(lang, r)
	model := r.Inputs.Model
	if model == "" {
		model = tr(lang, "the "+fmtNum(cr.Inputs.Workload.ParamsB)+"B model", fmtNum(cr.Inputs.Workload.ParamsB)+"B 模型")
	}
	api := apiLabel(lang, best, model)
	plan := tr(lang, fmt.Sprintf("%s replicas × %s %s = %s cards", fmtNum(float64(pl.Replicas)), fmtNum(float64(cr.GPUs)), gpuName(cr.GPU), fmtNum(float64(pl.Cards))),
		fmt.Sprintf("%s 个副本 × %s 张 %s = %s 张", fmtNum(float64(pl.Replicas)), fmtNum(float64(cr.GPUs)), gpuName(cr.GPU), fmtNum(float64(pl.Cards))))
	if pl.Replicas == 1 {
		plan = tr(lang, fmt.Sprintf("%s× %s", fmtNum(float64(cr.GPUs)), gpuName(cr.GPU)), fmt.Sprintf("%s 张 %s", fmtNum(float64(cr.GPUs)), gpuName(cr.GPU)))
	}
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
		d.Summary = append(d.Summary, closestLines(lang, ask.pick, ask.closest, cur)...)
	}
	apiWins, selfWins := "Call the API", "Self-host"
	if lead != "" {
		apiWins, selfWins = "the API is cheaper", "self-hosting is cheaper"
	}
	var verdict string
	if r.Cheaper == "api" {
		verdict = lead + tr(lang,
			fmt.Sprintf(apiWins+": %s on %s costs %s a month vs %s self-hosted (%s), %s a month less — %s", load, api, moneyStr(best.Monthly, cur), moneyStr(r.SelfHostMonthly, cur), plan, moneyStr(r.SavingMonthly, cur), be),
			fmt.Sprintf("调 API 更省：%s，%s 每月 %s，自建（%s）每月 %s，每月省 %s——%s", load, api, moneyStr(best.Monthly, cur), plan, moneyStr(r.SelfHostMonthly, cur), moneyStr(r.SavingMonthly, cur), be))
	} else {
		verdict = lead + tr(lang,
			fmt.Sprintf(selfWins+": %s costs %s a month on %s vs %s on %s, %s a month less — %s", load, moneyStr(r.SelfHostMonthly, cur), plan, moneyStr(best.Monthly, cur), api, moneyStr(r.SavingMonthly, cur), be),
			fmt.Sprintf("自建更省：%s，自建（%s）每月 %s，%s 每月 %s，每月省 %s——%s", load, plan, moneyStr(r.SelfHostMonthly, cur), api, moneyStr(best.Monthly, cur), moneyStr(r.SavingMonthly, cur), be))
	}
	bill := apiBill(lang, r, best)
	if ask.billFirst {
		// "DeepSeek官方API一个月多少钱？自建H20划算吗": the API's month first,
		// then whether self-hosting beats it, and the cards it takes
		d.Headline = bill
		hold := tr(lang, fmt.Sprintf("Self-hosting %s: %s hold one copy; %s serve this load (replicas sized for the peak).", model, fmtNum(float64(cr.GPUs))+"× "+gpuName(cr.GPU), plan),
			fmt.Sprintf("自建 %s：%s 张 %s 放得下一份；承载这个负载要 %s（按峰值配副本）。", model, fmtNum(float64(cr.GPUs)), gpuName(cr.GPU), plan))
		d.Summary = append([]string{verdict, hold}, d.Summary...)
	} else {
		d.Headline = verdict
		d.Summary = append([]string{tr(lang, "API bill: ", "API 账单：") + bill + tr(lang, ".", "。")}, d.Summary...)
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
