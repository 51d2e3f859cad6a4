// Package retrieve finds the guide item a knowledge question is about, with
// BM25 over each item's title, keywords and body in both languages.
//
// Text becomes terms the same way for items and questions: Han text as
// overlapping character bigrams (a lone Han character as itself), Latin
// text as lower-case words. The lexicon's synonym groups fold words that
// mean the same ("spot", "可中断", "preemptible") to one term, so a
// question need not use the item's wording. Titles and keywords count
// three times, as they say what the item is about.
package retrieve

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gpubot/gpubot/knowledge"
)

// BM25 parameters (the usual values) and field weights.
const (
	k1           = 1.2
	b            = 0.75
	titleWeight  = 3
	bodyWeight   = 1
	keywordBoost = 3
	// phraseBonus is added for each of an item's keywords the question
	// contains whole: a keyword is a phrase someone asking about the item
	// would use, stronger evidence than its words one by one.
	phraseBonus = 3.0
)

// MinScore is the score below which no item answers a question: the
// question shares too little with any item to be about it.
const MinScore = 6.0

// Hit is one ranked item.
type Hit struct {
	Item  knowledge.GuideItem
	Score float64
}

// Index ranks guide items.
type Index struct {
	items []knowledge.GuideItem
	kw    [][]string           // each item's keywords, lower case, spaces removed
	tf    []map[string]float64 // weighted term frequency per item
	dl    []float64            // weighted length per item
	avgdl float64
	df    map[string]int
	syn   map[string]string // term -> its group's first term
	stop  map[string]bool
}

// New indexes items with the lexicon's synonym groups and stop words.
func New(items []knowledge.GuideItem, lex *knowledge.Lexicon) *Index {
	ix := &Index{items: items, df: map[string]int{}, syn: map[string]string{}, stop: map[string]bool{}}
	for _, w := range lex.Stopwords {
		ix.stop[w] = true
	}
	synonyms := lex.Synonyms
	for _, g := range synonyms {
		if len(g) == 0 {
			continue
		}
		head := strings.Join(ix.rawTerms(g[0]), "_")
		for _, w := range g {
			ix.syn[strings.Join(ix.rawTerms(w), "_")] = head
		}
	}
	total := 0.0
	for _, it := range items {
		tf := map[string]float64{}
		add := func(s string, w float64) {
			for _, t := range ix.terms(s) {
				tf[t] += w
			}
		}
		add(it.TitleEN+" "+it.TitleZH, titleWeight)
		add(strings.Join(it.Keywords, " , "), keywordBoost)
		add(it.BodyEN+" "+it.BodyZH, bodyWeight)
		var kws []string
		for _, k := range it.Keywords {
			// a single English word already counts through its term; a
			// phrase or a Chinese word counts whole as well
			if strings.ContainsAny(k, " -") || hasHan(k) {
				if k = compact(k); len(k) >= 3 {
					kws = append(kws, k)
				}
			}
		}
		ix.kw = append(ix.kw, kws)
		l := 0.0
		for t, v := range tf {
			l += v
			ix.df[t]++
		}
		ix.tf = append(ix.tf, tf)
		ix.dl = append(ix.dl, l)
		total += l
	}
	if len(items) > 0 {
		ix.avgdl = total / float64(len(items))
	}
	return ix
}

// Search returns the items for a question, best first; ties keep the
// guide's order, so the same question always gets the same answer.
func (ix *Index) Search(question string) []Hit {
	cq := compact(question)
	q := map[string]bool{}
	for _, t := range ix.terms(question) {
		q[t] = true
	}
	n := float64(len(ix.items))
	var hits []Hit
	for i, tf := range ix.tf {
		score, matched := 0.0, 0
		for t := range q {
			f := tf[t]
			if f == 0 {
				continue
			}
			matched++
			idf := math.Log(1 + (n-float64(ix.df[t])+0.5)/(float64(ix.df[t])+0.5))
			score += idf * f * (k1 + 1) / (f + k1*(1-b+b*ix.dl[i]/ix.avgdl))
		}
		phrases := 0
		for _, k := range ix.kw[i] {
			if strings.Contains(cq, k) {
				score += phraseBonus
				phrases++
			}
		}
		if matched < 2 && phrases == 0 {
			score /= 2 // one shared word ("night") is a coincidence, not a topic
		}
		if score > 0 {
			hits = append(hits, Hit{Item: ix.items[i], Score: score})
		}
	}
	sort.SliceStable(hits, func(a, c int) bool { return hits[a].Score > hits[c].Score })
	return hits
}

// terms are rawTerms with synonym phrases folded. A synonym may be several
// terms long ("egress", "出口流量", "data transfer out"); the longest match
// at each position wins and stands for its whole group.
func (ix *Index) terms(s string) []string {
	raw := ix.rawTerms(s)
	out := make([]string, 0, len(raw))
	for i := 0; i < len(raw); {
		matched := false
		for n := min(6, len(raw)-i); n >= 1; n-- {
			if head, ok := ix.syn[strings.Join(raw[i:i+n], "_")]; ok {
				out = append(out, "syn:"+head)
				if n == 1 {
					out = append(out, raw[i]) // the word itself counts too
				}
				i += n
				matched = true
				break
			}
		}
		if !matched {
			out = append(out, raw[i])
			i++
		}
	}
	return out
}

// rawTerms splits text into Han bigrams and Latin words.
func (ix *Index) rawTerms(s string) []string {
	s = strings.ToLower(s)
	var out []string
	var han []rune
	flush := func() {
		switch len(han) {
		case 0:
		case 1:
			out = append(out, string(han))
		default:
			for i := 0; i+1 < len(han); i++ {
				out = append(out, string(han[i:i+2]))
			}
		}
		han = han[:0]
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.Is(unicode.Han, r):
			han = append(han, r)
			i += size
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			flush()
			j := i
			for j < len(s) && s[j] < utf8.RuneSelf && (isWordByte(s[j]) || s[j] == '-' && j+1 < len(s) && isWordByte(s[j+1])) {
				j++
			}
			if w := strings.Trim(s[i:j], ".-"); w != "" && !ix.stop[w] {
				out = append(out, stem(w))
			}
			i = j
		default:
			flush()
			i += size
		}
	}
	flush()
	return out
}

func isWordByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' }

// compact lower-cases s and drops spaces, so "vendor lock-in" and "锁 定"
// match however they were typed.
func compact(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// stem folds the plural and a few suffixes of an English word ("gpus",
// "procure"/"procurement", "charged"), so a question need not match an
// item's word form.
func stem(w string) string {
	for _, suf := range []string{"ments", "ment", "ing", "ed", "es", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			w = strings.TrimSuffix(w, suf)
			break
		}
	}
	if len(w) > 5 && strings.HasSuffix(w, "e") {
		w = strings.TrimSuffix(w, "e")
	}
	return w
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}
