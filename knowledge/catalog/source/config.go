package source

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// Config says which sources are on. Everything is off unless configured,
// except the shipped seeds; nothing here reads the environment (cmd/bot
// does and fills this in).
type Config struct {
	NoShipped bool   // leave the shipped seeds out
	File      string // CATALOG_FILE: team price file, .yaml/.yml or .csv

	// Hosted catalogues: "provider=location" or a bare location whose
	// provider ProviderFromPath can read (".../v7/lambda/vms.csv",
	// "runpod.csv"). Locations are file paths or http(s) URLs.
	SkyPilot []string
	GPUHunt  []string

	VastAPIKey string // on when set
	VastURL    string

	RunPodAPIKey     string // on when set: GraphQL, or REST v2 when RunPodCatalogURL is set
	RunPodURL        string
	RunPodCatalogURL string

	LambdaAPIKey string // on when set
	LambdaURL    string

	AzureURL      string // on when set (AzureURL is the public endpoint; no key)
	AzureCurrency knowledge.Currency

	// Public turns on the keyless public catalogues (SkyPilot per-cloud
	// CSVs and gpuhunt's catalogue); nil leaves them off.
	Public *PublicConfig

	// GPUNames adds provider spellings to every source's mapper.
	GPUNames map[string]string
	HTTP     HTTPOptions
}

// FromConfig builds the configured sources, shipped first and the team file
// last. Source names are unique; a second hosted catalogue for the same
// provider is an error, except that an explicitly configured SkyPilot
// cloud replaces the public default for that cloud.
func FromConfig(cfg Config, base *knowledge.Base) ([]catalog.Source, error) {
	m := NewMapper(base, cfg.GPUNames)
	var out []catalog.Source
	if !cfg.NoShipped {
		out = append(out, &Shipped{Base: base})
	}
	for _, spec := range cfg.SkyPilot {
		p, loc := splitSpec(spec)
		out = append(out, &SkyPilot{Provider: p, Location: loc, Mapper: m, Base: base, HTTP: cfg.HTTP})
	}
	for _, spec := range cfg.GPUHunt {
		p, loc := splitSpec(spec)
		out = append(out, &GPUHunt{Provider: p, Location: loc, Mapper: m, Base: base, HTTP: cfg.HTTP})
	}
	if cfg.Public != nil {
		out = append(out, publicSources(*cfg.Public, m, base, cfg.HTTP)...)
	}
	if cfg.VastAPIKey != "" {
		out = append(out, &Vast{URL: cfg.VastURL, APIKey: cfg.VastAPIKey, Mapper: m, HTTP: cfg.HTTP})
	}
	if cfg.RunPodAPIKey != "" {
		if cfg.RunPodCatalogURL != "" {
			out = append(out, &RunPodREST{URL: cfg.RunPodCatalogURL, APIKey: cfg.RunPodAPIKey, Mapper: m, HTTP: cfg.HTTP})
		} else {
			out = append(out, &RunPod{URL: cfg.RunPodURL, APIKey: cfg.RunPodAPIKey, Mapper: m, HTTP: cfg.HTTP})
		}
	}
	if cfg.LambdaAPIKey != "" {
		out = append(out, &Lambda{URL: cfg.LambdaURL, APIKey: cfg.LambdaAPIKey, Mapper: m, HTTP: cfg.HTTP})
	}
	if cfg.AzureURL != "" {
		out = append(out, &Azure{URL: cfg.AzureURL, Currency: cfg.AzureCurrency, Mapper: m, HTTP: cfg.HTTP})
	}
	if cfg.File != "" {
		out = append(out, &File{Path: cfg.File, Mapper: m, Base: base})
	}
	out = dropShadowedDefaults(out, cfg)
	seen := map[string]bool{}
	for _, s := range out {
		if seen[s.Name()] {
			return nil, fmt.Errorf("catalogue source %q configured twice", s.Name())
		}
		seen[s.Name()] = true
	}
	return out, nil
}

func splitSpec(spec string) (provider, loc string) {
	if p, l, ok := strings.Cut(spec, "="); ok && !strings.Contains(p, "/") && !strings.Contains(p, ":") {
		return strings.TrimSpace(p), strings.TrimSpace(l)
	}
	return ProviderFromPath(spec), strings.TrimSpace(spec)
}

// dropShadowedDefaults removes a public default SkyPilot cloud that is
// also configured explicitly (CATALOG_SKYPILOT=lambda=…): the explicit
// location wins.
func dropShadowedDefaults(srcs []catalog.Source, cfg Config) []catalog.Source {
	if cfg.Public == nil {
		return srcs
	}
	explicit := map[string]int{}
	for _, s := range srcs {
		explicit[s.Name()]++
	}
	out := srcs[:0]
	for _, s := range srcs {
		if sp, ok := s.(*SkyPilot); ok && explicit[s.Name()] > 1 && strings.HasPrefix(sp.Location, publicBase(cfg)) {
			explicit[s.Name()]--
			continue
		}
		out = append(out, s)
	}
	return out
}

func publicBase(cfg Config) string {
	if b := strings.TrimSuffix(cfg.Public.SkyPilotBase, "/"); b != "" {
		return b
	}
	return DefaultSkyPilotBase
}
