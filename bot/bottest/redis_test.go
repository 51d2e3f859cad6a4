package bottest_test

import (
	"context"
	"os"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/infra/redisconn"
)

// RealRedis leaves nothing behind: keys under its prefix and under the
// extra patterns are gone when the test that made them ends, others stay.
func TestRealRedisCleansUpAfterTheTest(t *testing.T) {
	if os.Getenv("REDIS_URL") == "" {
		t.Skip("REDIS_URL not set; make test starts a real redis-server")
	}
	ctx := context.Background()
	other, err := redisconn.Open(os.Getenv("REDIS_URL"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// A key the test did not write, close to the patterns: it must survive.
	keep := "gpubot-test-keep-{RealRedisCleanup}"
	other.Set(ctx, keep, "1", 0)
	defer other.Del(ctx, keep)
	var prefix string
	t.Run("writes", func(t *testing.T) {
		c, p := bottest.RealRedis(t, "gpubot-test-extra-{RealRedisCleanup}*")
		prefix = p
		for _, k := range []string{p + "a", p + "b", "gpubot-test-extra-{RealRedisCleanup}x"} {
			if err := c.Set(ctx, k, "1", 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
	})
	for _, k := range []string{prefix + "a", prefix + "b", "gpubot-test-extra-{RealRedisCleanup}x"} {
		if n := other.Exists(ctx, k).Val(); n != 0 {
			t.Errorf("%s still there after the test ended", k)
		}
	}
	if other.Exists(ctx, keep).Val() != 1 {
		t.Errorf("%s, outside the prefix and patterns, was deleted", keep)
	}
}
