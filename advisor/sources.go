package advisor

import (
	"slices"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// PriceSource says where one price in an answer came from: a catalogue offer
// with its observation date, the user, or a stated default.
type PriceSource struct {
	What       string `json:"what"`            // hourly, monthly, purchase, rent, electricity, storage, egress
	Offer      string `json:"offer,omitempty"` // catalogue offer key
	Platform   string `json:"platform,omitempty"`
	GPU        string `json:"gpu,omitempty"`
	Figure     string `json:"figure"`                // the price as published or given, e.g. "¥1.8–2.5/hour per card"
	ObservedAt string `json:"observed_at,omitempty"` // date the catalogue figure was observed
	Source     string `json:"source"`                // document or "given" / "default"
	Given      bool   `json:"given"`                 // stated by the user
}

// offerSource cites a catalogue offer.
func offerSource(what string, cp CardPrice) PriceSource {
	return offerSourceWith(what, &cp, cp.Original.String())
}

// offerSourceWith is offerSource with the figure's text already written.
func offerSourceWith(what string, cp *CardPrice, figure string) PriceSource {
	return PriceSource{What: what, Offer: cp.Offer, Platform: cp.Platform, GPU: cp.GPU,
		Figure: figure, ObservedAt: cp.ObservedAt, Source: cp.Source}
}

// givenSource cites a figure the user stated.
func givenSource(what string, m Money, cur knowledge.Currency, unit string) PriceSource {
	c := m.Currency
	if c == "" {
		c = cur
	}
	return PriceSource{What: what, Figure: money(m.Amount, c) + unit, Source: "given", Given: true}
}

// defaultSource cites a stated default.
func defaultSource(what, figure, why string) PriceSource {
	return PriceSource{What: what, Figure: figure, Source: "default: " + why}
}

// confirmNote is added whenever a catalogue price is used.
// The text depends on the dates only, so it is kept per list of dates (a
// catalogue has a handful).
func confirmNote(observed []string) Text {
	dates := strings.Join(uniq(observed), ", ")
	return txt(
		"catalogue prices are dated market ranges (observed "+dates+"), not live quotes: confirm on the platform before you buy",
		"目录价格是带日期的市场区间（观测于 "+dates+"），不是实时报价：下单前请在平台上确认")
}

func uniq(ss []string) []string {
	var d distinct
	for _, s := range ss {
		d.add(s)
	}
	return d.out
}

// distinct collects strings once each, in first-seen order, leaving out
// "". A price list adds a date per offer and has a handful: the last one
// and then the list are checked first, a map only past 16.
type distinct struct {
	out  []string
	seen map[string]bool
}

func (d *distinct) add(s string) {
	switch {
	case s == "" || len(d.out) > 0 && s == d.out[len(d.out)-1]:
	case d.seen != nil:
		if !d.seen[s] {
			d.seen[s] = true
			d.out = append(d.out, s)
		}
	case !slices.Contains(d.out, s):
		d.out = append(d.out, s)
		if len(d.out) == 16 {
			d.seen = make(map[string]bool, 32)
			for _, o := range d.out {
				d.seen[o] = true
			}
		}
	}
}

// observedDates lists the observation dates of catalogue sources, once
// each.
func observedDates(src []PriceSource) []string {
	var d distinct
	for i := range src {
		if !src[i].Given {
			d.add(src[i].ObservedAt)
		}
	}
	return d.out
}

// withConfirm appends the "confirm on the platform" note when any source is
// a catalogue offer.
func withConfirm(as []Text, src []PriceSource) []Text {
	if d := observedDates(src); len(d) > 0 {
		as = append(as, confirmNote(d))
	}
	return as
}
