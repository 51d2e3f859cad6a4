package bot

import (
	"slices"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/knowledge"
)

// apiPick is the hosted API a question names.
type apiPick struct {
	// Family is the lexicon apis family ("openai", "claude"); "" when the
	// question names none.
	Family string
	// Model is the family's model named, as its price rows write it
	// before any parenthesis ("gpt-4o-mini", "claude-haiku-4-5"); "" for
	// the family alone ("豆包API").
	Model string
	// Unpriced is what the question named that no price row has ("Claude
	// Opus", "Grok"): the answer says so and weighs what the data has.
	Unpriced string
}

// namedAPI reads the API a question names. A thread's merged text
// ("q1 | q2") is read from its last message back, so "那用豆包API呢"
// after a gpt-4o-mini question weighs Doubao. model is the model asked
// about: "官方API" names its family's API, and a row of that model itself
// is a host of it, not an API named.
func (b *Bot) namedAPI(text, model string) apiPick {
	segs := strings.Split(text, " | ")
	for i := len(segs) - 1; i >= 0; i-- {
		if p := b.apiIn(strings.ToLower(segs[i]), model); p.Family != "" {
			return p
		}
	}
	return apiPick{}
}

// apiIn reads one message (lower case): a first-party model by its own
// name first ("gpt-4o-mini", "gpt 4o mini"), then a family by its words,
// narrowed to a model by a word of the family's model names ("claude
// haiku" → the newest Haiku), then "官方API".
func (b *Bot) apiIn(t, model string) apiPick {
	lex := apiWords()
	if p, ok := b.apiModelIn(t, model); ok {
		return p
	}
	for _, f := range lex.Families {
		for _, w := range f.Words {
			i := strings.Index(t, strings.ToLower(w))
			if i < 0 {
				continue
			}
			rows := b.familyRows(f)
			if len(rows) == 0 {
				return apiPick{Family: f.Family, Unpriced: strings.TrimSpace(t[i : i+len(w)])}
			}
			p := apiPick{Family: f.Family, Model: apiTier(f, rows, t)}
			if v := versionAfter(t, i+len(w)); v > 0 && p.Model != "" && modelVersionOf(p.Model) != v {
				// "claude sonnet 4.5", "claude 3.7 sonnet": the version said
				// picks among the tier's rows; none of it is not the newest
				// of the tier silently priced in its place
				p.Model = apiTierAt(f, rows, t, v)
				if p.Model == "" {
					p.Unpriced = strings.TrimSpace(t[i:versionEnd(t, i+len(w))])
				}
				return p
			}
			if tok := modelToken(t, i); p.Model == "" && len(tok) > len(w) && tok != model && !knownOpenModel(tok) && strings.ContainsAny(tok[len(w):], "0123456789-.") {
				// "gpt-4.5", "gpt-4-turbo", "gpt-3.5": a model of the family
				// written in one token that no row has
				p.Unpriced = tok
				return p
			}
			if p.Model == "" && !hasAny(w, lex.Words) {
				// "claude opus", "claude 3 opus": a word right after the
				// family's that no model of it has
				if end := tierAfter(t, i+len(w)); end > 0 {
					p.Unpriced = strings.TrimSpace(t[i:end])
				}
			}
			return p
		}
	}
	if hasAny(t, lex.Official) {
		if fam := familyPrefix(model); fam != "" {
			return apiPick{Family: fam}
		}
	}
	return apiPick{}
}

// familyRows are a family's first-party price rows (third-party summaries
// and low-confidence rows left out).
func (b *Bot) familyRows(f knowledge.APIFamily) []knowledge.APIPrice {
	var out []knowledge.APIPrice
	for _, p := range b.kb.Procurement.APIs {
		if strings.HasPrefix(p.Provider, f.Provider) && !strings.Contains(p.Provider, "third-party") && p.Confidence != knowledge.Low {
			out = append(out, p)
		}
	}
	return out
}

// apiModelIn finds a family's model named in full in t: the longest
// first-party model name standing as a word (so "gpt-4o-mini" is not
// "gpt-4o"), spaces read as hyphens ("gpt 4o mini"). A row of the model
// asked about is not an API named (it is a host of that model).
func (b *Bot) apiModelIn(t, model string) (apiPick, bool) {
	hy := strings.NewReplacer(" ", "-", "_", "-").Replace(t)
	var best apiPick
	for _, f := range apiWords().Families {
		for _, p := range b.familyRows(f) {
			name := strings.ToLower(baseModelName(p.Model))
			if len(name) < 4 || model != "" && p.ModelID == model || len(name) <= len(best.Model) {
				continue
			}
			if wordIn(t, name) || wordIn(hy, name) {
				best = apiPick{Family: f.Family, Model: name}
			}
		}
	}
	return best, best.Family != ""
}

