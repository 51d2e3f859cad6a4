package phrase

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// MaxRoundingError is the largest relative difference the guard accepts
// between a number as the model wrote it and the fact it stands for, when
// the difference is a rounding to the digits written: 41.13 GB may read
// "41.1 GB" or "41 GB" (0.3%), 10.79 may read "11" (1.9%), but 2.72 may not
// read "3" (10%).
const MaxRoundingError = 0.05

// Rejection kinds, the prefixes of Check's reasons and the values of the
// llm_guard_rejections_total reason label.
const (
	ReasonNumber    = "number"    // a number that matches no fact
	ReasonUnit      = "unit"      // a number that matches a fact only in another unit or currency
	ReasonEssential = "essential" // a headline fact the text dropped
	ReasonName      = "name"      // a model, card or link name that is in no fact
	ReasonDate      = "date"      // a date or clock time that is in no fact
	ReasonEmpty     = "empty"     // nothing left after clean-up
)

// ref is a fact in the form the guard compares against.
type ref struct {
	kind  qkind
	dim   string
	per   string
	base  float64 // in the dimension's base unit (GB, CNY, ratio 0–1, hours …)
	own   float64 // as written in the fact's own unit (70 for 70%, 13 for 13B)
	date  date
	name  string
	label string
}

// guard holds the allowed numbers and names of one answer.
type guard struct {
	refs  []ref
	words [][]string // text facts split into normalised words, for names
}

func newGuard(facts []Fact) *guard {
	g := &guard{}
	for _, f := range facts {
		g.add(f)
	}
	return g
}

func (g *guard) add(f Fact) {
	if f.Text == "" {
		g.refs = append(g.refs, numericRef(f))
		return
	}
	for _, q := range extract(f.Text) {
		switch q.kind {
		case kNumber:
			for _, v := range q.vals() {
				g.refs = append(g.refs, ref{kind: kNumber, dim: q.def.dim, per: q.per, base: v.v, own: q.own(), label: f.Name})
			}
		case kDate:
			g.refs = append(g.refs, ref{kind: kDate, date: q.date, label: f.Name})
		case kClock:
			g.refs = append(g.refs, ref{kind: kClock, name: q.name, label: f.Name})
		}
	}
	g.words = append(g.words, strings.Fields(spacedName(f.Text)))
}

func numericRef(f Fact) ref {
	def, scale, per := lookupUnit(f.Unit)
	return ref{kind: kNumber, dim: def.dim, per: per, base: f.Value * scale * def.factor, own: f.Value, label: f.Name}
}

