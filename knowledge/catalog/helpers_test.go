package catalog_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
	"github.com/redis/go-redis/v9"
)

var t0 = time.Date(2026, 10, 8, 1, 30, 0, 0, time.UTC)

// fake is a source whose next answer the test sets.
type fake struct {
	name string
	mu   sync.Mutex
	fn   func(ctx context.Context) (*catalog.Batch, error)
}

func (f *fake) Name() string { return f.name }

func (f *fake) Fetch(ctx context.Context, _ time.Time) (*catalog.Batch, error) {
	f.mu.Lock()
	fn := f.fn
	f.mu.Unlock()
	return fn(ctx)
}

func (f *fake) set(fn func(ctx context.Context) (*catalog.Batch, error)) {
	f.mu.Lock()
	f.fn = fn
	f.mu.Unlock()
}

func (f *fake) offers(os ...knowledge.Offer) {
	f.set(func(context.Context) (*catalog.Batch, error) { return &catalog.Batch{Offers: os, Ref: "fake"}, nil })
}

func (f *fake) fail(err error) {
	f.set(func(context.Context) (*catalog.Batch, error) { return nil, err })
}

// offer is a valid per-GPU hourly USD offer.
func offer(key, gpu string, price float64) knowledge.Offer {
	return knowledge.Offer{Key: key, Platform: "runpod", GPU: gpu, GPUCount: 1, PriceLow: price, PriceHigh: price,
		Currency: knowledge.USD, Unit: knowledge.PerHour, Basis: knowledge.PerGPU, Model: knowledge.OnDemand,
		ObservedAt: "2026-10-08", Source: "test"}
}

func offers(prefix, gpu string, n int, price float64) []knowledge.Offer {
	out := make([]knowledge.Offer, n)
	for i := range out {
		out[i] = offer(fmt.Sprintf("%s-%02d", prefix, i), gpu, price)
	}
	return out
}

func newRedis(t *testing.T) (*miniredis.Miniredis, *redis.Client) {
	t.Helper()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	return m, rdb
}

func refresh(t *testing.T, c *catalog.Catalog, at time.Time) *catalog.Report {
	t.Helper()
	rep, err := c.Refresh(context.Background(), at)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func current(t *testing.T, c *catalog.Catalog) *catalog.View {
	t.Helper()
	v, err := c.Current(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func keysOf(os []knowledge.Offer) []string {
	var ks []string
	for _, o := range os {
		ks = append(ks, o.Key)
	}
	return ks
}
