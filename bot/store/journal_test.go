package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func reopen(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := OpenEmbedded(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every kind of write reaches the journal in the order it was applied, and
// a restart replays it: single commands, MULTI/EXEC, scripts run by SHA.
func TestJournalReplaysWrites(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := reopen(t, dir)
	r := s.Redis
	r.HSet(ctx, "h", "a", "1")
	r.HSet(ctx, "h", "a", "2") // order matters
	r.RPush(ctx, "l", "x", "y")
	r.LRem(ctx, "l", 1, "x")
	if _, err := r.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.ZAdd(ctx, "z", redis.Z{Member: "m", Score: 7})
		p.IncrBy(ctx, "n", 5)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	script := redis.NewScript(`return redis.call('INCRBY', KEYS[1], ARGV[1])`)
	for range 3 { // the first run is EVAL (NOSCRIPT), the others EVALSHA
		if err := script.Run(ctx, r, []string{"n"}, 10).Err(); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	s = reopen(t, dir)
	defer s.Close()
	r = s.Redis
	if got := r.HGet(ctx, "h", "a").Val(); got != "2" {
		t.Errorf("h.a = %q, want 2 (last write wins)", got)
	}
	if got := r.LRange(ctx, "l", 0, -1).Val(); fmt.Sprint(got) != "[y]" {
		t.Errorf("l = %v, want [y]", got)
	}
	if got := r.ZScore(ctx, "z", "m").Val(); got != 7 {
		t.Errorf("z.m = %v, want 7", got)
	}
	if got := r.Get(ctx, "n").Val(); got != "35" { // 5 + 3×10
		t.Errorf("n = %q, want 35", got)
	}
}

// A transaction whose WATCH fired changed nothing and is not journaled.
func TestJournalSkipsFailedTransaction(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := reopen(t, dir)
	r := s.Redis
	r.Set(ctx, "k", "a", 0)
	err := r.Watch(ctx, func(tx *redis.Tx) error {
		r.Set(ctx, "k", "b", 0) // another writer touches the watched key
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, "k", "c", 0)
			p.Set(ctx, "other", "c", 0)
			return nil
		})
		return err
	}, "k")
	if !errors.Is(err, redis.TxFailedErr) {
		t.Fatalf("watch err = %v, want TxFailedErr", err)
	}
	s.Close()
	s = reopen(t, dir)
	defer s.Close()
	if got := s.Redis.Get(ctx, "k").Val(); got != "b" {
		t.Errorf("k = %q, want b", got)
	}
	if s.Redis.Exists(ctx, "other").Val() != 0 {
		t.Error("a write of the failed transaction was replayed")
	}
}

// A crash in the middle of an append leaves a torn last line; it is
// dropped and the next append starts on a clean line.
func TestJournalTornLastLine(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := reopen(t, dir)
	s.Redis.Set(ctx, "kept", "1", 0)
	s.Close()
	f, err := os.OpenFile(journalPath(dir, 0), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"t":1,"c":[["set","torn"`)
	f.Close()

	s = reopen(t, dir)
	s.Redis.Set(ctx, "after", "1", 0)
	s.Close()
	s = reopen(t, dir)
	defer s.Close()
	for k, want := range map[string]int64{"kept": 1, "torn": 0, "after": 1} {
		if got := s.Redis.Exists(ctx, k).Val(); got != want {
			t.Errorf("exists(%s) = %d, want %d", k, got, want)
		}
	}
}

// A bad line in the middle means the journal cannot be trusted: refuse to
// start rather than build a state that never existed.
func TestJournalCorruptMiddleLine(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(journalPath(dir, 0), []byte("{not json\n"+`{"t":1,"c":[["set","a","1"]]}`+"\n"), 0o600)
	if _, err := OpenEmbedded(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("err = %v, want a journal error naming line 1", err)
	}
}

// Compaction folds the journal into a snapshot; writes after it land in
// the new journal, and both survive a restart.
func TestCompaction(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := reopen(t, dir)
	s.Redis.HSet(ctx, "h", "before", "1")
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	s.Redis.HSet(ctx, "h", "after", "1")
	s.Close()
	if _, err := os.Stat(journalPath(dir, 0)); !os.IsNotExist(err) {
		t.Error("journal 0 still there after compaction")
	}
	s = reopen(t, dir)
	defer s.Close()
	if got := s.Redis.HLen(ctx, "h").Val(); got != 2 {
		t.Errorf("h has %d fields, want 2", got)
	}
}

// The state written by the previous version (one JSON file) is read once
// and then superseded by the snapshot and journal.
func TestReadsOldSnapshot(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, snapshotFile), []byte(`{"h":{"type":"hash","hash":{"a":"1"}}}`), 0o600)
	s := reopen(t, dir)
	s.Redis.HSet(ctx, "h", "b", "2")
	s.Close()
	s = reopen(t, dir)
	defer s.Close()
	if got := s.Redis.HLen(ctx, "h").Val(); got != 2 {
		t.Errorf("h has %d fields, want 2 (old snapshot + journal)", got)
	}
}

// Keys with a TTL (locks, caches) belong to the process that
// stopped: a restart starts without them, whatever their time left; a key
// whose TTL was removed is kept.
func TestJournalDropsExpiringKeysOnRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := reopen(t, dir)
	s.Redis.Set(ctx, "lock", "1", time.Hour)
	s.Redis.Set(ctx, "kept", "1", time.Hour)
	s.Redis.Persist(ctx, "kept")
	s.Close()
	s = reopen(t, dir)
	defer s.Close()
	if s.Redis.Exists(ctx, "lock").Val() != 0 {
		t.Error("a key with a TTL survived the restart")
	}
	if s.Redis.Exists(ctx, "kept").Val() != 1 {
		t.Error("a key whose TTL was removed was lost")
	}
}

// Two processes never both own a data directory.
func TestDataDirIsExclusive(t *testing.T) {
	dir := t.TempDir()
	s := reopen(t, dir)
	_, err := OpenEmbedded(context.Background(), dir)
	var le *LockedError
	if !errors.As(err, &le) || le.PID != os.Getpid() {
		t.Fatalf("second open: err = %v, want LockedError naming pid %d", err, os.Getpid())
	}
	s.Close()
	s = reopen(t, dir) // released on close
	s.Close()
}

// BenchmarkWriteLargeState measures one durable write (HSET + fsync) with
// 100k entries already in the state: it must not grow with the state (the
// old whole-file snapshot took 553 ms at 69k entries).
func BenchmarkWriteLargeState(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	s, err := OpenEmbedded(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	val := strings.Repeat("x", 400) // about one ledger entry's JSON
	pipe := s.Redis.Pipeline()
	for i := range 100_000 {
		pipe.HSet(ctx, "gpubot:ledger:{T}:e", fmt.Sprintf("id%06d", i), val)
		pipe.ZAdd(ctx, "gpubot:ledger:{T}:t", redis.Z{Member: fmt.Sprintf("id%06d", i), Score: float64(i)})
	}
	if _, err := pipe.Exec(ctx); err != nil {
		b.Fatal(err)
	}
	if err := s.Compact(ctx); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		s.Redis.HSet(ctx, "gpubot:ledger:{T}:e", fmt.Sprintf("new%06d", i), val)
		if err := s.Persist(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
