package transport

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/metrics"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/phrase"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// The bot under faults. Each test waits on what the app tells it (acks,
// the fake Slack's calls, App.inflight), never on a sleep.

// redisProc is a redis-server of the test's own on a free loopback port,
// append-only with an fsync on every write, so a SIGKILL loses nothing it
// acknowledged.
type redisProc struct {
	t    *testing.T
	bin  string
	dir  string
	port int
	cmd  *exec.Cmd
}

// startRedisProc starts redis-server (REDIS_SERVER_BIN, else the one on
// PATH) or skips the test when there is none.
func startRedisProc(t *testing.T) *redisProc {
	t.Helper()
	bin := os.Getenv("REDIS_SERVER_BIN")
	if bin == "" {
		p, err := exec.LookPath("redis-server")
		if err != nil {
			t.Skip("no redis-server binary (set REDIS_SERVER_BIN or install redis-server)")
		}
		bin = p
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	r := &redisProc{t: t, bin: bin, dir: t.TempDir(), port: port}
	r.start()
	t.Cleanup(r.kill)
	return r
}

func (r *redisProc) url() string { return "redis://127.0.0.1:" + strconv.Itoa(r.port) + "/0" }

func (r *redisProc) start() {
	r.t.Helper()
	r.cmd = exec.Command(r.bin, "--bind", "127.0.0.1", "--port", strconv.Itoa(r.port), "--dir", r.dir,
		"--appendonly", "yes", "--appendfsync", "always", "--save", "")
	if err := r.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(r.port), MaxRetries: -1})
	defer c.Close()
	waitPing(r.t, c)
}

// kill ends the server with SIGKILL: no shutdown, only the AOF remains.
func (r *redisProc) kill() {
	if r.cmd != nil && r.cmd.Process != nil {
		r.cmd.Process.Kill()
		r.cmd.Wait()
		r.cmd = nil
	}
}

// waitPing returns once c answers PING, polling for up to 10 s.
func waitPing(t *testing.T, c *redis.Client) {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for c.Ping(context.Background()).Err() != nil {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatal("the client did not reconnect to redis-server")
		}
	}
}

// newAppOn is newHarness on a Redis of the caller's, with the production
// pace (one post per channel per second, booked in Redis).
func newAppOn(t *testing.T, ans Answerer, rdb *redis.Client) *harness {
	t.Helper()
	h := &harness{slack: bottest.NewSlack(t), logs: &syncBuffer{}, rdb: rdb}
	h.api = slack.New("xoxb-test", slack.OptionAPIURL(h.slack.APIURL()))
	log := slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	poster := slackpost.New(h.api, rdb, slackpost.Options{Log: log})
	h.app = New(Config{SigningSecret: secret, BotUserID: bottest.BotUserID, BotID: bottest.BotID}, ans, rdb, poster, log)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.app.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	h.srv = httptest.NewServer(h.app.Handler())
	t.Cleanup(h.srv.Close)
	return h
}

// post sends a signed request and returns its status and body; safe from
// any goroutine (it reports, never stops the test).
func (h *harness) post(path, contentType string, body []byte) (int, string, error) {
	ts := time.Now()
	r, err := http.NewRequest(http.MethodPost, h.srv.URL+path, strings.NewReader(string(body)))
	if err != nil {
		return 0, "", err
	}
	r.Header.Set("Content-Type", contentType)
	r.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(ts.Unix(), 10))
	r.Header.Set("X-Slack-Signature", bottest.Signature(secret, ts, body))
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

// advice is a mix of questions that need no Redis to answer.
var advice = []string{
	"fit 13b lora", "cost 7b lora 50k samples 2 epochs on 4090", "monthly 4090 200h price=1.8 monthly=900",
	"buy h100", "price h100", "compare h100 h800", "recommend 70b inference", "help",
	"13B 模型 LoRA 微调要多大显存", "租卡合同里要写清楚哪些条款",
}

var reSaved = regexp.MustCompile(`Saved #([0-9a-z]+):`)

