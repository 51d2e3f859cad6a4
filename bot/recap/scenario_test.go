package recap

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/profile"
	"github.com/gpubot/gpubot/knowledge"
)

// TestRecapThreeMonthScenario checks totals and findings against the hand
// calculation in testdata/three_months.md: an idle plan, a sustained fleet,
// a refund, two currencies, a cheaper offer on an allowed platform and
// prices that appeared only after the month.
func TestRecapThreeMonthScenario(t *testing.T) {
	loc := shanghai(t)
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 12, 0, 0, 0, loc) }
	cny := func(v int64) ledger.Money { return ledger.Money{Minor: v * 100, Currency: knowledge.CNY} }
	h800 := func(m time.Month, perCard float64) ledger.Entry {
		return ledger.Entry{Team: "T3", Project: "pretrain", Platform: "aliyun", GPU: "h800", Cards: 8, Hours: perCard,
			At: day(m, 28), Amount: cny(int64(8 * perCard * 12)), Billing: ledger.OnDemand, Source: "csv:bill", Kind: ledger.Spend}
	}
	plan := func(m time.Month, hours float64) ledger.Entry {
		return ledger.Entry{Team: "T3", Project: "inference", Platform: "aliyun", GPU: "ascend-910b", Cards: 1, Hours: hours,
			At: day(m, 1), Amount: cny(5600), Billing: ledger.Monthly, Source: "csv:bill", Kind: ledger.Spend}
	}
	refund := ledger.Entry{Team: "T3", Project: "pretrain", At: day(time.October, 15), Amount: cny(-1000), Kind: ledger.Refund, Source: ledger.SourceSlack}
	eval := ledger.Entry{Team: "T3", Project: "eval", Platform: "lambda", GPU: "h100-sxm", Cards: 1, Hours: 100, At: day(time.October, 20),
		Amount: ledger.Money{Minor: 25000, Currency: knowledge.USD}, Billing: ledger.OnDemand, Source: ledger.SourceSlack, Kind: ledger.Spend}
	hist := []MonthEntries{
		{Month: ledger.Month{Year: 2026, Month: time.August}, Entries: []ledger.Entry{h800(time.August, 550)}},
		{Month: ledger.Month{Year: 2026, Month: time.September}, Entries: []ledger.Entry{h800(time.September, 520), plan(time.September, 300)}},
		{Month: ledger.Month{Year: 2026, Month: time.October}, Entries: []ledger.Entry{h800(time.October, 560), plan(time.October, 0), refund, eval}},
	}
	offer := func(platform string, price float64, observed string) knowledge.Offer {
		return knowledge.Offer{Key: platform + "-h800-" + observed, Platform: platform, GPU: "h800", GPUCount: 1, PriceLow: price, PriceHigh: price,
			Currency: knowledge.CNY, Unit: knowledge.PerHour, Basis: knowledge.PerGPU, Model: knowledge.OnDemand, ObservedAt: observed, Source: "test"}
	}
	offers := []knowledge.Offer{offer("autodl", 9, "2026-10-15"), offer("vastai", 6, "2026-10-01"), offer("autodl", 5, "2026-11-01")}
	rc := Compose(Input{Team: "T3", Month: ledger.Month{Year: 2026, Month: time.October}, History: hist, Offers: offers, Lang: "en",
		Platforms: []string{"aliyun", "autodl", "lambda"}}, Options{KB: knowledge.MustShipped(), Location: loc, FX: 7.2, Findings: 10})

	tot := rc.Report.Total
	if got := tot.Amount.String(); got != "¥58,360.00 + $250.00" {
		t.Errorf("total = %s, want ¥58,360.00 + $250.00", got)
	}
	if tot.Converted == nil || tot.Converted.String() != "¥60,160.00" {
		t.Errorf("converted = %v, want ¥60,160.00 at 7.2", tot.Converted)
	}
	if tot.CardHours != 4580 || tot.Entries != 4 {
		t.Errorf("card-h %v, entries %d; want 4580, 4", tot.CardHours, tot.Entries)
	}
	if tot.Billed.String() != "¥59,360.00" || tot.Estimated.String() != "$250.00" || tot.Refunds.String() != "-¥1,000.00" {
		t.Errorf("billed %s, estimated %s, refunds %s; want ¥59,360.00, $250.00, -¥1,000.00", tot.Billed, tot.Estimated, tot.Refunds)
	}
	if prev := rc.Report.Prev; prev.Amount.String() != "¥55,520.00" || prev.CardHours != 4460 {
		t.Errorf("September = %s, %v card-h; want ¥55,520.00, 4460", prev.Amount, prev.CardHours)
	}

	if text, _ := rc.Render(); !strings.Contains(text, "billed ¥59,360.00 · estimated $250.00 · refunds -¥1,000.00") ||
		!strings.Contains(text, "(≈ ¥60,160.00 at 7.2 CNY per USD)") {
		t.Errorf("rendered totals:\n%s", text)
	}

	byKind := map[string][]Finding{}
	for _, f := range rc.Findings {
		byKind[f.Kind] = append(byKind[f.Kind], f)
	}
	if fs := byKind[KindUnusedPlan]; len(fs) != 1 || fs[0].GPU != "ascend-910b" || fs[0].Saving != 5600 {
		t.Errorf("idle plan findings = %+v, want the 910B plan, ¥5,600.00 wasted", fs)
	}
	if fs := byKind[KindBuy]; len(fs) != 1 || fs[0].GPU != "h800" || !strings.Contains(fs[0].Text.EN, "74% of the time for 3 months (8 cards)") {
		t.Errorf("buy findings = %+v, want H800 at 74%% for 3 months, 8 cards", fs)
	}
	if fs := byKind[KindCheaperOffer]; len(fs) != 1 || fs[0].Platform != "autodl" || fs[0].Saving != 13440 {
		t.Errorf("cheaper-offer findings = %+v, want autodl at ¥9 (not vastai, not the November price), ¥13,440.00", fs)
	}
	if fs := byKind[KindProjectMoM]; len(fs) != 1 || fs[0].Projects[0] != "eval" || fs[0].Change != 1800 {
		t.Errorf("month-on-month findings = %+v, want eval +¥1,800.00 only", fs)
	}
}

