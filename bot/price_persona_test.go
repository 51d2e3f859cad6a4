package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/advisor"
)

// teamPersona is a profile store with a persona per team and no platform
// limits.
type teamPersona map[string]string

func (p teamPersona) Platforms(context.Context, string) ([]string, error) { return nil, nil }
func (p teamPersona) Persona(_ context.Context, team string) (string, error) {
	return p[team], nil
}

// contracted are the platforms of the shipped snapshot an enterprise may be
// priced on in these answers: hyperscalers and dedicated GPU clouds that
// sign contracts (platforms.yaml and advisor/providers.go categories).
// Marketplaces (Vast.ai, Prime Intellect, Hyperbolic …) and market-wide
// ranges are not among them.
var notContracted = map[string]bool{"vastai": true, "primeintellect": true, "hyperbolic": true, "tensordock": true, "akash": true, "salad": true,
	"shadeform": true, "simplepod": true, "cn-market": true, "global-market": true}

// A team whose profile says persona=enterprise is priced on contracted
// clouds' uninterruptible offers only, in price, cost, monthly and buy
// answers, and each says so; a team without it still sees the marketplace
// listing that is cheapest ($1.2075 Prime Intellect H100 in the snapshot);
// spot asked for is still shown.
func TestEnterprisePersonaPricesContractedClouds(t *testing.T) {
	b := catalogueBot(t)
	b.UseProfiles(teamPersona{"TENT": "enterprise"})
	ask := func(team, q string) Answer {
		t.Helper()
		return b.Answer(context.Background(), Message{Text: q, Team: team, User: "U1", Slash: strings.HasPrefix(q, "/")})
	}

	v := priceView(t, ask("TENT", "/gpu price h100"))
	if len(v.Offers) == 0 || v.Persona == "" {
		t.Fatalf("enterprise price: %d offers, persona note %q", len(v.Offers), v.Persona)
	}
	for _, o := range v.Offers {
		if notContracted[o.Platform] || o.Interruptible {
			t.Errorf("enterprise quoted %s (%s, interruptible %v)", o.Platform, o.Billing, o.Interruptible)
		}
	}
	other := priceView(t, ask("TANY", "/gpu price h100"))
	var cheapest PriceOffer // the cheapest uninterruptible offer
	for _, o := range other.Offers {
		if !o.Interruptible {
			cheapest = o
			break
		}
	}
	if other.Persona != "" || cheapest.Platform != "primeintellect" || cheapest.Price != 1.2075 {
		t.Errorf("no persona: cheapest on demand %s $%v, note %q; want Prime Intellect $1.2075 (shown $1.21) and no filter", cheapest.Platform, cheapest.Price, other.Persona)
	}
	// Asked for spot: spot offers come back.
	spot := priceView(t, ask("TENT", "/gpu price h100 spot"))
	hasSpot := false
	for _, o := range spot.Offers {
		hasSpot = hasSpot || o.Interruptible
	}
	if !hasSpot {
		t.Error("an enterprise asking for spot sees no spot offer")
	}
	// The same filter from the question alone, in Chinese.
	if a := b.Answer(context.Background(), Message{Text: "h100 多少钱 persona=enterprise"}); !strings.Contains(a.Text, "企业：只按超大规模云") {
		t.Errorf("persona=enterprise in Chinese: the filter is not said: %q", a.Text)
	}
	// Cost, monthly and buy say the filter and record the persona as used.
	for _, q := range []string{"/gpu cost 70b inference tokens=100M on h100", "/gpu monthly h100 200h", "/gpu buy h100 util=50%"} {
		a := ask("TENT", q)
		if a.Err != "" || !strings.Contains(a.Text, "enterprise: priced on on-demand, monthly or reserved capacity") || a.Assumed["persona"] != "enterprise" {
			t.Errorf("%q as an enterprise: %q, assumed %v", q, a.Text, a.Assumed)
		}
	}
}

// A compare for an enterprise team lists contracted clouds' prices only:
// no marketplace offer is any row's cheapest on demand, and the filter is
// among the assumptions; another team still sees Prime Intellect's H100.
func TestEnterprisePersonaInCompare(t *testing.T) {
	b := catalogueBot(t)
	b.UseProfiles(teamPersona{"TENT": "enterprise"})
	ask := func(team string) Answer {
		return b.Answer(context.Background(), Message{Text: "/gpu compare h100 a100", Team: team, User: "U1", Slash: true})
	}
	a := ask("TENT")
	res, ok := a.Result.(advisor.Comparison)
	if !ok || len(res.Rows) != 2 || len(res.Assumptions) == 0 {
		t.Fatalf("enterprise compare: %T %+v", a.Result, a.Result)
	}
	for _, r := range res.Rows {
		if r.OnDemand != nil && notContracted[r.OnDemand.Platform] {
			t.Errorf("enterprise compare: %s cheapest on %s", r.GPU, r.OnDemand.Platform)
		}
	}
	other := ask("TANY").Result.(advisor.Comparison)
	if other.Rows[0].OnDemand == nil || other.Rows[0].OnDemand.Platform != "primeintellect" {
		t.Errorf("other team: H100 cheapest %+v, want Prime Intellect", other.Rows[0].OnDemand)
	}
}
