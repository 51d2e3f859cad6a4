package parse

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gpubot/gpubot/knowledge"
)

// Seeds live in testdata/fuzz/<Target>/; FuzzParse also starts from every
// labelled corpus message.

// knownIntents are the intents a request may carry: the router's classes
// and every intent the lexicon gives /gpu words (the table's word column).
var knownIntents = func() map[Intent]bool {
	known := map[Intent]bool{}
	for _, c := range classes {
		known[c] = true
	}
	for id := range knowledge.MustLexicon().Intents {
		known[Intent(id)] = true
	}
	return known
}()

// checkRequest asserts what must hold for any message.
func checkRequest(t *testing.T, in string, r Request) {
	t.Helper()
	if !knownIntents[r.Intent] {
		t.Fatalf("Parse(%q) intent %q", in, r.Intent)
	}
	if r.Lang != "zh" && r.Lang != "en" {
		t.Fatalf("Parse(%q) lang %q", in, r.Lang)
	}
	if r.Confidence < 0 || r.Confidence > 1 || math.IsNaN(r.Confidence) {
		t.Fatalf("Parse(%q) confidence %v", in, r.Confidence)
	}
	if !utf8.ValidString(r.Text) || utf8.RuneCountInString(r.Text) > maxMessage {
		t.Fatalf("Parse(%q) text not clean: %d runes", in, utf8.RuneCountInString(r.Text))
	}
	checkSlots(t, in, r.Slots)
	if _, err := json.Marshal(r); err != nil {
		t.Fatalf("Parse(%q) does not marshal: %v", in, err)
	}
}

func checkSlots(t *testing.T, in string, s Slots) {
	t.Helper()
	nums := map[string]float64{
		"params_b": s.ParamsB, "hours_per_month": s.HoursPerMonth, "hours": s.Hours, "gpu_hours": s.GPUHours,
		"tps": s.TPS, "fx": s.FX, "years": s.Years, "pue": s.PUE, "tokens": s.Tokens, "samples": s.Samples,
		"sample_tokens": s.SampleTokens, "epochs": s.Epochs, "vram_gb": s.VRAMGB,
	}
	for _, m := range []*Money{s.Price, s.Monthly, s.Rent, s.Budget, s.Amount, s.Power, s.Ops} {
		if m != nil {
			nums["money"] = m.Amount
			if m.Currency != "" && m.Currency != "CNY" && m.Currency != "USD" {
				t.Fatalf("Parse(%q) currency %q", in, m.Currency)
			}
		}
	}
	for name, v := range nums {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Fatalf("Parse(%q) %s = %v", in, name, v)
		}
	}
	for name, v := range map[string]float64{"utilization": s.Utilization, "mfu": s.MFU} {
		if v < 0 || v > 1 || math.IsNaN(v) {
			t.Fatalf("Parse(%q) %s = %v, want 0–1", in, name, v)
		}
	}
	for name, v := range map[string]int{"bits": s.Bits, "batch": s.Batch, "seq_len": s.SeqLen, "concurrency": s.Concurrency, "cards": s.Cards, "lora_rank": s.LoRARank} {
		if v < 0 {
			t.Fatalf("Parse(%q) %s = %d", in, name, v)
		}
	}
	switch s.Method {
	case "", "inference", "full", "freeze", "lora", "qlora":
	default:
		t.Fatalf("Parse(%q) method %q", in, s.Method)
	}
}

func FuzzParse(f *testing.F) {
	if raw, err := os.ReadFile("testdata/corpus.jsonl"); err == nil {
		for _, line := range strings.Split(string(raw), "\n") {
			var r corpusRow
			if json.Unmarshal([]byte(line), &r) == nil && r.Text != "" {
				f.Add(r.Text)
			}
		}
	}
	p := New(knowledge.MustShipped())
	f.Fuzz(func(t *testing.T, in string) {
		checkRequest(t, in, p.Parse(in))
		checkRequest(t, in, p.ParseSlash(in))
	})
}

func FuzzExtract(f *testing.F) {
	x := newExtractor(knowledge.MustShipped(), knowledge.MustLexicon())
	rt := newRouter(&x)
	f.Fuzz(func(t *testing.T, in string, slash bool) {
		feat := x.extract(Clean(in), slash, time.Time{})
		if len(feat.rest) != len(feat.cueText) {
			t.Fatalf("extract(%q): passes changed the text length", in)
		}
		in2, conf, _, _ := rt.route(&feat)
		if !knownIntents[in2] || conf < 0 || conf > 1 {
			t.Fatalf("route(%q) = %s %v", in, in2, conf)
		}
		for intent := range knownIntents {
			checkSlots(t, in, feat.finish(intent))
		}
	})
}

func FuzzNumber(f *testing.F) {
	f.Fuzz(func(t *testing.T, in string) {
		v, ok := Number(in)
		if ok && (math.IsNaN(v) || math.IsInf(v, 0)) {
			t.Fatalf("Number(%q) = %v", in, v)
		}
		if !ok && v != 0 {
			t.Fatalf("Number(%q) = %v with ok false", in, v)
		}
		if fr, ok := ParseFraction(in); ok && (fr < 0 || math.IsNaN(fr) || math.IsInf(fr, 0)) {
			t.Fatalf("ParseFraction(%q) = %v", in, fr)
		}
	})
}

func FuzzParseMoney(f *testing.F) {
	f.Fuzz(func(t *testing.T, in string) {
		m, ok := ParseMoney(in)
		if !ok {
			return
		}
		if m.Amount < 0 || math.IsNaN(m.Amount) || math.IsInf(m.Amount, 0) {
			t.Fatalf("ParseMoney(%q) = %v", in, m.Amount)
		}
		if m.Currency != "" && m.Currency != "CNY" && m.Currency != "USD" {
			t.Fatalf("ParseMoney(%q) currency %q", in, m.Currency)
		}
	})
}

func FuzzClean(f *testing.F) {
	f.Fuzz(func(t *testing.T, in string) {
		out := Clean(in)
		if !utf8.ValidString(out) {
			t.Fatalf("Clean(%q) = %q, not UTF-8", in, out)
		}
		if utf8.RuneCountInString(out) > maxMessage {
			t.Fatalf("Clean(%q) kept %d runes", in, utf8.RuneCountInString(out))
		}
		if out != strings.TrimSpace(out) || strings.Contains(out, "  ") {
			t.Fatalf("Clean(%q) = %q, spaces not folded", in, out)
		}
		_ = arabize(strings.ToLower(out))
		_ = Lang(out)
	})
}
