package store

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/intent"
)

// The embedded mode keeps its state as a snapshot plus an append-only
// journal of the write commands since that snapshot, the way Redis's own
// AOF does. A write costs one appended line (and one fsync when the writer
// calls Persist) however large the state is; the whole state is written
// only when the journal has grown past the snapshot (compaction), so that
// cost is amortised over as many writes as the state has bytes.
//
// Files in the data directory:
//
//	gpubot.lock                 held (flock) by the one process that owns the state
//	gpubot-state.v2.json        snapshot: {"journal": N, "keys": {...}}
//	gpubot-journal.N.jsonl      write batches since snapshot N, one JSON line each
//	gpubot-state.json           the old whole-state snapshot, read once if no v2 exists
//
// A journal line is {"t": unix-ms, "c": [[cmd, args…], …]}: the commands of
// one call, or of one MULTI/EXEC, applied together on replay. A torn last
// line (a crash mid-append) is dropped; a bad line in the middle is an
// error, because replaying past it would build a state that never existed.
const (
	snapshotV2File = "gpubot-state.v2.json"
	journalPrefix  = "gpubot-journal."
	journalSuffix  = ".jsonl"
)

// compactMin is the journal size below which compaction never runs: a small
// state is cheap to rewrite but there is no reason to.
const compactMin = 8 << 20

// writeCommands are the commands that change data; everything else is a read
// and is neither journaled nor serialised.
var writeCommands = map[string]bool{}

func init() {
	for _, c := range strings.Fields(`set setnx setex psetex getset getdel getex del unlink append incr incrby incrbyfloat decr decrby mset msetnx
		hset hsetnx hmset hdel hincrby hincrbyfloat
		lpush rpush lpushx rpushx lpop rpop lrem ltrim lset linsert rpoplpush lmove
		sadd srem spop smove sinterstore sunionstore sdiffstore
		zadd zrem zincrby zremrangebyscore zremrangebyrank zremrangebylex zpopmin zpopmax zunionstore zinterstore
		expire pexpire expireat pexpireat persist rename renamenx copy flushall flushdb eval evalsha eval_ro evalsha_ro
		xadd xdel xtrim pfadd setrange setbit`) {
		writeCommands[c] = true
	}
}

type journalLine struct {
	T int64      `json:"t"`
	C [][]string `json:"c"`
}

type snapshotV2 struct {
	Journal int              `json:"journal"`
	Keys    map[string]entry `json:"keys"`
	// Taken is when the snapshot was dumped (unix ms): the clock of the
	// kept marks' time left (entry.TTL).
	Taken int64 `json:"taken_ms,omitempty"`
}

// journal is the embedded store's write log. mu serialises writes with
// their journal append, so the file holds them in the order miniredis
// applied them.
type journal struct {
	dir  string
	rdb  *redis.Client // the store's own client, used to dump for compaction
	now  func() time.Time
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	seq  int   // the journal file's number
	size int64 // bytes in the current journal
	base int64 // bytes in the last snapshot: compaction waits until the journal outgrows it
	err  error // sticky: set when an append failed and no snapshot could replace it

	scripts sync.Map // sha1 → body, so EVALSHA is journaled as the EVAL it stands for
	dirty   bool     // appended since the last fsync
}

func journalPath(dir string, seq int) string {
	return filepath.Join(dir, journalPrefix+strconv.Itoa(seq)+journalSuffix)
}

// ProcessHook journals single write commands.
func (j *journal) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if !isWrite(cmd) {
			return next(ctx, cmd)
		}
		j.mu.Lock()
		defer j.mu.Unlock()
		if err := j.healthy(); err != nil {
			cmd.SetErr(err)
			return err
		}
		err := next(ctx, cmd)
		if ok(cmd) {
			if jerr := j.append([]redis.Cmder{cmd}); jerr != nil {
				cmd.SetErr(jerr)
				return jerr
			}
		}
		return err
	}
}

