package phrase

import (
	"fmt"
	"strings"
)

// ReasonHeadline is the rejection kind for a rephrase whose first line
// says something other than the answer's headline: a figure, card or date
// the headline does not show, or a headline figure moved out of it.
const ReasonHeadline = "headline"

// CheckHeadline is the headline guard, run with Check and CheckClaims. Check
// accepts any number that is one of the answer's facts, wherever it is
// written; so a rephrase could move the answer's own other numbers into its
// first line — "needs ≈48 GB" (an option's card size) for "≈30.42 GB",
// "$0.29/h" (another offer) for "$0.09/h", "A100" for "V100", "The RTX 5090
// is the cheapest option." — and pass (issue #28 item 5). The first line is
// what a user reads as the answer, so its figures are checked in place and
// by quantity against the template's first line (its headline):
//
//   - for each kind of quantity the headline shows (GB, CNY, USD, hours,
//     a price per hour …: dimension and denominator), the first one of that
//     kind in the rephrase's first line must be one of the headline's, to
//     its rounding: the answer comes first, whatever detail follows it;
//   - the first card (V100, RTX 5090) and the first platform it names must
//     be ones the headline names, when the headline names any;
//   - every essential figure (the intent's answer figures the headline
//     shows, EssentialFrom) must be in it, not elsewhere in the text.
//
// The rest of the text stays under Check and CheckClaims.
func CheckHeadline(text, template string, essential []Fact) (ok bool, reasons []string) {
	head, want := firstLine(text), firstLine(template)
	if head == "" || want == "" {
		return true, nil // Check refuses empty text; a template without a headline has nothing to hold
	}
	wq := extract(want)
	g := newGuard([]Fact{{Name: "headline", Text: want}})
	kinds := map[string]bool{} // quantity kinds the headline shows
	for i := range wq {
		if q := &wq[i]; q.kind == kNumber && q.def.dim != dimNone {
			kinds[q.def.dim+"/"+q.per] = true
		}
	}
	named := map[bool]map[string]bool{false: {}, true: {}} // cards, platforms the headline names
	for _, m := range scanEntities([]rune(want)) {
		named[m.platform][m.id] = true
	}
	hr := []rune(head)
	firstOf := map[bool]bool{}
	for _, m := range scanEntities(hr) {
		if firstOf[m.platform] || len(named[m.platform]) == 0 {
			continue
		}
		firstOf[m.platform] = true
		if !named[m.platform][m.id] {
			reasons = append(reasons, fmt.Sprintf("%s: the first line names %q, which the answer's headline %q does not", ReasonHeadline, string(hr[m.start:m.end]), want))
		}
	}
	qs := extract(head)
	checked := map[string]bool{}
	for i := range qs {
		q := &qs[i]
		switch {
		case q.kind == kNumber && q.def.dim != dimNone:
			k := q.def.dim + "/" + q.per
			if !kinds[k] || checked[k] {
				continue
			}
			checked[k] = true
			if ok, _ := g.allowed(q); !ok {
				reasons = append(reasons, fmt.Sprintf("%s: the first line gives %q where the answer's headline %q gives another figure", ReasonHeadline, q.raw, want))
			}
		}
	}
	for _, e := range essential {
		if !hasEssential(qs, head, e) {
			reasons = append(reasons, fmt.Sprintf("%s: %s is not in the first line", ReasonHeadline, e.describe()))
		}
	}
	return len(reasons) == 0, reasons
}

// firstLine is s's first line with text on it, trimmed.
func firstLine(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}
