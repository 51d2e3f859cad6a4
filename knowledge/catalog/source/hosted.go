package source

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// readLocation reads a hosted catalogue from a file path or an http(s) URL
// and names what it read (location and content hash) for SourceRef.
func readLocation(ctx context.Context, loc string, h HTTPOptions) (data []byte, ref string, err error) {
	if strings.HasPrefix(loc, "http://") || strings.HasPrefix(loc, "https://") {
		data, err = h.do(ctx, request{method: http.MethodGet, url: loc, header: http.Header{"Accept": {"text/csv, */*"}}})
		if err != nil {
			return nil, "", err
		}
	} else if data, err = os.ReadFile(loc); err != nil {
		return nil, "", err
	}
	return data, loc + "@" + rawHash(string(data)), nil
}

// platformID returns the knowledge platform id for a provider name, or the
// name itself in slug form when the knowledge base does not know it.
func platformID(base *knowledge.Base, provider string) string {
	if base != nil {
		if p, ok := base.Platform(provider); ok {
			return p.ID
		}
	}
	return slug(provider)
}

// ProviderFromPath guesses a hosted catalogue's provider from its location:
// SkyPilot's ".../catalogs/v7/<provider>/vms.csv" or gpuhunt's
// "<provider>.csv".
func ProviderFromPath(loc string) string {
	loc = strings.TrimSuffix(loc, "/")
	base := filepath.Base(loc)
	if strings.EqualFold(base, "vms.csv") {
		return filepath.Base(filepath.Dir(loc))
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// headerIndex maps column names to positions and checks required ones.
func headerIndex(header []string, required ...string) (map[string]int, error) {
	idx := make(map[string]int, len(header))
	for i, h := range header {
		idx[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	var missing []string
	for _, r := range required {
		if _, ok := idx[r]; !ok {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("header lacks %s", strings.Join(missing, ", "))
	}
	return idx, nil
}

// cell returns a row's value for a column, "" when the column is absent.
func cell(rec []string, idx map[string]int, col string) string {
	i, ok := idx[col]
	if !ok || i >= len(rec) {
		return ""
	}
	return strings.TrimSpace(rec[i])
}

// fetchHosted reads a hosted catalogue (file or URL) and parses it; errors
// name the source.
func fetchHosted(ctx context.Context, name, loc string, h HTTPOptions, now time.Time,
	parse func(raw []byte, ref string, now time.Time) (*catalog.Batch, error)) (*catalog.Batch, error) {
	raw, ref, err := readLocation(ctx, loc, h)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	b, err := parse(raw, ref, now)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}

// openCSV reads a catalogue CSV's header; rows may vary in width (they are
// checked one by one) and the record slice is reused between reads. A file
// without quotes takes the plain reader.
func openCSV(raw []byte) (csvRows, []string, error) { return openCSVCells(raw, false) }

// openCSVShared is openCSV whose plain rows point into raw instead of
// being copied: for a parser that copies out every cell it keeps (raw must
// not change while they live).
func openCSVShared(raw []byte) (csvRows, []string, error) { return openCSVCells(raw, true) }

func openCSVCells(raw []byte, shared bool) (csvRows, []string, error) {
	if quoteFree(raw) {
		r := &plainCSV{raw: raw, shared: shared}
		header, err := r.Read()
		if err != nil {
			return nil, nil, fmt.Errorf("header: %w", err)
		}
		return r, append([]string(nil), header...), nil
	}
	r := csv.NewReader(bytes.NewReader(raw))
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("header: %w", err)
	}
	return r, header, nil
}

// pos is a column's position, -1 when the header lacks it.
func pos(idx map[string]int, col string) int {
	if i, ok := idx[col]; ok {
		return i
	}
	return -1
}

// at is a row's trimmed value at position i, "" when absent.
func at(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return strings.TrimSpace(rec[i])
}
