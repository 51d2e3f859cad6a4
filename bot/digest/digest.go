// Package digest builds the daily price-change post: what moved in the
// catalogue since a channel's last post — the biggest drops and rises, new
// 30-day lows per card, offers that appeared or went, the cheapest offer
// for the popular cards, how fresh each source is — with a 30-day trend
// chart, rendered as Block Kit and plain text in Chinese or English.
//
// Compose is pure: catalogue data in, a Digest out. Daily does the I/O: it
// freezes each day's catalogue as a baseline, so every channel and every
// catch-up of a day sees the same numbers, and diffs a channel against the
// baseline of its last post.
//
// # Redis layout (besides the catalogue's own keys)
//
//	gpubot:{catalog}:baseline:daily:<YYYY-MM-DD>  the catalogue as the day's post saw it (catalog.SaveBaseline)
//	gpubot:{catalog}:baseline:daily:start         the catalogue before the first refresh that changed it,
//	                                              the comparison point until the first daily post
//	gpubot:digest:days                            ZSET  dates with a day baseline, scored by save time;
//	                                              baselines older than Options.Keep are dropped
package digest

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/infra/chart"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// DefaultPopular are the cards whose cheapest offer every post lists when
// a subscription names none: the ones the seed documents price most.
var DefaultPopular = []string{"rtx4090", "a100-80g", "h100-sxm", "h800", "h20"}

// Options shape the post. Zero values take the defaults noted.
type Options struct {
	Location  *time.Location // BOT_TIMEZONE, for dates; UTC when nil
	Popular   []string       // cards in "cheapest now"; DefaultPopular
	Top       int            // moves, new and gone offers listed per section; 5
	TrendDays int            // chart window and new-low window; 30
	ChartGPUs int            // lines on the chart at most; 6
	FX        float64        // CNY per USD, for conversions the advisor states; advisor default when 0
	KB        *knowledge.Base
}

func (o Options) withDefaults() Options {
	if o.Location == nil {
		o.Location = time.UTC
	}
	if o.Popular == nil {
		o.Popular = DefaultPopular
	}
	if o.Top <= 0 {
		o.Top = 5
	}
	if o.TrendDays <= 0 {
		o.TrendDays = 30
	}
	if o.ChartGPUs <= 0 {
		o.ChartGPUs = 6
	}
	return o
}

// Filter is what one subscription asks for.
type Filter struct {
	GPUs      []string // card ids; each covers its family (h100-sxm covers h100-pcie); empty: all
	Threshold float64  // smallest move reported, a share (0.05); 0: the catalogue default
	Lang      string   // zh or en
	// Exact, when set, replaces the thresholds (Threshold is then unused):
	// tests and previews that want every move.
	Exact *catalog.Thresholds
}

// Thresholds turns the filter's threshold into the catalogue's.
func (f Filter) Thresholds() catalog.Thresholds {
	if f.Exact != nil {
		return *f.Exact
	}
	th := catalog.DefaultThresholds()
	if f.Threshold > 0 {
		th.Pct = f.Threshold * 100
	}
	return th
}

// family is a card id without its variant: h100-sxm → h100.
func family(gpu string) string {
	if i := strings.IndexByte(gpu, '-'); i > 0 {
		return gpu[:i]
	}
	return gpu
}

func (f Filter) keeps(gpu string) bool {
	if len(f.GPUs) == 0 {
		return true
	}
	for _, g := range f.GPUs {
		if family(g) == family(gpu) {
			return true
		}
	}
	return false
}

// Input is what Compose works from.
type Input struct {
	// Prev is the catalogue the channel last saw and PrevAt when; HasPrev
	// is false before any baseline exists (the first post compares nothing).
	Prev    []knowledge.Offer
	PrevAt  time.Time
	HasPrev bool
	Cur     []knowledge.Offer // the catalogue posted now
	CurAt   time.Time
	Sources []catalog.SourceStatus // the live catalogue's sources, for freshness
	Lows    []catalog.Low          // new lows (catalog.NewLows)
	Series  []catalog.Series       // cheapest-price history for the chart, any currencies
	Now     time.Time
	Filter  Filter
	// Removed are sources taken out of the configuration since PrevAt:
	// their offers left because nobody reads them, so they are not "gone".
	Removed []catalog.RemovedSource
	// SourceData is each source's newest observed_at, so the freshness line
	// dates the data, not only the read ("shipped 1 h ago" of March prices).
	SourceData map[string]string
	// LastSeen is, for offers new since Prev, their last history point
	// before PrevAt: an offer that comes back after a gap is a move from
	// the price it was last seen at, not a new listing.
	LastSeen map[string]catalog.Point
}

