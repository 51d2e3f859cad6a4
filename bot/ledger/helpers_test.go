package ledger

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // Asia/Shanghai on machines without zoneinfo

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// newStore gives a suite its Redis: miniredis in unit tests, a real
// redis-server in ledger_integration_test.go.
type newStore func(t *testing.T) *store.Store

func miniStore(t *testing.T) *store.Store {
	t.Helper()
	m := miniredis.RunT(t)
	s := &store.Store{Redis: redis.NewClient(&redis.Options{Addr: m.Addr()})}
	t.Cleanup(func() { s.Redis.Close() })
	return s
}

func shanghai(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func newLedger(t *testing.T, st *store.Store) (*Ledger, *bottest.Clock) {
	t.Helper()
	loc := shanghai(t)
	c := bottest.NewClock(time.Date(2026, 11, 1, 9, 0, 0, 0, loc))
	return New(st, Options{KB: knowledge.MustShipped(), Location: loc, Now: c.Now}), c
}

var (
	teamsMu     sync.Mutex
	teamsByTest = map[*testing.T][]string{}
)

// team returns a workspace id no other test uses, so suites can share one
// real Redis; realStore deletes the keys of a test's teams when it ends.
func team(t *testing.T) string {
	t.Helper()
	var b [4]byte
	rand.Read(b[:])
	tm := "T" + hex.EncodeToString(b[:])
	teamsMu.Lock()
	teamsByTest[t] = append(teamsByTest[t], tm)
	teamsMu.Unlock()
	return tm
}

func teamsOf(t *testing.T) []string {
	teamsMu.Lock()
	defer teamsMu.Unlock()
	return teamsByTest[t]
}

// teamOfKey reads the hash tag of a ledger key.
func teamOfKey(k string) string {
	_, rest, ok := strings.Cut(k, "{")
	if !ok {
		return ""
	}
	tm, _, _ := strings.Cut(rest, "}")
	return tm
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// waitRedis polls until a server answers PING on port, for up to 10 s.
func waitRedis(t *testing.T, port int) {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port), MaxRetries: -1})
	defer c.Close()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for {
		if c.Ping(context.Background()).Err() == nil {
			return
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("redis-server on port %d did not start", port)
		}
	}
}

func mustAdd(t *testing.T, l *Ledger, e Entry) Entry {
	t.Helper()
	got, err := l.Add(context.Background(), e)
	if err != nil {
		t.Fatalf("Add(%+v): %v", e, err)
	}
	return got
}

func importSample(t *testing.T, l *Ledger, team string) *ImportResult {
	t.Helper()
	f, err := os.Open("testdata/sample_bill.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := l.Import(context.Background(), team, "UADMIN", f, "sample_bill.csv")
	if err != nil {
		t.Fatalf("Import(sample_bill.csv): %v", err)
	}
	return res
}

func ids(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func cny(minor int64) Money { return Money{Minor: minor, Currency: knowledge.CNY} }
func usd(minor int64) Money { return Money{Minor: minor, Currency: knowledge.USD} }
