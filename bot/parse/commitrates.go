package parse

import (
	"regexp"
	"strings"
)

// A commitment question often states both of its rates: "$2.49/hr on
// demand vs 1-yr reserved at $1.85/hr", "按量每卡时 26，签一年每卡时 18".
// Which rate a figure is goes by the nearest commitment or on-demand words
// in its clause (a clause ends at punctuation, "vs", "还是", "对比"): the
// words just before a figure win over words after it at the same distance.
var (
	reCommitCue   = regexp.MustCompile(`reserved|reservation|\bris?\b|\b[13]\s?-?\s?(?:yrs?|years?)\b|committed|\bcommit(?:ment|ments|s)?\b|\bterm\b|\bcuds?\b|savings plan|包年|预留|[13一三]\s?年期|签\s?[13一三]\s?年|承诺|年付`)
	reOnDemandCue = regexp.MustCompile(`on[- ]?demand|pay[- ]as[- ]you[- ]go|\bpayg\b|按需|按量|list price`)
	reClauseBreak = regexp.MustCompile(`[;；，。!?！？\n—、]|,\s|\.\s|\.$|\bvs\.?|\bversus\b|\bcompared (?:to|with)\b|对比|还是|相比|比起`)
)

// rateSide is the side of a commitment a price is quoted for.
type rateSide int

const (
	sideNone     rateSide = iota
	sideCommit            // the committed (reserved, term) rate
	sideOnDemand          // the on-demand rate
)

// sideOf says which rate the figure at s[start:end] is, by the nearest
// commitment or on-demand words in its clause; sideNone when neither is
// there.
func sideOf(s string, start, end int) rateSide {
	if start < 0 || end > len(s) || start > end {
		return sideNone
	}
	lo, hi := 0, len(s)
	for _, loc := range reClauseBreak.FindAllStringIndex(s[:start], -1) {
		lo = loc[1]
	}
	if loc := reClauseBreak.FindStringIndex(s[end:]); loc != nil {
		hi = end + loc[0]
	}
	before, after := s[lo:start], s[end:hi]
	best, side := -1, sideNone
	for _, c := range []struct {
		re   *regexp.Regexp
		side rateSide
	}{{reCommitCue, sideCommit}, {reOnDemandCue, sideOnDemand}} {
		if all := c.re.FindAllStringIndex(before, -1); len(all) > 0 {
			if d := len(before) - all[len(all)-1][1]; best < 0 || d < best {
				best, side = d, c.side
			}
		}
		if loc := c.re.FindStringIndex(after); loc != nil {
			if d := loc[0]; best < 0 || d < best {
				best, side = d, c.side
			}
		}
	}
	return side
}

// commitTalk reports whether the text speaks of a commitment at all.
func commitTalk(s string) bool { return reCommitCue.MatchString(s) }

// Discounts. A commitment's discount off on demand, as a share 0–1:
// "35% off", "a 40% discount", "discount of 25%", "30% cheaper", "便宜30%",
// "优惠 20%", "打七折" and "7折" (pay 70 %: 30 % off), "八五折" and "8.5折"
// (15 % off). The same figure is not utilisation.
var (
	reDiscountPct = regexp.MustCompile(`(\d+(?:\.\d+)?)\s?%\s?(?:off\b|discount|cheaper|lower|less\b|below|的?折扣|的?优惠)|(?:discount|cheaper by|off by|便宜|优惠|折扣|降价)\s?(?:of|is|by|about|around|roughly|~|了|约|大概|大约|为|是|:)*\s?(\d+(?:\.\d+)?)\s?%`)
	reZhe         = regexp.MustCompile(`(\d(?:\.\d)?|\d\d|[一二三四五六七八九]{1,2})\s?折`)
)

// readDiscount finds a discount in t: its share off (0.35 for "35% off",
// 0.3 for "七折") and the percent figure it was written with ("35"; "" for
// 折). ok is false when none is said or it is not between 0 and 100 %.
func readDiscount(t string) (off float64, pct string, ok bool) {
	if m := reDiscountPct.FindStringSubmatch(t); m != nil {
		pct = m[1] + m[2]
		if v, good := Number(pct); good && v > 0 && v < 100 {
			return v / 100, pct, true
		}
	}
	m := reZhe.FindStringSubmatch(t)
	if m == nil {
		return 0, "", false
	}
	var left float64 // the share paid
	r := []rune(m[1])
	switch {
	case r[0] > 0x7f: // Chinese numerals, read one by one: 七 = 0.7, 八五 = 0.85
		for k, d := range r {
			v, _ := Number(string(d))
			left += v / []float64{10, 100}[k]
		}
	case len(m[1]) == 2 && !strings.Contains(m[1], "."):
		v, _ := Number(m[1]) // "85折" is 八五折
		left = v / 100
	default:
		v, _ := Number(m[1])
		left = v / 10
	}
	if left <= 0 || left >= 1 {
		return 0, "", false
	}
	return round4(1 - left), "", true
}

func round4(v float64) float64 {
	return float64(int64(v*10000+0.5)) / 10000
}
