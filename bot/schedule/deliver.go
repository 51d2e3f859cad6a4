package schedule

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/subscribe"
)

// claimScript takes a channel's claim for a period: when nobody holds it,
// or when an older leader (a smaller fence) does — a leader that lost its
// lease cannot still be working, so the new one takes over at once.
var claimScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if (not v) or tonumber(v) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`)

// releaseScript drops the claim only while it is still this leader's.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`)

// Fields of a channel in a job's state hash.
const (
	fieldHandled = "|handled"
	fieldPosted  = "|posted"
	fieldAttempt = "|attempt"
)

// deliver sends the due slot of d, if any, to every subscribed channel that
// has not had it.
func (s *Scheduler) deliver(ctx context.Context, d Delivery, fence int64) {
	now := s.now()
	slot, ok := LastSlot(d.Schedule, now, s.opt.Location)
	if !ok {
		return
	}
	period := d.Period(slot)
	if d.Prepare != nil {
		if err := d.Prepare(ctx, slot, period); err != nil {
			s.log.ErrorContext(ctx, "prepare scheduled post", "job", d.Name, "period", period, "err", err)
			return
		}
	}
	if s.opt.Subs == nil || s.opt.Poster == nil {
		return
	}
	subs, err := s.opt.Subs.All(ctx, d.Topic)
	if err != nil {
		s.log.ErrorContext(ctx, "read subscriptions", "job", d.Name, "err", err)
		if len(subs) == 0 && d.Targets == nil {
			return
		}
	}
	if d.Targets != nil {
		if subs, err = d.Targets(ctx, subs); err != nil {
			s.log.ErrorContext(ctx, "choose channels", "job", d.Name, "err", err)
			return
		}
	}
	for _, sub := range subs {
		if ctx.Err() != nil {
			return
		}
		// A channel that subscribed after the slot starts with the next one.
		if sub.CreatedAt.After(slot) {
			continue
		}
		s.deliverOne(ctx, d, Slot{Sub: sub, At: slot, Now: now, Period: period}, fence)
	}
}

func (s *Scheduler) stateKey(job string) string { return s.key("{"+job+"}", "state") }

func (s *Scheduler) claimKey(job, id, period string) string {
	return s.key("{"+job+"}", "claim", id, period)
}

// postKey is the slackpost idempotency key of one channel's post.
func postKey(job string, sub subscribe.Sub, period string) string {
	return job + ":" + sub.Team + ":" + sub.Channel + ":" + period
}

