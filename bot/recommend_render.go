package bot

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
)

func rankedItem(lang string, row advisor.Ranked) string {
	s := fmt.Sprintf(tr(lang, "%s @ %s ×%d — %s%s, %s %s", "%s @ %s ×%d — %s%s，%s %s"), row.Name, platformName(lang, row.Platform), row.Cards, moneyStr(row.Price, string(row.Currency)),
		tr(lang, "/card-h", "/卡时"), tr(lang, "value", "性价比"), fmtNum(row.Value))
	if row.PerMTokens > 0 {
		s += fmt.Sprintf(tr(lang, ", %s/M tokens", "，每百万 token %s"), moneyStr(row.PerMTokens, string(row.Currency)))
	}
	if row.Interruptible {
		s += tr(lang, " (spot)", "（竞价）")
	}
	return s
}

func renderRecommend(lang string, r advisor.Recommendation, as map[string]any) present.Doc {
	var d present.Doc
	var top *advisor.Ranked
	var rk advisor.Ranking
	if len(r.Rankings) > 0 {
		rk = r.Rankings[0]
		if len(rk.Rows) > 0 {
			top = &rk.Rows[0]
		}
	}
	var plan *advisor.Plan
	if r.Inputs.Budget.Amount > 0 {
		for i := range r.Plans {
			if r.Plans[i].WithinBudget {
				plan = &r.Plans[i]
				break
			}
		}
	}
	switch {
	case plan != nil:
		bc := string(r.Inputs.Budget.Currency)
		if bc == "" {
			bc = string(plan.Currency)
		}
		budget := moneyStr(r.Inputs.Budget.Amount, bc)
		d.Headline = tr(lang,
			fmt.Sprintf("Within your %s budget: %s @ %s ×%d, ≈ %s a month", budget, plan.Name, platformName(lang, plan.Platform), plan.Cards, moneyStr(plan.MonthlyCost, string(plan.Currency))),
			fmt.Sprintf("%s 预算内：%s @ %s ×%d，每月约 %s", budget, plan.Name, platformName(lang, plan.Platform), plan.Cards, moneyStr(plan.MonthlyCost, string(plan.Currency))))
	case top != nil:
		d.Headline = tr(lang,
			fmt.Sprintf("Best value for %s: %s", rk.Title.In(lang), rankedItem(lang, *top)),
			fmt.Sprintf("%s性价比第一：%s", rk.Title.In(lang), rankedItem(lang, *top)))
	default:
		d.Headline = tr(lang, "No card with a price can run this workload", "没有带报价的卡能跑这个任务")
	}
	if rk.Title.EN != "" {
		d.ListTitle = tr(lang, "Ranking (value = score ÷ price per card-hour):", "排行（性价比 = 得分 ÷ 每卡每小时价格）：")
	}
	for _, row := range rk.Rows {
		d.List = append(d.List, rankedItem(lang, row))
	}
	if len(rk.Rows) == 0 {
		// Nothing to rent was ranked: the prices set aside are all there is.
		d.Summary = append(d.Summary, asideLines(lang, rk)...)
	} else {
		// Cheaper offers that cannot serve the plan: said under the headline.
		d.Summary = append(d.Summary, supplyLines(lang, rk)...)
	}
	for _, p := range r.Plans {
		if len(d.Summary) == 2 {
			break
		}
		if plan != nil && p.Kind == plan.Kind {
			continue
		}
		d.Summary = append(d.Summary, fmt.Sprintf(tr(lang, "%s: %s @ %s ×%d, %s%s", "%s：%s @ %s ×%d，%s%s"), p.Title.In(lang), p.Name, platformName(lang, p.Platform), p.Cards,
			moneyStr(p.MonthlyCost, string(p.Currency)), tr(lang, "/month", "/月")))
	}
	d.Assumed = assumedPairs(as)
	if top != nil {
		if w := r.Inputs.Workload; w.ParamsB > 0 {
			d.Next = tr(lang, "price the top pick for your job: ", "按你的任务算一下第一名：") + costHint(w.ParamsB, string(w.Method), top.GPU)
		} else if second := nextCard(rk.Rows, top.GPU); second != "" {
			d.Next = tr(lang, "the top two side by side: ", "前两名对比：") + "/gpu compare " + top.GPU + " " + second
		}
	}
	var wk working
	wk.lines(lang, r.Lines)
	for i, k := range r.Rankings {
		wk.strings(present.StepNote, k.Title.In(lang)+" — "+k.ScoreHow.In(lang))
		for _, row := range k.Rows {
			if i > 0 {
				wk.strings(present.StepItem, k.Title.In(lang)+": "+rankedItem(lang, row))
			} else {
				wk.strings(present.StepItem, rankedItem(lang, row))
			}
		}
		for _, l := range asideLines(lang, k) {
			wk.strings(present.StepNote, l)
		}
		if len(k.Excluded) > 0 {
			var ex []string
			for _, e := range k.Excluded {
				ex = appendOnce(ex, e.Name)
			}
			sort.Strings(ex)
			wk.strings(present.StepNote, tr(lang, "Cannot hold it: ", "放不下：")+strings.Join(ex, ", "))
		}
	}
	for _, p := range r.Plans {
		wk.strings(present.StepNote, fmt.Sprintf("%s: %s @ %s ×%d, %s%s — %s", p.Title.In(lang), p.Name, platformName(lang, p.Platform), p.Cards,
			moneyStr(p.MonthlyCost, string(p.Currency)), tr(lang, "/month", "/月"), p.Why.In(lang)))
	}
	if r.Persona != nil {
		d.Summary = append(d.Summary, r.Persona.Title.In(lang))
		wk.strings(present.StepNote, r.Persona.Title.In(lang)+": "+r.Persona.Body.In(lang))
	}
	wk.assumptions(lang, r.Assumptions)
	wk.sources(lang, r.Sources)
	wk.strings(present.StepNote, confirmNote(lang, r.Sources))
	d.Working = wk
	return d
}

// nextCard is the best-ranked card other than gpu, or "".
func nextCard(rows []advisor.Ranked, gpu string) string {
	for _, r := range rows {
		if r.GPU != gpu {
			return r.GPU
		}
	}
	return ""
}
