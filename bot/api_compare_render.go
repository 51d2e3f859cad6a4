package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
)

// splitWords is the split as the answer says it back: "50% input : 50%
// output (“各一半”)", or the default assumed.
func splitWords(lang string, sp apiSplit) string {
	in := fmtNum(roundTo(sp.share*100, 1))
	out := fmtNum(roundTo(100-sp.share*100, 1))
	switch {
	case sp.perRequest:
		return tr(lang, fmt.Sprintf("%s%% input : %s%% output (your %s tokens per request)", in, out, sp.said),
			fmt.Sprintf("输入 %s%% : 输出 %s%%（按你说的每个请求 %s token）", in, out, sp.said))
	case sp.said != "":
		return tr(lang, fmt.Sprintf("%s%% input : %s%% output (“%s”)", in, out, sp.said),
			fmt.Sprintf("输入 %s%% : 输出 %s%%（“%s”）", in, out, sp.said))
	}
	return tr(lang, fmt.Sprintf("%s%% input : %s%% output assumed (2:1; say e.g. “3:1 input:output” to change it)", in, out),
		fmt.Sprintf("假设输入 %s%% : 输出 %s%%（2:1；可说“输入输出 3:1”修改）", in, out))
}

func roundTo(f float64, n int) float64 {
	p := 1.0
	for range n {
		p *= 10
	}
	return float64(int64(f*p+0.5)) / p
}

// takenWords says why a family's model was the one priced.
func takenWords(lang string, b advisor.APIBill, cur string) string {
	if len(b.Others) == 0 {
		return ""
	}
	var others []string
	for _, o := range b.Others {
		others = append(others, fmt.Sprintf("%s %s%s", baseModelName(o.Model), moneyStr(o.Monthly, cur), tr(lang, "/month", "/月")))
	}
	if b.Taken == "tier" {
		return tr(lang, fmt.Sprintf("%s: the newest of the models you named in the data (no version said); the family's others at the same load: %s.", baseModelName(b.Model), strings.Join(others, ", ")),
			fmt.Sprintf("%s：你说的型号里数据中最新的（没说版本）；同系列其它型号同样用量：%s。", baseModelName(b.Model), strings.Join(others, "，")))
	}
	if b.Taken == "named" {
		return tr(lang, fmt.Sprintf("%s: the model you named; the family's others at the same load: %s.", baseModelName(b.Model), strings.Join(others, ", ")),
			fmt.Sprintf("%s：你说的型号；同系列其它型号同样用量：%s。", baseModelName(b.Model), strings.Join(others, "，")))
	}
	return tr(lang, fmt.Sprintf("%s: no %s model was named, so its cheapest in the data at this split is taken; its others: %s — name yours to price it.", baseModelName(b.Model), b.Family, strings.Join(others, ", ")),
		fmt.Sprintf("%s：没有说 %s 的具体型号，取数据里按这个比例最便宜的；其它型号：%s——说出你用的型号即可按它计算。", baseModelName(b.Model), b.Family, strings.Join(others, "，")))
}

