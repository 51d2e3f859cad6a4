package recap

import (
	"fmt"
	"math"
	"strings"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/present"

	"github.com/gpubot/gpubot/bot/ledger"
)

// maxSection keeps a section under Slack's 3000-character limit.
const maxSection = 2500

// Render writes the recap in its language: the plain text (notification
// and fallback) and the Block Kit blocks.
func (r *Recap) Render() (string, []slack.Block) {
	if r.Empty() {
		line := r.tr(fmt.Sprintf("GPU spend — %s: nothing was logged for %s or %s. Add spend with /gpu spend add, or import a bill with bot spend import.", r.month(r.Month), r.month(r.Month), r.month(r.Prev)),
			fmt.Sprintf("GPU 花费月报 — %s：%s 和 %s 都没有记录。记账：/gpu spend add，或用 bot spend import 导入账单。", r.month(r.Month), r.month(r.Month), r.month(r.Prev)))
		return escape(line), []slack.Block{section(escape(line))}
	}
	var text []string
	var blocks []slack.Block
	title := r.tr("GPU spend — "+r.month(r.Month), "GPU 花费月报 — "+r.month(r.Month))
	text = append(text, "*"+title+"*")
	blocks = append(blocks, slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, title, false, false)))

	rep := r.Report
	total := r.tr("*Total*: ", "*合计*：") + r.totals(rep.Total) + "\n" + r.basis(rep.Total) + "\n" + r.tr("vs "+r.monthShort(r.Prev)+": ", "对比"+r.monthShort(r.Prev)+"：") + r.change()
	text = append(text, total)
	blocks = append(blocks, section(escape(total)))

	add := func(heading string, lines []string) {
		if len(lines) == 0 {
			return
		}
		body := "*" + heading + "*\n" + strings.Join(lines, "\n")
		if rs := []rune(body); len(rs) > maxSection {
			body = string(rs[:maxSection]) + "…"
		}
		text = append(text, body)
		blocks = append(blocks, section(escape(body)))
	}
	add(r.tr("By project", "按项目"), r.groups(rep.ByProject, true, func(k string) string { return k }))
	add(r.tr("By card (GPU-hours)", "按显卡（卡时）"), r.groups(rep.ByGPU, false, r.gpu))
	add(r.tr("By platform", "按平台"), r.groups(rep.ByPlatform, false, r.platform))
	add(r.tr("Budget vs actual", "预算对比实际"), r.Budgets)
	if f := r.Forecast; f != nil {
		add(r.tr("Forecast for "+r.month(f.Month), r.month(f.Month)+" 预测"), []string{r.tr(
			fmt.Sprintf("%s (range %s–%s) = committed %s + run rate %s a day × %d days. Method: the run rate is %s's on-demand and spot GPU spend ÷ its days; the range uses the last 7 days' rate (%s a day); prepaid terms count once, at their monthly share; %s of 包月 plans running at month end are assumed to renew.",
				f.Projected, f.Low, f.High, f.Committed, f.RunRate, f.Days, r.monthShort(r.Month), f.Week, f.Renewing),
			fmt.Sprintf("%s（区间 %s–%s）= 固定费用 %s + 运行速率每天 %s × %d 天。方法：运行速率为%s按量和竞价 GPU 花费 ÷ 当月天数；区间用最后 7 天的速率（每天 %s）；预付期限按月分摊、只计一次；月底仍在用的包月 %s 按续费计入。",
				f.Projected, f.Low, f.High, f.Committed, f.RunRate, f.Days, r.monthShort(r.Month), f.Week, f.Renewing))})
	}
	var cs []string
	for _, c := range r.Commitments {
		e := c.Entry
		term := max(c.Term, e.TermMonths, 1)
		months, monthsZh := fmt.Sprintf("%d months", term), fmt.Sprintf("%d 个月", term)
		if term == 1 {
			months, monthsZh = "one month (包月)", "1 个月（包月）"
		}
		line := r.tr(
			fmt.Sprintf("• %s ×%d on %s, %s for %s (%s a month), since %s, month %d of %d; renews or ends %s", r.gpu(e.GPU), e.Cards, r.platform(e.Platform), e.Amount, months, c.PerMonth, c.From, c.MonthsUse, term, c.Renews.Format("2006-01-02")),
			fmt.Sprintf("• %s ×%d，%s，%s / %s（每月 %s），自 %s 起，第 %d/%d 个月；%s 到期或续费", r.gpu(e.GPU), e.Cards, r.platform(e.Platform), e.Amount, monthsZh, c.PerMonth, c.From, c.MonthsUse, term, c.Renews.Format("2006-01-02")))
		switch {
		case c.Term == 0: // listed without usage (ledger.Commitments)
		case !c.UsageKnown:
			line += r.tr("; hours used unknown (no usage recorded on it), not counted as idle", "；已用卡时未知（没有用量记录），不算闲置")
		case c.Committed > 0:
			line += r.tr(fmt.Sprintf("; used %s of %s card-h paid for so far, idle %s (%s)", present.Num(math.Round(c.Used)), present.Num(math.Round(c.Committed)), present.Num(math.Round(c.Idle)), present.Pct(math.Round(c.IdleShare*100)/100)),
				fmt.Sprintf("；至今已付 %s 卡时，已用 %s，闲置 %s（%s）", present.Num(math.Round(c.Committed)), present.Num(math.Round(c.Used)), present.Num(math.Round(c.Idle)), present.Pct(math.Round(c.IdleShare*100)/100)))
		}
		cs = append(cs, line)
	}
	add(r.tr("Commitments", "承诺消费（包年包月/预留）"), cs)
	var fs []string
	for i, f := range r.Findings {
		fs = append(fs, fmt.Sprintf("%d. %s", i+1, f.Text.In(r.Lang)))
	}
	if len(fs) == 0 {
		fs = append(fs, r.tr("Nothing stands out: no plan, purchase or cheaper offer would have saved money on this month's usage.",
			"没有明显可改进之处：按本月用量，包月、自购或换平台都省不了钱。"))
	}
	add(r.tr("What to change", "改进建议"), fs)

	note := r.tr(fmt.Sprintf("From the team's ledger (/gpu spend report %s) in %s and the catalogue's prices known in that month. Amounts stay in their own currency; ≈ converts USD at %s CNY.", r.Month, r.Location, num(r.FX)),
		fmt.Sprintf("数据来自团队账本（/gpu spend report %s，%s 时区）和当月已知的目录价格。金额按原币种列出；≈ 按 1 美元 = %s 元折算。", r.Month, r.Location, num(r.FX)))
	if n := rep.Total.Unpriced; n > 0 {
		note += r.tr(fmt.Sprintf(" %d entries without an amount count in card-hours only.", n), fmt.Sprintf(" 有 %d 条记录没有金额，只计入卡时。", n))
	}
	if r.Chart != nil {
		note += r.tr(" Chart: spend by project, numbered as listed.", " 附图：按项目的花费，编号与上面的列表一致。")
	}
	text = append(text, "_"+note+"_")
	blocks = append(blocks, contextBlock(escape(note)))
	// The fallback is escaped like the blocks: a project, platform or
	// offer name from a bill or a source pings nobody.
	return escape(strings.Join(text, "\n\n")), present.Limit(blocks, 0)
}

