package parse

import (
	"maps"
	"slices"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// FuzzSlashGrammar reads "/gpu <sub-command> <anything>": the sub-command
// always decides the intent, whatever follows it, and the usual invariants
// hold (checkRequest). word is the sub-command; one the grammar does not
// know picks one of its words by length, so the seeds (which name their
// word) stay put when the lexicon gains a word.
// Seeds: testdata/fuzz/FuzzSlashGrammar.
func FuzzSlashGrammar(f *testing.F) {
	p := New(knowledge.MustShipped())
	subs := slices.Sorted(maps.Keys(p.subcommands))
	for _, args := range []string{"13b lora", "70b qlora ctx=32k bits=4 batch=8", "4090 200h price=1.8 monthly=900",
		"h100 util=70% years=3 pue=1.3 power=0.8", "add 40h 4090 @autodl ¥75 project=llm-ft", "on", "h100,4090 threshold=5%"} {
		f.Add("fit", args)
	}
	f.Fuzz(func(t *testing.T, word, args string) {
		if _, ok := p.subcommands[word]; !ok {
			word = subs[len(word)%len(subs)]
		}
		text := word + " " + args
		r := p.ParseSlash(text)
		checkRequest(t, text, r)
		if !r.Slash || r.Confidence != 1 {
			t.Fatalf("ParseSlash(%q): slash %v confidence %v, want a slash command read with certainty", text, r.Slash, r.Confidence)
		}
		if want := p.subcommands[word]; r.Intent != want {
			t.Fatalf("ParseSlash(%q) intent %s, want %s from the sub-command %q", text, r.Intent, want, word)
		}
		for _, pr := range r.Problems {
			if pr.Reason == "" || pr.Hint == "" {
				t.Fatalf("ParseSlash(%q) problem %+v: no reason or no hint", text, pr)
			}
		}
	})
}