// Recaps.Build reads the team's profile: a team that may only use Aliyun is
// never told to move work to another platform.
func TestRecapRespectsTheProfile(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	l := newLedger(t, st)
	importSample(t, l, "T1")
	profiles := profile.New(st.Redis, nil)
	build := func() *Recap {
		r := New(l, shipped{}, Options{KB: knowledge.MustShipped(), FX: 7.2, Findings: 10, Profiles: profiles})
		rc, err := r.Build(ctx, "T1", ledger.Month{Year: 2026, Month: time.October}, "en", time.Date(2026, 11, 1, 9, 30, 0, 0, shanghai(t)))
		if err != nil {
			t.Fatal(err)
		}
		return rc
	}
	elsewhere := func(rc *Recap) []string {
		var out []string
		for _, f := range rc.Findings {
			if f.Kind == KindCheaperOffer && f.Platform != "aliyun" {
				out = append(out, f.Platform)
			}
		}
		return out
	}
	if len(elsewhere(build())) == 0 {
		t.Fatal("with no profile the sample bill has no cheaper-elsewhere finding; the test proves nothing")
	}
	if err := profiles.Put(ctx, profile.Profile{Team: "T1", Platforms: []string{"aliyun"}}); err != nil {
		t.Fatal(err)
	}
	if got := elsewhere(build()); len(got) != 0 {
		t.Errorf("an Aliyun-only team is told to move work to %v", got)
	}
}

// "…and 3 more" hid amounts, so the lines did not add up to the total.
// Nine projects of ¥100 … ¥900: six rows and an "other" row of the three
// smallest, ¥100 + ¥200 + ¥300 = ¥600.
func TestRecapRowsAddUpWithOther(t *testing.T) {
	loc := shanghai(t)
	var es []ledger.Entry
	for i := 1; i <= 9; i++ {
		es = append(es, ledger.Entry{Project: fmt.Sprintf("p%d", i), GPU: "rtx4090", Cards: 1, Hours: float64(i * 10), Platform: "autodl",
			At: time.Date(2026, 10, 5, 12, 0, 0, 0, loc), Amount: ledger.Money{Minor: int64(i) * 10000, Currency: knowledge.CNY}, Billing: ledger.OnDemand, Kind: ledger.Spend})
	}
	oct := ledger.Month{Year: 2026, Month: time.October}
	rc := Compose(Input{Team: "T1", Month: oct, History: []MonthEntries{{Month: oct.Prev()}, {Month: oct, Entries: es}}, Lang: "en"},
		Options{KB: knowledge.MustShipped(), Location: loc, FX: 7.2})
	text, _ := rc.Render()
	if strings.Contains(text, "more (") || !strings.Contains(text, "• other: ¥600.00 · 60 card-h") {
		t.Errorf("recap rows:\n%s", text)
	}
}
