package store

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/intent"
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
	// TTL is the time a kept expiring key (keptExpiring: a de-duplication
	// mark) had left when the snapshot was taken, in milliseconds; 0 for
	// the keys that never expire.
	TTL int64 `json:"ttl_ms,omitempty"`
}

type zmember struct {
	Member string  `json:"m"`
	Score  float64 `json:"s"`
}

// LockedError says another process owns the data directory; PID is its
// process id when it could be read (0 otherwise).
type LockedError struct {
	Dir string
	PID int
}

// As lets errors.As read e as the user-facing *intent.Error: a conflict,
// with the directory and the other process named (the CLI's operator
// reads it).
func (e *LockedError) As(target any) bool {
	t, ok := target.(**intent.Error)
	if ok {
		*t = &intent.Error{Code: intent.ECONFLICT, Message: e.Error(), Err: e,
			MessageZH: fmt.Sprintf("数据目录 %s 正被另一个 gpubot 进程使用", e.Dir)}
	}
	return ok
}

func (e *LockedError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("data dir %s is in use by another gpubot process (pid %d)", e.Dir, e.PID)
	}
	return fmt.Sprintf("data dir %s is in use by another gpubot process", e.Dir)
}

// OpenEmbedded starts the embedded Redis over the state kept in dir, so
// the ledger, subscriptions and profiles survive a restart. It takes the
// directory's exclusive lock first: while one process has it open, another
// gets a *LockedError and must go through that process (the admin socket)
// instead of loading a copy of the state it would later overwrite.
func OpenEmbedded(ctx context.Context, dir string) (*Store, error) {
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	s, err := Open(ctx, "")
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		return nil, err
	}
	s.dir, s.lock = dir, lock
	if err := s.restore(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Persist makes every write so far durable. With a real Redis it does
// nothing: persistence is Redis's job (AOF). In embedded mode each write was
// already appended to the journal; Persist fsyncs it. Writers call it after
// each change before they confirm it.
func (s *Store) Persist(ctx context.Context) error {
	if s.journal == nil {
		return nil
	}
	return s.journal.sync()
}

// Compact rewrites the embedded state as one snapshot and empties the
// journal. The journal compacts itself as it grows; this is for tests and
// shutdown.
func (s *Store) Compact(ctx context.Context) error {
	if s.journal == nil {
		return nil
	}
	return s.journal.Compact(ctx)
}

// StatePath is where the embedded mode keeps its state ("" with real Redis).
func (s *Store) StatePath() string {
	if !s.Embedded || s.dir == "" {
		return ""
	}
	return s.dir
}

// Dir is the embedded mode's data directory ("" with real Redis).
func (s *Store) Dir() string { return s.dir }

func dump(ctx context.Context, r *redis.Client) (map[string]entry, error) {
	out := map[string]entry{}
	iter := r.Scan(ctx, 0, "*", 500).Iterator()
	for iter.Next(ctx) {
		k := iter.Val()
		ttl, err := r.PTTL(ctx, k).Result()
		if err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", k, err)
		}
		// Expiring keys are caches and locks, left out, and de-duplication
		// marks, kept with their time left: a compaction that dropped them
		// let a request replayed within its signature's five minutes be
		// answered again after a restart (issue #28 item 9).
		if ttl == 0 || (ttl > 0 && !strings.HasPrefix(k, keptExpiring)) {
			continue
		}
		e := entry{}
		if ttl > 0 {
			e.TTL = max(ttl.Milliseconds(), 1) // never 0, which would keep it for good
		}
		typ, err := r.Type(ctx, k).Result()
		if err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", k, err)
		}
		e.Type = typ
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

// restore loads the snapshot and replays the journal after it, then opens
// the journal for appending and starts journaling every write.
func (s *Store) restore(ctx context.Context) error {
	seq, base, taken, err := s.loadSnapshot(ctx)
	if err != nil {
		return err
	}
	path := journalPath(s.dir, seq)
	read, err := replay(ctx, s.Redis, s.mini.FastForward, taken, time.Now(), path)
	if err != nil {
		return err
	}
	removeStaleJournals(s.dir, seq)
	if err := dropExpiring(ctx, s.Redis); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("open journal: %w", err)
	}
	if err := f.Truncate(read); err != nil { // drop a torn last line so the next append starts clean
		f.Close()
		return fmt.Errorf("open journal: %w", err)
	}
	if _, err := f.Seek(read, io.SeekStart); err != nil {
		f.Close()
		return fmt.Errorf("open journal: %w", err)
	}
	s.journal = &journal{dir: s.dir, rdb: s.Redis, now: time.Now, f: f, w: bufio.NewWriter(f), seq: seq, size: read, base: base}
	s.Redis.AddHook(s.journal)
	return nil
}

