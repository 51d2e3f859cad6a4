package phrase_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/phrase"
)

// costResult and costTemplate are a cost answer as the bot would render it.
var costResult = map[string]any{
	"gpu_hours": 150.0, "total": 1200.0, "currency": "CNY", "hourly": 8.0,
	"gpu": "rtx4090", "gpus": 1, "wall_hours": 150.0,
	"offers": []any{
		map[string]any{"platform": "autodl", "gpu": "rtx4090", "price": 1.98, "currency": "CNY", "unit": "hour", "observed_at": "2026-09-15"},
	},
}

const costTemplate = "训练成本约 ¥1,200：RTX 4090 ×1，共 150 卡时，按 ¥8/卡时 计。\n" +
	"目前最低报价 ¥1.98/h（autodl，2026-09 的数据，下单前请在平台确认）。"

func costInput() phrase.Input {
	facts := phrase.FactsFrom(costTemplate, costResult)
	essential := phrase.EssentialFrom(costTemplate, costResult, []string{"total", "gpu_hours"})
	return phrase.Input{Lang: "zh", Template: costTemplate, Facts: facts, Essential: essential}
}

const costFaithful = "这次训练大约花 ¥1,200：一张 RTX 4090 跑 150 卡时，单价 ¥8/卡时。" +
	"现在最便宜的是 autodl 的 ¥1.98/h（2026-09 报价，下单前请到平台确认）。"

type harness struct {
	fake *bottest.OpenAI
	p    *phrase.Phraser
	reg  *prometheus.Registry
}

func newHarness(t *testing.T, cfg phrase.Config) harness {
	t.Helper()
	fake := bottest.NewOpenAI(t)
	reg := prometheus.NewRegistry()
	m, err := phrase.NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.BaseURL = fake.BaseURL()
	if cfg.APIKey == "" {
		cfg.APIKey = "test-key"
	}
	if cfg.Model == "" {
		cfg.Model = "deepseek-chat"
	}
	cfg.Metrics = m
	return harness{fake: fake, p: phrase.New(cfg, nil), reg: reg}
}

