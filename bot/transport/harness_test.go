package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
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
	budgets "github.com/gpubot/gpubot/bot/budget"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/bot/profile"
	"github.com/gpubot/gpubot/bot/slackpost"
	subscribecmd "github.com/gpubot/gpubot/bot/subscribe/command"
	"github.com/gpubot/gpubot/bot/watch"
	"github.com/gpubot/gpubot/knowledge"
)

const secret = "8f742231b10e8888abcd99yyyzzz85a5"

// fakeBot answers from a table and records what it was asked.
type fakeBot struct {
	mu     sync.Mutex
	asked  []bot.Message
	answer func(ctx context.Context, m bot.Message) bot.Answer
}

func (f *fakeBot) Answer(ctx context.Context, m bot.Message) bot.Answer {
	f.mu.Lock()
	f.asked = append(f.asked, m)
	f.mu.Unlock()
	if f.answer != nil {
		return f.answer(ctx, m)
	}
	return cannedAnswer(m)
}

// Parse routes like the real router in spirit: a model size is a confident
// fit question, anything else an unconfident unknown.
func (f *fakeBot) Parse(m bot.Message) parse.Request {
	if strings.Contains(strings.ToLower(m.Text), "13b") {
		return parse.Request{Intent: parse.Fit, Lang: parse.Lang(m.Text), Confidence: 0.9}
	}
	if strings.Contains(m.Text, "help") {
		return parse.Request{Intent: parse.Help, Lang: "en", Confidence: 0.9}
	}
	return parse.Request{Intent: parse.Unknown, Lang: parse.Lang(m.Text), Confidence: 0.2}
}

func (f *fakeBot) ParseInContext(_ context.Context, m bot.Message) parse.Request { return f.Parse(m) }

// Table is the whole table's facts, as bot serve has them.
func (f *fakeBot) Table() []intent.Row { return fullTable() }

// fullTable is cmd/bot's intent table without handlers: the bot's rows
// and every other package's.
// A bot builds it, so the rows carry their lexicon words.
var fullTable = sync.OnceValue(func() []intent.Row {
	b := bot.New(bot.Config{}, knowledge.MustShipped(), nil)
	if err := b.Add(subscribecmd.Row(nil), watch.Row(nil), budgets.Row(nil), profile.Row(nil), ListenRow()); err != nil {
		panic(err)
	}
	return b.Table()
})

// Clarify never asks: the fake's readings are confident or unknown.
func (f *fakeBot) Clarify(bot.Message, parse.Request) (bot.Answer, bool) { return bot.Answer{}, false }

// Asked is the questions the bot was asked, without the variants stored
// for an answer's buttons (Variants).
func (f *fakeBot) Asked() []string { return f.texts(false) }

// Variants is the variants asked for answers' buttons (family.go).
func (f *fakeBot) Variants() []string { return f.texts(true) }

func (f *fakeBot) texts(variant bool) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, m := range f.asked {
		if m.Variant == variant {
			out = append(out, m.Text)
		}
	}
	return out
}

// cannedAnswer is a fixed fit answer (or help, or an error), so the golden
// files pin the transport's payloads, not the renderer's wording.
func cannedAnswer(m bot.Message) bot.Answer {
	lang := parse.Lang(m.Text)
	switch {
	case strings.Contains(m.Text, "help"):
		t := "gpubot answers GPU procurement questions. Commands:\n• /gpu fit 13b lora — VRAM needed"
		return bot.Answer{Intent: parse.Help, Lang: lang, Text: t, Ephemeral: true,
			Blocks: []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, t, false, false), nil, nil)}}
	case !strings.Contains(strings.ToLower(m.Text), "13b"):
		t := "I couldn't read that. Try: /gpu fit 13b lora"
		return bot.Answer{Intent: parse.Unknown, Lang: lang, Text: t, Ephemeral: true,
			Blocks: []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, t, false, false), nil, nil)}}
	}
	// "lora" questions are LoRA fine-tunes; others default to inference.
	slots, assumed := parse.Slots{ParamsB: 13}, map[string]any{"method": "inference"}
	name, gb := [2]string{"inference", "推理"}, "31.2"
	if strings.Contains(strings.ToLower(m.Text), "lora") {
		slots.Method, assumed = "lora", map[string]any{"batch": 4}
		name, gb = [2]string{"LoRA fine-tune", "LoRA 微调"}, "40.1"
	}
	if strings.Contains(m.Text, "bits=8") {
		slots.Bits, gb = 8, "17.9"
	}
	title := tr(lang, "13B "+name[0]+": about "+gb+" GB per replica", "13B "+name[1]+"：单副本约需 "+gb+" GB 显存")
	text := title + "\n\nBreakdown:\n• weights: 26 GB (13B params × 2 bytes)\n• activations: 9.2 GB (batch 4 × seq 4096)\n\nFits on one card: A100 80GB (39.9 GB spare)"
	cur := "CNY"
	if strings.Contains(m.Text, "currency=usd") {
		text += "\nCheapest: $1.10/h"
		cur = "USD"
	}
	btns := []bot.Button{bot.ButtonWorking, bot.ButtonCurrency}
	if slots.Method != "lora" && slots.Bits != 8 {
		btns = append(btns, bot.ButtonBits8)
	}
	return bot.Answer{
		Intent: parse.Fit, Lang: lang, Text: text, Headline: title, Currency: cur, Buttons: btns,
		Doc: present.Doc{Lang: present.LangOf(lang), Headline: title, Working: []present.Step{
			{Kind: present.StepCalc, Label: "weights", Formula: "13B params × 2 bytes", Shown: "26 GB"},
			{Kind: present.StepCalc, Label: "activations", Formula: "batch 4 × seq 4096", Shown: "9.2 GB"}}},
		Slots: slots, Assumed: assumed,
		Result: map[string]any{"memory_gb": 40.1, "options": []any{map[string]any{"gpu": "a100-80g", "cheapest": map[string]any{"price": 7.9, "currency": "CNY"}}}},
		Blocks: []slack.Block{
			slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, title, false, false)),
			slack.NewSectionBlock(nil, []*slack.TextBlockObject{
				slack.NewTextBlockObject(slack.MarkdownType, "*weights*\n26 GB", false, false),
				slack.NewTextBlockObject(slack.MarkdownType, "*activations*\n9.2 GB", false, false),
			}, nil),
			slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, "Defaults used: batch=4, seq_len=4096", false, false)),
		},
	}
}

