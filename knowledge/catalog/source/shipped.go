package source

import (
	"context"
	"time"

	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// Shipped serves the dated seed offers embedded in the binary
// (knowledge/data/offers.yaml). It never fails and never changes between
// releases, so it only ever stores one snapshot.
type Shipped struct {
	Base *knowledge.Base
}

// Name is catalog.ShippedSource.
func (s *Shipped) Name() string { return catalog.ShippedSource }

// Fetch returns a copy of the seed offers.
func (s *Shipped) Fetch(context.Context, time.Time) (*catalog.Batch, error) {
	b := &catalog.Batch{Ref: "embedded:knowledge/data/offers.yaml"}
	for _, o := range s.Base.Offers {
		if o.SourceKind == "" {
			o.SourceKind = "manual"
		}
		o.SourceRef = b.Ref
		b.Add(o)
	}
	return b, nil
}
