// Package transport connects the bot to Slack over Socket Mode or HTTP.
// Both transports feed the same handlers (commands.go lists them): every
// request is acknowledged at once and answered later by a worker, so Slack's
// 3-second deadline holds whatever the answer path (Redis, an LLM) is doing.
// Retried and doubly delivered events are dropped in Redis so each question
// gets one reply, and answers go out through slackpost.
package transport

import (
	"context"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/slackpost"
)

// Answerer answers messages; *bot.Bot is one. Tests pass slow or fixed ones.
type Answerer interface {
	Answer(ctx context.Context, m bot.Message) bot.Answer
	Parse(m bot.Message) parse.Request
	// ParseInContext parses m as a follow-up of its conversation when it
	// is one, without recording it.
	ParseInContext(ctx context.Context, m bot.Message) parse.Request
	// Table is the intent table: which intents write (no buttons, never
	// unprompted), which are posted for the channel, which figures an
	// answer must keep when rephrased.
	Table() []intent.Row
	// Clarify is the clarifying question for an unsure reading (bot.Bot.Clarify).
	Clarify(m bot.Message, req parse.Request) (bot.Answer, bool)
}

// row returns id's row of the answerer's intent table.
func (a *App) row(id parse.Intent) intent.Row {
	r, _ := intent.Find(a.bot.Table(), id)
	return r
}

// writes reports whether id changes state (its row's Writes).
func (a *App) writes(id parse.Intent) bool { return a.row(id).Writes }

// Config holds the transport's settings.
type Config struct {
	// SigningSecret verifies HTTP requests; Socket Mode does not use it.
	SigningSecret string
	// BotUserID and BotID are the bot's own identity (auth.test): its
	// mentions are stripped from questions and its posts ignored.
	BotUserID string
	BotID     string
	// Workers answer requests in parallel. Zero means 8.
	Workers int
	// Queue is how many requests may wait for a worker. Zero means 256.
	Queue int
	// AnswerTimeout bounds the work on one request. Zero means 2 minutes.
	AnswerTimeout time.Duration
	// DrainTimeout bounds how long shutdown waits for acknowledged answers
	// to finish. Zero means 20 seconds (Kubernetes gives 30 by default).
	DrainTimeout time.Duration
	// SeenTTL is how long delivered events are remembered. Zero means 24 hours.
	SeenTTL time.Duration
	// Importer, if set, imports CSV bills uploaded to the bot in a DM.
	Importer importer
	// Phraser, if enabled, rewrites posted answers in friendlier words
	// after the template is out (OPENAI_* settings); nil leaves them be.
	Phraser improver
	// Users, if set, looks up askers' locales (users.info), which pick the
	// language of commands whose words do not.
	Users userLookup
	// Home, if set, publishes the App Home tab when a user opens it.
	Home *HomeTab
	// Persist, if set, is called after a durable change (a channel's
	// opt-in), so the embedded mode can snapshot its state (store.Persist).
	Persist func(ctx context.Context) error
	// Reactions, if set, puts 👀 on a mention while it is being answered
	// (reactions:write); *slack.Client is one.
	Reactions reactor
	// Admins may turn a channel's unprompted answers on or off and
	// acknowledge budget alerts, besides workspace admins and owners
	// (users.info); BOT_ADMINS.
	Admins []string
	// Welcome greets each user's first DM with three example questions
	// (welcome.go), once per user, remembered in Redis.
	Welcome bool
	// Acknowledge, if set, records a click on a budget alert's Acknowledge
	// button (budget.Alerts.Acknowledge).
	Acknowledge func(ctx context.Context, team, alert, user string) error
}

// App handles Slack requests. Run must be running for requests to be answered.
type App struct {
	cfg  Config
	bot  Answerer
	rdb  redis.UniversalClient
	post *slackpost.Poster
	log  *slog.Logger

	connected  atomic.Bool // Socket Mode connection up
	refreshing atomic.Bool // Slack asked this connection to reconnect (socketLevel)
	locales    locales     // users' Slack locales, remembered for a day

	jobs     chan job
	inflight sync.WaitGroup // queued or running jobs; tests wait on it
	redis    redisGate      // whether de-duplication and opt-in reads try Redis
	// variantSlots bounds the answer variants asked in the background
	// for currency and 8-bit buttons (buildVariants).
	variantSlots chan struct{}
	convs        conversations // one job at a time per conversation (order.go)
}

type job struct {
	name string
	// key names the conversation the job belongs to (conversationKey);
	// jobs of one key run one at a time, in the order they were queued.
	// "" for jobs that read no conversation (slash commands).
	key string
	run func(ctx context.Context)
}

