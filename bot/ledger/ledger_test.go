package ledger

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

func TestCRUD(t *testing.T)             { suiteCRUD(t, miniStore) }
func TestAddRejects(t *testing.T)       { suiteAddRejects(t, miniStore) }
func TestMonthBoundary(t *testing.T)    { suiteMonthBoundary(t, miniStore) }
func TestSampleBill(t *testing.T)       { suiteSampleBill(t, miniStore) }
func TestConcurrentAdds(t *testing.T)   { suiteConcurrentAdds(t, miniStore) }
func TestNotSavedRedis(t *testing.T)    { suiteRedisDown(t) }
func TestKeysCarryTeamTag(t *testing.T) { suiteKeys(t, miniStore) }

func suiteRedisDown(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	st := &store.Store{Redis: redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1, DialTimeout: time.Second, DialerRetries: 1, DialerRetryTimeout: time.Millisecond})}
	defer st.Redis.Close()
	l, _ := newLedger(t, st)
	tm := team(t)
	kept := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: cny(188)})

	m.Close() // Redis goes away
	if _, err := l.Add(ctx, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 2, Amount: cny(376)}); !errors.Is(err, ErrNotSaved) {
		t.Errorf("Add with Redis stopped err = %v, want ErrNotSaved", err)
	}
	if _, err := l.Delete(ctx, tm, kept.ID, "U1", false); !errors.Is(err, ErrNotSaved) {
		t.Errorf("Delete with Redis stopped err = %v, want ErrNotSaved", err)
	}
	if _, err := l.Undo(ctx, tm, "U1"); !errors.Is(err, ErrNotSaved) {
		t.Errorf("Undo with Redis stopped err = %v, want ErrNotSaved", err)
	}
	if _, err := l.Import(ctx, tm, "U1", strings.NewReader(string(readSample(t))), "sample_bill.csv"); !errors.Is(err, ErrNotSaved) {
		t.Errorf("Import with Redis stopped err = %v, want ErrNotSaved", err)
	}
	if err := m.Restart(); err != nil {
		t.Fatal(err)
	}
	all, err := l.List(ctx, tm, Month{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{kept.ID}, ids(all)); d != "" {
		t.Errorf("after the outage (-want +got):\n%s", d)
	}

	// Nothing listening at all.
	closed := &store.Store{Redis: redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: time.Second, DialerRetries: 1, DialerRetryTimeout: time.Millisecond})}
	defer closed.Redis.Close()
	l2, _ := newLedger(t, closed)
	_, err = l2.Add(ctx, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: cny(188)})
	if !errors.Is(err, ErrNotSaved) {
		t.Errorf("Add to a closed port err = %v, want ErrNotSaved", err)
	}
	if err != nil && strings.Contains(err.Error(), "no such entry") {
		t.Errorf("storage failure reads like a verdict: %v", err)
	}

	// Redis answering with an error (loading, out of memory).
	m2 := miniredis.RunT(t)
	st2 := &store.Store{Redis: redis.NewClient(&redis.Options{Addr: m2.Addr(), MaxRetries: -1})}
	defer st2.Redis.Close()
	l3, _ := newLedger(t, st2)
	m2.SetError("OOM command not allowed when used memory > 'maxmemory'")
	if _, err := l3.Add(ctx, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: cny(188)}); !errors.Is(err, ErrNotSaved) {
		t.Errorf("Add while Redis refuses writes err = %v, want ErrNotSaved", err)
	}
}

// TestNotSavedSnapshot: in embedded mode a write whose snapshot cannot be
// written is refused and rolled back, so what the user was told (NOT saved)
// is what a restart shows.
func TestNotSavedSnapshot(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir() + "/data"
	st, err := store.OpenEmbedded(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l, _ := newLedger(t, st)
	tm := team(t)
	kept := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: cny(188)})

	// The data directory turns into a file: every snapshot now fails, even as root.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Add(ctx, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 2, Amount: cny(376)}); !errors.Is(err, ErrNotSaved) {
		t.Errorf("Add with a broken data dir err = %v, want ErrNotSaved", err)
	}
	if _, err := l.Import(ctx, tm, "U1", strings.NewReader(string(readSample(t))), "sample_bill.csv"); !errors.Is(err, ErrNotSaved) {
		t.Errorf("Import with a broken data dir err = %v, want ErrNotSaved", err)
	}
	if _, err := l.Delete(ctx, tm, kept.ID, "U1", false); !errors.Is(err, ErrNotSaved) {
		t.Errorf("Delete with a broken data dir err = %v, want ErrNotSaved", err)
	}
	if _, err := l.Undo(ctx, tm, "U1"); !errors.Is(err, ErrNotSaved) {
		t.Errorf("Undo with a broken data dir err = %v, want ErrNotSaved", err)
	}
	all, _ := l.List(ctx, tm, Month{}, "")
	if d := cmp.Diff([]string{kept.ID}, ids(all)); d != "" {
		t.Errorf("after refused writes the ledger holds (-want +got):\n%s", d)
	}
	// The import was rolled back too: a later import (disk fixed) adds every row.
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if res := importSample(t, l, tm); len(res.Added) != 25 {
		t.Errorf("import after the disk came back added %d rows, want 25", len(res.Added))
	}
	// Undo still finds the kept entry: the refused delete put it back.
	if gone, err := l.Undo(ctx, tm, "U1"); err != nil || gone.ID != kept.ID {
		t.Errorf("Undo after refused writes = %s, %v; want %s", gone.ID, err, kept.ID)
	}
}

