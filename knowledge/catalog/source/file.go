package source

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
	"go.yaml.in/yaml/v3"
)

// fileCollector versions the team-file parser.
const fileCollector = "team-file/1"

// File is the team-maintained price file (CATALOG_FILE), YAML or CSV, in the
// format described in knowledge/catalog/FORMAT.md. It is re-read on every
// Fetch; Changed is a cheap stat check a poller can call between refreshes
// to pick up edits early. One bad entry is reported and skipped; a missing
// or unreadable file fails the fetch and the last good snapshot stays.
type File struct {
	Path   string
	Mapper *Mapper
	Base   *knowledge.Base

	mu      sync.Mutex
	modTime time.Time
	size    int64
}

// Name is catalog.TeamFileSource.
func (f *File) Name() string { return catalog.TeamFileSource }

// Changed reports whether the file's modification time or size differs from
// what the last Fetch read.
func (f *File) Changed() (bool, error) {
	fi, err := os.Stat(f.Path)
	if err != nil {
		return false, fmt.Errorf("team file: %w", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return !fi.ModTime().Equal(f.modTime) || fi.Size() != f.size, nil
}

// Fetch reads and parses the file.
func (f *File) Fetch(_ context.Context, now time.Time) (*catalog.Batch, error) {
	fi, err := os.Stat(f.Path)
	if err != nil {
		return nil, fmt.Errorf("team file: %w", err)
	}
	raw, err := os.ReadFile(f.Path)
	if err != nil {
		return nil, fmt.Errorf("team file: %w", err)
	}
	f.mu.Lock()
	f.modTime, f.size = fi.ModTime(), fi.Size()
	f.mu.Unlock()
	ref := "file:" + filepath.Base(f.Path) + "@" + rawHash(string(raw))
	var b *catalog.Batch
	switch strings.ToLower(filepath.Ext(f.Path)) {
	case ".csv":
		b, err = f.parseCSV(raw, ref)
	default:
		b, err = f.parseYAML(raw, ref)
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// fileDoc is the mapping form of a YAML team file.
type fileDoc struct {
	Source     string      `yaml:"source"`
	ObservedAt string      `yaml:"observed_at"`
	Currency   string      `yaml:"currency"`
	Offers     []yaml.Node `yaml:"offers"`
}

// fileOffer is one YAML entry: any knowledge.Offer field plus the price
// shorthand.
type fileOffer struct {
	knowledge.Offer `yaml:",inline"`
	Price           *float64 `yaml:"price"`
}

func (f *File) parseYAML(raw []byte, ref string) (*catalog.Batch, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("team file: %w", err)
	}
	b := &catalog.Batch{Ref: ref}
	if len(root.Content) == 0 {
		return b, nil
	}
	var doc fileDoc
	switch top := root.Content[0]; top.Kind {
	case yaml.SequenceNode:
		doc.Offers = make([]yaml.Node, len(top.Content))
		for i, n := range top.Content {
			doc.Offers[i] = *n
		}
	case yaml.MappingNode:
		dec := yaml.NewDecoder(bytes.NewReader(raw))
		dec.KnownFields(true)
		if err := dec.Decode(&doc); err != nil {
			return nil, fmt.Errorf("team file: %w", err)
		}
	default:
		return nil, errors.New("team file: want a list of offers or a mapping with an offers key")
	}
	defaults := fileOffer{Offer: knowledge.Offer{Source: doc.Source, ObservedAt: doc.ObservedAt, Currency: knowledge.Currency(doc.Currency)}}
	for i := range doc.Offers {
		n := &doc.Offers[i]
		// Re-decode each entry strictly, so one typo costs one entry.
		one, err := yaml.Marshal(n)
		if err != nil {
			b.Problem("entry %d (line %d): %v", i+1, n.Line, err)
			continue
		}
		var fo fileOffer
		dec := yaml.NewDecoder(bytes.NewReader(one))
		dec.KnownFields(true)
		if err := dec.Decode(&fo); err != nil {
			b.Problem("entry %d (line %d): %v", i+1, n.Line, yamlProblem(err))
			continue
		}
		f.finish(b, fo, defaults, fmt.Sprintf("entry %d (line %d)", i+1, n.Line))
	}
	return b, nil
}

// yamlProblem shortens a strict-decode error of one re-encoded entry: its
// inner line numbers count from the entry, so they are dropped.
func yamlProblem(err error) string {
	var out []string
	for _, l := range strings.Split(err.Error(), "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "yaml: "))
		if l == "" || l == "unmarshal errors:" {
			continue
		}
		if rest, ok := strings.CutPrefix(l, "line "); ok {
			if _, after, ok := strings.Cut(rest, ": "); ok {
				l = after
			}
		}
		if i := strings.Index(l, " in type "); i > 0 {
			l = l[:i]
		}
		out = append(out, l)
	}
	return strings.Join(out, "; ")
}

// csvSetters fill one Offer field from a CSV cell.
var csvSetters = map[string]func(o *fileOffer, v string) error{
	"key":                 func(o *fileOffer, v string) error { o.Key = v; return nil },
	"platform":            func(o *fileOffer, v string) error { o.Platform = v; return nil },
	"gpu":                 func(o *fileOffer, v string) error { o.GPU = v; return nil },
	"gpu_count":           floatSetter(func(o *fileOffer) *float64 { return &o.GPUCount }),
	"sku":                 func(o *fileOffer, v string) error { o.SKU = v; return nil },
	"region":              func(o *fileOffer, v string) error { o.Region = v; return nil },
	"zone":                func(o *fileOffer, v string) error { o.Zone = v; return nil },
	"country":             func(o *fileOffer, v string) error { o.Country = v; return nil },
	"price_low":           floatSetter(func(o *fileOffer) *float64 { return &o.PriceLow }),
	"price_high":          floatSetter(func(o *fileOffer) *float64 { return &o.PriceHigh }),
	"currency":            func(o *fileOffer, v string) error { o.Currency = knowledge.Currency(v); return nil },
	"unit":                func(o *fileOffer, v string) error { o.Unit = knowledge.Unit(v); return nil },
	"basis":               func(o *fileOffer, v string) error { o.Basis = knowledge.Basis(v); return nil },
	"pricing_model":       func(o *fileOffer, v string) error { o.Model = knowledge.PricingModel(v); return nil },
	"billing_granularity": func(o *fileOffer, v string) error { o.Granularity = v; return nil },
	"availability":        func(o *fileOffer, v string) error { o.Availability = v; return nil },
	"observed_at":         func(o *fileOffer, v string) error { o.ObservedAt = v; return nil },
	"source":              func(o *fileOffer, v string) error { o.Source = v; return nil },
	"note":                func(o *fileOffer, v string) error { o.Note = v; return nil },
	"term":                func(o *fileOffer, v string) error { o.Term = v; return nil },
	"cloud_tier":          func(o *fileOffer, v string) error { o.CloudTier = v; return nil },
	"interruptible": func(o *fileOffer, v string) error {
		b, err := strconv.ParseBool(v)
		o.Interruptible = b
		return err
	},
	"price": func(o *fileOffer, v string) error {
		p, err := strconv.ParseFloat(v, 64)
		o.Price = &p
		return err
	},
}

func floatSetter(field func(*fileOffer) *float64) func(*fileOffer, string) error {
	return func(o *fileOffer, v string) error {
		p, err := strconv.ParseFloat(v, 64)
		*field(o) = p
		return err
	}
}

func (f *File) parseCSV(raw []byte, ref string) (*catalog.Batch, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))))
	r.Comment = '#'
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("team file: header: %w", err)
	}
	b := &catalog.Batch{Ref: ref}
	cols := make([]string, len(header))
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if _, ok := csvSetters[h]; !ok {
			b.Note("column %q is not part of the format and is ignored", h)
			continue
		}
		cols[i] = h
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := r.FieldPos(0)
		where := fmt.Sprintf("line %d", line)
		if err != nil {
			b.Problem("%s: %v", where, err)
			continue
		}
		if len(rec) != len(header) {
			b.Problem("%s: %d cells, header has %d", where, len(rec), len(header))
			continue
		}
		var fo fileOffer
		bad := false
		for i, v := range rec {
			v = strings.TrimSpace(v)
			if cols[i] == "" || v == "" {
				continue
			}
			if err := csvSetters[cols[i]](&fo, v); err != nil {
				b.Problem("%s: %s %q: not a number or boolean", where, cols[i], v)
				bad = true
				break
			}
		}
		if !bad {
			f.finish(b, fo, fileOffer{}, where)
		}
	}
	return b, nil
}

