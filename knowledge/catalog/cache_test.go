package catalog_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

func TestCurrentReloadsOnlyWhenVersionMoves(t *testing.T) {
	m, rdb := newRedis(t)
	a, b := &fake{name: "a"}, &fake{name: "b"}
	a.offers(offer("a-1", "rtx4090", 0.4))
	b.offers(offer("b-1", "h100-sxm", 2.5))
	leader := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{a, b}})
	refresh(t, leader, t0)

	replica := catalog.New(rdb, catalog.Options{})
	v1 := current(t, replica)
	if got := keysOf(v1.Offers); !slices.Equal(got, []string{"a-1", "b-1"}) {
		t.Fatalf("offers = %v", got)
	}
	before := m.CommandCount()
	v2 := current(t, replica)
	if n := m.CommandCount() - before; n != 1 || v2 != v1 {
		t.Errorf("second Current ran %d commands (want the one GET) and returned a new view: %v", n, v2 != v1)
	}

	a.offers(offer("a-1", "rtx4090", 0.38))
	refresh(t, leader, t0.Add(4*time.Hour))
	v3 := current(t, replica)
	if v3.Version <= v1.Version || v3.Offers[0].PriceLow != 0.38 {
		t.Errorf("after a refresh: version %d -> %d, a-1 = %v", v1.Version, v3.Version, v3.Offers[0].PriceLow)
	}
}

func TestFallbackUntilTheFirstRefresh(t *testing.T) {
	_, rdb := newRedis(t)
	kb := knowledge.MustShipped()
	c := catalog.New(rdb, catalog.Options{Fallback: kb.Offers})
	v := current(t, c)
	if v.Version != 0 || len(v.Offers) != len(kb.Offers) {
		t.Errorf("fallback view: version %d, %d offers; want 0 and the %d shipped", v.Version, len(v.Offers), len(kb.Offers))
	}
}

func TestRedisDownReturnsTheLastViewWithTheError(t *testing.T) {
	m, rdb := newRedis(t)
	a := &fake{name: "a"}
	a.offers(offer("a-1", "rtx4090", 0.4))
	c := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{a}})
	refresh(t, c, t0)
	v1 := current(t, c)
	m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	v2, err := c.Current(ctx)
	if err == nil || v2 != v1 {
		t.Errorf("Current with Redis down = %p, %v; want the last view and an error", v2, err)
	}
}

func TestFailingSourceKeepsItsLastGoodData(t *testing.T) {
	_, rdb := newRedis(t)
	good, flaky, slow, broken := &fake{name: "good"}, &fake{name: "flaky"}, &fake{name: "slow"}, &fake{name: "broken"}
	good.offers(offer("g-1", "rtx4090", 0.4))
	flaky.offers(offer("f-1", "h100-sxm", 2.5), offer("f-2", "h100-sxm", 2.6))
	slow.offers(offer("s-1", "a100-80g", 1.2))
	broken.offers(offer("b-1", "l40s", 0.9))
	c := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{good, flaky, slow, broken}, SourceTimeout: 50 * time.Millisecond})
	refresh(t, c, t0)

	flaky.fail(errors.New("upstream 502"))
	slow.set(func(ctx context.Context) (*catalog.Batch, error) { <-ctx.Done(); return nil, ctx.Err() })
	broken.set(func(context.Context) (*catalog.Batch, error) { panic("parser bug") })
	t1 := t0.Add(4 * time.Hour)
	rep := refresh(t, c, t1)
	failed := map[string]string{}
	for _, s := range rep.Sources {
		if s.Failed() {
			failed[s.Name] = s.Error
		}
	}
	if len(failed) != 3 || !strings.Contains(failed["flaky"], "upstream 502") ||
		!strings.Contains(failed["slow"], "deadline exceeded") || !strings.Contains(failed["broken"], "panicked: parser bug") {
		t.Errorf("failures = %v", failed)
	}
	v := current(t, c)
	if got := keysOf(v.Offers); !slices.Equal(got, []string{"b-1", "f-1", "f-2", "g-1", "s-1"}) {
		t.Errorf("offers after failures = %v; the failed sources' last good data must stay", got)
	}
	st, _ := v.Source("flaky")
	if !st.Stale() || !st.StaleSince.Equal(t1) || !st.LastSuccess.Equal(t0) || st.Age(t1) != 4*time.Hour || st.Offers != 2 {
		t.Errorf("flaky status = %+v", st)
	}
	if !rep.Diff.Empty() {
		t.Errorf("failures produced changes: %+v", rep.Diff.Changes)
	}

	// Still failing: stale since the first failure. Then recovered.
	t2 := t1.Add(4 * time.Hour)
	refresh(t, c, t2)
	st, _ = current(t, c).Source("flaky")
	if !st.StaleSince.Equal(t1) {
		t.Errorf("stale since moved to %v", st.StaleSince)
	}
	flaky.offers(offer("f-1", "h100-sxm", 2.5), offer("f-2", "h100-sxm", 2.6))
	refresh(t, c, t2.Add(time.Hour))
	st, _ = current(t, c).Source("flaky")
	if st.Stale() || st.Error != "" {
		t.Errorf("recovered status = %+v", st)
	}
}

