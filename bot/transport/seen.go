package transport

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// claim marks key as handled and reports whether this call was first. It is
// one SET NX with a TTL, so it holds across replicas. When Redis fails it
// answers true: a rare duplicate reply beats a question left unanswered.
// While Redis is down only one claim at a time tries it (redisGate), so the
// others answer at once instead of each waiting out the timeout.
func (a *App) claim(ctx context.Context, key string) bool {
	probe, ok := a.redis.enter()
	if !ok {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	first, err := a.rdb.SetNX(ctx, "gpubot:seen:"+key, 1, a.cfg.SeenTTL).Result()
	a.redis.leave(ctx, a.log, probe, err)
	if err != nil {
		a.log.WarnContext(ctx, "de-duplication unavailable; answering anyway", "key", key, "err", err)
		return true
	}
	return first
}

// readTimeout bounds the Redis calls on the answer path. A healthy Redis
// answers in a millisecond; when it has just died, every worker may be in
// such a call before the first one fails, and for that long nothing is
// answered (2 s filled the queue at 1,000 requests a second).
const readTimeout = 250 * time.Millisecond

// redisGate tracks whether Redis answers. Once a call fails, later calls
// skip Redis, except one at a time that tries it again; its success lets
// every call through again. An outage then costs one timeout at a time
// instead of one per request, which at a few hundred requests a second
// would fill the queue (cmd/loadgen -redis-kill shows it).
type redisGate struct {
	mu      sync.Mutex
	down    bool
	probing bool
}

// enter reports whether a call may use Redis, and whether it is the probe.
func (g *redisGate) enter() (probe, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case !g.down:
		return false, true
	case g.probing:
		return false, false
	}
	g.probing = true
	return true, true
}

// leave records how a call let in by enter ended.
func (g *redisGate) leave(ctx context.Context, log *slog.Logger, probe bool, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if probe {
		g.probing = false
	}
	switch {
	case err != nil && !g.down:
		g.down = true
		log.WarnContext(ctx, "redis unavailable: answering without de-duplication until it is back", "err", err)
	case err == nil && g.down:
		g.down = false
		log.InfoContext(ctx, "redis answering again: de-duplication back on")
	}
}

// Keys of the things claimed.
func eventKey(eventID string) string         { return "event:" + eventID }
func messageKey(team, ch, ts string) string  { return "msg:" + team + ":" + ch + ":" + ts }
func triggerKey(kind, trigger string) string { return kind + ":" + trigger }

// listenKey holds a channel's opt-in to unprompted answers.
func listenKey(team, channel string) string { return "gpubot:listen:" + team + ":" + channel }

func (a *App) listening(ctx context.Context, team, channel string) (bool, error) {
	probe, ok := a.redis.enter()
	if !ok {
		return false, errRedisDown
	}
	ctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	n, err := a.rdb.Exists(ctx, listenKey(team, channel)).Result()
	a.redis.leave(ctx, a.log, probe, err)
	return n > 0, err
}

var errRedisDown = errors.New("redis unavailable (another request is checking whether it is back)")

func (a *App) setListening(ctx context.Context, team, channel string, on bool) error {
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var err error
	if on {
		err = a.rdb.Set(rctx, listenKey(team, channel), "1", 0).Err()
	} else {
		err = a.rdb.Del(rctx, listenKey(team, channel)).Err()
	}
	if err != nil {
		return err
	}
	if a.cfg.Persist != nil {
		return a.cfg.Persist(ctx)
	}
	return nil
}

// Answers a button replaced (currency, 8-bit, a reading picked). The
// LLM's rephrase of the first answer arrives seconds later and would put
// it back over the user's choice, so a click marks the message and the
// rephrase skips a marked one. Marks are kept in Redis (the click may
// reach another replica) for replacedTTL, far longer than a rephrase may
// take; without Redis a late rephrase may still revert a click.
const replacedTTL = time.Hour

func replacedKey(id string) string { return "gpubot:replaced:" + id }

// postedAnswerID names an answer posted in channel at ts (DMs, mentions).
func postedAnswerID(channel, ts string) string { return "msg:" + channel + ":" + ts }

// slashAnswerID names a private slash answer by its family and asker (its
// message has no ts the bot learns); "" without a family.
func slashAnswerID(family, user string) string {
	if family == "" {
		return ""
	}
	return "slash:" + family + ":" + user
}

func (a *App) markReplaced(ctx context.Context, id string) {
	if id == "" || a.rdb == nil || strings.HasSuffix(id, ":") {
		return
	}
	probe, ok := a.redis.enter()
	if !ok {
		return
	}
	rctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	err := a.rdb.Set(rctx, replacedKey(id), 1, replacedTTL).Err()
	a.redis.leave(ctx, a.log, probe, err)
	if err != nil {
		a.log.WarnContext(ctx, "click not recorded; a late rephrase may revert it", "err", err)
	}
}

func (a *App) replaced(ctx context.Context, id string) bool {
	if id == "" || a.rdb == nil {
		return false
	}
	probe, ok := a.redis.enter()
	if !ok {
		return false
	}
	rctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	n, err := a.rdb.Exists(rctx, replacedKey(id)).Result()
	a.redis.leave(ctx, a.log, probe, err)
	return err == nil && n > 0
}
