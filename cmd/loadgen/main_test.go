package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/knowledge"
)

// TestQuestionsCoverEveryIntent: the load mixes every intent the engine
// answers, as the real bot reads the commands.
func TestQuestionsCoverEveryIntent(t *testing.T) {
	b := bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil)
	seen := map[string]bool{}
	for _, q := range questions {
		a := b.Answer(context.Background(), bot.Message{Text: q.text, Team: "T1", Channel: "C1", User: "U1", Slash: true})
		if string(a.Intent) != q.intent || a.Err != "" {
			t.Errorf("/gpu %s: intent %s (error %q), want %s", q.text, a.Intent, a.Err, q.intent)
		}
		seen[q.intent] = true
	}
	for _, want := range []string{"fit", "cost", "monthly", "buy", "price", "compare", "recommend", "help", "knowledge"} {
		if !seen[want] {
			t.Errorf("no %s question in the mix", want)
		}
	}
}

// TestShortRun drives both handlers briefly: every command acknowledged
// and answered once, and the table printed.
func TestShortRun(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the load generator end to end (~17 s on a busy 2-core machine); make test runs it")
	}
	o, err := parseFlags([]string{"-rate", "200", "-duration", "500ms", "-closed", "600ms", "-workers", "4",
		"-warmup", "0", "-drain", "5s", "-redis-url", "", "-flood", "0", "-llm-hang=false"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := measure(context.Background(), o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	x := rep.openReal
	if x.sent != 100 || x.outcomes[acked] != 100 || x.answered != 100 || x.errors() != 0 {
		t.Errorf("open loop: sent %d, acked %d, answered %d, errors %d; want 100, 100, 100, 0",
			x.sent, x.outcomes[acked], x.answered, x.errors())
	}
	if rep.maxBase == nil || rep.maxAck == nil || rep.maxBase.outcomes[acked] == 0 || rep.maxAck.outcomes[acked] == 0 {
		t.Error("closed-loop runs missing")
	}
	var out bytes.Buffer
	rep.goBench = parseGoBench([]byte("pkg: github.com/gpubot/gpubot/knowledge/catalog\n" +
		"BenchmarkIngestNormaliseDiff100kPeakRSS-2   1   258281143 ns/op   157.8 peak-RSS-MB   85775984 B/op   400829 allocs/op\n"))
	rep.print(&out, o)
	for _, want := range []string{"baseline (verify + fixed 200)", "real handler, ack path only", "answer p99 <", "catalogue: peak RSS < 200 MB", "158 MB"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestParseGoBench(t *testing.T) {
	got := parseGoBench([]byte(`goos: linux
pkg: github.com/gpubot/gpubot/advisor
cpu: AMD EPYC
BenchmarkFit-2                	  199527	      5923 ns/op	   11401 B/op	      63 allocs/op
BenchmarkAnswer/cost_inference_any_card-2   1202   980833 ns/op   842189 B/op   10265 allocs/op
PASS
`))
	if len(got) != 2 || got[0].pkg != "advisor" || got[0].name != "Fit" || got[0].nsPerOp != 5923 ||
		got[0].metrics["allocs/op"] != 63 || got[1].name != "Answer/cost_inference_any_card" {
		t.Errorf("parseGoBench = %+v", got)
	}
	if d := time.Duration(got[1].nsPerOp); dur(d) != "980.8 µs" {
		t.Errorf("dur(%v) = %s", d, dur(d))
	}
}
