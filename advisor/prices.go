package advisor

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// Figure is a price exactly as the catalogue holds it.
type Figure struct {
	Low      float64                `json:"low"`
	High     float64                `json:"high"`
	Currency knowledge.Currency     `json:"currency"`
	Unit     knowledge.Unit         `json:"unit"`
	Basis    knowledge.Basis        `json:"basis"`
	Cards    float64                `json:"cards"` // cards the price covers
	Hours    float64                `json:"hours"` // hours one unit buys (1 for hour, 730 for month)
	Model    knowledge.PricingModel `json:"pricing_model"`
}

// String writes the figure for a reader, e.g. "¥1.8–2.5/hour per card" or
// "¥63000/month per 8-card machine".
func (f Figure) String() string {
	return f.text()
}

func (f Figure) text() string {
	var buf [96]byte
	return string(f.appendText(buf[:0]))
}

// appendText appends f.String() to b.
func (f *Figure) appendText(b []byte) []byte {
	b = appendMoney(b, f.Low, f.Currency)
	if f.High != f.Low {
		b = appendNum(append(b, "–"...), f.High)
	}
	b = append(append(append(b, '/'), f.Unit...), ' ')
	if f.Basis == knowledge.PerInstance {
		b = append(appendNum(append(b, "per "...), f.Cards), "-card machine"...)
	} else {
		b = append(b, "per card"...)
	}
	return b
}

// CardPrice is one offer normalised to one card for one hour in the
// answer's currency, keeping the published figure beside it.
type CardPrice struct {
	Offer    string             `json:"offer"` // offer key
	Platform string             `json:"platform"`
	GPU      string             `json:"gpu"`
	Low      float64            `json:"low"` // per card-hour
	High     float64            `json:"high"`
	Currency knowledge.Currency `json:"currency"`
	// Interruptible marks spot and bid capacity, which the provider may stop.
	Interruptible bool `json:"interruptible"`
	// Package marks prepaid plans (包日/包周/包月, reserved terms): the
	// hourly figure assumes every hour of the term is used.
	Package bool `json:"package"`
	// Monthly marks plans sold by the month, normalised with 730 h/month.
	Monthly    bool   `json:"monthly"`
	Original   Figure `json:"original"`
	Billing    string `json:"billing,omitempty"` // granularity, ISO 8601 (PT1S, PT1M, PT1H)
	ObservedAt string `json:"observed_at"`
	Source     string `json:"source"`
	Note       string `json:"note,omitempty"`
	How        string `json:"how"` // published figure ÷ hours ÷ cards (× rate)
}

// Price is the figure the engine computes with: the low end of the range,
// the best price the catalogue shows is to be had. The high end is shown
// next to it wherever it is used.
func (c CardPrice) Price() float64 { return c.Low }

// Range writes the per-card-hour range, e.g. "¥1.8–2.5".
func (c CardPrice) Range() string {
	var b [48]byte
	return string(c.appendRange(b[:0]))
}

// appendRange appends c.Range() to b.
func (c *CardPrice) appendRange(b []byte) []byte {
	b = appendMoney(b, c.Low, c.Currency)
	if c.High != c.Low {
		b = appendNum(append(b, "–"...), c.High)
	}
	return b
}

// NormalizeOffer converts an offer to a per-card-hour price in cur at fx
// yuan per dollar (0 = DefaultCNYPerUSD). ok is false for offers that are not priced by time
// (per million tokens). Monthly prices use 730 h/month (8760 h ÷ 12).
func NormalizeOffer(o knowledge.Offer, cur knowledge.Currency, fx float64) (cp CardPrice, ok bool) {
	return normalizeOffer(&o, cur, fx, true)
}

// normalizeOffer is NormalizeOffer; withHow false skips writing the
// conversion text, for ranking passes that only compare prices.
func normalizeOffer(o *knowledge.Offer, cur knowledge.Currency, fx float64, withHow bool) (cp CardPrice, ok bool) {
	lo, hi, ok := o.CardHourly()
	if !ok || lo <= 0 {
		return CardPrice{}, false
	}
	if fx <= 0 {
		fx = DefaultCNYPerUSD
	}
	cp = cardPrice(o, lo, hi, cur, fx)
	if !withHow {
		return cp, true
	}
	var buf [192]byte
	cp.How = string(cp.appendHow(buf[:0], fx))
	return cp, true
}