// Move is one price change.
type Move struct {
	GPU      string             `json:"gpu"`
	Platform string             `json:"platform"`
	Offer    string             `json:"offer"`
	Model    string             `json:"pricing_model"`
	Region   string             `json:"region,omitempty"`
	Measure  string             `json:"measure"` // price, low, high, min, median
	Old      float64            `json:"old"`
	New      float64            `json:"new"`
	Pct      float64            `json:"pct"`
	Currency knowledge.Currency `json:"currency"`
	Hourly   bool               `json:"per_card_hour"` // false: the raw unit (per million tokens)
	Unit     string             `json:"unit"`
	// OldAt is set when Old was last seen before the previous post (the
	// offer was missing in between).
	OldAt time.Time `json:"old_at,omitzero"`
}

// Listing is an offer that appeared or went.
type Listing struct {
	GPU      string             `json:"gpu"`
	Platform string             `json:"platform"`
	Offer    string             `json:"offer"`
	Model    string             `json:"pricing_model"`
	Region   string             `json:"region,omitempty"`
	Price    float64            `json:"price"`
	High     float64            `json:"price_high,omitempty"`
	Currency knowledge.Currency `json:"currency"`
	Hourly   bool               `json:"per_card_hour"`
	Unit     string             `json:"unit"`
}

// Availability is an offer whose stock changed.
type Availability struct {
	GPU      string `json:"gpu"`
	Platform string `json:"platform"`
	Offer    string `json:"offer"`
	Old      string `json:"old"`
	New      string `json:"new"`
}

// Low is a card's new lowest on-demand price.
type Low struct {
	GPU       string             `json:"gpu"`
	Platform  string             `json:"platform"`
	Price     float64            `json:"price"`
	PrevLow   float64            `json:"prev_low"`
	PrevLowAt time.Time          `json:"prev_low_at"`
	Currency  knowledge.Currency `json:"currency"`
}

// Price is one cheapest offer.
type Price struct {
	Platform   string             `json:"platform"`
	Offer      string             `json:"offer"`
	Price      float64            `json:"price"` // per card-hour, low end
	Currency   knowledge.Currency `json:"currency"`
	ObservedAt string             `json:"observed_at"`
	Freshness  string             `json:"freshness"` // live, recent, dated (knowledge.Offer.Freshness)
}

// Cheapest is a popular card's cheapest on-demand offer in each currency
// it is sold in (never converted).
type Cheapest struct {
	GPU    string  `json:"gpu"`
	Prices []Price `json:"prices"`
}

// Freshness is one source's age.
type Freshness struct {
	Name        string    `json:"name"`
	Offers      int       `json:"offers"`
	LastSuccess time.Time `json:"last_success,omitzero"`
	StaleSince  time.Time `json:"stale_since,omitzero"`
	AgeHours    float64   `json:"age_hours"`
	// Newest is the newest observed_at among the source's offers and
	// DataFreshness its class: a read an hour ago can bring March prices.
	Newest        string `json:"newest_observed,omitempty"`
	DataFreshness string `json:"data_freshness,omitempty"`
	// RowProblems counts rows of the last read that failed (malformed,
	// refused, unknown card in the team file); Carried the offers kept
	// from the read before because of them. A source problem, not a removal.
	RowProblems int `json:"row_problems,omitempty"`
	Carried     int `json:"carried,omitempty"`
}

// Removal is a source taken out of the configuration.
type Removal struct {
	Name   string `json:"name"`
	Offers int    `json:"offers"`
}

// Chart is the trend chart that goes with the post.
type Chart struct {
	Name     string             `json:"name"`
	Title    string             `json:"title"`
	Currency knowledge.Currency `json:"currency"`
	GPUs     []string           `json:"gpus"`
	Points   int                `json:"points"`
	Since    time.Time          `json:"since,omitzero"` // set when the history is shorter than the window
	// Lines are exactly the figures drawn: per card, the cheapest on-demand
	// price per card-hour at each point, by the rule "Cheapest now" uses.
	Lines []ChartLine `json:"lines"`
	PNG   []byte      `json:"-"`
}

