package digest

import (
	"fmt"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// maxSection keeps a section under Slack's 3000-character limit, with
// room for the escaping of & < >.
const maxSection = 2500

// Render writes the post in the digest's language: the plain text (the
// notification and fallback) and the Block Kit blocks. A quiet digest is
// one line.
func (d *Digest) Render() (string, []slack.Block) {
	if d.Quiet() {
		line := d.quietLine()
		return escape(line), []slack.Block{section(escape(line))}
	}
	var text []string
	var blocks []slack.Block
	title := d.tr(fmt.Sprintf("GPU prices — %s", d.day(d.At)), fmt.Sprintf("GPU 价格日报 — %s", d.day(d.At)))
	text = append(text, "*"+title+"*")
	blocks = append(blocks, slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, title, false, false)))
	sub := d.subtitle()
	text = append(text, sub)
	blocks = append(blocks, contextBlock(escape(sub)))

	add := func(heading string, lines []string) {
		if len(lines) == 0 {
			return
		}
		body := "*" + heading + "*\n" + strings.Join(lines, "\n")
		if r := []rune(body); len(r) > maxSection {
			body = string(r[:maxSection]) + "…"
		}
		text = append(text, body)
		blocks = append(blocks, section(escape(body)))
	}
	if d.First {
		add(d.tr("First post", "首次推送"), []string{d.tr(
			"There is no earlier catalogue to compare with yet: from the next post on, this lists what moved since the one before.",
			"还没有可以对比的旧目录：从下一次推送起，这里会列出与上一次相比的变化。")})
	}
	add(d.tr("Biggest drops", "降价最多"), d.moves(d.Drops, d.MoreDrops))
	add(d.tr("Biggest rises", "涨价最多"), d.moves(d.Rises, d.MoreRises))
	add(d.tr(fmt.Sprintf("New lows (cheapest in %d days)", d.Days), fmt.Sprintf("新低（%d 天内最低）", d.Days)), d.lows())
	add(d.tr("New offers", "新上架"), d.listings(d.New, d.MoreNew))
	add(d.tr("Gone", "已下架"), d.listings(d.Gone, d.MoreGone))
	add(d.tr("Stock changes", "库存变化"), d.stock())
	var removed []string
	for _, r := range d.Removed {
		removed = append(removed, d.tr(fmt.Sprintf("• %s was removed from the configuration: its %d offers left the catalogue (not the market).", r.Name, r.Offers),
			fmt.Sprintf("• 数据源 %s 已从配置中移除：其 %d 条报价退出目录（并非平台下架）。", r.Name, r.Offers)))
	}
	add(d.tr("Sources removed", "数据源变更"), removed)
	add(d.tr("Cheapest now (on demand, per card-hour)", "当前最低价（按需，每卡每小时）"), d.cheapest())

	if src := d.sources(); src != "" {
		text = append(text, src)
		blocks = append(blocks, contextBlock(escape(src)))
	}
	note := d.tr("Prices are per card-hour in each platform's own currency, as observed by the catalogue: confirm on the platform before you commit.",
		"价格为每卡每小时、按平台原币种，来自目录采集：下单前请到平台确认。")
	if d.Chart != nil {
		span := fmt.Sprintf("近 %d 天", d.Days)
		if !d.Chart.Since.IsZero() {
			span = "自 " + d.date(d.Chart.Since) + " 以来"
		}
		note += d.tr(" Trend chart: "+d.Chart.Title+".", fmt.Sprintf(" 趋势图：%s %s最低按需价（%s）。", strings.Join(d.names(d.Chart.GPUs), "、"), span, d.Chart.Currency))
	}
	text = append(text, "_"+note+"_")
	blocks = append(blocks, contextBlock(escape(note)))
	// The fallback is escaped like the blocks: a project, platform or
	// offer name from a bill or a source pings nobody.
	return escape(strings.Join(text, "\n\n")), present.Limit(blocks, 0)
}