// TestEmbeddedRestart: every confirmed entry survives a restart of the
// embedded mode, with its undo history and import keys.
func TestEmbeddedRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tm := team(t)

	st1, err := store.OpenEmbedded(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	l1, clk := newLedger(t, st1)
	clk.Set(time.Date(2026, 11, 1, 12, 0, 0, 0, l1.Location())) // after the sample bill's last day
	a := mustAdd(t, l1, Entry{Team: tm, User: "UALICE", GPU: "4090", Hours: 40, Amount: cny(7500), Project: "llm-ft", Note: "记一笔"})
	b := mustAdd(t, l1, Entry{Team: tm, User: "UALICE", GPU: "h100", Cards: 8, Hours: 3, Amount: usd(6000), Project: "pretrain"})
	importSample(t, l1, tm)
	gone := mustAdd(t, l1, Entry{Team: tm, User: "UBOB", GPU: "a100", Hours: 1, Amount: cny(500)})
	if _, err := l1.Undo(ctx, tm, "UBOB"); err != nil {
		t.Fatal(err)
	}
	before, _ := l1.List(ctx, tm, Month{}, "")
	beforeReport, _ := l1.Report(ctx, tm, Month{2026, time.October}, nil)
	if err := st1.Close(); err != nil {
		t.Fatal(err)
	}

	st2, err := store.OpenEmbedded(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	l2, _ := newLedger(t, st2)
	after, err := l2.List(ctx, tm, Month{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != 27 {
		t.Errorf("after restart %d entries, want 25 imported + 2 added", len(after))
	}
	if d := cmp.Diff(before, after); d != "" {
		t.Errorf("entries changed across a restart (-before +after):\n%s", d)
	}
	if _, err := l2.Get(ctx, tm, gone.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("undone entry %s is back after restart: %v", gone.ID, err)
	}
	afterReport, _ := l2.Report(ctx, tm, Month{2026, time.October}, nil)
	if d := cmp.Diff(beforeReport, afterReport); d != "" {
		t.Errorf("report changed across a restart (-before +after):\n%s", d)
	}
	if res := importSample(t, l2, tm); len(res.Added) != 0 || res.Duplicates != 25 {
		t.Errorf("re-import after restart added %d, duplicates %d; want 0, 25", len(res.Added), res.Duplicates)
	}
	if u, err := l2.Undo(ctx, tm, "UALICE"); err != nil || u.ID != b.ID {
		t.Errorf("Undo after restart = %s, %v; want %s", u.ID, err, b.ID)
	}
	if u, err := l2.Undo(ctx, tm, "UALICE"); err != nil || u.ID != a.ID {
		t.Errorf("second Undo after restart = %s, %v; want %s", u.ID, err, a.ID)
	}
}

func TestDerivedAmount(t *testing.T) {
	ctx := context.Background()
	loc := shanghai(t)
	var asked []PriceQuery
	price := func(_ context.Context, q PriceQuery) (Price, bool) {
		asked = append(asked, q)
		if q.GPU == "rtx4090" && q.Platform == "autodl" {
			return Price{PerCardHour: 1.88, Currency: knowledge.CNY, Source: "autodl rtx4090 on_demand, 2026-09-15"}, true
		}
		return Price{}, false
	}
	l := New(miniStore(t), Options{KB: knowledge.MustShipped(), Location: loc, Price: price})
	tm := team(t)
	at := time.Date(2026, 10, 3, 20, 0, 0, 0, loc)

	// 2 cards × 40 h × ¥1.88 = ¥150.40
	e := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Cards: 2, Hours: 40, Platform: "AutoDL 算力云", At: at})
	if e.Amount != cny(15040) || e.Derived != "80 card-h × 1.88 CNY (autodl rtx4090 on_demand, 2026-09-15)" {
		t.Errorf("derived amount = %v (%q), want ¥150.40 from 80 card-h × 1.88", e.Amount, e.Derived)
	}
	if want := (PriceQuery{Platform: "autodl", GPU: "rtx4090", Billing: OnDemand, At: at}); len(asked) != 1 || !asked[0].At.Equal(at) || asked[0].GPU != want.GPU || asked[0].Platform != want.Platform || asked[0].Billing != want.Billing {
		t.Errorf("price lookup got %+v, want %+v", asked, want)
	}
	// A given amount is never replaced.
	given := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 40, Platform: "autodl", Amount: cny(7500), At: at})
	if given.Amount != cny(7500) || given.Derived != "" || len(asked) != 1 {
		t.Errorf("given amount became %v (%q) after %d lookups", given.Amount, given.Derived, len(asked))
	}
	// No price known: the entry is kept, unpriced, and counted as such.
	free := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "h100", Hours: 3, Platform: "some-neocloud", At: at})
	if free.Priced() || free.Platform != "some-neocloud" {
		t.Errorf("unpriceable entry = %+v, want no amount and the free-text platform", free)
	}
	r, err := l.Report(ctx, tm, Month{2026, time.October}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Total.Unpriced != 1 || r.Total.Amount[knowledge.CNY] != 22540 || r.Total.CardHours != 123 {
		t.Errorf("report totals = %+v, want 1 unpriced, ¥225.40, 123 card-h", r.Total)
	}
}