// TestRedisKilledMidLoad kills a real redis-server (SIGKILL, AOF with an
// fsync per write) while slash commands are coming in, keeps it down for a
// while, and starts it again on the same files. Advice must keep flowing
// the whole time (Redis only de-duplicates it), spend entries must be
// refused with "NOT saved" while it is down, and every entry the bot
// confirmed must be there after the restart.
func TestRedisKilledMidLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a redis-server under load (~6 s); make test and make soak run it")
	}
	rp := startRedisProc(t)
	opt, err := redis.ParseURL(rp.url()) // the client bot serve builds from REDIS_URL
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { rdb.Close() })
	kb := knowledge.MustShipped()
	l := ledger.New(&store.Store{Redis: rdb}, ledger.Options{KB: kb})
	b := bot.New(bot.Config{FX: 7.2}, kb, nil)
	b.Route(parse.Spend, bot.NewSpend(l, nil, 7.2, nil))
	h := newAppOn(t, b, rdb)

	var mu sync.Mutex
	kinds := map[string]string{} // response name -> "advice" or "spend"
	seq := 0
	slash := func(text, kind string) (string, error) {
		mu.Lock()
		seq++
		name := fmt.Sprintf("%s-%d", kind, seq)
		kinds[name] = kind
		mu.Unlock()
		status, body, err := h.post("/slack/commands", formType, bottest.SlashForm(text, "C1", "U1", h.slack.ResponseURL(name), "trig-"+name))
		if err == nil && (status != 200 || !strings.Contains(body, "⏳")) {
			err = fmt.Errorf("ack %d %s", status, body)
		}
		return name, err
	}
	// answers returns every response_url answer so far by response name.
	answers := func() map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, c := range h.slack.Calls(bottest.ResponseURLMethod) {
			out[strings.TrimPrefix(c.Path, "/response/")] = c.JSON(t)
		}
		return out
	}
	sent := 0
	burst := func(n, spendEvery, hours int) {
		t.Helper()
		for i := range n {
			var err error
			if spendEvery > 0 && i%spendEvery == 0 {
				// ≈ ¥2 a card-hour: passes the price check; the cents keep every
				// entry distinct (a repeat within a day is asked about, not saved)
				_, err = slash(fmt.Sprintf("spend add %dh 4090 ¥%d.%02d project=fault", hours, 2*hours+i%3, sent%100), "spend")
			} else {
				_, err = slash(advice[i%len(advice)], "advice")
			}
			if err != nil {
				t.Fatal(err)
			}
			sent++
		}
	}

	// Up: answers and saved entries.
	burst(16, 4, 1)
	h.slack.WaitCalls(t, bottest.ResponseURLMethod, sent)

	// Killed mid-load: the kill lands while a burst is being acknowledged
	// and answered.
	const midload = 24
	acks := make(chan error, midload)
	for i := range midload {
		go func() {
			var err error
			if i%4 == 0 {
				_, err = slash(fmt.Sprintf("spend add 2h 4090 ¥%d.%02d project=fault", 4+i%3, (i+50)%100), "spend")
			} else {
				_, err = slash(advice[i%len(advice)], "advice")
			}
			acks <- err
		}()
	}
	for i := range midload {
		if err := <-acks; err != nil {
			t.Fatalf("ack during the kill: %v", err)
		}
		if i == midload/3 {
			rp.kill()
		}
	}
	sent += midload

	// Down: advice still answered, spend refused; then 300 more questions,
	// 50 at a time (the queue holds 256).
	burst(20, 5, 777) // 777 h marks the entries that must not exist
	for range 6 {
		burst(50, 0, 0)
		h.slack.WaitCalls(t, bottest.ResponseURLMethod, sent)
	}
	dm := bottest.Msg("D1", "im", "U1", "1700000000.000777", "fit 70b qlora")
	if status, _, err := h.post("/slack/events", jsonType, bottest.EventCallback("EvDown", dm)); err != nil || status != 200 {
		t.Fatalf("event while Redis is down: %d %v", status, err)
	}
	h.slack.WaitCalls(t, bottest.ResponseURLMethod, sent)
	h.slack.WaitCalls(t, "chat.postMessage", 1)
	h.settle()

	var saved []string
	got := answers()
	for name, kind := range kinds {
		a, ok := got[name]
		if !ok {
			t.Errorf("%s: never answered", name)
			continue
		}
		text, _ := a["text"].(string)
		switch {
		case strings.Contains(text, "Something broke"):
			t.Errorf("%s: answered with an internal error: %q", name, text)
		case kind == "advice" && text == "":
			t.Errorf("%s: empty answer", name)
		case kind == "spend":
			if m := reSaved.FindStringSubmatch(text); m != nil {
				saved = append(saved, m[1])
			} else if !strings.Contains(text, "NOT saved") && !strings.Contains(text, "Checking") {
				// "Checking": sent as Redis died, outcome unknown (bot/spend.go)
				t.Errorf("%s: spend answered %q, want saved, NOT saved or checking", name, text)
			}
		}
	}
	if len(saved) < 4 {
		t.Errorf("%d entries confirmed, want at least the 4 sent before the kill", len(saved))
	}
	// While it is down, one request at a time tries Redis; the rest do not
	// wait on it (without that, each one waits out its retries and a few
	// hundred requests a second fill the queue).
	tried := strings.Count(h.logs.String(), "de-duplication unavailable; answering anyway")
	if tried == 0 || tried > 100 {
		t.Errorf("%d requests tried the dead Redis, want a few probes (of %d sent since the kill)", tried, midload+320)
	}

	// Back up on the same append-only file: everything confirmed is there,
	// nothing refused is.
	rp.start()
	ctx := context.Background()
	waitPing(t, rdb) // go-redis redials a refused address about once a second
	for _, id := range saved {
		if _, err := l.Get(ctx, bottest.TeamID, id); err != nil {
			t.Errorf("entry #%s was confirmed but is gone after the restart: %v", id, err)
		}
	}
	all, err := l.List(ctx, bottest.TeamID, ledger.Month{}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range all {
		if e.Hours == 777 {
			t.Errorf("entry #%s was refused while Redis was down, yet it is there", e.ID)
		}
	}

	// And de-duplication works again: a redelivered command gets one answer.
	before := len(h.slack.Calls(bottest.ResponseURLMethod))
	for range 2 {
		h.send(t, "/slack/commands", formType, bottest.SlashForm("fit 7b", "C1", "U1", h.slack.ResponseURL("again"), "trig-again"))
		h.settle()
	}
	if n := len(h.slack.Calls(bottest.ResponseURLMethod)) - before; n != 1 {
		t.Errorf("a command delivered twice after the restart got %d answers, want 1", n)
	}
}

