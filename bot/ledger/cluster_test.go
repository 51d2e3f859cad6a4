package ledger

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/store"
)

// nodeFor is the client to inspect key with: the store's own, or on a
// Redis Cluster the master that holds key's slot (KEYS and SCAN see one
// node only). A team's keys share the {team} tag, so one node holds them all.
func nodeFor(t *testing.T, st *store.Store, key string) redis.Cmdable {
	t.Helper()
	cc, ok := st.Client().(*redis.ClusterClient)
	if !ok {
		return st.Client()
	}
	node, err := cc.MasterForKey(context.Background(), key)
	if err != nil {
		t.Fatalf("cluster node for %s: %v", key, err)
	}
	return node
}
