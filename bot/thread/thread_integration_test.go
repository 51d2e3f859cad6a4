package thread

import (
	"context"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// TestRealRedis runs against the redis-server at REDIS_URL
// (scripts/with-redis.sh), and is skipped without one.
func TestRealRedis(t *testing.T) {
	rdb, _ := bottest.RealRedis(t)
	ctx := context.Background()
	c := Conversation{"Tit", "Cit", time.Now().Format("150405.000000000")}
	defer rdb.Del(ctx, c.Key())
	s := New(rdb, Options{ThreadTTL: time.Minute})
	p := parse.New(knowledge.MustShipped())
	if err := s.Put(ctx, c, p.Parse("4090 hourly rate on vast?")); err != nil {
		t.Fatal(err)
	}
	prev, ok, err := s.Last(ctx, c)
	if err != nil || !ok {
		t.Fatalf("Last = %v, %v", ok, err)
	}
	got, follow := p.FollowUp(prev, "and on runpod?", time.Time{})
	if !follow || got.Intent != parse.Price || got.Slots.Platform != "runpod" {
		t.Errorf("follow-up = %s %+v (%v); want price on runpod", got.Intent, got.Slots, follow)
	}
	ttl, err := rdb.TTL(ctx, c.Key()).Result()
	if err != nil || ttl <= 0 || ttl > time.Minute {
		t.Errorf("TTL = %v, %v; want up to a minute", ttl, err)
	}
}
