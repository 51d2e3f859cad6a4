package recap

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Asia/Shanghai on machines without zoneinfo

	"github.com/alicebob/miniredis/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/schedule"
	"github.com/gpubot/gpubot/bot/slackpost"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/bot/subscribe"
	"github.com/gpubot/gpubot/knowledge"
)

func shanghai(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func newStore(t *testing.T) *store.Store {
	t.Helper()
	m := miniredis.RunT(t)
	st := &store.Store{Redis: redis.NewClient(&redis.Options{Addr: m.Addr()})}
	t.Cleanup(func() { st.Redis.Close() })
	return st
}

func newLedger(t *testing.T, st *store.Store) *ledger.Ledger {
	t.Helper()
	return ledger.New(st, ledger.Options{KB: knowledge.MustShipped(), Location: shanghai(t)})
}

// importSample loads bot/ledger's sample bill, whose hand-computed sums are
// in bot/ledger/suites_test.go.
func importSample(t *testing.T, l *ledger.Ledger, team string) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "ledger", "testdata", "sample_bill.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := l.Import(context.Background(), team, "UADMIN", f, "sample_bill.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Added) != 25 || len(res.Errors) != 1 {
		t.Fatalf("sample import: %d added, %v errors; want 25 and the one bad row", len(res.Added), res.Errors)
	}
}

// shipped is the catalogue the recap's findings read in tests: the seeds.
type shipped struct{}

func (shipped) Offers(context.Context) ([]knowledge.Offer, error) {
	return knowledge.MustShipped().Offers, nil
}

func octoberRecap(t *testing.T, lang string) *Recap {
	t.Helper()
	l := newLedger(t, newStore(t))
	importSample(t, l, "T1")
	r := New(l, shipped{}, Options{KB: knowledge.MustShipped(), FX: 7.2})
	rc, err := r.Build(context.Background(), "T1", ledger.Month{Year: 2026, Month: time.October}, lang, time.Date(2026, 11, 1, 9, 30, 0, 0, shanghai(t)))
	if err != nil {
		t.Fatal(err)
	}
	return rc
}

// The sample bill's October, by hand (bot/ledger/suites_test.go):
//
//	total     ¥7,515.50 + $50.00, 804.5 card-h, 14 rows; ≈ ¥7,875.50 at 7.2
//	pretrain  ¥5,800.00 + $50.00, 400 card-h
//	aigc      ¥1,332.56, 234 card-h
//	llm-ft    ¥382.94, 170.5 card-h
//	rtx4090   ¥1,505.50, 362.5 card-h; a100-80g ¥810.00, 162 card-h; h100-sxm ¥5,200.00 + $50.00, 280 card-h
//	autodl    ¥1,715.50, 404.5 card-h; aliyun ¥5,800.00 + $50.00, 400 card-h
//	change    +¥3,265.22, +$50.00, +264.5 card-h on September (¥4,250.28, 540 card-h)
func TestRecapNumbersMatchTheHandSums(t *testing.T) {
	rc := octoberRecap(t, "en")
	rep := rc.Report
	if got := rep.Total.Amount.String(); got != "¥7,515.50 + $50.00" {
		t.Errorf("total = %s, want ¥7,515.50 + $50.00", got)
	}
	if rep.Total.CardHours != 804.5 || rep.Total.Entries != 14 {
		t.Errorf("total card-h, entries = %v, %d; want 804.5, 14", rep.Total.CardHours, rep.Total.Entries)
	}
	if rep.Total.Converted == nil || rep.Total.Converted.String() != "¥7,875.50" {
		t.Errorf("converted total = %v, want ¥7,875.50", rep.Total.Converted)
	}
	type row struct {
		Amount    string
		CardHours float64
	}
	rows := func(gs []ledger.Group) map[string]row {
		out := map[string]row{}
		for _, g := range gs {
			out[g.Key] = row{g.Amount.String(), g.CardHours}
		}
		return out
	}
	if d := cmp.Diff(map[string]row{
		"pretrain": {"¥5,800.00 + $50.00", 400}, "aigc": {"¥1,332.56", 234}, "llm-ft": {"¥382.94", 170.5},
	}, rows(rep.ByProject)); d != "" {
		t.Errorf("by project (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]row{
		"rtx4090": {"¥1,505.50", 362.5}, "a100-80g": {"¥810.00", 162}, "h100-sxm": {"¥5,200.00 + $50.00", 280},
	}, rows(rep.ByGPU)); d != "" {
		t.Errorf("by card (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]row{"autodl": {"¥1,715.50", 404.5}, "aliyun": {"¥5,800.00 + $50.00", 400}}, rows(rep.ByPlatform)); d != "" {
		t.Errorf("by platform (-want +got):\n%s", d)
	}
	if got := rep.Change().String(); got != "¥3,265.22 + $50.00" {
		t.Errorf("change = %s, want +¥3,265.22 and +$50.00", got)
	}
	text, _ := rc.Render()
	for _, want := range []string{
		"*Total*: ¥7,515.50 + $50.00 (≈ ¥7,875.50 at 7.2 CNY per USD) · 804.5 card-h · 14 entries",
		"vs Sep: +¥3,265.22 · +$50.00 · +264.5 card-h (Sep: ¥4,250.28 · 540 card-h)",
		"1. pretrain: ¥5,800.00 + $50.00 · 400 card-h (Sep ¥2,640.00 · 168 card-h)",
		"• H100 SXM: ¥5,200.00 + $50.00 · 280 card-h",
		"• Alibaba Cloud: ¥5,800.00 + $50.00 · 400 card-h",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("recap lacks %q:\n%s", want, text)
		}
	}
}

