package bot

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/knowledge"
)

// calc is a rendered calculation: the parts every money answer shares.
type calc struct {
	title       string
	summary     []string    // the verdict, a line each
	pairs       [][2]string // headline figures
	lines       []advisor.Line
	assumptions []advisor.Text
	sources     []advisor.PriceSource
	assumed     map[string]any
	notes       []string // follow-ups and context lines
}

// sym writes a currency as its sign.
func sym(c string) string {
	switch c {
	case "CNY":
		return "¥"
	case "USD":
		return "$"
	}
	return c + " "
}

// moneyStr writes an amount with its currency sign.
func moneyStr(v float64, cur string) string {
	if v < 0 {
		return "−" + sym(cur) + fmtNum(-v)
	}
	return sym(cur) + fmtNum(v)
}

// lineValue writes a line's value with its unit ("¥1.8/h", "41.13 GB").
func lineValue(l advisor.Line) string {
	for _, c := range []string{"CNY", "USD"} {
		if strings.HasPrefix(l.Unit, c) {
			return moneyStr(l.Value, c) + strings.TrimPrefix(l.Unit, c)
		}
	}
	switch l.Unit {
	case "":
		return fmtNum(l.Value)
	case "%":
		return fmtNum(l.Value) + "%"
	}
	return fmtNum(l.Value) + " " + l.Unit
}

func sourceText(lang string, s advisor.PriceSource) string {
	if s.Given {
		return fmt.Sprintf("%s: %s (%s)", s.What, s.Figure, tr(lang, "given by you", "你提供的"))
	}
	if s.ObservedAt == "" {
		return fmt.Sprintf("%s: %s (%s)", s.What, s.Figure, s.Source)
	}
	where := s.Platform
	if where != "" {
		where += ", "
	}
	return fmt.Sprintf("%s: %s — %s%s %s (%s)", s.What, s.Figure, where, tr(lang, "observed", "采集于"), s.ObservedAt, s.Source)
}

func (c calc) render(lang string) (string, []slack.Block) {
	var t strings.Builder
	t.WriteString(c.title + "\n")
	for _, s := range c.summary {
		t.WriteString(s + "\n")
	}
	if len(c.pairs) > 0 {
		t.WriteString("\n")
		for _, p := range c.pairs {
			fmt.Fprintf(&t, "%s: %s\n", p[0], p[1])
		}
	}
	var steps []string
	for _, l := range c.lines {
		s := fmt.Sprintf("%s = %s", l.Label.In(lang), lineValue(l))
		if l.How != "" {
			s += "  (" + l.How + ")"
		}
		steps = append(steps, s)
	}
	if len(steps) > 0 {
		t.WriteString("\n" + tr(lang, "How it is computed:\n", "计算过程：\n") + bullets(steps))
	}
	var assumptions []string
	for _, a := range c.assumptions {
		assumptions = appendOnce(assumptions, a.In(lang))
	}
	if len(assumptions) > 0 {
		t.WriteString("\n" + tr(lang, "Assumptions:\n", "假设：\n") + bullets(assumptions))
	}
	var srcs []string
	for _, s := range c.sources {
		srcs = appendOnce(srcs, sourceText(lang, s))
	}
	if len(srcs) > 0 {
		t.WriteString("\n" + tr(lang, "Prices used:\n", "所用价格：\n") + bullets(srcs))
	}
	at := assumedText(lang, c.assumed)
	if at != "" {
		t.WriteString(at + "\n")
	}
	for _, n := range c.notes {
		if n != "" {
			t.WriteString(n + "\n")
		}
	}

	blocks := []slack.Block{header(c.title)}
	if len(c.summary) > 0 {
		blocks = append(blocks, section(escape(strings.Join(c.summary, "\n"))))
	}
	blocks = append(blocks, fields(c.pairs)...)
	if len(steps) > 0 {
		blocks = append(blocks, section(escape(tr(lang, "How it is computed:\n", "计算过程：\n")+bullets(steps))))
	}
	var ctx []string
	ctx = append(ctx, assumptions...)
	if at != "" {
		ctx = append(ctx, at)
	}
	if len(ctx) > 0 {
		blocks = append(blocks, contextLine(strings.Join(ctx, "; ")))
	}
	if len(srcs) > 0 {
		blocks = append(blocks, contextLine(tr(lang, "Prices: ", "价格来源：")+strings.Join(srcs, "; ")))
	}
	for _, n := range c.notes {
		if n != "" {
			blocks = append(blocks, contextLine(n))
		}
	}
	return strings.TrimRight(t.String(), "\n"), capBlocks(blocks)
}