func (d *Digest) quietLine() string {
	cards := ""
	if len(d.GPUs) > 0 {
		cards = strings.Join(d.names(d.GPUs), d.tr(", ", "、"))
	}
	var line string
	if present.LangOf(d.Lang) == present.ZH {
		line = "GPU 价格"
		if cards != "" {
			line += "（" + cards + "）"
		}
		line += fmt.Sprintf("：自 %s 以来没有 %s%% 以上的变化", d.when(d.Since), num(d.ThresholdPct))
		if n := d.stale(); n > 0 {
			line += fmt.Sprintf("；%d 个数据源未按时更新", n)
		}
		if n := d.rowProblems(); n > 0 {
			line += fmt.Sprintf("；%d 行数据未通过校验，已沿用上次的报价", n)
		}
		return line + "。"
	}
	line = fmt.Sprintf("GPU prices: no changes of %s%% or more since %s", num(d.ThresholdPct), d.when(d.Since))
	if cards != "" {
		line += " for " + cards
	}
	switch n := d.stale(); {
	case n == 1:
		line += "; 1 source is stale"
	case n > 1:
		line += fmt.Sprintf("; %d sources are stale", n)
	}
	if n := d.rowProblems(); n > 0 {
		line += fmt.Sprintf("; %d rows failed checks, last good prices kept", n)
	}
	return line + "."
}

func (d *Digest) subtitle() string {
	var parts []string
	if d.First {
		parts = append(parts, d.tr("first post", "首次推送"))
	} else {
		parts = append(parts, d.tr("since "+d.when(d.Since), "对比 "+d.when(d.Since)))
	}
	parts = append(parts, d.tr(fmt.Sprintf("moves of %s%% or more", num(d.ThresholdPct)), fmt.Sprintf("变动阈值 %s%%", num(d.ThresholdPct))))
	if len(d.GPUs) > 0 {
		parts = append(parts, d.tr("cards: ", "显卡：")+strings.Join(d.names(d.GPUs), ", "))
	}
	return strings.Join(parts, " · ")
}

func (d *Digest) moves(ms []Move, more int) []string {
	var out []string
	for _, m := range ms {
		what := d.offer(m.GPU, m.Platform, m.Model, m.Region)
		unit := d.unit(m.Hourly, m.Unit)
		measure := d.measure(m.Measure)
		if !m.OldAt.IsZero() {
			measure += d.tr(", last seen "+d.date(m.OldAt), "，上次见于 "+d.date(m.OldAt))
		}
		out = append(out, fmt.Sprintf("• %s%s%s → %s%s%s (%s)", what, d.tr(": ", "："), money(m.Old, m.Currency), money(m.New, m.Currency), unit, measure, pct(m.Pct)))
	}
	return d.more(out, more)
}

func (d *Digest) listings(ls []Listing, more int) []string {
	var out []string
	for _, l := range ls {
		p := money(l.Price, l.Currency)
		if l.High > l.Price {
			p += "–" + num(l.High)
		}
		out = append(out, fmt.Sprintf("• %s%s%s%s", d.offer(l.GPU, l.Platform, l.Model, l.Region), d.tr(": ", "："), p, d.unit(l.Hourly, l.Unit)))
	}
	return d.more(out, more)
}

func (d *Digest) more(lines []string, more int) []string {
	if more > 0 {
		lines = append(lines, d.tr(fmt.Sprintf("…and %d more", more), fmt.Sprintf("……另有 %d 条", more)))
	}
	return lines
}

func (d *Digest) lows() []string {
	var out []string
	for _, l := range d.Lows {
		out = append(out, d.tr(
			fmt.Sprintf("• %s: %s/card-h at %s (lowest before: %s on %s)", d.name(l.GPU), money(l.Price, l.Currency), d.platform(l.Platform), money(l.PrevLow, l.Currency), d.date(l.PrevLowAt)),
			fmt.Sprintf("• %s：%s/卡时，%s（此前最低 %s，%s）", d.name(l.GPU), money(l.Price, l.Currency), d.platform(l.Platform), money(l.PrevLow, l.Currency), d.date(l.PrevLowAt))))
	}
	return out
}

