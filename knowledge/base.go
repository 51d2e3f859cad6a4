package knowledge

import (
	"bytes"
	"embed"
	"fmt"
	"sort"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:embed data/*.yaml data/*.json
var dataFS embed.FS

// Base is the knowledge the bot ships with: cards, platforms, dated seed
// offers, guide items and the model catalogue (architectures).
type Base struct {
	GPUs      []GPU
	Platforms []Platform
	Offers    []Offer
	Guide     []GuideItem
	Archs     []Arch
	Images    []ImageModel // text-to-image models
	// Procurement is the sourced procurement dataset (purchase, reserved,
	// Chinese-platform and token API prices); its Chinese-platform rows
	// also enter Offers (procurement.go).
	Procurement Procurement
	// Export is the per-card export-control status for mainland China.
	Export ExportControls

	gpuByName      map[string]int
	platformByName map[string]int
	archByName     map[string]int
}

var (
	shippedOnce sync.Once
	shipped     *Base
	shippedErr  error
)

// Shipped returns the embedded knowledge base, decoded once. Callers must not
// modify it.
func Shipped() (*Base, error) {
	shippedOnce.Do(func() { shipped, shippedErr = loadEmbedded() })
	return shipped, shippedErr
}

// MustShipped is Shipped for tests and benchmarks, where the embedded data is
// known good.
func MustShipped() *Base {
	b, err := Shipped()
	if err != nil {
		panic(err)
	}
	return b
}

func loadEmbedded() (*Base, error) {
	var b Base
	files := []struct {
		name string
		into any
	}{
		{"data/gpus.yaml", &b.GPUs},
		{"data/platforms.yaml", &b.Platforms},
		{"data/offers.yaml", &b.Offers},
		{"data/guide.yaml", &b.Guide},
	}
	for _, f := range files {
		raw, err := dataFS.ReadFile(f.name)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f.name, err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(raw))
		dec.KnownFields(true)
		if err := dec.Decode(f.into); err != nil {
			return nil, fmt.Errorf("decode %s: %w", f.name, err)
		}
	}
	raw, err := dataFS.ReadFile("data/models.json")
	if err != nil {
		return nil, fmt.Errorf("read data/models.json: %w", err)
	}
	if b.Archs, err = decodeArchs(raw); err != nil {
		return nil, fmt.Errorf("decode data/models.json: %w", err)
	}
	if raw, err = dataFS.ReadFile("data/image_models.json"); err != nil {
		return nil, fmt.Errorf("read data/image_models.json: %w", err)
	}
	if b.Images, err = decodeImageModels(raw); err != nil {
		return nil, fmt.Errorf("decode data/image_models.json: %w", err)
	}
	if err := b.index(); err != nil {
		return nil, err
	}
	if b.Procurement, err = loadProcurement(&b); err != nil {
		return nil, err
	}
	if b.Export, err = loadExport(&b); err != nil {
		return nil, err
	}
	b.Offers = append(b.Offers, cnOffers(&b, b.Procurement.CNCloud)...)
	b.Procurement.Rows = rowOffers(b.Procurement, b.Offers)
	if err := b.index(); err != nil {
		return nil, err
	}
	return &b, nil
}

// index builds the alias tables and checks cross references.
func (b *Base) index() error {
	b.gpuByName = map[string]int{}
	for i, g := range b.GPUs {
		for _, n := range append([]string{g.ID, g.Name}, g.Aliases...) {
			k := NormalizeName(n)
			if j, dup := b.gpuByName[k]; dup && j != i {
				return fmt.Errorf("gpu alias %q names both %s and %s", n, b.GPUs[j].ID, g.ID)
			}
			b.gpuByName[k] = i
		}
	}
	b.platformByName = map[string]int{}
	for i, p := range b.Platforms {
		for _, n := range append([]string{p.ID, p.Name, p.NameZH}, p.Aliases...) {
			if n == "" {
				continue
			}
			k := NormalizeName(n)
			if j, dup := b.platformByName[k]; dup && j != i {
				return fmt.Errorf("platform alias %q names both %s and %s", n, b.Platforms[j].ID, p.ID)
			}
			b.platformByName[k] = i
		}
	}
	b.archByName = map[string]int{}
	for i, a := range b.Archs {
		for _, n := range a.Names() {
			k := NormalizeName(n)
			if j, dup := b.archByName[k]; dup && j != i {
				return fmt.Errorf("model alias %q names both %s and %s", n, b.Archs[j].ID, a.ID)
			}
			b.archByName[k] = i
		}
	}
	seen := map[string]bool{}
	for _, o := range b.Offers {
		if err := o.Validate(); err != nil {
			return err
		}
		if seen[o.Key] {
			return fmt.Errorf("offer key %q repeated", o.Key)
		}
		seen[o.Key] = true
		if _, ok := b.GPU(o.GPU); !ok {
			return fmt.Errorf("offer %s: unknown gpu %q", o.Key, o.GPU)
		}
		if _, ok := b.Platform(o.Platform); !ok {
			return fmt.Errorf("offer %s: unknown platform %q", o.Key, o.Platform)
		}
	}
	return nil
}

// GPU finds a card by id or any alias.
func (b *Base) GPU(name string) (GPU, bool) {
	i, ok := b.gpuByName[name] // ids are mostly written normalised already
	if !ok {
		i, ok = b.gpuByName[NormalizeName(name)]
	}
	if !ok {
		return GPU{}, false
	}
	return b.GPUs[i], true
}

// Platform finds a platform by id or any alias.
func (b *Base) Platform(name string) (Platform, bool) {
	i, ok := b.platformByName[name] // ids are mostly written normalised already
	if !ok {
		i, ok = b.platformByName[NormalizeName(name)]
	}
	if !ok {
		return Platform{}, false
	}
	return b.Platforms[i], true
}

// GPUAliases lists every normalised card spelling, longest first, so a text
// scanner can match "4090d" before "4090".
func (b *Base) GPUAliases() []string { return sortedKeys(b.gpuByName) }

// PlatformAliases lists every normalised platform spelling, longest first.
func (b *Base) PlatformAliases() []string { return sortedKeys(b.platformByName) }

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return out[i] < out[j]
	})
	return out
}

// Arch finds a model in the catalogue by id or any alias ("DeepSeek V3",
// "mixtral:8x7b", "通义千问3 30B-A3B").
func (b *Base) Arch(name string) (Arch, bool) {
	i, ok := b.archByName[NormalizeName(name)]
	if !ok {
		return Arch{}, false
	}
	return b.Archs[i], true
}

// ModelAliases lists every normalised model spelling, longest first, so a
// text scanner can match "qwen3-30b-a3b" before "qwen3-30b".
func (b *Base) ModelAliases() []string { return sortedKeys(b.archByName) }

// FindArch finds a model by id or alias in a plain list (for callers that
// hold a slice, not a Base).
func FindArch(archs []Arch, name string) (Arch, bool) {
	k := NormalizeName(name)
	for _, a := range archs {
		for _, n := range a.Names() {
			if NormalizeName(n) == k {
				return a, true
			}
		}
	}
	return Arch{}, false
}
