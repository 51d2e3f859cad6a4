package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

type allowOnly map[string][]string // team → allowed platforms

func (p allowOnly) Platforms(_ context.Context, team string) ([]string, error) { return p[team], nil }

// A team whose profile allows only Aliyun is quoted Aliyun only, and the
// working says the list was limited; another team, with no profile, still
// sees every platform (so the filter is what made the difference).
func TestPriceRespectsTeamPlatforms(t *testing.T) {
	offers, err := source.ShippedOffers(knowledge.MustShipped())
	if err != nil {
		t.Fatal(err)
	}
	// The shipped snapshot has no Aliyun H100; list one (a copy of the
	// first H100 offer under Aliyun's name) so the team has something.
	for _, o := range offers {
		if o.GPU == "h100-sxm" {
			o.Platform, o.Key = "aliyun", "aliyun-h100-test"
			offers = append(offers, o)
			break
		}
	}
	b := newTestBot(t)
	b.UsePrices(shippedPrices(offers))
	b.UseProfiles(allowOnly{"TALI": {"aliyun"}})

	a := b.Answer(context.Background(), Message{Text: "/gpu price h100", Team: "TALI", User: "U1", Slash: true})
	v := priceView(t, a)
	if len(v.Offers) == 0 {
		t.Fatalf("no offers for an Aliyun-only team: %s", a.Text)
	}
	for _, o := range v.Offers {
		if o.Platform != "aliyun" {
			t.Errorf("an Aliyun-only team was quoted %s", o.Platform)
		}
	}
	if !hasStep(a.Working, "allowed platforms were priced: aliyun") {
		t.Errorf("working does not say offers were limited to aliyun: %+v", a.Working)
	}
	if got := a.Assumed["platforms"]; got == nil {
		t.Error("assumed values do not name the allowed platforms")
	}

	other := priceView(t, b.Answer(context.Background(), Message{Text: "/gpu price h100", Team: "TANY", User: "U1", Slash: true}))
	platforms := map[string]bool{}
	for _, o := range other.Offers {
		platforms[o.Platform] = true
	}
	if len(platforms) < 2 {
		t.Errorf("a team with no profile saw platforms %v; want several", platforms)
	}
}

func hasStep(ws []present.Step, substr string) bool {
	for _, w := range ws {
		if strings.Contains(w.Label, substr) {
			return true
		}
	}
	return false
}
