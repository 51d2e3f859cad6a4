package advisor

import (
	"math"
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
	b := appendMoney(buf[:0], f.Low, f.Currency)
	if f.High != f.Low {
		b = appendNum(append(b, "–"...), f.High)
	}
	b = append(append(append(b, '/'), f.Unit...), ' ')
	if f.Basis == knowledge.PerInstance {
		b = append(appendNum(append(b, "per "...), f.Cards), "-card machine"...)
	} else {
		b = append(b, "per card"...)
	}
	return string(b)
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
	return normalizeOffer(o, cur, fx, true)
}

// normalizeOffer is NormalizeOffer; withHow false skips writing the
// conversion text, for ranking passes that only compare prices.
func normalizeOffer(o knowledge.Offer, cur knowledge.Currency, fx float64, withHow bool) (cp CardPrice, ok bool) {
	lo, hi, ok := o.CardHourly()
	if !ok || lo <= 0 {
		return CardPrice{}, false
	}
	// Hours one unit buys, read back from knowledge's own conversion so
	// that every unit it knows (terms included) is handled alike.
	hours := o.PriceLow / (lo * o.Cards())
	if fx <= 0 {
		fx = DefaultCNYPerUSD
	}
	p := &pricing{cur: cur, fx: fx}
	cp = CardPrice{
		Offer: o.Key, Platform: o.Platform, GPU: o.GPU,
		Low: round(p.to(lo, o.Currency), 4), High: round(p.to(hi, o.Currency), 4), Currency: cur,
		Interruptible: o.Model == knowledge.Spot || o.Model == knowledge.Bid,
		Package:       o.Model == knowledge.Package || o.Model == knowledge.Reserved || o.Unit != knowledge.PerHour,
		// A month-long unit or term, or the seed's package quoted per hour.
		Monthly: math.Abs(hours-knowledge.HoursPerMonth) < 1 || (o.Model == knowledge.Package && o.Unit == knowledge.PerHour),
		Original: Figure{Low: o.PriceLow, High: o.PriceHigh, Currency: o.Currency, Unit: o.Unit,
			Basis: o.Basis, Cards: o.Cards(), Hours: hours, Model: o.Model},
		Billing: o.Granularity, ObservedAt: o.ObservedAt, Source: o.Source, Note: o.Note,
	}
	if !withHow {
		return cp, true
	}
	// Written into one buffer: a price list writes this for every offer
	// of a card (about 190 for the H100 in a full snapshot).
	var buf [192]byte
	b := buf[:0]
	if hours == 1 && o.Cards() == 1 && o.Currency == cur {
		b = append(cp.appendRange(b), "/card-hour as published"...)
	} else {
		b = appendMoney(b, o.PriceLow, o.Currency)
		if o.PriceHigh != o.PriceLow {
			b = appendNum(append(b, "–"...), o.PriceHigh)
		}
		if hours != 1 {
			b = append(append(appendNum(append(b, " ÷ "...), round(hours, 2)), " h/"...), o.Unit...)
		}
		if o.Cards() != 1 {
			b = append(appendNum(append(b, " ÷ "...), o.Cards()), " cards"...)
		}
		b = append(b, p.convHow(o.Currency)...)
		b = append(cp.appendRange(append(b, " = "...)), "/card-hour"...)
	}
	cp.How = string(b)
	return cp, true
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
	return priceList(gpuID, m.engine().index(m.Offers), cur, fx)
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
	// rate: an index a cache keeps builds it once (the cache checks that
	// no offer changed) and copies it out.
	return ix.list(gpuID, cur, fx, func() PriceList {
		at := ix.byGPU[gpuID]
		if len(at) > 0 {
			res.Offers = make([]CardPrice, 0, len(at))
		}
		for _, i := range at {
			o := ix.offers[i]
			if o.Status == "disappeared" {
				continue
			}
			cp, ok := NormalizeOffer(o, p.cur, p.fx)
			if !ok {
				continue
			}
			if o.Currency != p.cur {
				p.converted = true
			}
			res.Offers = append(res.Offers, cp)
		}
		if len(res.Offers) == 0 {
			res.Offers = nil // none: written as null, as before
		} else {
			res.Lines = make([]Line, 0, len(res.Offers))
			res.Sources = make([]PriceSource, 0, len(res.Offers))
		}
		sortPrices(res.Offers)
		unit := string(p.cur) + "/card-hour"
		for i := range res.Offers {
			cp := &res.Offers[i]
			en, zh := offerLabels(cp)
			res.Lines = append(res.Lines, Line{Key: cp.Offer, Label: txt(en, zh), Value: cp.Low, Unit: unit, How: cp.How})
			res.Sources = append(res.Sources, offerSource("hourly", *cp))
		}
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
	// The same order as sorting every kept offer by sortPrices and taking
	// the first; only the winner's conversion text is written. One pass
	// over the offers, nothing kept.
	i, _, found := cheapestOf(len(offers), func(j int) (*knowledge.Offer, CardPrice, bool) {
		o := &offers[j]
		if o.GPU != gpuID {
			return o, CardPrice{}, false
		}
		c, ok := normalizeOffer(*o, p.cur, p.fx, false)
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
	c := &memo{c: m.engine()}
	cp, found = m.cheapest(c, gpuID, p, f)
	return cp, found, nil
}

// sortPrices orders cheapest first: low end, then high end, then key.
// A price is a large struct: the places are sorted, stably, and the
// prices moved once.
func sortPrices(ps []CardPrice) {
	if len(ps) < 2 {
		return
	}
	at := make([]int, len(ps))
	for i := range at {
		at[i] = i
	}
	less := func(a, b *CardPrice) bool {
		if a.Low != b.Low {
			return a.Low < b.Low
		}
		if a.High != b.High {
			return a.High < b.High
		}
		return a.Offer < b.Offer
	}
	slices.SortStableFunc(at, func(i, j int) int {
		switch {
		case less(&ps[i], &ps[j]):
			return -1
		case less(&ps[j], &ps[i]):
			return 1
		}
		return 0
	})
	sorted := make([]CardPrice, len(ps))
	for k, i := range at {
		sorted[k] = ps[i]
	}
	copy(ps, sorted)
}

// offerLabels is offerLabel in English and Chinese, written into one
// string (a price list labels every offer of a card).
func offerLabels(cp *CardPrice) (en, zh string) {
	var buf [160]byte
	b := buf[:0]
	label := func(lang string) {
		b = append(append(append(b, cp.Platform...), " ("...), modelText(cp.Original.Model).In(lang)...)
		if cp.Monthly && cp.Original.Model != knowledge.Package {
			b = append(append(b, ", "...), txt("monthly", "包月").In(lang)...)
		}
		b = append(b, ')')
	}
	label("en")
	k := len(b)
	label("zh")
	s := string(b)
	return s[:k], s[k:]
}

// offerLabel names an offer for a line: "autodl (on demand)".
func offerLabel(cp CardPrice, lang string) string {
	kind := modelText(cp.Original.Model).In(lang)
	if cp.Monthly && cp.Original.Model != knowledge.Package {
		kind += ", " + txt("monthly", "包月").In(lang)
	}
	return cp.Platform + " (" + kind + ")"
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
