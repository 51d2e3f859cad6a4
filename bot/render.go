package bot

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// The shared pieces of every intent's renderer (<intent>_render.go): they
// turn an advisor result into a present.Doc, the answer shape.

// tr picks the English or Chinese string.
func tr(lang, en, zh string) string { return present.Tr(lang, en, zh) }

// fmtNum and moneyStr are the presentation package's formatters, under the
// names the handlers use.
func fmtNum(f float64) string { return present.Num(f) }

func moneyStr(v float64, cur string) string { return present.Money(v, cur) }

// show puts a rendered document into the answer: headline, short text,
// blocks and the full working.
func (a *Answer) show(d present.Doc) {
	d.Lang = present.LangOf(a.Lang)
	a.Doc = d
	a.Headline = d.Headline
	a.Text = d.Text()
	a.Blocks = d.Blocks(present.Short)
	a.Working = d.Working
	if a.Working == nil {
		a.Working = []present.Step{}
	}
	a.Figures = d.Figures
	if len(a.Figures) > present.MaxFigures {
		a.Figures = a.Figures[:present.MaxFigures]
	}
}

// say answers with a plain sentence or two (errors, help, confirmations):
// the first line is the headline.
func (a *Answer) say(text string) {
	head, rest, _ := strings.Cut(strings.TrimSpace(text), "\n")
	d := present.Doc{Headline: head}
	if rest != "" {
		d.Body = []string{rest}
	}
	a.show(d)
}

// bullet list for plain text.
func bullets(items []string) string {
	var b strings.Builder
	for _, it := range items {
		fmt.Fprintf(&b, "• %s\n", it)
	}
	return b.String()
}

var methodNames = map[string][2]string{
	"inference": {"inference", "推理"},
	"full":      {"full fine-tune", "全参微调"},
	"freeze":    {"freeze fine-tune", "冻结微调"},
	"lora":      {"LoRA fine-tune", "LoRA 微调"},
	"qlora":     {"QLoRA fine-tune", "QLoRA 微调"},
}

func methodName(lang, m string) string {
	n, ok := methodNames[m]
	if !ok {
		return m
	}
	return tr(lang, n[0], n[1])
}

// gpuName is the name people know a card by (display names live in the
// shipped knowledge, one lookup for every answer and post).
func gpuName(id string) string { return knowledge.MustShipped().GPUName(id) }

// platformName is a platform's or market provider's display name in the
// answer's language: knowledge.Base.PlatformNames, which the daily post
// and watch alerts read too.
func platformName(lang, id string) string {
	en, zh := knowledge.MustShipped().PlatformNames(id)
	return tr(lang, en, zh)
}

// pasteKeys are contract names whose key= spelling the parser does not
// read; the value alone says it ("lora", not "method=lora").
var pasteKeys = map[string]string{"method": "", "hourly": "price", "monthly_price": "monthly", "purchase": "price"}

// unpasted are defaults the parser takes no setting for; they stay in the
// working and in ask --json's assumed, not the pasteable line.
var unpasted = map[string]bool{"limit": true}

// assumedPairs writes the defaulted values as settings that can be pasted
// back into a question, in a stable order.
func assumedPairs(as map[string]any) []string {
	keys := make([]string, 0, len(as))
	for k := range as {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		if unpasted[k] {
			continue
		}
		v := pasteValue(as[k])
		key, renamed := pasteKeys[k]
		switch {
		case renamed && key == "":
			out = append(out, v)
		case renamed:
			out = append(out, key+"="+v)
		default:
			out = append(out, k+"="+v)
		}
	}
	return out
}

// pasteValue writes one defaulted value the way the parser reads it back:
// money as 2.5usd / 1.8cny, fractions and numbers without noise.
func pasteValue(v any) string {
	switch x := v.(type) {
	case map[string]any:
		if amt, ok := x["amount"].(float64); ok {
			cur, _ := x["currency"].(string)
			return strings.ReplaceAll(fmtNum(amt), ",", "") + strings.ToLower(cur)
		}
	case advisor.Money:
		return strings.ReplaceAll(fmtNum(x.Amount), ",", "") + strings.ToLower(string(x.Currency))
	case float64:
		return strings.ReplaceAll(fmtNum(x), ",", "")
	case int:
		return fmt.Sprint(x)
	}
	return fmt.Sprint(v)
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

// working collects an answer's derivation in the order people check it.
type working []present.Step

// result adds what every engine result carries: its formula lines, its
// assumptions and its price sources.
func (w *working) result(lang string, ls []advisor.Line, as []advisor.Text, srcs []advisor.PriceSource) {
	w.lines(lang, ls)
	w.assumptions(lang, as)
	w.sources(lang, srcs)
}

func (w *working) lines(lang string, ls []advisor.Line) {
	for _, l := range ls {
		shown := lineValue(l)
		if l.Unit == "months" && l.Value == 0 {
			// A payback the advisor could not compute (no monthly saving)
			// is never, not "0 months".
			shown = tr(lang, "never pays back", "永远回不了本")
		}
		*w = append(*w, present.Step{Kind: present.StepCalc, Label: l.Label.In(lang), Formula: l.How, Value: l.Value, Unit: l.Unit, Shown: shown})
	}
}

func (w *working) assumptions(lang string, ts []advisor.Text) {
	seen := map[string]bool{}
	for _, t := range ts {
		s := t.In(lang)
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		*w = append(*w, present.Step{Kind: present.StepAssumption, Label: s})
	}
}

func (w *working) strings(kind string, ss ...string) {
	if len(ss) > 8 {
		w.many(kind, ss)
		return
	}
	for _, s := range ss {
		if strings.TrimSpace(s) != "" && !w.has(kind, s) {
			*w = append(*w, present.Step{Kind: kind, Label: s})
		}
	}
}

// many is strings for a long list (every offer of a card, with its
// source): one set of what is there instead of a scan per entry, which
// made a 186-offer price answer quadratic.
func (w *working) many(kind string, ss []string) {
	seen := make(map[string]bool, len(ss))
	for _, s := range *w {
		if s.Kind == kind {
			seen[s.Label] = true
		}
	}
	*w = slices.Grow(*w, len(ss))
	for _, s := range ss {
		if strings.TrimSpace(s) != "" && !seen[s] {
			seen[s] = true
			*w = append(*w, present.Step{Kind: kind, Label: s})
		}
	}
}

func (w working) has(kind, label string) bool {
	for _, s := range w {
		if s.Kind == kind && s.Label == label {
			return true
		}
	}
	return false
}

func (w *working) sources(lang string, srcs []advisor.PriceSource) {
	for _, s := range srcs {
		w.strings(present.StepSource, sourceText(lang, s))
	}
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
