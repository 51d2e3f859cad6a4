package parse

import (
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/knowledge"
)

// Parser reads messages. It is safe for concurrent use.
type Parser struct {
	x  extractor
	rt *router
	// From the lexicon's intents section (the intent table's word
	// columns): the first word of a command and the intent it runs, and
	// each intent's sub-words (word → the value it sets).
	subcommands map[string]Intent
	sub         map[Intent]map[string]string
	// the rest of each intent's slash grammar, from the same section:
	// sub-words that set the topic (not the mode), modes set by the
	// command word, and the mode when nothing sets one
	topicSub    map[Intent]bool
	wordMode    map[string]string
	defaultMode map[Intent]string
	// own are the words of the intents whose handlers (bot/profile,
	// bot/budget) read their own arguments; one with sub-words is the
	// command only before one of them or nothing.
	own map[string]Intent
	// examples are the table's examples, shown when a command cannot be
	// read (none without a table).
	examples map[Intent]string
	// writes are the table's intents whose requests change something
	// (Row.Writes). A follow-up never merges into one: "and on runpod?"
	// after a spend add would book the entry again with the platform
	// changed. A parser without a table knows none: bot.Bot always gives
	// its parser the table.
	writes map[Intent]bool
}

// invert turns the lexicon's value → words lists into word → value.
func invert(m map[string][]string) map[string]string {
	out := map[string]string{}
	for v, words := range m {
		for _, w := range words {
			out[strings.ToLower(w)] = v
		}
	}
	return out
}

// New builds a parser that knows the cards, platforms and reference
// architectures in kb, and every intent's words in the lexicon. rows is
// the intent table; the parser takes its examples from it.
func New(kb *knowledge.Base, rows ...intent.Row) *Parser {
	lex := knowledge.MustLexicon()
	x := newExtractor(kb, lex)
	p := &Parser{x: x, rt: newRouter(&x), subcommands: map[string]Intent{}, sub: map[Intent]map[string]string{},
		topicSub: map[Intent]bool{}, wordMode: map[string]string{}, defaultMode: map[Intent]string{},
		own: map[string]Intent{}, examples: intent.Examples(rows), writes: map[Intent]bool{}}
	for _, r := range rows {
		p.writes[r.ID] = r.Writes
	}
	for id, w := range lex.Intents {
		in := Intent(id)
		p.sub[in] = invert(w.Sub)
		p.topicSub[in] = w.SubSlot == "topic"
		p.defaultMode[in] = w.Default
		maps.Copy(p.wordMode, invert(w.WordModes))
		for _, word := range w.Words {
			if w.OwnArgs {
				p.own[strings.ToLower(word)] = in
			} else {
				p.subcommands[strings.ToLower(word)] = in
			}
		}
	}
	return p
}

// Parse reads one message: a "/gpu …" command, or a sentence. Relative
// dates ("昨天") need ParseAt.
func (p *Parser) Parse(raw string) Request {
	return p.ParseAt(raw, time.Time{})
}

// ParseAt is Parse with the caller's now, in the team's time zone, which
// relative dates ("昨天", "上周三", "11月3日") are read against. The parser
// keeps no clock of its own.
func (p *Parser) ParseAt(raw string, now time.Time) Request {
	req := p.parseAt(raw, now)
	if req.Lang == "zh" {
		for i, pr := range req.Problems {
			if pr.zh != "" {
				req.Problems[i].Reason = pr.zh
			}
			if pr.hintZH != "" {
				req.Problems[i].Hint = pr.hintZH
			}
		}
	}
	return req
}

func (p *Parser) parseAt(raw string, now time.Time) Request {
	text := Clean(raw)
	req := Request{Text: text, Lang: "en"}
	if rest, ok := cutSlash(strings.ToLower(text)); ok {
		req.Slash, req.Confidence = true, 1
		return p.slash(req, rest, now)
	}
	f := p.x.extract(text, false, now)
	req.Lang = f.lang
	req.Intent, req.Confidence, req.Runner, req.RunnerConfidence = p.rt.route(&f)
	req.Slots = f.finish(req.Intent)
	req.Problems = f.probs
	req.MonthSaid = f.month
	return req
}

// ParseSlash reads the text of a /gpu slash command (without "/gpu").
func (p *Parser) ParseSlash(text string) Request {
	return p.Parse("/gpu " + text)
}

// InChannel reports whether a message seen in a channel without a mention
// should be answered: a slash command, or a known intent at or above
// ChannelThreshold.
func (r Request) InChannel() bool {
	return r.Slash || r.Intent != Unknown && r.Confidence >= ChannelThreshold
}

