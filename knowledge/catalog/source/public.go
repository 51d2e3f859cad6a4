package source

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// Public catalogues that need no key: on by default in `bot serve`
// (CATALOG_PUBLIC=off turns them off; the URLs can point at mirrors).
const (
	// DefaultSkyPilotBase is SkyPilot's hosted catalogue, schema v7 (kept
	// up to date upstream every few hours); <base>/<cloud>/vms.csv.
	DefaultSkyPilotBase = "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v7"
	// DefaultGPUHuntBase is gpuhunt's published catalogue, v2:
	// <base>/version names the latest build, <base>/<version>/catalog.zip
	// holds one <provider>.csv per offline provider.
	DefaultGPUHuntBase = "https://dstack-gpu-pricing.s3.eu-west-1.amazonaws.com/v2"
)

// DefaultSkyPilotClouds are the SkyPilot clouds read by default: those
// gpuhunt's catalogue does not cover, so no platform comes from both.
var DefaultSkyPilotClouds = []string{"vast", "cudo", "fluidstack", "hyperbolic", "paperspace", "do"}

// PublicConfig turns on the keyless public catalogues.
type PublicConfig struct {
	SkyPilotBase   string   // "" = DefaultSkyPilotBase
	SkyPilotClouds []string // nil = DefaultSkyPilotClouds
	GPUHuntBase    string   // "" = DefaultGPUHuntBase
}

// publicSources builds the SkyPilot per-cloud sources and the gpuhunt
// catalogue for cfg.
func publicSources(cfg PublicConfig, m *Mapper, base *knowledge.Base, h HTTPOptions) []catalog.Source {
	sky := strings.TrimSuffix(cfg.SkyPilotBase, "/")
	if sky == "" {
		sky = DefaultSkyPilotBase
	}
	clouds := cfg.SkyPilotClouds
	if clouds == nil {
		clouds = DefaultSkyPilotClouds
	}
	var out []catalog.Source
	for _, c := range clouds {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		out = append(out, &SkyPilot{Provider: c, Location: sky + "/" + c + "/vms.csv", Mapper: m, Base: base, HTTP: h})
	}
	gh := strings.TrimSuffix(cfg.GPUHuntBase, "/")
	if gh == "" {
		gh = DefaultGPUHuntBase
	}
	return append(out, &GPUHuntCatalog{BaseURL: gh, Mapper: m, Base: base, HTTP: h})
}

// GPUHuntCatalog reads gpuhunt's whole published catalogue: the latest
// version, then its zip of per-provider CSVs, each parsed as GPUHunt does.
// Offers are dated by the catalogue build (the version's YYYYMMDD, from
// the start of that day), not by the fetch, so a catalogue built days ago
// is never called live.
type GPUHuntCatalog struct {
	BaseURL string // e.g. DefaultGPUHuntBase
	Mapper  *Mapper
	Base    *knowledge.Base
	HTTP    HTTPOptions
}

// Name is "gpuhunt".
func (g *GPUHuntCatalog) Name() string { return "gpuhunt" }

// Fetch reads the version, then the catalogue zip.
func (g *GPUHuntCatalog) Fetch(ctx context.Context, now time.Time) (*catalog.Batch, error) {
	base := strings.TrimSuffix(g.BaseURL, "/")
	raw, err := g.HTTP.withDefaults().do(ctx, request{method: http.MethodGet, url: base + "/version"})
	if err != nil {
		return nil, fmt.Errorf("gpuhunt version: %w", err)
	}
	version := strings.TrimSpace(string(raw))
	if version == "" || strings.ContainsAny(version, "/?#\n ") {
		return nil, fmt.Errorf("gpuhunt version: %q is not a catalogue version", truncate(version, 40))
	}
	zipped, err := g.HTTP.withDefaults().do(ctx, request{method: http.MethodGet, url: base + "/" + version + "/catalog.zip"})
	if err != nil {
		return nil, fmt.Errorf("gpuhunt catalogue %s: %w", version, err)
	}
	return g.Parse(zipped, version, now)
}

// Parse reads a catalogue zip of the given version.
func (g *GPUHuntCatalog) Parse(zipped []byte, version string, now time.Time) (*catalog.Batch, error) {
	zr, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		return nil, fmt.Errorf("gpuhunt catalogue %s: %w", version, err)
	}
	observed := now
	if built, err := time.Parse("20060102", strings.SplitN(version, "-", 2)[0]); err == nil && built.Before(now) {
		observed = built
	}
	out := &catalog.Batch{Ref: "gpuhunt:v2/" + version}
	files := append([]*zip.File(nil), zr.File...)
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	for _, f := range files {
		if path.Ext(f.Name) != ".csv" || f.FileInfo().IsDir() {
			continue
		}
		provider := strings.TrimSuffix(path.Base(f.Name), ".csv")
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("gpuhunt catalogue %s: %s: %w", version, f.Name, err)
		}
		data, err := io.ReadAll(io.LimitReader(rc, 256<<20))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("gpuhunt catalogue %s: %s: %w", version, f.Name, err)
		}
		p := &GPUHunt{Provider: provider, Mapper: g.Mapper, Base: g.Base}
		b, err := p.Parse(data, version+"/"+f.Name, observed)
		if err != nil {
			// One broken provider file is that file's problem, not the
			// catalogue's: the others still count.
			out.Note("%s: %v", f.Name, err)
			continue
		}
		// Appended as rows: one provider file can list a key twice and
		// two files the same key; Seal keeps the cheaper, as Add would.
		out.GrowRows(b.Len(), 64)
		for _, o := range b.All() {
			o.SourceGeneratedAt = version
			out.Append(&o)
		}
		for k, n := range b.Skipped {
			if out.Skipped == nil {
				out.Skipped = map[string]int{}
			}
			out.Skipped[k] += n
		}
		for name, n := range b.Unknown {
			if out.Unknown == nil {
				out.Unknown = map[string]int{}
			}
			out.Unknown[name] += n
		}
		for _, p := range b.Problems {
			out.Note("%s: %s", f.Name, p)
		}
	}
	out.Seal()
	if out.Len() == 0 && len(out.Problems) > 0 {
		return nil, fmt.Errorf("gpuhunt catalogue %s: no provider file parsed (first: %s)", version, out.Problems[0])
	}
	return out, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
