package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

// renderSLO writes a serving answer with per-user targets: the fleet (or
// why no fleet can meet them) first, the speed and first token each user
// sees, the monthly bill.
func renderSLO(lang string, v SLOAnswer, as map[string]any) present.Doc {
	r := v.SLOResult
	in := r.Inputs
	w := r.Replica.Inputs.Workload
	model := w.Model
	if model == "" {
		model = fmtNum(w.ParamsB) + "B"
	}
	per := r.Replica.GPUs
	var d present.Doc
	targets := func() string {
		var parts []string
		if in.TPSPerUser > 0 {
			parts = append(parts, tr(lang, fmt.Sprintf("≥ %s tokens/s each", fmtNum(in.TPSPerUser)), fmt.Sprintf("每人 ≥ %s tokens/s", fmtNum(in.TPSPerUser))))
		}
		if in.TTFTms > 0 {
			parts = append(parts, tr(lang, fmt.Sprintf("first token within %s ms", fmtNum(in.TTFTms)), fmt.Sprintf("首 token ≤ %s ms", fmtNum(in.TTFTms))))
		}
		return strings.Join(parts, tr(lang, ", ", "，"))
	}
	load := ""
	if in.Concurrency > 0 {
		load = tr(lang, fmt.Sprintf("%d concurrent users", in.Concurrency), fmt.Sprintf("%d 路并发", in.Concurrency))
	} else if r.Plan != nil {
		load = tr(lang, fmt.Sprintf("%s requests/s at peak", fmtNum(r.Plan.PeakRequestsPerS)), fmt.Sprintf("峰值 %s 请求/秒", fmtNum(r.Plan.PeakRequestsPerS)))
	}
	fleet := tr(lang, fmt.Sprintf("%d× %s (%d replica(s) × %d card(s))", r.Cards, v.Name, r.Replicas, per), fmt.Sprintf("%d 张 %s（%d 个副本 × 每副本 %d 卡）", r.Cards, v.Name, r.Replicas, per))
	bill := moneyStr(r.MonthlyTotal, r.Currency)
	monthly := tr(lang, ": ≈ "+bill+" a month on demand", "，按需每月约 "+bill)
	if !r.Priced {
		bill = tr(lang, "no price", "无价格")
		monthly = tr(lang, "; no catalogue price for "+v.Name+" to bill it (add price=)", "；目录里没有 "+v.Name+" 的价格，月费请用 price= 给出")
	}
	switch {
	case r.WithinBudget != nil:
		b := r.Inputs.MonthlyBudget
		word := tr(lang, "Yes", "可以")
		if !*r.WithinBudget {
			word = tr(lang, "No", "不够")
		}
		d.Headline = tr(lang,
			fmt.Sprintf("%s: %s always on needs %s at ≈ %s a month, against your %s a month", word, model, fleet, bill, moneyStr(b.Amount, string(b.Currency))),
			fmt.Sprintf("%s：%s 常驻服务需要 %s，每月约 %s，预算每月 %s", word, model, fleet, bill, moneyStr(b.Amount, string(b.Currency))))
	case in.Concurrency > 0 && r.PerReplica == 0:
		d.Headline = tr(lang,
			fmt.Sprintf("No: %s on %s cannot give %s — even one user gets %s tokens/s, first token %s ms", model, v.Name, targets(), fmtNum(r.PerSequenceTPS), fmtNum(r.TTFTms)),
			fmt.Sprintf("不行：%s 在 %s 上做不到%s——单个用户也只有 %s tokens/s，首 token %s ms", model, v.Name, targets(), fmtNum(r.PerSequenceTPS), fmtNum(r.TTFTms)))
	case in.TTFTms == 0 && in.TPSPerUser == 0:
		d.Headline = tr(lang,
			fmt.Sprintf("%s for %s of %s%s", fleet, load, model, monthly),
			fmt.Sprintf("%s：%s 的 %s%s", fleet, model, load, monthly))
	case in.Concurrency > 0:
		d.Headline = tr(lang,
			fmt.Sprintf("%s for %s of %s at %s%s", fleet, load, model, targets(), monthly),
			fmt.Sprintf("%s：%s 的 %s，%s%s", fleet, model, load, targets(), monthly))
	default:
		word := tr(lang, "Yes", "可以")
		if !r.Feasible {
			word = tr(lang, "No", "不行")
		}
		d.Headline = tr(lang,
			fmt.Sprintf("%s: %s at %s — first token ≈ %s ms, %s tokens/s each; %s%s", word, model, load, fmtNum(r.TTFTms), fmtNum(r.PerSequenceTPS), fleet, monthly),
			fmt.Sprintf("%s：%s 在%s下首 token 约 %s ms、每人 %s tokens/s；%s%s", word, model, load, fmtNum(r.TTFTms), fmtNum(r.PerSequenceTPS), fleet, monthly))
	}
	d.Figures = []present.Figure{
		{Label: tr(lang, "cards", "卡数"), Value: fmt.Sprint(r.Cards)},
		{Label: tr(lang, "a month on demand", "按需每月"), Value: bill},
		{Label: tr(lang, "users per replica", "单副本并发"), Value: fmt.Sprint(r.PerReplica)},
		{Label: tr(lang, "tokens/s each user sees", "每用户 tokens/s"), Value: fmtNum(r.PerSequenceTPS)},
		{Label: tr(lang, "first token", "首 token"), Value: fmtNum(r.TTFTms) + " ms"},
	}
	d.Assumed = assumedPairs(as)
	d.Next = tr(lang, "state your prompt and answer lengths (500 input and 200 output tokens) to size it closer",
		"给出输入和输出长度（如 输入500 输出200 token）可以算得更准")
	var wk working
	wk.lines(lang, r.Lines)
	wk.result(lang, r.Replica.Lines, append(append([]advisor.Text(nil), r.Assumptions...), r.Replica.Assumptions...), r.Sources)
	d.Working = wk
	return d
}

