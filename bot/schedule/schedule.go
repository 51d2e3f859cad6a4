// Package schedule runs gpubot's timed work on every replica while making
// sure it happens once: the catalogue refresh (CATALOG_REFRESH), the team
// price file's hot reload, the daily price-change post and the monthly
// recap.
//
// Every replica runs a Scheduler. Each tick (a minute by default) it tries
// the leader lock (infra/lock); the replica that gets it does the
// tick's work under the lock's lease and gives it back, the others do
// nothing until their next tick. Leadership alone is not trusted for the
// posts: each channel's post for a period is claimed in Redis with the
// leader's fencing token, marked handled when done, and sent with a
// slackpost idempotency key derived from the job, channel and period, so
// two replicas — or a new leader taking over from a dead one — never post
// twice, and a post interrupted half-way goes out exactly once.
//
// Catch-up: a task whose run was missed (the bot was down) runs once on
// the next tick; a post whose slot passed earlier the same day (in the
// bot's time zone) goes out on the next tick. The clock is the `now` field,
// so tests move time by hand.
//
// # Redis layout
//
//	gpubot:lock:{scheduler}                      leader lease and fence (infra/lock)
//	gpubot:sched:last:<task>                     STRING  the fire time of the task's last run (RFC 3339)
//	gpubot:sched:{<job>}:state                   HASH    "<team>:<channel>|handled"  → period done (posted or nothing to post)
//	                                                     "<team>:<channel>|posted"   → period last posted
//	                                                     "<team>:<channel>|attempt"  → period being posted (cleared when done)
//	gpubot:sched:{<job>}:claim:<team>:<channel>:<period>
//	                                             STRING  the claiming leader's fence, PX ClaimTTL
//	gpubot:post:<job>:<team>:<channel>:<period>  slackpost's record of the message (24 h)
//	gpubot:post:file:<job>:<team>:<channel>:<period>
//	                                             slackpost's record of the chart upload (24 h)
//
// Only the claims and the post records expire; the rest is durable, so the
// embedded mode snapshots it and a restart does not post a period again.
package schedule

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robfig/cron/v3"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/subscribe"
	"github.com/gpubot/gpubot/infra/lock"
)

// Task is leader-only work on a schedule: the catalogue refresh, the team
// file poll. A missed run (the bot was down) happens once on the next tick.
type Task struct {
	Name     string
	Schedule cron.Schedule
	// Run does the work. An error is logged and the run is retried on the
	// next tick; return nil for failures that a retry would not fix.
	Run func(ctx context.Context, now time.Time) error
}

// Slot is one channel's post for one period.
type Slot struct {
	Sub    subscribe.Sub
	At     time.Time // when the post was due
	Now    time.Time
	Period string // "2026-10-09" for a daily post, "2026-10" for the recap of October
	// LastPosted is the period of the channel's previous post of this job;
	// "" when it has had none.
	LastPosted string
}

// Post is what a Delivery sends to a channel: a message and, optionally, a
// file shared right after it.
type Post struct {
	Text   string
	Blocks []slack.Block
	File   *slackpost.File // Channel and Key are filled in by the scheduler
}

// Delivery is a scheduled post to every channel subscribed to a topic.
type Delivery struct {
	Name     string // "daily", "recap": part of every key
	Topic    subscribe.Topic
	Schedule cron.Schedule
	// Period names the slot: the day, or the month a recap covers.
	Period func(slot time.Time) string
	// Prepare, when set, runs on every tick while a slot is due, before
	// any channel, even with no subscribers (the daily post freezes the
	// day's catalogue). It must be idempotent.
	Prepare func(ctx context.Context, slot time.Time, period string) error
	// Compose builds one channel's post; nil means nothing to post (a quiet
	// day), which still counts as done.
	Compose func(ctx context.Context, s Slot) (*Post, error)
	// Posted, when set, runs after a post went out.
	Posted func(ctx context.Context, s Slot) error
	// Targets, when set, turns the topic's subscribers (every team's) into
	// the channels this delivery posts to: budget alerts go to the channel
	// a team's profile names, which need not be subscribed to anything.
	// Each target still gets its slot exactly once.
	Targets func(ctx context.Context, subs []subscribe.Sub) ([]subscribe.Sub, error)
}

// Subscriptions is where a delivery finds its channels, and drops one the
// bot cannot post to. *subscribe.Store is one; the scheduler owns the
// interface so that it depends on storage, not on the bot's commands.
type Subscriptions interface {
	All(ctx context.Context, t subscribe.Topic) ([]subscribe.Sub, error)
	Delete(ctx context.Context, team, channel string, t subscribe.Topic) (bool, error)
}

// Options configure a Scheduler. Zero values take the defaults noted.
type Options struct {
	Location    *time.Location              // BOT_TIMEZONE; UTC when nil
	Tick        time.Duration               // how often Run ticks; 1 min
	LockName    string                      // leader lock; "scheduler"
	LeaderTTL   time.Duration               // leader lease, renewed every third; 30 s
	ClaimTTL    time.Duration               // a channel claim's life; 10 min
	SettleAfter time.Duration               // a post attempt older than this that never reached the channel is retried; 3 min
	Prefix      string                      // key prefix; "gpubot:"
	Persist     func(context.Context) error // embedded mode: snapshot after state changes
	Poster      *slackpost.Poster           // nil: deliveries are skipped (no Slack)
	Subs        Subscriptions               // *subscribe.Store; nil: deliveries are skipped
	// SuspendNote writes the DM telling a subscription's author that it
	// was stopped because the bot is not in the channel, and how to
	// restore it (subscribe/command.SuspendNote); nil sends none.
	SuspendNote func(sub subscribe.Sub, topic subscribe.Topic) (text string, blocks []slack.Block)
	Tasks       []Task
	Deliveries  []Delivery
	Log         *slog.Logger
	// Observe, when set, hears every task run and channel post: kind is
	// the task or delivery name, outcome ok, error, posted, quiet (nothing
	// to post) or pending (an earlier attempt may still be in flight).
	Observe func(kind, outcome string)
}