func renderAPICompare(lang string, r advisor.APIBillsResult, sp apiSplit, unpriced []apiPick, perMonth bool, as map[string]any) present.Doc {
	cur := string(r.Currency)
	lo, hi := r.Bills[0], r.Bills[1]
	load := tr(lang, fmtNum(r.Inputs.TokensPerMonth)+" tokens a month", "每月 "+fmtNum(r.Inputs.TokensPerMonth)+" token")
	if !perMonth {
		load = tr(lang, fmtNum(r.Inputs.TokensPerMonth)+" tokens a month (your daily load × 730/24 days)", "每月 "+fmtNum(r.Inputs.TokensPerMonth)+" token（每天用量 × 730/24 天）")
	}
	var d present.Doc
	d.Headline = tr(lang,
		fmt.Sprintf("%s is cheaper: %s ≈ %s a month on %s vs %s on %s — %s a month less (%s×) — at %s",
			baseModelName(lo.Model), load, moneyStr(lo.Monthly, cur), baseModelName(lo.Model), moneyStr(hi.Monthly, cur), baseModelName(hi.Model), moneyStr(r.Difference, cur), fmtNum(r.Ratio), splitWords(lang, sp)),
		fmt.Sprintf("%s 更便宜：%s，%s 每月约 %s，%s 每月 %s——每月少 %s（%s 倍）——按%s",
			baseModelName(lo.Model), load, baseModelName(lo.Model), moneyStr(lo.Monthly, cur), baseModelName(hi.Model), moneyStr(hi.Monthly, cur), moneyStr(r.Difference, cur), fmtNum(r.Ratio), splitWords(lang, sp)))
	sh := r.Inputs.InputShare
	if r.Difference == 0 {
		// doubao-1.5-pro and qwen-plus at 0.8 / 2 each: the same bill
		d.Headline = tr(lang,
			fmt.Sprintf("Same price: %s ≈ %s a month on both %s and %s — at %s", load, moneyStr(lo.Monthly, cur), baseModelName(lo.Model), baseModelName(hi.Model), splitWords(lang, sp)),
			fmt.Sprintf("一样便宜：%s，%s 和 %s 每月都约 %s——按%s", load, baseModelName(lo.Model), baseModelName(hi.Model), moneyStr(lo.Monthly, cur), splitWords(lang, sp)))
	}
	for _, b := range r.Bills {
		d.Summary = append(d.Summary, tr(lang,
			fmt.Sprintf("• %s %s: %s in / %s out per M%s → %s × %s + %s × %s = %s per M blended → %s a month (%s, %s)",
				b.Provider, baseModelName(b.Model), moneyStr(b.Input, cur), moneyStr(b.Output, cur), listPrice(lang, b.APIQuote, cur),
				fmtNum(roundTo(sh, 4)), moneyStr(b.Input, cur), fmtNum(roundTo(1-sh, 4)), moneyStr(b.Output, cur), moneyStr(b.Blended, cur), moneyStr(b.Monthly, cur), b.Date, b.Confidence),
			fmt.Sprintf("• %s %s：每百万输入 %s / 输出 %s%s → %s × %s + %s × %s = 混合每百万 %s → 每月 %s（%s，%s）",
				b.Provider, baseModelName(b.Model), moneyStr(b.Input, cur), moneyStr(b.Output, cur), listPrice(lang, b.APIQuote, cur),
				fmtNum(roundTo(sh, 4)), moneyStr(b.Input, cur), fmtNum(roundTo(1-sh, 4)), moneyStr(b.Output, cur), moneyStr(b.Blended, cur), moneyStr(b.Monthly, cur), b.Date, b.Confidence)))
	}
	for _, b := range r.Bills {
		if w := takenWords(lang, b, cur); w != "" {
			d.Summary = append(d.Summary, w)
		}
	}
	for _, p := range unpriced {
		d.Summary = append(d.Summary, tr(lang, p.Unpriced+" has no price in the data, so it is not billed.", "数据里没有 "+p.Unpriced+" 的价格，未计算。"))
	}
	d.Summary = append(d.Summary, tr(lang, "Different models: compare answer quality as well as price.", "这些是不同的模型：除价格外也要比较效果。"))
	d.Figures = []present.Figure{
		{Label: tr(lang, baseModelName(lo.Model)+" a month", baseModelName(lo.Model)+" 每月"), Value: moneyStr(lo.Monthly, cur)},
		{Label: tr(lang, baseModelName(hi.Model)+" a month", baseModelName(hi.Model)+" 每月"), Value: moneyStr(hi.Monthly, cur)},
		{Label: tr(lang, "difference a month", "每月差额"), Value: moneyStr(r.Difference, cur)},
	}
	d.Assumed = assumedPairs(as)
	var wk working
	wk.result(lang, r.Lines, r.Assumptions, nil)
	d.Working = wk
	return d
}

func renderAPIEval(lang string, r advisor.APIEvalResult, as map[string]any) present.Doc {
	cur := string(r.Currency)
	in := r.Inputs
	name := func(o advisor.APIEvalOption) string {
		if o.Kind == "rent" {
			return tr(lang, fmt.Sprintf("renting %s× %s (≈%s h)", fmtNum(float64(o.GPUs)), gpuName(o.GPU), fmtNum(o.WallHours)),
				fmt.Sprintf("租 %s 张 %s（约 %s 小时）", fmtNum(float64(o.GPUs)), gpuName(o.GPU), fmtNum(o.WallHours)))
		}
		n := o.Quote.Provider + " " + o.Quote.Model
		if o.Sibling != "" {
			n += tr(lang, " ("+o.Sibling+", not "+in.Model+")", "（"+o.Sibling+"，不是 "+in.Model+"）")
		}
		return n
	}
	best := r.Options[0]
	tokens := tr(lang, fmt.Sprintf("%s questions × (%s in + %s out) = %s input + %s output tokens", fmtNum(in.Items), fmtNum(in.InputPerItem), fmtNum(in.OutputPerItem), fmtNum(r.InputTokens), fmtNum(r.OutputTokens)),
		fmt.Sprintf("%s 题 ×（输入 %s + 输出 %s）= 输入 %s + 输出 %s token", fmtNum(in.Items), fmtNum(in.InputPerItem), fmtNum(in.OutputPerItem), fmtNum(r.InputTokens), fmtNum(r.OutputTokens)))
	var d present.Doc
	fit := ""
	if in.Budget > 0 {
		fit = tr(lang, ", within your "+moneyStr(in.Budget, cur), "，在你的 "+moneyStr(in.Budget, cur)+" 之内")
		if !best.Fits {
			fit = tr(lang, ", over your "+moneyStr(in.Budget, cur), "，超出你的 "+moneyStr(in.Budget, cur))
		}
	}
	d.Headline = tr(lang, fmt.Sprintf("Cheapest: %s at %s%s — %s", name(best), moneyStr(best.Total, cur), fit, tokens),
		fmt.Sprintf("最便宜：%s，%s%s——%s", name(best), moneyStr(best.Total, cur), fit, tokens))
	for _, o := range r.Options {
		mark := ""
		if in.Budget > 0 {
			mark = tr(lang, " ✓ fits", " ✓ 够")
			if !o.Fits {
				mark = tr(lang, " ✗ over budget", " ✗ 超预算")
			}
		}
		d.Summary = append(d.Summary, fmt.Sprintf("• %s: %s%s", name(o), moneyStr(o.Total, cur), mark))
	}
	d.Figures = []present.Figure{{Label: tr(lang, "cheapest", "最便宜"), Value: moneyStr(best.Total, cur)}}
	d.Assumed = assumedPairs(as)
	var wk working
	wk.result(lang, r.Lines, r.Assumptions, nil)
	d.Working = wk
	return d
}