func gpuName(id string) string {
	if g, ok := knowledge.MustShipped().GPU(id); ok {
		return g.Name
	}
	return id
}

func renderCost(lang string, r advisor.CostResult, as map[string]any, notes ...string) (string, []slack.Block) {
	cur := string(r.Currency)
	w := r.Inputs.Workload
	c := calc{lines: r.Lines, assumptions: r.Assumptions, sources: r.Sources, assumed: as, notes: notes}
	on := func(en, zh string) string { // "on RTX 4090" only when a card was priced
		if r.GPU == "" {
			return ""
		}
		return tr(lang, en, zh)
	}
	if w.Method == advisor.Inference {
		c.title = tr(lang,
			fmt.Sprintf("%sB inference%s: %s per million tokens", fmtNum(w.ParamsB), on(" on "+gpuName(r.GPU), ""), moneyStr(r.PerMTokens, cur)),
			fmt.Sprintf("%sB 推理%s：每百万 token %s", fmtNum(w.ParamsB), on("", "（"+gpuName(r.GPU)+"）"), moneyStr(r.PerMTokens, cur)))
		c.pairs = [][2]string{
			{tr(lang, "tokens/s per replica", "单副本 tokens/s"), fmtNum(r.TokensPerS)},
			{tr(lang, "cards per replica", "每副本卡数"), fmt.Sprint(r.GPUs)},
			{tr(lang, "per million tokens", "每百万 token"), moneyStr(r.PerMTokens, cur)},
			{tr(lang, "GPU-hours", "卡时"), fmtNum(r.GPUHours)},
			{tr(lang, "total", "合计"), moneyStr(r.Total, cur)},
		}
	} else {
		c.title = tr(lang,
			fmt.Sprintf("%sB %s%s: about %s", fmtNum(w.ParamsB), methodName(lang, string(w.Method)), on(" on "+gpuName(r.GPU), ""), moneyStr(r.Total, cur)),
			fmt.Sprintf("%sB %s%s：约 %s", fmtNum(w.ParamsB), methodName(lang, string(w.Method)), on("", "（"+gpuName(r.GPU)+"）"), moneyStr(r.Total, cur)))
		c.pairs = [][2]string{
			{tr(lang, "GPU-hours", "卡时"), fmtNum(r.GPUHours)},
			{tr(lang, "cards", "卡数"), fmt.Sprint(r.GPUs)},
			{tr(lang, "wall-clock", "耗时"), fmtNum(r.WallHours) + " h"},
			{tr(lang, "per card-hour", "每卡每小时"), moneyStr(r.Hourly, cur)},
			{tr(lang, "total", "合计"), moneyStr(r.Total, cur)},
		}
	}
	if r.Interruptible {
		c.summary = append(c.summary, tr(lang, "Priced on interruptible (spot) capacity: the job can be stopped by the provider.", "按可中断（竞价/Spot）实例计价：任务可能被平台中断。"))
	}
	if len(r.Alternatives) > 1 {
		var alts []string
		for i, o := range r.Alternatives {
			if i == 0 || i > 4 {
				continue
			}
			alts = append(alts, fmt.Sprintf("%s ×%d %s", gpuName(o.GPU), o.GPUs, moneyStr(o.Total, cur)))
		}
		if len(alts) > 0 {
			c.notes = append(c.notes, tr(lang, "Next cheapest: ", "其次便宜：")+strings.Join(alts, "; "))
		}
	}
	c.notes = append(c.notes, confirmNote(lang, r.Sources))
	return c.render(lang)
}

// confirmNote reminds that catalogue prices are dated ranges, when any were used.
func confirmNote(lang string, srcs []advisor.PriceSource) string {
	for _, s := range srcs {
		if !s.Given && s.ObservedAt != "" {
			return tr(lang, "Catalogue prices are dated ranges, not live quotes: confirm on the platform before you commit.",
				"目录价格是带日期的区间，不是实时报价：下单前请到平台确认。")
		}
	}
	return ""
}

