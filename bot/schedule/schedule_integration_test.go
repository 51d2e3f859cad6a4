package schedule_test

import (
	"context"
	"os"
	"testing"

	"github.com/gpubot/gpubot/infra/redisconn"
)

// These run against a real redis-server at REDIS_URL (make test starts one)
// and skip when it is unset. Every key carries the test's own prefix, team
// and lock name; the test deletes them when it ends.
func realEnv(t *testing.T) *env {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Skip("REDIS_URL not set; make test starts a real redis-server")
	}
	rdb, err := redisconn.Open(url) // one server, or a Redis Cluster (make test-cluster)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnvOn(t, nil, rdb)
	t.Cleanup(func() {
		ctx := context.Background()
		for _, pattern := range []string{e.prefix + "*", "gpubot:lock:{" + e.lock + "*", "gpubot:post:*" + e.team + "*"} {
			iter := rdb.Scan(ctx, 0, pattern, 1000).Iterator()
			for iter.Next(ctx) {
				rdb.Del(ctx, iter.Val())
			}
		}
		rdb.Close()
	})
	return e
}

func TestRealRedisTwoSchedulersRacingPostOnce(t *testing.T) {
	for _, same := range []bool{true, false} {
		racing(t, realEnv(t), same)
	}
}
