package knowledge

import (
	"bytes"
	"fmt"
	"sync"

	"go.yaml.in/yaml/v3"
)

// ProviderName is how answers name a price provider that platforms.yaml
// does not describe (the public market snapshot lists some 50 of them).
// Its name is for answers; only the Aliases listed are words the parser
// reads as the provider ("CoreWeave", "OCI") — a name that is also an
// everyday word ("Latitude", "Verda") is never one.
type ProviderName struct {
	ID      string   `yaml:"id"`
	Name    string   `yaml:"name"`
	NameZH  string   `yaml:"name_zh"` // only where the provider uses a Chinese name
	Aliases []string `yaml:"aliases"`
}

// ProviderAliases are the providers the parser reads by name: id → the
// spellings listed in providers.yaml.
func ProviderAliases() map[string][]string {
	LookupProvider("")
	out := map[string][]string{}
	for _, p := range providerNames.byID {
		if len(p.Aliases) > 0 {
			out[p.ID] = p.Aliases
		}
	}
	return out
}

var providerNames struct {
	once sync.Once
	byID map[string]ProviderName
	err  error
}

// LookupProvider returns the display name of a provider id as price
// sources spell it ("hot_aisle", "primeintellect"); ids are matched after
// NormalizeName, so "hot-aisle" finds it too.
func LookupProvider(id string) (ProviderName, bool) {
	providerNames.once.Do(func() { providerNames.byID, providerNames.err = loadProviders() })
	if providerNames.err != nil {
		return ProviderName{}, false
	}
	if p, ok := providerNames.byID[id]; ok { // ids are mostly written normalised already
		return p, true
	}
	p, ok := providerNames.byID[NormalizeName(id)]
	return p, ok
}

// ProvidersError reports whether the embedded provider names decode; a
// test holds it to nil, so LookupProvider's silence on a bad file cannot
// ship.
func ProvidersError() error {
	LookupProvider("")
	return providerNames.err
}

func loadProviders() (map[string]ProviderName, error) {
	raw, err := dataFS.ReadFile("data/providers.yaml")
	if err != nil {
		return nil, fmt.Errorf("read data/providers.yaml: %w", err)
	}
	var list []ProviderName
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&list); err != nil {
		return nil, fmt.Errorf("decode data/providers.yaml: %w", err)
	}
	out := make(map[string]ProviderName, len(list))
	for _, p := range list {
		k := NormalizeName(p.ID)
		if p.ID == "" || p.Name == "" {
			return nil, fmt.Errorf("data/providers.yaml: provider %q needs an id and a name", p.ID)
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("data/providers.yaml: provider %q listed twice", p.ID)
		}
		out[k] = p
	}
	return out, nil
}
