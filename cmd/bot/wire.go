package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // BOT_TIMEZONE on images without zoneinfo (distroless)

	"github.com/robfig/cron/v3"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/budget"
	"github.com/gpubot/gpubot/bot/digest"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/profile"
	"github.com/gpubot/gpubot/bot/recap"
	"github.com/gpubot/gpubot/bot/schedule"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/sources"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/bot/subscribe"
	subscribecmd "github.com/gpubot/gpubot/bot/subscribe/command"
	"github.com/gpubot/gpubot/bot/thread"
	"github.com/gpubot/gpubot/bot/transport"
	"github.com/gpubot/gpubot/bot/watch"
	"github.com/gpubot/gpubot/infra/redisconn"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
	"github.com/gpubot/gpubot/knowledge/catalog/source"
)

// cliTeam is the workspace the CLI's spend import and recap preview use
// when --team is not given: one local team for the embedded default.
const cliTeam = "local"

// deps is everything the scheduled posts, the CLI and the live prices
// share, built once from the config over one Redis.
type deps struct {
	st     *store.Store
	kb     *knowledge.Base
	loc    *time.Location
	cat    *catalog.Catalog
	file   *source.File // the team file, when CATALOG_FILE is set
	prices livePrices
	daily  *digest.Daily
	ledger *ledger.Ledger
	recaps *recap.Recaps
	subs   *subscribe.Store
	profs  *profile.Store
	budget *budget.Alerts
	auth   *ledger.Authorizer
	spend  *bot.Spend
	log    *slog.Logger
	fx     float64 // BOT_FX_CNY_PER_USD
}

// openCLI opens the store and wires the catalogue, ledger and posts for a
// command-line tool (no bot, no Slack); close releases the store.
func openCLI(ctx context.Context, cfg Config, kb *knowledge.Base, log *slog.Logger) (*deps, func() error, error) {
	st, err := openStore(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	d, err := wire(cfg, kb, nil, st, nil, log)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return d, st.Close, nil
}

// openStore connects to REDIS_URL, or starts the embedded Redis that keeps
// its state in BOT_DATA_DIR. A malformed REDIS_URL is a config error that
// names the URL with its password redacted (go-redis's own error quotes it
// whole).
func openStore(ctx context.Context, cfg Config) (*store.Store, error) {
	if cfg.RedisURL == "" {
		return store.OpenEmbedded(ctx, cfg.DataDir)
	}
	if err := checkRedisURL(cfg.RedisURL); err != nil {
		return nil, err
	}
	return store.Open(ctx, cfg.RedisURL)
}

func checkRedisURL(raw string) error {
	c, err := redisconn.Open(raw) // one server or a cluster; makes no connection
	if err != nil {
		why := err.Error()
		if pw := urlPassword(raw); pw != "" {
			why = strings.ReplaceAll(why, pw, "[redacted]")
		}
		return fmt.Errorf("config: REDIS_URL %s: %s; the form is redis://[user:password@]host:port/db (rediss:// for TLS), "+
			"or for a Redis Cluster redis://host1:port?addr=host2:port&addr=host3:port or ?cluster=true", redactURL(raw), why)
	}
	return c.Close()
}

// openServeStore is openStore for bot serve, which starts without Redis:
// advice needs none (the catalogue falls back to the shipped offers), so a
// Redis that is down at start leaves the bot answering while /readyz says
// what is missing, and the client reconnects by itself once Redis is back
// (watchRedis logs it). A malformed REDIS_URL still stops it.
func openServeStore(ctx context.Context, cfg Config, log *slog.Logger) (st *store.Store, degraded bool, err error) {
	st, err = openStore(ctx, cfg)
	if err == nil || cfg.RedisURL == "" {
		return st, false, err
	}
	if cerr := checkRedisURL(cfg.RedisURL); cerr != nil {
		return nil, false, cerr
	}
	st, err2 := store.New(cfg.RedisURL) // the same clients, not yet connected
	if err2 != nil {
		return nil, false, checkRedisURL(cfg.RedisURL)
	}
	log.Warn("redis unavailable at start: answering advice from the shipped catalogue; spend, subscriptions, channel opt-ins and scheduled posts wait for it",
		"redis", redactURL(cfg.RedisURL), "err", err)
	return st, true, nil
}

// watchRedis pings Redis with a growing pause (1 s doubling to 30 s) until
// it answers, then logs that it is back. go-redis dials again on every
// command by itself; this only tells the operator when.
func watchRedis(ctx context.Context, st *store.Store, log *slog.Logger) {
	wait := time.Second
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		if err := st.Ping(ctx); err == nil {
			log.Info("redis connected: every feature is back")
			return
		}
		wait = min(2*wait, 30*time.Second)
	}
}

