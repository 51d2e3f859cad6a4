package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/bot/ledger"
)

// RenderReport writes a month's spend rollup: totals, change on the month
// before, and the split by project, card and platform.
func RenderReport(lang string, r *ledger.Report) string {
	var b strings.Builder
	total := r.Total.Amount.String()
	if r.Total.Converted != nil && len(r.Total.Amount) > 1 {
		total += " ≈ " + r.Total.Converted.String()
	}
	entries := "entries"
	if r.Total.Entries == 1 {
		entries = "entry"
	}
	fmt.Fprintf(&b, tr(lang, "GPU spend %s: %s, %s GPU-hours, %d "+entries, "%s GPU 支出：%s，%s 卡时，%d 条记录"), r.Month, total, fmtNum(r.Total.CardHours), r.Total.Entries)
	b.WriteString("\n")
	fmt.Fprintf(&b, tr(lang, "vs %s: %s, %s GPU-hours (%s)\n", "对比 %s：%s，%s 卡时（变化 %s）\n"), r.Month.Prev(), r.Prev.Amount.String(), fmtNum(r.Prev.CardHours), r.Change().String())
	if r.Total.Unpriced > 0 {
		fmt.Fprintf(&b, tr(lang, "%d entries have no amount and are not in the totals.\n", "%d 条记录没有金额，未计入合计。\n"), r.Total.Unpriced)
	}
	groups := []struct {
		en, zh string
		gs     []ledger.Group
	}{{"By project", "按项目", r.ByProject}, {"By card", "按显卡", r.ByGPU}, {"By platform", "按平台", r.ByPlatform}}
	for _, g := range groups {
		if len(g.gs) == 0 {
			continue
		}
		b.WriteString(tr(lang, g.en, g.zh) + ":\n")
		for _, x := range g.gs {
			key := x.Key
			if g.en == "By card" {
				key = gpuName(key)
			}
			fmt.Fprintf(&b, "• %s: %s, %s GPU-h (%s %s)\n", key, x.Amount.String(), fmtNum(x.CardHours), tr(lang, "last month", "上月"), x.Prev.Amount.String())
		}
	}
	b.WriteString(tr(lang, "Month boundaries in ", "月份按时区 ") + r.Location)
	return b.String()
}