// finish applies defaults, resolves names, keys the offer and adds it.
func (f *File) finish(b *catalog.Batch, fo, def fileOffer, where string) {
	o := fo.Offer
	if fo.Price != nil {
		if o.PriceLow != 0 || o.PriceHigh != 0 {
			b.Problem("%s: give price or price_low/price_high, not both", where)
			return
		}
		o.PriceLow, o.PriceHigh = *fo.Price, *fo.Price
	}
	if o.PriceHigh == 0 {
		o.PriceHigh = o.PriceLow
	}
	if o.PriceLow <= 0 {
		b.Skip(catalog.SkipNoPrice)
		b.Note("%s: no positive price", where)
		return
	}
	if o.Platform == "" || o.GPU == "" {
		b.Problem("%s: platform and gpu are required", where)
		return
	}
	id, ok := f.Mapper.Resolve(0, o.GPU)
	if !ok {
		b.SkipUnknown(catalog.SkipUnknownGPU, o.GPU)
		return
	}
	o.GPU = id
	if p, ok := f.Base.Platform(o.Platform); ok {
		o.Platform = p.ID
	} else {
		b.Note("%s: platform %q is not in the knowledge base; kept as written", where, o.Platform)
	}
	if o.Currency == "" {
		o.Currency = def.Currency
	}
	o.Currency = knowledge.Currency(strings.ToUpper(string(o.Currency)))
	if o.ObservedAt == "" {
		o.ObservedAt = def.ObservedAt
	}
	if o.Source == "" {
		o.Source = def.Source
	}
	if o.Source == "" {
		o.Source = "team file"
	}
	if o.Unit == "" {
		o.Unit = knowledge.PerHour
	}
	if o.Basis == "" {
		o.Basis = knowledge.PerGPU
	}
	if o.Model == "" {
		o.Model = knowledge.OnDemand
	}
	if o.GPUCount == 0 {
		o.GPUCount = 1
	}
	if o.Model == knowledge.Spot || o.Model == knowledge.Bid {
		o.Interruptible = true
	}
	if o.SourceKind == "" {
		o.SourceKind = "manual"
	}
	o.SourceRef = b.Ref
	o.CollectorVersion = fileCollector
	if o.Key == "" {
		count := ""
		if o.Basis == knowledge.PerInstance {
			count = "x" + strconv.FormatFloat(o.GPUCount, 'f', -1, 64)
		}
		o.Key = offerKey("team", o.Platform, o.GPU, o.SKU, o.Region, string(o.Model), o.Term, o.CloudTier, count)
	}
	o.RawHash = rawHash(o.Key, catalog.FormatAmount(o.PriceLow), catalog.FormatAmount(o.PriceHigh), string(o.Currency), string(o.Unit))
	if err := o.Validate(); err != nil {
		b.Problem("%s: %v", where, err)
		return
	}
	b.Add(o)
}
