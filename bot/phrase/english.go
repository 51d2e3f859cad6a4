package phrase

import (
	"strings"

	"github.com/gpubot/gpubot/bot/parse/amount"
)

// oneNouns are the nouns after which "one" is read as a count; elsewhere
// "one" is a pronoun ("the cheapest one").
var oneNouns = []string{"card", "gpu", "node", "server", "machine", "h100", "h800", "h20", "a100", "rtx"}

// englishNumber reads spelled-out numbers: "two", "seventy-five",
// "two hundred", "seventy percent".
func (s *scanner) englishNumber(i int) (int, bool) {
	total, section, last := 0.0, 0.0, 0.0
	words, j, end := 0, i, i
	lastBig := 0.0
	for {
		k := j
		for isLetter(s.at(k)) {
			k++
		}
		if k == j {
			break
		}
		lw := strings.ToLower(string(s.rs[j:k]))
		// the words are package amount's, the parser's reader
		v, mag, isNum := amount.English(lw)
		if isNum && !mag && (last == 0 || last >= 20 && v < 10 && v > 0) {
			section += v
			last = v
			if last == 0 {
				last = -1
			}
		} else if b := v; isNum && mag && (section > 0 || total > 0) {
			if b == 100 {
				section *= 100
			} else {
				total += section * b
				section = 0
			}
			last, lastBig = 0, b
		} else if lw == "and" && words > 0 {
			// "two hundred and fifty"
		} else {
			break
		}
		words++
		end = k
		if s.at(k) == '-' || s.at(k) == ' ' {
			j = k + 1
			continue
		}
		break
	}
	if words == 0 {
		return i, false
	}
	lw := strings.ToLower(strings.TrimSpace(string(s.rs[i:end])))
	if lw == "one" {
		after := strings.ToLower(string(s.rs[min(end+1, len(s.rs)):min(end+12, len(s.rs))]))
		ok := false
		for _, n := range oneNouns {
			if strings.HasPrefix(after, n) {
				ok = true
			}
		}
		if !ok {
			return end, true
		}
	}
	if strings.HasSuffix(lw, " and") {
		end -= 4
	}
	v := total + section
	q := qty{kind: kNumber, start: i, num: v, scale: 1, def: unitDef{factor: 1}}
	if lastBig >= 1e3 && section == 0 {
		q.num, q.scale, q.hasScale = v/lastBig, lastBig, true
	}
	j = s.suffix(&q, end)
	q.end, q.raw = j, string(s.rs[i:j])
	s.out = append(s.out, q)
	return j, true
}

// multiplierWords are numbers written as words of their own: "twice the
// cost" claims a factor of 2 as surely as "2×" does.
var multiplierWords = map[string]float64{
	"twice": 2, "double": 2, "doubled": 2, "doubles": 2, "triple": 3, "tripled": 3, "thrice": 3,
	"quadruple": 4, "half": 0.5, "halved": 0.5, "halves": 0.5,
}

// multiplier reads a multiplier word between i and j (not "double-check"
// or "half-precision", where it is part of another word).
func (s *scanner) multiplier(i, j int, lw string) (int, bool) {
	v, ok := multiplierWords[lw]
	if !ok || s.at(j) == '-' {
		return i, false
	}
	q := qty{kind: kNumber, start: i, end: j, raw: string(s.rs[i:j]), num: v, scale: 1, def: unitDef{factor: 1}}
	if v < 1 {
		q.dec = 1
	}
	s.out = append(s.out, q)
	return j, true
}

// cnMultipliers are the Chinese ones: 翻倍 (doubles), 一半 and 减半 (half).
var cnMultipliers = []struct {
	word string
	v    float64
}{{"翻一番", 2}, {"翻倍", 2}, {"翻番", 2}, {"一半", 0.5}, {"减半", 0.5}, {"对半", 0.5}, {"折半", 0.5}}

// cnMultiplier reads one at i and returns its end, or i.
func (s *scanner) cnMultiplier(i int) int {
	for _, m := range cnMultipliers {
		if s.hasPrefix(i, m.word) {
			j := i + len([]rune(m.word))
			q := qty{kind: kNumber, start: i, end: j, raw: m.word, num: m.v, scale: 1, def: unitDef{factor: 1}}
			if m.v < 1 {
				q.dec = 1
			}
			s.out = append(s.out, q)
			return j
		}
	}
	return i
}
