package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Targets from issue 10, for the 2-core dev machine.
const (
	targetRatio      = 0.70                  // ack throughput vs the baseline's
	targetAnswerP99  = 50 * time.Millisecond // full answer at 1,000 req/s
	targetRSS        = 100 << 20             // bytes
	targetFloodRSS   = 150 << 20             // bytes, under the unsigned flood (issue 18)
	targetCatalogue  = time.Second           // 100k offers ingest, normalise, diff
	targetCatalogMem = 200.0                 // MB
	catalogueBench   = "IngestNormaliseDiff100k"
)

// goBench is one line of `go test -bench -benchmem` output.
type goBench struct {
	pkg, name string
	nsPerOp   float64
	metrics   map[string]float64 // by unit: "B/op", "allocs/op", "peak-RSS-MB"…
}

// parseGoBench reads benchmark lines, remembering each one's package.
func parseGoBench(raw []byte) []goBench {
	var out []goBench
	pkg := ""
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimPrefix(strings.TrimSpace(p), "github.com/gpubot/gpubot/")
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || f[3] != "ns/op" {
			continue
		}
		name := strings.TrimPrefix(f[0], "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i] // the GOMAXPROCS suffix
			}
		}
		ns, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			continue
		}
		b := goBench{pkg: pkg, name: name, nsPerOp: ns, metrics: map[string]float64{}}
		for i := 4; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				b.metrics[f[i+1]] = v
			}
		}
		out = append(out, b)
	}
	return out
}

func (r *report) catalogue() (goBench, bool) {
	var found goBench
	ok := false
	for _, b := range r.goBench {
		if strings.Contains(b.name, catalogueBench) {
			if !ok || b.metrics["peak-RSS-MB"] > found.metrics["peak-RSS-MB"] {
				found, ok = b, true
			}
		}
	}
	return found, ok
}