// counter reads one labelled counter from the registry.
func (h harness) counter(t *testing.T, name, label, value string) float64 {
	t.Helper()
	mfs, err := h.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == label && l.GetValue() == value {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

func TestRephraseAcceptsFaithful(t *testing.T) {
	h := newHarness(t, phrase.Config{})
	h.fake.Script(bottest.OpenAIReply{Text: costFaithful})
	got, err := h.p.Rephrase(context.Background(), costInput())
	if err != nil {
		t.Fatalf("Rephrase: %v", err)
	}
	if got != costFaithful {
		t.Errorf("Rephrase = %q, want the model's text", got)
	}
	if n := h.counter(t, "llm_calls_total", "outcome", phrase.OutcomeOK); n != 1 {
		t.Errorf("llm_calls_total{outcome=ok} = %v, want 1", n)
	}
}

func TestRephraseAcceptsFaithfulFit(t *testing.T) {
	b, err := os.ReadFile("testdata/fit_13b_lora_en.json")
	if err != nil {
		t.Fatal(err)
	}
	var a map[string]any
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	template := a["text"].(string)
	facts := phrase.FactsFrom(template, a["result"], a["slots"], a["assumed"])
	essential := phrase.EssentialFrom(template, a["result"], []string{"memory_gb"})
	faithful := "A 13B LoRA fine-tune needs about 41.13 GB per replica: weights 26 GB, activations 11.66 GB, " +
		"framework overhead 2.72 GB.\n" +
		"• One card is enough on an L40S 48GB (6.86 GB spare) or any 80GB card such as A100 80GB or H100 SXM.\n" +
		"• On 4090s you need ×2 (20.97 GB/card), and PCIe-only cards slow multi-card training.\n" +
		"Defaults: batch 4, seq_len 4096, LoRA rank 16, gradient checkpointing on."
	h := newHarness(t, phrase.Config{})
	h.fake.Script(bottest.OpenAIReply{Text: faithful})
	got, err := h.p.Rephrase(context.Background(), phrase.Input{Lang: "en", Template: template, Facts: facts, Essential: essential})
	if err != nil {
		t.Fatalf("Rephrase: %v", err)
	}
	if got != faithful {
		t.Errorf("Rephrase = %q", got)
	}
}

func TestRephraseRejects(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		reason string
	}{
		{"changed number", strings.Replace(costFaithful, "¥1,200", "¥1,300", 1), phrase.ReasonNumber},
		{"extra number", costFaithful + "预计 3 天跑完。", phrase.ReasonNumber},
		{"dropped essential number", strings.Replace(costFaithful, "这次训练大约花 ¥1,200：", "", 1), phrase.ReasonEssential},
		{"元 to $ swap", strings.Replace(costFaithful, "¥1,200", "$1,200", 1), phrase.ReasonUnit},
		{"invented card", costFaithful + "换 H200 会更快。", phrase.ReasonName},
		{"changed date", strings.Replace(costFaithful, "2026-09", "2026-10", 1), phrase.ReasonDate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, phrase.Config{})
			h.fake.SetDefault(bottest.OpenAIReply{Text: tt.text})
			in := costInput()
			_, err := h.p.Rephrase(context.Background(), in)
			var rej *phrase.RejectedError
			if !errors.As(err, &rej) {
				t.Fatalf("Rephrase(%q) error = %v, want a *RejectedError", tt.text, err)
			}
			found := false
			for _, r := range rej.Reasons {
				found = found || strings.HasPrefix(r, tt.reason+":")
			}
			if !found {
				t.Errorf("Rephrase(%q) reasons %v, want one of kind %s", tt.text, rej.Reasons, tt.reason)
			}
			if got := h.p.Text(context.Background(), in); got != costTemplate {
				t.Errorf("Text = %q, want the template", got)
			}
			if n := h.counter(t, "llm_calls_total", "outcome", phrase.OutcomeRejected); n != 2 {
				t.Errorf("llm_calls_total{outcome=rejected} = %v, want 2", n)
			}
			if n := h.counter(t, "llm_guard_rejections_total", "reason", tt.reason); n < 2 {
				t.Errorf("llm_guard_rejections_total{reason=%s} = %v, want ≥ 2", tt.reason, n)
			}
		})
	}
}

// TestRephraseFallsBack: a hung, failing, rate-limited or malformed endpoint
// returns an error well within the deadline, and Text gives the template.
func TestRephraseFallsBack(t *testing.T) {
	const timeout = 500 * time.Millisecond
	tests := []struct {
		name     string
		replies  []bottest.OpenAIReply
		outcome  string
		requests int
		within   time.Duration
	}{
		{"hung endpoint", []bottest.OpenAIReply{{Hang: true}}, phrase.OutcomeTimeout, 1, timeout + time.Second},
		{"slower than the deadline", []bottest.OpenAIReply{{Delay: 5 * time.Second, Text: costFaithful}}, phrase.OutcomeTimeout, 1, timeout + time.Second},
		{"500", []bottest.OpenAIReply{{Status: 500}}, phrase.OutcomeHTTPError, 1, time.Second},
		{"500 with a non-JSON body", []bottest.OpenAIReply{{Status: 502, Body: "<html>bad gateway</html>"}}, phrase.OutcomeHTTPError, 1, time.Second},
		{"429 asking to wait past the deadline", []bottest.OpenAIReply{{Status: 429, RetryAfter: "30"}}, phrase.OutcomeRateLimited, 1, 300 * time.Millisecond},
		{"429 twice", []bottest.OpenAIReply{{Status: 429, RetryAfter: "0"}, {Status: 429, RetryAfter: "0"}, {Text: costFaithful}}, phrase.OutcomeRateLimited, 2, time.Second},
		{"malformed JSON", []bottest.OpenAIReply{{Body: `{"id": "x", "choices": [`}}, phrase.OutcomeBadResponse, 1, time.Second},
		{"not JSON", []bottest.OpenAIReply{{Body: "upstream says hi"}}, phrase.OutcomeBadResponse, 1, time.Second},
		{"no choices", []bottest.OpenAIReply{{Body: `{"id": "x", "choices": []}`}}, phrase.OutcomeBadResponse, 1, time.Second},
		{"empty content", []bottest.OpenAIReply{{Text: "  "}}, phrase.OutcomeBadResponse, 1, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, phrase.Config{Timeout: timeout})
			h.fake.Script(tt.replies...)
			start := time.Now()
			got, err := h.p.Rephrase(context.Background(), costInput())
			elapsed := time.Since(start)
			if err == nil {
				t.Fatalf("Rephrase = %q, nil error; want an error", got)
			}
			if elapsed > tt.within {
				t.Errorf("Rephrase took %v, want under %v", elapsed, tt.within)
			}
			if n := len(h.fake.Requests()); n != tt.requests {
				t.Errorf("requests = %d, want %d", n, tt.requests)
			}
			if n := h.counter(t, "llm_calls_total", "outcome", tt.outcome); n != 1 {
				t.Errorf("llm_calls_total{outcome=%s} = %v, want 1 (err %v)", tt.outcome, n, err)
			}
		})
	}
}

