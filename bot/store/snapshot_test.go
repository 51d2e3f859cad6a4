package store

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestEmbeddedStateSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenEmbedded(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Redis
	r.Set(ctx, "str", "hello", 0)
	r.HSet(ctx, "h", "a", "1", "b", "2")
	r.RPush(ctx, "l", "x", "y", "x")
	r.SAdd(ctx, "s", "m1", "m2")
	r.ZAdd(ctx, "z", redis.Z{Member: "e1", Score: 1.5}, redis.Z{Member: "e2", Score: -3})
	r.Set(ctx, "dedupe", "1", time.Hour) // expiring: not kept
	if err := s.Persist(ctx); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s2, err := OpenEmbedded(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	r = s2.Redis
	if got := r.Get(ctx, "str").Val(); got != "hello" {
		t.Errorf("string = %q", got)
	}
	if got := r.HGetAll(ctx, "h").Val(); !reflect.DeepEqual(got, map[string]string{"a": "1", "b": "2"}) {
		t.Errorf("hash = %v", got)
	}
	if got := r.LRange(ctx, "l", 0, -1).Val(); !reflect.DeepEqual(got, []string{"x", "y", "x"}) {
		t.Errorf("list = %v", got)
	}
	if got := r.SCard(ctx, "s").Val(); got != 2 {
		t.Errorf("set size = %d", got)
	}
	if got := r.ZScore(ctx, "z", "e2").Val(); got != -3 {
		t.Errorf("zset score = %v", got)
	}
	if r.Exists(ctx, "dedupe").Val() != 0 {
		t.Error("expiring key was snapshotted")
	}
}

func TestPersistLeavesNoTempFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenEmbedded(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < 3; i++ {
		s.Redis.Set(ctx, "k", i, 0)
		if err := s.Persist(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"gpubot-journal.1.jsonl", "gpubot-state.v2.json", "gpubot.lock"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("data dir holds %v, want %v", names, want)
	}
}

func TestCorruptStateIsAnError(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, snapshotFile), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenEmbedded(context.Background(), dir); err == nil {
		t.Error("corrupt state file loaded without error")
	}
}
