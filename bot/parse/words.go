package parse

import (
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// compact drops spaces, so Chinese cues match across the gaps people type
// ("包月 多少钱").
func compact(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' {
			return -1
		}
		return r
	}, s)
}

// hasWord reports whether s contains w with no ASCII letter either side of
// its ASCII ends ("rent" is not in "current"). A trailing * in w allows a
// longer word ("rent*" matches "renting").
func hasWord(s, w string) bool {
	prefix := strings.HasSuffix(w, "*")
	w = strings.TrimSuffix(w, "*")
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		j := i + len(w)
		okL := i == 0 || !isLetter(s[i-1]) || !isLetter(w[0])
		okR := prefix || j == len(s) || !isLetter(s[j]) || !isLetter(w[len(w)-1])
		if okL && okR {
			return true
		}
		from = i + 1
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// method finds the training or serving method (the lexicon's methods);
// weak is true when it rests only on "deploy"/"部署" or a bare "full",
// which count only next to a model size.
func method(s, c string) (m string, weak bool) {
	t, _ := firstTerm(vocab.methods, s, c)
	return t.Value, t.Weak
}

// termOf returns the value of the first term the text carries.
func termOf(terms []knowledge.Term, s, c string) string {
	t, _ := firstTerm(terms, s, c)
	return t.Value
}

// firstTerm returns the first term whose words the text carries (and one
// of its With words, and none of its Unless words): Chinese words anywhere
// in the compacted text c, English ones as whole words of s.
func firstTerm(terms []knowledge.Term, s, c string) (knowledge.Term, bool) {
	for _, t := range terms {
		if termIn(t, s, c) {
			return t, true
		}
	}
	return knowledge.Term{}, false
}

func termIn(t knowledge.Term, s, c string) bool {
	return anyTermWord(t.Words, s, c) && (len(t.With) == 0 || anyTermWord(t.With, s, c)) && !anyTermWord(t.Unless, s, c)
}

func anyTermWord(words []string, s, c string) bool {
	for _, w := range words {
		if containsNonASCII(w) && strings.Contains(c, w) || !containsNonASCII(w) && hasWord(s, w) {
			return true
		}
	}
	return false
}

func containsNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// topic picks the guide topic of a knowledge question (the lexicon's
// topics), most specific first.
func topic(s, c string) string { return termOf(vocab.topics, s, c) }

// workload is the seed workload a sentence is about: its words, else the
// method (serving is inference, LoRA is a fine-tune).
func workload(terms []knowledge.Term, s, c, method string) string {
	if w := termOf(terms, s, c); w != "" {
		return w
	}
	switch method {
	case "inference":
		return "inference"
	case "lora", "qlora":
		return "llm-finetune"
	}
	return ""
}