// print writes the summary and reports whether a target was missed.
func (r *report) print(w io.Writer, o options) (missed bool) {
	fmt.Fprintf(w, "\ngpubot benchmarks — %s\n", r.started.UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(w, "machine: %d CPUs (GOMAXPROCS %d), %s; %s %s/%s\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), cpuModel(),
		runtime.Version(), runtime.GOOS, runtime.GOARCH)

	if len(r.goBench) > 0 {
		fmt.Fprintf(w, "\nGo benchmarks (go test -bench -benchmem)\n")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  package\tbenchmark\ttime/op\tB/op\tallocs/op\tother")
		for _, b := range r.goBench {
			var other []string
			for unit, v := range b.metrics {
				if unit != "B/op" && unit != "allocs/op" {
					other = append(other, fmt.Sprintf("%.4g %s", v, unit))
				}
			}
			slices.Sort(other)
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%.0f\t%s\n", b.pkg, b.name, dur(time.Duration(b.nsPerOp)),
				bytesize(b.metrics["B/op"]), b.metrics["allocs/op"], strings.Join(other, ", "))
		}
		tw.Flush()
	}

	fmt.Fprintf(w, "\nHTTP transport on loopback: signed /gpu slash commands, %d-question mix of every intent\n", len(questions))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  handler\tload\tsent\tacked/s\tack p50\tack p99\tanswer p50\tanswer p99\tanswers\terrors\tpeak RSS\tCPU/req")
	for _, x := range r.runs {
		ans, ap50, ap99 := "–", "–", "–"
		if x.answers {
			ans = strconv.Itoa(x.answered)
			ap50, ap99 = dur(pct(x.ansLat, 50)), dur(pct(x.ansLat, 99))
		}
		cpu := "–"
		if x.sent > 0 {
			cpu = dur(x.cpu / time.Duration(x.sent))
		}
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%.0f\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", x.name, x.mode, x.sent, x.throughput(),
			dur(pct(x.ackLat, 50)), dur(pct(x.ackLat, 99)), ap50, ap99, ans, x.errors(), rss(x), cpu)
	}
	tw.Flush()
	fmt.Fprintln(w, "  acked/s: 200s carrying the \"working on it\" note (a \"swamped\" ack is an error), over the run's window;")
	fmt.Fprintln(w, "  ack path only: the real handler with its answer workers held back (commands queued, dropped at the end;")
	fmt.Fprintln(w, "    its RSS holds every queued command);")
	fmt.Fprintln(w, "  answering, closed loop: more than it can answer, so most acks say \"swamped\" (counted as errors);")
	fmt.Fprintln(w, "  latency counts from when a request was due (open loop) or sent (closed loop); answer = the sink has the response_url post;")
	fmt.Fprintln(w, "  peak RSS and CPU are this whole process: load generator, sink and miniredis included.")
	for _, x := range r.runs {
		if x.errors() == 0 && len(x.logs) == 0 && x.behind == 0 && x.outages == 0 && x.conns == 0 && x.flood == "" {
			continue
		}
		fmt.Fprintf(w, "  %s, %s:", x.name, x.mode)
		if x.answers {
			fmt.Fprintf(w, " %d connections opened to post %d answers;", x.conns, x.answered)
		}
		if x.outages > 0 {
			how := "killed"
			if o.redisStall {
				how = "stopped (SIGSTOP)"
			}
			fmt.Fprintf(w, " redis-server %s %d× (down %s each);", how, x.outages, o.redisDown)
		}
		fmt.Fprintf(w, " swamped %d, refused %d, failed %d, bad ack %d, acked but unanswered %d, duplicate answers %d, bad answers %d, Slack errors %d",
			x.outcomes[swamped], x.outcomes[refused], x.outcomes[failed], x.outcomes[badAck], x.unanswer, x.dups, x.bad, x.slackErr)
		if x.behind > 0 {
			fmt.Fprintf(w, "; %d requests left the generator over 1 ms late", x.behind)
		}
		if x.flood != "" {
			fmt.Fprintf(w, "; the flood got %s", x.flood)
		}
		fmt.Fprintln(w)
		for i, l := range x.logs {
			if i == 5 {
				fmt.Fprintf(w, "      … %d more kinds\n", len(x.logs)-5)
				break
			}
			fmt.Fprintln(w, "   ", l)
		}
	}

	fmt.Fprintf(w, "\nTargets\n")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	check := func(what, got string, ok bool) {
		verdict := "met"
		if !ok {
			verdict, missed = "MISSED", true
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", what, got, verdict)
	}
	if b := r.maxBase; b != nil && b.throughput() > 0 {
		if a := r.maxAck; a != nil {
			ratio := a.throughput() / b.throughput()
			check("ack throughput ≥ 70 % of the baseline (closed loop)",
				fmt.Sprintf("%.0f %% (%.0f vs %.0f acked/s)", 100*ratio, a.throughput(), b.throughput()), ratio >= targetRatio)
		}
		if x := r.maxReal; x != nil && x.window > 0 {
			fmt.Fprintf(tw, "  (no target) answered throughput, overloaded\t%.0f answers/s = %.1f %% of the baseline\t–\n",
				float64(x.inWindow)/x.window.Seconds(), 100*float64(x.inWindow)/x.window.Seconds()/b.throughput())
		}
	}
	if x := r.openReal; x != nil {
		p99 := pct(x.ansLat, 99)
		during := ""
		if x.outages > 0 {
			how := "killed"
			if o.redisStall {
				how = "stopped"
			}
			during = fmt.Sprintf(", redis-server %s %d×", how, x.outages)
		}
		check(fmt.Sprintf("answer p99 < %s at %d req/s%s", dur(targetAnswerP99), o.rate, during), dur(p99), p99 < targetAnswerP99 && x.answered > 0)
		check(fmt.Sprintf("zero errors at %d req/s", o.rate), strconv.Itoa(x.errors()), x.errors() == 0)
		check("peak RSS < 100 MB under that load", rss(x), x.peakRSS >= 0 && x.peakRSS < targetRSS)
	}
	if x, base := r.llmHung, r.openReal; x != nil && base != nil {
		p99, b99 := pct(x.ansLat, 99), pct(base.ansLat, 99)
		check(fmt.Sprintf("LLM never answers: answer p99 ≤ 2× the no-LLM figure at %d req/s", o.rate),
			fmt.Sprintf("%s vs %s (%.2f×), %d errors", dur(p99), dur(b99), float64(p99)/float64(max(b99, 1)), x.errors()),
			x.answered > 0 && p99 <= 2*b99 && x.errors() == 0)
	}
	if x := r.flooded; x != nil {
		check(fmt.Sprintf("peak RSS < 150 MB, %d unsigned %s floods", o.flood, bytesize(float64(o.floodSize))), rss(x), x.peakRSS >= 0 && x.peakRSS < targetFloodRSS)
		check(fmt.Sprintf("signed commands answered meanwhile (%d/s), zero errors", o.floodRate),
			fmt.Sprintf("%d of %d, %d errors, answer p99 %s", x.answered, x.sent, x.errors(), dur(pct(x.ansLat, 99))), x.errors() == 0 && x.answered == x.sent)
	}
	if c, ok := r.catalogue(); ok {
		check("catalogue: 100k offers < 1 s", dur(time.Duration(c.nsPerOp)), time.Duration(c.nsPerOp) < targetCatalogue)
		if mb, ok := c.metrics["peak-RSS-MB"]; ok {
			check("catalogue: peak RSS < 200 MB", fmt.Sprintf("%.0f MB", mb), mb < targetCatalogMem)
		}
	} else if len(r.goBench) > 0 {
		check("catalogue benchmark", "not in -gobench", false)
	}
	tw.Flush()
	return missed
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[min(max(i-1, 0), len(s)-1)]
}

func dur(d time.Duration) string {
	switch {
	case d <= 0:
		return "–"
	case d < time.Microsecond:
		return fmt.Sprintf("%d ns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

func bytesize(b float64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}

func rss(x *result) string {
	if x.peakRSS < 0 {
		return "?"
	}
	s := fmt.Sprintf("%.0f MB", float64(x.peakRSS)/(1<<20))
	if !x.rssReset {
		s += "*" // the process's peak so far
	}
	return s
}

// cpuModel is the "model name" of /proc/cpuinfo.
func cpuModel() string {
	raw, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for line := range strings.Lines(string(raw)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
