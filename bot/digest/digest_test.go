package digest

import (
	"bytes"
	"encoding/json"
	"image/png"
	"path/filepath"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Asia/Shanghai on machines without zoneinfo

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

func shanghai(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func offer(key, platform, gpu string, price float64, cur knowledge.Currency) knowledge.Offer {
	return knowledge.Offer{Key: key, Platform: platform, GPU: gpu, GPUCount: 1, PriceLow: price, PriceHigh: price, Currency: cur,
		Unit: knowledge.PerHour, Basis: knowledge.PerGPU, Model: knowledge.OnDemand, ObservedAt: "2026-10-08", Source: "test"}
}

// fixture is a day on which a few things moved:
//
//	autodl rtx4090    ¥1.98 → ¥1.78   −10.1 %
//	runpod h100-sxm   $2.50 → $2.69   +7.6 %
//	lambda a100-80g   $1.29 → $1.30   +0.8 %  (under every threshold)
//	suanjiayun h800   new, ¥12–15
//	zhixingyun 4090   gone (was ¥2.10)
//	lambda a100-80g   available → low stock
func fixture(t testing.TB) Input {
	loc := shanghai(t)
	now := time.Date(2026, 10, 9, 9, 30, 0, 0, loc)
	a100Prev := offer("lambda-a100", "lambda", "a100-80g", 1.29, knowledge.USD)
	a100Prev.Availability = "available"
	a100Cur := offer("lambda-a100", "lambda", "a100-80g", 1.30, knowledge.USD)
	a100Cur.Availability = "low"
	h800 := offer("team/suanjiayun/h800", "suanjiayun", "h800", 12, knowledge.CNY)
	h800.PriceHigh = 15
	prev := []knowledge.Offer{
		offer("team/autodl/rtx4090", "autodl", "rtx4090", 1.98, knowledge.CNY),
		offer("runpod-h100", "runpod", "h100-sxm", 2.50, knowledge.USD),
		offer("vastai-h100", "vastai", "h100-sxm", 1.45, knowledge.USD),
		a100Prev,
		offer("team/zhixingyun/rtx4090", "zhixingyun", "rtx4090", 2.10, knowledge.CNY),
	}
	cur := []knowledge.Offer{
		offer("team/autodl/rtx4090", "autodl", "rtx4090", 1.78, knowledge.CNY),
		offer("runpod-h100", "runpod", "h100-sxm", 2.69, knowledge.USD),
		offer("vastai-h100", "vastai", "h100-sxm", 1.45, knowledge.USD),
		a100Cur,
		h800,
	}
	h100 := catalog.Series{GPU: "h100-sxm", Currency: knowledge.USD, Class: catalog.ClassOnDemand}
	r4090 := catalog.Series{GPU: "rtx4090", Currency: knowledge.USD, Class: catalog.ClassOnDemand}
	for i := range 10 {
		at := now.AddDate(0, 0, i-10)
		h100.Points = append(h100.Points, catalog.SeriesPoint{At: at, CardHourly: 1.6 - float64(i)*0.015, OfferKey: "vastai-h100", Platform: "vastai"})
		r4090.Points = append(r4090.Points, catalog.SeriesPoint{At: at, CardHourly: 0.35 + float64(i%3)*0.01, OfferKey: "vastai-4090", Platform: "vastai"})
	}
	return Input{
		Prev: prev, PrevAt: now.AddDate(0, 0, -1), HasPrev: true,
		Cur: cur, CurAt: now,
		Sources: []catalog.SourceStatus{
			{Name: "shipped", Offers: 33, LastSuccess: now.Add(-90 * time.Minute)},
			{Name: "team-file", Offers: 3, LastSuccess: now.Add(-2*time.Hour - 10*time.Minute)},
			{Name: "skypilot-lambda", Offers: 6, LastSuccess: now.Add(-27 * time.Hour), StaleSince: now.Add(-3 * time.Hour)},
		},
		Lows: []catalog.Low{{GPU: "rtx4090", Currency: knowledge.CNY, CardHourly: 1.78, Offer: cur[0], PrevLow: 1.88,
			PrevLowAt: time.Date(2026, 9, 20, 8, 0, 0, 0, loc)}},
		Series: []catalog.Series{h100, r4090},
		Now:    now,
	}
}

func opts(t testing.TB) Options {
	return Options{Location: shanghai(t), KB: knowledge.MustShipped()}
}

// golden compares the rendered post with testdata/<name>.golden.json as
// decoded JSON (bottest.GoldenJSON); -update rewrites it.
func golden(t *testing.T, name string, d *Digest) {
	t.Helper()
	text, blocks := d.Render()
	got, err := json.Marshal(struct {
		Text   string        `json:"text"`
		Blocks []slack.Block `json:"blocks"`
		Digest *Digest       `json:"digest"`
	}{text, blocks, d})
	if err != nil {
		t.Fatal(err)
	}
	bottest.GoldenJSON(t, filepath.Join("testdata", name+".golden.json"), got)
}

func TestRenderDailyEnglish(t *testing.T) {
	in := fixture(t)
	in.Filter = Filter{Lang: "en"}
	d := Compose(in, opts(t))
	golden(t, "daily_en", d)
	text, _ := d.Render()
	for _, want := range []string{
		"RTX 4090 · AutoDL (on demand): ¥1.98 → ¥1.78/card-h (−10.1%)",
		"H100 SXM · RunPod (on demand): $2.5 → $2.69/card-h (+7.6%)",
		"H800 SXM · Suanjiayun (on demand): ¥12–15/card-h",
		"RTX 4090 · Zhixingyun (on demand): ¥2.1/card-h",
		"RTX 4090: ¥1.78/card-h at AutoDL (lowest before: ¥1.88 on 20 Sep)",
		"skypilot-lambda stale since Fri 9 Oct 06:30",
		"A100 80GB · Lambda Cloud: available → low stock",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("post lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "1.29") {
		t.Errorf("a 0.8%% move under the 1%% default threshold was reported:\n%s", text)
	}
}

func TestRenderDailyChinese(t *testing.T) {
	in := fixture(t)
	in.Filter = Filter{Lang: "zh"}
	d := Compose(in, opts(t))
	golden(t, "daily_zh", d)
	text, _ := d.Render()
	for _, want := range []string{"GPU 价格日报 — 2026年10月9日", "RTX 4090 · AutoDL 算力云（按需）：¥1.98 → ¥1.78/卡时 (−10.1%)", "降价最多", "skypilot-lambda 自 10月9日 06:30 起未更新"} {
		if !strings.Contains(text, want) {
			t.Errorf("post lacks %q:\n%s", want, text)
		}
	}
	if d.Chart == nil || d.Chart.Currency != knowledge.USD {
		t.Errorf("chart = %+v; want the USD series (no CNY history in the fixture)", d.Chart)
	}
}

func TestRenderDailyFilteredByCardAndThreshold(t *testing.T) {
	in := fixture(t)
	in.Filter = Filter{GPUs: []string{"h100-sxm", "h800"}, Threshold: 0.10, Lang: "en"}
	d := Compose(in, opts(t))
	golden(t, "daily_filtered", d)
	if len(d.Drops)+len(d.Rises) != 0 {
		t.Errorf("moves %v %v; want none: the H100's +7.6%% is under 10%% and the 4090 is filtered out", d.Drops, d.Rises)
	}
	if len(d.New) != 1 || d.New[0].GPU != "h800" || len(d.Gone) != 0 {
		t.Errorf("new %v gone %v; want the H800 only", d.New, d.Gone)
	}
	if len(d.Cheapest) != 2 || d.Cheapest[0].GPU != "h100-sxm" {
		t.Errorf("cheapest = %+v; want the subscribed cards", d.Cheapest)
	}
}

func TestRenderQuietDayIsOneLine(t *testing.T) {
	in := fixture(t)
	in.Prev = in.Cur
	in.Lows = nil
	for _, lang := range []string{"en", "zh"} {
		in.Filter = Filter{Lang: lang, Threshold: 0.05, GPUs: []string{"h100-sxm"}}
		d := Compose(in, opts(t))
		if !d.Quiet() {
			t.Fatalf("%s: a day with nothing moved is not quiet: %+v", lang, d)
		}
		golden(t, "daily_quiet_"+lang, d)
		text, blocks := d.Render()
		if strings.Contains(text, "\n") || len(blocks) != 1 {
			t.Errorf("%s: quiet post %q with %d blocks; want one line", lang, text, len(blocks))
		}
	}
}

func TestRenderFirstPost(t *testing.T) {
	in := fixture(t)
	in.Prev, in.HasPrev, in.Lows = nil, false, nil
	in.Filter = Filter{Lang: "en"}
	d := Compose(in, opts(t))
	if d.Quiet() || !d.First {
		t.Fatalf("first post: quiet %v first %v", d.Quiet(), d.First)
	}
	golden(t, "daily_first", d)
}

func TestChartIsAPNG(t *testing.T) {
	in := fixture(t)
	in.Filter = Filter{Lang: "en"}
	d := Compose(in, opts(t))
	if d.Chart == nil {
		t.Fatal("no chart")
	}
	img, err := png.Decode(bytes.NewReader(d.Chart.PNG))
	if err != nil {
		t.Fatalf("chart is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 200 {
		t.Errorf("chart is %v, want a readable size", b)
	}
	if d.Chart.Name != "gpu-prices-2026-10-09.png" || d.Chart.Currency != knowledge.USD || len(d.Chart.GPUs) != 2 {
		t.Errorf("chart = %+v", d.Chart)
	}
}

func TestChartFallsBackToTheComparedCatalogues(t *testing.T) {
	in := fixture(t)
	in.Series = nil
	in.Filter = Filter{Lang: "zh"}
	d := Compose(in, opts(t))
	if d.Chart == nil || d.Chart.Currency != knowledge.CNY {
		t.Fatalf("chart = %+v; want one from the two catalogues, in CNY for a Chinese post", d.Chart)
	}
	if _, err := png.Decode(bytes.NewReader(d.Chart.PNG)); err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
}

func TestFamiliesCoverVariants(t *testing.T) {
	f := Filter{GPUs: []string{"h100-sxm", "rtx4090"}}
	for gpu, want := range map[string]bool{"h100-sxm": true, "h100-pcie": true, "rtx4090": true, "rtx4090d": false, "h800": false} {
		if got := f.keeps(gpu); got != want {
			t.Errorf("filter h100-sxm,rtx4090 keeps %s = %v, want %v", gpu, got, want)
		}
	}
}
