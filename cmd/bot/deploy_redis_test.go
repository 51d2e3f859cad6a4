package main

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisArgs is the redis-server command line of a manifest's Redis.
func redisArgs(t *testing.T, path string, find func(doc map[string]any) any) []string {
	t.Helper()
	for _, d := range readYAML(t, path) {
		if v, ok := find(d).([]any); ok && len(v) > 0 && v[0] == "redis-server" {
			out := make([]string, len(v))
			for i, a := range v {
				out[i] = fmt.Sprint(a)
			}
			return out
		}
	}
	t.Fatalf("%s: no redis-server command found", path)
	return nil
}

func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// megabytes reads "160mb" or "256Mi" as MiB.
func megabytes(t *testing.T, s string) int {
	t.Helper()
	s = strings.ToLower(s)
	for _, suf := range []string{"mib", "mi", "mb"} {
		if n, err := strconv.Atoi(strings.TrimSuffix(s, suf)); err == nil && strings.HasSuffix(s, suf) {
			return n
		}
	}
	t.Fatalf("cannot read the size %q", s)
	return 0
}

// TestRedisManifestsBoundMemoryWithoutEvictingTheLedger: issue #28 item 6 —
// the manifests shipped no maxmemory, so answer families grew until the
// pod was killed. Both now set maxmemory (under the Kubernetes container
// limit, leaving room for the AOF rewrite's fork) with a volatile-* policy,
// which evicts only keys with a TTL: never the ledger's, which have none.
func TestRedisManifestsBoundMemoryWithoutEvictingTheLedger(t *testing.T) {
	k8s := redisArgs(t, "../../deploy/k8s/redis.yaml", func(d map[string]any) any {
		cs, _ := dig(d, "spec", "template", "spec", "containers").([]any)
		if len(cs) == 0 {
			return nil
		}
		return dig(cs[0], "args")
	})
	compose := redisArgs(t, "../../deploy/compose.yaml", func(d map[string]any) any { return dig(d, "services", "redis", "command") })
	for name, args := range map[string][]string{"deploy/k8s/redis.yaml": k8s, "deploy/compose.yaml": compose} {
		if p := flagValue(args, "--maxmemory-policy"); !strings.HasPrefix(p, "volatile-") {
			t.Errorf("%s: maxmemory-policy %q, want a volatile-* policy (allkeys-* would evict ledger entries)", name, p)
		}
		if flagValue(args, "--maxmemory") == "" {
			t.Errorf("%s: no --maxmemory", name)
		}
	}
	var limit string
	for _, d := range readYAML(t, "../../deploy/k8s/redis.yaml") {
		if cs, _ := dig(d, "spec", "template", "spec", "containers").([]any); len(cs) > 0 {
			limit, _ = dig(cs[0], "resources", "limits", "memory").(string)
		}
	}
	if mm, lim := megabytes(t, flagValue(k8s, "--maxmemory")), megabytes(t, limit); mm*4 > lim*3 {
		t.Errorf("k8s maxmemory %d MiB is over 75%% of the container's %d MiB limit: no room for the AOF rewrite", mm, lim)
	}
}

// TestVolatilePolicyNeverEvictsKeysWithoutTTL runs the manifests' policy on
// a real redis-server with a tiny maxmemory: keys without a TTL (as every
// ledger key is) all survive a flood of keys with one (as every answer
// family is), while the flood is evicted. Skips without redis-server.
func TestVolatilePolicyNeverEvictsKeysWithoutTTL(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not installed (scripts/with-redis.sh installs it)")
	}
	port := freePort(t)
	policy := flagValue(redisArgs(t, "../../deploy/k8s/redis.yaml", func(d map[string]any) any {
		cs, _ := dig(d, "spec", "template", "spec", "containers").([]any)
		if len(cs) == 0 {
			return nil
		}
		return dig(cs[0], "args")
	}), "--maxmemory-policy")
	srv := exec.Command(bin, "--bind", "127.0.0.1", "--port", strconv.Itoa(port), "--save", "", "--appendonly", "no",
		"--maxmemory", "4mb", "--maxmemory-policy", policy, "--dir", t.TempDir())
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port)})
	defer rdb.Close()
	ctx := context.Background()
	for deadline := time.Now().Add(5 * time.Second); rdb.Ping(ctx).Err() != nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("redis-server did not start")
		}
	}
	const ledger = 200
	for i := range ledger {
		rdb.HSet(ctx, fmt.Sprintf("gpubot:ledger:{T1}:e:%d", i), "amount", "200", "note", strings.Repeat("n", 200))
	}
	family := strings.Repeat("f", 25<<10) // ~25 KB, the red team's family size
	for i := range 2000 {                 // ~50 MB of families into 4 MB
		if err := rdb.Set(ctx, fmt.Sprintf("gpubot:answer:%024x", i), family, 24*time.Hour).Err(); err != nil {
			t.Fatalf("family %d: %v (the policy should evict, not refuse)", i, err)
		}
	}
	for i := range ledger {
		if n := rdb.Exists(ctx, fmt.Sprintf("gpubot:ledger:{T1}:e:%d", i)).Val(); n != 1 {
			t.Fatalf("ledger key %d was evicted under %s", i, policy)
		}
	}
	if n := rdb.DBSize(ctx).Val(); n >= ledger+2000 {
		t.Errorf("%d keys: nothing was evicted at a 4 MB maxmemory", n)
	}
}