// renderOptions writes "X vs Y vs Z": the best first, every card's figure.
func renderOptions(lang string, v OptionsAnswer, as map[string]any) present.Doc {
	best := v.Rows[0]
	what := map[string][2]string{
		"money_per_m_tokens": {"per million tokens", "每百万 token"},
		"money_monthly":      {"a month at this load", "该负载下每月"},
		"money_total":        {"for the job", "整个任务"},
	}[v.Asked]
	if v.Asked == "money_monthly" && best.Result.Plan == nil {
		what = [2]string{"a month, round the clock", "每月（7×24 小时）"} // no load said: the cards that hold it, rented 730 h
	}
	var names []string
	for _, r := range v.Rows {
		names = append(names, r.Name)
	}
	for _, f := range v.Failed {
		names = append(names, optionName(lang, f.GPU, f.Platform))
	}
	w := best.Result.Inputs.Workload
	job := fmtNum(w.ParamsB) + "B " + methodName(lang, string(w.Method))
	if w.Model != "" {
		job = w.Model + " " + methodName(lang, string(w.Method))
	}
	var d present.Doc
	switch v.Asked {
	case "gpu_hours":
		d.Headline = tr(lang,
			fmt.Sprintf("%s: %s takes the fewest GPU-hours, %s, for %s (%s)", job, best.Name, fmtNum(best.Value), moneyStr(best.Result.Total, v.Currency), strings.Join(names, " vs ")),
			fmt.Sprintf("%s：%s 卡时最少，%s 卡时，%s（%s）", job, best.Name, fmtNum(best.Value), moneyStr(best.Result.Total, v.Currency), strings.Join(names, " vs ")))
	case "tokens_per_s":
		d.Headline = tr(lang,
			fmt.Sprintf("%s: %s is fastest, %s tokens/s per card (%s tokens/s from %d cards), %s per million tokens (%s)", job, best.Name, fmtNum(best.Value), fmtNum(best.Result.TokensPerS), best.Result.GPUs, moneyStr(best.Result.PerMTokens, v.Currency), strings.Join(names, " vs ")),
			fmt.Sprintf("%s：%s 最快，每卡 %s tokens/s（%d 张卡共 %s tokens/s），每百万 token %s（%s）", job, best.Name, fmtNum(best.Value), best.Result.GPUs, fmtNum(best.Result.TokensPerS), moneyStr(best.Result.PerMTokens, v.Currency), strings.Join(names, " vs ")))
	case "hours":
		d.Headline = tr(lang,
			fmt.Sprintf("%s: %s finishes first, in %s h, for %s (%s)", job, best.Name, fmtNum(best.Value), moneyStr(best.Result.Total, v.Currency), strings.Join(names, " vs ")),
			fmt.Sprintf("%s：%s 最先跑完，耗时 %s 小时，%s（%s）", job, best.Name, fmtNum(best.Value), moneyStr(best.Result.Total, v.Currency), strings.Join(names, " vs ")))
	default:
		d.Headline = tr(lang,
			fmt.Sprintf("%s: %s is cheapest at %s %s (%s)", job, best.Name, moneyStr(best.Value, v.Currency), what[0], strings.Join(names, " vs ")),
			fmt.Sprintf("%s：%s 最便宜，%s %s（%s）", job, best.Name, what[1], moneyStr(best.Value, v.Currency), strings.Join(names, " vs ")))
	}
	// the figures that come with the choice: its cards, and the other
	// way of pricing it (the month and a million tokens for a service,
	// the wall-clock for a job)
	if r := best.Result; r.Plan != nil {
		d.Headline += tr(lang,
			fmt.Sprintf(" — %d cards, %s a month, %s per million tokens", r.Plan.Cards, moneyStr(r.Plan.MonthlyOnDemand, v.Currency), moneyStr(r.Plan.PerMTokens, v.Currency)),
			fmt.Sprintf("——%d 张卡，每月 %s，每百万 token %s", r.Plan.Cards, moneyStr(r.Plan.MonthlyOnDemand, v.Currency), moneyStr(r.Plan.PerMTokens, v.Currency)))
	} else if r.Inputs.Workload.Method != advisor.Inference {
		cards := fmt.Sprintf("%d cards", r.GPUs)
		if r.GPUs == 1 {
			cards = "1 card"
		}
		d.Headline += tr(lang, fmt.Sprintf(" — %s, %s h wall-clock", cards, fmtNum(r.WallHours)),
			fmt.Sprintf("——%d 张卡，耗时 %s 小时", r.GPUs, fmtNum(r.WallHours)))
	}
	if bc := best.Result.BudgetCheck; bc != nil {
		budget := moneyStr(bc.Budget, string(bc.Currency))
		if bc.WithinBudget {
			d.Headline += tr(lang, fmt.Sprintf(" — within your %s budget (%s left)", budget, moneyStr(bc.Left, string(bc.Currency))),
				fmt.Sprintf("——在 %s 预算之内（还剩 %s）", budget, moneyStr(bc.Left, string(bc.Currency))))
		} else {
			d.Headline += tr(lang, fmt.Sprintf(" — over your %s budget even so (it covers %s of the job)", budget, present.Pct(bc.AffordableShare)),
				fmt.Sprintf("——即便如此也超出 %s 预算（只够完成 %s）", budget, present.Pct(bc.AffordableShare)))
		}
	}
	d.ListTitle = tr(lang, "Each card, cheapest first:", "各卡（便宜的在前）：")
	if v.Asked == "tokens_per_s" {
		d.ListTitle = tr(lang, "Each card, fastest first:", "各卡（快的在前）：")
	}
	for _, r := range v.Rows {
		res := r.Result
		item := tr(lang,
			fmt.Sprintf("%s ×%d — %s %s; %s/card-h; %s tokens/s per replica", r.Name, res.GPUs, moneyStr(r.Value, v.Currency), what[0], moneyStr(res.Hourly, v.Currency), fmtNum(res.TokensPerS)),
			fmt.Sprintf("%s ×%d — %s %s；每卡每小时 %s；单副本 %s tokens/s", r.Name, res.GPUs, what[1], moneyStr(r.Value, v.Currency), moneyStr(res.Hourly, v.Currency), fmtNum(res.TokensPerS)))
		if v.Asked == "tokens_per_s" {
			item = tr(lang,
				fmt.Sprintf("%s ×%d — %s tokens/s per card, %s per replica; %s per million tokens; %s/card-h", r.Name, res.GPUs, fmtNum(r.Value), fmtNum(res.TokensPerS), moneyStr(res.PerMTokens, v.Currency), moneyStr(res.Hourly, v.Currency)),
				fmt.Sprintf("%s ×%d — 每卡 %s tokens/s，单副本 %s tokens/s；每百万 token %s；每卡每小时 %s", r.Name, res.GPUs, fmtNum(r.Value), fmtNum(res.TokensPerS), moneyStr(res.PerMTokens, v.Currency), moneyStr(res.Hourly, v.Currency)))
		}
		if p := res.Plan; p != nil {
			item = tr(lang,
				fmt.Sprintf("%s — %d cards (%d × %d), %s a month, %s per million tokens at this load; %s/card-h", r.Name, p.Cards, p.Replicas, res.GPUs, moneyStr(p.MonthlyOnDemand, v.Currency), moneyStr(p.PerMTokens, v.Currency), moneyStr(res.Hourly, v.Currency)),
				fmt.Sprintf("%s — %d 张卡（%d × %d），每月 %s，该负载下每百万 token %s；每卡每小时 %s", r.Name, p.Cards, p.Replicas, res.GPUs, moneyStr(p.MonthlyOnDemand, v.Currency), moneyStr(p.PerMTokens, v.Currency), moneyStr(res.Hourly, v.Currency)))
		}
		if res.Inputs.Workload.Method != advisor.Inference {
			item = tr(lang,
				fmt.Sprintf("%s ×%d — %s, %s h wall-clock, %s GPU-h, %s/card-h", r.Name, res.GPUs, moneyStr(res.Total, v.Currency), fmtNum(res.WallHours), fmtNum(res.GPUHours), moneyStr(res.Hourly, v.Currency)),
				fmt.Sprintf("%s ×%d — %s，耗时 %s 小时，%s 卡时，每卡每小时 %s", r.Name, res.GPUs, moneyStr(res.Total, v.Currency), fmtNum(res.WallHours), fmtNum(res.GPUHours), moneyStr(res.Hourly, v.Currency)))
		}
		d.List = append(d.List, item)
	}
	for _, f := range v.Failed {
		n := optionName(lang, f.GPU, f.Platform)
		d.List = append(d.List, tr(lang, n+" — not costed: "+f.Reason, n+" — 无法计算："+f.Reason))
	}
	d.Assumed = assumedPairs(as)
	var wk working
	for _, r := range v.Rows {
		wk.strings(present.StepItem, r.Name)
		wk.result(lang, r.Result.Lines, r.Result.Assumptions, r.Result.Sources)
	}
	d.Working = wk
	return d
}