// apiTier is the newest of a family's models whose name shares a word
// with t ("haiku" → claude-haiku-4-5 over claude-3-5-haiku: dated the
// same, the higher version), "" when none does.
func apiTier(f knowledge.APIFamily, rows []knowledge.APIPrice, t string) string {
	return apiTierAt(f, rows, t, 0)
}

// apiTierAt is apiTier among the models of version v only (ModelVersion's
// order: "claude sonnet 4.5" → 4005), any version when v is 0.
func apiTierAt(f knowledge.APIFamily, rows []knowledge.APIPrice, t string, v float64) string {
	words := map[string]bool{}
	for _, w := range nameWords(t) {
		words[w] = true
	}
	for _, w := range nameWords(f.Family + " " + f.Provider + " " + strings.Join(f.Words, " ")) {
		delete(words, w) // the family's own name narrows nothing
	}
	var best *knowledge.APIPrice
	for i, p := range rows {
		hit := false
		for _, w := range nameWords(baseModelName(p.Model)) {
			hit = hit || words[w]
		}
		if !hit || strings.Contains(p.Provider, "peak") || v > 0 && modelVersionOf(p.Model) != v {
			continue
		}
		if best == nil || p.Sortable() > best.Sortable() ||
			p.Sortable() == best.Sortable() && modelVersionOf(p.Model) > modelVersionOf(best.Model) {
			best = &rows[i]
		}
	}
	if best == nil {
		return ""
	}
	return strings.ToLower(baseModelName(best.Model))
}

// nameWords are the words of three letters or more in a model name or a
// message, lower case, the family's own name left in ("claude",
// "haiku"); the API words are dropped.
func nameWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if len(w) >= 3 && !slices.Contains(apiWords().Words, w) && !isAPIFiller(w) {
			out = append(out, w)
		}
	}
	return out
}

// isAPIFiller is a word next to an API's name that names no model.
func isAPIFiller(w string) bool {
	switch w {
	case "api", "apis", "the", "official", "model", "models", "chat", "instruct", "for", "than", "cheaper", "price", "pricing", "per",
		"now", "and", "with", "would", "will", "cost", "costs", "still", "really", "today", "instead", "better", "worth", "how", "much", "what", "which", "plan", "like", "tokens", "token":
		return true
	}
	return false
}

// tierAfter is the end of a model tier named right after an API's family
// ("claude opus", "claude 3 opus": a word of three letters or more,
// after at most one version number), 0 when none.
func tierAfter(t string, i int) int {
	for n := 0; n < 2; n++ {
		for i < len(t) && (t[i] == ' ' || t[i] == '-' || t[i] == '_') {
			i++
		}
		j := i
		for j < len(t) && (t[j] >= 'a' && t[j] <= 'z' || t[j] >= '0' && t[j] <= '9' || t[j] == '.') {
			j++
		}
		w := t[i:j]
		switch {
		case w == "":
			return 0
		case strings.Trim(w, "0123456789.") == "":
			i = j // a version: the tier may follow
			continue
		case len(w) >= 3 && !isAPIFiller(w) && !slices.Contains(apiWords().Words, w):
			return j
		}
		return 0
	}
	return 0
}

// wordIn reports whether name stands in t as a whole word: no letter,
// digit, '.', '-' or '/' right before or after it.
func wordIn(t, name string) bool {
	for from := 0; ; {
		i := strings.Index(t[from:], name)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(name)
		if (i == 0 || !nameByte(t[i-1])) && (end == len(t) || !nameByte(t[end])) {
			return true
		}
		from = i + 1
	}
}

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '/' || c == '_'
}

// baseModelName is a price row's model before any parenthesis.
func baseModelName(model string) string { return advisor.APIModelName(model) }

// modelVersionOf orders model names by their first two numbers.
func modelVersionOf(name string) float64 { return advisor.ModelVersion(name) }

