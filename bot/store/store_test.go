package store

import (
	"context"
	"testing"
	"time"
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

func TestEmbeddedRedisExpiresKeysAsTimePasses(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// A second clock on a short tick, as a long-running bot's would be.
	s2 := &Store{mini: s.mini, stop: make(chan struct{}), done: make(chan struct{})}
	go s2.clock(5 * time.Millisecond)
	defer func() { close(s2.stop); <-s2.done }()
	if err := s.Redis.Set(ctx, "dedupe", "1", 50*time.Millisecond).Err(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for s.Redis.Exists(ctx, "dedupe").Val() == 1 {
		if time.Now().After(deadline) {
			t.Fatal("a key with a 50 ms TTL never expired in the embedded Redis")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
