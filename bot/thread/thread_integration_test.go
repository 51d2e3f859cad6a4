package thread

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/redis/go-redis/v9"
)

// TestRealRedis runs against the redis-server at REDIS_URL
// (scripts/with-redis.sh), and is skipped without one.
func TestRealRedis(t *testing.T) {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Skip("REDIS_URL not set")
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	defer rdb.Close()
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