// leadWithAsked puts the figure a question asked for first: a serving
// plan's card count when the question asked "how many cards", a deadline's
// cluster when it asked how many cards finish in time.
func leadWithAsked(lang string, d present.Doc, s parse.Slots, r advisor.CostResult) present.Doc {
	first := ""
	if len(s.Targets) > 0 {
		first = s.Targets[0]
	}
	lead := ""
	switch {
	case r.Plan != nil && (first == "cards" || first == ""):
		p := r.Plan
		lead = tr(lang,
			fmt.Sprintf("%d× %s (%d replica(s) × %d card(s)) for a peak of %s requests/s: ≈ %s a month on demand", p.Cards, gpuName(r.GPU), p.Replicas, r.GPUs, fmtNum(p.PeakRequestsPerS), moneyStr(p.MonthlyOnDemand, string(r.Currency))),
			fmt.Sprintf("需要 %d 张 %s（%d 个副本 × 每副本 %d 卡），按峰值 %s 请求/秒：按需每月约 %s", p.Cards, gpuName(r.GPU), p.Replicas, r.GPUs, fmtNum(p.PeakRequestsPerS), moneyStr(p.MonthlyOnDemand, string(r.Currency))))
	case first == "tokens_per_s" && r.TokensPerS > 0 && r.Serving != nil:
		sv := r.Serving
		lead = tr(lang,
			fmt.Sprintf("≈ %s tokens/s per replica (%d× %s) at %d concurrent sequences — %s tokens/s each, first token ≈ %s ms", fmtNum(r.TokensPerS), r.GPUs, gpuName(r.GPU), sv.Concurrency, fmtNum(sv.PerSequenceTPS), fmtNum(sv.TTFTms)),
			fmt.Sprintf("单副本（%d 张 %s）约 %s tokens/s，%d 路并发——每路 %s tokens/s，首 token 约 %s ms", r.GPUs, gpuName(r.GPU), fmtNum(r.TokensPerS), sv.Concurrency, fmtNum(sv.PerSequenceTPS), fmtNum(sv.TTFTms)))
	case r.Deadline != nil && (first == "cards" || first == "hours" || first == ""):
		dl := r.Deadline
		kind := tr(lang, "training", "训练")
		if r.Inputs.Workload.Method == advisor.Full && s.Pretrain {
			kind = tr(lang, "pretraining", "预训练")
		}
		total := dl.GPUHours * r.Hourly
		if r.Inputs.GPUs > 0 && first != "cards" {
			// "can 2 A100s finish it within 36 hours?": their cards first
			in := r.WallHours <= s.Days*24
			yes := tr(lang, "Yes", "可以")
			if !in {
				yes = tr(lang, "No", "不行")
			}
			lead = tr(lang,
				fmt.Sprintf("%s — %d× %s take %s h for the %s (deadline %s days); %d cards would take %s h", yes, r.GPUs, gpuName(r.GPU), fmtNum(r.WallHours), kind, fmtNum(s.Days), dl.Cards, fmtNum(dl.WallHours)),
				fmt.Sprintf("%s：%d 张 %s %s要 %s 小时（期限 %s 天）；%d 张卡要 %s 小时", yes, r.GPUs, gpuName(r.GPU), kind, fmtNum(r.WallHours), fmtNum(s.Days), dl.Cards, fmtNum(dl.WallHours)))
			break
		}
		if dl.Meets {
			lead = tr(lang,
				fmt.Sprintf("%d× %s finish the %s in %s days (%s h wall-clock, %s GPU-hours, ≈ %s)", dl.Cards, gpuName(r.GPU), kind, fmtNum(s.Days), fmtNum(dl.WallHours), fmtNum(dl.GPUHours), moneyStr(total, string(r.Currency))),
				fmt.Sprintf("%d 张 %s 可在 %s 天内完成%s（耗时 %s 小时，%s 卡时，约 %s）", dl.Cards, gpuName(r.GPU), fmtNum(s.Days), kind, fmtNum(dl.WallHours), fmtNum(dl.GPUHours), moneyStr(total, string(r.Currency))))
		} else {
			lead = tr(lang,
				fmt.Sprintf("No cluster of %s finishes the %s in %s days: %d cards still take %s h", gpuName(r.GPU), kind, fmtNum(s.Days), dl.Cards, fmtNum(dl.WallHours)),
				fmt.Sprintf("%s 集群无法在 %s 天内完成%s：%d 张卡也要 %s 小时", gpuName(r.GPU), fmtNum(s.Days), kind, dl.Cards, fmtNum(dl.WallHours)))
		}
	}
	if lead == "" {
		return d
	}
	d.Summary = append([]string{d.Headline}, d.Summary...)
	d.Headline = lead
	return d
}

