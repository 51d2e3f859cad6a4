package budget

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/profile"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// TestTeamAndPlatformBudgets (#24 item 3): budgets per team (cost
// centre) and per platform count only their entries, alert like a
// project's, and stand in a report's budget vs actual.
//
// 2026-10-10 00:00 Shanghai: vision 4090 on autodl ¥3,000; research H800
// on aliyun ¥1,000 (both on demand, an hour before).
// team vision ¥5,000/month: 3,000 ÷ 5,000 = 60 % → the 50 % alert; ¥2,000.00 left.
// platform autodl ¥2,000/month, alerts=80,100: 3,000 ÷ 2,000 = 150 % → the 100 % alert; over by ¥1,000.00.
// Forecast for vision: 3,000 ÷ max(9 days, 7) = ¥333.33 a day × 22 days left
// = 7,333.33 → ¥10,333.33; the trailing week's 3,000 ÷ 7 = 428.57 × 22 = 9,428.57 → ¥12,428.57.
func TestTeamAndPlatformBudgets(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	loc := ledger.Shanghai
	now := time.Date(2026, 10, 10, 0, 0, 0, 0, loc)
	kb := knowledge.MustShipped()
	l := ledger.New(&store.Store{Redis: rdb}, ledger.Options{Location: loc, KB: kb, Now: func() time.Time { return now }})
	for _, e := range []ledger.Entry{
		{Team: "T1", User: "U1", GPU: "4090", Cards: 8, Hours: 100, Platform: "autodl", CostCenter: "vision", Amount: cny(3000), At: now.Add(-time.Hour), Confirm: true},
		{Team: "T1", User: "U1", GPU: "h800", Cards: 8, Hours: 10, Platform: "aliyun", CostCenter: "research", Amount: cny(1000), At: now.Add(-time.Hour), Confirm: true},
	} {
		if _, err := l.Add(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	al := NewAlerts(NewStore(rdb, nil), l, nil, 7.2)
	b := bot.New(bot.Config{FX: 7.2}, kb, nil)
	b.Route(parse.Budget, NewHandler(al, nil, func() time.Time { return now }))
	say := func(text string) string {
		return b.Answer(ctx, bot.Message{Text: text, Team: "T1", Channel: "C1", User: "U1"}).Text
	}
	if a := say("/gpu budget set team=vision ¥5000/month"); !strings.Contains(a, "Budget set: team vision, ¥5,000.00 a month") || !strings.Contains(a, "team vision: ¥3,000.00 / ¥5,000.00 (60%)") {
		t.Errorf("team budget: %s", a)
	}
	if a := say("/gpu budget set platform=AutoDL ¥2000/month alerts=80,100"); !strings.Contains(a, "platform AutoDL") || !strings.Contains(a, "¥3,000.00 / ¥2,000.00 (150%)") {
		t.Errorf("platform budget: %s", a)
	}
	notes, err := al.Notes(ctx, "T1", now, "en")
	joined := strings.Join(notes, "\n")
	if err != nil || !strings.Contains(joined, "team vision has spent ¥3,000.00 in 2026-10, past 50% of its ¥5,000.00 budget (60%)") ||
		!strings.Contains(joined, "past 100% of its ¥2,000.00 budget (150%)") {
		t.Errorf("notes: %q %v", notes, err)
	}
	lines, err := al.Versus(ctx, "T1", now, "en", ledger.MonthPeriod(ledger.Month{Year: 2026, Month: time.October}))
	if err != nil || len(lines) != 2 {
		t.Fatalf("versus: %q %v", lines, err)
	}
	for _, want := range []string{
		"team vision: ¥5,000.00 budget, spent ¥3,000.00 (60%), ¥2,000.00 left; forecast ¥10,333.33 by the end of 2026-10 (range ¥10,333.33–¥12,428.57",
		"over by ¥1,000.00",
	} {
		if !strings.Contains(strings.Join(lines, "\n"), want) {
			t.Errorf("versus lines %q lack %q", lines, want)
		}
	}
	if a := say("/gpu budget clear team=vision"); !strings.Contains(a, "Budget removed: team vision") {
		t.Errorf("clear: %s", a)
	}
}

// TestCardFamilyBudgets (#24 item 6): a budget for a card family counts
// every variant of it and nothing else; one for a single card only that
// card; set as a command or in words, in both languages.
//
// 2026-10-10 00:00 Shanghai, an hour before: H100 SXM ×8 10 h runpod
// $2,000; H100 PCIe ×8 10 h lambda $1,500; A100 80GB ×8 10 h runpod
// $1,000; RTX 4090 ×8 100 h autodl ¥3,000 (all on demand).
//
//	gpu=H100 $5,000/month: 2,000 + 1,500 = $3,500.00 (70 %) → the 50 % alert,
//	  $1,500.00 left; run rate 3,500 ÷ max(9 days, 7) = 388.89 a day × 22 days
//	  left = 8,555.56 → $12,055.56; the trailing week 3,500 ÷ 7 = 500 × 22 =
//	  11,000 → $14,500.00.
//	gpu=h100-pcie $2,000/month: $1,500.00 (75 %).
//	A100 每月预算 ¥10,000 (words): $1,000 × 7.2 = ¥7,200.00 (72 %).
func TestCardFamilyBudgets(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	loc := ledger.Shanghai
	now := time.Date(2026, 10, 10, 0, 0, 0, 0, loc)
	kb := knowledge.MustShipped()
	l := ledger.New(&store.Store{Redis: rdb}, ledger.Options{Location: loc, KB: kb, Now: func() time.Time { return now }})
	usd := func(v int64) ledger.Money { return ledger.Money{Minor: v * 100, Currency: knowledge.USD} }
	for _, e := range []ledger.Entry{
		{GPU: "h100-sxm", Cards: 8, Hours: 10, Platform: "runpod", Amount: usd(2000)},
		{GPU: "h100-pcie", Cards: 8, Hours: 10, Platform: "lambda", Amount: usd(1500)},
		{GPU: "a100-80g", Cards: 8, Hours: 10, Platform: "runpod", Amount: usd(1000)},
		{GPU: "4090", Cards: 8, Hours: 100, Platform: "autodl", Amount: cny(3000)},
	} {
		e.Team, e.User, e.At, e.Confirm = "T1", "U1", now.Add(-time.Hour), true
		if _, err := l.Add(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	al := NewAlerts(NewStore(rdb, nil), l, nil, 7.2)
	b := bot.New(bot.Config{FX: 7.2}, kb, nil)
	b.SetClock(func() time.Time { return now })
	b.Route(parse.Budget, NewHandler(al, nil, func() time.Time { return now }))
	say := func(text string) string {
		return b.Answer(ctx, bot.Message{Text: text, Team: "T1", Channel: "C1", User: "U1"}).Text
	}
	if a := say("/gpu budget set gpu=H100 $5000/month"); !strings.HasPrefix(a, "Budget set: H100 cards (H100 SXM, H100 PCIe), $5,000.00 a month.") ||
		!strings.Contains(a, "H100 cards (H100 SXM, H100 PCIe): $3,500.00 / $5,000.00 (70%)") {
		t.Errorf("family budget: %s", a)
	}
	if a := say("/gpu budget set gpu=h100-pcie $2000/month"); !strings.Contains(a, "H100 PCIe cards: $1,500.00 / $2,000.00 (75%)") {
		t.Errorf("one card's budget: %s", a)
	}
	if a := say("A100 每月预算1万元"); !strings.HasPrefix(a, "预算已设置：A100 系列显卡（A100 40GB、A100 80GB），每月 ¥10,000.00。") ||
		!strings.Contains(a, "A100 系列显卡（A100 40GB、A100 80GB）: ¥7,200.00 / ¥10,000.00 (72%)") || strings.Contains(a, "未使用") {
		t.Errorf("in words (zh): %s", a)
	}
	if a := say("set a budget of $6000 a month for H100"); !strings.HasPrefix(a, "Budget set: H100 cards (H100 SXM, H100 PCIe), $6,000.00 a month.") {
		t.Errorf("in words (en): %s", a)
	}
	say("/gpu budget set gpu=H100 $5000/month")
	notes, err := al.Notes(ctx, "T1", now, "en")
	joined := strings.Join(notes, "\n")
	if err != nil || !strings.Contains(joined, "H100 cards (H100 SXM, H100 PCIe) has spent $3,500.00 in 2026-10, past 50% of its $5,000.00 budget (70%)") ||
		!strings.Contains(joined, "H100 PCIe cards has spent $1,500.00 in 2026-10, past 50% of its $2,000.00 budget (75%)") {
		t.Errorf("notes: %q %v", notes, err)
	}
	lines, err := al.Versus(ctx, "T1", now, "en", ledger.MonthPeriod(ledger.Month{Year: 2026, Month: time.October}))
	if err != nil || len(lines) != 3 {
		t.Fatalf("versus: %q %v", lines, err)
	}
	if want := "H100 cards (H100 SXM, H100 PCIe): $5,000.00 budget, spent $3,500.00 (70%), $1,500.00 left; forecast $12,055.56 by the end of 2026-10 (range $12,055.56–$14,500.00"; !strings.Contains(strings.Join(lines, "\n"), want) {
		t.Errorf("versus lines %q lack %q", lines, want)
	}
	if a := say("/gpu budget set gpu=H1000 $5000/month"); !strings.Contains(a, "gpu=h1000") || !strings.Contains(a, "/gpu budget set gpu=H100 $20k/month") {
		t.Errorf("unknown card: %s", a)
	}
	if a := say("/gpu budget clear gpu=H100"); !strings.Contains(a, "Budget removed: H100 cards (H100 SXM, H100 PCIe)") {
		t.Errorf("clear: %s", a)
	}
}

// TestBudgetNamesMarketProviders (#24 item 7): a budget on a market
// provider's platform is named as answers name it (knowledge
// PlatformNames): "platform primeintellect" before.
func TestBudgetNamesMarketProviders(t *testing.T) {
	s := State{Budget: Budget{Project: PlatformScope + "primeintellect", Amount: ledger.Money{Minor: 100000, Currency: knowledge.USD}},
		Spent: ledger.Money{Minor: 25000, Currency: knowledge.USD}, Share: 0.25}
	for lang, want := range map[string]string{
		"en": "platform Prime Intellect: $1,000.00 budget, spent $250.00 (25%), $750.00 left",
		"zh": "平台 Prime Intellect：预算 $1,000.00，已花 $250.00（25%），还剩 $750.00",
	} {
		if got := VersusText(s, false, lang); got != want {
			t.Errorf("%s: got %q, want %q", lang, got, want)
		}
	}
}

// TestBudgetStatusUsesTheTeamsFX (#24 item 5): /gpu budget showed a
// quarter's spend at the bot's rate (7.2) while reports and alerts used
// the team's fx=7.15 — two totals for one quarter — and headed it with
// the quarter's first month ("Budgets for 2026-10"). Spend $90 on
// 2026-12-02: × 7.15 = ¥643.50 of ¥300,000 (0 %); the monthly $100
// budget on RunPod: $90.00 (90 %).
func TestBudgetStatusUsesTheTeamsFX(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	loc := ledger.Shanghai
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, loc)
	kb := knowledge.MustShipped()
	l := ledger.New(&store.Store{Redis: rdb}, ledger.Options{Location: loc, KB: kb, Now: func() time.Time { return now }})
	if _, err := l.Add(ctx, ledger.Entry{Team: "T1", User: "U1", GPU: "a100-80g", Hours: 20, Platform: "runpod", Amount: ledger.Money{Minor: 9000, Currency: knowledge.USD}, At: now.Add(-time.Hour), Confirm: true}); err != nil {
		t.Fatal(err)
	}
	profiles := profile.New(rdb, nil)
	if err := profiles.Put(ctx, profile.Profile{Team: "T1", FX: 7.15}); err != nil {
		t.Fatal(err)
	}
	al := NewAlerts(NewStore(rdb, nil), l, profiles, 7.2)
	b := bot.New(bot.Config{FX: 7.2}, kb, nil)
	b.SetClock(func() time.Time { return now })
	b.Route(parse.Budget, NewHandler(al, nil, func() time.Time { return now }))
	say := func(text string) string {
		return b.Answer(ctx, bot.Message{Text: text, Team: "T1", Channel: "C1", User: "U1"}).Text
	}
	say("/gpu budget set ¥300k/quarter alerts=60,90")
	a := say("/gpu budget set platform=runpod $100/month")
	for _, want := range []string{"Budgets:\n", "• the team (2026-Q4): ¥643.50 / ¥300,000.00 (0%)", "• platform RunPod (2026-12): $90.00 / $100.00 (90%)"} {
		if !strings.Contains(a, want) {
			t.Errorf("status lacks %q:\n%s", want, a)
		}
	}
	lines, _ := al.Versus(ctx, "T1", now, "en", ledger.Period{First: ledger.Month{Year: 2026, Month: time.October}, Months: 3, Label: "2026-Q4"})
	if len(lines) != 1 || !strings.Contains(lines[0], "spent ¥643.50") {
		t.Errorf("versus %q; want the same ¥643.50", lines)
	}
	if one := say("/gpu budget clear platform=runpod"); !strings.Contains(one, "Budgets for 2026-Q4:\n• the team: ¥643.50 / ¥300,000.00 (0%), projected") {
		t.Errorf("one period: %s", one)
	}
}

// TestImportReplySaysTheBudgetAlert (#24 item 6): a bill import is a
// write; when it makes an alert due its reply says so, as a typed entry's
// does. 2026-10-10: gpu=H100 budget $300/month; the bill's H100 line
// 8 × 10 h = $200.00 → 200 ÷ 300 = 67 %, past 50 %. Importing it again
// adds nothing and says nothing more.
func TestImportReplySaysTheBudgetAlert(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	loc := ledger.Shanghai
	now := time.Date(2026, 10, 10, 0, 0, 0, 0, loc)
	clock := func() time.Time { return now }
	kb := knowledge.MustShipped()
	l := ledger.New(&store.Store{Redis: rdb}, ledger.Options{Location: loc, KB: kb, Now: clock})
	al := NewAlerts(NewStore(rdb, nil), l, nil, 7.2)
	if err := al.st.Set(ctx, Budget{Team: "T1", Project: GPUScope + "h100", Amount: ledger.Money{Minor: 30000, Currency: knowledge.USD}}); err != nil {
		t.Fatal(err)
	}
	sp := bot.NewSpend(l, nil, 7.2, clock)
	sp.UseBudgetNotes(func(ctx context.Context, team, lang string) []string {
		notes, _ := al.Notes(ctx, team, clock(), lang)
		return notes
	})
	bill := "date,gpu,cards,hours,amount,platform\n2026-10-09,h100,8,10,$200,runpod\n2026-10-09,a100,1,10,$20,runpod\n"
	reply, err := sp.ImportBill(ctx, "T1", "UADMIN", "runpod.csv", strings.NewReader(bill))
	want := "H100 cards (H100 SXM, H100 PCIe) has spent $200.00 in 2026-10, past 50% of its $300.00 budget (67%)"
	if err != nil || !strings.Contains(reply, want) {
		t.Errorf("import reply lacks %q:\n%s (%v)", want, reply, err)
	}
	if again, _ := sp.ImportBill(ctx, "T1", "UADMIN", "runpod.csv", strings.NewReader(bill)); strings.Contains(again, "past 50%") {
		t.Errorf("a re-import that adds nothing repeats the alert:\n%s", again)
	}
}
