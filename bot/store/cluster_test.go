package store

import (
	"context"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/bottest"
)

// TestClusterURLGetsAClusterClient: REDIS_URL in either cluster form gives
// a cluster client as Client, and Redis is a plain client of the first
// seed (for code still typed *redis.Client); a plain URL gives one client.
func TestClusterURLGetsAClusterClient(t *testing.T) {
	for url, cluster := range map[string]bool{
		"redis://127.0.0.1:7000?addr=127.0.0.1:7001&addr=127.0.0.1:7002":         true,
		"rediss://:tok@clustercfg.example.cache.amazonaws.com:6379?cluster=true": true,
		"redis://127.0.0.1:6379/0": false,
	} {
		st, err := New(url)
		if err != nil {
			t.Fatalf("New(%s): %v", url, err)
		}
		_, isCluster := st.Client().(*redis.ClusterClient)
		if isCluster != cluster {
			t.Errorf("New(%s).Client() is a %T, want cluster=%v", url, st.Client(), cluster)
		}
		if st.Redis == nil || (cluster && !strings.Contains(url, st.Redis.Options().Addr)) {
			t.Errorf("New(%s).Redis = %v, want a client of the first seed", url, st.Redis)
		}
		if err := st.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
}

// TestOpenOnACluster: Open pings the cluster and writes through it (make
// test-cluster sets REDIS_URL to one).
func TestOpenOnACluster(t *testing.T) {
	url := bottest.RealRedisURL(t)
	if !strings.Contains(url, "addr=") {
		t.Skip("REDIS_URL does not name a Redis Cluster; make test-cluster starts one")
	}
	st, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for _, k := range []string{"gpubot-test:cluster:a", "gpubot-test:cluster:b", "gpubot-test:cluster:c"} {
		if err := st.Client().Set(ctx, k, "1", 0).Err(); err != nil {
			t.Errorf("SET %s on the cluster: %v", k, err)
		}
		st.Client().Del(ctx, k)
	}
}