// location reads BOT_TIMEZONE.
func location(cfg Config) (*time.Location, error) {
	loc, err := time.LoadLocation(cfg.Timezone)
	if err != nil {
		return nil, fmt.Errorf("config: BOT_TIMEZONE %q: %w", cfg.Timezone, err)
	}
	return loc, nil
}

// wire builds the catalogue, ledger, subscriptions and post builders over
// st, and plugs them into b (when not nil): prices come from the live
// catalogue, monthly and buy questions default to the team's usage, and
// /gpu spend and /gpu subscribe are answered. users, when not nil, lets
// Slack workspace admins subscribe channels and import bills (users.info);
// without it only BOT_ADMINS may.
func wire(cfg Config, kb *knowledge.Base, b *bot.Bot, st *store.Store, users *slack.Client, log *slog.Logger) (*deps, error) {
	loc, err := location(cfg)
	if err != nil {
		return nil, err
	}
	public, err := publicCatalogues(cfg)
	if err != nil {
		return nil, err
	}
	srcs, err := source.FromConfig(source.Config{
		File: cfg.CatalogFile, SkyPilot: cfg.CatalogSkyPilot, GPUHunt: cfg.CatalogGPUHunt, Public: public,
		VastAPIKey: cfg.VastAPIKey, RunPodAPIKey: cfg.RunPodAPIKey, LambdaAPIKey: cfg.LambdaAPIKey, AzureURL: cfg.CatalogAzureURL,
	}, kb)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	d := &deps{st: st, kb: kb, loc: loc, log: log, fx: cfg.FX}
	for _, s := range srcs {
		if f, ok := s.(*source.File); ok {
			d.file = f
		}
	}
	shipped, err := source.ShippedOffers(kb)
	if err != nil {
		return nil, fmt.Errorf("shipped catalogue: %w", err)
	}
	d.cat = catalog.New(st.Client(), catalog.Options{Sources: srcs, Base: kb, Fallback: shipped})
	d.prices = livePrices{cat: d.cat, log: log}
	d.daily = digest.NewDaily(d.cat, st.Client(), digest.Options{Location: loc, KB: kb, FX: cfg.FX}, digest.DailyOptions{Persist: st.Persist})
	d.ledger = ledger.New(st, ledger.Options{KB: kb, Location: loc, Price: d.prices.price, FX: cfg.FX})
	d.profs = profile.New(st.Client(), st.Persist)
	d.recaps = recap.New(d.ledger, d.prices, recap.Options{KB: kb, FX: cfg.FX, Profiles: d.profs})
	d.budget = budget.NewAlerts(budget.NewStore(st.Client(), st.Persist), d.ledger, d.profs, cfg.FX)
	d.subs = subscribe.New(st.Client(), subscribe.Options{Persist: st.Persist})
	if users != nil {
		d.auth = ledger.NewAuthorizer(cfg.Admins, users, 0)
	} else {
		d.auth = ledger.NewAuthorizer(cfg.Admins, nil, 0) // a nil *slack.Client must not become a non-nil interface
	}
	d.spend = bot.NewSpend(d.ledger, d.auth, cfg.FX, nil)
	d.spend.Log(log)
	d.spend.UseBudgetNotes(func(ctx context.Context, team, lang string) []string {
		notes, err := d.budget.Notes(ctx, team, time.Now(), lang) // a write that crossed a threshold says so
		if err != nil {
			log.WarnContext(ctx, "budget notes unavailable", "err", err)
		}
		return notes
	})
	d.spend.UseBudgetLines(d.budget.VersusFunc(time.Now)) // spend reports and the recap end with budget vs actual
	d.spend.UseStoredBudget(d.budget.StoredFunc())        // a budget stated in a question names the stored one when it differs
	d.recaps.UseBudgetLines(d.budget.VersusFunc(time.Now))
	d.spend.UseTeamFX(func(ctx context.Context, team string) (knowledge.Currency, float64) {
		p, err := d.profs.Get(ctx, team) // the team's currency= and fx= settings
		if err != nil {
			return "", 0
		}
		return p.Currency, p.FX
	})
	if b != nil {
		b.UsePrices(d.prices)
		b.UseUsage(d.ledger)
		b.UseProfiles(d.profs) // advice quotes the team's allowed platforms only
		b.UseThreads(thread.New(st.Client(), thread.Options{}))
		b.SetClock(func() time.Time { return time.Now().In(loc) }) // relative dates ("昨天") in BOT_TIMEZONE
		sh := subscribecmd.NewHandler(d.subs, d.auth, nil, log)
		if users != nil { // connected to Slack: subscribe only where the bot can post
			sh.CheckMembership(users)
		}
		if err := b.Add(d.intents(sh)...); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// intents is the intent table, built once: every intent's row from its own
// package, with its handler, in the order help lists them (the bot adds
// help and unknown last). Adding an intent is one line here.
func (d *deps) intents(sh *subscribecmd.Handler) []intent.Row {
	return slices.Concat(bot.Rows(), []intent.Row{
		bot.SpendRow(d.spend),
		subscribecmd.Row(sh),
		watch.Row(d.watchHandler()),
		budget.Row(budget.NewHandler(d.budget, d.auth, nil)),
		profile.Row(profile.NewHandler(d.profs, d.kb, d.auth, nil)),
		transport.ListenRow(),
		sources.Row(&sources.Handler{Status: d.cat.Status}),
	})
}

// withLive runs a one-shot command (ask, console) with b answering from
// the live catalogue in Redis (the embedded one in BOT_DATA_DIR by default).
func withLive(ctx context.Context, cfg Config, kb *knowledge.Base, b *bot.Bot, log *slog.Logger, f func() error) error {
	st, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := wire(cfg, kb, b, st, nil, log); err != nil {
		return err
	}
	return f()
}

// scheduler is the timed work: the catalogue refresh on CATALOG_REFRESH,
// the team file's hot reload every minute, and — with a poster (Slack) —
// the daily post at DAILY_POST_AT and the recap on the 1st at RECAP_POST_AT.
// observe hears every run's outcome (metrics).
func (d *deps) scheduler(cfg Config, poster *slackpost.Poster, observe func(kind, outcome string)) (*schedule.Scheduler, error) {
	refresh, err := schedule.Parse(cfg.CatalogRefresh, d.loc)
	if err != nil {
		return nil, fmt.Errorf("config: CATALOG_REFRESH: %w", err)
	}
	daily, err := schedule.Daily(cfg.DailyPostAt, d.loc)
	if err != nil {
		return nil, fmt.Errorf("config: DAILY_POST_AT: %w", err)
	}
	monthly, err := schedule.Monthly(cfg.RecapPostAt, d.loc)
	if err != nil {
		return nil, fmt.Errorf("config: RECAP_POST_AT: %w", err)
	}
	tasks := []schedule.Task{{Name: "catalog-refresh", Schedule: refresh, Run: d.refreshTask}}
	if d.file != nil {
		tasks = append(tasks, schedule.Task{Name: "team-file", Schedule: cron.Every(time.Minute), Run: d.pollTeamFile})
	}
	if poster != nil {
		tasks = append(tasks, d.watchTask(poster))
	}
	return schedule.New(d.st.Client(), time.Now, schedule.Options{
		Location: d.loc, Persist: d.st.Persist, Poster: poster, Subs: d.subs, SuspendNote: subscribecmd.SuspendNote, Log: d.log, Tasks: tasks,
		Deliveries: []schedule.Delivery{d.daily.Delivery(daily), d.recaps.Delivery(monthly), d.budget.Delivery(cron.Every(5*time.Minute), d.loc)}, Observe: observe,
	}), nil
}

func (d *deps) refreshTask(ctx context.Context, now time.Time) error {
	rep, err := d.daily.Refresh(ctx, now)
	if err != nil {
		return err
	}
	d.logReport(ctx, "catalogue refreshed", rep)
	return nil
}

// pollTeamFile refreshes the team file alone when it changed on disk.
func (d *deps) pollTeamFile(ctx context.Context, now time.Time) error {
	changed, err := d.file.Changed()
	if err != nil {
		// A missing file is the refresh's to report (the source goes stale).
		d.log.DebugContext(ctx, "team price file", "err", err)
		return nil
	}
	if !changed {
		return nil
	}
	rep, err := d.daily.RefreshOnly(ctx, now, catalog.TeamFileSource)
	if err != nil {
		return err
	}
	d.logReport(ctx, "team price file reloaded", rep)
	return nil
}

func (d *deps) logReport(ctx context.Context, msg string, rep *catalog.Report) {
	for _, s := range rep.Sources {
		if s.Failed() {
			d.log.WarnContext(ctx, "catalogue source failed; keeping its last good offers", "source", s.Name, "err", s.Error)
		}
	}
	d.log.InfoContext(ctx, msg, "version", rep.Version, "sources", len(rep.Sources), "changes", len(rep.Diff.Changes))
}

// parseArgs parses flags wherever they stand among the positional
// arguments ("import bill.csv --team T") and returns the positionals.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
