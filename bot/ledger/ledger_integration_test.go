package ledger

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/store"
)

// These run the suites against a real redis-server at REDIS_URL (make test
// starts one) and skip when it is unset. Each test uses its own team ids and
// deletes its keys afterwards.

func realStore(t *testing.T) *store.Store {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Skip("REDIS_URL not set; make test starts a real redis-server")
	}
	st, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("open REDIS_URL: %v", err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		// Only this test's teams: team() ids are random, keys carry {team}.
		iter := st.Redis.Scan(ctx, 0, "gpubot:ledger:{T*}:*", 1000).Iterator()
		mine := map[string]bool{}
		for _, tm := range teamsOf(t) {
			mine[tm] = true
		}
		for iter.Next(ctx) {
			k := iter.Val()
			if tm := teamOfKey(k); mine[tm] {
				st.Redis.Del(ctx, k)
			}
		}
		st.Close()
	})
	return st
}

func TestRealRedisCRUD(t *testing.T)           { suiteCRUD(t, realStore) }
func TestRealRedisAddRejects(t *testing.T)     { suiteAddRejects(t, realStore) }
func TestRealRedisMonthBoundary(t *testing.T)  { suiteMonthBoundary(t, realStore) }
func TestRealRedisSampleBill(t *testing.T)     { suiteSampleBill(t, realStore) }
func TestRealRedisConcurrentAdds(t *testing.T) { suiteConcurrentAdds(t, realStore) }
func TestRealRedisKeys(t *testing.T)           { suiteKeys(t, realStore) }

// TestRealRedisDown stops a redis-server of its own (REDIS_SERVER_BIN, set by
// scripts/with-redis.sh) under a ledger: writes are refused with ErrNotSaved,
// and what was confirmed before is there after it comes back.
func TestRealRedisDown(t *testing.T) {
	realStore(t) // skip unless make test
	bin := os.Getenv("REDIS_SERVER_BIN")
	if bin == "" {
		if p, err := exec.LookPath("redis-server"); err == nil {
			bin = p
		} else {
			t.Skip("no redis-server binary")
		}
	}
	ctx := context.Background()
	dir := t.TempDir()
	port := freePort(t)
	start := func() *exec.Cmd {
		cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", strconv.Itoa(port), "--dir", dir,
			"--appendonly", "yes", "--appendfsync", "always", "--save", "")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitRedis(t, port)
		return cmd
	}
	stop := func(cmd *exec.Cmd) {
		cmd.Process.Kill()
		cmd.Wait()
	}
	srv := start()
	defer func() { stop(srv) }()

	st := &store.Store{Redis: redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port), MaxRetries: -1, DialTimeout: time.Second, DialerRetries: 1, DialerRetryTimeout: time.Millisecond})}
	defer st.Redis.Close()
	l, _ := newLedger(t, st)
	tm := team(t)
	kept := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: cny(188)})

	stop(srv) // killed: only the AOF (appendfsync always) keeps the entry
	if _, err := l.Add(ctx, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 2, Amount: cny(376)}); !errors.Is(err, ErrNotSaved) {
		t.Errorf("Add with redis-server down err = %v, want ErrNotSaved", err)
	}
	srv = start()
	got, err := l.Get(ctx, tm, kept.ID)
	if err != nil || got.Amount != kept.Amount {
		t.Errorf("confirmed entry after a crash and restart = %+v, %v", got, err)
	}
	if all, _ := l.List(ctx, tm, Month{}, ""); len(all) != 1 {
		t.Errorf("after the outage %d entries, want 1 (the refused one is not there)", len(all))
	}
}
