package source

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/gpubot/gpubot/knowledge"
)

// Mapper turns provider card names into knowledge GPU ids. It is safe for
// concurrent use.
//
// A name resolves through, in order: the mapper's extra table, the name with
// its per-card memory appended ("A100" + 40 GiB tries "a100 40gb", which
// finds a100-40g), the knowledge aliases, and the name without a vendor
// prefix ("NVIDIA GeForce RTX 4090" → "rtx 4090"). When the per-card memory
// is known, a card whose nominal VRAM differs by more than 12 % is refused:
// an "H100" with 94 GiB is an H100 NVL and a 48 GiB "RTX 4090" a modified
// board, neither of them the catalogue's card.
type Mapper struct {
	base  *knowledge.Base
	extra map[string]string // normalised name -> gpu id

	mu    sync.Mutex
	cache map[cacheKey]string // -> id ("" for unknown)
}

type cacheKey struct {
	mem   int64  // GiB, rounded
	names string // the names, NUL-separated
}

// NewMapper returns a mapper over base with extra source-specific names
// (provider spelling -> knowledge GPU id).
func NewMapper(base *knowledge.Base, extra map[string]string) *Mapper {
	m := &Mapper{base: base, extra: map[string]string{}, cache: map[cacheKey]string{}}
	for k, v := range extra {
		m.extra[knowledge.NormalizeName(k)] = v
	}
	return m
}

// With returns a mapper with more extra names on top of m's.
func (m *Mapper) With(extra map[string]string) *Mapper {
	all := map[string]string{}
	for k, v := range m.extra {
		all[k] = v
	}
	for k, v := range extra {
		all[knowledge.NormalizeName(k)] = v
	}
	return &Mapper{base: m.base, extra: all, cache: map[cacheKey]string{}}
}

// vramTolerance is how far a listing's per-card memory may sit from the
// card's nominal VRAM (providers report MiB, nominal figures are rounded).
const vramTolerance = 0.12

var vendorPrefixes = []string{"nvidia", "geforce", "tesla", "quadro", "amd", "instinct", "radeon"}

// Resolve maps the first of names that is a known card to its id. memGiB is
// the memory of one card in GiB, 0 when unknown.
func (m *Mapper) Resolve(memGiB float64, names ...string) (string, bool) {
	ck := cacheKey{mem: int64(math.Round(memGiB))}
	if len(names) == 1 {
		ck.names = names[0]
	} else {
		ck.names = strings.Join(names, "\x00")
	}
	m.mu.Lock()
	id, hit := m.cache[ck]
	m.mu.Unlock()
	if hit {
		return id, id != ""
	}
	id = m.resolve(memGiB, names)
	ck.names = strings.Clone(ck.names) // the cache outlives the catalogue bytes the name may point into
	m.mu.Lock()
	m.cache[ck] = id
	m.mu.Unlock()
	return id, id != ""
}

func (m *Mapper) resolve(memGiB float64, names []string) string {
	for _, name := range names {
		n := knowledge.NormalizeName(name)
		if n == "" {
			continue
		}
		cands := []string{n}
		stripped := n
		for changed := true; changed; {
			changed = false
			for _, p := range vendorPrefixes {
				if s, ok := strings.CutPrefix(stripped, p); ok && s != "" {
					stripped, changed = s, true
				}
			}
		}
		if stripped != n {
			cands = append(cands, stripped)
		}
		for _, c := range cands {
			if id, ok := m.extra[c]; ok && m.fits(id, memGiB) {
				return id
			}
		}
		for _, c := range cands {
			if memGiB > 0 {
				if g, ok := m.base.GPU(c + strconv.FormatFloat(math.Round(memGiB), 'f', 0, 64) + "gb"); ok && m.fits(g.ID, memGiB) {
					return g.ID
				}
			}
			if g, ok := m.base.GPU(c); ok && m.fits(g.ID, memGiB) {
				return g.ID
			}
		}
	}
	return ""
}

func (m *Mapper) fits(id string, memGiB float64) bool {
	g, ok := m.base.GPU(id)
	if !ok {
		return false
	}
	if memGiB <= 0 || g.VRAMGB <= 0 {
		return true
	}
	return math.Abs(memGiB-g.VRAMGB)/g.VRAMGB <= vramTolerance
}
