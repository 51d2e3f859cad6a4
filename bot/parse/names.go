package parse

import (
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gpubot/gpubot/knowledge"
)

// Markers left in the text where a card was named, so count patterns can
// see it ("8x §", "2张¶"): § for names that start with a letter (h100), ¶ for
// names that start with a digit (4090), whose count needs a clear counter.
const (
	markAlpha = "§"
	markDigit = "¶"
)

// trieNode is one byte of a name. sep marks a point where the user may put
// a space, dash, dot or underscore ("rtx 4090", "a100-80g", "vast.ai").
type trieNode struct {
	next  map[byte]*trieNode
	sep   bool
	id    string // canonical id when a name ends here
	alias string
}

// nameMatcher finds card or platform names in text.
type nameMatcher struct {
	root    *trieNode
	plural  bool               // "4090s", "h100s"
	numeric bool               // guard digit-led names against money ("3090 元")
	memory  map[string]float64 // card memory, to take "4090 24GB" as one name
	// friends are words after a name that show it is not the name ("the
	// vast majority"), from the lexicon
	friends map[string][]string
}

func newGPUMatcher(kb *knowledge.Base, extra map[string]string) nameMatcher {
	m := nameMatcher{root: &trieNode{}, plural: true, numeric: true, memory: map[string]float64{}}
	for _, g := range kb.GPUs {
		m.memory[g.ID] = g.VRAMGB
		for _, n := range append([]string{g.ID, g.Name}, g.Aliases...) {
			m.add(n, g.ID)
		}
	}
	for typo, known := range extra {
		if g, ok := kb.GPU(known); ok {
			m.add(typo, g.ID)
		}
	}
	return m
}

func newPlatformMatcher(kb *knowledge.Base, friends map[string][]string) nameMatcher {
	m := nameMatcher{root: &trieNode{}, friends: friends}
	for _, p := range kb.Platforms {
		for _, n := range append([]string{p.ID, p.Name, p.NameZH}, p.Aliases...) {
			if n != "" {
				m.add(n, p.ID)
			}
		}
	}
	for id, names := range knowledge.ProviderAliases() { // "CoreWeave", "OCI", "Nebius"
		for _, n := range names {
			m.add(n, id)
		}
	}
	return m
}

// add inserts one spelling. It is split into segments at the separators it
// contains and where letters meet digits (after two or more letters, so
// "rtx4090" accepts "rtx 4090" but "a100" does not accept "a 100").
func (m nameMatcher) add(name, id string) {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" {
		return
	}
	n := m.root
	prevClass, run := 0, 0 // 1 letter, 2 digit, 3 other
	pendingSep := false
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		if r == ' ' || r == '-' || r == '_' || r == '.' || r == ':' {
			pendingSep = true
			i += size
			continue
		}
		class := 3
		switch {
		case r >= '0' && r <= '9':
			class = 2
		case r < utf8.RuneSelf && unicode.IsLetter(r), unicode.Is(unicode.Han, r):
			class = 1
		}
		if n != m.root && (pendingSep || prevClass != class && (prevClass == 1 && run >= 2 || class == 1 && prevClass == 2 && runeLenAhead(name[i:]) >= 2)) {
			n.sep = true
		}
		if prevClass != class {
			run = 0
		}
		run++
		prevClass, pendingSep = class, false
		for j := 0; j < size; j++ {
			c := name[i+j]
			if n.next == nil {
				n.next = map[byte]*trieNode{}
			}
			child := n.next[c]
			if child == nil {
				child = &trieNode{}
				n.next[c] = child
			}
			n = child
		}
		i += size
	}
	if n.id == "" {
		n.id, n.alias = id, name
	}
}

