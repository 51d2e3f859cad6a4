package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/gpubot/gpubot/bot/bottest"
)

func TestLoggerRedactsSecretsAndTokens(t *testing.T) {
	var buf bytes.Buffer
	log, err := newLogger("debug", true, &buf, "s3cr3t-signing")
	if err != nil {
		t.Fatal(err)
	}
	log.Info("oops", "header", "Bearer s3cr3t-signing", "url", "https://x/?token=xoxb-1234-abcd", "app", "xapp-1-A0-zz")
	out := buf.String()
	for _, leak := range []string{"s3cr3t-signing", "xoxb-1234-abcd", "xapp-1-A0-zz"} {
		if strings.Contains(out, leak) {
			t.Errorf("log line leaks %q: %s", leak, out)
		}
	}
	if !strings.Contains(out, "[redacted]") {
		t.Errorf("nothing redacted: %s", out)
	}
}

// TestServeOperations runs `bot serve` in HTTP mode on a Redis that is then
// stopped: /readyz follows Redis, /metrics counts answers, every log line is
// JSON, and no secret is ever printed, even on failing paths.
func TestServeOperations(t *testing.T) {
	const (
		botToken = "xoxb-ops-test-token-123"
		llmKey   = "sk-ops-test-key-456"
	)
	fs := bottest.NewSlack(t)
	fs.Script(bottest.ResponseURLMethod, bottest.Reply{Status: 500}) // the first answer fails to deliver
	llm := bottest.NewOpenAI(t)
	llm.SetDefault(bottest.OpenAIReply{Status: 500})
	mini := miniredis.RunT(t)
	t.Setenv("SLACK_BOT_TOKEN", botToken)
	t.Setenv("SLACK_APP_TOKEN", "")
	t.Setenv("SLACK_SIGNING_SECRET", testSecret)
	t.Setenv("SLACK_API_URL", fs.APIURL())
	t.Setenv("OPENAI_BASE_URL", llm.BaseURL())
	t.Setenv("OPENAI_API_KEY", llmKey)
	t.Setenv("OPENAI_MODEL", "m")
	t.Setenv("HTTP_ADDR", "127.0.0.1:0")
	t.Setenv("REDIS_URL", "redis://"+mini.Addr())
	t.Setenv("BOT_DATA_DIR", t.TempDir())
	out, logs := newOutput(), newOutput()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- run(ctx, []string{"serve"}, strings.NewReader(""), out, logs) }()
	defer func() {
		cancel()
		select {
		case <-errc:
		case <-time.After(15 * time.Second):
			t.Error("run did not stop")
		}
	}()
	base := out.wait(t, regexp.MustCompile(`serving Slack HTTP on (http://\S+)`), errc)

	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("/readyz"); code != 200 {
		t.Errorf("/readyz with Redis up = %d, want 200", code)
	}

	post := func(secret, text, trigger string) {
		t.Helper()
		body := bottest.SlashForm(text, "C1", "U1", fs.ResponseURL(trigger), trigger)
		resp, err := http.DefaultClient.Do(bottest.SignedRequest(t, base+"/slack/commands", secret, time.Now(), "application/x-www-form-urlencoded", body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	post("forged-secret", "fit 13b lora", "t0")
	post(testSecret, "fit 13b lora", "t1")
	post(testSecret, "monthly 4090 200h price=1.8 monthly=900", "t2")
	fs.WaitCalls(t, bottest.ResponseURLMethod, 2) // the first fails (a 5xx on a new message is not retried), the second lands

	if _, m := get("/metrics"); !strings.Contains(m, `gpubot_requests_total{intent="fit",outcome="ok"}`) ||
		!strings.Contains(m, "gpubot_catalog_offers") {
		t.Errorf("/metrics lacks the answer counter or catalogue gauge:\n%.2000s", m)
	}

	mini.Close()
	if code, _ := get("/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz with Redis down = %d, want 503", code)
	}
	if code, _ := get("/healthz"); code != 200 {
		t.Errorf("/healthz with Redis down = %d, want 200 (liveness must not follow Redis)", code)
	}

	logs.mu.Lock()
	text := logs.b.String()
	logs.mu.Unlock()
	if text == "" {
		t.Fatal("serve logged nothing")
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Errorf("log line is not JSON: %s", sc.Text())
		}
	}
	for _, secret := range []string{botToken, testSecret, llmKey} {
		if strings.Contains(text, secret) || strings.Contains(out.b.String(), secret) {
			t.Errorf("a secret appears in the output: %q", secret)
		}
	}
}

func TestResponseURLsAreLimitedToSlack(t *testing.T) {
	allowed := responseURLAllowed("")
	for raw, want := range map[string]bool{
		"https://hooks.slack.com/commands/T1/1/abc": true,
		"http://hooks.slack.com/commands/T1/1/abc":  false,
		"https://evil.example/commands":             false,
		"https://169.254.169.254/latest/meta-data":  false,
	} {
		u, _ := url.Parse(raw)
		if got := allowed(u); got != want {
			t.Errorf("allowed(%s) = %v, want %v", raw, got, want)
		}
	}
	u, _ := url.Parse("http://127.0.0.1:4000/response/x")
	if !responseURLAllowed("http://127.0.0.1:4000/api/")(u) {
		t.Error("the SLACK_API_URL host (a proxy or fake Slack) is not allowed")
	}
}
