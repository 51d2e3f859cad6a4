package source

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Every provider of the shipped market snapshot has a display name, in
// platforms.yaml or providers.yaml, so no answer shows a raw id such as
// "primeintellect" or "packet_ai". The snapshot has 59 providers
// (shared/market/SOURCES.md).
func TestEveryMarketProviderHasADisplayName(t *testing.T) {
	if err := knowledge.ProvidersError(); err != nil {
		t.Fatal(err)
	}
	base := knowledge.MustShipped()
	ps, err := MarketProviders(base)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 59 {
		t.Errorf("%d providers in the snapshot, want 59", len(ps))
	}
	for _, p := range ps {
		if pl, ok := base.Platform(p.Platform); ok && pl.Name != "" {
			continue
		}
		pr, ok := knowledge.LookupProvider(p.Platform)
		if !ok || pr.Name == "" || pr.Name == p.Platform {
			t.Errorf("provider %q has no display name", p.Platform)
		}
	}
	for id, want := range map[string]string{"primeintellect": "Prime Intellect", "packet_ai": "Packet AI", "hot-aisle": "Hot Aisle"} {
		if pr, _ := knowledge.LookupProvider(id); pr.Name != want {
			t.Errorf("%s: %q, want %q", id, pr.Name, want)
		}
	}
}
