package bottest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/infra/redisconn"
)

// RealRedis returns a client for the redis-server at REDIS_URL — one server
// (make test starts one) or a Redis Cluster (make test-cluster) — and a key
// prefix of the test's own ("gpubot-test-<name>-<random>:"), so tests can
// share one server. It skips the test when REDIS_URL is unset, so plain
// go test needs no Redis. When the test ends it deletes every key under
// the prefix and under each of patterns (keys a package writes outside its
// prefix, such as "gpubot:lock:{<name>}*"; on a cluster every master is
// scanned), then closes the client.
//
// It is the module's one reader of REDIS_URL in tests (internal/policy
// refuses another): a test that needs the URL itself (to open a
// store.Store, or to give a whole bot) takes RealRedisURL.
func RealRedis(t testing.TB, patterns ...string) (redis.UniversalClient, string) {
	t.Helper()
	rdb, err := redisconn.Open(RealRedisURL(t))
	if err != nil {
		t.Fatalf("open REDIS_URL: %v", err)
	}
	var r [4]byte
	_, _ = rand.Read(r[:])
	name := strings.NewReplacer("/", "-", " ", "_", "{", "", "}", "").Replace(t.Name())
	prefix := "gpubot-test-" + name + "-" + hex.EncodeToString(r[:]) + ":"
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for _, p := range append([]string{prefix + "*"}, patterns...) {
			if err := deleteMatching(ctx, rdb, p); err != nil {
				t.Logf("RealRedis cleanup %s: %v", p, err)
			}
		}
		rdb.Close()
	})
	return rdb, prefix
}

// RealRedisURL is REDIS_URL, the real redis-server (or Redis Cluster) make
// test and make test-cluster start, and skips the test when it is unset.
// The caller cleans up what it writes; RealRedis does that for keys under
// its prefix.
func RealRedisURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Skip("REDIS_URL not set; make test starts a real redis-server")
	}
	return url
}

// deleteMatching deletes the keys matching pattern, one key at a time so
// that keys in different cluster slots are fine.
func deleteMatching(ctx context.Context, rdb redis.UniversalClient, pattern string) error {
	scan := func(ctx context.Context, c redis.Cmdable) error {
		iter := c.Scan(ctx, 0, pattern, 1000).Iterator()
		for iter.Next(ctx) {
			if err := rdb.Del(ctx, iter.Val()).Err(); err != nil {
				return err
			}
		}
		return iter.Err()
	}
	if cc, ok := rdb.(*redis.ClusterClient); ok {
		return cc.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error { return scan(ctx, c) })
	}
	return scan(ctx, rdb)
}