// ChartLine is one card's line on the chart.
type ChartLine struct {
	GPU    string                `json:"gpu"`
	Points []catalog.SeriesPoint `json:"points"`
}

// Digest is one channel's daily post as data.
type Digest struct {
	Lang         string         `json:"lang"`
	At           time.Time      `json:"at"`
	Since        time.Time      `json:"since,omitzero"`
	First        bool           `json:"first"` // nothing to compare with yet
	GPUs         []string       `json:"gpus,omitempty"`
	ThresholdPct float64        `json:"threshold_pct"`
	Drops        []Move         `json:"drops"`
	Rises        []Move         `json:"rises"`
	MoreDrops    int            `json:"more_drops,omitempty"`
	MoreRises    int            `json:"more_rises,omitempty"`
	Lows         []Low          `json:"new_lows"`
	New          []Listing      `json:"new"`
	Gone         []Listing      `json:"gone"`
	MoreNew      int            `json:"more_new,omitempty"`
	MoreGone     int            `json:"more_gone,omitempty"`
	Availability []Availability `json:"availability"`
	Removed      []Removal      `json:"removed_sources,omitempty"`
	Cheapest     []Cheapest     `json:"cheapest"`
	Sources      []Freshness    `json:"sources"`
	Chart        *Chart         `json:"chart,omitempty"`
	Days         int            `json:"trend_days"`
	Location     string         `json:"location"`
	loc          *time.Location
	kb           *knowledge.Base
}

// Quiet reports whether nothing moved: no price change, no new or gone
// offer, no stock change, no new low.
func (d *Digest) Quiet() bool {
	return !d.First && len(d.Drops)+len(d.Rises)+len(d.Lows)+len(d.New)+len(d.Gone)+len(d.Availability)+len(d.Removed) == 0
}

// Compose builds the digest. Its only failure is a chart that cannot be
// drawn, which it reports by leaving Chart nil.
func Compose(in Input, opt Options) *Digest {
	opt = opt.withDefaults()
	f := in.Filter
	lang := string(present.LangOf(f.Lang)) // zh or en
	th := f.Thresholds()
	d := &Digest{Lang: lang, At: in.CurAt, First: !in.HasPrev, GPUs: f.GPUs, ThresholdPct: th.Pct,
		Days: opt.TrendDays, Location: opt.Location.String(), loc: opt.Location, kb: opt.KB,
		Drops: []Move{}, Rises: []Move{}, Lows: []Low{}, New: []Listing{}, Gone: []Listing{}, Availability: []Availability{}}
	if in.HasPrev {
		d.Since = in.PrevAt
		removed := map[string]bool{}
		for _, r := range in.Removed {
			d.Removed = append(d.Removed, Removal{Name: r.Name, Offers: r.Offers})
			for _, k := range r.Keys {
				removed[k] = true
			}
		}
		diff := catalog.Diff(in.Prev, in.Cur, th)
		for _, c := range diff.Changes {
			if !f.keeps(c.Offer.GPU) {
				continue
			}
			if c.Kind == catalog.KindDisappeared && removed[c.Key] {
				continue // its source was removed, the market did not drop it
			}
			switch c.Kind {
			case catalog.KindPriceDown:
				d.Drops = append(d.Drops, move(c))
			case catalog.KindPriceUp:
				d.Rises = append(d.Rises, move(c))
			case catalog.KindNew:
				if p, ok := in.LastSeen[c.Key]; ok && p.Currency == c.Currency && p.CardHourly > 0 && hourly(c.Offer) {
					if th.Counts(p.CardHourly, c.New, c.Currency) {
						m := move(c)
						m.Measure, m.Old, m.OldAt = catalog.MeasurePrice, p.CardHourly, p.At
						m.Pct = math.Round((c.New-p.CardHourly)/p.CardHourly*1000) / 10
						if c.New < p.CardHourly {
							d.Drops = append(d.Drops, m)
						} else {
							d.Rises = append(d.Rises, m)
						}
					}
					continue // back at the price it was last seen at: not news
				}
				d.New = append(d.New, listing(c, c.New))
			case catalog.KindDisappeared:
				d.Gone = append(d.Gone, listing(c, c.Old))
			case catalog.KindAvailability:
				d.Availability = append(d.Availability, Availability{GPU: c.Offer.GPU, Platform: c.Offer.Platform, Offer: c.Key,
					Old: c.OldAvailability, New: c.NewAvailability})
			}
		}
		d.Drops, d.MoreDrops = cut(d.Drops, opt.Top)
		d.Rises, d.MoreRises = cut(d.Rises, opt.Top)
		d.New, d.MoreNew = cut(d.New, opt.Top)
		d.Gone, d.MoreGone = cut(d.Gone, opt.Top)
		d.Availability, _ = cut(d.Availability, opt.Top)
		for _, l := range in.Lows {
			// A new low is news when it beats the old one by the threshold.
			if f.keeps(l.GPU) && l.PrevLow > 0 && (l.PrevLow-l.CardHourly)/l.PrevLow*100 >= th.Pct {
				d.Lows = append(d.Lows, Low{GPU: l.GPU, Platform: l.Offer.Platform, Price: l.CardHourly, PrevLow: l.PrevLow,
					PrevLowAt: l.PrevLowAt, Currency: l.Currency})
			}
		}
	}
	d.Cheapest = cheapestFor(cards(f, opt), in.Cur, opt.FX, in.Now)
	d.Sources = freshness(in.Sources, in.SourceData, in.Now)
	d.Chart = trend(in, d, opt)
	return d
}

