package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/bot/transport"
)

// serve runs the bot: the console without Slack tokens, Socket Mode with
// SLACK_BOT_TOKEN + SLACK_APP_TOKEN, HTTP with SLACK_BOT_TOKEN +
// SLACK_SIGNING_SECRET.
func serve(ctx context.Context, cfg Config, b *bot.Bot, log *slog.Logger, stdin io.Reader, stdout io.Writer) error {
	var st *store.Store
	var err error
	if cfg.RedisURL == "" {
		st, err = store.OpenEmbedded(ctx, cfg.DataDir)
	} else {
		st, err = store.Open(ctx, cfg.RedisURL)
	}
	if err != nil {
		return err
	}
	defer st.Close()
	if st.Embedded {
		fmt.Fprintf(stdout, "gpubot: no REDIS_URL set — using an embedded Redis (miniredis) and the shipped price catalogue; state is kept in %s.\n", st.StatePath())
	} else {
		log.Info("redis connected")
	}
	if cfg.SlackBotToken == "" {
		fmt.Fprintln(stdout, "gpubot: no SLACK_BOT_TOKEN — opening the console instead of connecting to Slack.")
		return console(ctx, b, stdin, stdout)
	}
	socket := cfg.SlackAppToken != ""
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
	api := slack.New(cfg.SlackBotToken, opts...)
	actx, cancel := context.WithTimeout(ctx, 15*time.Second)
	auth, err := api.AuthTestContext(actx)
	cancel()
	if err != nil {
		return fmt.Errorf("slack auth.test with SLACK_BOT_TOKEN: %w", err)
	}
	log.Info("slack bot identity", "team", auth.TeamID, "user", auth.UserID, "bot", auth.BotID)

	poster := slackpost.New(api, st.Redis, slackpost.Options{Log: log})
	app := transport.New(transport.Config{
		SigningSecret: cfg.SlackSigningSecret, BotUserID: auth.UserID, BotID: auth.BotID,
		Persist: st.Persist,
	}, b, st.Redis, poster, log)

	mux := http.NewServeMux()
	// Liveness does not depend on Redis: an outage should not restart every
	// replica. Readiness does.
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := st.Ping(r.Context()); err != nil {
			http.Error(w, "redis unavailable", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "ok\n")
	})
	if !socket {
		mux.Handle("/slack/", app.Handler())
	}
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on HTTP_ADDR %s: %w", cfg.HTTPAddr, err)
	}
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	if socket {
		fmt.Fprintf(stdout, "gpubot: connecting to Slack over Socket Mode; /healthz and /readyz on http://%s\n", ln.Addr())
	} else {
		fmt.Fprintf(stdout, "gpubot: serving Slack HTTP on http://%s (/slack/commands, /slack/events, /slack/interactive, /healthz, /readyz)\n", ln.Addr())
	}

	ctx, stop := context.WithCancel(ctx)
	defer stop()
	errc := make(chan error, 3)
	n := 0
	start := func(f func() error) {
		n++
		go func() { errc <- f() }()
	}
	start(func() error { return app.Run(ctx) })
	start(func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
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
	return first
}
