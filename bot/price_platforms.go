package bot

import (
	"fmt"
	"slices"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/knowledge"
)

// PlatformCompare is a card's price on the platforms a question names
// (issue 22, "lambda or runpod, by how much?"): each named platform's
// cheapest offer of one billing kind, side by side, and by how much the
// cheapest undercuts the next. A named platform without an offer for the
// card keeps its row, with no offer: the answer says so.
type PlatformCompare struct {
	GPU       string   `json:"gpu"`
	Platforms []string `json:"platforms"` // as named, in order
	// Billing is the kind compared, like for like: on_demand unless spot
	// or a monthly plan was asked, or fewer than two named platforms
	// price the card that way.
	Billing string `json:"billing"`
	// Rows are the named platforms: those priced that way cheapest first,
	// then those priced only another way, then those with no price.
	Rows []PlatformRow `json:"rows"`
	// Cheaper is the platform priced lowest when two or more are priced
	// and it is strictly the lowest; "" otherwise.
	Cheaper string `json:"cheaper,omitempty"`
	// Difference is the next cheapest's price less the cheapest's, per
	// card-hour (0 for a tie or fewer than two priced).
	Difference float64 `json:"difference"`
	// Cards and Hours are the rental asked ("8 cards for a month"), when
	// one was; TotalDifference is Difference × Cards × Hours.
	Cards           int     `json:"cards,omitempty"`
	Hours           float64 `json:"hours,omitempty"`
	TotalDifference float64 `json:"total_difference,omitempty"`
	// Lower is a named platform's offer of another kind (spot, a monthly
	// plan) below the cheapest compared: not like for like, said apart.
	Lower *PriceOffer `json:"lower,omitempty"`
	// None is set when no named platform prices the card: the answer
	// shows where it is priced instead.
	None bool `json:"none,omitempty"`
}

// PlatformRow is one named platform in a PlatformCompare.
type PlatformRow struct {
	Platform string `json:"platform"`
	// Offer is its cheapest offer of the kind compared; nil when it has
	// none of that kind.
	Offer *PriceOffer `json:"offer,omitempty"`
	// Other is its cheapest offer of another kind when it has none of
	// the kind compared (not compared, said so).
	Other *PriceOffer `json:"other,omitempty"`
	// More is how much dearer than the cheapest it is, per card-hour.
	More float64 `json:"more,omitempty"`
	// Total is the asked rental at its price (Cards × Hours × price).
	Total float64 `json:"total,omitempty"`
	// Variant is a variant of the card the platform lists when it lists
	// not the asked one (its "A100 40GB" for an asked 80GB).
	Variant string `json:"variant,omitempty"`
	// OutOfArea is set when the platform prices the card, but only
	// outside the region asked ("US only"): its offers were left out.
	OutOfArea bool `json:"out_of_area,omitempty"`
}

// Priced reports whether the row has an offer of the kind compared.
func (r PlatformRow) Priced() bool { return r.Offer != nil }

// kindOrder is the billing kinds a comparison tries, in order: the kind
// asked first, then the others (on demand is what a job pays by default).
func kindOrder(spot bool, billing string) []string {
	switch {
	case spot || billing == "spot":
		return []string{"spot", "on_demand", "package", "monthly"}
	case billing == "monthly":
		return []string{"monthly", "package", "on_demand", "spot"}
	}
	return []string{"on_demand", "package", "monthly", "spot"}
}

// comparePlatforms is gpu's price on each of platforms among offers (the
// answer's offers, already narrowed to the named platforms and any
// region), in the kind order says. all are every offer of the card, for
// the variants a named platform lists instead. cards and hours are the
// rental asked (0 hours: none).
func comparePlatforms(offers []PriceOffer, gpu string, platforms []string, order []string, cards int, hours float64, variants map[string]string, all []PriceOffer) PlatformCompare {
	c := PlatformCompare{GPU: gpu, Platforms: platforms}
	// each platform's cheapest offer of each kind (offers come cheapest first)
	best := map[string]map[string]PriceOffer{}
	for _, o := range offers {
		if o.GPU != gpu || !slices.Contains(platforms, o.Platform) {
			continue
		}
		if best[o.Platform] == nil {
			best[o.Platform] = map[string]PriceOffer{}
		}
		if b, ok := best[o.Platform][o.Billing]; !ok || o.Price < b.Price {
			best[o.Platform][o.Billing] = o
		}
	}
	if len(best) == 0 {
		c.None = true
	}
	// the first kind two or more named platforms price, else the first any does
	c.Billing = order[0]
	for _, need := range []int{2, 1} {
		found := false
		for _, k := range order {
			n := 0
			for _, p := range platforms {
				if _, ok := best[p][k]; ok {
					n++
				}
			}
			if n >= need {
				c.Billing, found = k, true
				break
			}
		}
		if found {
			break
		}
	}
	var priced, other, missing []PlatformRow
	for _, p := range platforms {
		row := PlatformRow{Platform: p}
		if o, ok := best[p][c.Billing]; ok {
			row.Offer = &o
			priced = append(priced, row)
			continue
		}
		for _, k := range order {
			if o, ok := best[p][k]; ok {
				row.Other = &o
				break
			}
		}
		if row.Other != nil {
			other = append(other, row)
			continue
		}
		row.Variant = variants[p]
		row.OutOfArea = slices.ContainsFunc(all, func(o PriceOffer) bool { return o.GPU == gpu && o.Platform == p })
		missing = append(missing, row)
	}
	slices.SortStableFunc(priced, func(a, b PlatformRow) int {
		switch {
		case a.Offer.Price < b.Offer.Price:
			return -1
		case a.Offer.Price > b.Offer.Price:
			return 1
		}
		return 0
	})
	if len(priced) > 0 {
		low := priced[0].Offer.Price
		for i := range priced {
			priced[i].More = advisor.Round2(priced[i].Offer.Price - low)
			if hours > 0 {
				priced[i].Total = advisor.RentalTotal(priced[i].Offer.Price, cards, hours).Total
			}
		}
		if hours > 0 {
			c.Cards, c.Hours = max(cards, 1), hours
		}
		if len(priced) > 1 {
			c.Difference = priced[1].More
			if c.Difference > 0 {
				c.Cheaper = priced[0].Platform
			}
			if hours > 0 {
				c.TotalDifference = advisor.Round2(priced[1].Total - priced[0].Total)
			}
		}
		// a named platform's other deal below the cheapest compared
		for _, p := range platforms {
			for k, o := range best[p] {
				if k != c.Billing && o.Price < low && (c.Lower == nil || o.Price < c.Lower.Price) {
					c.Lower = &o
				}
			}
		}
	}
	c.Rows = slices.Concat(priced, other, missing)
	return c
}