func renderMonthly(lang string, r advisor.MonthlyResult, as map[string]any, notes []string) (string, []slack.Block) {
	cur := string(r.Currency)
	gpu := gpuName(r.Inputs.GPU)
	c := calc{lines: r.Lines, assumptions: r.Assumptions, sources: r.Sources, assumed: as, notes: notes}
	c.title = tr(lang,
		fmt.Sprintf("%s monthly plan vs on demand: break-even at %s h/month", gpu, fmtNum(r.BreakevenHoursPerMonth)),
		fmt.Sprintf("%s 包月 vs 按需：每月 %s 小时打平", gpu, fmtNum(r.BreakevenHoursPerMonth)))
	switch r.Cheaper {
	case "monthly":
		c.summary = append(c.summary, tr(lang,
			fmt.Sprintf("At %s h/month the monthly plan is cheaper by %s (%s%%).", fmtNum(r.Inputs.HoursPerMonth), moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100)),
			fmt.Sprintf("每月 %s 小时：包月更划算，省 %s（%s%%）。", fmtNum(r.Inputs.HoursPerMonth), moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100))))
	case "on_demand":
		c.summary = append(c.summary, tr(lang,
			fmt.Sprintf("At %s h/month paying on demand is cheaper by %s (%s%%).", fmtNum(r.Inputs.HoursPerMonth), moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100)),
			fmt.Sprintf("每月 %s 小时：按需更划算，省 %s（%s%%）。", fmtNum(r.Inputs.HoursPerMonth), moneyStr(r.Saving, cur), fmtNum(r.SavingPct*100))))
	}
	c.pairs = [][2]string{
		{tr(lang, "on demand per card-hour", "按需每卡每小时"), moneyStr(r.Hourly, cur)},
		{tr(lang, "monthly plan per card", "包月每卡每月"), moneyStr(r.MonthlyPrice, cur)},
		{tr(lang, "break-even hours/month", "打平小时数/月"), fmtNum(r.BreakevenHoursPerMonth)},
	}
	if r.Cheaper != "" {
		c.pairs = append(c.pairs,
			[2]string{tr(lang, "on demand per month", "按需每月"), moneyStr(r.OnDemandCost, cur)},
			[2]string{tr(lang, "monthly plan per month", "包月每月"), moneyStr(r.MonthlyCost, cur)})
	}
	c.notes = append(c.notes, tr(lang,
		"Rule of thumb from the guides: a monthly plan tends to pay off above about 150 h a month, typically 20–30% cheaper than on demand — the break-even above is computed from these prices.",
		"经验值（参考）：每月用满约 150 小时以上包月通常更划算，一般比按需便宜 20–30%；上面的打平点是按这些价格算出来的。"))
	c.notes = append(c.notes, confirmNote(lang, r.Sources))
	return c.render(lang)
}

func renderBuy(lang string, v BuyView, as map[string]any, notes ...string) (string, []slack.Block) {
	r := v.BuyResult
	cur := string(r.Currency)
	gpu := gpuName(r.GPU)
	c := calc{lines: v.Steps, assumptions: r.Assumptions, sources: r.Sources, assumed: as, notes: notes}
	c.title = tr(lang,
		fmt.Sprintf("Buy or rent %s: buying pays off above %s%% utilisation", gpu, fmtNum(r.BreakevenUtilization*100)),
		fmt.Sprintf("%s 买还是租：利用率高于 %s%% 时买更划算", gpu, fmtNum(r.BreakevenUtilization*100)))
	if r.NeverPays || r.BreakevenUtilization > 1 {
		c.title = tr(lang, fmt.Sprintf("Buy or rent %s: at these prices buying never pays off", gpu), fmt.Sprintf("%s 买还是租：按这些价格，买永远回不了本", gpu))
	}
	u := r.Inputs.Utilization * 100
	if r.Cheaper == "buy" {
		c.summary = append(c.summary, tr(lang,
			fmt.Sprintf("At %s%% utilisation buying is cheaper; it pays back in %s months.", fmtNum(u), fmtNum(r.PaybackMonths)),
			fmt.Sprintf("利用率 %s%% 时买更省，%s 个月回本。", fmtNum(u), fmtNum(r.PaybackMonths))))
	} else {
		c.summary = append(c.summary, tr(lang,
			fmt.Sprintf("At %s%% utilisation renting is cheaper.", fmtNum(u)),
			fmt.Sprintf("利用率 %s%% 时租更省。", fmtNum(u))))
	}
	c.pairs = [][2]string{
		{tr(lang, "break-even, all-in", "打平利用率（全成本）"), fmtNum(r.BreakevenUtilization*100) + "%"},
		{tr(lang, "break-even, hardware only", "打平利用率（仅硬件）"), fmtNum(r.HardwareBreakeven*100) + "%"},
		{tr(lang, "owning per year", "自购每年"), moneyStr(r.OwnPerYear, cur)},
		{tr(lang, "renting per year", "租用每年"), moneyStr(r.RentPerYear, cur)},
	}
	if r.PaybackMonths > 0 {
		pb := fmtNum(r.PaybackMonths) + tr(lang, " months", " 个月")
		if life := r.Inputs.Years * 12; life > 0 && r.PaybackMonths > life {
			pb += tr(lang, fmt.Sprintf(" (longer than the %s-year life)", fmtNum(r.Inputs.Years)), fmt.Sprintf("（超过 %s 年折旧期）", fmtNum(r.Inputs.Years)))
		}
		c.pairs = append(c.pairs, [2]string{tr(lang, "payback", "回本"), pb})
	}
	for _, l := range v.Lines {
		c.pairs = append(c.pairs, [2]string{l.Label.In(lang), lineValue(l)})
	}
	c.notes = append(c.notes, tr(lang,
		"Rule of thumb from the guides: buying tends to pay off above about 70% sustained utilisation — the figures above are computed from these inputs.",
		"经验值（参考）：长期利用率超过约 70% 才考虑自购；以上数字按这些输入计算得出。"))
	c.notes = append(c.notes, confirmNote(lang, r.Sources))
	return c.render(lang)
}

