package parse

import (
	"regexp"
	"sync"
)

// text is the message being read: lower-cased, numerals as digits. Each
// pass blanks what it consumed, so later passes cannot read it twice.
type text struct {
	s      string
	digits bool // the text had a digit when reading began
}

// gate is what a pattern needs to be worth running: a digit, and one of
// some literal words. Most messages carry few of them, so most patterns
// are skipped with a substring test.
type gate struct {
	digit bool
	any   []string
}

// gates holds the gate of each pattern that has one (*regexp.Regexp →
// gate). Package-level patterns register at init, a parser's own
// lexicon-built patterns when it is made — parsers may be made
// concurrently, so the registry is a sync.Map.
var gates sync.Map

// gated registers re's gate and returns re.
func gated(re *regexp.Regexp, digit bool, any ...string) *regexp.Regexp {
	gates.Store(re, gate{digit: digit, any: any})
	return re
}

// may reports whether re can match t, by its gate.
func (t *text) may(re *regexp.Regexp) bool {
	v, ok := gates.Load(re)
	if !ok {
		return true
	}
	g := v.(gate)
	if g.digit && !t.digits {
		return false
	}
	return len(g.any) == 0 || containsAny(t.s, g.any...)
}

// blank replaces s[i:j] with spaces (same length, so offsets stay valid).
func (t *text) blank(i, j int) {
	if i < 0 || j > len(t.s) || i >= j {
		return
	}
	t.apply([][2]int{{i, j}}, nil)
}

// numberStart reports whether a number may start at i: not glued to a
// preceding letter, digit or dot ("h100" holds no "100").
func (t *text) numberStart(i int) bool {
	return i == 0 || !(isAlnum(t.s[i-1]) || t.s[i-1] == '.')
}

// take finds every match of re whose group g starts a number, calls f with
// the groups and the match's offset, and blanks the matches f accepts (all
// at once, so a long message is copied once per pattern, not per match).
// Boundary characters matched by groups named pre and end are not blanked.
func (t *text) take(re *regexp.Regexp, g int, f func(sub []string, at int) bool) {
	if !t.may(re) {
		return
	}
	pre, end := re.SubexpIndex("pre"), re.SubexpIndex("end")
	var spans [][2]int
	for _, loc := range re.FindAllStringSubmatchIndex(t.s, -1) {
		if g > 0 && loc[2*g] >= 0 && !t.numberStart(loc[2*g]) {
			continue
		}
		if f(submatches(t.s, loc), loc[0]) {
			start, stop := loc[0], loc[1]
			if pre > 0 && loc[2*pre+1] >= 0 {
				start = loc[2*pre+1]
			}
			if end > 0 && loc[2*end] >= 0 {
				stop = loc[2*end]
			}
			spans = append(spans, [2]int{start, stop})
		}
	}
	t.apply(spans, nil)
}

// apply blanks each span, writing marks[i] (when given) at the start of
// span i, in one copy of the text.
func (t *text) apply(spans [][2]int, marks []string) {
	if len(spans) == 0 {
		return
	}
	b := []byte(t.s)
	for k, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			b[i] = ' '
		}
		if k < len(marks) && sp[1]-sp[0] >= len(marks[k]) {
			copy(b[sp[0]:], marks[k])
		}
	}
	t.s = string(b)
}

// first is take for the first acceptable match only. It asks the regexp
// for a few matches at a time (FindAll stops after n), so a long paste is
// not scanned past the match it needs, and matches keep FindAll's
// boundaries.
func (t *text) first(re *regexp.Regexp, g int, f func(sub []string, at int) bool) {
	if !t.may(re) {
		return
	}
	pre, end := re.SubexpIndex("pre"), re.SubexpIndex("end")
	seen := 0
	for n := 2; ; n *= 8 {
		locs := re.FindAllStringSubmatchIndex(t.s, n)
		for _, loc := range locs[seen:] {
			if g > 0 && loc[2*g] >= 0 && !t.numberStart(loc[2*g]) {
				continue
			}
			if f(submatches(t.s, loc), loc[0]) {
				start, stop := loc[0], loc[1]
				if pre > 0 && loc[2*pre+1] >= 0 {
					start = loc[2*pre+1]
				}
				if end > 0 && loc[2*end] >= 0 {
					stop = loc[2*end]
				}
				t.apply([][2]int{{start, stop}}, nil)
				return
			}
		}
		if len(locs) < n {
			return
		}
		seen = len(locs)
	}
}

// submatches returns the groups of a FindStringSubmatchIndex result, ""
// for groups that did not take part.
func submatches(s string, loc []int) []string {
	out := make([]string, len(loc)/2)
	for i := range out {
		if loc[2*i] >= 0 {
			out[i] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	return out
}
