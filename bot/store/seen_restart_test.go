package store

import (
	"context"
	"testing"
	"time"
)

// TestDeduplicationMarksSurviveARestart: issue #28 item 9 — a request
// replayed after an embedded restart (within its signature's 5 minutes) was
// answered again, because the restart dropped every key with a TTL,
// de-duplication marks included. The marks (gpubot:seen:*) now survive
// with their time left, so SET NX on the replayed key still fails; locks
// and caches are still dropped.
func TestDeduplicationMarksSurviveARestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := reopen(t, dir)
	const mark = "gpubot:seen:trigger:T1:trig-watch-1"
	if !s.Redis.SetNX(ctx, mark, 1, 24*time.Hour).Val() {
		t.Fatal("first claim failed")
	}
	s.Redis.Set(ctx, "gpubot:lock:sched", "1", time.Hour)
	s.Close()
	s = reopen(t, dir)
	defer s.Close()
	if s.Redis.SetNX(ctx, mark, 1, 24*time.Hour).Val() {
		t.Error("the replayed request claimed its key again after the restart: it would be answered twice")
	}
	if ttl := s.Redis.TTL(ctx, mark).Val(); ttl <= 0 || ttl > 24*time.Hour {
		t.Errorf("mark TTL after restart = %v, want its time left (≤ 24 h)", ttl)
	}
	if s.Redis.Exists(ctx, "gpubot:lock:sched").Val() != 0 {
		t.Error("a lock survived the restart")
	}
}
