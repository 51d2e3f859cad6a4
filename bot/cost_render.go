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
	if r.Inputs.Pretrain && w.Method == advisor.Full {
		job = fmtNum(w.ParamsB) + "B " + tr(lang, "pretraining", "预训练")
	}
	on := ""
	switch {
	case r.GPU != "" && r.Offer != nil && r.Offer.Platform != "":
		// where the price comes from is part of "which card, where?"
		on = tr(lang, fmt.Sprintf(" on %s ×%d (%s)", gpuName(r.GPU), r.GPUs, platformName(lang, r.Offer.Platform)),
			fmt.Sprintf("（%s ×%d，%s）", gpuName(r.GPU), r.GPUs, platformName(lang, r.Offer.Platform)))
	case r.GPU != "":
		on = tr(lang, fmt.Sprintf(" on %s ×%d", gpuName(r.GPU), r.GPUs), fmt.Sprintf("（%s ×%d）", gpuName(r.GPU), r.GPUs))
	}
	var d present.Doc
	if w.Method == advisor.Inference {
		d.Headline = tr(lang,
			fmt.Sprintf("%s%s: %s per million tokens (≈ %s in all, %s GPU-hours)", job, on, moneyStr(r.PerMTokens, cur), moneyStr(r.Total, cur), fmtNum(r.GPUHours)),
			fmt.Sprintf("%s%s：每百万 token %s（合计约 %s，%s 卡时）", job, on, moneyStr(r.PerMTokens, cur), moneyStr(r.Total, cur), fmtNum(r.GPUHours)))
		if u := r.Inputs.Utilization; u > 0 && u < 1 {
			// their utilisation: the idle hours are in each token's price
			d.Headline = tr(lang,
				fmt.Sprintf("%s%s: %s per million tokens with the cards busy %s%% of the hours paid", job, on, moneyStr(r.PerMTokens, cur), fmtNum(u*100)),
				fmt.Sprintf("%s%s：利用率 %s%% 时每百万 token %s", job, on, fmtNum(u*100), moneyStr(r.PerMTokens, cur)))
		}
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
	if p := r.Plan; p != nil && w.Method == advisor.Inference {
		// A stated load (tokens a day, requests a second): the monthly bill
		// is the figure asked for.
		busy := present.Pct(p.Utilization)
		d.Headline = tr(lang,
			fmt.Sprintf("%s%s at that load: ≈ %s a month on demand — %d replica(s) of %d card(s), %s busy (peak %s× the average)", job, on, moneyStr(p.MonthlyOnDemand, cur), p.Replicas, r.GPUs, busy, fmtNum(p.PeakFactor)),
			fmt.Sprintf("%s%s 按这个负载：按需每月约 %s——%d 个副本、每副本 %d 卡，利用率 %s（峰值按平均的 %s 倍）", job, on, moneyStr(p.MonthlyOnDemand, cur), p.Replicas, r.GPUs, busy, fmtNum(p.PeakFactor)))
		d.Figures = []present.Figure{
			{Label: tr(lang, "a month on demand", "按需每月"), Value: moneyStr(p.MonthlyOnDemand, cur)},
			{Label: tr(lang, "replicas", "副本数"), Value: fmt.Sprint(p.Replicas)},
			{Label: tr(lang, "utilisation", "利用率"), Value: busy},
			{Label: tr(lang, "per million tokens at this load", "该负载下每百万 token"), Value: moneyStr(p.PerMTokens, cur)},
		}
		if p.MonthlyPlan > 0 {
			d.Figures = append(d.Figures, present.Figure{Label: tr(lang, "on a monthly plan", "包月每月"), Value: moneyStr(p.MonthlyPlan, cur)})
		}
		d.Summary = append(d.Summary, tr(lang,
			fmt.Sprintf("At full load one replica would cost %s per million tokens; the always-on floor is %s a month.", moneyStr(r.PerMTokens, cur), moneyStr(p.FloorMonthly, cur)),
			fmt.Sprintf("满负载时单副本每百万 token %s；常驻一个副本的保底费用为每月 %s。", moneyStr(r.PerMTokens, cur), moneyStr(p.FloorMonthly, cur))))
	}
	if dl := r.Deadline; dl != nil {
		if dl.Meets && r.GPU != "" && w.Method != advisor.Inference {
			// The deadline decides the cluster: the headline is the job on
			// it, the fewest cards that merely hold it go below.
			total := dl.GPUHours * r.Hourly
			d.Headline = tr(lang,
				fmt.Sprintf("%s on %s ×%d: ≈ %s, %s GPU-hours, %s h wall-clock — done within %s days", job, gpuName(r.GPU), dl.Cards, moneyStr(total, cur), fmtNum(dl.GPUHours), fmtNum(dl.WallHours), fmtNum(dl.Days)),
				fmt.Sprintf("%s（%s ×%d）：约 %s，%s 卡时，耗时 %s 小时——%s 天内完成", job, gpuName(r.GPU), dl.Cards, moneyStr(total, cur), fmtNum(dl.GPUHours), fmtNum(dl.WallHours), fmtNum(dl.Days)))
			d.Figures = []present.Figure{
				{Label: tr(lang, "total", "合计"), Value: moneyStr(total, cur)},
				{Label: tr(lang, "GPU-hours", "卡时"), Value: fmtNum(dl.GPUHours)},
				{Label: tr(lang, "wall-clock", "耗时"), Value: fmtNum(dl.WallHours) + " h"},
				{Label: tr(lang, "cards", "卡数"), Value: fmt.Sprint(dl.Cards)},
				{Label: tr(lang, "per card-hour", "每卡每小时"), Value: moneyStr(r.Hourly, cur)},
			}
			d.Summary = append(d.Summary, tr(lang,
				fmt.Sprintf("On the fewest cards that hold it (×%d) it would take %s h wall-clock.", r.GPUs, fmtNum(r.WallHours)),
				fmt.Sprintf("只用放得下的最少卡数（×%d）则要 %s 小时。", r.GPUs, fmtNum(r.WallHours))))
		} else if dl.Meets {
			d.Summary = append(d.Summary, tr(lang,
				fmt.Sprintf("To finish in %s days: %d cards, %s GPU-hours, %s h wall-clock.", fmtNum(dl.Days), dl.Cards, fmtNum(dl.GPUHours), fmtNum(dl.WallHours)),
				fmt.Sprintf("要在 %s 天内完成：%d 张卡，%s 卡时，耗时 %s 小时。", fmtNum(dl.Days), dl.Cards, fmtNum(dl.GPUHours), fmtNum(dl.WallHours))))
		} else {
			d.Headline = tr(lang,
				fmt.Sprintf("Not doable in %s days even on %d cards — ", fmtNum(dl.Days), dl.Cards),
				fmt.Sprintf("%s 天内完不成（%d 张卡也不行）——", fmtNum(dl.Days), dl.Cards)) + d.Headline
			d.Summary = append(d.Summary, tr(lang,
				fmt.Sprintf("Not doable in %s days even on %d cards (%s h wall-clock).", fmtNum(dl.Days), dl.Cards, fmtNum(dl.WallHours)),
				fmt.Sprintf("即使用 %d 张卡也无法在 %s 天内完成（耗时 %s 小时）。", dl.Cards, fmtNum(dl.Days), fmtNum(dl.WallHours))))
		}
	}
	if bc := r.BudgetCheck; bc != nil {
		// A budget was given: the yes/no comes first.
		budget := moneyStr(bc.Budget, string(bc.Currency))
		if bc.WithinBudget {
			d.Headline = tr(lang, fmt.Sprintf("Yes, within your %s budget (%s left). ", budget, moneyStr(bc.Left, string(bc.Currency))),
				fmt.Sprintf("够：在 %s 预算之内（还剩 %s）。", budget, moneyStr(bc.Left, string(bc.Currency)))) + d.Headline
		} else {
			d.Headline = tr(lang, fmt.Sprintf("No, over your %s budget (it covers %s of the job). ", budget, present.Pct(bc.AffordableShare)),
				fmt.Sprintf("不够：超出 %s 预算（只够完成 %s）。", budget, present.Pct(bc.AffordableShare))) + d.Headline
			if c := bc.Cheaper; c != nil {
				d.Summary = append(d.Summary, tr(lang,
					fmt.Sprintf("Fits the budget: %s on %s ×%d, ≈ %s — %s", methodName(lang, string(c.Method)), gpuName(c.GPU), c.GPUs, moneyStr(c.Total, cur), c.Why.In(lang)),
					fmt.Sprintf("预算内的做法：%s，%s ×%d，约 %s——%s", methodName(lang, string(c.Method)), gpuName(c.GPU), c.GPUs, moneyStr(c.Total, cur), c.Why.In(lang))))
			}
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
	if r.Plan != nil {
		d.Next = tr(lang, "a different peak? add peak=2 or give requests_per_s", "峰值不同？可写明每秒请求数，例如 20 requests/s")
	} else if w.Method == advisor.Inference {
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

// accumulationNote says a batch too big for memory runs as micro-batch 1
// with gradient accumulation.
func accumulationNote(lang string, batch int) string {
	return tr(lang,
		fmt.Sprintf("batch %d does not fit in memory at once: run it as micro-batch 1 × %d gradient-accumulation steps (same tokens, same compute; add gc or more cards for a bigger micro-batch)", batch, batch),
		fmt.Sprintf("batch %d 一次放不进显存：按微批 1 × 梯度累积 %d 步运行（token 数和计算量不变；想要更大的微批可开 gc 或加卡）", batch, batch))
}