// syncBuffer collects log lines from many goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// harness is the app on a fake Slack and miniredis, served over httptest.
type harness struct {
	slack *bottest.Slack
	bot   *fakeBot
	app   *App
	srv   *httptest.Server
	rdb   *redis.Client
	mini  *miniredis.Miniredis
	logs  *syncBuffer
	api   *slack.Client

	persisted atomic.Int32 // Config.Persist calls
}

func newHarness(t *testing.T, ans Answerer) *harness {
	t.Helper()
	h := &harness{slack: bottest.NewSlack(t), logs: &syncBuffer{}}
	h.mini = miniredis.RunT(t)
	h.rdb = redis.NewClient(&redis.Options{Addr: h.mini.Addr()})
	t.Cleanup(func() { h.rdb.Close() })
	if ans == nil {
		h.bot = &fakeBot{}
		ans = h.bot
	}
	h.api = slack.New("xoxb-test", slack.OptionAPIURL(h.slack.APIURL()), slack.OptionAppLevelToken("xapp-test"))
	log := slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	poster := slackpost.New(h.api, h.rdb, slackpost.Options{Pace: -1, Log: log})
	persist := func(context.Context) error { h.persisted.Add(1); return nil }
	h.app = New(Config{SigningSecret: secret, BotUserID: bottest.BotUserID, BotID: bottest.BotID, Persist: persist}, ans, h.rdb, poster, log)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.app.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	h.srv = httptest.NewServer(h.app.Handler())
	t.Cleanup(h.srv.Close)
	return h
}

// settle waits until every request handed to the workers is done; call it
// after the HTTP responses (or acks) of everything sent.
func (h *harness) settle() { h.app.inflight.Wait() }

type response struct {
	status int
	body   string
}

// send posts body signed now, like Slack, with optional changes to the request.
func (h *harness) send(t *testing.T, path, contentType string, body []byte, change ...func(*http.Request)) response {
	t.Helper()
	r := bottest.SignedRequest(t, h.srv.URL+path, secret, time.Now(), contentType, body)
	for _, c := range change {
		c(r)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, string(b)}
}

const (
	formType = "application/x-www-form-urlencoded"
	jsonType = "application/json"
)

func (h *harness) slash(t *testing.T, text, responseName, trigger string) response {
	t.Helper()
	return h.send(t, "/slack/commands", formType, bottest.SlashForm(text, "C1", "U1", h.slack.ResponseURL(responseName), trigger))
}

func (h *harness) event(t *testing.T, eventID string, inner map[string]any, change ...func(*http.Request)) response {
	t.Helper()
	return h.send(t, "/slack/events", jsonType, bottest.EventCallback(eventID, inner), change...)
}

// golden compares got (JSON) with testdata/name.golden.json as decoded JSON
// (bottest.GoldenJSON); -update rewrites the file, keys sorted.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(got, &v); err == nil {
		got, _ = json.Marshal(v) // sorted keys, as the files have them
	}
	bottest.GoldenJSON(t, filepath.Join("testdata", name+".golden.json"), got)
}

// formJSON shows a form-encoded Web API call as one JSON object, with the
// JSON-valued fields (blocks, metadata) decoded, for golden files.
func formJSON(t *testing.T, f url.Values) []byte {
	t.Helper()
	m := map[string]any{}
	for k, vs := range f {
		if len(vs) != 1 {
			t.Errorf("form field %s sent %d times", k, len(vs))
		}
		var v any = vs[0]
		if k == "blocks" || k == "metadata" {
			if err := json.Unmarshal([]byte(vs[0]), &v); err != nil {
				t.Fatalf("form field %s is not JSON: %v", k, err)
			}
		}
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return b
}

// buttonValue finds the value of the button with actionID in a payload's blocks.
func buttonValue(t *testing.T, blocksJSON []byte, actionID string) string {
	t.Helper()
	var blocks []struct {
		Type     string `json:"type"`
		Elements []struct {
			ActionID string `json:"action_id"`
			Value    string `json:"value"`
		} `json:"elements"`
	}
	if err := json.Unmarshal(blocksJSON, &blocks); err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		for _, e := range b.Elements {
			if e.ActionID == actionID {
				return e.Value
			}
		}
	}
	t.Fatalf("no button %s in %s", actionID, blocksJSON)
	return ""
}

func blocksOf(t *testing.T, body []byte) []byte {
	t.Helper()
	var m struct {
		Blocks json.RawMessage `json:"blocks"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return m.Blocks
}