func TestRedisGateLetsOneProbeThroughWhileDown(t *testing.T) {
	var g redisGate
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	if probe, ok := g.enter(); !ok || probe {
		t.Fatalf("up: enter = probe %v, ok %v; want a plain call", probe, ok)
	}
	g.leave(ctx, log, false, io.EOF) // the call failed: down
	probe, ok := g.enter()
	if !ok || !probe {
		t.Fatalf("down: first enter = probe %v, ok %v; want the probe", probe, ok)
	}
	if _, ok := g.enter(); ok {
		t.Fatal("down: a second call went to Redis while the probe is out")
	}
	g.leave(ctx, log, true, io.EOF) // the probe failed too
	if p, ok := g.enter(); !ok || !p {
		t.Fatal("after a failed probe the next call is not the next probe")
	}
	g.leave(ctx, log, true, nil) // it answered: up again
	for range 3 {
		if p, ok := g.enter(); !ok || p {
			t.Fatal("after a good probe calls still skip Redis")
		}
	}
}

// Shutdown finishes what was acknowledged: answers already queued when the
// context ends are still delivered, within DrainTimeout.
func TestShutdownDeliversQueuedAnswers(t *testing.T) {
	fb := &fakeBot{}
	fs := bottest.NewSlack(t)
	rdb := redis.NewClient(&redis.Options{Addr: miniredisAddr(t)})
	t.Cleanup(func() { rdb.Close() })
	poster := slackpost.New(slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL())), rdb, slackpost.Options{Pace: -1})
	app := New(Config{SigningSecret: secret, Queue: 64}, fb, rdb, poster, nil)
	h := &harness{srv: httptest.NewServer(app.Handler()), slack: fs}
	t.Cleanup(h.srv.Close)
	for i := range 40 {
		h.slash(t, "fit 13b lora", "r"+strconv.Itoa(i), "trig-"+strconv.Itoa(i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // SIGTERM arrives with 40 acknowledged commands queued
	app.Run(ctx)
	if n := len(fs.Calls(bottest.ResponseURLMethod)); n != 40 {
		t.Errorf("%d of 40 acknowledged commands answered during shutdown, want all", n)
	}
}

// After DrainTimeout, queued work that has not started is dropped, counted,
// and never started on a dead context.
func TestShutdownDropsWhatTheDrainCannotFinish(t *testing.T) {
	gate := make(chan struct{})
	slow := &gatedBot{gate: gate}
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	fs := bottest.NewSlack(t)
	rdb := redis.NewClient(&redis.Options{Addr: miniredisAddr(t)})
	t.Cleanup(func() { rdb.Close() })
	poster := slackpost.New(slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL())), rdb, slackpost.Options{Pace: -1})
	app := New(Config{SigningSecret: secret, Queue: 64, Workers: 1, DrainTimeout: 50 * time.Millisecond}, slow, rdb, poster, log)
	h := &harness{srv: httptest.NewServer(app.Handler()), slack: fs}
	t.Cleanup(h.srv.Close)
	for i := range 5 {
		h.slash(t, "fit 13b lora", "r"+strconv.Itoa(i), "trig-"+strconv.Itoa(i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { app.Run(ctx); close(done) }()
	slow.waitStarted(t) // the first answer is running
	cancel()
	time.AfterFunc(time.Second, func() { close(gate) }) // it finishes well after the drain deadline
	<-done
	if got := slow.started.Load(); got != 1 {
		t.Errorf("%d answers started, want only the one running at the deadline", got)
	}
	if !strings.Contains(logs.String(), "shutting down with requests unanswered") || !strings.Contains(logs.String(), "count=4") {
		t.Errorf("the dropped commands are not counted in the log:\n%s", logs.String())
	}
}

// gatedBot blocks every answer until gate closes.
type gatedBot struct {
	fakeBot
	gate    chan struct{}
	started atomic.Int32
	once    sync.Once
	first   chan struct{}
	mu      sync.Mutex
}

func (g *gatedBot) waitStarted(t *testing.T) {
	t.Helper()
	g.mu.Lock()
	if g.first == nil {
		g.first = make(chan struct{})
	}
	ch := g.first
	g.mu.Unlock()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("no answer started")
	}
}

func (g *gatedBot) Answer(ctx context.Context, m bot.Message) bot.Answer {
	g.started.Add(1)
	g.mu.Lock()
	if g.first == nil {
		g.first = make(chan struct{})
	}
	g.once.Do(func() { close(g.first) })
	g.mu.Unlock()
	<-g.gate
	return bot.Answer{Intent: "fit", Lang: "en", Text: "done"}
}

// TestLLMFaultsLeaveTheTemplate: a model that hangs, fails or answers
// garbage costs the user nothing. The template answer goes out first and
// stays; the work ends within the phrasing deadline.
func TestLLMFaultsLeaveTheTemplate(t *testing.T) {
	for name, rep := range map[string]bottest.OpenAIReply{
		"hangs":           {Hang: true},
		"500":             {Status: 500},
		"429 for a while": {Status: 429, RetryAfter: "30"},
		"malformed JSON":  {Body: `{"choices": [`},
		"HTML":            {Status: 502, Body: "<html>bad gateway</html>"},
		"empty":           {Text: "   "},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
			llm := bottest.NewOpenAI(t)
			llm.SetDefault(rep)
			h.app.cfg.Phraser = phrase.New(phrase.Config{BaseURL: llm.BaseURL(), Model: "m", Timeout: 300 * time.Millisecond}, nil)
			h.slash(t, "fit 13b lora", "r1", "trig1")
			h.event(t, "Ev1", bottest.Msg("D1", "im", "U1", "1.000001", "fit 13b lora"))
			settleWithin(t, h, 10*time.Second)
			resp := h.slack.Calls(bottest.ResponseURLMethod)
			if len(resp) != 1 || !strings.Contains(resp[0].JSON(t)["text"].(string), "31.01 GB") {
				t.Errorf("response_url got %d posts, want the template once", len(resp))
			}
			if n := len(h.slack.Calls("chat.postMessage")); n != 1 {
				t.Errorf("%d posts in the DM, want the template once", n)
			}
			if n := len(h.slack.Calls("chat.update")); n != 0 {
				t.Errorf("%d updates after a failed rephrase, want none", n)
			}
			if len(llm.Requests()) == 0 {
				t.Error("the model was never asked; the test proves nothing")
			}
		})
	}
}