// cardPrice is normalizeOffer's price (no conversion text) of o, whose
// per-card-hour range in its own currency is lo–hi (CardHourly, lo > 0),
// in cur at fx (a positive rate).
func cardPrice(o *knowledge.Offer, lo, hi float64, cur knowledge.Currency, fx float64) CardPrice {
	var cp CardPrice
	cp.set(o, lo, hi, cur, fx)
	return cp
}

// set makes c cardPrice(o, lo, hi, cur, fx) field by field.
func (c *CardPrice) set(o *knowledge.Offer, lo, hi float64, cur knowledge.Currency, fx float64) {
	c.setIn(o, lo, inCurrency(lo, o.Currency, cur, fx), inCurrency(hi, o.Currency, cur, fx), cur)
}

// setIn is set given the ends in cur already (inCurrency's low and high):
// a price list, which sorted on them, fills its slice in place.
func (c *CardPrice) setIn(o *knowledge.Offer, lo, low, high float64, cur knowledge.Currency) {
	// Hours one unit buys, read back from knowledge's own conversion so
	// that every unit it knows (terms included) is handled alike.
	cards := o.Cards()
	hours := o.PriceLow / (lo * cards)
	c.Offer, c.Platform, c.GPU = o.Key, o.Platform, o.GPU
	c.Low, c.High, c.Currency = low, high, cur
	c.Interruptible = o.Model == knowledge.Spot || o.Model == knowledge.Bid
	c.Package = o.Model == knowledge.Package || o.Model == knowledge.Reserved || o.Unit != knowledge.PerHour
	// A month-long unit or term, or the seed's package quoted per hour.
	c.Monthly = math.Abs(hours-knowledge.HoursPerMonth) < 1 || (o.Model == knowledge.Package && o.Unit == knowledge.PerHour)
	f := &c.Original
	f.Low, f.High, f.Currency, f.Unit, f.Basis, f.Cards, f.Hours, f.Model = o.PriceLow, o.PriceHigh, o.Currency, o.Unit, o.Basis, cards, hours, o.Model
	c.Billing, c.ObservedAt, c.Source, c.Note, c.How = o.Granularity, o.ObservedAt, o.Source, o.Note, ""
}

// inCurrency is a per-card-hour amount in c, in cur at fx (a positive
// rate) and rounded to 4 decimals: a CardPrice's Low and High.
func inCurrency(amount float64, c, cur knowledge.Currency, fx float64) float64 {
	if c != "" && c != cur {
		amount = Convert(amount, c, cur, fx)
	}
	return round4(amount)
}

// round4 is round(f, 4), inlined where a price list calls it per offer.
func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// appendHow appends the conversion text of c, a price normalizeOffer made
// at fx (after its default), read from c's published figure: "¥2.5/card-
// hour as published", "$63000/month ÷ 730 h/month ÷ 8 cards × 7.2 =
// ¥77.6712/card-hour".
func (c *CardPrice) appendHow(b []byte, fx float64) []byte {
	f := &c.Original
	if f.Hours == 1 && f.Cards == 1 && f.Currency == c.Currency {
		return append(c.appendRange(b), "/card-hour as published"...)
	}
	b = appendMoney(b, f.Low, f.Currency)
	if f.High != f.Low {
		b = appendNum(append(b, "–"...), f.High)
	}
	if f.Hours != 1 {
		b = append(append(appendNum(append(b, " ÷ "...), round(f.Hours, 2)), " h/"...), f.Unit...)
	}
	if f.Cards != 1 {
		b = append(appendNum(append(b, " ÷ "...), f.Cards), " cards"...)
	}
	switch { // pricing.convHow
	case f.Currency == "" || f.Currency == c.Currency:
	case f.Currency == knowledge.USD:
		b = appendNum(append(b, " × "...), fx)
	default:
		b = appendNum(append(b, " ÷ "...), fx)
	}
	return append(c.appendRange(append(b, " = "...)), "/card-hour"...)
}

// OfferFilter narrows which offers may price an answer.
type OfferFilter struct {
	Platform        string `json:"platform,omitempty"` // platform id; "" = any
	NoInterruptible bool   `json:"no_interruptible"`   // drop spot and bid capacity
	Packages        bool   `json:"packages"`           // allow prepaid plans (monthly, reserved)
	NativeOnly      bool   `json:"native_only"`        // only offers published in the answer's currency (CNY = Chinese platforms)
	// NoMarketRange drops the seed's market-wide ranges (cn-market,
	// global-market): a range is context, not a platform one can rent from.
	NoMarketRange bool `json:"no_market_range,omitempty"`
	// NoMember drops member prices (会员价): tied to prepayment or
	// committed use, they are not the on-demand price a monthly plan is
	// weighed against.
	NoMember bool `json:"no_member,omitempty"`
}