// age says how old an observation date is, e.g. "89 days ago" / "89 天前".
func age(lang, observed string, now time.Time) string {
	t, err := time.Parse("2006-01-02", observed)
	if err != nil {
		if t, err = time.Parse(time.RFC3339, observed); err != nil {
			return ""
		}
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return ""
	case d < time.Hour:
		return tr(lang, "just now", "刚刚")
	case d < 48*time.Hour:
		h := int(d.Hours())
		return tr(lang, fmt.Sprintf("%d h ago", h), fmt.Sprintf("%d 小时前", h))
	}
	days := int(d.Hours() / 24)
	return tr(lang, fmt.Sprintf("%d days ago", days), fmt.Sprintf("%d 天前", days))
}

// maxPriceLines caps the offers a price answer lists; the rest are counted
// (the full list stays in the answer's result).
const maxPriceLines = 12

func renderPrice(lang string, kb *knowledge.Base, v PriceView, now time.Time) (string, []slack.Block) {
	names := make([]string, len(v.GPUs))
	for i, g := range v.GPUs {
		names[i] = gpuName(g)
	}
	c := calc{title: tr(lang, "Prices for ", "价格：") + strings.Join(names, ", ")}
	if len(v.Offers) == 0 {
		c.summary = append(c.summary, tr(lang, "The catalogue has no price for this card yet.", "目录里还没有这张卡的价格。"))
	}
	if v.NotListed != "" {
		p := v.NotListed
		if pl, ok := kb.Platform(p); ok {
			p = pl.Name
		}
		c.summary = append(c.summary, tr(lang, fmt.Sprintf("%s does not list %s in the catalogue; here is where it is priced:", p, strings.Join(names, ", ")),
			fmt.Sprintf("目录里 %s 没有 %s 的报价；以下是有报价的平台：", p, strings.Join(names, ", "))))
	}
	groups := priceLines(v) // price_catalog.go
	shown := 0
	for _, g := range groups {
		if shown == maxPriceLines {
			break
		}
		shown++
		o := g.Offer
		p := o.Platform
		if pl, ok := kb.Platform(o.Platform); ok {
			p = pl.Name
			if lang == "zh" && pl.NameZH != "" {
				p = pl.NameZH
			}
		}
		price := moneyStr(o.Price, o.Currency)
		if o.PriceHigh > o.Price {
			price += "–" + fmtNum(o.PriceHigh)
		}
		kind := map[string][2]string{"monthly": {"monthly plan", "包月"}, "spot": {"spot, interruptible", "竞价，可中断"}, "package": {"prepaid", "预付"}, "on_demand": {"on demand", "按需"}}[o.Billing]
		when := tr(lang, "observed", "采集于") + " " + o.ObservedAt
		if o.FreshnessLabel != "" {
			when = o.FreshnessLabel // carries the date: "dated: 2026-03-21"
		}
		if a := age(lang, o.ObservedAt, now); a != "" {
			when += ", " + a
		}
		offer := o.Original
		if o.SKU != "" {
			offer = o.SKU + ": " + offer
		}
		if o.Regions > 1 {
			offer += tr(lang, fmt.Sprintf(", %d regions", o.Regions), fmt.Sprintf("，%d 个区域", o.Regions))
		}
		line := fmt.Sprintf("%s %s — %s%s (%s; %s: %s; %s)", gpuName(o.GPU), p, price, tr(lang, "/card-hour", "/卡时"),
			tr(lang, kind[0], kind[1]), tr(lang, "published", "原价"), offer, when)
		if g.More > 0 {
			line += tr(lang, fmt.Sprintf(" · %d more offers here", g.More), fmt.Sprintf(" · 该平台另有 %d 条报价", g.More))
		}
		c.summary = append(c.summary, "• "+line)
	}
	if more := len(groups) - shown; more > 0 {
		c.summary = append(c.summary, tr(lang,
			fmt.Sprintf("…and %d more lines (%d offers in all); name a platform (@lambda) to see all of its offers.", more, len(v.Offers)),
			fmt.Sprintf("……另有 %d 行（共 %d 条报价）；指定平台（如 @autodl）可查看该平台全部报价。", more, len(v.Offers))))
	}
	for _, a := range v.Assumptions {
		c.notes = appendOnce(c.notes, a)
	}
	c.notes = append(c.notes, tr(lang, "Cheapest first, per card-hour. Prices are dated observations, not live quotes: confirm on the platform.",
		"按每卡每小时从低到高排列。价格为带日期的采集值，并非实时报价，请到平台确认。"))
	return c.render(lang)
}

