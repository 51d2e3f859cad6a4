package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/bot/subscribe"
)

// cli runs one `bot …` invocation on the embedded default, sharing
// BOT_DATA_DIR (and so the catalogue and ledger) with the test's others.
type cli struct {
	t    *testing.T
	dir  string
	team string // a copy of testdata/team.yaml the test edits
}

func newCLI(t *testing.T) *cli {
	t.Helper()
	dir := t.TempDir()
	raw, err := os.ReadFile("testdata/team.yaml")
	if err != nil {
		t.Fatal(err)
	}
	team := filepath.Join(dir, "team.yaml")
	if err := os.WriteFile(team, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("REDIS_URL", "")
	t.Setenv("SLACK_BOT_TOKEN", "")
	t.Setenv("BOT_DATA_DIR", filepath.Join(dir, "data"))
	t.Setenv("BOT_TIMEZONE", "Asia/Shanghai")
	t.Setenv("CATALOG_FILE", team)
	t.Setenv("CATALOG_SKYPILOT", "lambda=testdata/skypilot_lambda_vms.csv")
	return &cli{t: t, dir: dir, team: team}
}

func (c *cli) run(args ...string) string {
	c.t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), args, strings.NewReader(""), &out, &errOut); err != nil {
		c.t.Fatalf("bot %s: %v\nstderr:\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String()
}

func (c *cli) editTeamFile(old, new string) {
	c.t.Helper()
	raw, err := os.ReadFile(c.team)
	if err != nil {
		c.t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(old)) {
		c.t.Fatalf("team file has no %q", old)
	}
	// A new modification time even on coarse file systems.
	if err := os.WriteFile(c.team, bytes.Replace(raw, []byte(old), []byte(new), 1), 0o644); err != nil {
		c.t.Fatal(err)
	}
}

func contains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// chartPath returns the chart file a preview printed, checked to be a PNG.
func chartPath(t *testing.T, out string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^chart: (\S+\.png)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no chart path in:\n%s", out)
	}
	raw, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
		t.Fatalf("%s is not a PNG: %v", m[1], err)
	}
	return m[1]
}