// leadWithTooFew answers "can my N cards do it?" when they cannot hold
// the job: no, the count it needs, and the answer worked on that count.
func leadWithTooFew(lang string, d present.Doc, have int, r advisor.CostResult) present.Doc {
	cur := string(r.Currency)
	lead := tr(lang,
		fmt.Sprintf("No — %d× %s cannot hold this job; it needs at least %d, which take %s h (≈ %s)", have, gpuName(r.GPU), r.GPUs, fmtNum(r.WallHours), moneyStr(r.Total, cur)),
		fmt.Sprintf("不行：%d 张 %s 放不下这个任务，至少要 %d 张，需 %s 小时（约 %s）", have, gpuName(r.GPU), r.GPUs, fmtNum(r.WallHours), moneyStr(r.Total, cur)))
	if r.Inputs.Workload.Method == advisor.Inference {
		lead = tr(lang,
			fmt.Sprintf("No — %d× %s cannot hold this model; it needs at least %d a replica", have, gpuName(r.GPU), r.GPUs),
			fmt.Sprintf("不行：%d 张 %s 放不下这个模型，每副本至少要 %d 张", have, gpuName(r.GPU), r.GPUs))
	}
	d.Summary = append([]string{d.Headline}, d.Summary...)
	d.Headline = lead
	return d
}