func (d *Digest) stock() []string {
	var out []string
	for _, a := range d.Availability {
		out = append(out, fmt.Sprintf("• %s · %s%s%s → %s", d.name(a.GPU), d.platform(a.Platform), d.tr(": ", "："), d.avail(a.Old), d.avail(a.New)))
	}
	return out
}

func (d *Digest) cheapest() []string {
	var out []string
	for _, c := range d.Cheapest {
		var ps []string
		for _, p := range c.Prices {
			when := knowledge.FreshnessText(knowledge.Freshness(p.Freshness), p.ObservedAt, d.Lang) // "dated: 2026-03-22"
			if p.Freshness != string(knowledge.Dated) {
				when = d.tr(p.ObservedAt+", "+when, p.ObservedAt+"，"+when) // "2026-10-08, recent"
			}
			ps = append(ps, fmt.Sprintf("%s %s (%s)", money(p.Price, p.Currency), d.platform(p.Platform), when))
		}
		out = append(out, fmt.Sprintf("• %s%s%s", d.name(c.GPU), d.tr(": ", "："), strings.Join(ps, " · ")))
	}
	return out
}

// rowProblems counts rows that failed checks across sources: a source
// problem the post reports, never a removal.
func (d *Digest) rowProblems() int {
	n := 0
	for _, s := range d.Sources {
		n += s.RowProblems
	}
	return n
}

func (d *Digest) stale() int {
	n := 0
	for _, s := range d.Sources {
		if !s.StaleSince.IsZero() {
			n++
		}
	}
	return n
}

// sources is the freshness line: each source's age, stale ones called out.
func (d *Digest) sources() string {
	if len(d.Sources) == 0 {
		return ""
	}
	var parts []string
	for _, s := range d.Sources {
		switch {
		case !s.StaleSince.IsZero():
			parts = append(parts, d.tr(fmt.Sprintf("%s stale since %s (last good %s)", s.Name, d.when(s.StaleSince), d.age(s.AgeHours)),
				fmt.Sprintf("%s 自 %s 起未更新（上次成功 %s）", s.Name, d.when(s.StaleSince), d.age(s.AgeHours))))
		case s.LastSuccess.IsZero():
			parts = append(parts, d.tr(s.Name+" never fetched", s.Name+" 从未成功获取"))
		default:
			parts = append(parts, fmt.Sprintf("%s %s", s.Name, d.age(s.AgeHours)))
		}
		if s.Newest != "" && s.DataFreshness != string(knowledge.Live) {
			// A fresh read of old data: say how old the prices are.
			parts[len(parts)-1] += d.tr(", prices ", "，价格") + knowledge.FreshnessText(knowledge.Freshness(s.DataFreshness), s.Newest, d.Lang)
		}
		if s.RowProblems > 0 {
			parts[len(parts)-1] += d.tr(fmt.Sprintf(" — %d rows failed checks, %d offers kept from the read before", s.RowProblems, s.Carried),
				fmt.Sprintf(" — %d 行未通过校验，沿用上次的 %d 条报价", s.RowProblems, s.Carried))
		}
	}
	return d.tr("Sources: ", "数据源：") + strings.Join(parts, " · ")
}

func (d *Digest) age(hours float64) string {
	switch {
	case hours < 1:
		return d.tr("under 1 h ago", "1 小时内")
	case hours < 48:
		return d.tr(fmt.Sprintf("%d h ago", int(hours)), fmt.Sprintf("%d 小时前", int(hours)))
	default:
		return d.tr(fmt.Sprintf("%d days ago", int(hours/24)), fmt.Sprintf("%d 天前", int(hours/24)))
	}
}

func (d *Digest) tr(en, zh string) string { return present.Tr(d.Lang, en, zh) }

func (d *Digest) in(t time.Time) time.Time {
	if d.loc != nil {
		return t.In(d.loc)
	}
	return t
}