func TestRephraseRetries429Once(t *testing.T) {
	h := newHarness(t, phrase.Config{Timeout: 2 * time.Second})
	h.fake.Script(bottest.OpenAIReply{Status: 429, RetryAfter: "0"}, bottest.OpenAIReply{Text: costFaithful})
	got, err := h.p.Rephrase(context.Background(), costInput())
	if err != nil || got != costFaithful {
		t.Fatalf("Rephrase = %q, %v; want the rephrase after one retry", got, err)
	}
	if n := len(h.fake.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
}

func TestPromptCarriesFactsAndLanguage(t *testing.T) {
	h := newHarness(t, phrase.Config{Model: "qwen-plus", MaxTokens: 600})
	h.fake.Script(bottest.OpenAIReply{Text: costFaithful})
	in := costInput()
	if _, err := h.p.Rephrase(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	reqs := h.fake.Requests()
	if len(reqs) != 1 {
		t.Fatalf("requests = %d, want 1", len(reqs))
	}
	r := reqs[0]
	if got := r.Header.Get("Authorization"); got != "Bearer test-key" {
		t.Errorf("Authorization = %q", got)
	}
	//lint:ignore SA1019 the compatible servers' field is what is checked
	if r.Chat.Model != "qwen-plus" || r.Chat.MaxTokens != 600 {
		//lint:ignore SA1019 as above
		t.Errorf("model %q, max_tokens %d; want qwen-plus, 600", r.Chat.Model, r.Chat.MaxTokens)
	}
	sys, user := r.Content("system"), r.Content("user")
	for _, want := range []string{"Simplified Chinese", "Keep every number exactly", "add", "essential"} {
		if !strings.Contains(sys, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, sys)
		}
	}
	if !strings.Contains(user, costTemplate) {
		t.Errorf("user prompt lacks the template:\n%s", user)
	}
	_, factsJSON, ok := strings.Cut(user, "FACTS (JSON):\n")
	if !ok {
		t.Fatalf("user prompt has no FACTS section:\n%s", user)
	}
	var payload struct {
		Lang      string           `json:"lang"`
		Essential []map[string]any `json:"essential"`
		Facts     []map[string]any `json:"facts"`
	}
	if err := json.Unmarshal([]byte(factsJSON), &payload); err != nil {
		t.Fatalf("facts are not JSON: %v\n%s", err, factsJSON)
	}
	if payload.Lang != "zh" {
		t.Errorf("facts lang = %q, want zh", payload.Lang)
	}
	has := func(list []map[string]any, name string, value float64, unit string) bool {
		for _, f := range list {
			if f["name"] == name && f["value"] == value && (unit == "" || f["unit"] == unit) {
				return true
			}
		}
		return false
	}
	if !has(payload.Essential, "total", 1200, "CNY") || !has(payload.Essential, "gpu_hours", 150, "h") {
		t.Errorf("essential = %v, want total 1200 CNY and gpu_hours 150 h", payload.Essential)
	}
	if !has(payload.Facts, "hourly", 8, "CNY/h") || !has(payload.Facts, "offers[autodl rtx4090].price", 1.98, "CNY/h") {
		t.Errorf("facts = %v, want hourly 8 CNY/h and the offer price", payload.Facts)
	}
	for _, f := range payload.Facts {
		if f["text"] == costTemplate {
			t.Errorf("the template is repeated inside the facts")
		}
	}
	// Only fields every OpenAI-compatible server accepts.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(r.Body, &raw); err != nil {
		t.Fatal(err)
	}
	for k := range raw {
		switch k {
		case "model", "messages", "temperature", "max_tokens", "stream":
		default:
			t.Errorf("request sends %q, which some servers reject", k)
		}
	}
	if string(raw["stream"]) != "false" {
		t.Errorf("stream = %s, want false", raw["stream"])
	}
}