// deliverOne posts one channel's slot exactly once: claim, compose, post,
// mark done. Whatever stops it half-way is retried by a later tick (this
// leader's or the next one's), which finds what already went out.
func (s *Scheduler) deliverOne(ctx context.Context, d Delivery, slot Slot, fence int64) {
	id := slot.Sub.ID()
	log := s.log.With("job", d.Name, "team", slot.Sub.Team, "channel", slot.Sub.Channel, "period", slot.Period)
	state := s.stateKey(d.Name)
	if done, err := s.rdb.HGet(ctx, state, id+fieldHandled).Result(); err != nil && !errors.Is(err, redis.Nil) {
		log.ErrorContext(ctx, "read post state", "err", err)
		return
	} else if done == slot.Period {
		return
	}
	claim := s.claimKey(d.Name, id, slot.Period)
	got, err := claimScript.Run(ctx, s.rdb, []string{claim}, fence, s.opt.ClaimTTL.Milliseconds()).Int64()
	if err != nil {
		log.ErrorContext(ctx, "claim channel", "err", err)
		return
	}
	if got == 0 {
		return // another replica is on it
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		releaseScript.Run(rctx, s.rdb, []string{claim}, strconv.FormatInt(fence, 10))
	}()
	// Someone may have finished between the first read and the claim.
	fields, err := s.rdb.HMGet(ctx, state, id+fieldHandled, id+fieldPosted, id+fieldAttempt).Result()
	if err != nil {
		log.ErrorContext(ctx, "read post state", "err", err)
		return
	}
	str := func(v any) string { x, _ := v.(string); return x }
	if str(fields[0]) == slot.Period {
		return
	}
	slot.LastPosted = str(fields[1])
	attempted := str(fields[2]) == slot.Period

	post, err := d.Compose(ctx, slot)
	if err != nil {
		s.opt.Observe(d.Name, "error")
		log.ErrorContext(ctx, "compose scheduled post; retrying next tick", "err", err)
		return
	}
	if post == nil {
		if s.mark(ctx, log, state, id+fieldHandled, slot.Period) {
			s.opt.Observe(d.Name, "quiet")
			log.InfoContext(ctx, "nothing to post")
		}
		return
	}
	msg := slackpost.Message{Channel: slot.Sub.Channel, Text: post.Text, Blocks: post.Blocks, Key: postKey(d.Name, slot.Sub, slot.Period)}
	var ts string
	if attempted {
		// An earlier attempt ended without marking the post done: find out
		// whether its message reached the channel before sending another.
		var found bool
		ts, found, err = s.opt.Poster.Settle(ctx, msg, time.Time{}, s.opt.SettleAfter)
		switch {
		case errors.Is(err, slackpost.ErrPending):
			s.opt.Observe(d.Name, "pending")
			log.InfoContext(ctx, "an earlier attempt may still be posting; checking again next tick")
			return
		case err != nil:
			s.opt.Observe(d.Name, "error")
			log.ErrorContext(ctx, "check earlier post attempt", "err", err)
			return
		case found:
			log.InfoContext(ctx, "earlier attempt had posted", "ts", ts)
		}
	}
	if ts == "" {
		if !s.mark(ctx, log, state, id+fieldAttempt, slot.Period) {
			return
		}
		ts, err = s.opt.Poster.Post(ctx, msg)
		if errors.Is(err, slackpost.ErrDuplicate) {
			// Posted, or being posted, by an attempt this process never saw.
			var found bool
			ts, found, err = s.opt.Poster.Settle(ctx, msg, time.Time{}, s.opt.SettleAfter)
			if err == nil && !found {
				ts, err = s.opt.Poster.Post(ctx, msg)
			}
		}
		if errors.Is(err, slackpost.ErrPending) {
			s.opt.Observe(d.Name, "pending")
			log.InfoContext(ctx, "an earlier attempt may still be posting; checking again next tick")
			return
		}
		if notInChannel(err) {
			// Retrying cannot help until someone invites the bot: suspend
			// the subscription and tell whoever made it, once.
			s.opt.Observe(d.Name, "error")
			s.suspend(ctx, log, slot.Sub, d.Topic)
			return
		}
		if err != nil {
			s.opt.Observe(d.Name, "error")
			log.ErrorContext(ctx, "scheduled post failed; retrying next tick", "err", err)
			return
		}
	}
	if post.File != nil {
		f := *post.File
		// The chart goes in the post's thread, not as a second post.
		f.Channel, f.ThreadTS, f.Key = slot.Sub.Channel, ts, msg.Key
		if _, err := s.opt.Poster.Upload(ctx, f); err != nil {
			// The message went out; a chart that may or may not have is
			// not worth a second message.
			log.WarnContext(ctx, "chart upload failed", "file", f.Name, "err", err)
		}
	}
	if err := s.rdb.HSet(ctx, state, id+fieldHandled, slot.Period, id+fieldPosted, slot.Period).Err(); err != nil {
		log.ErrorContext(ctx, "mark post done", "err", err)
		return
	}
	s.rdb.HDel(ctx, state, id+fieldAttempt)
	if err := s.opt.Persist(ctx); err != nil {
		log.ErrorContext(ctx, "persist post state", "err", err)
	}
	s.opt.Observe(d.Name, "posted")
	log.InfoContext(ctx, "scheduled post sent", "ts", ts)
	if d.Posted != nil {
		slot.LastPosted = slot.Period
		if err := d.Posted(ctx, slot); err != nil {
			log.ErrorContext(ctx, "after scheduled post", "err", err)
		}
	}
}

// mark sets one state field and persists it; false when it could not.
func (s *Scheduler) mark(ctx context.Context, log *slog.Logger, state, field, period string) bool {
	if err := s.rdb.HSet(ctx, state, field, period).Err(); err != nil {
		log.ErrorContext(ctx, "record post state", "field", field, "err", err)
		return false
	}
	if err := s.opt.Persist(ctx); err != nil {
		log.ErrorContext(ctx, "persist post state", "err", err)
		return false
	}
	return true
}

// Handled reports the last period of job handled for a channel, and the
// last one posted: what `bot preview` and tests check.
func (s *Scheduler) Handled(ctx context.Context, job, team, channel string) (handled, posted string, err error) {
	id := team + ":" + channel
	v, err := s.rdb.HMGet(ctx, s.stateKey(job), id+fieldHandled, id+fieldPosted).Result()
	if err != nil {
		return "", "", err
	}
	str := func(v any) string { x, _ := v.(string); return x }
	return str(v[0]), str(v[1]), nil
}