// totals is "¥7,515.50 + $50.00 (≈ ¥7,875.50 at 7.2 CNY per USD) · 804.5
// card-h · 14 entries": a converted figure always names its rate.
func (r *Recap) totals(t ledger.Totals) string {
	s := t.Amount.String()
	if t.Converted != nil && len(t.Amount) > 1 {
		s += r.tr(fmt.Sprintf(" (≈ %s at %g CNY per USD)", t.Converted, r.FX), fmt.Sprintf("（≈ %s，按 1 美元 = %g 元）", t.Converted, r.FX))
	}
	s += " · " + hours(t.CardHours) + r.tr(" card-h", " 卡时")
	s += r.tr(fmt.Sprintf(" · %d entries", t.Entries), fmt.Sprintf(" · %d 条", t.Entries))
	return s
}

// basis splits the total into what bills state, what was estimated (typed
// in chat or priced from the catalogue) and refunds, which add up to it.
func (r *Recap) basis(t ledger.Totals) string {
	return r.tr(fmt.Sprintf("billed %s · estimated %s · refunds %s", t.Billed, t.Estimated, t.Refunds),
		fmt.Sprintf("账单 %s · 估算 %s · 退款 %s", t.Billed, t.Estimated, t.Refunds))
}

// change is this month minus the last, per currency, and in card-hours.
func (r *Recap) change() string {
	rep := r.Report
	var parts []string
	d := rep.Change()
	for _, c := range d.Currencies() {
		parts = append(parts, signed(d.Money(c)))
	}
	dh := rep.Total.CardHours - rep.Prev.CardHours
	sign := "+"
	if dh < 0 {
		sign = "-"
		dh = -dh
	}
	parts = append(parts, sign+hours(dh)+r.tr(" card-h", " 卡时"))
	return strings.Join(parts, " · ") + r.tr(fmt.Sprintf(" (%s: %s · %s card-h)", r.monthShort(r.Prev), rep.Prev.Amount.String(), hours(rep.Prev.CardHours)),
		fmt.Sprintf("（%s：%s · %s 卡时）", r.monthShort(r.Prev), rep.Prev.Amount.String(), hours(rep.Prev.CardHours)))
}