// ProcessPipelineHook journals the writes of a pipeline; a MULTI/EXEC is
// journaled as one line, and only when EXEC ran.
func (j *journal) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		writes := false
		for _, c := range cmds {
			writes = writes || isWrite(c)
		}
		if !writes {
			return next(ctx, cmds)
		}
		j.mu.Lock()
		defer j.mu.Unlock()
		if err := j.healthy(); err != nil {
			for _, c := range cmds {
				c.SetErr(err)
			}
			return err
		}
		err := next(ctx, cmds)
		tx := len(cmds) > 0 && cmds[0].Name() == "multi"
		if tx && cmds[len(cmds)-1].Err() != nil { // EXEC failed: WATCH fired or the transaction was discarded
			return err
		}
		var done []redis.Cmder
		for _, c := range cmds {
			if isWrite(c) && ok(c) {
				done = append(done, c)
			}
		}
		if len(done) > 0 {
			if jerr := j.append(done); jerr != nil {
				for _, c := range cmds {
					c.SetErr(jerr)
				}
				return jerr
			}
		}
		return err
	}
}

// DialHook is not needed; the journal sees commands, not connections.
func (j *journal) DialHook(next redis.DialHook) redis.DialHook { return next }

func isWrite(c redis.Cmder) bool { return writeCommands[strings.ToLower(c.Name())] }

// ok reports whether the command ran (a nil reply still ran: SET NX that
// did not set changes nothing, and replaying it changes nothing either).
func ok(c redis.Cmder) bool { err := c.Err(); return err == nil || errors.Is(err, redis.Nil) }

// ErrNotWritable marks a write the embedded store refused before applying
// it, because it could not have been made durable (the data directory is
// gone or unwritable): nothing was changed.
var ErrNotWritable = &intent.Error{Code: intent.EUNAVAILABLE, Message: "embedded state not writable", MessageZH: "内置存储无法写入"}

// healthy checks, before a write is applied, that its journal line can be
// kept: the journal is still the file in the data directory (not deleted or
// replaced under us, which would let appends vanish) and no earlier append
// failed. Otherwise a full snapshot puts things right, or the write is
// refused unapplied.
func (j *journal) healthy() error {
	if j.err == nil {
		fi, err := os.Stat(journalPath(j.dir, j.seq))
		var cur os.FileInfo
		if err == nil {
			cur, err = j.f.Stat()
		}
		if err == nil && os.SameFile(fi, cur) {
			return nil
		}
		j.err = errors.New("the journal file is gone")
		if err != nil {
			j.err = err
		}
	}
	if err := j.compactLocked(context.Background()); err != nil {
		return fmt.Errorf("%w: %w", ErrNotWritable, err)
	}
	j.err = nil
	return nil
}

// append writes one journal line for cmds. When the write fails the state in
// memory is ahead of the disk: a snapshot puts them level, and if that fails
// too every later write is refused until one succeeds.
func (j *journal) append(cmds []redis.Cmder) error {
	line := journalLine{T: j.now().UnixMilli()}
	for _, c := range cmds {
		line.C = append(line.C, j.args(c))
	}
	raw, err := json.Marshal(line)
	if err == nil {
		raw = append(raw, '\n')
		_, err = j.w.Write(raw)
		if err == nil {
			err = j.w.Flush()
		}
	}
	if err != nil {
		j.err = err
		if cerr := j.compactLocked(context.Background()); cerr != nil {
			return fmt.Errorf("journal write: %w", err)
		}
		j.err = nil
		return nil
	}
	j.size += int64(len(raw))
	j.dirty = true
	if j.size > compactMin && j.size > j.base {
		if err := j.compactLocked(context.Background()); err != nil {
			// The journal still has every write; compaction is retried on the
			// next append, so this only costs disk space.
			j.base = j.size * 2
		}
	}
	return nil
}

// args renders a command as strings; EVALSHA becomes EVAL with the script
// body (replay runs on a fresh server that has no scripts loaded), and the
// body of every EVAL and SCRIPT LOAD is remembered for that.
func (j *journal) args(c redis.Cmder) []string {
	in := c.Args()
	out := make([]string, len(in))
	for i, a := range in {
		switch v := a.(type) {
		case string:
			out[i] = v
		case []byte:
			out[i] = string(v)
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	switch strings.ToLower(out[0]) {
	case "eval", "eval_ro":
		if len(out) > 1 {
			sum := sha1.Sum([]byte(out[1]))
			j.scripts.Store(hex.EncodeToString(sum[:]), out[1])
		}
	case "evalsha", "evalsha_ro":
		if len(out) > 1 {
			if body, ok := j.scripts.Load(strings.ToLower(out[1])); ok {
				out[0], out[1] = "eval", body.(string)
			}
		}
	}
	return out
}

// sync fsyncs the journal when something was appended since the last one.
func (j *journal) sync() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return fmt.Errorf("%w: %w", ErrNotWritable, j.err)
	}
	if !j.dirty {
		return nil
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("persist state: %w", err)
	}
	j.dirty = false
	return nil
}