// loadSnapshot loads the v2 snapshot, or the old whole-state file when no v2
// exists yet, and returns the journal number to replay after it, the
// snapshot's size and when it was taken (unix ms; 0 if unknown).
func (s *Store) loadSnapshot(ctx context.Context) (seq int, size, taken int64, err error) {
	raw, err := os.ReadFile(filepath.Join(s.dir, snapshotV2File))
	if err == nil {
		var snap snapshotV2
		if err := json.Unmarshal(raw, &snap); err != nil {
			return 0, 0, 0, fmt.Errorf("load state %s: %w", filepath.Join(s.dir, snapshotV2File), err)
		}
		return snap.Journal, int64(len(raw)), snap.Taken, load(ctx, s.Redis, snap.Keys)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return 0, 0, 0, fmt.Errorf("load state: %w", err)
	}
	raw, err = os.ReadFile(filepath.Join(s.dir, snapshotFile))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, 0, nil
	}
	if err != nil {
		return 0, 0, 0, fmt.Errorf("load state: %w", err)
	}
	var state map[string]entry
	if err := json.Unmarshal(raw, &state); err != nil {
		return 0, 0, 0, fmt.Errorf("load state %s: %w", filepath.Join(s.dir, snapshotFile), err)
	}
	return 0, int64(len(raw)), 0, load(ctx, s.Redis, state)
}

// dropExpiring deletes the keys that carry a TTL after the replay: they are
// caches and locks of the process that stopped, and a restarted bot starts
// without them, as it always has (compaction never snapshots them either).
// De-duplication marks (keptExpiring) stay, with their time left: without
// them a request replayed within its signature's five minutes was answered
// again after a restart (issue #28 item 9: a replayed watch created twice).
func dropExpiring(ctx context.Context, r *redis.Client) error {
	iter := r.Scan(ctx, 0, "*", 500).Iterator()
	var drop []string
	for iter.Next(ctx) {
		if strings.HasPrefix(iter.Val(), keptExpiring) {
			continue
		}
		if ttl, err := r.PTTL(ctx, iter.Val()).Result(); err == nil && ttl >= 0 {
			drop = append(drop, iter.Val())
		}
	}
	if err := iter.Err(); err != nil {
		return fmt.Errorf("load state: %w", err)
	}
	if len(drop) > 0 {
		return r.Del(ctx, drop...).Err()
	}
	return nil
}

// keptExpiring is the prefix of the expiring keys a restart keeps: the
// transport's de-duplication marks (gpubot:seen:<kind>:<id>, 24 h).
const keptExpiring = "gpubot:seen:"

// removeStaleJournals deletes journals a finished compaction left behind.
func removeStaleJournals(dir string, keep int) {
	names, _ := filepath.Glob(filepath.Join(dir, journalPrefix+"*"+journalSuffix))
	for _, n := range names {
		if n != journalPath(dir, keep) {
			os.Remove(n)
		}
	}
}

func load(ctx context.Context, r *redis.Client, state map[string]entry) error {
	pipe := r.TxPipeline()
	for k, e := range state {
		switch e.Type {
		case "string":
			// A kept mark gets the time it had left when the snapshot was
			// taken; replay then moves the clock on from that moment.
			pipe.Set(ctx, k, e.String, time.Duration(e.TTL)*time.Millisecond)
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
	if pipe.Len() == 0 {
		return nil
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
