// Command loadgen measures gpubot's Slack HTTP transport on loopback.
//
// It starts, in this process, the real transport handler (signature check,
// routing, the advisor, rendering, and the answer posted to the command's
// response_url) on miniredis (or REDIS_URL), and a baseline handler that
// only checks the signature and returns a fixed 200 — the ceiling of the
// transport. It drives both with signed /gpu slash commands that mix every
// intent: closed-loop with N workers for each one's most requests a second,
// and open-loop at a constant arrival rate, so a slow answer cannot hide its
// own latency (latency counts from when a request was due, not when it got
// sent). Answers go to a local sink that records when each arrives.
//
//	go run ./cmd/loadgen                      # 1,000 req/s for 10 s, 32 workers for 5 s
//	go run ./cmd/loadgen -rate 2000 -duration 30s
//	go run ./cmd/loadgen -gobench bin/bench-go.txt   # include go test -bench output (make bench)
//	go run ./cmd/loadgen -redis-kill 20s     # soak: a real redis-server killed every 20 s
//	go run ./cmd/loadgen -redis-kill 20s -redis-stall  # … stopped (SIGSTOP) instead
//
// It prints one summary table, with the targets met or missed; -check all
// makes a missed target exit 1, -check errors only a failed request.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/gpubot/gpubot/bot/transport"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// options are loadgen's flags.
type options struct {
	rate       int           // open loop: requests a second
	duration   time.Duration // open loop: how long each target is driven
	workers    int           // closed loop: concurrent clients
	closed     time.Duration // closed loop: how long each target is driven
	openBase   bool          // open loop: drive the baseline too
	warmup     time.Duration // unmeasured closed-loop run before the first measurement
	botWorkers int           // transport.Config.Workers; 0 keeps the default
	redisURL   string        // empty runs miniredis in this process
	redisKill  time.Duration // soak: kill the real redis-server this often (0: never)
	redisDown  time.Duration // soak: how long it stays down each time
	redisStall bool          // soak: pause it (SIGSTOP) instead of killing it
	redisBin   string        // soak: the redis-server binary
	drain      time.Duration // how long to wait for answers after the last request
	goBench    string        // file holding `go test -bench` output to summarise
	cpuProfile string        // write a CPU profile of the measured runs here
	check      string        // "all": exit 1 when a target is missed; "errors": when any request failed
	flood      int           // unsigned clients flooding during the flood run (0: no flood run)
	floodSize  int           // bytes of each flood request's body
	floodPath  string        // where the flood goes
	floodRate  int           // signed requests a second during the flood
	llmHang    bool          // run the real handler with a never-answering LLM too
	floodAt    string        // child mode: flood this URL for -duration, print what came back, exit
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.rate, "rate", 1000, "open loop: requests per second (constant arrival rate)")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "open loop: how long each target is driven")
	fs.IntVar(&o.workers, "workers", 32, "closed loop: concurrent clients, each sending its next request when the last is acknowledged")
	fs.DurationVar(&o.closed, "closed", 5*time.Second, "closed loop: how long each target is driven (0 skips the closed-loop runs)")
	fs.BoolVar(&o.openBase, "open-baseline", true, "open loop: drive the baseline too (the soak skips it)")
	fs.DurationVar(&o.warmup, "warmup", time.Second, "unmeasured run before the measurements")
	fs.IntVar(&o.botWorkers, "bot-workers", transport.ServeWorkers, "the transport's answer workers (default: as bot serve runs it)")
	fs.StringVar(&o.redisURL, "redis-url", os.Getenv("REDIS_URL"), "Redis for de-duplication; empty starts miniredis in this process")
	fs.DurationVar(&o.redisKill, "redis-kill", 0, "soak: start a redis-server and kill it this often during the open-loop run of the real handler")
	fs.DurationVar(&o.redisDown, "redis-down", 2*time.Second, "soak: how long redis-server stays down each time")
	fs.BoolVar(&o.redisStall, "redis-stall", false, "soak: with -redis-kill, pause redis-server (SIGSTOP, connections open, nothing answered) instead of killing it")
	fs.StringVar(&o.redisBin, "redis-server", envOr("REDIS_SERVER_BIN", "redis-server"), "soak: redis-server binary")
	fs.DurationVar(&o.drain, "drain", 10*time.Second, "how long to wait for the last answers")
	fs.StringVar(&o.goBench, "gobench", "", "file with `go test -bench -benchmem` output to include in the summary")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the load runs to this file")
	fs.StringVar(&o.check, "check", "", `"all": exit 1 when a target is missed; "errors": exit 1 when a request at the open-loop rate failed or went unanswered`)
	fs.IntVar(&o.flood, "flood", 200, "flood run: concurrent clients sending unsigned requests with large bodies while signed commands come in (0 skips it)")
	fs.IntVar(&o.floodSize, "flood-size", 1<<20, "flood run: body bytes of each unsigned request")
	fs.StringVar(&o.floodPath, "flood-path", "/slack/events", "flood run: the endpoint flooded")
	fs.IntVar(&o.floodRate, "flood-rate", 200, "flood run: signed slash commands a second meanwhile")
	fs.BoolVar(&o.llmHang, "llm-hang", true, "also drive the real handler with LLM phrasing aimed at an endpoint that never answers")
	fs.StringVar(&o.floodAt, "flood-at", "", "only flood this base URL for -duration and print the responses (the flood run starts loadgen so, in a process of its own)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case o.rate <= 0 || o.duration <= 0:
		return o, errors.New("-rate and -duration must be positive")
	case o.workers <= 0:
		return o, errors.New("-workers must be positive")
	case o.redisKill > 0 && o.redisKill <= o.redisDown:
		return o, errors.New("-redis-kill must be longer than -redis-down")
	case o.check != "" && o.check != "all" && o.check != "errors":
		return o, errors.New(`-check is "all" or "errors"`)
	}
	return o, nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// errTargetMissed is returned with -check when a target is missed.
var errTargetMissed = errors.New("a target was missed (see the table)")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if o.floodAt != "" {
		ctx, cancel := context.WithTimeout(ctx, o.duration)
		defer cancel()
		fl := newFlood(o.flood, o.floodSize, o.floodPath)
		fl.run(ctx, o.floodAt)
		_, err := fmt.Fprintln(stdout, fl.summary())
		return err
	}
	var gb []goBench
	if o.goBench != "" {
		raw, err := os.ReadFile(o.goBench)
		if err != nil {
			return fmt.Errorf("read -gobench: %w", err)
		}
		gb = parseGoBench(raw)
	}
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	fmt.Fprintf(stderr, "loadgen: driving the baseline and the real handler (%d req/s for %s open loop; %d workers for %s closed loop)…\n",
		o.rate, o.duration, o.workers, o.closed)
	rep, err := measure(ctx, o, stderr)
	if err != nil {
		return err
	}
	rep.goBench = gb
	missed := rep.print(stdout, o)
	switch {
	case o.check == "all" && missed:
		return errTargetMissed
	case o.check == "errors" && rep.openReal != nil && rep.openReal.errors() > 0:
		return fmt.Errorf("%d requests failed or went unanswered at %d req/s", rep.openReal.errors(), o.rate)
	}
	return nil
}