// Issue 6, done when: `bot catalog refresh` with a team file plus a
// SkyPilot CSV from testdata builds a snapshot; changing a price in the
// file and refreshing again makes `bot preview daily` show that change with
// its percentage; `bot ask "/gpu price h100"` lists the offers with their
// ages. Every step is its own invocation on the embedded default.
func TestCatalogRefreshThenPreviewDaily(t *testing.T) {
	if testing.Short() {
		t.Skip("four CLI runs on the embedded default (~15 s on a busy 2-core machine); make test runs it")
	}
	c := newCLI(t)

	out := c.run("catalog", "refresh")
	contains(t, "first refresh", out, "Catalogue refreshed at", "SOURCE", "shipped", "team-file", "skypilot-lambda", "new snapshot", "cpu_only=1")
	if regexp.MustCompile(`team-file\s+4\s+new snapshot`).FindString(out) == "" {
		t.Errorf("team file did not store its 4 offers:\n%s", out)
	}
	out = c.run("catalog", "status")
	contains(t, "status", out, "LAST SUCCESS", "team-file", "skypilot-lambda", "ok", "Serving", "version")

	out = c.run("catalog", "diff")
	contains(t, "diff before any baseline", out, "No baseline yet")

	c.editTeamFile("price: 1.98", "price: 1.78")
	out = c.run("catalog", "refresh")
	contains(t, "second refresh", out, "1 down", "RTX 4090 · AutoDL (on_demand, 西北B区)", "¥1.98 → ¥1.78/card-h (-10.1%)")

	out = c.run("preview", "daily")
	contains(t, "preview daily", out, "*GPU prices —", "*Biggest drops*", "RTX 4090 · AutoDL (on demand, 西北B区): ¥1.98 → ¥1.78/card-h (−10.1%)",
		"Sources:", "team-file", "skypilot-lambda")
	path := chartPath(t, out)
	if !strings.HasPrefix(path, filepath.Join(c.dir, "data", "preview")) {
		t.Errorf("chart written to %s, want under BOT_DATA_DIR/preview", path)
	}
	out = c.run("preview", "daily", "--lang", "zh", "--gpu", "4090")
	contains(t, "preview daily in Chinese for the 4090", out, "GPU 价格日报", "降价最多", "¥1.98 → ¥1.78/卡时 (−10.1%)")
	if strings.Contains(out, "H800") {
		t.Errorf("the 4090-only preview lists other cards:\n%s", out)
	}

	out = c.run("catalog", "diff")
	contains(t, "diff", out, "Changes since daily:start", "¥1.98 → ¥1.78/card-h (-10.1%)")

	// The team file's Vast.ai price is one of many for the H100 in the
	// shipped market catalogue: ask for that platform to see it.
	out = c.run("ask", "/gpu price h100 @vastai")
	contains(t, "price answer", out, "Vast.ai", "$1.45", "dated: 2026-10-08")
	out = c.run("ask", "--json", "/gpu price h100 @vastai")
	contains(t, "price working", out, "observed 2026-10-08")
	out = c.run("ask", "--json", "/gpu price 4090")
	var a struct {
		Result struct {
			Offers []struct {
				Platform   string  `json:"platform"`
				Price      float64 `json:"price"`
				ObservedAt string  `json:"observed_at"`
			} `json:"offers"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range a.Result.Offers {
		// An English question answers in USD: ¥1.78 ÷ 7.2 = $0.2472.
		if o.Platform == "autodl" && math.Abs(o.Price-1.78/7.2) < 0.0001 && o.ObservedAt == "2026-10-08" {
			found = true
		}
		if o.ObservedAt == "" {
			t.Errorf("offer without its date: %+v", o)
		}
	}
	if !found {
		t.Errorf("the price answer does not use the live catalogue's ¥1.78 AutoDL 4090: %+v", a.Result.Offers)
	}
}

// Issue 7, done when: `bot spend import` of a sample CSV in testdata
// followed by `bot preview recap --month` prints totals that match the
// fixture's hand-computed sums (bot/ledger/suites_test.go), with findings
// and a chart file path.
func TestSpendImportThenPreviewRecap(t *testing.T) {
	c := newCLI(t)
	out := c.run("spend", "import", "testdata/sample_bill.csv")
	contains(t, "import", out, "sample_bill.csv", "into team local: 26 rows — 0 changed, 25 added, 0 unchanged, 1 error.", `row 26, 时长(小时) "abc"`)
	out = c.run("spend", "import", "testdata/sample_bill.csv", "--team", "local")
	contains(t, "re-import", out, "0 changed, 0 added, 25 unchanged")

	out = c.run("preview", "recap", "--month", "2026-10")
	contains(t, "recap", out,
		"*GPU spend — October 2026*",
		"*Total*: ¥7,515.50 + $50.00 (≈ ¥7,875.50 at 7.2 CNY per USD) · 804.5 card-h · 14 entries",
		"vs Sep: +¥3,265.22 · +$50.00 · +264.5 card-h (Sep: ¥4,250.28 · 540 card-h)",
		"1. pretrain: ¥5,800.00 + $50.00 · 400 card-h",
		"2. aigc: ¥1,332.56 · 234 card-h",
		"3. llm-ft: ¥382.94 · 170.5 card-h",
		"• H100 SXM: ¥5,200.00 + $50.00 · 280 card-h",
		"• AutoDL: ¥1,715.50 · 404.5 card-h",
		"*What to change*",
		"1. The RTX 4090 monthly plan at AutoDL (aigc) ran 200 h a card",
		"¥824.00 less than the plan's ¥1,200.00",
	)
	if !strings.Contains(out, "\n2. ") || !strings.Contains(out, "\n3. ") {
		t.Errorf("recap has fewer than three findings:\n%s", out)
	}
	chartPath(t, out)

	out = c.run("preview", "recap", "--month", "2026-10", "--lang", "zh")
	contains(t, "recap in Chinese", out, "GPU 花费月报 — 2026年10月", "*合计*：¥7,515.50 + $50.00", "改进建议")

	// The console's spend report reads the same ledger ("local").
	out = c.run("ask", "/gpu spend report 2026-10")
	contains(t, "spend report", out, "7,515.50")
}

// subscribeChannel adds a price subscription made two days ago to the
// embedded state in dir, as if an admin had run /gpu subscribe prices then.
func subscribeChannel(t *testing.T, dir, channel string) {
	t.Helper()
	st, err := store.OpenEmbedded(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	subs := subscribe.New(st.Redis, subscribe.Options{Persist: st.Persist})
	if err := subs.Put(context.Background(), subscribe.Sub{Team: bottest.TeamID, Channel: channel, Topic: subscribe.Prices, Lang: "en",
		CreatedAt: time.Now().Add(-48 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
}

// serveIn runs `bot serve` (HTTP mode) against the fake Slack with its
// embedded state in dir, until the returned stop is called.
func serveIn(t *testing.T, fs *bottest.Slack, dir string) (*output, <-chan error, func() error) {
	t.Helper()
	t.Setenv("SLACK_BOT_TOKEN", "xoxb-test")
	t.Setenv("SLACK_APP_TOKEN", "")
	t.Setenv("SLACK_SIGNING_SECRET", testSecret)
	t.Setenv("SLACK_API_URL", fs.APIURL())
	t.Setenv("HTTP_ADDR", "127.0.0.1:0")
	t.Setenv("REDIS_URL", "")
	t.Setenv("BOT_DATA_DIR", dir)
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

func postsTo(fs *bottest.Slack, channel string) int {
	n := 0
	for _, c := range fs.Calls("chat.postMessage") {
		if c.Form.Get("channel") == channel {
			n++
		}
	}
	return n
}

// The daily post end to end: `bot serve` against the fake Slack posts to a
// channel subscribed two days ago, once, with its chart, as soon as it
// starts after the slot (DAILY_POST_AT 00:00 has always gone by); a restart
// the same day does not post it again.
func TestServePostsTheDailyDigestOnce(t *testing.T) {
	fs := bottest.NewSlack(t)
	dir := t.TempDir()
	subscribeChannel(t, dir, "CPRICES")
	t.Setenv("DAILY_POST_AT", "00:00")
	t.Setenv("CATALOG_FILE", "testdata/team.yaml")
	t.Setenv("CATALOG_SKYPILOT", "")

	out, errc, stop := serveIn(t, fs, dir)
	out.wait(t, regexp.MustCompile(`(serving Slack HTTP)`), errc)
	fs.WaitCalls(t, "chat.postMessage", 1)
	fs.WaitCalls(t, "files.completeUploadExternal", 1)
	if err := stop(); err != nil {
		t.Errorf("run: %v", err)
	}
	post := fs.Calls("chat.postMessage")[0]
	if ch := post.Form.Get("channel"); ch != "CPRICES" || !strings.Contains(post.Form.Get("text"), "GPU prices") {
		t.Errorf("post to %s: %q", ch, post.Form.Get("text"))
	}
	if !strings.Contains(post.Form.Get("blocks"), `"type":"header"`) {
		t.Errorf("post without Block Kit: %s", post.Form.Get("blocks"))
	}
	if files := fs.Files("CPRICES"); len(files) != 1 || !strings.HasPrefix(files[0].Name, "gpu-prices-") {
		t.Errorf("charts: %+v", files)
	}

	// Restart the same day with a second subscribed channel, which sorts
	// after the first: once it has its post, the first was looked at too.
	subscribeChannel(t, dir, "CZZZ")
	out, errc, stop = serveIn(t, fs, dir)
	out.wait(t, regexp.MustCompile(`(serving Slack HTTP)`), errc)
	fs.WaitCalls(t, "chat.postMessage", 2)
	if err := stop(); err != nil {
		t.Errorf("run: %v", err)
	}
	if n := postsTo(fs, "CPRICES"); n != 1 {
		t.Errorf("%d posts to CPRICES after a restart, want still 1", n)
	}
	if n := postsTo(fs, "CZZZ"); n != 1 {
		t.Errorf("%d posts to CZZZ, want 1", n)
	}
}
