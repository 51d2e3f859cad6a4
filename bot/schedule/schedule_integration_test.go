package schedule_test

import (
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
)

// These run against a real redis-server at REDIS_URL (make test starts one)
// and skip when it is unset. Every key carries the test's own prefix, team
// and lock name; bottest.RealRedis deletes them when the test ends.
func realEnv(t *testing.T) *env {
	t.Helper()
	id := newID()
	rdb, prefix := bottest.RealRedis(t, "gpubot:lock:{scheduler-"+id+"*", "gpubot:post:*T"+id+"*")
	return newEnvOn(t, nil, rdb, prefix, id)
}

func TestRealRedisTwoSchedulersRacingPostOnce(t *testing.T) {
	for _, same := range []bool{true, false} {
		racing(t, realEnv(t), same)
	}
}
