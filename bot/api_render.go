package bot

import (
	"fmt"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
)

func renderAPI(lang string, r advisor.APIResult, cr advisor.CostResult, as map[string]any) present.Doc {
	cur := string(r.Currency)
	best := r.Quotes[0]
	pl := cr.Plan
	load := fmtNum(r.Inputs.TokensPerDay)
	var d present.Doc
	be := tr(lang, "no break-even: the API is cheaper at any load", "没有打平点：任何负载下 API 都更便宜")
	if !r.NoBreakeven {
		be = tr(lang, fmt.Sprintf("self-hosting pays above ≈%s tokens/day", fmtNum(r.BreakevenTokensPerDay)), fmt.Sprintf("每天超过约 %s token 自建更省", fmtNum(r.BreakevenTokensPerDay)))
		if r.BreakevenReplicas > 1 {
			be = tr(lang, fmt.Sprintf("self-hosting on %d replicas pays above ≈%s tokens/day", r.BreakevenReplicas, fmtNum(r.BreakevenTokensPerDay)),
				fmt.Sprintf("按 %d 个副本，每天超过约 %s token 自建更省", r.BreakevenReplicas, fmtNum(r.BreakevenTokensPerDay)))
		}
	}
	if r.Cheaper == "api" {
		d.Headline = tr(lang,
			fmt.Sprintf("Call the API: %s tokens/day on %s costs %s a month vs %s self-hosted (%d× %s ×%d), %s a month less — %s", load, best.Provider, moneyStr(best.Monthly, cur), moneyStr(r.SelfHostMonthly, cur), pl.Replicas, gpuName(cr.GPU), cr.GPUs, moneyStr(r.SavingMonthly, cur), be),
			fmt.Sprintf("调 API 更省：每天 %s token，%s 每月 %s，自建（%d 个副本 × %d 张 %s）每月 %s，每月省 %s——%s", load, best.Provider, moneyStr(best.Monthly, cur), pl.Replicas, cr.GPUs, gpuName(cr.GPU), moneyStr(r.SelfHostMonthly, cur), moneyStr(r.SavingMonthly, cur), be))
	} else {
		d.Headline = tr(lang,
			fmt.Sprintf("Self-host: %s tokens/day costs %s a month on %d× %s ×%d vs %s on the cheapest API (%s), %s a month less — %s", load, moneyStr(r.SelfHostMonthly, cur), pl.Replicas, gpuName(cr.GPU), cr.GPUs, moneyStr(best.Monthly, cur), best.Provider, moneyStr(r.SavingMonthly, cur), be),
			fmt.Sprintf("自建更省：每天 %s token，自建（%d 个副本 × %d 张 %s）每月 %s，最便宜的 API（%s）每月 %s，每月省 %s——%s", load, pl.Replicas, cr.GPUs, gpuName(cr.GPU), moneyStr(r.SelfHostMonthly, cur), best.Provider, moneyStr(best.Monthly, cur), moneyStr(r.SavingMonthly, cur), be))
	}
	d.Figures = []present.Figure{
		{Label: tr(lang, "API per month", "API 每月"), Value: moneyStr(best.Monthly, cur)},
		{Label: tr(lang, "self-hosted per month", "自建每月"), Value: moneyStr(r.SelfHostMonthly, cur)},
	}
	for i, q := range r.Quotes {
		if i == 6 {
			d.Summary = append(d.Summary, tr(lang, fmt.Sprintf("…and %d more prices in the data", len(r.Quotes)-6), fmt.Sprintf("……数据里另有 %d 个价格", len(r.Quotes)-6)))
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