// The findings on the sample bill, by hand:
//
//	unused plan    aigc's rtx4090 plan at AutoDL: ¥1,200 for 200 h; the team's own AutoDL
//	               on-demand rate in October is (94 + 112.80 + 22.56 + 68.62 + 7.52) ÷ 162.5
//	               = ¥305.50 ÷ 162.5 = ¥1.88/card-h, so 200 h on demand = ¥376.00: ¥824.00 less.
//	cheaper offer  h100-sxm in USD: paid $50 ÷ 20 card-h = $2.50; the cheapest listed USD
//	               on-demand H100 is Vast.ai's $1.50 (seed): 20 × (2.50 − 1.50) = $20.00.
func TestRecapFindingsOnTheSampleBill(t *testing.T) {
	rc := octoberRecap(t, "en")
	if len(rc.Findings) == 0 {
		t.Fatal("no findings")
	}
	first := rc.Findings[0]
	if first.Kind != KindUnusedPlan || first.GPU != "rtx4090" || first.Platform != "autodl" || first.Saving != 824 || first.Currency != knowledge.CNY {
		t.Errorf("first finding = %+v; want the under-used 4090 plan, ¥824.00 a month", first)
	}
	if !strings.Contains(first.Text.EN, "¥376.00, ¥824.00 less than the plan's ¥1,200.00") {
		t.Errorf("first finding text: %s", first.Text.EN)
	}
	var h100 *Finding
	for i, f := range rc.Findings {
		if f.Kind == KindCheaperOffer && f.GPU == "h100-sxm" && f.Currency == knowledge.USD {
			h100 = &rc.Findings[i]
		}
	}
	if h100 == nil || h100.Saving != 20 || h100.Platform != "vastai" {
		t.Errorf("H100 cheaper-offer finding = %+v; want $20.00 at Vast.ai", h100)
	}
	for _, f := range rc.Findings {
		if isMarket(f.Platform) {
			t.Errorf("finding points at a market range, not a platform: %+v", f)
		}
	}
	if len(rc.Findings) > 3 {
		t.Errorf("%d findings, want the top 3", len(rc.Findings))
	}
}

func golden(t *testing.T, name string, rc *Recap) {
	t.Helper()
	text, blocks := rc.Render()
	got, err := json.Marshal(struct {
		Text     string        `json:"text"`
		Blocks   []slack.Block `json:"blocks"`
		Findings []Finding     `json:"findings"`
		Chart    *Chart        `json:"chart"`
	}{text, blocks, rc.Findings, rc.Chart})
	if err != nil {
		t.Fatal(err)
	}
	bottest.GoldenJSON(t, filepath.Join("testdata", name+".golden.json"), got)
}

func TestRenderRecapEnglish(t *testing.T) { golden(t, "recap_2026-10_en", octoberRecap(t, "en")) }
func TestRenderRecapChinese(t *testing.T) { golden(t, "recap_2026-10_zh", octoberRecap(t, "zh")) }

