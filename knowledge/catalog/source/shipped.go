package source

import (
	"context"
	"sync"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// Shipped serves the catalogue embedded in the binary: the public market
// snapshot (data/market.csv, every row dated and sourced) and the seed
// documents' Chinese platform prices (knowledge/data/offers.yaml, CNY,
// dated 2026-09). The seeds' USD figures are left out: the market snapshot
// prices those platforms from their own catalogues. It never changes
// between releases, so it only ever stores one snapshot.
type Shipped struct {
	Base *knowledge.Base

	once  sync.Once
	batch *catalog.Batch
	err   error
}

// Name is catalog.ShippedSource.
func (s *Shipped) Name() string { return catalog.ShippedSource }

// Fetch returns the shipped offers (decoded once, copied per call).
func (s *Shipped) Fetch(context.Context, time.Time) (*catalog.Batch, error) {
	s.once.Do(func() { s.batch, s.err = shippedBatch(s.Base) })
	if s.err != nil {
		return nil, s.err
	}
	b := *s.batch
	b.Offers = append([]knowledge.Offer(nil), s.batch.Offers...)
	return &b, nil
}

// ShippedOffers is the shipped catalogue as one list, for
// catalog.Options.Fallback (served before the first refresh).
func ShippedOffers(base *knowledge.Base) ([]knowledge.Offer, error) {
	b, err := (&Shipped{Base: base}).Fetch(context.Background(), time.Time{})
	if err != nil {
		return nil, err
	}
	return b.Offers, nil
}

// SeedRef names the seed offers in SourceRef.
const SeedRef = "embedded:knowledge/data/offers.yaml"

func shippedBatch(base *knowledge.Base) (*catalog.Batch, error) {
	m := NewMapper(base, nil)
	b, err := MarketBatch(base, m)
	if err != nil {
		return nil, err
	}
	b.Ref = MarketRef + " + " + SeedRef
	// A low-confidence sourced row only fills a gap (knowledge cnOffers):
	// where the market snapshot prices the card on the same platform (the
	// international Alibaba Cloud's A10, say), the snapshot's dated listing
	// stands and the note-grade figure is left out.
	listed := map[string]bool{}
	for _, o := range b.Offers {
		listed[o.Platform+"/"+o.GPU] = true
	}
	for _, o := range base.Offers {
		if o.Currency != knowledge.CNY || o.Confidence == knowledge.Low && listed[o.Platform+"/"+o.GPU] {
			continue
		}
		if o.SourceKind == "" {
			o.SourceKind = "manual"
		}
		o.SourceRef = SeedRef
		b.Add(o)
	}
	return b, nil
}
