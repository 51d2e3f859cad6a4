package main

import (
	"context"
	"strings"
	"testing"
)

// TestMalformedRedisURLFormsFromTheRedTeam: issue #28 item 9 — two forms
// that printed the password: one slash after the scheme (redis:/:pw@host,
// which go-redis reads as a database number and quotes) and a bare
// password where the URL belongs. Neither reaches the error or the log.
func TestMalformedRedisURLFormsFromTheRedTeam(t *testing.T) {
	for _, raw := range []string{
		"redis:/:hunter2-pass@localhost:6379",
		"redis:/user:hunter2-pass@localhost:6379/0",
		"hunter2-pass",
	} {
		t.Setenv("SLACK_BOT_TOKEN", "")
		t.Setenv("REDIS_URL", raw)
		t.Setenv("BOT_DATA_DIR", t.TempDir())
		logs, out := newOutput(), newOutput()
		err := run(context.Background(), []string{"serve"}, strings.NewReader(""), out, logs)
		if err == nil {
			t.Errorf("REDIS_URL %s: run returned nil, want a config error", raw)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") || strings.Contains(logs.b.String(), "hunter2") || strings.Contains(out.b.String(), "hunter2") {
			t.Errorf("REDIS_URL %s: the password is printed: %v\n%s", raw, err, logs.b.String())
		}
		if !strings.Contains(err.Error(), "REDIS_URL") {
			t.Errorf("REDIS_URL %s: error %q should name REDIS_URL", raw, err)
		}
	}
}

func TestRedactURLMalformedForms(t *testing.T) {
	for in, want := range map[string]string{
		"redis:/:pw@host:6379":   "redis:/:[redacted]@host:6379",
		"redis:/u:pw@host":       "redis:/u:[redacted]@host",
		"redis:pw@host":          "redis:[redacted]@host",
		"a-bare-password":        "[redacted]",
		"localhost:6379":         "localhost:6379", // no user info: nothing to hide
		"redis://user:pw@host/0": "redis://user:[redacted]@host/0",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"redis:/:pw@h": "pw", "bare-pw": "bare-pw", "redis://h:6379": ""} {
		if got := urlPassword(in); got != want {
			t.Errorf("urlPassword(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFXSettingRefusesWhatIsNoRate: BOT_FX_CNY_PER_USD=NaN or 1e-320 is
// refused at start with the accepted range (issue #28 item 9).
func TestFXSettingRefusesWhatIsNoRate(t *testing.T) {
	for _, v := range []string{"NaN", "Inf", "1e-320", "0", "-7.2"} {
		t.Setenv("BOT_FX_CNY_PER_USD", v)
		_, err := runBot(t, "", "ask", "/gpu fit 13b lora")
		if err == nil || !strings.Contains(err.Error(), "BOT_FX_CNY_PER_USD") || !strings.Contains(err.Error(), "0.01 to 1000") {
			t.Errorf("BOT_FX_CNY_PER_USD=%s: %v, want it refused with the range", v, err)
		}
	}
	t.Setenv("BOT_FX_CNY_PER_USD", "7.1")
	if _, err := runBot(t, "", "ask", "/gpu fit 13b lora"); err != nil {
		t.Errorf("BOT_FX_CNY_PER_USD=7.1: %v", err)
	}
}