// keep reports whether f keeps offer o at its normalised price cp; both by
// address, since a ranking asks it of every offer.
func (f OfferFilter) keep(o *knowledge.Offer, cp *CardPrice, cur knowledge.Currency) bool {
	switch {
	case f.Platform != "" && o.Platform != f.Platform:
		return false
	case f.NoInterruptible && cp.Interruptible:
		return false
	case !f.Packages && cp.Package:
		return false
	case f.NativeOnly && o.Currency != cur:
		return false
	case f.NoMarketRange && IsMarketRange(o.Platform):
		return false
	case f.NoMember && o.Model == knowledge.Member:
		return false
	case o.Status == "disappeared":
		return false
	}
	return true
}

// PriceInputs are the price question after defaults.
type PriceInputs struct {
	GPU       string             `json:"gpu"`
	Currency  knowledge.Currency `json:"currency"`
	FX        float64            `json:"fx"`
	Defaulted []string           `json:"defaulted"`
}

// PriceList is every offer for one card, normalised, cheapest first.
type PriceList struct {
	Inputs      PriceInputs   `json:"inputs"`
	Offers      []CardPrice   `json:"offers"`
	Assumptions []Text        `json:"assumptions"`
	Lines       []Line        `json:"lines"`
	Sources     []PriceSource `json:"sources"`
}

// Offers lists every time-priced offer for the card gpuID (a canonical id),
// normalised to cur per card-hour at fx yuan per dollar (0 = the default
// rate), cheapest first by the low end of each range. Offers priced per
// million tokens are left out. An empty list is not an error.
//
// Offers keeps nothing between calls; Market.PriceList answers the same
// from a prepared market's index.
func Offers(gpuID string, offers []knowledge.Offer, cur knowledge.Currency, fx float64) (PriceList, error) {
	return priceList(gpuID, indexFor(offers, gpuID), cur, fx)
}

// PriceList is Offers over the market's offers, from its cache: the list
// of a card is built once per offer snapshot, currency and rate, and
// copied out.
func (m Market) PriceList(gpuID string, cur knowledge.Currency, fx float64) (PriceList, error) {
	if gpuID == "" {
		return priceList(gpuID, nil, cur, fx)
	}
	if !m.prepared() { // nothing to keep: index the one card, as Offers does
		return priceList(gpuID, indexFor(m.Offers, gpuID), cur, fx)
	}
	return priceList(gpuID, m.prep.index(m.Offers), cur, fx)
}

func priceList(gpuID string, ix *offerIndex, cur knowledge.Currency, fx float64) (PriceList, error) {
	const hint = "/gpu price h100"
	var res PriceList
	if gpuID == "" {
		return res, inputErr("gpu", "name a card (e.g. h100, 4090, a100)", hint)
	}
	p, err := newPricing(cur, knowledge.CNY, fx, hint, &res.Inputs.Defaulted)
	if err != nil {
		return res, err
	}
	res.Inputs.GPU, res.Inputs.Currency, res.Inputs.FX = gpuID, p.cur, p.fx
	// The list depends only on the offers, the card, the currency and the
	// rate: an index a prepared market keeps builds it once per offers
	// snapshot (see Prepare) and copies it out.
	return ix.list(gpuID, cur, fx, func() PriceList {
		res.Offers, res.Lines, res.Sources = listOffers(ix.offers, ix.byGPU[gpuID], p)
		res.Assumptions = append(res.Assumptions, p.assumption()...)
		if len(res.Offers) == 0 {
			res.Assumptions = append(res.Assumptions, txt("no price for this card in the catalogue", "目录里没有这张卡的价格"))
		} else {
			res.Assumptions = append(res.Assumptions, txt(
				"prices normalised to one card for one hour; monthly plans divided by 730 h (they only cost that per hour if the whole month is used); whole-machine prices divided by the machine's cards",
				"价格统一折算为每卡每小时；包月按每月 730 小时折算（只有整月用满才是这个单价）；整机价格按卡数均摊"))
		}
		res.Assumptions = withConfirm(res.Assumptions, res.Sources)
		return res
	}), nil
}

