package parse

import (
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// nameMatcher finds card and platform names in free text.
type nameMatcher struct {
	aliases []string // normalised, longest first
	resolve func(string) (string, bool)
}

func newGPUMatcher(kb *knowledge.Base) nameMatcher {
	return nameMatcher{aliases: kb.GPUAliases(), resolve: func(a string) (string, bool) {
		g, ok := kb.GPU(a)
		return g.ID, ok
	}}
}

func newPlatformMatcher(kb *knowledge.Base) nameMatcher {
	return nameMatcher{aliases: kb.PlatformAliases(), resolve: func(a string) (string, bool) {
		p, ok := kb.Platform(a)
		return p.ID, ok
	}}
}

func isASCIIAlnum(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// find returns the canonical ids named in words, in order, each once. Words
// are tried joined in threes and twos first ("rtx 4090", "a100 80g"), then
// alone; inside a word an alias must not touch other ASCII letters or digits
// ("4090包月" names the 4090; "a1000" names nothing).
func (m nameMatcher) find(words []string) []string {
	var out []string
	seen := map[string]bool{}
	used := make([]bool, len(words))
	emit := func(id string) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	type hit struct {
		at int
		id string
	}
	var hits []hit
	for span := 3; span >= 2; span-- {
		for i := 0; i+span <= len(words); i++ {
			free := true
			for j := i; j < i+span; j++ {
				free = free && !used[j]
			}
			if !free {
				continue
			}
			joined := knowledge.NormalizeName(strings.Join(words[i:i+span], ""))
			if id, ok := m.resolve(joined); ok && m.isAlias(joined) {
				hits = append(hits, hit{i, id})
				for j := i; j < i+span; j++ {
					used[j] = true
				}
			}
		}
	}
	for i, w := range words {
		if used[i] {
			continue
		}
		for _, id := range m.inWord(knowledge.NormalizeName(w)) {
			hits = append(hits, hit{i, id})
		}
	}
	// Keep the order the user named them in.
	for i := range words {
		for _, h := range hits {
			if h.at == i {
				emit(h.id)
			}
		}
	}
	return out
}

func (m nameMatcher) isAlias(s string) bool {
	for _, a := range m.aliases {
		if a == s {
			return true
		}
	}
	return false
}

// inWord finds aliases inside one word, longest first, without overlap.
func (m nameMatcher) inWord(w string) []string {
	if w == "" {
		return nil
	}
	taken := make([]bool, len(w))
	type pos struct {
		at int
		id string
	}
	var found []pos
	for _, a := range m.aliases {
		if len(a) > len(w) {
			continue
		}
		for start := 0; ; {
			k := strings.Index(w[start:], a)
			if k < 0 {
				break
			}
			k += start
			end := k + len(a)
			start = k + 1
			if k > 0 && isASCIIAlnum(w[k-1]) && isASCIIAlnum(a[0]) {
				continue
			}
			if end < len(w) && isASCIIAlnum(w[end]) && isASCIIAlnum(a[len(a)-1]) {
				continue
			}
			overlap := false
			for j := k; j < end; j++ {
				overlap = overlap || taken[j]
			}
			if overlap {
				continue
			}
			for j := k; j < end; j++ {
				taken[j] = true
			}
			if id, ok := m.resolve(a); ok {
				found = append(found, pos{k, id})
			}
		}
	}
	// order by position
	for i := 1; i < len(found); i++ {
		for j := i; j > 0 && found[j].at < found[j-1].at; j-- {
			found[j], found[j-1] = found[j-1], found[j]
		}
	}
	ids := make([]string, len(found))
	for i, f := range found {
		ids[i] = f.id
	}
	return ids
}