// listedVariants names, per platform, a variant of gpu it lists when it
// lists not gpu itself ("Lambda lists A100 40GB").
func listedVariants(offers []knowledge.Offer, platforms []string, gpu string) map[string]string {
	var fam []string
	for _, f := range cardVariants {
		if slices.Contains(f, gpu) {
			fam = f
		}
	}
	listed := map[string]map[string]bool{}
	for _, o := range offers {
		if slices.Contains(platforms, o.Platform) && slices.Contains(fam, o.GPU) {
			if listed[o.Platform] == nil {
				listed[o.Platform] = map[string]bool{}
			}
			listed[o.Platform][o.GPU] = true
		}
	}
	out := map[string]string{}
	for _, p := range platforms {
		if listed[p][gpu] {
			continue
		}
		for _, v := range fam {
			if v != gpu && listed[p][v] {
				out[p] = v
				break
			}
		}
	}
	return out
}

// sharedVariant is the variant of gpu to compare on when no named
// platform lists gpu itself but one lists a variant: the one most of them
// list ("" when gpu is listed by any, or no variant is).
func sharedVariant(offers []knowledge.Offer, platforms []string, gpu string) string {
	v := listedVariants(offers, platforms, gpu)
	if len(v) == 0 {
		return ""
	}
	for _, o := range offers {
		if o.GPU == gpu && slices.Contains(platforms, o.Platform) {
			return "" // one of them lists the card asked
		}
	}
	count := map[string]int{}
	top := ""
	for _, p := range platforms {
		if g := v[p]; g != "" {
			count[g]++
			if top == "" || count[g] > count[top] {
				top = g
			}
		}
	}
	return top
}

// platformsVariants replaces each asked card that none of the named
// platforms lists by the variant they list (sharedVariant), and says so.
func platformsVariants(offers []knowledge.Offer, platforms []string, gpus []string, lang string) ([]string, []string) {
	var notes []string
	out := make([]string, len(gpus))
	for i, g := range gpus {
		out[i] = g
		if v := sharedVariant(offers, platforms, g); v != "" {
			out[i] = v
			notes = append(notes, tr(lang,
				fmt.Sprintf("None of %s lists %s; their %s rows are compared instead.", andNames(lang, comparedNames(lang, platforms)), gpuName(g), gpuName(v)),
				fmt.Sprintf("%s 都没有 %s 的报价，改为比较它们的 %s。", andNames(lang, comparedNames(lang, platforms)), gpuName(g), gpuName(v))))
		}
	}
	return out, notes
}

// comparing reports whether the answer compares named platforms that
// price at least one of the cards.
func (v PriceView) comparing() bool {
	for _, c := range v.Compare {
		if !c.None {
			return true
		}
	}
	return false
}

// elsewhere reports whether platforms were named and none prices any of
// the cards: the offers shown are other platforms'.
func (v PriceView) elsewhere() bool { return len(v.Compare) > 0 && !v.comparing() }

// compared is the comparison for gpu that the headline says: whenever
// the named platforms price any of the cards (one they do not price is
// said so too).
func (v PriceView) compared(gpu string) (PlatformCompare, bool) {
	if !v.comparing() {
		return PlatformCompare{}, false
	}
	for _, c := range v.Compare {
		if c.GPU == gpu {
			return c, true
		}
	}
	return PlatformCompare{}, false
}

// comparesRental reports whether the comparison's headline prices the
// rental asked on each platform (the rental's own line is not repeated).
func (v PriceView) comparesRental() bool {
	for _, c := range v.Compare {
		if !c.None && c.Hours > 0 {
			return true
		}
	}
	return false
}

// named are the platforms the comparison names, in the order asked.
func (v PriceView) named() []string {
	if len(v.Compare) == 0 {
		return nil
	}
	return v.Compare[0].Platforms
}

// areaAsked is the region a filter asked for ("us"), or "".
func (v PriceView) areaAsked() string {
	if v.Area == nil {
		return ""
	}
	return v.Area.Want
}

// outOfArea reports whether a named platform prices a card only outside
// the region asked.
func (v PriceView) outOfArea() bool {
	if v.areaAsked() == "" {
		return false
	}
	for _, c := range v.Compare {
		for _, r := range c.Rows {
			if r.OutOfArea {
				return true
			}
		}
	}
	return false
}