// listOffers normalises the time-priced offers at (places in offers, one
// card's) to p's currency, cheapest first (by the low end, then the high
// end, then the key), with a line and a source for each; nil slices when
// none is left. A large market asks this of a few hundred offers, so it
// sorts small keys (sortList) before it builds the prices in place, writes
// each text once for the offers a few places apart that print it alike
// (sameFigure; the same platform and model), and cuts every new text from
// one buffer that the strings then share.
func listOffers(offers []knowledge.Offer, at []int, p *pricing) ([]CardPrice, []Line, []PriceSource) {
	fx := p.fx
	if fx <= 0 {
		fx = DefaultCNYPerUSD
	}
	es := make([]listEntry, 0, len(at))
	nan := false
	for _, i := range at {
		o := &offers[i]
		if o.Status == "disappeared" {
			continue
		}
		lo, hi, ok := o.CardHourly()
		if !ok || lo <= 0 {
			continue
		}
		// inCurrency of both ends, comparing the currencies once.
		low, high := lo, hi
		if o.Currency != p.cur {
			p.converted = true
			if o.Currency != "" {
				low, high = Convert(lo, o.Currency, p.cur, fx), Convert(hi, o.Currency, p.cur, fx)
			}
		}
		low, high = round4(low), round4(high)
		nan = nan || low != low || high != high
		es = append(es, listEntry{low: low, high: high, lo: lo, i: int32(i)})
	}
	if len(es) == 0 {
		return nil, nil, nil // none: written as null, as before
	}
	// Cheapest first: by the low end, then the high end, then the key.
	if nan {
		sortListNaN(es, offers)
	} else {
		sortList(es, offers)
	}
	ps := make([]CardPrice, len(es))
	// The prices, in place. Then, for each, an offer a few places before
	// it whose texts it can share, written once: the same figure at the
	// same price (the conversion and the figure's text), the same platform
	// and model (the labels). Equal prices sit together.
	misses := 0
	for k := range es {
		e, cp := &es[k], &ps[k]
		cp.setIn(&offers[e.i], e.lo, e.low, e.high, p.cur)
		for back := 1; back <= min(k, shareBack) && (e.fig == 0 || e.label == 0); back++ {
			pq := &ps[k-back]
			if e.fig == 0 && sameFigure(pq, cp) {
				e.fig = uint8(back)
			}
			if e.label == 0 && pq.Platform == cp.Platform && pq.Original.Model == cp.Original.Model && pq.Monthly == cp.Monthly {
				e.label = uint8(back)
			}
		}
		if e.fig == 0 || e.label == 0 {
			misses++
		}
	}
	lines := make([]Line, len(es))
	srcs := make([]PriceSource, len(es))
	unit := string(p.cur) + "/card-hour"
	// Every new text goes into one builder. A string it returns shares its
	// buffer, and bytes once written never change (a growing builder
	// copies into a new buffer), so each offer's texts are cut from the
	// builder's string as soon as they are written.
	var sb strings.Builder
	sb.Grow(textPerOffer * misses)
	var buf [256]byte
	for k := range es {
		e, cp := &es[k], &ps[k]
		newFig, newLabel := e.fig == 0, e.label == 0
		b := buf[:0]
		if newFig {
			b = cp.appendHow(b, fx)
		}
		how := len(b)
		if newLabel {
			b = appendOfferLabel(b, cp, "en")
		}
		en := len(b)
		if newLabel {
			b = appendOfferLabel(b, cp, "zh")
		}
		zh := len(b)
		if newFig {
			b = cp.Original.appendText(b)
		}
		var text string
		if len(b) > 0 {
			at := sb.Len()
			sb.Write(b)
			text = sb.String()[at:]
		}
		var label Text
		var figure string
		if newFig {
			cp.How, figure = text[:how], text[zh:]
		} else {
			cp.How, figure = ps[k-int(e.fig)].How, srcs[k-int(e.fig)].Figure
		}
		if newLabel {
			label = txt(text[how:en], text[en:zh])
		} else {
			label = lines[k-int(e.label)].Label
		}
		// Field by field: a whole struct stored while the collector
		// marks takes its slow bulk barrier, a field its quick one.
		l := &lines[k]
		l.Key, l.Label.EN, l.Label.ZH, l.Value, l.Unit, l.How = cp.Offer, label.EN, label.ZH, cp.Low, unit, cp.How
		src := &srcs[k]
		src.What, src.Offer, src.Platform, src.GPU, src.Figure, src.ObservedAt, src.Source = "hourly", cp.Offer, cp.Platform, cp.GPU, figure, cp.ObservedAt, cp.Source
	}
	return ps, lines, srcs
}

