package advisor

import (
	"github.com/gpubot/gpubot/knowledge"
)

// ExportCard is one card's export-control status for mainland China.
type ExportCard struct {
	GPU     string   `json:"gpu"`
	Status  string   `json:"status"` // allowed, licence_required, banned, unknown
	Policy  Text     `json:"policy"`
	Rule    string   `json:"rule,omitempty"`
	Date    string   `json:"date,omitempty"`
	Sources []string `json:"sources,omitempty"`
}

// Restricted reports whether a card cannot simply be bought new in
// mainland China (a licence is required, or it is not sold).
func (c ExportCard) Restricted() bool {
	return c.Status == knowledge.ExportLicence || c.Status == knowledge.ExportBanned
}

// ExportResult answers "can we buy this card in China?".
type ExportResult struct {
	Cards []ExportCard `json:"cards"`
	// Allowed are the cards the table lists as sold without a licence: the
	// options for a team in mainland China.
	Allowed     []string `json:"allowed"`
	AsOf        string   `json:"as_of"`
	Assumptions []Text   `json:"assumptions"`
}

// Export looks each card up in the sourced status table. A card the table
// does not list is "unknown", said as such, never guessed.
func Export(e knowledge.ExportControls, gpus []string) ExportResult {
	res := ExportResult{AsOf: e.AsOf}
	for _, g := range gpus {
		r, ok := e.For(g)
		if !ok {
			res.Cards = append(res.Cards, ExportCard{GPU: g, Status: "unknown", Policy: txt(
				"the sourced export-control table has no row for this card: check its ECCN classification with the vendor",
				"有出处的出口管制表里没有这张卡：请向供应商确认其 ECCN 分类")})
			continue
		}
		res.Cards = append(res.Cards, ExportCard{GPU: g, Status: r.Status, Policy: txt(r.Policy, r.PolicyZH), Rule: r.Rule, Date: r.Date, Sources: r.Sources})
	}
	for _, r := range e.Cards {
		if r.Status == knowledge.ExportAllowed {
			res.Allowed = append(res.Allowed, r.GPUs...)
		}
	}
	res.Assumptions = []Text{
		txt("status as of the latest sourced event ("+e.AsOf+"; "+e.AsOfNote+"): rules changed several times in 2025–2026",
			"状态以有出处的最新事件为准（"+e.AsOf+"；"+e.AsOfNote+"）：2025–2026 年规则多次变化"),
		txt("a reference summary of what the sources report, not legal advice: confirm the ECCN classification and licence status with the vendor or counsel before buying",
			"这是对公开来源的整理，不构成法律意见：采购前请向供应商或律师确认 ECCN 分类与许可状态"),
	}
	return res
}

// ExportOf is one card's status (Status "unknown" when the table has no row).
func ExportOf(e knowledge.ExportControls, gpu string) ExportCard {
	return Export(e, []string{gpu}).Cards[0]
}
