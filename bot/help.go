package bot

import (
	"maps"
	"slices"
	"strings"

	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// maxHelpText is the most help's visible text may take: one screen in a
// Slack DM. The working (the reference of every setting) is shown on demand.
const maxHelpText = 1200

// help lists the commands. The command lines come from the intent table;
// every word and setting in the working comes from the lexicon the parser
// reads (slash words, sub-words, setting keys with their spellings, ranges
// and hints), so help cannot offer a word the parser does not take.
func (b *Bot) help(a *Answer) {
	a.Ephemeral = true
	lang := a.Lang
	lex := knowledge.MustLexicon()
	var lines []string
	var wk working
	for _, r := range b.rows {
		if r.Example == "" {
			continue
		}
		ex := r.Example
		if lang == "zh" && r.ExampleZH != "" {
			ex = r.ExampleZH
		}
		lines = append(lines, ex+" — "+tr(lang, r.Help, r.HelpZH))
		if line := commandHelp(lang, r); line != "" {
			wk.strings(present.StepNote, line)
		}
	}
	for _, s := range lex.Settings {
		wk.strings(present.StepItem, settingHelp(lang, s))
	}
	wk.strings(present.StepNote, tr(lang,
		"@autodl is platform=autodl. Amounts: 1.8, ¥1.8, 2.5usd, $2.5/h; bare numbers are in the answer's currency (USD in English, CNY in Chinese); currency=cny|usd, fx=7.2",
		"@autodl 即 platform=autodl。金额写法：1.8、¥1.8、2.5usd、$2.5/h；不写币种时按回答语言的币种（中文为人民币，英文为美元）；currency=cny|usd，fx=7.2"))
	d := present.Doc{
		Headline: tr(lang, "gpubot answers GPU procurement questions. Commands:", "gpubot 回答 GPU 选型与采购问题。命令："),
		Body:     []string{strings.TrimRight(bullets(lines), "\n")},
		Next:     tr(lang, "ask in plain words too, e.g. “can one 4090 QLoRA a 14B?”", "也可以直接用中文问，例如“一张 4090 能 qlora 微调 14b 吗”"),
		Working:  wk,
	}
	a.show(d)
	a.Result = map[string]any{"commands": lines}
}

// commandHelp is one intent's line of help's working: the /gpu words that
// run it, its sub-words and the settings it reads, all from its row (whose
// words are the lexicon's).
func commandHelp(lang string, r intent.Row) string {
	if len(r.Words) == 0 {
		return ""
	}
	line := "/gpu " + strings.Join(r.Words, " | ")
	if subs := valueWords(r.Sub); len(subs) > 0 {
		line += " — " + tr(lang, "then ", "后接 ") + strings.Join(subs, " | ")
	}
	var keys []string
	for _, k := range r.Settings {
		keys = append(keys, k+"=")
	}
	if len(keys) > 0 {
		line += " — " + tr(lang, "settings: ", "设置：") + strings.Join(keys, " ")
	}
	return line
}

// valueWords lists a lexicon table's words, grouped by value in a fixed
// order: "add/log/+ | list/ls …".
func valueWords(m map[string][]string) []string {
	var out []string
	for _, v := range slices.Sorted(maps.Keys(m)) {
		out = append(out, strings.Join(m[v], "/"))
	}
	return out
}

// settingHelp is one setting in help's reference: its key and other
// spellings, the accepted range, what it means and an example.
func settingHelp(lang string, s knowledge.Setting) string {
	var b strings.Builder
	b.WriteString(s.Key + "=")
	if len(s.Aliases) > 0 {
		b.WriteString(" (" + strings.Join(s.Aliases, ", ") + ")")
	}
	if s.Min != 0 || s.Max != 0 {
		lo, hi := fmtNum(s.Min), fmtNum(s.Max)
		if s.Kind == knowledge.KindFraction {
			lo, hi = fmtNum(s.Min*100)+"%", fmtNum(s.Max*100)+"%"
		}
		b.WriteString(" " + lo + "–" + hi)
	}
	hint := s.Hint
	if lang == "zh" && s.HintZH != "" {
		hint = s.HintZH
	}
	b.WriteString(": " + tr(lang, s.Help, s.HelpZH) + tr(lang, ", e.g. ", "，例如 ") + hint)
	return b.String()
}
