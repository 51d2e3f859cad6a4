package bot

import (
	"fmt"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
)

func renderCost(lang string, r advisor.CostResult, as map[string]any, notes ...string) present.Doc {
	cur := string(r.Currency)
	w := r.Inputs.Workload
	job := fmtNum(w.ParamsB) + "B " + methodName(lang, string(w.Method))
	on := ""
	if r.GPU != "" {
		on = tr(lang, fmt.Sprintf(" on %s ×%d", gpuName(r.GPU), r.GPUs), fmt.Sprintf("（%s ×%d）", gpuName(r.GPU), r.GPUs))
	}
	var d present.Doc
	if w.Method == advisor.Inference {
		d.Headline = tr(lang,
			fmt.Sprintf("%s%s: %s per million tokens (≈ %s in all, %s GPU-hours)", job, on, moneyStr(r.PerMTokens, cur), moneyStr(r.Total, cur), fmtNum(r.GPUHours)),
			fmt.Sprintf("%s%s：每百万 token %s（合计约 %s，%s 卡时）", job, on, moneyStr(r.PerMTokens, cur), moneyStr(r.Total, cur), fmtNum(r.GPUHours)))
		d.Figures = []present.Figure{
			{Label: tr(lang, "per million tokens", "每百万 token"), Value: moneyStr(r.PerMTokens, cur)},
			{Label: tr(lang, "tokens/s per replica", "单副本 tokens/s"), Value: fmtNum(r.TokensPerS)},
			{Label: tr(lang, "cards per replica", "每副本卡数"), Value: fmt.Sprint(r.GPUs)},
			{Label: tr(lang, "GPU-hours", "卡时"), Value: fmtNum(r.GPUHours)},
			{Label: tr(lang, "total", "合计"), Value: moneyStr(r.Total, cur)},
		}
	} else {
		d.Headline = tr(lang,
			fmt.Sprintf("%s%s: ≈ %s, %s GPU-hours, %s h wall-clock", job, on, moneyStr(r.Total, cur), fmtNum(r.GPUHours), fmtNum(r.WallHours)),
			fmt.Sprintf("%s%s：约 %s，%s 卡时，耗时 %s 小时", job, on, moneyStr(r.Total, cur), fmtNum(r.GPUHours), fmtNum(r.WallHours)))
		d.Figures = []present.Figure{
			{Label: tr(lang, "total", "合计"), Value: moneyStr(r.Total, cur)},
			{Label: tr(lang, "GPU-hours", "卡时"), Value: fmtNum(r.GPUHours)},
			{Label: tr(lang, "wall-clock", "耗时"), Value: fmtNum(r.WallHours) + " h"},
			{Label: tr(lang, "cards", "卡数"), Value: fmt.Sprint(r.GPUs)},
			{Label: tr(lang, "per card-hour", "每卡每小时"), Value: moneyStr(r.Hourly, cur)},
		}
	}
	if r.Interruptible {
		d.Summary = append(d.Summary, tr(lang, "Priced on interruptible (spot) capacity: the provider can stop the job.", "按可中断（竞价）实例计价：任务可能被平台中断。"))
	}
	for _, n := range notes {
		if n != "" {
			d.Summary = append(d.Summary, n)
		}
	}
	if len(r.Alternatives) > 1 {
		d.ListTitle = tr(lang, "Other cards, cheapest first:", "其他卡（便宜的在前）：")
		for i, o := range r.Alternatives {
			if i == 0 {
				continue
			}
			d.List = append(d.List, fmt.Sprintf("%s ×%d — %s", gpuName(o.GPU), o.GPUs, moneyStr(o.Total, cur)))
		}
	}
	d.Assumed = assumedPairs(as)
	if w.Method == advisor.Inference {
		d.Next = tr(lang, "serving all month? compare a monthly plan: ", "整月都在跑？对比包月：") + fmt.Sprintf("/gpu monthly %s 730h", r.GPU)
	} else if _, guessed := as["mfu"]; guessed {
		d.Next = tr(lang, "the assumed MFU moves this most; give your measured one, e.g. mfu=0.4", "假设的 MFU 对结果影响最大；请给出实测值，例如 mfu=0.4")
	} else {
		d.Next = tr(lang, "a long job? compare a monthly plan: ", "长任务可对比包月：") + fmt.Sprintf("/gpu monthly %s %sh", r.GPU, fmtNum(max(r.WallHours, 1)))
	}
	if r.GPU == "" {
		d.Next = ""
	}
	var wk working
	wk.result(lang, r.Lines, r.Assumptions, r.Sources)
	wk.strings(present.StepItem, d.List...)
	wk.strings(present.StepNote, notes...)
	wk.strings(present.StepNote, confirmNote(lang, r.Sources))
	d.Working = wk
	return d
}
