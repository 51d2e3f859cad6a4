package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func runBot(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	t.Setenv("REDIS_URL", "")
	t.Setenv("SLACK_BOT_TOKEN", "")
	t.Setenv("BOT_DATA_DIR", t.TempDir())
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), err
}

func TestAskJSONFollowsTheContract(t *testing.T) {
	out, err := runBot(t, "", "ask", "--json", "/gpu fit 13b lora")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Intent  string         `json:"intent"`
		Lang    string         `json:"lang"`
		Slots   map[string]any `json:"slots"`
		Assumed map[string]any `json:"assumed"`
		Result  struct {
			MemoryGB  float64            `json:"memory_gb"`
			Breakdown map[string]float64 `json:"breakdown"`
			Options   []map[string]any   `json:"options"`
		} `json:"result"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if got.Intent != "fit" || got.Lang != "en" || got.Slots["params_b"] != 13.0 || got.Slots["method"] != "lora" {
		t.Errorf("intent/lang/slots = %s/%s/%v", got.Intent, got.Lang, got.Slots)
	}
	// Training defaults: micro-batch 1 × 2,048 tokens (issue 15).
	if got.Assumed["batch"] != 1.0 || got.Assumed["seq_len"] != 2048.0 {
		t.Errorf("assumed = %v, want batch 1 and seq_len 2048", got.Assumed)
	}
	for _, k := range []string{"weights_gb", "activations_gb", "gradients_gb", "optimizer_gb", "kv_cache_gb", "overhead_gb"} {
		if _, ok := got.Result.Breakdown[k]; !ok {
			t.Errorf("breakdown lacks %s", k)
		}
	}
	var sum float64
	for _, v := range got.Result.Breakdown {
		sum += v
	}
	if got.Result.MemoryGB <= 0 || sum < got.Result.MemoryGB-0.05 || sum > got.Result.MemoryGB+0.05 {
		t.Errorf("memory_gb %v does not equal the breakdown's sum %v", got.Result.MemoryGB, sum)
	}
	if len(got.Result.Options) < 20 {
		t.Errorf("options = %d, want every shipped card", len(got.Result.Options))
	}
	for _, k := range []string{"gpu", "vram_gb", "count", "fits"} {
		if _, ok := got.Result.Options[0][k]; !ok {
			t.Errorf("option lacks %s: %v", k, got.Result.Options[0])
		}
	}
	priced := 0
	for _, o := range got.Result.Options {
		if c, ok := o["cheapest"].(map[string]any); ok {
			priced++
			for _, k := range []string{"platform", "price", "currency", "unit"} {
				if c[k] == nil {
					t.Errorf("option %v: cheapest lacks %s", o["gpu"], k)
				}
			}
		}
	}
	// The shipped seed catalogue prices four cards at named providers; the
	// cn-market ranges are not platforms and price no option (issue 15).
	if priced < 4 {
		t.Errorf("only %d options carry a cheapest offer", priced)
	}
	if !strings.Contains(got.Text, "13B LoRA") {
		t.Errorf("text = %q", got.Text)
	}
}

func TestAskJSONStdinAnswersEveryLine(t *testing.T) {
	in := "/gpu fit 13b lora\n\n/gpu fit 70b qlora\n/gpu fit banana\n13b lora 要多大显存\n"
	out, err := runBot(t, in, "ask", "--json", "-")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	var intents, langs []string
	for sc.Scan() {
		var a struct{ Intent, Lang, Error string }
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		intents = append(intents, a.Intent)
		langs = append(langs, a.Lang)
	}
	if want := []string{"fit", "fit", "fit", "fit"}; !reflect.DeepEqual(intents, want) {
		t.Errorf("intents = %v, want %v (blank lines skipped)", intents, want)
	}
	if langs[3] != "zh" {
		t.Errorf("Chinese line answered in %q", langs[3])
	}
}

// The plain answer is the short shape (headline, figures, assumed, next);
// the whole breakdown is in the JSON's working.
func TestAskPlainText(t *testing.T) {
	out, err := runBot(t, "", "ask", "/gpu fit 70b qlora")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"70B QLoRA fine-tune needs", "weights", "activations", "Assumed:", "Next:"} {
		if !strings.Contains(out, want) {
			t.Errorf("answer lacks %q:\n%s", want, out)
		}
	}
	if n := len([]rune(out)); n > 1300 {
		t.Errorf("plain answer is %d characters; the short shape is at most 1,200", n)
	}
	js, err := runBot(t, "", "ask", "--json", "/gpu fit 70b qlora")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"working"`, "gradients", "optimizer", "KV cache", "overhead", `"headline"`} {
		if !strings.Contains(js, want) {
			t.Errorf("ask --json lacks %q", want)
		}
	}
}

func TestAskWithoutTextIsAnError(t *testing.T) {
	if _, err := runBot(t, "", "ask"); err == nil || !strings.Contains(err.Error(), "/gpu fit 13b lora") {
		t.Errorf("ask with no text: err = %v, want a usage hint", err)
	}
}

func TestConsoleReadsAPipe(t *testing.T) {
	out, err := runBot(t, "/gpu fit 13b lora\n/gpu help\n", "console")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "13B LoRA fine-tune") || !strings.Contains(out, "/gpu fit 13b lora —") {
		t.Errorf("console output:\n%s", out)
	}
	if strings.Contains(out, "gpu> ") {
		t.Error("prompt printed on a pipe")
	}
}

func TestServeWithoutTokensOpensConsoleOnEmbeddedRedis(t *testing.T) {
	out, err := runBot(t, "/gpu fit 7b inference\n", "serve")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "embedded Redis") || !strings.Contains(out, "7B inference") {
		t.Errorf("serve output:\n%s", out)
	}
}

func TestHelpListsEveryVariable(t *testing.T) {
	out, err := runBot(t, "", "-h")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_API_URL", "HTTP_ADDR",
		"REDIS_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "BOT_TIMEZONE", "BOT_DATA_DIR", "CATALOG_FILE", "CATALOG_REFRESH"} {
		if !strings.Contains(out, v) {
			t.Errorf("-h does not list %s", v)
		}
	}
}

func TestUnknownCommandIsAnError(t *testing.T) {
	if _, err := runBot(t, "", "frobnicate"); err == nil {
		t.Error("unknown command accepted")
	}
}

func TestBadConfigIsAnError(t *testing.T) {
	t.Setenv("BOT_FX_CNY_PER_USD", "lots")
	if _, err := runBot(t, "", "ask", "/gpu help"); err == nil || !strings.Contains(err.Error(), "config") {
		t.Errorf("bad FX: err = %v, want a config error", err)
	}
}

func TestVersionPrintsBuildVersion(t *testing.T) {
	out, err := runBot(t, "", "version")
	if err != nil || !strings.HasPrefix(out, "gpubot ") {
		t.Errorf("version: %q, %v", out, err)
	}
}

func TestHealthcheckFailsWithNothingListening(t *testing.T) {
	t.Setenv("HTTP_ADDR", "127.0.0.1:1")
	if _, err := runBot(t, "", "healthcheck"); err == nil {
		t.Error("healthcheck succeeded with nothing listening")
	}
}
