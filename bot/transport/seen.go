package transport

import (
	"context"
	"time"
)

// claim marks key as handled and reports whether this call was first. It is
// one SET NX with a TTL, so it holds across replicas. When Redis fails it
// answers true: a rare duplicate reply beats a question left unanswered.
func (a *App) claim(ctx context.Context, key string) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	ok, err := a.rdb.SetNX(ctx, "gpubot:seen:"+key, 1, a.cfg.SeenTTL).Result()
	if err != nil {
		a.log.WarnContext(ctx, "de-duplication unavailable; answering anyway", "key", key, "err", err)
		return true
	}
	return ok
}

// Keys of the things claimed.
func eventKey(eventID string) string         { return "event:" + eventID }
func messageKey(team, ch, ts string) string  { return "msg:" + team + ":" + ch + ":" + ts }
func triggerKey(kind, trigger string) string { return kind + ":" + trigger }

// listenKey holds a channel's opt-in to unprompted answers.
func listenKey(team, channel string) string { return "gpubot:listen:" + team + ":" + channel }

func (a *App) listening(ctx context.Context, team, channel string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	n, err := a.rdb.Exists(ctx, listenKey(team, channel)).Result()
	return n > 0, err
}

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