// listEntry is one offer of a price list while the list is sorted: small
// and without pointers, so it is moved without write barriers.
type listEntry struct {
	low, high float64 // the price's ends, in the list's currency
	lo        float64 // the low end in the offer's own currency (CardHourly's)
	i         int32   // the offer's place in offers
	// How many places back is the entry whose texts this one shares (at
	// most shareBack), or 0 for none: its figure's (conversion and
	// figure) and its labels'.
	fig, label uint8
}

// before reports whether a comes before b in a price list: by the low end,
// then the high end, then the offer's key, then its place (unique), so
// that the order is total when no end is NaN (±0 are equal).
func (a *listEntry) before(b *listEntry, offers []knowledge.Offer) bool {
	switch {
	case a.low != b.low:
		return a.low < b.low
	case a.high != b.high:
		return a.high < b.high
	}
	if c := strings.Compare(offers[a.i].Key, offers[b.i].Key); c != 0 {
		return c < 0
	}
	return a.i < b.i
}

// sortList sorts the entries of a price list in which no end is NaN, in
// the order before gives: a quicksort whose comparisons are inlined (a
// large market's list sorts a few hundred entries per call), handing a
// slice that splits badly too often to slices.SortFunc.
func sortList(es []listEntry, offers []knowledge.Offer) {
	for depth := 2 * bits.Len(uint(len(es))); len(es) > 12; depth-- {
		if depth == 0 {
			slices.SortFunc(es, func(a, b listEntry) int {
				switch {
				case a.before(&b, offers):
					return -1
				case b.before(&a, offers):
					return 1
				}
				return 0
			})
			return
		}
		// The median of the first, middle and last entries, placed in the
		// middle, is the pivot; Hoare's partition then stops on it.
		last, mid := len(es)-1, (len(es)-1)/2
		if es[mid].before(&es[0], offers) {
			es[0], es[mid] = es[mid], es[0]
		}
		if es[last].before(&es[mid], offers) {
			es[mid], es[last] = es[last], es[mid]
			if es[mid].before(&es[0], offers) {
				es[0], es[mid] = es[mid], es[0]
			}
		}
		pivot := es[mid]
		i, j := -1, len(es)
		for {
			for i++; es[i].before(&pivot, offers); i++ {
			}
			for j--; pivot.before(&es[j], offers); j-- {
			}
			if i >= j {
				break
			}
			es[i], es[j] = es[j], es[i]
		}
		// es[:j+1] comes before es[j+1:], both non-empty: sort the
		// shorter part, then go on with the longer.
		if lo, hi := es[:j+1], es[j+1:]; len(lo) < len(hi) {
			sortList(lo, offers)
			es = hi
		} else {
			sortList(hi, offers)
			es = lo
		}
	}
	for k := 1; k < len(es); k++ {
		for q := k; q > 0 && es[q].before(&es[q-1], offers); q-- {
			es[q], es[q-1] = es[q-1], es[q]
		}
	}
}

// sortListNaN sorts a price list with a NaN end as lists always have been
// sorted (NaN first, by cmp.Compare; NaN ends compare equal to each other):
// by the low end, then the high end, then each run of equal ends by key.
func sortListNaN(es []listEntry, offers []knowledge.Offer) {
	slices.SortFunc(es, func(a, b listEntry) int {
		switch {
		case a.low != b.low:
			return cmp.Compare(a.low, b.low)
		case a.high != b.high:
			return cmp.Compare(a.high, b.high)
		}
		return cmp.Compare(a.i, b.i)
	})
	for s := 0; s < len(es); {
		e := s + 1
		for e < len(es) && es[e].low == es[s].low && es[e].high == es[s].high {
			e++
		}
		if e-s > 1 {
			slices.SortFunc(es[s:e], func(a, b listEntry) int {
				if c := strings.Compare(offers[a.i].Key, offers[b.i].Key); c != 0 {
					return c
				}
				return cmp.Compare(a.i, b.i)
			})
		}
		s = e
	}
}

// shareBack is how many places back a price list looks for an offer whose
// texts another can share (see listOffers).
const shareBack = 8