// settleWithin is settle with a bound, for work that must end by itself.
func settleWithin(t *testing.T, h *harness, d time.Duration) {
	t.Helper()
	done := make(chan struct{})
	go func() { h.settle(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("requests still running after %s", d)
	}
}

// TestSlackServerErrorsAreBoundedLoggedAndCounted: Slack answering 5xx
// gets a bounded number of tries, then a log line and a metric per failed
// call; the app keeps answering.
func TestSlackServerErrorsAreBoundedLoggedAndCounted(t *testing.T) {
	m := metrics.New()
	h := newHarness(t, nil)
	log := slog.New(slog.NewTextHandler(h.logs, nil))
	// The production poster, with a fast backoff so the test does not wait.
	h.app.post = slackpost.New(h.api, h.rdb, slackpost.Options{Pace: -1, Backoff: time.Millisecond, Log: log, OnError: m.SlackError})

	// response_url: the answer replaces the "⏳ Working on" note, which is
	// safe to repeat, so a 5xx is retried: four tries in all.
	for range 4 {
		h.slack.Script(bottest.ResponseURLMethod, bottest.Reply{Status: 500})
	}
	h.slash(t, "fit 13b lora", "lost", "t1")
	h.settle()
	// chat.postMessage: retried after checking the channel, four tries in all.
	for range 4 {
		h.slack.Script("chat.postMessage", bottest.Reply{Status: 503})
	}
	h.event(t, "Ev1", bottest.Msg("D1", "im", "U1", "1.000001", "fit 13b lora"))
	h.settle()

	if n := len(h.slack.Calls("chat.postMessage")); n != 4 {
		t.Errorf("chat.postMessage tried %d times, want 4", n)
	}
	logs := h.logs.String()
	for _, want := range []string{"slash answer not delivered", "answer not delivered", "gave up after 4 attempts"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
	out := scrapeMetrics(t, m)
	for _, want := range []string{
		`gpubot_slack_api_errors_total{kind="server",method="response_url"} 4`,
		`gpubot_slack_api_errors_total{kind="server",method="chat.postMessage"} 4`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	// Still answering.
	h.slash(t, "fit 7b", "after", "t2")
	h.settle()
	if calls := h.slack.Calls(bottest.ResponseURLMethod); len(calls) != 5 || !strings.HasSuffix(calls[4].Path, "/after") {
		t.Errorf("after the failures: %d response_url posts, want the next answer delivered", len(calls))
	}
}

func scrapeMetrics(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	return rec.Body.String()
}

func miniredisAddr(t *testing.T) string {
	t.Helper()
	return miniredis.RunT(t).Addr()
}

// SIGTERM while an answer is being computed: it is still delivered.
func TestShutdownDeliversTheAnswerInFlight(t *testing.T) {
	gate := make(chan struct{})
	slow := &gatedBot{gate: gate}
	fs := bottest.NewSlack(t)
	rdb := redis.NewClient(&redis.Options{Addr: miniredisAddr(t)})
	t.Cleanup(func() { rdb.Close() })
	poster := slackpost.New(slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL())), rdb, slackpost.Options{Pace: -1})
	app := New(Config{SigningSecret: secret, Workers: 1}, slow, rdb, poster, nil)
	h := &harness{srv: httptest.NewServer(app.Handler()), slack: fs}
	t.Cleanup(h.srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { app.Run(ctx); close(done) }()
	h.slash(t, "fit 13b lora", "inflight", "trig-inflight")
	slow.waitStarted(t)
	cancel()    // shutdown begins mid-answer
	close(gate) // the answer completes afterwards
	<-done
	calls := fs.Calls(bottest.ResponseURLMethod)
	if len(calls) != 1 || calls[0].JSON(t)["text"] != "done" {
		t.Errorf("answer in flight at shutdown: %d deliveries, want 1", len(calls))
	}
}
