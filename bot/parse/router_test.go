package parse

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/knowledge"
)

// trainRows reads the embedded training files.
func trainRows(t testing.TB) []trainRow {
	t.Helper()
	names, _ := filepath.Glob("data/train*.jsonl")
	sort.Strings(names)
	var rows []trainRow
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := readRows(b)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, rs...)
	}
	return rows
}

func encodeRows(t testing.TB, rows []trainRow) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, r := range rows {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	return b.Bytes()
}

// TestRouterCrossWriter trains on every training writer but one and scores
// the one left out: how well the router carries over to a way of asking it
// has not seen. This, not the test split, is what settings are chosen by.
func TestRouterCrossWriter(t *testing.T) {
	if !*crossWriter {
		t.Skip("trains one router per writer; run with -corpus.cv")
	}
	x := newExtractor(knowledge.MustShipped(), knowledge.MustLexicon())
	rows := trainRows(t)
	writers := map[string]bool{}
	for _, r := range rows {
		writers[r.Writer] = true
	}
	var names []string
	for w := range writers {
		names = append(names, w)
	}
	sort.Strings(names)
	var report []string
	total, correct := 0, 0
	for _, held := range names {
		var in, out []trainRow
		for _, r := range rows {
			if r.Writer == held {
				out = append(out, r)
			} else {
				in = append(in, r)
			}
		}
		rt, err := train(&x, encodeRows(t, in))
		if err != nil {
			t.Fatal(err)
		}
		n, ok := 0, 0
		for _, r := range out {
			if strings.HasPrefix(strings.ToLower(strings.TrimSpace(r.Text)), "/gpu") {
				continue
			}
			f := x.extract(Clean(r.Text), false, issueNow)
			got, _, _, _ := rt.route(&f)
			n++
			if got == r.Intent {
				ok++
			}
		}
		total, correct = total+n, correct+ok
		report = append(report, fmt.Sprintf("%s %d/%d %.1f%%", held, ok, n, pct(ok, n)))
	}
	t.Logf("leave-one-writer-out intent accuracy: %s; overall %.1f%%", strings.Join(report, ", "), pct(correct, total))
}

// TestRouterDeterministic: the same data gives the same weights, so the
// same text always gets the same intent and confidence.
func TestRouterDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the router twice (~8 s on a busy 2-core machine); make test runs it")
	}
	x := newExtractor(knowledge.MustShipped(), knowledge.MustLexicon())
	rows := trainRows(t)
	data := encodeRows(t, rows[:600]) // a slice keeps the test quick; TestRouterWeights trains on all
	a, err := train(&x, data)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := train(&x, data)
	for i := range a.w {
		if a.w[i] != b.w[i] {
			t.Fatalf("weight %d differs between two trainings: %v vs %v", i, a.w[i], b.w[i])
		}
	}
}

// TestConfidenceCalibrated: over the dev and test splits, the mean
// confidence of routed messages is within 10 points of the share routed
// right (a calibrated probability says how often it is right).
func TestConfidenceCalibrated(t *testing.T) {
	if testing.Short() {
		t.Skip("parses the whole dev and test corpus (~6 s); make test runs it")
	}
	p := newParser(t)
	sum, right, n := 0.0, 0, 0
	for _, r := range loadCorpus(t) {
		if r.Split == "train" {
			continue
		}
		req := p.ParseAt(r.Text, issueNow)
		if req.Slash {
			continue
		}
		n++
		sum += req.Confidence
		if req.Intent == r.Intent {
			right++
		}
	}
	mean, acc := 100*sum/float64(n), pct(right, n)
	t.Logf("held-out messages %d: mean confidence %.1f%%, accuracy %.1f%%", n, mean, acc)
	if mean-acc > 10 || acc-mean > 10 {
		t.Errorf("mean confidence %.1f%% vs accuracy %.1f%%: not calibrated within 10 points", mean, acc)
	}
}

// BenchmarkTrain is the start-up cost of learning the router (< 300 ms).
func BenchmarkTrain(b *testing.B) {
	x := newExtractor(knowledge.MustShipped(), knowledge.MustLexicon())
	data := encodeRows(b, trainRows(b))
	for b.Loop() {
		if _, err := train(&x, data); err != nil {
			b.Fatal(err)
		}
	}
}

var crossWriter = flag.Bool("corpus.cv", false, "train one router per left-out training writer and report its accuracy")

// TestRouterWeights: the embedded weights are what the training data gives
// (to quantisation), so they cannot drift from the corpus. -update rewrites
// them (bottest's one -update flag).
func TestRouterWeights(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the router on all of its data (~25 s on a busy 2-core machine); make test runs it")
	}
	x := newExtractor(knowledge.MustShipped(), knowledge.MustLexicon())
	data := encodeRows(t, trainRows(t))
	fresh, err := train(&x, data)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := encodeWeights(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if bottest.Update() {
		if err := os.WriteFile("data/router.bin.gz", enc, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote data/router.bin.gz (%d bytes)", len(enc))
		return
	}
	want, _ := decodeWeights(enc)
	got, err := decodeWeights(routerBin)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.w {
		if want.w[i] != got.w[i] {
			t.Fatalf("embedded router weights differ from the training data's at %d; run go test ./bot/parse -run TestRouterWeights -update", i)
		}
	}
}

// BenchmarkDecodeWeights is the start-up cost of the embedded router.
func BenchmarkDecodeWeights(b *testing.B) {
	for b.Loop() {
		if _, err := decodeWeights(routerBin); err != nil {
			b.Fatal(err)
		}
	}
}
