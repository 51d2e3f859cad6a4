package bot

import (
	"fmt"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

func renderBuy(lang string, v BuyView, as map[string]any, notes ...string) present.Doc {
	r := v.BuyResult
	cur := string(r.Currency)
	gpu := gpuName(r.GPU)
	be, u := fmtNum(r.BreakevenUtilization*100), fmtNum(r.Inputs.Utilization*100)
	var d present.Doc
	if q := r.MarketPurchase; q != nil {
		// No quote was given: the dated market price is the headline's
		// first assumption.
		what := tr(lang, "a card", "每卡")
		if q.Server {
			what = tr(lang, "an 8-card server", "8 卡整机")
			if q.CardsOnly {
				what = tr(lang, "8 cards (cards only)", "8 张卡（仅显卡）")
			}
		}
		cond := tr(lang, "market price", "市场价")
		if q.Condition == "used" {
			cond = tr(lang, "used market price", "二手市场价")
		}
		rng := moneyStr(q.Low, cur)
		if q.High > q.Low {
			rng += "–" + fmtNum(q.High) // a range stays a range; one figure is one figure ("$329", not "$329–329")
		}
		gpu = tr(lang, fmt.Sprintf("%s (%s %s for %s, %s)", gpu, cond, rng, what, q.Newest),
			fmt.Sprintf("%s（%s %s/%s，%s）", gpu, cond, rng, what, q.Newest))
	}
	plan := moneyStr(advisor.Round2(r.Inputs.Rent.Amount*knowledge.HoursPerMonth), cur)
	switch {
	case r.RentPlan && r.Cheaper == "buy" && !r.NeverPays:
		d.Headline = tr(lang,
			fmt.Sprintf("Against a monthly plan at %s per card-month, buying %s pays back in %s months — buy", plan, gpu, fmtNum(r.PaybackMonths)),
			fmt.Sprintf("对比包月每卡每月 %s，买 %s %s 个月回本——买", plan, gpu, fmtNum(r.PaybackMonths)))
	case r.RentPlan:
		d.Headline = tr(lang,
			fmt.Sprintf("Against a monthly plan at %s per card-month, buying %s costs more per year (%s vs %s) — keep renting", plan, gpu, moneyStr(r.OwnPerYear, cur), moneyStr(r.RentPerYear, cur)),
			fmt.Sprintf("对比包月每卡每月 %s，买 %s 每年更贵（%s 对 %s）——继续租", plan, gpu, moneyStr(r.OwnPerYear, cur), moneyStr(r.RentPerYear, cur)))
	case r.NeverPays || r.BreakevenUtilization > 1:
		d.Headline = tr(lang, fmt.Sprintf("Buying %s never pays off at these prices — keep renting", gpu),
			fmt.Sprintf("按这些价格，买 %s 永远回不了本——继续租", gpu))
		if r.BreakevenUtilization > 1 {
			d.Headline += tr(lang, fmt.Sprintf(" (break-even would need %s%% utilisation)", be), fmt.Sprintf("（打平需要 %s%% 利用率）", be))
		}
	case r.Cheaper == "buy":
		d.Headline = tr(lang,
			fmt.Sprintf("Buying %s pays off above %s%% utilisation — at %s%%, buy: it pays back in %s months and saves %s a year", gpu, be, u, fmtNum(r.PaybackMonths), moneyStr(r.SavingPerYear, cur)),
			fmt.Sprintf("%s 利用率高于 %s%% 时买更划算——按 %s%%：买，%s 个月回本，每年省 %s", gpu, be, u, fmtNum(r.PaybackMonths), moneyStr(r.SavingPerYear, cur)))
	default:
		d.Headline = tr(lang,
			fmt.Sprintf("Buying %s pays off above %s%% utilisation — at %s%%, keep renting (saves %s a year)", gpu, be, u, moneyStr(r.SavingPerYear, cur)),
			fmt.Sprintf("%s 利用率高于 %s%% 时买更划算——按 %s%%：继续租（每年省 %s）", gpu, be, u, moneyStr(r.SavingPerYear, cur)))
	}
	if r.Cards > 1 {
		// A machine's price was given: say how it was split.
		d.Summary = append(d.Summary, tr(lang,
			fmt.Sprintf("Machine of %d cards: %s per card (the machine's price ÷ %d); power and operations counted for the whole machine.", r.Cards, moneyStr(r.PricePerCard, cur), r.Cards),
			fmt.Sprintf("整机 %d 卡：每卡 %s（整机价 ÷ %d）；电费与运维按整机计算。", r.Cards, moneyStr(r.PricePerCard, cur), r.Cards)))
	}
	d.Figures = []present.Figure{
		{Label: tr(lang, "break-even, all-in", "打平利用率（全成本）"), Value: be + "%"},
		{Label: tr(lang, "owning per year", "自购每年"), Value: moneyStr(r.OwnPerYear, cur)},
		{Label: tr(lang, "renting per year", "租用每年"), Value: moneyStr(r.RentPerYear, cur)},
		{Label: tr(lang, "break-even, hardware only", "打平利用率（仅硬件）"), Value: fmtNum(r.HardwareBreakeven*100) + "%"},
	}
	if r.PaybackMonths > 0 {
		pb := fmtNum(r.PaybackMonths) + tr(lang, " months", " 个月")
		if life := r.Inputs.Years * 12; life > 0 && r.PaybackMonths > life {
			pb += tr(lang, fmt.Sprintf(" (longer than the %s-year life)", fmtNum(r.Inputs.Years)), fmt.Sprintf("（超过 %s 年折旧期）", fmtNum(r.Inputs.Years)))
		}
		d.Figures = append(d.Figures[:3], present.Figure{Label: tr(lang, "payback", "回本"), Value: pb}, d.Figures[3])
	}
	for _, n := range notes {
		if n != "" {
			d.Summary = append(d.Summary, n)
		}
	}
	rule := tr(lang, "Rule of thumb from the guides: buying pays above ≈70% sustained utilisation; these inputs put it at "+be+"%.",
		"经验值：长期利用率约 70% 以上才考虑自购；按这些输入算是 "+be+"%。")
	switch {
	case r.RentPlan:
		// A monthly plan is paid whatever the use: the comparison is per
		// year, not a utilisation threshold.
		rule = tr(lang, "Rule of thumb from the guides: buying pays above ≈70% sustained utilisation; against a monthly plan, paid whether used or not, the yearly totals decide.",
			"经验值：长期利用率约 70% 以上才考虑自购；对比包月（用不用都付费）时，看每年总成本。")
	case r.NeverPays || r.BreakevenUtilization > 1:
		rule = tr(lang, "Rule of thumb from the guides: buying pays above ≈70% sustained utilisation; with these inputs no utilisation does.",
			"经验值：长期利用率约 70% 以上才考虑自购；按这些输入，多高的利用率都回不了本。")
	}
	d.Summary = append(d.Summary, rule)
	d.Assumed = assumedPairs(as)
	if _, ok := as["utilization"]; ok {
		d.Next = tr(lang, "give your own utilisation: ", "按你的实际利用率再算：") + fmt.Sprintf("/gpu buy %s util=50%%", r.GPU)
	} else {
		d.Next = tr(lang, "renting all month? check a monthly plan: ", "整月都在用？看看包月：") + fmt.Sprintf("/gpu monthly %s 500h", r.GPU)
	}
	var wk working
	wk.result(lang, v.Steps, r.Assumptions, r.Sources)
	wk.strings(present.StepNote, notes...)
	wk.strings(present.StepNote, tr(lang,
		"Rule of thumb from the guides: buying tends to pay off above about 70% sustained utilisation — the figures above are computed from these inputs.",
		"经验值（参考）：长期利用率超过约 70% 才考虑自购；以上数字按这些输入计算得出。"))
	wk.strings(present.StepNote, confirmNote(lang, r.Sources))
	d.Working = wk
	return d
}