// optionName names one option: a card, or a card on a platform when the
// options are platforms ("RTX 4090 on Vast.ai"; a platform alone when no
// card could be costed there).
func optionName(lang, gpu, platform string) string {
	switch {
	case platform == "":
		return gpuName(gpu)
	case gpu == "":
		return platformName(lang, platform)
	}
	return tr(lang, gpuName(gpu)+" on "+platformName(lang, platform), platformName(lang, platform)+" "+gpuName(gpu))
}

// leadWithConcurrency answers "how many concurrent users can it take?": the
// most sequences one replica holds at the per-user targets.
func leadWithConcurrency(lang string, d present.Doc, v SLOAnswer) present.Doc {
	r := v.SLOResult
	lead := tr(lang,
		fmt.Sprintf("≈ %d concurrent users per replica (%d× %s), each at %s tokens/s, first token ≈ %s ms", r.PerReplica, r.Replica.GPUs, v.Name, fmtNum(r.PerSequenceTPS), fmtNum(r.TTFTms)),
		fmt.Sprintf("每个副本（%d 张 %s）约可扛 %d 路并发，每人 %s tokens/s，首 token 约 %s ms", r.Replica.GPUs, v.Name, r.PerReplica, fmtNum(r.PerSequenceTPS), fmtNum(r.TTFTms)))
	d.Summary = append([]string{d.Headline}, d.Summary...)
	d.Headline = lead
	return d
}

