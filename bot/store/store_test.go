package store

import (
	"context"
	"os"
	"testing"
)

func TestOpenEmbeddedAnswersPing(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Embedded {
		t.Error("Open(\"\") Embedded = false, want true")
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping on embedded redis: %v", err)
	}
	if err := s.Redis.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if got := s.Redis.Get(ctx, "k").Val(); got != "v" {
		t.Errorf("Get(k) = %q, want v", got)
	}
	s.Close()
	if err := s.Ping(ctx); err == nil {
		t.Error("Ping after Close succeeded, want an error")
	}
}

func TestOpenRejectsBadURL(t *testing.T) {
	if _, err := Open(context.Background(), "http://not-redis"); err == nil {
		t.Fatal("Open(http://…) succeeded, want a parse error")
	}
}

func TestOpenUnreachableRedisFails(t *testing.T) {
	// Port 1 on loopback is never a Redis server.
	if _, err := Open(context.Background(), "redis://127.0.0.1:1/0"); err == nil {
		t.Fatal("Open on a closed port succeeded, want a ping error")
	}
}

// realRedis returns REDIS_URL or skips; make test starts a redis-server and
// sets it, so CI always runs these.
func realRedis(t *testing.T) string {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Skip("REDIS_URL not set; make test starts a real redis-server")
	}
	return url
}