// apiClassModel is the open model a self-hosted plan is sized with
// against the API picked: its class's (lexicon apis.classes).
func apiClassModel(p apiPick) (knowledge.ModelName, bool) {
	lex := knowledge.MustLexicon()
	c, ok := lex.APIClassOf(p.Model + " " + p.Unpriced)
	if !ok {
		return knowledge.ModelName{}, false
	}
	return lex.Model(c.SelfHost)
}

// apiSubject is the side a yes/no asks about: "api" or "self_host". The
// side said before "than"/"比" ("is the API cheaper than renting",
// "自建比调API便宜吗"), else the one said last before the comparison word
// ("我们自己搞台4090…是不是反而更贵"); self-hosting when neither is said.
func apiSubject(text string) string {
	segs := strings.Split(strings.ToLower(text), " | ")
	t := segs[len(segs)-1]
	lex := apiWords()
	cut := -1
	for _, w := range lex.Than {
		if i := strings.Index(t, w); i >= 0 && (cut < 0 || i < cut) {
			cut = i
		}
	}
	if cut < 0 {
		for _, w := range lex.Compare {
			if i := strings.Index(t, w); i >= 0 && (cut < 0 || i < cut) {
				cut = i
			}
		}
	}
	if cut < 0 {
		return "self_host"
	}
	before := t[:cut]
	apiAt, selfAt := -1, -1
	for _, w := range lex.SelfHost {
		selfAt = max(selfAt, strings.LastIndex(before, w))
	}
	apiNames := []string{"api", "接口"}
	for _, f := range lex.Families {
		apiNames = append(apiNames, f.Words...)
	}
	for _, w := range apiNames {
		apiAt = max(apiAt, strings.LastIndex(before, strings.ToLower(w)))
	}
	if apiAt > selfAt {
		return "api"
	}
	return "self_host"
}

// versionAfter is the version said with a family's name, read from i (just
// past the family word): a number right after it ("claude 3.7 sonnet"),
// or right after the tier word that follows ("claude sonnet 4.5",
// "claude-opus-4"), in ModelVersion's order; 0 when none is said.
func versionAfter(t string, i int) float64 {
	if end := versionEnd(t, i); end > i {
		if v := strings.TrimLeft(t[i:end], " -_"); v != "" {
			return modelVersionOf(lastVersion(v))
		}
	}
	return 0
}

// versionEnd is the end of the tier and version words after i (at most a
// tier word and a number, either order), i when no number is said.
func versionEnd(t string, i int) int {
	at := i
	sawNum := false
	for n := 0; n < 2; n++ {
		j := at
		for j < len(t) && (t[j] == ' ' || t[j] == '-' || t[j] == '_') {
			j++
		}
		k := j
		for k < len(t) && (t[k] >= 'a' && t[k] <= 'z' || t[k] >= '0' && t[k] <= '9' || t[k] == '.') {
			k++
		}
		w := strings.TrimRight(t[j:k], ".")
		k = j + len(w)
		switch {
		case w == "":
			n = 2
		case strings.Trim(w, "0123456789.") == "" && len(w) <= 4 && !numberUnit(t, k):
			at, sawNum = k, true
		case n == 0 && len(w) >= 3 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "" && !isAPIFiller(w) && !slices.Contains(apiWords().Words, w):
			at = k // the tier word ("sonnet")
		default:
			n = 2
		}
	}
	if !sawNum {
		return i
	}
	return at
}

// numberUnit reports whether the number ending at k is a figure with a unit
// ("50m tokens", "4x a100", "20 万"), not a version.
func numberUnit(t string, k int) bool {
	rest := strings.TrimLeft(t[k:], " ")
	for _, u := range []string{"m", "b", "k", "x", "×", "万", "亿", "千", "%", "tok", "张", "卡", "card", "gpu", "美元", "元"} {
		if strings.HasPrefix(rest, u) {
			return true
		}
	}
	return false
}

// lastVersion is the number in "sonnet 4.5" or "3.7".
func lastVersion(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') })
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// modelToken is the model name written in one token from i ("gpt-4.5",
// "gpt-4-turbo"): letters, digits, '.', '-'.
func modelToken(t string, i int) string {
	j := i
	for j < len(t) && nameByte(t[j]) && t[j] != '/' && t[j] != '_' {
		j++
	}
	return strings.TrimRight(t[i:j], ".-")
}

// knownOpenModel reports whether tok is a model the lexicon knows to
// self-host ("glm-4-9b"): not an API named.
func knownOpenModel(tok string) bool {
	_, ok := knowledge.MustLexicon().Model(tok)
	return ok
}
