package parse

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gpubot/gpubot/knowledge"
)

// vocab holds the parser's word lists, read once from the lexicon
// (knowledge/data/lexicon.yaml): no vocabulary is written in Go. Names,
// settings and the slash words are read where a Parser is made (New); these
// serve package-level readers too (Lang, arabize).
var vocab = newVocabulary(knowledge.MustLexicon())

type vocabulary struct {
	neutral, slashFiller map[string]bool
	zhParticles          []string
	followUp             []string
	counters, loneOne    []string
	notACardAfter        []string
	methods, topics      []knowledge.Term
	// dates: days back by word, weekdays by Chinese numeral or English
	// name, month numbers by English name
	daysBack   map[string]int
	weekdays   map[string]time.Weekday
	months     map[string]int
	enWeekdays []string // the English weekday words, for reENWeek
	zhWeekdays string   // the Chinese ones, for reWeekday's class
	monthBack  []knowledge.Term
	spendModes []knowledge.Term
	asking     []string
	targets    []knowledge.Term
	yesNo      []string
	// spellings fix misspelt words (lexicon "spellings"); reSpelling
	// finds them as whole words
	spellings  map[string]string
	reSpelling *regexp.Regexp
}

// respell corrects the lexicon's misspellings in lower-cased t
// ("64 concurent users" reads as "64 concurrent users").
func respell(t string) string {
	if vocab.reSpelling == nil {
		return t
	}
	return vocab.reSpelling.ReplaceAllStringFunc(t, func(w string) string { return vocab.spellings[w] })
}

func newVocabulary(lex *knowledge.Lexicon) vocabulary {
	v := vocabulary{
		neutral:       wordSet(lex.Language.Neutral),
		slashFiller:   wordSet(lex.SlashFiller),
		zhParticles:   lex.Language.ZHParticles,
		followUp:      lex.FollowUp,
		counters:      lex.Numerals.Counters,
		loneOne:       lex.Numerals.LoneOne,
		notACardAfter: lex.NotACardAfter,
		methods:       lex.Methods,
		topics:        lex.Topics,
		daysBack:      map[string]int{},
		weekdays:      map[string]time.Weekday{},
		months:        map[string]int{},
		monthBack:     lex.Dates.MonthBack,
		spendModes:    lex.SpendModes,
		asking:        lex.Asking,
		targets:       lex.Targets, // arabized in init: arabize reads vocab
		yesNo:         lex.YesNo,
		spellings:     map[string]string{},
	}
	for _, m := range []map[string]string{lex.Spellings, lex.Instances} {
		for w, to := range m {
			v.spellings[w] = to
		}
	}
	if len(v.spellings) > 0 {
		words := make([]string, 0, len(v.spellings))
		for w := range v.spellings {
			words = append(words, regexp.QuoteMeta(w))
		}
		slices.Sort(words)
		v.reSpelling = regexp.MustCompile(`\b(?:` + strings.Join(words, "|") + `)\b`)
	}
	for n, words := range lex.Dates.DaysBack {
		for _, w := range words {
			v.daysBack[w] = n
		}
	}
	for d, words := range lex.Dates.Weekdays {
		for _, w := range words {
			v.weekdays[w] = time.Weekday(d)
			if containsNonASCII(w) {
				v.zhWeekdays += w
			} else {
				v.enWeekdays = append(v.enWeekdays, w)
			}
		}
	}
	for m, words := range lex.Dates.Months {
		for _, w := range words {
			v.months[w] = m + 1
		}
	}
	return v
}

// daysBackWords, monthWords list the lexicon's words of one kind, for the
// patterns built from them.
func (v vocabulary) daysBackWords() []string { return keys(v.daysBack) }
func (v vocabulary) monthWords() []string    { return keys(v.months) }

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// wordClass is a regexp character class of single characters.
func wordClass(chars string) string { return "[" + regexp.QuoteMeta(chars) + "]" }

func wordSet(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[strings.ToLower(w)] = true
	}
	return m
}

func init() { vocab.targets = arabizedTerms(vocab.targets) }

// arabizedTerms adds to each term the words as the parser reads text —
// Chinese numerals written in digits ("每百万token" is read "每100万token") —
// so a word with a numeral in it still matches.
func arabizedTerms(terms []knowledge.Term) []knowledge.Term {
	out := make([]knowledge.Term, len(terms))
	for i, t := range terms {
		t.Words = slices.Clone(t.Words)
		for _, w := range terms[i].Words {
			if a := arabize(w); a != w && !slices.Contains(t.Words, a) {
				t.Words = append(t.Words, a)
			}
		}
		out[i] = t
	}
	return out
}
