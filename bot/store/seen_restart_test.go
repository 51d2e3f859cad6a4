package store

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
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

// TestDeduplicationMarksSurviveCompaction: issue #28 item 9, the rest of
// it — the marks survived a restart only while they were still in the
// journal. Compaction (every 8 MiB of writes, and at shutdown) wrote a
// snapshot of the keys without a TTL and emptied the journal, so a watch
// replayed after a compaction and a restart was created twice. The
// snapshot keeps the marks with the time they had left and when it was
// taken; a restart gives them back minus the time since.
func TestDeduplicationMarksSurviveCompaction(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := reopen(t, dir)
	const mark, short = "gpubot:seen:trigger:T1:trig-watch-1", "gpubot:seen:event:Ev-short"
	if !s.Redis.SetNX(ctx, mark, 1, 24*time.Hour).Val() {
		t.Fatal("first claim failed")
	}
	s.Redis.SetNX(ctx, short, 1, time.Second)
	s.Redis.Set(ctx, "gpubot:lock:sched", "1", time.Hour)
	s.Redis.Set(ctx, "gpubot:ledger:T1", "kept", 0)
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	if raw, err := os.ReadFile(journalPath(dir, 1)); err != nil || len(raw) != 0 {
		t.Fatalf("journal after compaction: %d bytes, err %v; want empty (the marks must come from the snapshot)", len(raw), err)
	}
	s.Close()

	// Say the restart came 2 s after the snapshot: move its clock back.
	path := filepath.Join(dir, snapshotV2File)
	var snap snapshotV2
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &snap); err != nil {
		t.Fatal(err)
	}
	if snap.Taken == 0 {
		t.Fatal("the snapshot does not say when it was taken")
	}
	snap.Taken -= 2000
	raw, _ = json.Marshal(snap)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}

	s = reopen(t, dir)
	defer s.Close()
	if s.Redis.SetNX(ctx, mark, 1, 24*time.Hour).Val() {
		t.Error("the replayed request claimed its key again after compaction and a restart: it would be answered twice")
	}
	// 24 h − 2 s since the snapshot (and a few ms of the test).
	if ttl := s.Redis.TTL(ctx, mark).Val(); ttl > 24*time.Hour-2*time.Second || ttl < 24*time.Hour-time.Minute {
		t.Errorf("mark TTL after compaction and restart = %v, want 24h − 2s", ttl)
	}
	if s.Redis.Exists(ctx, short).Val() != 0 {
		t.Error("a 1 s mark was back 2 s after its snapshot")
	}
	if s.Redis.Exists(ctx, "gpubot:lock:sched").Val() != 0 {
		t.Error("a lock survived compaction and a restart")
	}
	if s.Redis.Get(ctx, "gpubot:ledger:T1").Val() != "kept" {
		t.Error("a key without a TTL was lost")
	}
}