// Compact writes a full snapshot and starts an empty journal; writes wait
// while the state is dumped (in memory), not while it is written to disk.
func (j *journal) Compact(ctx context.Context) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.compactLocked(ctx)
}

func (j *journal) compactLocked(ctx context.Context) error {
	taken := j.now().UnixMilli()
	state, err := dump(ctx, j.rdb)
	if err != nil {
		return err
	}
	next := j.seq + 1
	raw, err := json.Marshal(snapshotV2{Journal: next, Keys: state, Taken: taken})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return fmt.Errorf("compact state: %w", err)
	}
	nf, err := os.OpenFile(journalPath(j.dir, next), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("compact state: %w", err)
	}
	if err := writeAtomic(j.dir, snapshotV2File, raw); err != nil {
		nf.Close()
		os.Remove(nf.Name())
		return err
	}
	// The snapshot names journal next: from here on the old journal is
	// history. It is removed after the switch; a crash before that leaves a
	// file restore ignores.
	old := j.f
	j.f, j.w, j.seq, j.size, j.base, j.dirty = nf, bufio.NewWriter(nf), next, 0, int64(len(raw)), false
	if old != nil {
		old.Close()
		os.Remove(journalPath(j.dir, next-1))
	}
	os.Remove(filepath.Join(j.dir, snapshotFile)) // the pre-journal format, now superseded
	return nil
}

func (j *journal) close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	err := j.f.Sync()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	j.f = nil
	return err
}

// writeAtomic writes name in dir through a temp file, fsync and rename.
func writeAtomic(dir, name string, raw []byte) error {
	tmp, err := os.CreateTemp(dir, name+".*")
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
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("persist state: %w", err)
	}
	if d, err := os.Open(dir); err == nil { // make the rename itself durable
		d.Sync()
		d.Close()
	}
	return nil
}

// replay applies journal seq to rdb, moving the embedded clock by the time
// between lines, and from the last line to now, so keys with a TTL expire as
// they would have in a run that never stopped. since is when the snapshot
// under the journal was taken (unix ms, 0 if unknown): the clock starts
// there, so the marks it kept lose the time since. It returns the bytes read.
func replay(ctx context.Context, rdb *redis.Client, forward func(time.Duration), since int64, now time.Time, path string) (int64, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if since != 0 && now.UnixMilli() > since {
			forward(time.Duration(now.UnixMilli()-since) * time.Millisecond)
		}
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("load journal: %w", err)
	}
	last := since
	r := bufio.NewReader(bytes.NewReader(raw))
	var read int64
	for n := 1; ; n++ {
		ln, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			// Anything after the last newline is a torn line: the append it
			// belongs to never returned, so no writer was told it was kept.
			if last != 0 && now.UnixMilli() > last {
				forward(time.Duration(now.UnixMilli()-last) * time.Millisecond)
			}
			return read, nil
		}
		read += int64(len(ln))
		var jl journalLine
		if err := json.Unmarshal(ln, &jl); err != nil {
			return read, fmt.Errorf("load journal %s line %d: %w", path, n, err)
		}
		if last != 0 && jl.T > last {
			forward(time.Duration(jl.T-last) * time.Millisecond)
		}
		if jl.T > last {
			last = jl.T
		}
		if err := apply(ctx, rdb, jl.C); err != nil {
			return read, fmt.Errorf("load journal %s line %d: %w", path, n, err)
		}
	}
}

// apply runs one journaled batch, as a transaction when it has several
// commands. A command that failed live never reached the journal; one that
// fails here (a type clash after an expiry the clock did not reproduce) is
// skipped rather than stopping the whole restore.
func apply(ctx context.Context, rdb *redis.Client, batch [][]string) error {
	pipe := rdb.TxPipeline()
	for _, c := range batch {
		args := make([]any, len(c))
		for i, a := range c {
			args[i] = a
		}
		pipe.Do(ctx, args...)
	}
	_, err := pipe.Exec(ctx)
	var rerr redis.Error
	if err != nil && errors.As(err, &rerr) {
		return nil
	}
	return err
}