func TestValidationAndIntegrity(t *testing.T) {
	_, rdb := newRedis(t)
	src := &fake{name: "src"}
	src.offers(offers("o", "rtx4090", 10, 0.4)...)
	c := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{src}, Base: knowledge.MustShipped()})
	refresh(t, c, t0)

	// Losing 6 of 10 at once is refused; the 10 stay.
	src.offers(offers("o", "rtx4090", 4, 0.4)...)
	rep := refresh(t, c, t0.Add(time.Hour))
	if !strings.Contains(rep.Sources[0].Error, "integrity: 4 offers where the last good snapshot had 10") {
		t.Errorf("error = %q", rep.Sources[0].Error)
	}
	if n := len(current(t, c).Offers); n != 10 {
		t.Errorf("offers = %d, want the last good 10", n)
	}

	// Single bad offers are reported and the rest is stored; the bad ones'
	// last good copies stay (a failing row is a source problem, not a removal).
	bad := offers("o", "rtx4090", 10, 0.4)
	bad[0].PriceLow, bad[0].PriceHigh = 0, 0   // zero is never a price
	bad[1].PriceLow, bad[1].PriceHigh = 45, 45 // 45 USD for a 4090 card-hour
	bad[2].GPU = "imaginary-9999"
	src.offers(bad...)
	rep = refresh(t, c, t0.Add(3*time.Hour))
	if r := rep.Sources[0]; r.Failed() || r.Offers != 10 || len(r.Rejected) != 3 || r.Carried != 3 || r.Status.RowProblems() != 3 {
		t.Errorf("report = %+v", r)
	}

	// Mostly garbage: the whole batch is refused.
	garbage := offers("o", "rtx4090", 10, 0.4)
	for i := range 6 {
		garbage[i].Currency = "EUR"
	}
	src.offers(garbage...)
	rep = refresh(t, c, t0.Add(4*time.Hour))
	if !strings.Contains(rep.Sources[0].Error, "integrity: 6 of 10 offers failed validation") || len(current(t, c).Offers) != 10 {
		t.Errorf("error = %q", rep.Sources[0].Error)
	}
}

func TestUnchangedFileSourceIsNotRewritten(t *testing.T) {
	m, rdb := newRedis(t)
	src := &fake{name: catalog.TeamFileSource}
	src.offers(offer("t-1", "rtx4090", 0.4))
	c := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{src}})
	if rep := refresh(t, c, t0); !rep.Sources[0].Replaced {
		t.Error("first refresh did not store")
	}
	before, _ := m.Get("gpubot:{catalog}:snap:team-file")
	if rep := refresh(t, c, t0.Add(time.Hour)); rep.Sources[0].Replaced {
		t.Error("unchanged content stored again")
	}
	after, _ := m.Get("gpubot:{catalog}:snap:team-file")
	if before != after {
		t.Error("snapshot rewritten")
	}
}

func TestPricesAreStoredAsDecimalStrings(t *testing.T) {
	m, rdb := newRedis(t)
	src := &fake{name: "src"}
	o := offer("k", "a100-80g", 1.19)
	o.PriceHigh = 1.64
	src.offers(o)
	c := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{src}})
	refresh(t, c, t0)
	raw, err := m.Get("gpubot:{catalog}:snap:src")
	if err != nil {
		t.Fatal(err)
	}
	var snap struct{ Offers []map[string]any }
	json.Unmarshal([]byte(raw), &snap)
	if snap.Offers[0]["price_low"] != "1.19" || snap.Offers[0]["price_high"] != "1.64" {
		t.Errorf("stored prices = %#v %#v, want decimal strings", snap.Offers[0]["price_low"], snap.Offers[0]["price_high"])
	}
	members, _ := m.ZMembers("gpubot:catalog:hist:k")
	if len(members) != 1 || !strings.Contains(members[0], "|1.19|1.64|0|1.19|USD|") {
		t.Errorf("history = %q", members)
	}
	if got := current(t, c).Offers[0]; got.PriceLow != 1.19 || got.PriceHigh != 1.64 {
		t.Errorf("read back %v–%v", got.PriceLow, got.PriceHigh)
	}
}

func TestMergePrecedence(t *testing.T) {
	_, rdb := newRedis(t)
	shipped, api, team := &fake{name: catalog.ShippedSource}, &fake{name: "zz-api"}, &fake{name: catalog.TeamFileSource}
	shipped.offers(offer("same", "rtx4090", 0.5), offer("seed-only", "rtx4090", 0.6))
	api.offers(offer("same", "rtx4090", 0.45))
	team.offers(offer("same", "rtx4090", 0.42))
	c := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{team, api, shipped}})
	refresh(t, c, t0)
	v := current(t, c)
	if len(v.Offers) != 2 || v.Offers[0].Key != "same" || v.Offers[0].PriceLow != 0.42 {
		t.Errorf("merged = %+v; the team file wins a shared key", v.Offers)
	}
}

func TestBaseline(t *testing.T) {
	_, rdb := newRedis(t)
	c := catalog.New(rdb, catalog.Options{})
	ctx := context.Background()
	if _, _, ok, err := c.Baseline(ctx, "daily"); ok || err != nil {
		t.Fatalf("empty baseline: ok %v err %v", ok, err)
	}
	want := []knowledge.Offer{offer("a", "rtx4090", 0.4)}
	if err := c.SaveBaseline(ctx, "daily", want, t0, 8*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	got, at, ok, err := c.Baseline(ctx, "daily")
	if err != nil || !ok || !at.Equal(t0) {
		t.Fatalf("Baseline = %v, %v, %v", at, ok, err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestStatusListsConfiguredSources(t *testing.T) {
	_, rdb := newRedis(t)
	ran, never := &fake{name: "ran"}, &fake{name: "never"}
	ran.offers(offer("r", "rtx4090", 0.4))
	c := catalog.New(rdb, catalog.Options{Sources: []catalog.Source{ran}})
	refresh(t, c, t0)
	c = catalog.New(rdb, catalog.Options{Sources: []catalog.Source{ran, never}})
	st, err := c.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 2 || st[0].Name != "never" || !st[0].LastAttempt.IsZero() || st[1].Name != "ran" || st[1].Offers != 1 || !st[1].LastSuccess.Equal(t0) {
		t.Errorf("status = %+v", st)
	}
}
