package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/knowledge"
)

// RenderReport writes a month's spend rollup: totals (a converted total
// names its rate), billed / estimated / refunds, change on the month
// before, and the split by project, card and platform, each list with an
// explicit "other" row so the rows add up to the total.
func RenderReport(lang string, r *ledger.Report) string {
	var b strings.Builder
	total := r.Total.Amount.String()
	if r.Total.Converted != nil && (len(r.Total.Amount) > 1 || len(r.Total.Amount) == 1 && r.Total.Amount.Currencies()[0] != r.Total.Converted.Currency) {
		// One reporting currency (the team's): a total in another currency
		// is converted too, at the stated rate.
		total += " ≈ " + r.Total.Converted.String() + rateNote(lang, r.FX)
	}
	entries := "entries"
	if r.Total.Entries == 1 {
		entries = "entry"
	}
	fmt.Fprintf(&b, tr(lang, "GPU spend %s: %s, %s GPU-hours, %d "+entries, "%s GPU 支出：%s，%s 卡时，%d 条记录"), r.Label(), total, ledger.FormatCardHours(r.Total.CardHours), r.Total.Entries)
	b.WriteString("\n")
	if len(r.Total.Amount) > 0 {
		fmt.Fprintf(&b, tr(lang, "billed %s · estimated %s · refunds %s\n", "账单 %s · 估算 %s · 退款 %s\n"),
			r.Total.Billed.String(), r.Total.Estimated.String(), r.Total.Refunds.String())
	}
	if len(r.Total.NonGPU) > 0 {
		fmt.Fprintf(&b, tr(lang, "GPU %s · non-GPU (tax, support, storage, network) %s\n", "GPU %s · 非 GPU（税、支持、存储、网络）%s\n"),
			r.Total.GPU.String(), r.Total.NonGPU.String())
	}
	if r.Amortised != nil {
		fmt.Fprintf(&b, tr(lang, "amortised (prepaid terms spread over their months): %s\n", "摊销后（预付期限按月分摊）：%s\n"), r.Amortised.String())
	}
	if r.Total.HoursUnknown > 0 {
		fmt.Fprintf(&b, tr(lang, "%d entries give an amount without hours; their money is counted, their hours are not.\n", "%d 条记录只有金额、没有时长：金额已计入，卡时未计入。\n"), r.Total.HoursUnknown)
	}
	fmt.Fprintf(&b, tr(lang, "vs %s: %s, %s GPU-hours (%s)\n", "对比 %s：%s，%s 卡时（变化 %s）\n"), r.PrevLabel(), r.Prev.Amount.String(), ledger.FormatCardHours(r.Prev.CardHours), r.Change().String())
	if len(r.ByMonth) > 0 {
		b.WriteString(tr(lang, "By month (change on the month before):\n", "按月（较上月变化）：\n"))
		for _, g := range r.ByMonth {
			fmt.Fprintf(&b, "• %s: %s, %s GPU-h (%s)\n", g.Key, g.Amount.String(), ledger.FormatCardHours(g.CardHours), g.Change().String())
		}
	}
	if r.Total.Unpriced > 0 {
		fmt.Fprintf(&b, tr(lang, "%d entries have no amount and are not in the totals.\n", "%d 条记录没有金额，未计入合计。\n"), r.Total.Unpriced)
	}
	if r.Total.Superseded > 0 {
		fmt.Fprintf(&b, tr(lang, "%d chat entries were replaced by the bill lines they repeat and are not counted.\n", "%d 条聊天记账已由对应账单行取代，不计入。\n"), r.Total.Superseded)
	}
	groups := []struct {
		en, zh string
		gs     []ledger.Group
	}{{"By project", "按项目", r.ByProject}, {"By card", "按显卡", r.ByGPU}, {"By platform", "按平台", r.ByPlatform}}
	if len(r.ByTeam) > 1 || len(r.ByTeam) == 1 && r.ByTeam[0].Key != "" {
		groups = append(groups, struct {
			en, zh string
			gs     []ledger.Group
		}{"By team", "按团队", r.ByTeam})
	}
	before := tr(lang, "last month", "上月")
	if r.Period != nil && r.Period.Months == 3 {
		before = tr(lang, "last quarter", "上季度")
	} else if r.Period != nil && r.Period.Months == 12 {
		before = tr(lang, "last year", "上一年")
	}
	for _, g := range groups {
		if len(g.gs) == 0 {
			continue
		}
		b.WriteString(tr(lang, g.en, g.zh) + ":\n")
		for _, x := range ledger.Top(g.gs, 8, r.FX) {
			key := x.Key
			switch {
			case key == ledger.Other:
				key = tr(lang, "other", "其他")
			case key == "":
				key = tr(lang, "(none given)", "（未填写）") // refunds and entries with no platform: a row, not a blank
			case g.en == "By card" && key == ledger.NonGPUKey:
				key = tr(lang, "non-GPU costs", "非 GPU 费用")
			case g.en == "By card":
				key = gpuName(key)
			case g.en == "By platform":
				key = platformName(lang, key)
			}
			fmt.Fprintf(&b, "• %s: %s, %s GPU-h (%s %s)\n", key, x.Amount.String(), ledger.FormatCardHours(x.CardHours), before, x.Prev.Amount.String())
		}
	}
	b.WriteString(tr(lang, "Month boundaries in ", "月份按时区 ") + r.Location)
	return b.String()
}

// rateNote states the rate behind a converted total: " (at 7.2 CNY per
// USD)"; "≈ $477.62" alone did not say how it was reached.
func rateNote(lang string, fx *ledger.FX) string {
	if fx == nil {
		return ""
	}
	var r float64
	switch fx.To {
	case knowledge.CNY:
		r = fx.Rates[knowledge.USD]
	case knowledge.USD:
		if c := fx.Rates[knowledge.CNY]; c > 0 {
			r = 1 / c
		}
	}
	if r <= 0 {
		return ""
	}
	return tr(lang, fmt.Sprintf(" (at %.4g CNY per USD)", r), fmt.Sprintf("（按 1 美元 = %.4g 元）", r))
}
