package bot

import (
	"fmt"
	"time"

	"github.com/gpubot/gpubot/knowledge"
)

// OfferDetail is what the catalogue adds to each offer of a price answer
// (issue 17): the offer as sold and how fresh its price is. PriceOffer
// embeds it, so its fields sit beside the contract's keys in JSON.
type OfferDetail struct {
	SKU            string  `json:"sku,omitempty"`             // instance type / offer id
	Cards          float64 `json:"cards"`                     // cards the published price covers
	Regions        int     `json:"regions,omitempty"`         // regions listing this price (a range when they differ)
	Area           string  `json:"area,omitempty"`            // where the offer is (knowledge.AreaOf): us, eu, cn, …; "" not stated
	PricingType    string  `json:"pricing_type"`              // on_demand, spot, bid, reserved, package, …
	Term           string  `json:"term,omitempty"`            // ISO 8601 (P1M, P1Y) for reserved and package prices
	Freshness      string  `json:"freshness"`                 // live (≤ 6 h), recent (≤ 3 days), dated
	FreshnessLabel string  `json:"freshness_label"`           // "live", "recent", "dated: 2026-03-21"
	AvailableCount int     `json:"available_count,omitempty"` // cards the source saw free, when it says
	Confidence     string  `json:"confidence,omitempty"`      // a sourced row's grade (high, medium, low); "" for catalogue data
}

// offerDetails looks up the catalogue offers behind a card's normalised
// prices, by key.
type offerDetails struct {
	offers []knowledge.Offer
	byKey  map[string]int
}

func detailsFor(offers []knowledge.Offer, gpu string) offerDetails {
	d := offerDetails{offers: offers, byKey: map[string]int{}}
	for i := range offers {
		if offers[i].GPU == gpu {
			d.byKey[offers[i].Key] = i
		}
	}
	return d
}

// of is the detail of the offer under key; cards is what the published
// price covers (from the advisor's normalisation).
func (d offerDetails) of(key string, cards float64, lang string, now time.Time) OfferDetail {
	var o knowledge.Offer
	if i, ok := d.byKey[key]; ok {
		o = d.offers[i]
	}
	f := o.Freshness(now)
	pr := ""
	if p, ok := knowledge.MustShipped().Platform(o.Platform); ok {
		pr = p.Region
	}
	return OfferDetail{SKU: o.SKU, Cards: cards, Regions: o.Regions, PricingType: string(o.Model), Term: o.Term,
		Freshness: string(f), FreshnessLabel: knowledge.FreshnessText(f, o.ObservedAt, lang), AvailableCount: o.AvailableCount,
		Area: knowledge.AreaOf(o, pr), Confidence: string(o.Confidence)}
}

// notListed fills in the answer for a platform that lists none of the asked
// cards while others do: never "no price", but where the card is priced.
func notListed(v *PriceView, platform string, all []PriceOffer) {
	if platform != "" && len(v.Offers) == 0 && len(all) > 0 {
		v.NotListed, v.Offers = platform, all
	}
}

// priceLine is one line of a price answer: a platform's cheapest offer for
// a card and how many more it has (More), or, with a platform asked, each
// of its offers, an identical one shown once (Same: how many it stands
// for besides itself). Comparing named platforms, a line is a platform's
// cheapest offer of one billing kind.
type priceLine struct {
	Offer PriceOffer
	More  int
	Same  int
}

// priceLines groups a price answer's offers for display, cheapest first.
func priceLines(v PriceView) []priceLine {
	compare := v.comparing()
	each := v.Platform != "" && v.NotListed == "" && !compare && !v.elsewhere()
	var out []priceLine
	at := map[string]int{}
	for _, o := range v.Offers {
		k := o.GPU + "\x00" + o.Platform
		switch {
		case compare:
			k += "\x00" + o.Billing
		case each:
			// the same line twice (a machine's sizes at one card-hour price)
			k += fmt.Sprintf("\x00%s\x00%v\x00%v\x00%s\x00%d", o.Billing, o.Price, o.PriceHigh, o.ObservedAt, o.Regions)
		}
		if i, ok := at[k]; ok {
			if each {
				out[i].Same++
			} else {
				out[i].More++
			}
			continue
		}
		at[k] = len(out)
		out = append(out, priceLine{Offer: o})
	}
	return out
}
