package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/store"
)

const testSecret = "e2e-signing-secret"

// output records what run prints and lets a test wait for a line.
type output struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{}
}

func newOutput() *output { return &output{changed: make(chan struct{})} }

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	close(o.changed)
	o.changed = make(chan struct{})
	return o.b.Write(p)
}

// wait returns the first submatch of re once run has printed it.
func (o *output) wait(t *testing.T, re *regexp.Regexp, errc <-chan error) string {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		o.mu.Lock()
		m := re.FindStringSubmatch(o.b.String())
		changed := o.changed
		o.mu.Unlock()
		if m != nil {
			return m[len(m)-1]
		}
		select {
		case <-changed:
		case err := <-errc:
			t.Fatalf("run returned %v before printing %s", err, re)
		case <-deadline:
			t.Fatalf("run did not print %s", re)
		}
	}
}

// serveBot runs `bot serve` against the fake Slack and returns its stdout
// and a stop function that cancels run's context and returns its error.
func serveBot(t *testing.T, fs *bottest.Slack, appToken string) (*output, <-chan error, func() error) {
	t.Helper()
	t.Setenv("SLACK_BOT_TOKEN", "xoxb-test")
	t.Setenv("SLACK_APP_TOKEN", appToken)
	t.Setenv("SLACK_SIGNING_SECRET", testSecret)
	t.Setenv("SLACK_API_URL", fs.APIURL())
	t.Setenv("HTTP_ADDR", "127.0.0.1:0")
	t.Setenv("REDIS_URL", "")
	t.Setenv("BOT_DATA_DIR", t.TempDir())
	out := newOutput()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- run(ctx, []string{"serve"}, strings.NewReader(""), out, io.Discard) }()
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-errc:
			return err
		case <-time.After(15 * time.Second):
			t.Fatal("run did not return after its context was cancelled")
			return nil
		}
	}
	t.Cleanup(func() { stop() })
	return out, errc, stop
}

func TestServeHTTPAnswersASignedSlashCommand(t *testing.T) {
	fs := bottest.NewSlack(t)
	fs.SetAdmin("U1") // listen on is for workspace admins
	out, errc, stop := serveBot(t, fs, "")
	base := out.wait(t, regexp.MustCompile(`serving Slack HTTP on (http://\S+)`), errc)

	body := bottest.SlashForm("fit 13b lora", "C1", "U1", fs.ResponseURL("e2e"), "trig-e2e")
	resp, err := http.DefaultClient.Do(bottest.SignedRequest(t, base+"/slack/commands", testSecret, time.Now(), "application/x-www-form-urlencoded", body))
	if err != nil {
		t.Fatal(err)
	}
	ack, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(ack), `"response_type":"ephemeral"`) {
		t.Fatalf("ack %d %s, want an immediate ephemeral 200", resp.StatusCode, ack)
	}

	answer := fs.WaitCalls(t, bottest.ResponseURLMethod, 1)[0].JSON(t)
	if answer["response_type"] != "ephemeral" { // slash answers go to the asker, with Share in channel
		t.Errorf("response_type = %v, want ephemeral", answer["response_type"])
	}
	if text, _ := answer["text"].(string); !strings.Contains(text, "13B LoRA") {
		t.Errorf("text = %q, want the fit answer", text)
	}
	if blocks, _ := answer["blocks"].([]any); len(blocks) < 2 {
		t.Errorf("blocks = %v, want the Block Kit answer", answer["blocks"])
	}
	if n := len(fs.Calls("auth.test")); n != 1 {
		t.Errorf("auth.test called %d times, want 1 at start", n)
	}

	forged := bottest.SignedRequest(t, base+"/slack/commands", "not-the-secret", time.Now(), "application/x-www-form-urlencoded", body)
	resp, err = http.DefaultClient.Do(forged)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("bad signature: status %d, want 401", resp.StatusCode)
	}

	resp, err = http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("/healthz: %d", resp.StatusCode)
	}

	// /gpu listen on is durable state: the embedded mode snapshots it.
	listen := bottest.SlashForm("listen on", "C1", "U1", fs.ResponseURL("listen"), "trig-listen")
	resp, err = http.DefaultClient.Do(bottest.SignedRequest(t, base+"/slack/commands", testSecret, time.Now(), "application/x-www-form-urlencoded", listen))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// the fit answer; for listen on, the working note removed, then the channel told
	fs.WaitCalls(t, bottest.ResponseURLMethod, 3)

	if err := stop(); err != nil {
		t.Errorf("run: %v", err)
	}
	if n := len(fs.Calls(bottest.ResponseURLMethod)); n != 3 {
		t.Errorf("%d response_url posts, want 3", n)
	}
	// The state is read back the way the next start reads it.
	st, err := store.OpenEmbedded(context.Background(), os.Getenv("BOT_DATA_DIR"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.Redis.Exists(context.Background(), "gpubot:listen:"+bottest.TeamID+":C1").Val() != 1 {
		t.Error("restarted state lacks the channel opt-in")
	}
	// De-duplication marks survive a restart with their time left, so a
	// replay inside the signature window is not answered again (issue #28).
	for _, k := range st.Redis.Keys(context.Background(), "gpubot:seen:*").Val() {
		if ttl := st.Redis.TTL(context.Background(), k).Val(); ttl <= 0 || ttl > 24*time.Hour {
			t.Errorf("restarted state keeps de-duplication mark %s with TTL %v, want its time left (≤ 24 h)", k, ttl)
		}
	}
	if n := len(st.Redis.Keys(context.Background(), "gpubot:seen:slash:trig-e2e").Val()); n != 1 {
		t.Error("the answered command's de-duplication mark was lost in the restart")
	}
}

func TestServeSocketModeAnswersASlashCommand(t *testing.T) {
	fs := bottest.NewSlack(t)
	out, errc, stop := serveBot(t, fs, "xapp-test")
	out.wait(t, regexp.MustCompile(`(Socket Mode)`), errc)
	sock := fs.Socket(t)
	sock.Send(t, "slash_commands", "env-1", bottest.SlashPayload("fit 13b lora", "C1", "U1", fs.ResponseURL("sm"), "trig-sm"))
	if a := sock.WaitAck(t, "env-1"); !strings.Contains(string(a.Payload), "ephemeral") {
		t.Errorf("ack payload %s, want the ephemeral note", a.Payload)
	}
	answer := fs.WaitCalls(t, bottest.ResponseURLMethod, 1)[0].JSON(t)
	if text, _ := answer["text"].(string); answer["response_type"] != "ephemeral" || !strings.Contains(text, "13B LoRA") {
		t.Errorf("answer %v", answer)
	}
	if err := stop(); err != nil {
		t.Errorf("run: %v", err)
	}
}

func TestServeNeedsAnAppTokenOrASigningSecret(t *testing.T) {
	t.Setenv("SLACK_BOT_TOKEN", "xoxb-test")
	t.Setenv("SLACK_APP_TOKEN", "")
	t.Setenv("SLACK_SIGNING_SECRET", "")
	t.Setenv("REDIS_URL", "")
	t.Setenv("BOT_DATA_DIR", t.TempDir())
	err := run(context.Background(), []string{"serve"}, strings.NewReader(""), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "SLACK_SIGNING_SECRET") {
		t.Errorf("run = %v, want a config error naming the missing settings", err)
	}
}