func TestPromptEnglish(t *testing.T) {
	if sys := phrase.SystemPrompt("en"); !strings.Contains(sys, "in English") {
		t.Errorf("SystemPrompt(en) = %q", sys)
	}
	if u := phrase.UserPrompt(phrase.Input{Lang: "fr", Template: "x"}); !strings.HasPrefix(u, "Language: en") || !strings.Contains(u, `"facts":[]`) {
		t.Errorf("UserPrompt(lang fr, no facts) = %q", u)
	}
}

func TestReasoningModelRequest(t *testing.T) {
	h := newHarness(t, phrase.Config{Model: "o3-mini", MaxTokens: 500})
	h.fake.Script(bottest.OpenAIReply{Text: costFaithful})
	if _, err := h.p.Rephrase(context.Background(), costInput()); err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(h.fake.Requests()[0].Body, &raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := raw["temperature"]; ok {
		t.Errorf("o3-mini request sends temperature")
	}
	if _, ok := raw["max_tokens"]; ok {
		t.Errorf("o3-mini request sends max_tokens")
	}
	if string(raw["max_completion_tokens"]) != "500" {
		t.Errorf("max_completion_tokens = %s, want 500", raw["max_completion_tokens"])
	}
}

func TestReplyCleanUp(t *testing.T) {
	h := newHarness(t, phrase.Config{})
	h.fake.Script(bottest.OpenAIReply{Text: "<think>the user wants 1,300? no.</think>\n```\n" + costFaithful + "\n```"})
	got, err := h.p.Rephrase(context.Background(), costInput())
	if err != nil || got != costFaithful {
		t.Fatalf("Rephrase = %q, %v; want the text without the reasoning block and fence", got, err)
	}
}

func TestImprove(t *testing.T) {
	t.Run("delivers a guarded rephrase", func(t *testing.T) {
		h := newHarness(t, phrase.Config{})
		h.fake.Script(bottest.OpenAIReply{Text: costFaithful})
		var mu sync.Mutex
		var got []string
		done := h.p.Improve(context.Background(), costInput(), func(text string) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, text)
		})
		waitDone(t, done)
		if len(got) != 1 || got[0] != costFaithful {
			t.Errorf("delivered %q, want the rephrase once", got)
		}
	})
	for _, tt := range []struct {
		name  string
		reply bottest.OpenAIReply
	}{
		{"rejected rephrase", bottest.OpenAIReply{Text: strings.Replace(costFaithful, "¥1,200", "$1,200", 1)}},
		{"hung endpoint", bottest.OpenAIReply{Hang: true}},
		{"same as the template", bottest.OpenAIReply{Text: costTemplate}},
		{"server error", bottest.OpenAIReply{Status: 503}},
	} {
		t.Run("keeps the template: "+tt.name, func(t *testing.T) {
			h := newHarness(t, phrase.Config{Timeout: 300 * time.Millisecond})
			h.fake.Script(tt.reply)
			start := time.Now()
			done := h.p.Improve(context.Background(), costInput(), func(text string) {
				t.Errorf("deliver(%q) called", text)
			})
			waitDone(t, done)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("Improve ran %v, want it bounded by the 300ms timeout", d)
			}
		})
	}
	t.Run("stops with its context", func(t *testing.T) {
		h := newHarness(t, phrase.Config{Timeout: time.Minute})
		h.fake.Script(bottest.OpenAIReply{Hang: true})
		ctx, cancel := context.WithCancel(context.Background())
		done := h.p.Improve(ctx, costInput(), func(text string) { t.Errorf("deliver(%q) called", text) })
		cancel()
		waitDone(t, done)
	})
}

