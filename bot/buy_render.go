package bot

import (
	"fmt"
	"strings"

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
	w := r.Whole
	what := gpu
	switch {
	case w.Units > 1 && !r.Inputs.PerCardQuote && r.MarketPurchase == nil:
		what = tr(lang, fmt.Sprintf("the %d-card %s machine", w.Units, gpu), fmt.Sprintf("%d 卡 %s 整机", w.Units, gpu))
	case w.Units > 1:
		what = tr(lang, fmt.Sprintf("%d× %s", w.Units, gpu), fmt.Sprintf("%d 张 %s", w.Units, gpu))
	}
	switch {
	case v.Asked == "payback_months" && r.PaybackMonths > 0 && !r.NeverPays:
		// "多久回本": the months first, the running cost in them named, and
		// the price-only figure beside it
		d.Headline = tr(lang,
			fmt.Sprintf("Payback: %s months (buying %s: %s ÷ (%s rent avoided a month − %s); on the price alone %s months)",
				fmtNum(r.PaybackMonths), what, moneyStr(w.Purchase, cur), moneyStr(w.RentPerMonth, cur), runningShort(lang, r), fmtNum(r.HardwarePaybackMonths)),
			fmt.Sprintf("回本：%s 个月（买 %s：%s ÷（每月省下租金 %s − %s）；只算买价 %s 个月）",
				fmtNum(r.PaybackMonths), what, moneyStr(w.Purchase, cur), moneyStr(w.RentPerMonth, cur), runningShort(lang, r), fmtNum(r.HardwarePaybackMonths)))
		if life := r.Inputs.Years * 12; life > 0 && r.PaybackMonths > life {
			d.Headline += tr(lang, fmt.Sprintf(", longer than the %s-year life — keep renting", fmtNum(r.Inputs.Years)), fmt.Sprintf("，超过 %s 年折旧期——继续租", fmtNum(r.Inputs.Years)))
		} else if r.Cheaper == "buy" {
			d.Headline += tr(lang, " — buy", "——买")
		} else {
			d.Headline += tr(lang, " — but renting is cheaper a year at this use", "——但按这个用量每年租更便宜")
		}
	case v.Asked == "which" && !r.NeverPays:
		// "which is cheaper per year?": the cheaper way, both years, the gap
		own := tr(lang, fmt.Sprintf("%s depreciation + %s running cost a year", moneyStr(w.DepreciationPerYear, cur), moneyStr(advisor.Round2(w.RunningPerMonth*12), cur)),
			fmt.Sprintf("折旧 %s + 运行成本 %s/年", moneyStr(w.DepreciationPerYear, cur), moneyStr(advisor.Round2(w.RunningPerMonth*12), cur)))
		if r.Cheaper == "buy" {
			d.Headline = tr(lang,
				fmt.Sprintf("Owning %s is cheaper: %s a year (%s) vs %s renting — %s a year less", what, moneyStr(w.OwnPerYear, cur), own, moneyStr(w.RentPerYear, cur), moneyStr(w.SavingPerYear, cur)),
				fmt.Sprintf("自购 %s 更便宜：每年 %s（%s），租用每年 %s——每年少 %s", what, moneyStr(w.OwnPerYear, cur), own, moneyStr(w.RentPerYear, cur), moneyStr(w.SavingPerYear, cur)))
		} else {
			d.Headline = tr(lang,
				fmt.Sprintf("Renting is cheaper: %s a year vs %s owning %s (%s) — %s a year less", moneyStr(w.RentPerYear, cur), moneyStr(w.OwnPerYear, cur), what, own, moneyStr(w.SavingPerYear, cur)),
				fmt.Sprintf("租用更便宜：每年 %s，自购 %s 每年 %s（%s）——每年少 %s", moneyStr(w.RentPerYear, cur), what, moneyStr(w.OwnPerYear, cur), own, moneyStr(w.SavingPerYear, cur)))
		}
	case r.RentPlan && r.Cheaper == "buy" && !r.NeverPays:
		d.Headline = tr(lang,
			fmt.Sprintf("Against a monthly plan at %s per card-month, buying %s pays back in %s months — buy", plan, gpu, fmtNum(r.PaybackMonths)),
			fmt.Sprintf("对比包月每卡每月 %s，买 %s %s 个月回本——买", plan, gpu, fmtNum(r.PaybackMonths)))
	case r.RentPlan:
		d.Headline = tr(lang,
			fmt.Sprintf("Against a monthly plan at %s per card-month, buying %s costs more per year (%s vs %s) — keep renting", plan, what, moneyStr(w.OwnPerYear, cur), moneyStr(w.RentPerYear, cur)),
			fmt.Sprintf("对比包月每卡每月 %s，买 %s 每年更贵（%s 对 %s）——继续租", plan, what, moneyStr(w.OwnPerYear, cur), moneyStr(w.RentPerYear, cur)))
	case r.NeverPays || r.BreakevenUtilization > 1:
		d.Headline = tr(lang, fmt.Sprintf("Buying %s never pays off at these prices — keep renting", gpu),
			fmt.Sprintf("按这些价格，买 %s 永远回不了本——继续租", gpu))
		if r.BreakevenUtilization > 1 {
			d.Headline += tr(lang, fmt.Sprintf(" (break-even would need %s%% utilisation)", be), fmt.Sprintf("（打平需要 %s%% 利用率）", be))
		}
	case r.Cheaper == "buy":
		d.Headline = tr(lang,
			fmt.Sprintf("Buying %s pays off above %s%% utilisation — at %s%%, buy: it pays back in %s months and saves %s a year", gpu, be, u, fmtNum(r.PaybackMonths), moneyStr(w.SavingPerYear, cur)),
			fmt.Sprintf("%s 利用率高于 %s%% 时买更划算——按 %s%%：买，%s 个月回本，每年省 %s", gpu, be, u, fmtNum(r.PaybackMonths), moneyStr(r.SavingPerYear, cur)))
	default:
		d.Headline = tr(lang,
			fmt.Sprintf("Buying %s pays off above %s%% utilisation — at %s%%, keep renting (saves %s a year)", gpu, be, u, moneyStr(w.SavingPerYear, cur)),
			fmt.Sprintf("%s 利用率高于 %s%% 时买更划算——按 %s%%：继续租（每年省 %s）", gpu, be, u, moneyStr(w.SavingPerYear, cur)))
	}
	// The running cost the figures carry, theirs or the defaults named,
	// comes first after the headline.
	d.Summary = append(d.Summary, runningLine(lang, r))
	if r.Cards > 1 {
		// Several cards: say how the price was read and that the figures
		// are for all of them.
		if r.Inputs.PerCardQuote || r.MarketPurchase != nil {
			d.Summary = append(d.Summary, tr(lang,
				fmt.Sprintf("%d cards at %s each = %s; the monthly and yearly figures are for all %d cards.", r.Cards, moneyStr(r.PricePerCard, cur), moneyStr(w.Purchase, cur), r.Cards),
				fmt.Sprintf("%d 张卡，每张 %s，共 %s；每月和每年的数字都按全部 %d 张卡计。", r.Cards, moneyStr(r.PricePerCard, cur), moneyStr(w.Purchase, cur), r.Cards)))
		} else {
			d.Summary = append(d.Summary, tr(lang,
				fmt.Sprintf("Machine of %d cards: %s per card (the machine's price ÷ %d); the monthly and yearly figures are for the whole machine.", r.Cards, moneyStr(r.PricePerCard, cur), r.Cards),
				fmt.Sprintf("整机 %d 卡：每卡 %s（整机价 ÷ %d）；每月和每年的数字都按整机计。", r.Cards, moneyStr(r.PricePerCard, cur), r.Cards)))
		}
	}
	if q := r.MarketPurchase; q != nil && q.Card != nil {
		// a server's share per card carries its CPUs, memory and chassis
		d.Summary = append(d.Summary, tr(lang,
			fmt.Sprintf("The server's share per card (%s) includes CPUs, memory and chassis; the card alone is %s–%s (%s).", moneyStr(q.PerCard(), cur), moneyStr(q.Card.Low, cur), fmtNum(q.Card.High), q.Card.Newest),
			fmt.Sprintf("整机价每卡 %s 含 CPU、内存、机箱；单卡本身 %s–%s（%s）。", moneyStr(q.PerCard(), cur), moneyStr(q.Card.Low, cur), fmtNum(q.Card.High), q.Card.Newest)))
	}
	for _, s := range r.Sources {
		if s.What == "rent" && s.Platform != "" && !s.Given {
			// whose rent the purchase is weighed against
			d.Summary = append(d.Summary, tr(lang, fmt.Sprintf("Rent: %s %s (%s).", platformName(lang, s.Platform), s.Figure, s.ObservedAt),
				fmt.Sprintf("租金取自 %s %s（%s）。", platformName(lang, s.Platform), s.Figure, s.ObservedAt)))
			break
		}
	}
	d.Figures = []present.Figure{
		{Label: tr(lang, "break-even, all-in", "打平利用率（全成本）"), Value: be + "%"},
		{Label: tr(lang, "owning per year", "自购每年"), Value: moneyStr(w.OwnPerYear, cur)},
		{Label: tr(lang, "renting per year", "租用每年"), Value: moneyStr(w.RentPerYear, cur)},
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

// runningPart is one cost in the running cost a month.
type runningPart struct {
	en, zh  string
	amount  float64
	assumed bool // a default, not the user's figure
}

// runningParts lists the running cost a month of all the cards bought:
// power (unless a hosting fee includes it), operations or the hosting
// fee, and the cost of capital, each marked when it is a default.
func runningParts(r advisor.BuyResult) []runningPart {
	def := func(k string) bool { return has(r.Inputs.Defaulted, k) }
	w := r.Whole
	var ps []runningPart
	if !r.PowerIncluded && w.PowerPerMonth > 0 {
		ps = append(ps, runningPart{"power", "电费", w.PowerPerMonth, def("power") || def("pue") || def("watts")})
	}
	switch {
	case r.Inputs.Hosted:
		ps = append(ps, runningPart{"your hosting fee", "你给的托管费", w.OpsPerMonth, false})
	case w.OpsPerMonth > 0:
		ps = append(ps, runningPart{"operations", "运维", w.OpsPerMonth, def("ops")})
	}
	if w.CapitalPerMonth > 0 {
		ps = append(ps, runningPart{"cost of capital", "资金成本", w.CapitalPerMonth, def("rate")})
	}
	return ps
}

// runningShort is the running cost a month for a headline: its total and
// parts, the defaults said as such ("running cost ¥48,557.49/month: power
// ¥4,807.49 + operations ¥35,000 + cost of capital ¥8,750, all defaults").
func runningShort(lang string, r advisor.BuyResult) string {
	cur := string(r.Currency)
	ps := runningParts(r)
	if len(ps) == 0 {
		return tr(lang, "no running cost counted", "不计运行成本")
	}
	if len(ps) == 1 && !ps[0].assumed {
		return tr(lang, fmt.Sprintf("%s a month of %s", moneyStr(ps[0].amount, cur), ps[0].en), fmt.Sprintf("%s每月 %s", ps[0].zh, moneyStr(ps[0].amount, cur)))
	}
	var en, zh []string
	all := true
	for _, p := range ps {
		all = all && p.assumed
	}
	for _, p := range ps {
		e, z := p.en+" "+moneyStr(p.amount, cur), p.zh+" "+moneyStr(p.amount, cur)
		if p.assumed && !all {
			e, z = e+" (default)", z+"（默认）"
		}
		en, zh = append(en, e), append(zh, z)
	}
	s := tr(lang, fmt.Sprintf("%s running cost a month: %s", moneyStr(r.Whole.RunningPerMonth, cur), strings.Join(en, " + ")),
		fmt.Sprintf("运行成本每月 %s：%s", moneyStr(r.Whole.RunningPerMonth, cur), strings.Join(zh, " + ")))
	if all {
		s += tr(lang, ", all defaults", "，均为默认")
	}
	return s
}

// runningLine states the running cost used, where each part comes from,
// and how to give one's own.
func runningLine(lang string, r advisor.BuyResult) string {
	cur := string(r.Currency)
	def := func(k string) bool { return has(r.Inputs.Defaulted, k) }
	var en, zh []string
	w := r.Whole
	switch {
	case r.PowerIncluded:
		en, zh = append(en, "power included in your hosting fee"), append(zh, "电费含在你给的托管费里")
	case w.PowerPerMonth == 0:
		en, zh = append(en, "no power cost"), append(zh, "不计电费")
	case r.PowerIncluded:
		en, zh = append(en, "power included in your hosting fee"), append(zh, "电费含在你给的托管费里")
	case r.Home && def("power"):
		k := advisor.DefaultHomeElectricity[r.Currency]
		en = append(en, fmt.Sprintf("power at the household tariff %s/kWh, no data-centre PUE (default for one card in your own PC)", moneyStr(k, cur)))
		zh = append(zh, fmt.Sprintf("电费按居民电价 %s/度、不计机房 PUE（自己电脑里一张卡的默认）", moneyStr(k, cur)))
	case def("power"):
		k := advisor.DefaultElectricity[r.Currency]
		en = append(en, fmt.Sprintf("power at %s/kWh with data-centre PUE (defaults)", moneyStr(k, cur)))
		zh = append(zh, fmt.Sprintf("电费按 %s/度并计机房 PUE（默认）", moneyStr(k, cur)))
	default:
		en, zh = append(en, "power at your tariff"), append(zh, "电费按你给的电价")
	}
	switch {
	case r.Inputs.Hosted:
		en, zh = append(en, "your hosting fee as operations"), append(zh, "运维按你给的托管费")
	case w.OpsPerMonth == 0 && !def("ops"):
		en, zh = append(en, "no operations cost"), append(zh, "不计运维")
	case r.Home && def("ops"):
		en, zh = append(en, "no operations cost (a card in your own PC)"), append(zh, "不计运维（自己电脑里的卡）")
	case def("ops"):
		en = append(en, fmt.Sprintf("operations %s%% of the price a year (default: support, spares, rack, engineer time)", fmtNum(advisor.DefaultOpsShare*100)))
		zh = append(zh, fmt.Sprintf("运维按购价的 %s%%/年（默认：维保、备件、机柜、人力）", fmtNum(advisor.DefaultOpsShare*100)))
	default:
		en, zh = append(en, "your operations cost"), append(zh, "运维按你给的金额")
	}
	switch {
	case def("rate"):
		en = append(en, fmt.Sprintf("cost of capital %s%% a year (default)", fmtNum(advisor.DefaultRate*100)))
		zh = append(zh, fmt.Sprintf("资金成本 %s%%/年（默认）", fmtNum(advisor.DefaultRate*100)))
	case r.Whole.CapitalPerMonth == 0:
		en, zh = append(en, "no cost of capital"), append(zh, "不计资金成本")
	default:
		en, zh = append(en, "your cost of capital"), append(zh, "资金成本按你给的利率")
	}
	return tr(lang,
		fmt.Sprintf("Running cost used: %s a month — %s. Give ops= (a year), power= (per kWh) or rate= to use your own.", moneyStr(r.Whole.RunningPerMonth, cur), strings.Join(en, "; ")),
		fmt.Sprintf("运行成本按每月 %s 计——%s。可用 ops=（每年）、power=（每度）、rate= 换成你的。", moneyStr(r.Whole.RunningPerMonth, cur), strings.Join(zh, "；")))
}
