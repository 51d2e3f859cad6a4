package bot

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

func newTestBot(t *testing.T) *Bot {
	t.Helper()
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	b.SetClock(func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) }) // golden files hold price ages
	return b
}

// golden is what a rendered answer looks like to Slack: the fallback text,
// the blocks and the JSON contract.
type golden struct {
	Text      string          `json:"text"`
	Ephemeral bool            `json:"ephemeral"`
	Blocks    json.RawMessage `json:"blocks"`
	Answer    json.RawMessage `json:"answer"`
}

// checkGolden compares with testdata/<name>.golden.json as decoded JSON
// (bottest.GoldenJSON); `go test ./bot -run Render -update` rewrites the files.
func checkGolden(t *testing.T, name string, a Answer) {
	t.Helper()
	blocks, err := json.Marshal(a.Blocks)
	if err != nil {
		t.Fatal(err)
	}
	ans, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	got := golden{Text: a.Text, Ephemeral: a.Ephemeral, Blocks: blocks, Answer: ans}
	gotRaw, _ := json.Marshal(got)
	bottest.GoldenJSON(t, filepath.Join("testdata", name+".golden.json"), gotRaw)
}

func TestRenderGolden(t *testing.T) {
	b := newTestBot(t)
	tests := []struct{ name, text string }{
		{"fit_13b_lora_en", "/gpu fit 13b lora"},
		{"fit_70b_qlora_zh", "70b qlora 微调要多大显存"},
		{"fit_70b_inference_h20", "/gpu fit 70b inference conc=50 gpu=h20"},
		{"fit_bad_size", "/gpu fit banana"},
		{"unknown_sub", "/gpu frobnicate"},
		{"cost_7b_lora_4090", "/gpu cost 7b lora 50k samples 2 epochs on 4090"},
		{"cost_70b_inference_given", "/gpu cost 70b inference 100M tokens tps=3500 price=2.5usd"},
		{"monthly_4090_given", "/gpu monthly 4090 200h price=1.8 monthly=900"},
		{"buy_h100_hardware_only", "/gpu buy h100 price=25000usd rent=2.5usd years=3 watts=0 ops=0 rate=0"},
		{"price_h100", "/gpu price h100"},
		{"compare_h100_h800_h20", "/gpu compare h100 h800 h20"},
		{"recommend_70b_inference", "/gpu recommend 70b inference"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkGolden(t, tt.name, b.Answer(context.Background(), Message{Text: tt.text}))
		})
	}
}

func TestRenderRespectsSlackLimits(t *testing.T) {
	b := newTestBot(t)
	for _, q := range []string{"/gpu fit 13b lora", "/gpu fit 405b full", "/gpu fit 70b inference conc=500 ctx=128k", "/gpu help"} {
		a := b.Answer(context.Background(), Message{Text: q})
		if a.Text == "" {
			t.Errorf("%q: empty fallback text", q)
		}
		if len(a.Blocks) == 0 || len(a.Blocks) > present.MaxBlocks {
			t.Errorf("%q: %d blocks, want 1..%d", q, len(a.Blocks), present.MaxBlocks)
		}
		raw, _ := json.Marshal(a.Blocks)
		var blocks []map[string]any
		_ = json.Unmarshal(raw, &blocks)
		for i, bl := range blocks {
			if txt, ok := bl["text"].(map[string]any); ok {
				if s, _ := txt["text"].(string); len([]rune(s)) > present.MaxSectionText {
					t.Errorf("%q block %d: %d chars, over %d", q, i, len([]rune(s)), present.MaxSectionText)
				}
			}
			if fs, ok := bl["fields"].([]any); ok && len(fs) > present.MaxFields {
				t.Errorf("%q block %d: %d fields, over %d", q, i, len(fs), present.MaxFields)
			}
		}
	}
}

func TestChineseAnswerHasNoStrayMarkdown(t *testing.T) {
	b := newTestBot(t)
	a := b.Answer(context.Background(), Message{Text: "13b lora 要多大显存"})
	if a.Lang != "zh" {
		t.Fatalf("lang = %q, want zh", a.Lang)
	}
	raw, _ := json.Marshal(a.Blocks)
	var blocks []map[string]any
	_ = json.Unmarshal(raw, &blocks)
	for _, bl := range blocks {
		if bl["type"] != "section" {
			continue
		}
		txt, _ := bl["text"].(map[string]any)
		s, _ := txt["text"].(string)
		if strings.Count(s, "*")%2 != 0 {
			t.Errorf("unbalanced * in %q", s)
		}
	}
	if !strings.Contains(a.Text, "显存") {
		t.Errorf("Chinese question answered as %q", a.Text[:60])
	}
}

func TestActivationHeavyJobsGetABatchOneTip(t *testing.T) {
	b := newTestBot(t)
	a := b.Answer(context.Background(), Message{Text: "/gpu fit 70b qlora bs=4 seq=4096"})
	alt := b.Answer(context.Background(), Message{Text: "/gpu fit 70b qlora bs=1 seq=4096"})
	want := fmtNum(alt.Result.(FitResult).MemoryGB) + " GB"
	if !strings.Contains(a.Text, "with bs=1 the job needs about "+want) {
		t.Errorf("no bs=1 tip quoting the bs=1 answer's %s:\n%s", want, a.Text)
	}
	if s := b.Answer(context.Background(), Message{Text: "/gpu fit 7b inference"}).Text; strings.Contains(s, "bs=1") {
		t.Error("inference answers get a batch tip")
	}
}