// cutSlash returns what follows "/gpu". A "/gpu" word repeated at the
// start is dropped too: Slack hands the command's text without its name,
// but people often type the name again ("/gpu /gpu subscribe prices"),
// and it must not turn the command into a sentence.
func cutSlash(lower string) (string, bool) {
	const prefix = "/gpu"
	ok := false
	for lower == prefix || strings.HasPrefix(lower, prefix+" ") {
		lower, ok = strings.TrimSpace(lower[len(prefix):]), true
	}
	if !ok {
		return "", false
	}
	return lower, true
}

func (p *Parser) slash(req Request, rest string, now time.Time) Request {
	sub, args := firstWord(rest)
	if sub == "" {
		req.Intent = Help
		return req
	}
	if in, ok := p.own[sub]; ok {
		// "/gpu budget 1万 推荐个卡" stays a sentence
		if w, _ := firstWord(args); len(p.sub[in]) == 0 || w == "" || p.sub[in][w] != "" {
			req.Intent = in
			req.Lang = langOf(rest, true)
			req.Slots.Args = strings.Fields(args)
			return req
		}
	}
	intent, ok := p.subcommands[sub]
	if !ok {
		// "/gpu 13b lora", "/gpu 包月划算吗": read the rest as a sentence
		f := p.x.extract(rest, true, now)
		req.Lang = f.lang
		in, _, _, _ := p.rt.route(&f)
		if in == Unknown {
			req.Intent = Help
			req.Problems = append(req.Problems, Problem{Field: "command", Reason: "unknown sub-command \"" + sub + "\"", Hint: "/gpu help"})
			return req
		}
		req.Intent, req.Slots, req.Problems = in, f.finish(in), f.probs
		req.Slots.Args = strings.Fields(rest)
		return req
	}
	if intent == Watch {
		return p.watch(req, args, now)
	}
	req.Intent = intent
	if intent == Help {
		req.Lang = langOf(rest, true)
		return req
	}
	// The mode: set by the command word ("unsubscribe"), else by a
	// sub-word ("spend add", "listen on"), else the intent's default.
	mode := p.wordMode[sub]
	if w, more := firstWord(args); mode == "" && !p.topicSub[intent] && p.sub[intent][w] != "" {
		mode, args = p.sub[intent][w], more
	}
	if mode == "" {
		mode = p.defaultMode[intent]
	}
	f := p.x.extract(args, true, now)
	f.s.Mode = mode
	req.Lang = f.lang
	if hasHan(sub) || hasHan(rest) {
		req.Lang = "zh" // "/gpu spend 包年包月": a Chinese sub-word is a Chinese asker
	}
	if intent == Spend {
		p.spendArgs(&f, mode, args) // spend's own grammar: a bare id, a bare month
	}
	if w, _ := firstWord(args); p.topicSub[intent] && w != "" && !strings.Contains(w, "=") {
		f.s.Topic = p.sub[intent][w]
	}
	req.Slots = f.finish(intent)
	if p.topicSub[intent] {
		req.Slots.Topic = f.s.Topic
	}
	req.Slots.Args = strings.Fields(args)
	req.Problems = f.probs
	if len(req.Problems) == 0 && len(req.Slots.Missing) > 0 {
		if left := leftovers(f.rest); left != "" && p.examples[intent] != "" && intent != Spend {
			req.Problems = append(req.Problems, Problem{Field: "text", Reason: "could not read \"" + left + "\"", Hint: p.examples[intent]})
		}
	}
	return req
}

// spendArgs reads what only /gpu spend has: a bare id after delete, a bare
// month after list or report.
func (p *Parser) spendArgs(f *features, mode, args string) {
	w, _ := firstWord(args)
	switch mode {
	case "delete", "edit":
		if f.s.ID == "" && w != "" && !strings.Contains(w, "=") {
			f.s.ID = w
			f.kvSet["id"] = true
			// an entry id ("98074bq2") is no model size, nor any other
			// figure read from its letters and digits
			f.probs = slices.DeleteFunc(f.probs, func(pr Problem) bool { return pr.Field == "params_b" })
			f.s.ParamsB, f.s.Model, f.s.Arch = 0, "", ""
		}
	case "list", "report", "export":
		if m, ok := knowledge.Fold(vocab.monthBack, w); ok {
			f.s.Month, f.kvSet["month"] = m, true
		}
	case "":
		s := f.s
		if len(s.GPUs) > 0 || s.Hours > 0 || s.GPUHours > 0 || len(f.money) > 0 {
			f.s.Mode = "add"
		} else {
			f.s.Mode = "report"
		}
	}
}

// leftovers returns the ASCII words of a command that no pass consumed.
func leftovers(rest string) string {
	var out []string
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '.'))
	}) {
		w = strings.Trim(w, "-.")
		if w != "" && !vocab.slashFiller[w] && !vocab.neutral[w] {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

func firstWord(s string) (string, string) {
	s = strings.TrimSpace(s)
	w, rest, _ := strings.Cut(s, " ")
	return w, strings.TrimSpace(rest)
}
