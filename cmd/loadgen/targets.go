package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/metrics"
	"github.com/gpubot/gpubot/bot/phrase"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/bot/transport"
	"github.com/gpubot/gpubot/knowledge"
)

// secret signs every request; both handlers verify with it.
const secret = "loadgen-signing-secret-0123456789abcdef"

// server is an http.Server on a loopback port, with the timeouts and
// limits cmd/bot's serve uses.
type server struct {
	srv *http.Server
	url string
}

func listen(h http.Handler, opened ...*atomic.Int64) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &server{
		srv: &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second,
			MaxHeaderBytes: transport.MaxHeaderBytes},
		url: "http://" + ln.Addr().String(),
	}
	if len(opened) > 0 {
		s.srv.ConnState = func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				opened[0].Add(1)
			}
		}
	}
	go s.srv.Serve(transport.LimitListener(ln, transport.DefaultMaxConns))
	return s, nil
}

func (s *server) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.srv.Shutdown(ctx)
}

// target is one handler under load.
type target struct {
	name     string
	real     bool   // acks carry the bot's "working on it" note
	answers  bool   // answers go to the sink
	commands string // URL of POST /slack/commands
	base     string // the server's URL
	stop     func()
}

// baseline only verifies the signature, exactly as the real handler does
// before anything else (slack.SecretsVerifier over a body of at most 64 KB),
// and returns a fixed 200: the most any Slack transport could do.
func baseline() (*target, error) {
	ack := []byte(`{"response_type":"ephemeral","text":"ok"}`)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sv, err := slack.NewSecretsVerifier(r.Header, secret)
		if err != nil {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
		if err != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		sv.Write(body)
		if sv.Ensure() != nil {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(ack)
	})
	s, err := listen(h)
	if err != nil {
		return nil, err
	}
	return &target{name: "baseline (verify + fixed 200)", commands: s.url + "/slack/commands", stop: s.close}, nil
}

// realHandler is the bot as `bot serve` wires it for HTTP: the shipped
// knowledge with answer metrics, transport.App with its default workers and
// queue, and slackpost.Poster with its production options, on Redis at
// redisURL or an embedded miniredis. Its Slack Web API and every
// response_url are the sink. Not wired: the ledger and the LLM phraser (no
// spend questions in the mix; phrasing happens after the answer is out).
//
// With ackOnly the app's workers are never started: the handler
// acknowledges and queues each command as always, but nothing is answered,
// and the queue goes with the app. That measures the ack path (signature,
// form, queue, ack) on its own; the queue holds a run's worth.
//
// With llmURL set, the LLM phraser is wired as bot serve wires it (its
// default deadline, pool and breaker), aimed at llmURL.
func realHandler(ctx context.Context, o options, redisURL string, sinkURL string, logs *logCounter, ackOnly bool, llmURL string) (*target, error) {
	st, err := store.Open(ctx, redisURL)
	if err != nil {
		return nil, err
	}
	log := slog.New(logs)
	var slackErrors atomic.Int64
	logs.slackErrors = &slackErrors
	api := slack.New("xoxb-loadgen", slack.OptionAPIURL(sinkURL+"/api/"))
	m := metrics.New() // as serve counts answers and Slack errors
	poster := slackpost.New(api, st.Redis, slackpost.Options{Log: log, Outbox: true, OnError: func(method, kind string) {
		m.SlackError(method, kind)
		slackErrors.Add(1)
		logs.Handle(context.Background(), slog.NewRecord(time.Now(), slog.LevelWarn, "slack call failed: "+method+" "+kind, 0))
	}})
	b := bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), log)
	b.Observe(m.Answer)
	cfg := transport.Config{
		SigningSecret: secret, BotUserID: "ULOADGEN", BotID: "BLOADGEN", Workers: o.botWorkers,
		SeenTTL: 10 * time.Minute, // a shared REDIS_URL forgets the run's marks soon
	}
	name := "real handler"
	if ackOnly {
		cfg.Queue = ackOnlyQueue
		name = "real handler, ack path only"
	}
	if llmURL != "" {
		phm, err := phrase.NewMetrics(m.Registry)
		if err != nil {
			return nil, err
		}
		cfg.Phraser = phrase.New(phrase.Config{BaseURL: llmURL, Model: "loadgen", Metrics: phm}, log)
		name = "real handler, LLM never answers"
	}
	app := transport.New(cfg, b, st.Redis, poster, log)
	actx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	if ackOnly {
		close(done)
	} else {
		go func() { app.Run(actx); close(done) }()
	}
	mux := http.NewServeMux()
	mux.Handle("/slack/", app.Handler())
	s, err := listen(mux)
	if err != nil {
		cancel()
		st.Close()
		return nil, err
	}
	return &target{name: name, real: true, answers: !ackOnly, commands: s.url + "/slack/commands", base: s.url, stop: func() {
		s.close()
		cancel()
		<-done
		st.Close()
	}}, nil
}

// ackOnlyQueue is the ack-path run's queue: room for a couple of seconds at
// the baseline's rate.
const ackOnlyQueue = 1 << 17

// logCounter is a slog handler that counts warnings and errors by message,
// so the report can say what went wrong without printing every line.
type logCounter struct {
	mu          sync.Mutex
	counts      map[string]int
	slackErrors *atomic.Int64
}

func newLogCounter() *logCounter { return &logCounter{counts: map[string]int{}} }

func (l *logCounter) Enabled(_ context.Context, lv slog.Level) bool { return lv >= slog.LevelWarn }
func (l *logCounter) WithAttrs([]slog.Attr) slog.Handler            { return l }
func (l *logCounter) WithGroup(string) slog.Handler                 { return l }

func (l *logCounter) Handle(_ context.Context, r slog.Record) error {
	msg := r.Level.String() + " " + r.Message
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "err" || a.Key == "reason" {
			msg += " (" + a.Value.String() + ")"
			return false
		}
		return true
	})
	l.mu.Lock()
	l.counts[msg]++
	l.mu.Unlock()
	return nil
}

// take returns the counts so far, most frequent first, and resets them.
func (l *logCounter) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for m, n := range l.counts {
		out = append(out, fmt.Sprintf("%6d × %s", n, m))
	}
	sort.Sort(sort.Reverse(sort.StringSlice(out)))
	l.counts = map[string]int{}
	return out
}

// hungLLM is an OpenAI-compatible endpoint that never answers: every
// request waits until the client gives up or the server closes.
func hungLLM() (*server, func(), error) {
	stop := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	})
	s, err := listen(h)
	if err != nil {
		return nil, nil, err
	}
	s.srv.WriteTimeout = 0 // the hang is the point
	return s, func() { close(stop); s.close() }, nil
}