func signed(m ledger.Money) string {
	if m.Minor >= 0 {
		return "+" + m.String()
	}
	return m.String()
}

func (r *Recap) groups(gs []ledger.Group, numbered bool, name func(string) string) []string {
	var out []string
	// The rows add up to the total: the tail is one "other" row with its
	// amount ("…and 3 more" hid it).
	folded := len(gs) > r.rows+1
	gs = ledger.Top(gs, r.rows+1, r.Report.FX)
	for i, g := range gs {
		lead := "•"
		if numbered {
			lead = fmt.Sprintf("%d.", i+1)
		}
		label := name(g.Key)
		if folded && i == len(gs)-1 {
			lead, label = "•", r.tr("other", "其他")
		}
		amount := g.Amount.String()
		if g.Entries == 0 {
			amount = r.tr("nothing", "无")
		}
		prev := g.Prev.Amount.String()
		if g.Prev.Entries == 0 {
			prev = r.tr("nothing", "无")
		}
		out = append(out, fmt.Sprintf("%s %s%s%s · %s%s%s", lead, label, r.tr(": ", "："), amount, hours(g.CardHours), r.tr(" card-h", " 卡时"),
			r.tr(fmt.Sprintf(" (%s %s · %s card-h)", r.monthShort(r.Prev), prev, hours(g.Prev.CardHours)),
				fmt.Sprintf("（%s %s · %s 卡时）", r.monthShort(r.Prev), prev, hours(g.Prev.CardHours)))))
	}
	return out
}

func (r *Recap) tr(en, zh string) string {
	if r.Lang == "zh" {
		return zh
	}
	return en
}

// month is "October 2026" or "2026年10月".
func (r *Recap) month(m ledger.Month) string {
	return r.tr(fmt.Sprintf("%s %d", m.Month, m.Year), fmt.Sprintf("%d年%d月", m.Year, int(m.Month)))
}

// monthShort is "Sep" or "9月".
func (r *Recap) monthShort(m ledger.Month) string {
	return r.tr(m.Month.String()[:3], fmt.Sprintf("%d月", int(m.Month)))
}

func (r *Recap) gpu(id string) string {
	if id == "" {
		return r.tr("(card not named)", "（未写显卡）") // an invoice without a card: a row, not a blank
	}
	return names{kb: r.kb}.gpu(id)
}

func (r *Recap) platform(id string) string { return names{kb: r.kb}.platform(id, r.Lang) }

func num(v float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.4f", v), "0"), ".")
}

// The shared Block Kit helpers, under this package's short names.
var (
	escape       = present.EscapeControl
	section      = present.Section
	contextBlock = present.Context
)