func TestRenderRecapOfAnEmptyMonth(t *testing.T) {
	l := newLedger(t, newStore(t))
	r := New(l, shipped{}, Options{KB: knowledge.MustShipped()})
	rc, err := r.Build(context.Background(), "T1", ledger.Month{Year: 2026, Month: time.October}, "en", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !rc.Empty() || rc.Chart != nil {
		t.Fatalf("empty month: empty %v, chart %v", rc.Empty(), rc.Chart != nil)
	}
	golden(t, "recap_empty_en", rc)
}

func TestRecapChartIsAPNG(t *testing.T) {
	rc := octoberRecap(t, "en")
	if rc.Chart == nil {
		t.Fatal("no chart")
	}
	img, err := png.Decode(bytes.NewReader(rc.Chart.PNG))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 800 || b.Dy() != 400 {
		t.Errorf("chart is %v, want 800x400", b)
	}
	if d := cmp.Diff([]string{"pretrain", "aigc", "llm-ft"}, rc.Chart.Projects); d != "" {
		t.Errorf("chart projects (-want +got):\n%s", d)
	}
	if rc.Chart.Name != "gpu-spend-2026-10.png" {
		t.Errorf("chart name %q", rc.Chart.Name)
	}
}

func TestChartLabelsAvoidGlyphsTheFontLacks(t *testing.T) {
	for name, want := range map[string]string{"pretrain": "1 pretrain", "大模型": "1", "a-very-long-project-name": "1 a-very-long-p~"} {
		if got := chartLabel(0, name); got != want {
			t.Errorf("chartLabel(%q) = %q, want %q", name, got, want)
		}
	}
}

// A team that keeps its H100s busy for three months gets the buy finding.
func TestRecapBuyFindingAfterThreeBusyMonths(t *testing.T) {
	loc := shanghai(t)
	var hist []MonthEntries
	for _, m := range []time.Month{time.August, time.September, time.October} {
		mo := ledger.Month{Year: 2026, Month: m}
		span := mo.End(loc).Sub(mo.Start(loc)).Hours()
		h := 0.74 * span
		hist = append(hist, MonthEntries{Month: mo, Entries: []ledger.Entry{{
			Team: "T1", Project: "pretrain", Platform: "aliyun", GPU: "h100-sxm", Cards: 8, Hours: h,
			At: mo.Start(loc).Add(48 * time.Hour), Amount: ledger.MoneyFromFloat(8*h*20, knowledge.CNY), Billing: ledger.OnDemand,
		}}})
	}
	rc := Compose(Input{Team: "T1", Month: ledger.Month{Year: 2026, Month: time.October}, History: hist,
		Offers: knowledge.MustShipped().Offers, Lang: "en"}, Options{KB: knowledge.MustShipped(), Location: loc, FX: 7.2})
	var buy *Finding
	for i, f := range rc.Findings {
		if f.Kind == KindBuy {
			buy = &rc.Findings[i]
		}
	}
	if buy == nil {
		t.Fatalf("no buy finding in %+v", rc.Findings)
	}
	if !strings.Contains(buy.Text.EN, "H100 SXM ran 74% of the time for 3 months (8 cards)") || buy.Command != "/gpu buy h100-sxm util=74%" || buy.Saving <= 0 {
		t.Errorf("buy finding = %+v", buy)
	}
}

// The recap of the 1st goes out for the month before in BOT_TIMEZONE: an
// entry at 23:30 on 31 October Shanghai time is October's, one at 00:30 on
// 1 November (still 31 October in UTC) is not.
func TestRecapThroughTheSchedulerOnTheFirst(t *testing.T) {
	loc := shanghai(t)
	st := newStore(t)
	l := newLedger(t, st)
	ctx := context.Background()
	importSample(t, l, "T1")
	if _, err := l.Add(ctx, ledger.Entry{Team: "T1", User: "U1", Project: "night", Platform: "autodl", GPU: "rtx4090", Cards: 1, Hours: 10,
		At: time.Date(2026, 11, 1, 0, 30, 0, 0, loc), Amount: ledger.MoneyFromFloat(18.8, knowledge.CNY)}); err != nil {
		t.Fatal(err)
	}
	fs := bottest.NewSlack(t)
	poster := slackpost.New(slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL())), st.Redis, slackpost.Options{Pace: -1})
	subs := subscribe.New(st.Redis, subscribe.Options{})
	if err := subs.Put(ctx, subscribe.Sub{Team: "T1", Channel: "CFIN", Topic: subscribe.Recap, Lang: "en", CreatedAt: time.Date(2026, 10, 20, 0, 0, 0, 0, loc)}); err != nil {
		t.Fatal(err)
	}
	sched, err := schedule.Monthly("09:30", loc)
	if err != nil {
		t.Fatal(err)
	}
	r := New(l, shipped{}, Options{KB: knowledge.MustShipped(), FX: 7.2})
	now := time.Date(2026, 10, 31, 23, 0, 0, 0, time.UTC) // 07:00 on 1 November in Shanghai
	s := schedule.New(st.Redis, func() time.Time { return now }, schedule.Options{Location: loc, Poster: poster, Subs: subs,
		Deliveries: []schedule.Delivery{r.Delivery(sched)}})
	s.Tick(ctx)
	if n := len(fs.Messages("CFIN")); n != 0 {
		t.Fatalf("%d recaps before 09:30 Shanghai", n)
	}
	now = time.Date(2026, 11, 1, 1, 30, 0, 0, time.UTC) // 09:30 Shanghai
	s.Tick(ctx)
	s.Tick(ctx)
	msgs := fs.Messages("CFIN")
	if len(msgs) != 1 {
		t.Fatalf("%d recaps, want 1", len(msgs))
	}
	if !strings.Contains(msgs[0].Text, "GPU spend — October 2026") || !strings.Contains(msgs[0].Text, "804.5 card-h · 14 entries") || strings.Contains(msgs[0].Text, "night") {
		t.Errorf("recap:\n%s", msgs[0].Text)
	}
	if files := fs.Files("CFIN"); len(files) != 1 || files[0].Name != "gpu-spend-2026-10.png" {
		t.Errorf("charts: %+v", files)
	}
}