// runeLenAhead counts the letters at the start of s.
func runeLenAhead(s string) int {
	k := 0
	for _, r := range s {
		if !unicode.IsLetter(r) {
			break
		}
		k++
	}
	return k
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isSep(c byte) bool { return c == ' ' || c == '-' || c == '_' || c == '.' || c == ':' }

// nameHit is one name found in text.
type nameHit struct {
	id         string
	start, end int
	digitLed   bool // "4090": a number before it is not clearly a count
}

// find returns the names in s, longest match at each position, without
// overlap, in order.
func (m nameMatcher) find(s string) []nameHit {
	var hits []nameHit
	for i := 0; i < len(s); {
		if i > 0 && isAlnum(s[i-1]) && isAlnum(s[i]) {
			i++
			continue
		}
		id, end := m.longest(s, i)
		if id == "" {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		plural := false
		if m.plural && end < len(s) && s[end] == 's' && (end+1 == len(s) || !isAlnum(s[end+1])) {
			end, plural = end+1, true
		}
		if m.numeric && isDigit(s[i]) && moneyAround(s, i, end) {
			i = end
			continue
		}
		if m.friendVeto(s[i:end], s[end:]) {
			i = end
			continue
		}
		end += m.ownMemory(id, s[end:])
		hits = append(hits, nameHit{id: id, start: i, end: end, digitLed: isDigit(s[i]) && !plural})
		i = end
	}
	return hits
}

// longest walks the trie from s[i] and returns the longest name that ends
// on a word boundary.
func (m nameMatcher) longest(s string, i int) (string, int) {
	bestID, bestEnd := "", 0
	n := m.root
	j := i
	for n != nil {
		if n.id != "" && (j == len(s) || !isAlnum(s[j]) || !isAlnum(s[j-1]) || m.plural && s[j] == 's' && (j+1 == len(s) || !isAlnum(s[j+1]))) {
			bestID, bestEnd = n.id, j
		}
		if j >= len(s) {
			break
		}
		if child := n.next[s[j]]; child != nil {
			n = child
			j++
			continue
		}
		if n.sep && isSep(s[j]) && j+1 < len(s) {
			if child := n.next[s[j+1]]; child != nil {
				n = child
				j += 2
				continue
			}
		}
		break
	}
	return bestID, bestEnd
}

// ownMemory returns the length of a memory size after a card name when it
// is that card's own ("4090 24GB", "H100 80G"), so it is not read as a
// separate VRAM figure.
func (m nameMatcher) ownMemory(id, after string) int {
	if m.memory == nil {
		return 0
	}
	loc := reOwnMemory.FindStringSubmatchIndex(after)
	if loc == nil {
		return 0
	}
	v, ok := Number(after[loc[2]:loc[3]])
	if !ok || math.Abs(v-m.memory[id]) > 1 {
		return 0
	}
	return loc[1]
}

var reOwnMemory = regexp.MustCompile(`^[\s(]?(\d{2,3})\s?(?:gb|gib|g)\b\)?`)

// moneyAround reports whether a digit-led name is really an amount: "3090
// 元", "¥4090", "5090 块钱".
func moneyAround(s string, start, end int) bool {
	after := strings.TrimLeft(s[end:], " ")
	for _, u := range vocab.notACardAfter {
		if strings.HasPrefix(after, u) {
			return true
		}
	}
	if strings.HasPrefix(after, "块") && !reCardAfter.MatchString(after[len("块"):]) {
		return true
	}
	before := strings.TrimRight(s[:start], " ")
	return strings.HasSuffix(before, "¥") || strings.HasSuffix(before, "$") || strings.HasSuffix(before, "=")
}

func (m nameMatcher) friendVeto(name, after string) bool {
	words, ok := m.friends[name]
	if !ok {
		return false
	}
	after = strings.TrimLeft(after, " ")
	for _, w := range words {
		if strings.HasPrefix(after, w) {
			return true
		}
	}
	return false
}

// ids returns the distinct ids of hits in order.
func ids(hits []nameHit) []string {
	var out []string
	for _, h := range hits {
		if !contains(out, h.id) {
			out = append(out, h.id)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