func waitDone(t *testing.T, done <-chan struct{}) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Improve did not finish")
	}
}

func TestDisabled(t *testing.T) {
	tests := []struct {
		name string
		cfg  phrase.Config
		on   bool
	}{
		{"nothing configured", phrase.Config{}, false},
		{"key without model", phrase.Config{APIKey: "k"}, false},
		{"model without key or URL", phrase.Config{Model: "m"}, false},
		{"key and model", phrase.Config{APIKey: "k", Model: "m"}, true},
		{"base URL alone (local server)", phrase.Config{BaseURL: "http://127.0.0.1:1/v1"}, true},
	}
	for _, tt := range tests {
		if got := phrase.New(tt.cfg, nil).Enabled(); got != tt.on {
			t.Errorf("New(%s).Enabled() = %v, want %v", tt.name, got, tt.on)
		}
	}
	p := phrase.New(phrase.Config{}, nil)
	in := costInput()
	if _, err := p.Rephrase(context.Background(), in); !errors.Is(err, phrase.ErrDisabled) {
		t.Errorf("Rephrase on a disabled phraser: %v, want ErrDisabled", err)
	}
	if got := p.Text(context.Background(), in); got != costTemplate {
		t.Errorf("Text on a disabled phraser = %q, want the template", got)
	}
	waitDone(t, p.Improve(context.Background(), in, func(string) { t.Error("deliver called") }))
	var nilP *phrase.Phraser
	if nilP.Enabled() || nilP.Text(context.Background(), in) != costTemplate {
		t.Errorf("nil *Phraser is not a disabled phraser")
	}
	waitDone(t, nilP.Improve(context.Background(), in, func(string) { t.Error("deliver called") }))
}

func TestUnreachableEndpoint(t *testing.T) {
	// a closed port: connection refused, at once
	p := phrase.New(phrase.Config{BaseURL: "http://127.0.0.1:1/v1", Timeout: time.Second}, nil)
	start := time.Now()
	if _, err := p.Rephrase(context.Background(), costInput()); err == nil {
		t.Fatal("Rephrase against a closed port succeeded")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Rephrase took %v", d)
	}
}

func TestMetricsRegisterTwice(t *testing.T) {
	reg := prometheus.NewRegistry()
	m1, err := phrase.NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := phrase.NewMetrics(reg)
	if err != nil || m1 == nil || m2 == nil {
		t.Fatalf("second NewMetrics on one registry: %v", err)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, mf := range mfs {
		names[mf.GetName()] = true
	}
	for _, n := range []string{"llm_calls_total", "llm_guard_rejections_total"} {
		if !names[n] {
			t.Errorf("registry lacks %s (have %v)", n, names)
		}
	}
	if _, err := phrase.NewMetrics(nil); err != nil {
		t.Errorf("NewMetrics(nil): %v", err)
	}
}