func renderCompare(lang string, r advisor.Comparison) (string, []slack.Block) {
	cur := string(r.Inputs.Currency)
	var names []string
	for _, row := range r.Rows {
		names = append(names, row.Name)
	}
	c := calc{title: tr(lang, "Compare: ", "对比：") + strings.Join(names, " vs "), assumptions: r.Assumptions, sources: r.Sources}
	for _, row := range r.Rows {
		price := tr(lang, "no price", "无报价")
		if row.PriceLow > 0 {
			price = moneyStr(row.PriceLow, cur)
			if row.PriceHigh > row.PriceLow {
				price += "–" + fmtNum(row.PriceHigh)
			}
			price += tr(lang, "/card-hour", "/卡时")
		}
		fp8 := "—"
		if row.FP8TFLOPS > 0 {
			fp8 = fmtNum(row.FP8TFLOPS)
		}
		s := fmt.Sprintf("%s: %s GB, %s GB/s, BF16 %s TFLOPS, FP8 %s, %s, %s", row.Name, fmtNum(row.VRAMGB), fmtNum(row.BandwidthGBs),
			fmtNum(row.BF16TFLOPS), fp8, row.Interconnect, price)
		if row.PerTFLOPHour > 0 {
			s += fmt.Sprintf(tr(lang, "; %s per TFLOP-hour, %s per GB-hour", "；每 TFLOP 时 %s，每 GB 时 %s"), moneyStr(row.PerTFLOPHour, cur), moneyStr(row.PerGBHour, cur))
		}
		c.summary = append(c.summary, "• "+s)
	}
	for _, n := range r.Notes {
		c.notes = append(c.notes, n.In(lang))
	}
	return c.render(lang)
}

func renderRecommend(lang string, r advisor.Recommendation, as map[string]any) (string, []slack.Block) {
	c := calc{title: tr(lang, "Cost-performance ranking", "性价比排行"), assumptions: r.Assumptions, sources: nil, assumed: as}
	for _, rk := range r.Rankings {
		c.summary = append(c.summary, rk.Title.In(lang)+" — "+rk.ScoreHow.In(lang))
		for _, row := range rk.Rows {
			s := fmt.Sprintf("%d. %s @ %s %s%s ×%d — %s %s, %s %s", row.Rank, row.Name, row.Platform, moneyStr(row.Price, string(row.Currency)),
				tr(lang, "/card-hour", "/卡时"), row.Cards, tr(lang, "score", "得分"), fmtNum(row.Score), tr(lang, "value", "性价比"), fmtNum(row.Value))
			if row.PerMTokens > 0 {
				s += fmt.Sprintf(tr(lang, ", %s/M tokens", "，每百万 token %s"), moneyStr(row.PerMTokens, string(row.Currency)))
			}
			if row.Interruptible {
				s += tr(lang, " (spot)", "（竞价）")
			}
			c.summary = append(c.summary, "   "+s)
		}
		if len(rk.Excluded) > 0 {
			var ex []string
			for _, e := range rk.Excluded {
				ex = appendOnce(ex, e.Name)
			}
			sort.Strings(ex)
			c.summary = append(c.summary, "   "+tr(lang, "Cannot hold it: ", "放不下：")+strings.Join(ex, ", "))
		}
	}
	for _, p := range r.Plans {
		c.summary = append(c.summary, fmt.Sprintf("%s: %s @ %s ×%d, %s%s — %s", p.Title.In(lang), p.Name, p.Platform, p.Cards,
			moneyStr(p.MonthlyCost, string(p.Currency)), tr(lang, "/month", "/月"), p.Why.In(lang)))
	}
	if r.Persona != nil {
		c.summary = append(c.summary, r.Persona.Title.In(lang)+": "+r.Persona.Body.In(lang))
	}
	c.lines = r.Lines
	c.sources = r.Sources
	c.notes = append(c.notes, confirmNote(lang, r.Sources))
	return c.render(lang)
}