// sameFigure reports whether a and b, normalised in one list (one currency
// and rate), write the same conversion and figure texts: the same ends,
// both normalised and published (bit for bit, so that -0 and NaN are told
// apart as the texts tell them), and the same currency, unit, basis, cards
// and hours.
func sameFigure(a, b *CardPrice) bool {
	f, g := &a.Original, &b.Original
	return same64(a.Low, b.Low) && same64(a.High, b.High) && same64(f.Low, g.Low) && same64(f.High, g.High) &&
		same64(f.Cards, g.Cards) && same64(f.Hours, g.Hours) &&
		a.Currency == b.Currency && f.Currency == g.Currency && f.Unit == g.Unit && f.Basis == g.Basis
}

// same64 reports whether x and y are the same float64, bit for bit.
func same64(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }

// textPerOffer bounds the bytes of one offer's texts in a price list (its
// conversion, two labels and its figure): 95–102 on average over the
// shipped offers, per card and currency. The builder is sized for the
// offers that write any text; a list that needs more grows it once or
// twice.
const textPerOffer = 128

// IsMarketRange reports whether a platform id is one of the seed's
// market-wide price ranges rather than a provider.
func IsMarketRange(platform string) bool { return strings.HasSuffix(platform, "-market") }

// Cheapest returns the cheapest offer for gpuID that the filter keeps, by
// the low end of its range; found is false when none is left. Offers priced
// per million tokens are never chosen; prepaid plans only when the filter
// allows them. The result says whether the capacity is interruptible.
func Cheapest(gpuID string, offers []knowledge.Offer, cur knowledge.Currency, fx float64, f OfferFilter) (cp CardPrice, found bool, err error) {
	var def []string
	p, err := newPricing(cur, knowledge.CNY, fx, "/gpu price h100", &def)
	if err != nil {
		return CardPrice{}, false, err
	}
	// The same order as a price list (listOffers), taking
	// the first; only the winner's conversion text is written. One pass
	// over the offers, nothing kept.
	i, _, found := cheapestOf(len(offers), func(j int) (*knowledge.Offer, CardPrice, bool) {
		o := &offers[j]
		if o.GPU != gpuID {
			return o, CardPrice{}, false
		}
		c, ok := normalizeOffer(o, p.cur, p.fx, false)
		return o, c, ok
	}, p, f)
	if !found {
		return CardPrice{}, false, nil
	}
	cp, _ = NormalizeOffer(offers[i], p.cur, p.fx)
	return cp, true, nil
}

// Cheapest is Cheapest over the market's offers, from its cache's index
// (the offers are indexed once per snapshot, not scanned per card).
func (m Market) Cheapest(gpuID string, cur knowledge.Currency, fx float64, f OfferFilter) (cp CardPrice, found bool, err error) {
	var def []string
	p, err := newPricing(cur, knowledge.CNY, fx, "/gpu price h100", &def)
	if err != nil {
		return CardPrice{}, false, err
	}
	if !m.prepared() { // one pass over the offers, as Cheapest does
		return Cheapest(gpuID, m.Offers, cur, fx, f)
	}
	cp, found = m.cheapest(&memo{c: m.prep}, gpuID, p, f)
	return cp, found, nil
}

// appendOfferLabel appends offerLabel(cp, lang) to b (a price list
// labels every offer of a card).
func appendOfferLabel(b []byte, cp *CardPrice, lang string) []byte {
	b = append(append(append(b, cp.Platform...), " ("...), modelText(cp.Original.Model).In(lang)...)
	if cp.Monthly && cp.Original.Model != knowledge.Package {
		b = append(append(b, ", "...), txt("monthly", "包月").In(lang)...)
	}
	return append(b, ')')
}

// offerLabel names an offer for a line: "autodl (on demand)".
func offerLabel(cp CardPrice, lang string) string {
	var b [96]byte
	return string(appendOfferLabel(b[:0], &cp, lang))
}

// modelText names a pricing model in both languages.
func modelText(m knowledge.PricingModel) Text {
	switch m {
	case knowledge.OnDemand:
		return txt("on demand", "按需")
	case knowledge.Spot:
		return txt("spot, interruptible", "竞价实例，可能被中断")
	case knowledge.Bid:
		return txt("bid, interruptible", "竞价出价，可能被中断")
	case knowledge.Reserved:
		return txt("reserved", "预留")
	case knowledge.Package:
		return txt("monthly plan", "包月/套餐")
	case knowledge.Member:
		return txt("member price", "会员价")
	case knowledge.Serverless:
		return txt("serverless", "Serverless")
	}
	return txt(string(m), string(m))
}
