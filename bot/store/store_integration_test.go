package store

import (
	"context"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/bottest"
)

func TestRealRedisRoundTrip(t *testing.T) {
	url := bottest.RealRedisURL(t)
	ctx := context.Background()
	s, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Embedded {
		t.Fatal("Open(REDIS_URL) used the embedded server")
	}
	key := "gpubot:test:" + t.Name()
	if err := s.Redis.Set(ctx, key, "1", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	defer s.Redis.Del(ctx, key)
	ttl := s.Redis.TTL(ctx, key).Val()
	if ttl <= 0 || ttl > time.Minute {
		t.Errorf("TTL = %v, want within (0, 1m]", ttl)
	}
	info := s.Redis.Info(ctx, "server").Val()
	if info == "" {
		t.Error("INFO server returned nothing from a real redis-server")
	}
}
