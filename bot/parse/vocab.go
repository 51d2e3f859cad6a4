package parse

import (
	"strings"

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
}

func newVocabulary(lex *knowledge.Lexicon) vocabulary {
	return vocabulary{
		neutral:       wordSet(lex.Language.Neutral),
		slashFiller:   wordSet(lex.SlashFiller),
		zhParticles:   lex.Language.ZHParticles,
		followUp:      lex.FollowUp,
		counters:      lex.Numerals.Counters,
		loneOne:       lex.Numerals.LoneOne,
		notACardAfter: lex.NotACardAfter,
		methods:       lex.Methods,
		topics:        lex.Topics,
	}
}

func wordSet(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[strings.ToLower(w)] = true
	}
	return m
}