func suiteKeys(t *testing.T, ns newStore) {
	st := ns(t)
	l, _ := newLedger(t, st)
	tm := team(t)
	mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: cny(188)})
	importSample(t, l, tm)
	node := nodeFor(t, st, "gpubot:ledger:{"+tm+"}:e") // on a cluster, the node with the team's slot
	keys, err := node.Keys(context.Background(), "gpubot:ledger:{"+tm+"}:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	p := "gpubot:ledger:{" + tm + "}:"
	want := map[string]string{p + "e": "hash", p + "t": "zset", p + "i": "hash", p + "k": "hash", p + "u:U1": "list"}
	got := map[string]string{}
	for _, k := range keys {
		got[k] = node.Type(context.Background(), k).Val()
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Redis keys of a team (-want +got):\n%s", d)
	}
	if n := node.HLen(context.Background(), p+"e").Val(); n != 26 {
		t.Errorf("entries hash holds %d, want 26", n)
	}
}

func TestNormalizeID(t *testing.T) {
	for in, want := range map[string]string{"abc123": "abc123", "#ABC123": "abc123", " OOlI99 ": "001199"} {
		if got, ok := NormalizeID(in); !ok || got != want {
			t.Errorf("NormalizeID(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "abc12", "abc1234", "abc12u", "ab c12"} {
		if got, ok := NormalizeID(in); ok {
			t.Errorf("NormalizeID(%q) = %q, want refused", in, got)
		}
	}
}

func TestMonth(t *testing.T) {
	for in, want := range map[string]Month{
		"2026-10": {2026, time.October}, "2026/1": {2026, time.January}, "202612": {2026, time.December}, "2026年3月": {2026, time.March},
	} {
		if got, err := ParseMonth(in); err != nil || got != want {
			t.Errorf("ParseMonth(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "2026-13", "oct", "26-10"} {
		if _, err := ParseMonth(in); err == nil {
			t.Errorf("ParseMonth(%q) accepted", in)
		}
	}
	jan := Month{2027, time.January}
	if jan.Prev() != (Month{2026, time.December}) || jan.Prev().Next() != jan || jan.String() != "2027-01" {
		t.Errorf("month arithmetic around new year broke: %v %v", jan.Prev(), jan.Prev().Next())
	}
	loc := shanghai(t)
	if s, e := jan.Start(loc), jan.End(loc); s.UTC() != time.Date(2026, 12, 31, 16, 0, 0, 0, time.UTC) || e.Sub(s) != 31*24*time.Hour {
		t.Errorf("January 2027 in Shanghai = [%v, %v)", s.UTC(), e.UTC())
	}
	if Shanghai.String() != "Asia/Shanghai" || time.Date(2026, 7, 1, 0, 0, 0, 0, Shanghai).UTC() != time.Date(2026, 7, 1, 0, 0, 0, 0, loc).UTC() {
		t.Error("the fixed Shanghai default disagrees with tzdata")
	}
}

// 上个月 answered '"last" is not a month' and 11月 '"11" is not a month'.
func TestResolveMonth(t *testing.T) {
	loc := shanghai(t)
	feb := time.Date(2027, 2, 10, 12, 0, 0, 0, loc)
	for in, want := range map[string]Month{
		"last": {2027, time.January}, "上个月": {2027, time.January}, "last month": {2027, time.January},
		"本月": {2027, time.February}, "11": {2026, time.November}, "11月": {2026, time.November}, "2月": {2027, time.February},
		"1": {2027, time.January}, "2026-10": {2026, time.October},
	} {
		if got, err := ResolveMonth(in, feb, loc); err != nil || got != want {
			t.Errorf("ResolveMonth(%q) in Feb 2027 = %v, %v; want %v", in, got, err, want)
		}
	}
	jan := time.Date(2027, 1, 5, 0, 0, 0, 0, loc)
	if got, _ := ResolveMonth("上个月", jan, loc); got != (Month{2026, time.December}) {
		t.Errorf("上个月 in January = %v, want 2026-12", got)
	}
	for _, in := range []string{"13月", "someday"} {
		if _, err := ResolveMonth(in, feb, loc); err == nil {
			t.Errorf("ResolveMonth(%q) accepted", in)
		}
	}
}