// spacedName lower-cases s and turns every run of non-alphanumerics into one
// space.
func spacedName(s string) string {
	var b strings.Builder
	space := true
	for _, r := range s {
		r = foldWidth(r)
		if r < 128 && isAlnum(r) {
			b.WriteRune(unicode.ToLower(r))
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	return b.String()
}

// knownName reports whether a digit-bearing name appears in a text fact as
// whole words, written with or without separators: "RTX4090" and "rtx-4090"
// match "RTX 4090"; "A10" does not match "A100".
func (g *guard) knownName(name string) bool {
	if name == "" {
		return true
	}
	if g.hasName(name) {
		return true
	}
	// plurals: "H100s", "4090s"
	return len(name) > 2 && strings.HasSuffix(name, "s") && g.hasName(strings.TrimSuffix(name, "s"))
}

func (g *guard) hasName(name string) bool {
	for _, ws := range g.words {
		for i := range ws {
			acc := ""
			for k := i; k < len(ws) && len(acc) < len(name); k++ {
				acc += ws[k]
				if acc == name {
					return true
				}
				if !strings.HasPrefix(name, acc) {
					break
				}
			}
		}
	}
	return false
}

// near reports whether v, written to precision step, stands for the fact f:
// equal, or f rounded to the digits written and within MaxRoundingError.
func near(v, f, step float64) bool {
	d := math.Abs(v - f)
	eps := 1e-9 * math.Max(1, math.Abs(f))
	if d <= eps {
		return true
	}
	if d > step/2+eps {
		return false
	}
	return d <= MaxRoundingError*math.Abs(f)+eps
}

func (g *guard) matchNumber(q *qty, r *ref, anyUnit bool) bool {
	if r.kind != kNumber {
		return false
	}
	if q.per != "" && r.per != "" && q.per != r.per && !anyUnit {
		return false
	}
	for _, v := range q.vals() {
		if q.def.dim != dimNone && !anyUnit {
			if r.dim == q.def.dim && near(v.v, r.base, v.step) {
				return true
			}
			continue
		}
		w, st := v.v, v.step
		if anyUnit { // the number as written, unit dropped
			w, st = q.own(), math.Pow10(-q.dec)*q.scale
			if q.step0 > 0 {
				st = q.step0 * q.scale
			}
		}
		if near(w, r.base, st) || near(w, r.own, st) {
			return true
		}
	}
	return false
}

func matchDate(d date, r *ref) bool {
	return r.kind == kDate && r.date.y+r.date.m+r.date.d > 0 &&
		(d.y == 0 || d.y == r.date.y) && (d.m == 0 || d.m == r.date.m) && (d.d == 0 || d.d == r.date.d)
}

func isYear(q *qty) bool {
	return q.kind == kNumber && q.def.dim == dimNone && q.dec == 0 && q.scale == 1 && q.num >= 1900 && q.num <= 2100
}

// allowed checks one token of the model's text.
func (g *guard) allowed(q *qty) (bool, string) {
	switch q.kind {
	case kName:
		if g.knownName(spacedCompact(q.raw)) {
			return true, ""
		}
		return false, fmt.Sprintf("%s: %q is not in the answer", ReasonName, q.raw)
	case kClock:
		for i := range g.refs {
			if g.refs[i].kind == kClock && g.refs[i].name == q.name {
				return true, ""
			}
		}
		return false, fmt.Sprintf("%s: %q is in no fact", ReasonDate, q.raw)
	case kDate:
		for i := range g.refs {
			r := &g.refs[i]
			if matchDate(q.date, r) {
				return true, ""
			}
			if q.date.m == 0 && q.date.d == 0 && r.kind == kNumber && r.own == float64(q.date.y) {
				return true, ""
			}
		}
		return false, fmt.Sprintf("%s: %q is in no fact", ReasonDate, q.raw)
	}
	for i := range g.refs {
		if g.matchNumber(q, &g.refs[i], false) {
			return true, ""
		}
		if isYear(q) && matchDate(date{y: int(q.num)}, &g.refs[i]) {
			return true, ""
		}
	}
	if q.def.dim != dimNone || q.per != "" {
		for i := range g.refs {
			if g.matchNumber(q, &g.refs[i], true) {
				return false, fmt.Sprintf("%s: %q matches a fact only in another unit or currency (%s)", ReasonUnit, q.raw, g.refs[i].label)
			}
		}
	}
	return false, fmt.Sprintf("%s: %q is in no fact", ReasonNumber, q.raw)
}

// spacedCompact is a name with separators removed, for knownName.
func spacedCompact(s string) string { return strings.ReplaceAll(spacedName(s), " ", "") }

// Check is the number guard. It reports whether text, a model's rephrase,
// keeps to the facts: every number, date, clock time and digit-bearing name
// in text must stand for a fact (numeric facts, or anything written in a text
// fact), and every essential fact must appear. reasons explains each failure,
// each starting with one of the Reason kinds and a colon.
//
// Matching rules:
//   - Units are normalised before comparing: GiB/MB/TB to GB, % and 成 and
//     百分之 to a ratio, 万/亿/k/M/B to plain numbers, 元/¥/RMB to CNY, $/USD/美元
//     to USD, 卡时/GPU-hours/小时 to hours. A number with a unit must match a
//     fact in the same dimension, and currencies never cross (¥1,200 is not
//     $1,200, whatever the exchange rate). A rate's denominator must agree
//     when both sides name one ($2.5/h is not $2.5/month).
//   - A number written without a unit may match any fact of that value.
//   - Rounding: a number matches a fact when it is the fact rounded to the
//     digits written (half a unit of the last digit, so 41.13 may be 41.1 or
//     41 but not 42 or 40) and within MaxRoundingError. "1.2万" is written to
//     the thousand, "七十" to the unit. "32k" may be 32,000 or 32,768.
//   - Signs are ignored: a change of −5% is checked as 5%; the words around
//     a number carry its direction.
//   - List markers ("1." at a line start), ordinals (第3, step 2, 1st),
//     Slack mentions and :emoji: are not numbers. A lone Chinese numeral
//     counts only before a measure word (两张, 三倍, 七成), so 一些 and 统一
//     are text. Dates (2026-09, 2026年9月, Sep 2026) must match a date in the
//     facts; a bare year may also match a numeric fact.
//   - Names with digits (H100, llama-2-13b, RTX4090, a URL) must appear in a
//     text fact as whole words, with or without separators.
func Check(text string, facts []Fact, essential []Fact) (ok bool, reasons []string) {
	if strings.TrimSpace(text) == "" {
		return false, []string{ReasonEmpty + ": no text"}
	}
	g := newGuard(facts)
	for _, e := range essential {
		if e.Text == "" {
			g.refs = append(g.refs, numericRef(e))
		}
	}
	qs := extract(text)
	seen := map[string]bool{}
	for i := range qs {
		if ok, why := g.allowed(&qs[i]); !ok && !seen[why] {
			seen[why] = true
			reasons = append(reasons, why)
		}
	}
	for _, e := range essential {
		if !hasEssential(qs, text, e) {
			reasons = append(reasons, fmt.Sprintf("%s: %s is missing", ReasonEssential, e.describe()))
		}
	}
	return len(reasons) == 0, reasons
}

func hasEssential(qs []qty, text string, e Fact) bool {
	if e.Text != "" {
		return strings.Contains(spacedCompact(text), spacedCompact(e.Text))
	}
	r := numericRef(e)
	for i := range qs {
		if qs[i].kind == kNumber && (&guard{}).matchNumber(&qs[i], &r, false) {
			return true
		}
	}
	return false
}

// reasonKind is the label value of a reason.
func reasonKind(reason string) string {
	k, _, _ := strings.Cut(reason, ":")
	switch k {
	case ReasonNumber, ReasonUnit, ReasonEssential, ReasonName, ReasonDate, ReasonEmpty, ReasonClaim, ReasonHeadline:
		return k
	}
	return "other"
}