// day is the post's date: "Fri 9 Oct 2026", "2026年10月9日".
func (d *Digest) day(t time.Time) string {
	t = d.in(t)
	return d.tr(t.Format("Mon 2 Jan 2006"), fmt.Sprintf("%d年%d月%d日", t.Year(), int(t.Month()), t.Day()))
}

// when is a moment: "Thu 8 Oct 09:30", "10月8日 09:30".
func (d *Digest) when(t time.Time) string {
	t = d.in(t)
	return d.tr(t.Format("Mon 2 Jan 15:04"), fmt.Sprintf("%d月%d日 %s", int(t.Month()), t.Day(), t.Format("15:04")))
}

func (d *Digest) date(t time.Time) string {
	t = d.in(t)
	return d.tr(t.Format("2 Jan"), fmt.Sprintf("%d月%d日", int(t.Month()), t.Day()))
}

// name is a card's display name, the one answers use.
func (d *Digest) name(gpu string) string { return d.kb.GPUName(gpu) }

func (d *Digest) names(gpus []string) []string {
	out := make([]string, len(gpus))
	for i, g := range gpus {
		out[i] = d.name(g)
	}
	return out
}

// platform is a platform's or market provider's display name in the
// post's language, the one answers use ("Prime Intellect", not
// "primeintellect").
func (d *Digest) platform(id string) string { return d.tr(d.kb.PlatformNames(id)) }

// offer names an offer: "H100 SXM · RunPod (on demand, us-east)".
func (d *Digest) offer(gpu, platform, model, region string) string {
	s := d.name(gpu) + " · " + d.platform(platform)
	var q []string
	if m := d.model(model); m != "" {
		q = append(q, m)
	}
	if region != "" {
		q = append(q, region)
	}
	if len(q) > 0 {
		s += d.tr(" (", "（") + strings.Join(q, d.tr(", ", "，")) + d.tr(")", "）")
	}
	return s
}

func (d *Digest) model(m string) string {
	names := map[string][2]string{
		string(knowledge.OnDemand): {"on demand", "按需"}, string(knowledge.Spot): {"spot", "竞价"}, string(knowledge.Bid): {"bid", "竞价出价"},
		string(knowledge.Reserved): {"reserved", "预留"}, string(knowledge.Package): {"prepaid plan", "包月/预付"},
		string(knowledge.Member): {"member price", "会员价"}, string(knowledge.Serverless): {"serverless", "无服务器"},
	}
	if n, ok := names[m]; ok {
		return d.tr(n[0], n[1])
	}
	return m
}

func (d *Digest) measure(m string) string {
	switch m {
	case "min":
		return d.tr(", cheapest listing", "，最低挂单")
	case "median":
		return d.tr(", median listing", "，挂单中位数")
	case "low":
		return d.tr(", low end", "，区间低端")
	case "high":
		return d.tr(", high end", "，区间高端")
	}
	return ""
}

func (d *Digest) unit(hourly bool, unit string) string {
	if hourly {
		return d.tr("/card-h", "/卡时")
	}
	if unit == string(knowledge.PerMillionToken) {
		return d.tr("/M tokens", "/百万 token")
	}
	return "/" + unit
}

func (d *Digest) avail(a string) string {
	names := map[string][2]string{"available": {"available", "有货"}, "low": {"low stock", "库存紧张"}, "none": {"sold out", "无货"}}
	if n, ok := names[a]; ok {
		return d.tr(n[0], n[1])
	}
	return a
}

// money, num and pct are the one formatter every answer uses (bot/present),
// so a price reads the same in the daily post as in "/gpu price".
func money(v float64, c knowledge.Currency) string { return present.Money(v, string(c)) }

func num(v float64) string { return present.Num(v) }

func pct(p float64) string { return present.SignedPct(p) }

// The shared Block Kit helpers, under this package's short names.
var (
	escape       = present.EscapeControl
	section      = present.Section
	contextBlock = present.Context
)
