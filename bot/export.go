package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

// exportWords make a price question about a card an export-control one:
// "H20现在能买吗", "H800现在还能买到吗", "can we still buy H800 in China".
var exportWords = []string{"能买吗", "能买到", "还能买", "买得到", "能不能买", "可以买吗", "禁售", "出口管制", "管制", "禁运", "许可证",
	"export control", "export rule", "export ban", "licence", "license", "sanction", "legal to buy", "allowed to buy", "still buy", "can we buy", "can i buy",
	"进口", "合规", "正规渠道", "正规买", "被禁", "禁了", "被卡", "受限", "限制出口", "legally", "restricted", "ship h", "export",
	"能出口", "能不能出口", "出口到", "出口中国", "出口吗", "卖到中国", "卖给中国", "对华", "进中国"}

func asksExport(text string) bool { return hasAny(text, exportWords) }

// ExportView is the export answer's result.
type ExportView struct {
	advisor.ExportResult
}

func (b *Bot) export(a *Answer, req parse.Request) error {
	if len(req.Slots.GPUs) == 0 {
		return &advisor.InputError{Field: "gpu", Reason: tr(a.Lang, "which card? name one", "哪张卡？请指明型号"), Hint: "H20现在能买吗"}
	}
	res := advisor.Export(b.kb.Export, req.Slots.GPUs)
	a.Intent = "export"
	if req.Slots.Region == "cn" {
		a.use("region", "mainland China: the market the table's statuses are for")
	}
	a.Result = ExportView{res}
	a.show(renderExport(a.Lang, res))
	return nil
}

func exportStatusText(lang, status string) string {
	switch status {
	case "allowed":
		return tr(lang, "can be bought new (no US licence reported)", "可以买新卡（未见美国许可要求）")
	case "licence_required":
		return tr(lang, "needs a US export licence", "需要美国出口许可")
	case "banned":
		return tr(lang, "not sold (presumption of denial)", "不能买（推定拒绝）")
	}
	return tr(lang, "no sourced status", "没有可引用的状态")
}

func renderExport(lang string, r advisor.ExportResult) present.Doc {
	var d present.Doc
	first := r.Cards[0]
	where := tr(lang, " in mainland China", " 在中国大陆")
	date := ""
	if first.Date != "" {
		date = tr(lang, fmt.Sprintf(" (status dated %s; sources up to %s)", first.Date, r.AsOf), fmt.Sprintf("（状态日期 %s；资料截至 %s）", first.Date, r.AsOf))
	}
	d.Headline = tr(lang,
		fmt.Sprintf("%s%s: %s — %s%s. Not legal advice.", gpuName(first.GPU), where, exportStatusText(lang, first.Status), first.Policy.In(lang), date),
		fmt.Sprintf("%s%s：%s——%s%s。不构成法律意见。", gpuName(first.GPU), where, exportStatusText(lang, first.Status), first.Policy.In(lang), date))
	for _, c := range r.Cards[1:] {
		d.Summary = append(d.Summary, fmt.Sprintf("• %s: %s — %s (%s)", gpuName(c.GPU), exportStatusText(lang, c.Status), c.Policy.In(lang), c.Date))
	}
	var opts []string
	for _, g := range r.Allowed {
		opts = append(opts, gpuName(g))
	}
	d.Summary = append(d.Summary, tr(lang, "Cards the sources list as sold without a licence: "+strings.Join(opts, ", ")+".",
		"资料中无需许可即可购买的卡："+strings.Join(opts, "、")+"。"))
	var wk working
	var lines []advisor.Line
	for _, c := range r.Cards {
		if c.Rule != "" {
			lines = append(lines, advisor.Line{Key: "rule_" + c.GPU, Label: advisor.Text{EN: gpuName(c.GPU) + " rule", ZH: gpuName(c.GPU) + " 规则"},
				How: c.Rule + " — " + strings.Join(c.Sources, "; ")})
		}
	}
	wk.result(lang, lines, r.Assumptions, nil)
	d.Working = wk
	d.Next = tr(lang, "compare the compliant options: /gpu compare h20 l20 rtx4090d 910b", "对比合规选项：/gpu compare h20 l20 rtx4090d 910b")
	return d
}

// markExport adds, for a team in China (a Chinese question), the export
// status of every restricted card a recommendation ranks.
func (b *Bot) markExport(a *Answer) {
	rec, ok := a.Result.(advisor.Recommendation)
	if !ok || a.Lang != "zh" {
		return
	}
	seen := map[string]bool{}
	var marks []string
	for _, rk := range rec.Rankings {
		for _, row := range rk.Rows {
			if seen[row.GPU] {
				continue
			}
			seen[row.GPU] = true
			if c := advisor.ExportOf(b.kb.Export, row.GPU); c.Restricted() {
				marks = append(marks, fmt.Sprintf("%s（%s，%s）", gpuName(row.GPU), exportStatusText("zh", c.Status), c.Date))
			}
		}
	}
	if len(marks) == 0 {
		return
	}
	d := a.Doc
	d.Summary = append(d.Summary, "⚠ 出口管制：以下卡在中国大陆买新卡受限——"+strings.Join(marks, "；")+"。状态指买新卡，采购前请确认许可状态（不构成法律意见）。")
	a.show(d)
}