func cut[T any](xs []T, n int) ([]T, int) {
	if len(xs) <= n {
		return xs, 0
	}
	return xs[:n], len(xs) - n
}

func hourly(o knowledge.Offer) bool {
	_, _, ok := o.CardHourly()
	return ok
}

func move(c catalog.Change) Move {
	o := c.Offer
	return Move{GPU: o.GPU, Platform: o.Platform, Offer: c.Key, Model: string(o.Model), Region: o.Region, Measure: c.Measure,
		Old: c.Old, New: c.New, Pct: math.Round(c.Pct*10) / 10, Currency: c.Currency, Hourly: hourly(o), Unit: string(o.Unit)}
}

func listing(c catalog.Change, price float64) Listing {
	o := c.Offer
	l := Listing{GPU: o.GPU, Platform: o.Platform, Offer: c.Key, Model: string(o.Model), Region: o.Region, Price: price,
		Currency: c.Currency, Hourly: hourly(o), Unit: string(o.Unit)}
	if lo, hi, ok := o.CardHourly(); ok && hi > lo && c.Measure == catalog.MeasureLow {
		l.High = math.Round(hi*10000) / 10000
	}
	return l
}

// cards are the cards the post's "cheapest" section and chart cover.
func cards(f Filter, opt Options) []string {
	if len(f.GPUs) > 0 {
		return f.GPUs
	}
	return opt.Popular
}

// cheapestFor finds each card's cheapest non-interruptible, by-the-hour
// offer in each currency, with the advisor's normalisation. Market ranges
// (cn-market, global-market) are context, not a place to rent: left out.
func cheapestFor(gpus []string, all []knowledge.Offer, fx float64, now time.Time) []Cheapest {
	offers := make([]knowledge.Offer, 0, len(all))
	for _, o := range all {
		if !strings.HasSuffix(o.Platform, "-market") {
			offers = append(offers, o)
		}
	}
	out := []Cheapest{}
	for _, g := range gpus {
		c := Cheapest{GPU: g}
		for _, cur := range []knowledge.Currency{knowledge.CNY, knowledge.USD} {
			cp, found, err := advisor.Cheapest(g, offers, cur, fx, advisor.OfferFilter{NoInterruptible: true, NativeOnly: true})
			if err != nil || !found {
				continue
			}
			f := knowledge.Offer{ObservedAt: cp.ObservedAt}.Freshness(now)
			c.Prices = append(c.Prices, Price{Platform: cp.Platform, Offer: cp.Offer, Price: cp.Low, Currency: cur,
				ObservedAt: cp.ObservedAt, Freshness: string(f)})
		}
		if len(c.Prices) > 0 {
			out = append(out, c)
		}
	}
	return out
}

