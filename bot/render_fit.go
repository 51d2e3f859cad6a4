package bot

import (
	"fmt"
	"sort"
	"strings"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/parse"
)

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

// assumedText lists the defaulted values in a stable order.
func assumedText(lang string, as map[string]any) string {
	if len(as) == 0 {
		return ""
	}
	keys := make([]string, 0, len(as))
	for k := range as {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + assumedValue(as[k])
	}
	return tr(lang, "Defaults used (say otherwise to change): ", "未指定、按默认值计算（可自行指定）：") + strings.Join(parts, ", ")
}

// fitGroups splits the options into single-card, multi-card and no-fit, and
// gathers the multi-card caveats once each with the cards they apply to.
func fitGroups(lang string, v FitResult) (one, several, none, notes []string) {
	noteCards := map[string][]string{}
	var noteOrder []string
	for _, o := range v.Options {
		name := o.Name
		if !strings.Contains(name, "GB") {
			name += " " + fmtNum(o.VRAMGB) + "GB"
		}
		switch {
		case o.Fits:
			one = append(one, fmt.Sprintf("%s (%s%s)", name, tr(lang, fmtNum(o.SpareGB)+" GB spare", "余 "+fmtNum(o.SpareGB)+" GB"), cheapestText(lang, o.Cheapest)))
		case o.Count > 1:
			several = append(several, fmt.Sprintf("%s ×%d (%s%s)", o.Name, o.Count, tr(lang, fmtNum(o.PerCardGB)+" GB/card", "每卡 "+fmtNum(o.PerCardGB)+" GB"), cheapestText(lang, o.Cheapest)))
			if o.Note != "" {
				if _, seen := noteCards[o.Note]; !seen {
					noteOrder = append(noteOrder, o.Note)
				}
				noteCards[o.Note] = append(noteCards[o.Note], o.Name)
			}
		default:
			none = append(none, o.Name)
		}
	}
	for _, n := range noteOrder {
		notes = append(notes, n+" ("+strings.Join(noteCards[n], ", ")+")")
	}
	return one, several, none, notes
}

func renderFit(lang string, s parse.Slots, as map[string]any, v FitResult) (string, []slack.Block) {
	w := v.Workload
	title := tr(lang,
		fmt.Sprintf("%sB %s: about %s GB per replica", fmtNum(w.ParamsB), methodName(lang, string(w.Method)), fmtNum(v.MemoryGB)),
		fmt.Sprintf("%sB %s：单副本约需 %s GB 显存", fmtNum(w.ParamsB), methodName(lang, string(w.Method)), fmtNum(v.MemoryGB)))
	var t strings.Builder
	t.WriteString(title + "\n\n")
	t.WriteString(tr(lang, "Breakdown:\n", "显存构成：\n"))
	var pairs [][2]string
	for _, l := range v.Lines {
		if l.Key == "total" {
			continue
		}
		fmt.Fprintf(&t, "• %s: %s GB  (%s)\n", l.Label.In(lang), fmtNum(l.Value), l.How)
		pairs = append(pairs, [2]string{l.Label.In(lang), fmtNum(l.Value) + " GB"})
	}
	one, several, none, notes := fitGroups(lang, v)
	t.WriteString("\n")
	if len(one) > 0 {
		t.WriteString(tr(lang, "Fits on one card: ", "单卡放得下：") + strings.Join(one, "; ") + "\n")
	}
	if len(several) > 0 {
		t.WriteString(tr(lang, "Needs several cards: ", "需要多卡：") + strings.Join(several, "; ") + "\n")
		if len(notes) > 0 {
			t.WriteString(bullets(notes))
		}
	}
	if len(none) > 0 {
		t.WriteString(tr(lang, "Does not fit: ", "放不下：") + strings.Join(none, ", ") + "\n")
	}
	t.WriteString("\n" + tr(lang, "Assumptions:\n", "假设：\n") + bullets(v.Assumptions))
	if at := assumedText(lang, as); at != "" {
		t.WriteString(at + "\n")
	}

	blocks := []slack.Block{header(title)}
	blocks = append(blocks, fields(pairs)...)
	if len(one) > 0 {
		blocks = append(blocks, section(escape(tr(lang, "Fits on one card: ", "单卡放得下：")+strings.Join(one, "; "))))
	}
	if len(several) > 0 {
		blocks = append(blocks, section(escape(tr(lang, "Needs several cards: ", "需要多卡：")+strings.Join(several, "; ")+"\n"+bullets(notes))))
	}
	if len(none) > 0 {
		blocks = append(blocks, section(escape(tr(lang, "Does not fit: ", "放不下：")+strings.Join(none, ", "))))
	}
	ctx := strings.Join(v.Assumptions, "; ")
	if at := assumedText(lang, as); at != "" {
		ctx += ". " + at
	}
	blocks = append(blocks, contextLine(ctx))
	return strings.TrimRight(t.String(), "\n"), capBlocks(blocks)
}

// assumedValue writes one defaulted value: money as "$25,000", fractions
// and numbers without noise.
func assumedValue(v any) string {
	switch x := v.(type) {
	case map[string]any:
		if amt, ok := x["amount"].(float64); ok {
			cur, _ := x["currency"].(string)
			return moneyStr(amt, cur)
		}
	case float64:
		return fmtNum(x)
	case int:
		return fmt.Sprint(x)
	}
	return fmt.Sprint(v)
}

// cheapestText is ", from ¥1.2/card-h at autodl" for a card with a price.
func cheapestText(lang string, p *PriceRef) string {
	if p == nil {
		return ""
	}
	return tr(lang, ", from ", "，低至 ") + moneyStr(p.Price, p.Currency) + tr(lang, "/card-h at ", "/卡时 @ ") + p.Platform
}
