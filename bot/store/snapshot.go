package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/redis/go-redis/v9"
)

// snapshotFile is the embedded mode's state file inside the data directory.
const snapshotFile = "gpubot-state.json"

// entry is one Redis key in a snapshot.
type entry struct {
	Type   string            `json:"type"`
	String string            `json:"string,omitempty"`
	Hash   map[string]string `json:"hash,omitempty"`
	List   []string          `json:"list,omitempty"`
	Set    []string          `json:"set,omitempty"`
	ZSet   []zmember         `json:"zset,omitempty"`
}

type zmember struct {
	Member string  `json:"m"`
	Score  float64 `json:"s"`
}

// OpenEmbedded starts the embedded Redis and loads the state snapshot from
// dir, so the ledger, subscriptions and profiles survive a restart. Keys with
// a TTL (de-duplication, locks) are never snapshotted.
func OpenEmbedded(ctx context.Context, dir string) (*Store, error) {
	s, err := Open(ctx, "")
	if err != nil {
		return nil, err
	}
	s.dir = dir
	if err := s.restore(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Persist writes every durable key to the data directory, atomically (temp
// file, fsync, rename). With a real Redis it does nothing: persistence is
// Redis's job (AOF). Writers call it after each change they confirm.
func (s *Store) Persist(ctx context.Context) error {
	if !s.Embedded || s.dir == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	state, err := dump(ctx, s.Redis)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(state)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("persist state: %w", err)
	}
	tmp, err := os.CreateTemp(s.dir, snapshotFile+".*")
	if err != nil {
		return fmt.Errorf("persist state: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(raw); err != nil {
		tmp.Close()
		return fmt.Errorf("persist state: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("persist state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("persist state: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(s.dir, snapshotFile)); err != nil {
		return fmt.Errorf("persist state: %w", err)
	}
	return nil
}

// StatePath is where the embedded mode keeps its state ("" with real Redis).
func (s *Store) StatePath() string {
	if !s.Embedded || s.dir == "" {
		return ""
	}
	return filepath.Join(s.dir, snapshotFile)
}

func dump(ctx context.Context, r *redis.Client) (map[string]entry, error) {
	out := map[string]entry{}
	iter := r.Scan(ctx, 0, "*", 500).Iterator()
	for iter.Next(ctx) {
		k := iter.Val()
		ttl, err := r.PTTL(ctx, k).Result()
		if err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", k, err)
		}
		if ttl >= 0 { // expiring keys are caches, locks and de-dup marks
			continue
		}
		typ, err := r.Type(ctx, k).Result()
		if err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", k, err)
		}
		e := entry{Type: typ}
		switch typ {
		case "string":
			e.String, err = r.Get(ctx, k).Result()
		case "hash":
			e.Hash, err = r.HGetAll(ctx, k).Result()
		case "list":
			e.List, err = r.LRange(ctx, k, 0, -1).Result()
		case "set":
			e.Set, err = r.SMembers(ctx, k).Result()
			sort.Strings(e.Set)
		case "zset":
			var zs []redis.Z
			zs, err = r.ZRangeWithScores(ctx, k, 0, -1).Result()
			for _, z := range zs {
				e.ZSet = append(e.ZSet, zmember{Member: fmt.Sprint(z.Member), Score: z.Score})
			}
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", k, err)
		}
		out[k] = e
	}
	return out, iter.Err()
}

func (s *Store) restore(ctx context.Context) error {
	raw, err := os.ReadFile(filepath.Join(s.dir, snapshotFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load state: %w", err)
	}
	var state map[string]entry
	if err := json.Unmarshal(raw, &state); err != nil {
		return fmt.Errorf("load state %s: %w", filepath.Join(s.dir, snapshotFile), err)
	}
	pipe := s.Redis.TxPipeline()
	for k, e := range state {
		switch e.Type {
		case "string":
			pipe.Set(ctx, k, e.String, 0)
		case "hash":
			if len(e.Hash) > 0 {
				pipe.HSet(ctx, k, e.Hash)
			}
		case "list":
			if len(e.List) > 0 {
				pipe.RPush(ctx, k, toAny(e.List)...)
			}
		case "set":
			if len(e.Set) > 0 {
				pipe.SAdd(ctx, k, toAny(e.Set)...)
			}
		case "zset":
			zs := make([]redis.Z, len(e.ZSet))
			for i, z := range e.ZSet {
				zs[i] = redis.Z{Member: z.Member, Score: z.Score}
			}
			if len(zs) > 0 {
				pipe.ZAdd(ctx, k, zs...)
			}
		}
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("load state: %w", err)
	}
	return nil
}

func toAny(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