func freshness(srcs []catalog.SourceStatus, newest map[string]string, now time.Time) []Freshness {
	out := make([]Freshness, 0, len(srcs))
	for _, s := range srcs {
		f := Freshness{Name: s.Name, Offers: s.Offers, LastSuccess: s.LastSuccess, StaleSince: s.StaleSince,
			RowProblems: s.RowProblems(), Carried: s.Carried}
		if n := newest[s.Name]; n != "" {
			f.Newest, f.DataFreshness = n, string(knowledge.Offer{ObservedAt: n}.Freshness(now))
		}
		if !s.LastSuccess.IsZero() {
			f.AgeHours = math.Round(now.Sub(s.LastSuccess).Hours()*10) / 10
		}
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// trend draws the chart: the cheapest on-demand price per day of the
// post's cards, in the post language's currency where there is data (CNY
// for Chinese, USD for English), else the other one. Without recorded
// history it draws the two catalogues it compared.
func trend(in Input, d *Digest, opt Options) *Chart {
	want := cards(in.Filter, opt)
	series := in.Series
	if len(series) == 0 && in.HasPrev {
		series = append(series, seriesOf(in.Prev, in.PrevAt, want, opt.FX)...)
		series = mergeSeries(series, seriesOf(in.Cur, in.CurAt, want, opt.FX))
	}
	order := []knowledge.Currency{knowledge.USD, knowledge.CNY}
	if present.LangOf(d.Lang) == present.ZH {
		order = []knowledge.Currency{knowledge.CNY, knowledge.USD}
	}
	for _, cur := range order {
		var pick []catalog.Series
		points := 0
		oldest := in.Now
		for _, g := range want {
			for _, s := range series {
				if s.GPU == g && s.Currency == cur && s.Class == catalog.ClassOnDemand && len(s.Points) > 0 {
					pick = append(pick, s)
					points += len(s.Points)
					for _, p := range s.Points {
						if p.At.Before(oldest) {
							oldest = p.At
						}
					}
				}
			}
			if len(pick) == opt.ChartGPUs {
				break
			}
		}
		if len(pick) == 0 {
			continue
		}
		title := "Cheapest on-demand price per card-hour, last " + strconv.Itoa(opt.TrendDays) + " days (" + string(cur) + ")"
		// A short history gets a short axis, not dots against a month of
		// empty grid.
		from, since := in.Now.AddDate(0, 0, -opt.TrendDays), time.Time{}
		if days := in.Now.Sub(oldest).Hours() / 24; days < float64(opt.TrendDays) {
			from, since = in.Now.AddDate(0, 0, -max(int(days)+2, 3)), oldest
			title = "Cheapest on-demand price per card-hour since " + oldest.In(opt.Location).Format("01-02") + " (" + string(cur) + ")"
		}
		png, err := chart.Trend(pick, chart.Options{Title: title, Location: opt.Location, From: from, To: in.Now.Add(12 * time.Hour)})
		if err != nil {
			continue
		}
		c := &Chart{Name: "gpu-prices-" + in.Now.In(opt.Location).Format(time.DateOnly) + ".png", Title: title, Currency: cur, Points: points, Since: since, PNG: png}
		for _, s := range pick {
			c.GPUs = append(c.GPUs, s.GPU)
			c.Lines = append(c.Lines, ChartLine{GPU: s.GPU, Points: s.Points})
		}
		return c
	}
	return nil
}

// seriesOf is one point per card and currency at `at`: the cheapest
// on-demand price per card-hour by exactly the rule of "Cheapest now"
// (cheapestFor), so the chart draws the figures the text states.
func seriesOf(offers []knowledge.Offer, at time.Time, gpus []string, fx float64) []catalog.Series {
	var out []catalog.Series
	for _, c := range cheapestFor(gpus, offers, fx, at) {
		for _, p := range c.Prices {
			out = append(out, catalog.Series{GPU: c.GPU, Currency: p.Currency, Class: catalog.ClassOnDemand,
				Points: []catalog.SeriesPoint{{At: at, CardHourly: p.Price}}})
		}
	}
	return out
}

func mergeSeries(a, b []catalog.Series) []catalog.Series {
	for _, s := range b {
		merged := false
		for i := range a {
			if a[i].GPU == s.GPU && a[i].Currency == s.Currency && a[i].Class == s.Class {
				a[i].Points = append(a[i].Points, s.Points...)
				merged = true
				break
			}
		}
		if !merged {
			a = append(a, s)
		}
	}
	return a
}
