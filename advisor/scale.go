package advisor

import (
	"fmt"

	"github.com/gpubot/gpubot/knowledge"
)

// ClusterCards is the largest plan a single listing is assumed to supply:
// one 8-GPU machine. Marketplace and retail listings are single hosts;
// more cards than this are priced on sellers of whole clusters.
const ClusterCards = 8

// ClusterPrice is the cheapest on-demand price of a seller of whole 8-GPU
// machines (clouds and neoclouds) from the sourced rows.
type ClusterPrice struct {
	Provider   string               `json:"provider"`
	Instance   string               `json:"instance"`
	PerGPUHour float64              `json:"per_gpu_hour"` // answer currency, low end
	Figure     string               `json:"figure"`
	Date       string               `json:"date"`
	Source     string               `json:"source"`
	Confidence knowledge.Confidence `json:"confidence"`
	How        string               `json:"how"`
}

// ClusterRent picks, for gpu, the cheapest on-demand row of a provider
// selling 8-GPU machines, dated 2025 or later and not low confidence (an
// aggregator's range or a stale list price is context, not a rent).
func ClusterRent(rows []knowledge.ReservedPrice, gpu string, cur knowledge.Currency, fx float64) (ClusterPrice, bool) {
	var best ClusterPrice
	found := false
	for _, r := range rows {
		if r.GPU != gpu || r.Term != "on_demand" || r.GPUs < ClusterCards || r.Confidence == knowledge.Low || r.Year() < 2025 {
			continue
		}
		lo, _, ok := r.GPUHour()
		if !ok {
			continue
		}
		lo = Convert(lo, r.Currency, cur, fx)
		if found && lo >= best.PerGPUHour {
			continue
		}
		found = true
		best = ClusterPrice{Provider: r.Provider, Instance: r.Instance, PerGPUHour: round(lo, 4),
			Figure: priceText(r.Low, r.High, r.Currency, r.Unit), Date: r.Date, Confidence: r.Confidence,
			Source: fmt.Sprintf("%s — %s (confidence %s)", r.SourceTitle, r.SourceURL, r.Confidence)}
		best.How = fmt.Sprintf("%s %s on demand %s (%s, %s) = %s/card-hour", r.Provider, r.Instance, best.Figure, r.SourceTitle, r.Date, money(best.PerGPUHour, cur))
	}
	return best, found
}
