package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/metrics"
	"github.com/gpubot/gpubot/bot/phrase"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/transport"
	"github.com/gpubot/gpubot/bot/watch"
	"github.com/gpubot/gpubot/knowledge"
)

// serve runs the bot: the console without Slack tokens, Socket Mode with
// SLACK_BOT_TOKEN + SLACK_APP_TOKEN, HTTP with SLACK_BOT_TOKEN +
// SLACK_SIGNING_SECRET. Every replica also runs the scheduler: the
// catalogue refresh and team-file reload, and (with Slack) the daily price
// post and the monthly recap; one replica at a time does the work.
func serve(ctx context.Context, cfg Config, kb *knowledge.Base, b *bot.Bot, log *slog.Logger, stdin io.Reader, stdout io.Writer) error {
	// go-redis prints its pool's dial failures to stderr on its own; while
	// Redis is down that is a line every few hundred milliseconds beside
	// the JSON log. Route them into the log, at debug.
	useRedisLog(log)
	st, degraded, err := openServeStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer st.Close()
	switch {
	case st.Embedded:
		fmt.Fprintf(stdout, "gpubot: no REDIS_URL set — using an embedded Redis (miniredis) and the shipped price catalogue; state is kept in %s.\n", st.StatePath())
	case degraded:
		go watchRedis(ctx, st, log)
	default:
		log.Info("redis connected")
	}
	socket := cfg.SlackAppToken != ""
	var api *slack.Client
	if cfg.SlackBotToken != "" {
		if !socket && cfg.SlackSigningSecret == "" {
			return errors.New("config: SLACK_BOT_TOKEN needs SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP)")
		}
		opts := []slack.Option{slack.OptionHTTPClient(&http.Client{Timeout: 15 * time.Second})}
		if cfg.SlackAPIURL != "" {
			opts = append(opts, slack.OptionAPIURL(strings.TrimSuffix(cfg.SlackAPIURL, "/")+"/"))
		}
		if socket {
			opts = append(opts, slack.OptionAppLevelToken(cfg.SlackAppToken))
		}
		api = slack.New(cfg.SlackBotToken, opts...)
	}
	d, err := wire(cfg, kb, b, st, api, log)
	if err != nil {
		return err
	}
	if st.Dir() != "" { // embedded: the CLI reaches the state through us (admin.go)
		stopAdmin, err := startAdmin(ctx, d, st.Dir(), log)
		if err != nil {
			return err
		}
		defer stopAdmin()
	}
	m := metrics.New()
	b.Observe(m.Answer)
	d.spend.ObserveWrites(m.LedgerWrite)
	d.gauges(ctx, m)

	if api == nil {
		fmt.Fprintln(stdout, "gpubot: no SLACK_BOT_TOKEN — opening the console instead of connecting to Slack.")
		sched, err := d.scheduler(cfg, nil, m.Post) // refresh and reload only: nowhere to post
		if err != nil {
			return err
		}
		ctx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- sched.Run(ctx) }()
		err = console(ctx, b, stdin, stdout)
		stop()
		if serr := <-done; err == nil {
			err = serr
		}
		return err
	}

	actx, cancel := context.WithTimeout(ctx, 15*time.Second)
	auth, err := api.AuthTestContext(actx)
	cancel()
	if err != nil {
		return fmt.Errorf("slack auth.test with SLACK_BOT_TOKEN: %w", err)
	}
	log.Info("slack bot identity", "team", auth.TeamID, "user", auth.UserID, "bot", auth.BotID)

	outbox := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gpubot_outbox_total",
		Help: "Acknowledged answers Slack did not take in time, by event: queued (in the Redis outbox), delivered (later), dropped (still undelivered after an hour, or refused for good).",
	}, []string{"event"})
	for _, e := range []string{slackpost.OutboxQueued, slackpost.OutboxDelivered, slackpost.OutboxDropped} {
		outbox.WithLabelValues(e)
	}
	m.Registry.MustRegister(outbox)
	poster := slackpost.New(api, st.Client(), slackpost.Options{Log: log, OnError: m.SlackError,
		ResponseURLAllowed: responseURLAllowed(cfg.SlackAPIURL),
		Outbox:             true, OnOutbox: func(e string) { outbox.WithLabelValues(e).Inc() }})
	d.spend.Notify(poster.Tell) // the settled outcome of a "checking…" entry: the command's response_url, else an ephemeral
	m.Gauge("gpubot_outbox_pending", "Answers waiting in the Redis outbox for Slack to take them.", func() float64 {
		return float64(poster.OutboxLen(context.WithoutCancel(ctx)))
	})
	sched, err := d.scheduler(cfg, poster, m.Post)
	if err != nil {
		return err
	}
	phm, err := phrase.NewMetrics(m.Registry)
	if err != nil {
		log.Warn("LLM phrasing metrics not registered", "err", err)
	}
	phr := phrase.New(phrase.Config{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey, Model: cfg.OpenAIModel, Metrics: phm}, log)
	app := transport.New(transport.Config{
		SigningSecret: cfg.SlackSigningSecret, BotUserID: auth.UserID, BotID: auth.BotID, Workers: transport.ServeWorkers,
		Phraser: phr, Persist: st.Persist, Importer: fileImporter{api: api, spend: d.spend}, Acknowledge: d.budget.Acknowledge,
		Home: &transport.HomeTab{Views: api, Settings: homeSettings(d.subs, cfg.Timezone, cfg.DailyPostAt, cfg.RecapPostAt),
			Watches: homeWatches(watch.NewStore(st.Client(), ""), d.kb)},
		Users: api, Admins: cfg.Admins, Reactions: api, Welcome: true,
	}, b, st.Client(), poster, log)

	mux := http.NewServeMux()
	// Liveness does not depend on Redis: an outage should not restart every
	// replica. Readiness does.
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok\n")
	})
	// Readiness: Redis answers, the catalogue has offers, and in Socket Mode
	// the connection to Slack is up. Each thing missing is one line of the
	// 503's body, so an operator reads what is wrong and what still works.
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		var missing []string
		if err := st.Ping(r.Context()); err != nil {
			missing = append(missing, "redis unavailable: advice is answered from the shipped catalogue; spend, subscriptions, channel opt-ins, de-duplication and scheduled posts wait for it")
		}
		if v, _ := d.cat.Current(r.Context()); v == nil || len(v.Offers) == 0 {
			missing = append(missing, "price catalogue not loaded")
		}
		if socket && !app.SocketConnected() {
			missing = append(missing, "slack socket mode not connected")
		}
		if len(missing) > 0 {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, strings.Join(missing, "\n")+"\n")
			return
		}
		io.WriteString(w, "ok\n")
	})
	mux.Handle("GET /metrics", m.Handler())
	if !socket {
		mux.Handle("/slack/", app.Handler())
	}
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on HTTP_ADDR %s: %w", cfg.HTTPAddr, err)
	}
	// Timeouts, header cap and a short IdleTimeout (transport.NewServer);
	// at most DefaultMaxConns connections, HTTPMaxConnsPerIP from one
	// address, idle keep-alives closed when full (transport.Listen).
	srv := transport.NewServer(mux, ctx)
	limited := transport.Listen(ln, srv, transport.ConnLimits{Max: transport.DefaultMaxConns, PerIP: cfg.HTTPMaxConnsPerIP})
	if socket {
		fmt.Fprintf(stdout, "gpubot: connecting to Slack over Socket Mode; /healthz, /readyz and /metrics on http://%s\n", ln.Addr())
	} else {
		fmt.Fprintf(stdout, "gpubot: serving Slack HTTP on http://%s (/slack/commands, /slack/events, /slack/interactive, /healthz, /readyz, /metrics)\n", ln.Addr())
	}

	ctx, stop := context.WithCancel(ctx)
	defer stop()
	errc := make(chan error, 5)
	n := 0
	start := func(f func() error) {
		n++
		go func() { errc <- f() }()
	}
	start(func() error { return app.Run(ctx) })
	start(func() error { return poster.RunOutbox(ctx, 5*time.Second) })
	start(func() error { return sched.Run(ctx) })
	start(func() error {
		// Each connection holds buffers and a goroutine before anything
		// about it is authenticated: limited caps them.
		if err := srv.Serve(limited); !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("http: %w", err)
		}
		return nil
	})
	if socket {
		sm := socketmode.New(api)
		start(func() error { return app.RunSocket(ctx, sm) })
	}

	var first error
	select {
	case <-ctx.Done():
	case first = <-errc:
		n--
	}
	stop()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && first == nil {
		first = fmt.Errorf("http shutdown: %w", err)
	}
	for ; n > 0; n-- {
		if err := <-errc; err != nil && first == nil {
			first = err
		}
	}
	// Writes still being checked after a stalled Redis: each asker is told
	// the bot is restarting and how to see the outcome, and each is logged.
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := d.spend.Shutdown(tctx); err != nil {
		log.Error("shutdown", "err", err)
	}
	return first
}

