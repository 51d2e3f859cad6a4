package transport

import (
	"context"
	"errors"
	"log/slog"
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
