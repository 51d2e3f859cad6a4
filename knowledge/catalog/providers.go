package catalog

import (
	"sort"
	"time"

	"github.com/gpubot/gpubot/knowledge"
)

// ProviderSummary is one platform's share of a catalogue: how many offers,
// for how many cards, and how old its prices are.
type ProviderSummary struct {
	Platform  string              `json:"platform"`
	Offers    int                 `json:"offers"`
	GPUs      int                 `json:"gpus"`   // distinct cards
	Newest    string              `json:"newest"` // latest observed_at (as written)
	Oldest    string              `json:"oldest"`
	Freshness knowledge.Freshness `json:"freshness"` // of the newest offer
	Sources   []string            `json:"sources"`   // catalogue sources it came from (shipped, skypilot-aws, …)
}

// Providers summarises offers per platform, sorted by platform id. source
// names the catalogue source of each offer by key (View.SourceOf); nil
// leaves Sources empty.
func Providers(offers []knowledge.Offer, now time.Time, source func(key string) string) []ProviderSummary {
	type acc struct {
		s       ProviderSummary
		gpus    map[string]bool
		srcs    map[string]bool
		newestT time.Time
		newestO knowledge.Offer
	}
	by := map[string]*acc{}
	for _, o := range offers {
		a, ok := by[o.Platform]
		if !ok {
			a = &acc{s: ProviderSummary{Platform: o.Platform}, gpus: map[string]bool{}, srcs: map[string]bool{}}
			by[o.Platform] = a
		}
		a.s.Offers++
		a.gpus[o.GPU] = true
		if source != nil {
			if n := source(o.Key); n != "" {
				a.srcs[n] = true
			}
		}
		t, err := o.Observed()
		if err != nil {
			continue
		}
		if a.newestT.IsZero() || t.After(a.newestT) {
			a.newestT, a.newestO, a.s.Newest = t, o, o.ObservedAt
		}
		if a.s.Oldest == "" || o.ObservedAt < a.s.Oldest {
			a.s.Oldest = o.ObservedAt
		}
	}
	out := make([]ProviderSummary, 0, len(by))
	for _, a := range by {
		a.s.GPUs = len(a.gpus)
		a.s.Freshness = a.newestO.Freshness(now)
		for n := range a.srcs {
			a.s.Sources = append(a.s.Sources, n)
		}
		sort.Strings(a.s.Sources)
		out = append(out, a.s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Platform < out[j].Platform })
	return out
}

// SourceOf returns a lookup from offer key to the source that supplies
// it in this view (the winning one where sources share a key). Before the
// first refresh every offer is the shipped catalogue's.
func (v *View) SourceOf() func(key string) string {
	if v.bySource == nil {
		return func(string) string { return ShippedSource }
	}
	winner := map[string]string{}
	rank := map[string]int{}
	for name, offers := range v.bySource {
		for _, o := range offers {
			r, seen := rank[o.Key]
			if !seen || sourceRank(name) > r || (sourceRank(name) == r && name > winner[o.Key]) {
				winner[o.Key], rank[o.Key] = name, sourceRank(name)
			}
		}
	}
	return func(key string) string { return winner[key] }
}

// NewestObserved is each source's newest observed_at (as written), so a
// status line can date the data a source serves, not only its last read.
func (v *View) NewestObserved() map[string]string {
	out := map[string]string{}
	offers := v.bySource
	if offers == nil {
		offers = map[string][]knowledge.Offer{ShippedSource: v.Offers}
	}
	for name, os := range offers {
		var best time.Time
		for _, o := range os {
			if t, err := o.Observed(); err == nil && t.After(best) {
				best, out[name] = t, o.ObservedAt
			}
		}
	}
	return out
}
