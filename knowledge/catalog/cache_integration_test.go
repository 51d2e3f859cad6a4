package catalog_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

func TestIntegrationVersionedReloadAndFailover(t *testing.T) {
	rdb, prefix := bottest.RealRedis(t) // one server, or a Redis Cluster (make test-cluster)
	a, b := &fake{name: "a"}, &fake{name: "b"}
	a.offers(offer("a-1", "rtx4090", 0.4))
	b.offers(offer("b-1", "h100-sxm", 2.5))
	leader := catalog.New(rdb, catalog.Options{Prefix: prefix, Sources: []catalog.Source{a, b}})
	refresh(t, leader, t0)
	replica := catalog.New(rdb, catalog.Options{Prefix: prefix})
	v1 := current(t, replica)
	if v2 := current(t, replica); v2 != v1 {
		t.Error("reloaded without a version change")
	}
	b.fail(fmt.Errorf("upstream down"))
	a.offers(offer("a-1", "rtx4090", 0.36))
	rep := refresh(t, leader, t0.Add(4*time.Hour))
	v3 := current(t, replica)
	if v3 == v1 || !slices.Equal(keysOf(v3.Offers), []string{"a-1", "b-1"}) || v3.Offers[0].PriceLow != 0.36 {
		t.Errorf("after refresh: %+v", v3.Offers)
	}
	if st, _ := v3.Source("b"); !st.Stale() {
		t.Errorf("b status = %+v", st)
	}
	if d := rep.Diff.Of(catalog.KindPriceDown); len(d) != 1 || d[0].Pct != -10 {
		t.Errorf("diff = %+v", rep.Diff.Changes)
	}
}

func TestIntegrationHistoryTrimAndTTL(t *testing.T) {
	rdb, prefix := bottest.RealRedis(t) // one server, or a Redis Cluster (make test-cluster)
	src := &fake{name: "src"}
	c := catalog.New(rdb, catalog.Options{Prefix: prefix, Sources: []catalog.Source{src}, Retention: 10 * day})
	for i, at := range []time.Duration{0, 5 * day, 12 * day} {
		src.offers(offer("k", "rtx4090", 0.40-float64(i)*0.01))
		refresh(t, c, t0.Add(at))
	}
	pts, err := c.History(context.Background(), "k", t0.Add(-day), t0.Add(20*day))
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 || pts[1].CardHourly != 0.38 {
		t.Errorf("points = %+v, want the day-5 and day-12 points", pts)
	}
	ttl := rdb.PTTL(context.Background(), prefix+"catalog:hist:k").Val()
	if ttl <= 9*day || ttl > 10*day {
		t.Errorf("history TTL = %v, want about the 10-day retention", ttl)
	}
	lows, err := c.NewLows(context.Background(), current(t, c), t0.Add(12*day), 30*day)
	if err != nil || len(lows) != 1 || lows[0].PrevLow != 0.39 {
		t.Errorf("new lows = %+v, %v", lows, err)
	}
}

func TestIntegrationShippedRoundTrip(t *testing.T) {
	rdb, prefix := bottest.RealRedis(t) // one server, or a Redis Cluster (make test-cluster)
	kb := knowledge.MustShipped()
	src := &fake{name: catalog.ShippedSource}
	src.offers(kb.Offers...)
	c := catalog.New(rdb, catalog.Options{Prefix: prefix, Sources: []catalog.Source{src}, Base: kb})
	refresh(t, c, t0)
	v := current(t, catalog.New(rdb, catalog.Options{Prefix: prefix}))
	want := slices.Clone(kb.Offers)
	slices.SortFunc(want, func(a, b knowledge.Offer) int {
		if a.Key < b.Key {
			return -1
		}
		return 1
	})
	if len(v.Offers) != len(want) {
		t.Fatalf("offers = %d, want %d", len(v.Offers), len(want))
	}
	for i := range want {
		if v.Offers[i].Key != want[i].Key || v.Offers[i].PriceLow != want[i].PriceLow || v.Offers[i].PriceHigh != want[i].PriceHigh {
			t.Errorf("offer %d = %s %v–%v, want %s %v–%v", i, v.Offers[i].Key, v.Offers[i].PriceLow, v.Offers[i].PriceHigh,
				want[i].Key, want[i].PriceLow, want[i].PriceHigh)
		}
	}
}
