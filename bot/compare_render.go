package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
)

func compareRow(lang, cur string, row advisor.CompareRow) string {
	price := tr(lang, "no price", "无报价")
	if row.PriceLow > 0 {
		price = moneyStr(row.PriceLow, cur)
		if row.PriceHigh > row.PriceLow {
			price += "–" + fmtNum(row.PriceHigh)
		}
		price += tr(lang, "/card-h", "/卡时")
	}
	return fmt.Sprintf("%s — %s GB, %s GB/s, BF16 %s TFLOPS, %s, %s", row.Name, fmtNum(row.VRAMGB), fmtNum(row.BandwidthGBs), fmtNum(row.BF16TFLOPS), row.Interconnect, price) +
		cheapestOf(lang, cur, row)
}

// cheapestOf names the row's cheapest on-demand and reserved offers, the
// reserved one with its term: "; on demand from $0.35 (RunPod), reserved
// from $0.2 (RunPod, term not stated by the source)".
func cheapestOf(lang, cur string, row advisor.CompareRow) string {
	var parts []string
	if o := row.OnDemand; o != nil {
		parts = append(parts, tr(lang,
			fmt.Sprintf("on demand from %s (%s)", moneyStr(o.Price, cur), platformName(lang, o.Platform)),
			fmt.Sprintf("按需低至 %s（%s）", moneyStr(o.Price, cur), platformName(lang, o.Platform))))
	}
	if r := row.Reserved; r != nil {
		parts = append(parts, tr(lang,
			fmt.Sprintf("reserved from %s (%s, %s)", moneyStr(r.Price, cur), platformName(lang, r.Platform), r.TermLabel.EN),
			fmt.Sprintf("预留低至 %s（%s，%s）", moneyStr(r.Price, cur), platformName(lang, r.Platform), r.TermLabel.ZH)))
	}
	if len(parts) == 0 {
		return ""
	}
	return tr(lang, "; ", "；") + strings.Join(parts, tr(lang, ", ", "，"))
}

func renderCompare(lang string, r advisor.Comparison) present.Doc {
	cur := string(r.Inputs.Currency)
	var names []string
	for _, row := range r.Rows {
		names = append(names, row.Name)
	}
	// The verdict: the most compute per unit of money, and the most memory.
	var value, mem *advisor.CompareRow
	for i := range r.Rows {
		row := &r.Rows[i]
		if row.PerTFLOPHour > 0 && (value == nil || row.PerTFLOPHour < value.PerTFLOPHour) {
			value = row
		}
		if mem == nil || row.VRAMGB > mem.VRAMGB {
			mem = row
		}
	}
	var parts []string
	if value != nil {
		parts = append(parts, tr(lang,
			fmt.Sprintf("most compute for the money: %s (from %s/card-h, %s TFLOPS)", value.Name, moneyStr(value.PriceLow, cur), fmtNum(value.BF16TFLOPS)),
			fmt.Sprintf("算力性价比最高：%s（低至 %s/卡时，%s TFLOPS）", value.Name, moneyStr(value.PriceLow, cur), fmtNum(value.BF16TFLOPS))))
	}
	if mem != nil && (value == nil || mem.VRAMGB > value.VRAMGB) {
		parts = append(parts, tr(lang, fmt.Sprintf("most memory: %s (%s GB)", mem.Name, fmtNum(mem.VRAMGB)), fmt.Sprintf("显存最大：%s（%s GB）", mem.Name, fmtNum(mem.VRAMGB))))
	}
	d := present.Doc{Headline: strings.Join(names, " vs ") + tr(lang, ": ", "：") + strings.Join(parts, tr(lang, "; ", "；"))}
	if len(parts) == 0 {
		d.Headline = strings.Join(names, " vs ")
	}
	if len(r.Notes) > 0 {
		d.Summary = []string{r.Notes[0].In(lang)}
	}
	for _, row := range r.Rows {
		d.List = append(d.List, compareRow(lang, cur, row))
	}
	d.Next = tr(lang, "rank them on your own workload: ", "按你的任务排名：") + "/gpu recommend 70b inference"
	var wk working
	wk.lines(lang, r.Lines)
	for _, row := range r.Rows {
		s := compareRow(lang, cur, row)
		if row.PerTFLOPHour > 0 {
			s += fmt.Sprintf(tr(lang, "; %s per TFLOP-hour, %s per GB-hour", "；每 TFLOP 时 %s，每 GB 时 %s"), moneyStr(row.PerTFLOPHour, cur), moneyStr(row.PerGBHour, cur))
		}
		wk.strings(present.StepItem, s)
	}
	wk.assumptions(lang, r.Assumptions)
	wk.sources(lang, r.Sources)
	for _, n := range r.Notes {
		wk.strings(present.StepNote, n.In(lang))
	}
	d.Working = wk
	return d
}