// Scheduler runs Tasks and Deliveries. Its fields are set by New; now is
// the clock every decision reads.
type Scheduler struct {
	rdb redis.UniversalClient
	opt Options
	log *slog.Logger
	now func() time.Time
}

// New returns a Scheduler over rdb. now nil is time.Now.
func New(rdb redis.UniversalClient, now func() time.Time, opt Options) *Scheduler {
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	if opt.Tick <= 0 {
		opt.Tick = time.Minute
	}
	if opt.LockName == "" {
		opt.LockName = "scheduler"
	}
	if opt.LeaderTTL <= 0 {
		opt.LeaderTTL = 30 * time.Second
	}
	if opt.ClaimTTL <= 0 {
		opt.ClaimTTL = 10 * time.Minute
	}
	if opt.SettleAfter <= 0 {
		opt.SettleAfter = 3 * time.Minute
	}
	if opt.Prefix == "" {
		opt.Prefix = "gpubot:"
	}
	if opt.Persist == nil {
		opt.Persist = func(context.Context) error { return nil }
	}
	if opt.Observe == nil {
		opt.Observe = func(string, string) {}
	}
	log := opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	return &Scheduler{rdb: rdb, opt: opt, log: log, now: now}
}

// Run ticks at once (catching up on anything missed while the bot was
// down) and then every Options.Tick until ctx ends; it returns nil then.
// A failed tick is logged; the next one tries again.
func (s *Scheduler) Run(ctx context.Context) error {
	t := time.NewTicker(s.opt.Tick)
	defer t.Stop()
	for {
		if err := s.Tick(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "scheduler tick", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Tick does one round: if this replica wins the leader lock, every due
// task and every due post. It returns quickly when another replica leads.
// Errors of single tasks and channels are logged, not returned; the error
// is for Redis failing the lock itself.
func (s *Scheduler) Tick(ctx context.Context) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	l, err := lock.Acquire(ctx, s.rdb, lock.Prefix, s.opt.LockName, s.opt.LeaderTTL)
	if errors.Is(err, lock.ErrNotAcquired) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("scheduler: %w", err)
	}
	held, stop := l.Keep(ctx)
	defer func() {
		stop()
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		if err := l.Release(rctx); err != nil && !errors.Is(err, lock.ErrNotHeld) {
			s.log.WarnContext(ctx, "release leader lock", "err", err)
		}
	}()
	for _, t := range s.opt.Tasks {
		if held.Err() != nil {
			break
		}
		s.task(held, t)
	}
	for _, d := range s.opt.Deliveries {
		if held.Err() != nil {
			break
		}
		s.deliver(held, d, l.Fence())
	}
	if cause := context.Cause(held); held.Err() != nil && ctx.Err() == nil {
		s.log.WarnContext(ctx, "scheduler tick cut short", "cause", cause)
	}
	return nil
}

func (s *Scheduler) key(parts ...string) string {
	k := s.opt.Prefix + "sched"
	for _, p := range parts {
		k += ":" + p
	}
	return k
}

// task runs t when due and records the fire time it ran for.
func (s *Scheduler) task(ctx context.Context, t Task) {
	now := s.now()
	lastKey := s.key("last", t.Name)
	raw, err := s.rdb.Get(ctx, lastKey).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		s.log.ErrorContext(ctx, "read task state", "task", t.Name, "err", err)
		return
	}
	// Runs may start a little early: the tick that lands just before a
	// fire time takes it, rather than the next one a whole tick later.
	horizon := now.Add(s.opt.Tick / 2)
	fire := now // never ran: run now
	if raw != "" {
		last, perr := time.Parse(time.RFC3339Nano, raw)
		if perr != nil {
			s.log.WarnContext(ctx, "unreadable task state; running now", "task", t.Name, "value", raw)
		} else {
			next := t.Schedule.Next(last)
			if next.IsZero() || next.After(horizon) {
				return
			}
			// A long outage missed several runs: run once, for the latest.
			fire = next
			for i := 0; i < maxFires; i++ {
				n := t.Schedule.Next(fire)
				if n.IsZero() || n.After(horizon) {
					break
				}
				fire = n
			}
		}
	}
	if err := t.Run(ctx, now); err != nil {
		if ctx.Err() != nil {
			s.log.InfoContext(ctx, "scheduled task interrupted by shutdown; it runs again at the next start", "task", t.Name)
			return
		}
		s.opt.Observe(t.Name, "error")
		s.log.ErrorContext(ctx, "scheduled task failed; retrying next tick", "task", t.Name, "err", err)
		return
	}
	s.opt.Observe(t.Name, "ok")
	if err := s.rdb.Set(ctx, lastKey, fire.UTC().Format(time.RFC3339Nano), 0).Err(); err != nil {
		s.log.ErrorContext(ctx, "record task run", "task", t.Name, "err", err)
		return
	}
	if err := s.opt.Persist(ctx); err != nil {
		s.log.ErrorContext(ctx, "persist task state", "task", t.Name, "err", err)
	}
}
