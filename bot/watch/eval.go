package watch

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/knowledge"
)

// transitionScript moves one watch's state for the price seen now and
// returns the crossing's number when this call made a crossing (0 when
// not). KEYS[1] state hash; ARGV mode, price, threshold, message text.
//
// below: under the threshold after not being under it is a crossing; going
// back over re-arms the watch. low: under the lowest price seen (by more
// than rounding) is a crossing, and the new low. The message is kept as
// pending until Posted clears it.
var transitionScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local price = tonumber(ARGV[2])
local fire = false
if ARGV[1] == 'below' then
  local under = price < tonumber(ARGV[3])
  local was = redis.call('HGET', KEYS[1], 'below') == '1'
  if under and not was then fire = true end
  redis.call('HSET', KEYS[1], 'below', under and 1 or 0)
else
  local low = tonumber(redis.call('HGET', KEYS[1], 'low') or '')
  if low == nil then
    redis.call('HSET', KEYS[1], 'low', ARGV[2])
  elseif price < low * 0.9999 then
    fire = true
    redis.call('HSET', KEYS[1], 'low', ARGV[2])
  end
end
if not fire then return 0 end
local n = redis.call('HINCRBY', KEYS[1], 'crossings', 1)
redis.call('HSET', KEYS[1], 'pending', n, 'text', ARGV[4])
return n`)

// clearScript drops the pending message once posted, if it is still that one.
var clearScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'pending') == ARGV[1] then
  redis.call('HDEL', KEYS[1], 'pending', 'text')
end
return 0`)

// poster is the part of slackpost.Poster the evaluator needs.
type poster interface {
	Post(ctx context.Context, m slackpost.Message) (string, error)
}

// Evaluator checks every watch against the current catalogue and tells
// each crossing once.
type Evaluator struct {
	Store  *Store
	Prices func(ctx context.Context) ([]knowledge.Offer, error)
	Post   poster
	KB     *knowledge.Base
	FX     float64 // CNY per USD; the advisor default when 0
	Log    *slog.Logger
}

// Best is the cheapest offer a watch looks at: on demand (no spot, no
// prepaid plan), on its platform if it names one, per card-hour in its
// currency.
func Best(w Watch, offers []knowledge.Offer, fx float64) (advisor.CardPrice, bool) {
	cp, found, err := advisor.Cheapest(w.GPU, offers, knowledge.Currency(w.Currency), fx,
		advisor.OfferFilter{Platform: w.Platform, NoInterruptible: true})
	return cp, err == nil && found
}

// Run evaluates every watch once (a scheduler task; any replica may run
// it, and two running it at once still send each crossing once).
func (e *Evaluator) Run(ctx context.Context, now time.Time) error {
	offers, err := e.Prices(ctx)
	if err != nil {
		return err
	}
	watches, err := e.Store.All(ctx)
	if err != nil {
		return err
	}
	for _, w := range watches {
		if err := e.retryPending(ctx, w); err != nil {
			e.log().WarnContext(ctx, "price watch notification", "watch", w.ID, "err", err)
		}
		cp, ok := Best(w, offers, e.FX)
		if !ok {
			continue
		}
		text := Message(w, cp, e.KB, now)
		n, err := transitionScript.Run(ctx, e.Store.rdb, []string{e.Store.state(w.ID)},
			w.Mode, strconv.FormatFloat(cp.Low, 'f', -1, 64), strconv.FormatFloat(w.Threshold, 'f', -1, 64), text).Int64()
		if err != nil {
			return fmt.Errorf("watch %s: %w", w.ID, err)
		}
		if n > 0 {
			if err := e.send(ctx, w, n, text); err != nil {
				e.log().WarnContext(ctx, "price watch notification; retried next run", "watch", w.ID, "err", err)
			}
		}
	}
	return nil
}

func (e *Evaluator) retryPending(ctx context.Context, w Watch) error {
	st, err := e.Store.rdb.HMGet(ctx, e.Store.state(w.ID), "pending", "text").Result()
	if err != nil || len(st) < 2 || st[0] == nil {
		return err
	}
	n, _ := strconv.ParseInt(fmt.Sprint(st[0]), 10, 64)
	text, _ := st[1].(string)
	if n == 0 || text == "" {
		return nil
	}
	return e.send(ctx, w, n, text)
}

// send posts crossing n of w with its idempotency key, then clears it.
func (e *Evaluator) send(ctx context.Context, w Watch, n int64, text string) error {
	channel := w.Channel
	if channel == "" {
		channel = w.User // chat.postMessage to a user id opens the DM
	}
	seq := strconv.FormatInt(n, 10)
	if _, err := e.Post.Post(ctx, slackpost.Message{Channel: channel, Text: text, Key: "watch:" + w.ID + ":" + seq}); err != nil {
		return err
	}
	return clearScript.Run(ctx, e.Store.rdb, []string{e.Store.state(w.ID)}, seq).Err()
}

func (e *Evaluator) log() *slog.Logger {
	if e.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return e.Log
}