// leadWithFleet answers "how many (8x H100) nodes do we need?" for a load
// with per-user targets: the fleet leads — in nodes of the size named,
// when one was — and the plan's "Yes:" (the targets are met) follows as
// the reason, never as the answer to a how-many.
func leadWithFleet(lang string, d present.Doc, v SLOAnswer, node int) present.Doc {
	r := v.SLOResult
	if r.Cards <= 0 || !r.Feasible {
		return d
	}
	head, yes := d.Headline, false
	for _, p := range []string{"Yes: ", "可以："} {
		if h, ok := strings.CutPrefix(head, p); ok {
			head, yes = h, true
		}
	}
	if !yes && node <= 1 {
		return d // the fleet already leads
	}
	lead := tr(lang, fmt.Sprintf("%d× %s meet it", r.Cards, v.Name), fmt.Sprintf("需要 %d 张 %s", r.Cards, v.Name))
	if node > 1 {
		nodes := (r.Cards + node - 1) / node
		lead = tr(lang, fmt.Sprintf("%d nodes of %d× %s (%d cards)", nodes, node, v.Name, r.Cards),
			fmt.Sprintf("需要 %d 台 %d 卡 %s 节点（共 %d 张卡）", nodes, node, v.Name, r.Cards))
	}
	d.Headline = lead + tr(lang, " — ", "——") + head
	return d
}
