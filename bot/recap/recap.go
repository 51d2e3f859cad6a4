// Package recap builds the monthly spend recap: a team's GPU spend and
// card-hours for a month by project, card and platform, the change from
// the month before, the three findings worth acting on — computed by the
// advisor from the team's own ledger and today's catalogue — and a chart
// of spend by project, rendered as Block Kit and plain text in Chinese or
// English.
//
// Compose is pure: ledger entries and offers in, a Recap out. Recaps does
// the I/O (ledger, catalogue) and is the scheduler's Delivery for the post
// on the 1st of the month.
package recap

import (
	"context"
	"sort"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/profile"
	"github.com/gpubot/gpubot/knowledge"
)

// Options shape the recap. Zero values take the defaults noted.
type Options struct {
	Location *time.Location // BOT_TIMEZONE: month boundaries and dates; Asia/Shanghai when nil
	FX       float64        // CNY per USD for converted totals, the chart and ranking findings; advisor default when 0
	KB       *knowledge.Base
	Findings int // findings listed; 3
	Months   int // months of usage behind the buy finding; 3
	Groups   int // rows per rollup in the post; 6
	// Profiles, when set, gives each team's profile: its allowed platforms
	// bound the findings, its FX (when set) replaces FX above.
	Profiles profileSource
}

// profileSource is the team profile store (*profile.Store).
type profileSource interface {
	Get(ctx context.Context, team string) (profile.Profile, error)
}

func (o Options) withDefaults() Options {
	if o.Location == nil {
		o.Location = ledger.Shanghai
	}
	if o.FX <= 0 {
		o.FX = advisor.DefaultCNYPerUSD
	}
	if o.Findings <= 0 {
		o.Findings = 3
	}
	if o.Months <= 0 {
		o.Months = 3
	}
	if o.Groups <= 0 {
		o.Groups = 6
	}
	return o
}

// fx converts every amount to CNY at the configured rate.
func (o Options) fx() *ledger.FX {
	return &ledger.FX{To: knowledge.CNY, Rates: map[knowledge.Currency]float64{knowledge.USD: o.FX}}
}

// MonthEntries is one month of a team's ledger.
type MonthEntries struct {
	Month   ledger.Month   `json:"month"`
	Entries []ledger.Entry `json:"entries"`
}

// Input is what Compose works from.
type Input struct {
	Team  string
	Month ledger.Month
	// History is the team's ledger by month, the recapped month last:
	// at least it and the month before; Options.Months for the buy finding.
	History []MonthEntries
	Offers  []knowledge.Offer // today's catalogue, for the findings
	Lang    string
	Now     time.Time
	// Platforms, when not empty, are the platforms the team may use (its
	// profile): a finding never suggests moving work anywhere else.
	Platforms []string
	// Budgets are the team's budgets against the month's actual spend,
	// one sentence each (budget.Alerts.Versus), in Lang.
	Budgets []string
	// Commitments are the prepaid terms running at the month's end, with
	// their renewal dates (ledger.Commitments).
	Commitments []ledger.Commitment
}

// allowed reports whether the team may use platform p.
func (in Input) allowed(p string) bool {
	if len(in.Platforms) == 0 {
		return true
	}
	for _, q := range in.Platforms {
		if q == p {
			return true
		}
	}
	return false
}

// entries returns the entries of month m in the history.
func (in Input) entries(m ledger.Month) []ledger.Entry {
	for _, h := range in.History {
		if h.Month == m {
			return h.Entries
		}
	}
	return nil
}

// Recap is one team's month as the post shows it.
type Recap struct {
	Lang     string         `json:"lang"`
	Team     string         `json:"team"`
	Month    ledger.Month   `json:"month"`
	Prev     ledger.Month   `json:"prev"`
	Report   *ledger.Report `json:"report"`
	FX       float64        `json:"fx"`
	Findings []Finding      `json:"findings"`
	Chart    *Chart         `json:"chart,omitempty"`
	Location string         `json:"location"`
	// Budgets, Forecast and Commitments: budget vs actual, the next
	// month's forecast (committed + run rate, with its range and method)
	// and the prepaid terms with their renewal dates.
	Budgets     []string            `json:"budgets,omitempty"`
	Forecast    *ledger.Forecast    `json:"forecast,omitempty"`
	Commitments []ledger.Commitment `json:"commitments,omitempty"`
	rows        int
	kb          *knowledge.Base
}

// Empty reports whether the team logged nothing this month or the one
// before.
func (r *Recap) Empty() bool { return r.Report.Total.Entries == 0 && r.Report.Prev.Entries == 0 }

// Chart is the spend-by-project chart that goes with the post.
type Chart struct {
	Name     string   `json:"name"`
	Title    string   `json:"title"`
	Projects []string `json:"projects"`
	PNG      []byte   `json:"-"`
}

// Compose builds the recap: the rollups (ledger.Summarize, converted at
// Options.FX), the findings and the chart.
func Compose(in Input, opt Options) *Recap {
	opt = opt.withDefaults()
	lang := in.Lang
	if lang != "zh" {
		lang = "en"
	}
	cur, prev := in.entries(in.Month), in.entries(in.Month.Prev())
	rep := ledger.Summarize(in.Team, in.Month, opt.Location, cur, prev, opt.fx())
	r := &Recap{Lang: lang, Team: in.Team, Month: in.Month, Prev: in.Month.Prev(), Report: rep, FX: opt.FX,
		Location: opt.Location.String(), rows: opt.Groups, kb: opt.KB}
	r.Findings = findings(in, opt)
	if len(r.Findings) > opt.Findings {
		r.Findings = r.Findings[:opt.Findings]
	}
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	r.Chart = spendChart(r, opt)
	r.Budgets = in.Budgets
	r.Commitments = in.Commitments
	var terms []ledger.Entry
	for _, c := range in.Commitments {
		terms = append(terms, c.Entry)
	}
	for _, h := range in.History {
		for _, e := range h.Entries {
			if e.TermMonths > 1 {
				terms = append(terms, e)
			}
		}
	}
	if f, ok := ledger.ForecastNext(cur, terms, in.Month, opt.Location, opt.fx()); ok {
		r.Forecast = &f
	}
	return r
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
