package advisor

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// An enterprise is priced on contracted clouds only: a $1.5 marketplace
// listing (vastai) and a $1.0 spot price on AWS are left out, AWS's $6.88
// on-demand H100 (Compux 2026) is what the ranking and its value use;
// asked with spot, the spot price comes back. Other personas keep all.
func TestEnterpriseRentsFromContractedClouds(t *testing.T) {
	m := testMarket(t,
		hourly("vast-h100", "vastai", "h100-sxm", 1.5, 1.5, knowledge.USD, knowledge.OnDemand),
		hourly("aws-h100-spot", "aws", "h100-sxm", 1.0, 1.0, knowledge.USD, knowledge.Spot),
		hourly("aws-h100", "aws", "h100-sxm", 6.88, 6.88, knowledge.USD, knowledge.OnDemand))
	keys := func(m Market) []string {
		var out []string
		for _, o := range m.Offers {
			out = append(out, o.Key)
		}
		return out
	}
	for _, c := range []struct {
		persona string
		spot    bool
		want    []string
	}{
		{"enterprise", false, []string{"aws-h100"}},
		{"企业", false, []string{"aws-h100"}},
		{"enterprise", true, []string{"aws-h100-spot", "aws-h100"}},
		{"startup", false, []string{"vast-h100", "aws-h100-spot", "aws-h100"}},
	} {
		got, note := m.ForPersona(c.persona, c.spot)
		if g := keys(got); len(g) != len(c.want) || (len(g) > 0 && g[0] != c.want[0]) {
			t.Errorf("ForPersona(%s, spot %v) = %v, want %v", c.persona, c.spot, g, c.want)
		}
		if (c.persona == "startup") != (note.EN == "") {
			t.Errorf("ForPersona(%s) note %q", c.persona, note.EN)
		}
	}
	r, err := Recommend(RecommendInput{Workload: Workload{ParamsB: 70, Method: Inference}, Persona: "enterprise", Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	if row := r.Rankings[0].Rows[0]; row.Platform != "aws" || row.Price != 6.88 {
		t.Errorf("Recommend(enterprise) first row %s at %v, want aws at $6.88", row.Platform, row.Price)
	}
}
