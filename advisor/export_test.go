package advisor

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// export_controls.md, status table: H20 "licence" (requirement from
// 2025-04-09; CAC discouraged, customs crackdown Oct 2025), H800 "licence"
// (presumption of denial since Oct 2023), 4090D "yes", B200 "no".
func TestExportStatusFromTheTable(t *testing.T) {
	e := knowledge.MustShipped().Export
	r := Export(e, []string{"h20", "h800", "rtx4090d", "b200", "rtx3090"})
	want := []string{knowledge.ExportLicence, knowledge.ExportLicence, knowledge.ExportAllowed, knowledge.ExportBanned, "unknown"}
	for i, c := range r.Cards {
		if c.Status != want[i] {
			t.Errorf("%s: %s, want %s", c.GPU, c.Status, want[i])
		}
	}
	if r.Cards[0].Date != "2025-10-09" || !r.Cards[0].Restricted() || r.Cards[2].Restricted() {
		t.Errorf("H20 dated %q restricted %v; 4090D restricted %v", r.Cards[0].Date, r.Cards[0].Restricted(), r.Cards[2].Restricted())
	}
	if len(r.Assumptions) < 2 || r.AsOf != "2026-06" {
		t.Errorf("want the as-of date and the not-legal-advice note, got %+v", r.Assumptions)
	}
	allowed := map[string]bool{}
	for _, g := range r.Allowed {
		allowed[g] = true
	}
	if !allowed["rtx4090d"] || !allowed["l20"] || !allowed["ascend-910b"] || allowed["h20"] {
		t.Errorf("allowed = %v", r.Allowed)
	}
}