// New builds the app. rdb holds de-duplication and channel opt-ins.
func New(cfg Config, ans Answerer, rdb redis.UniversalClient, post *slackpost.Poster, log *slog.Logger) *App {
	if cfg.Workers <= 0 {
		cfg.Workers = 8
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 256
	}
	if cfg.AnswerTimeout <= 0 {
		cfg.AnswerTimeout = 2 * time.Minute
	}
	if cfg.DrainTimeout <= 0 {
		cfg.DrainTimeout = 20 * time.Second
	}
	if cfg.SeenTTL <= 0 {
		cfg.SeenTTL = 24 * time.Hour
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &App{cfg: cfg, bot: ans, rdb: rdb, post: post, log: log, jobs: make(chan job, cfg.Queue),
		variantSlots: make(chan struct{}, variantBuilds), convs: conversations{waiting: map[string][]job{}}}
}

// Run answers queued requests until ctx ends. Then it takes no new work
// but finishes what was already acknowledged — the answers running and those
// queued — on a context that shutdown does not cancel, for at most
// DrainTimeout; whatever has not started by then is dropped and counted.
func (a *App) Run(ctx context.Context) error {
	work, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWork()
	go func() {
		select {
		case <-ctx.Done():
		case <-work.Done():
			return
		}
		t := time.NewTimer(a.cfg.DrainTimeout)
		defer t.Stop()
		select {
		case <-t.C:
			stopWork()
		case <-work.Done():
		}
	}()
	var wg sync.WaitGroup
	var late atomic.Int64 // dequeued after the drain deadline
	run := func(j job) {
		for { // j, then the jobs of its conversation that queued behind it
			if work.Err() != nil {
				late.Add(1)
				a.inflight.Done()
			} else {
				a.do(work, j)
			}
			next, ok := a.convs.next(j.key)
			if !ok {
				return
			}
			j = next
		}
	}
	for range a.cfg.Workers {
		wg.Go(func() {
			for {
				select {
				case j := <-a.jobs:
					run(j)
				case <-ctx.Done():
					select { // draining: what is queued, then stop
					case j := <-a.jobs:
						run(j)
					default:
						return
					}
				}
			}
		})
	}
	wg.Wait()
	dropped := int(late.Load())
	for {
		select {
		case j := <-a.jobs:
			for ok := true; ok; j, ok = a.convs.next(j.key) {
				dropped++
				a.inflight.Done()
			}
		default:
			if dropped > 0 {
				a.log.Warn("shutting down with requests unanswered", "count", dropped)
			}
			return nil
		}
	}
}

// enqueue hands work to Run without ever blocking the caller, which is
// answering Slack against a deadline. It reports false when the queue is
// full. Jobs with the same key (one conversation) run one after another in
// the order enqueue saw them: a job whose conversation is busy waits
// behind it (order.go) rather than in the shared queue, and counts
// against the same capacity.
func (a *App) enqueue(name, key string, run func(ctx context.Context)) bool {
	a.inflight.Add(1)
	if a.convs.admit(job{name: name, key: key, run: run}, a.jobs) {
		return true
	}
	a.inflight.Done()
	a.log.Error("request dropped: every worker is busy and the queue is full", "kind", name, "queue", cap(a.jobs))
	return false
}

func (a *App) do(ctx context.Context, j job) {
	defer a.inflight.Done()
	res := &rescue{}
	defer func() {
		if r := recover(); r != nil {
			a.log.Error("handler panicked", "where", j.name, "panic", r, "stack", string(debug.Stack()))
			res.tell(context.WithoutCancel(ctx), a)
		}
	}()
	ctx, cancel := context.WithTimeout(withRescue(ctx, res), a.cfg.AnswerTimeout)
	defer cancel()
	j.run(ctx)
}

// rescue is what a job tells its asker if it panics: a handler names
// where to say it (onPanic) as soon as it knows, so a crash in an answer
// never leaves "⏳ Working on" up forever or a mention unanswered.
type rescue struct {
	mu   sync.Mutex
	f    func(ctx context.Context, a *App)
	lang string
}

type rescueKey struct{}

func withRescue(ctx context.Context, r *rescue) context.Context {
	return context.WithValue(ctx, rescueKey{}, r)
}

// onPanic sets how the job's asker hears of a crash, in lang.
func onPanic(ctx context.Context, lang string, f func(ctx context.Context, a *App, text string)) {
	r, _ := ctx.Value(rescueKey{}).(*rescue)
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lang = lang
	r.f = func(ctx context.Context, a *App) {
		f(ctx, a, tr(lang, "Something broke on our side while answering that; it's logged. Please try again in a minute.",
			"我这边回答时出错了，已记录日志。请稍后再试。"))
	}
}

func (r *rescue) tell(ctx context.Context, a *App) {
	r.mu.Lock()
	f := r.f
	r.mu.Unlock()
	if f == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	defer a.recoverPanic("telling the asker of a crash")
	f(ctx, a)
}

// recoverPanic logs a handler's panic instead of letting it end the process.
func (a *App) recoverPanic(where string) {
	if r := recover(); r != nil {
		a.log.Error("handler panicked", "where", where, "panic", r, "stack", string(debug.Stack()))
	}
}

// after waits until ready is closed (the ack went out) so an answer never
// overtakes its acknowledgement; it gives up after a few seconds.
func after(ctx context.Context, ready <-chan struct{}) {
	if ready == nil {
		return
	}
	t := time.NewTimer(3 * time.Second)
	defer t.Stop()
	select {
	case <-ready:
	case <-t.C:
	case <-ctx.Done():
	}
}