// gauges exposes the catalogue's freshness on /metrics: the age of its
// oldest source's last success and the offers it serves.
func (d *deps) gauges(ctx context.Context, m *metrics.Metrics) {
	m.Gauge("gpubot_catalog_offers", "Offers the live catalogue serves after merging its sources.", func() float64 {
		v, _ := d.cat.Current(context.WithoutCancel(ctx))
		if v == nil {
			return 0
		}
		return float64(len(v.Offers))
	})
	m.Gauge("gpubot_catalog_stale_sources", "Catalogue sources whose last refresh failed (serving their last good data).", func() float64 {
		v, _ := d.cat.Current(context.WithoutCancel(ctx))
		n := 0
		if v != nil {
			for _, s := range v.Sources {
				if s.Stale() {
					n++
				}
			}
		}
		return float64(n)
	})
}

// responseURLAllowed limits where slash-command answers may be posted: only
// Slack's own https://hooks.slack.com, so a leaked signing secret cannot
// turn the bot into a proxy for arbitrary requests. With SLACK_API_URL set
// (a proxy, or a test's fake Slack) its host is allowed too.
func responseURLAllowed(apiURL string) func(*url.URL) bool {
	extra := ""
	if u, err := url.Parse(apiURL); err == nil && apiURL != "" {
		extra = u.Host
	}
	return func(u *url.URL) bool {
		return (u.Scheme == "https" && u.Host == "hooks.slack.com") || (extra != "" && u.Host == extra)
	}
}

// go-redis keeps its logger in a package variable, read by its pool's
// goroutines without a lock: it is set once, to a forwarder, and each serve
// points the forwarder at its own log.
var (
	redisLogOnce sync.Once
	redisLogTo   atomic.Pointer[slog.Logger]
)

func useRedisLog(log *slog.Logger) {
	redisLogTo.Store(log)
	redisLogOnce.Do(func() { redis.SetLogger(redisLog{}) })
}

// redisLog hands go-redis's internal messages to the process log (redacted
// like every other line), at debug.
type redisLog struct{}

func (redisLog) Printf(ctx context.Context, format string, v ...any) {
	if l := redisLogTo.Load(); l != nil {
		l.DebugContext(ctx, "redis client: "+fmt.Sprintf(format, v...))
	}
}
