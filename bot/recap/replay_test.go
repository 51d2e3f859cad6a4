package recap

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/budget"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// TestReplayNovemberFromSlack replays a month the way a finance team runs
// it, every step as a message (both languages) or a bill upload, and
// checks every total, flag, budget and the recap against hand values
// (#24's done-when; bot/ledger TestReplayNovember has the same month on
// the ledger alone).
//
// Budgets (admin, 11-01): team=research ¥40,000/month; platform=autodl ¥150/month.
// Hand entries (2026-11-07):
//
//	h1 U1 4090 40 h autodl ¥75 team research (11-03)   → 75 ÷ 150 = 50 % of autodl: the reply says so
//	h2 U2 4090 10 h autodl ¥20 team vision (11-05)     → no bill line: unmatched
//	h2 again (U2, a new message)                       → "looks like #h2 — add anyway?", not booked
//	h3 U1 8× H800 aliyun ¥36,000 包年 research (11-01) → confirmed by bill 2's 包年 line
//	h4 U2 A100 invoice ¥180 runpod vision (11-06)      → "不对，金额是1800元": edited in place to ¥1,800
//
// Bills (12-01): 1 autodl CNY: 4090 40 h ¥75.20 (twice: row 3 flagged), 4090 ×2 24 h ¥90.24, credit −¥30.00;
// 2 aliyun CNY: H800 ×8 包年 ¥36,000, tax ¥2,160.00 (twice: row 4 flagged);
// 3 AWS USD (cost_usd): p4d.24xlarge ×8 10 h $327.73 (twice: row 3 flagged), g5.xlarge 24 h $24.14.
//
// November: CNY 20 + 1,800 + 75.20 + 90.24 − 30 + 36,000 + 2,160 = ¥40,115.44 (h1, h3 superseded);
// USD 327.73 + 24.14 = $351.87 → 35,187 × 7.15 = 251,587.05 fen → ¥2,515.87; at 7.15: ¥42,631.31.
// Billed ¥38,325.44 (75.20 + 90.24 + 36,000 + 2,160) + $351.87; estimated ¥1,820.00 (h2 + h4); credits −¥30.00.
// Card-hours 10 + 40 + 48 + 80 + 24 = 202.
// Budget vs actual: research 75.20 + 90.24 − 30 + 36,000 + 2,160 = ¥38,295.44 of ¥40,000 (96 %), ¥1,704.56 left;
// autodl 20 + 75.20 + 90.24 − 30 = ¥155.44 of ¥150 (104 %), over by ¥5.44.
// Commitment: the bill's 包年 line, ¥36,000 ÷ 12 = ¥3,000.00 a month, 2026-11 to 2027-11-01, month 1 of 12.
// December forecast: committed ¥3,000.00; November's on-demand GPU spend 20 + 75.20 + 90.24 = ¥185.44
// + $351.87 → ¥2,515.87 = ¥2,701.31 ÷ 30 days = ¥90.04 a day; × 31 = 2,791.35 → ¥5,791.35;
// last 7 days (11-24 on): g5 $24.14 → ¥172.60 ÷ 7 = ¥24.66 a day → 3,000 + 764.37 = ¥3,764.37 (the low end).
func TestReplayNovemberFromSlack(t *testing.T) {
	ctx := context.Background()
	st, err := store.OpenEmbedded(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	loc := ledger.Shanghai
	now := time.Date(2026, 11, 7, 10, 0, 0, 0, loc)
	clock := func() time.Time { return now }
	kb := knowledge.MustShipped()
	l := ledger.New(st, ledger.Options{KB: kb, Location: loc, Now: clock})
	auth := ledger.NewAuthorizer([]string{"UADMIN"}, nil, 0)
	al := budget.NewAlerts(budget.NewStore(st.Client(), st.Persist), l, nil, 7.15)
	sp := bot.NewSpend(l, auth, 7.15, clock)
	sp.UseBudgetNotes(func(ctx context.Context, team, lang string) []string {
		notes, _ := al.Notes(ctx, team, clock(), lang)
		return notes
	})
	sp.UseBudgetLines(al.VersusFunc(clock))
	b := bot.New(bot.Config{FX: 7.15}, kb, nil)
	b.SetClock(clock)
	b.Route(parse.Spend, sp)
	b.Route(parse.Budget, budget.NewHandler(al, auth, clock))
	n := 0
	say := func(user, text string) bot.Answer {
		t.Helper()
		n++
		return b.Answer(ctx, bot.Message{ID: "m" + string(rune('a'+n)), Text: text, Team: "T1", Channel: "C1", User: user})
	}
	entry := func(a bot.Answer) ledger.Entry {
		t.Helper()
		e, ok := a.Result.(ledger.Entry)
		if !ok || a.Err != "" {
			t.Fatalf("not saved: %q", a.Text)
		}
		return e
	}

	for _, text := range []string{"/gpu budget set team=research ¥40000/month", "/gpu budget set platform=autodl ¥150/month"} {
		if a := say("UADMIN", text); !strings.HasPrefix(a.Text, "Budget set:") {
			t.Fatalf("%s: %q", text, a.Text)
		}
	}
	a1 := say("U1", "/gpu spend add 40h 4090 @autodl ¥75 team=research date=2026-11-03")
	h1 := entry(a1)
	if !strings.Contains(a1.Text, "platform AutoDL has spent ¥75.00 in 2026-11, past 50% of its ¥150.00 budget (50%)") {
		t.Errorf("h1's reply does not say it crossed 50%% of the autodl budget: %q", a1.Text)
	}
	h2 := entry(say("U2", "/gpu spend add 10h 4090 @autodl ¥20 team=vision date=2026-11-05"))
	if again := say("U2", "/gpu spend add 10h 4090 @autodl ¥20 team=vision date=2026-11-05"); again.Err != "repeat" || !strings.Contains(again.Text, "#"+h2.ID) {
		t.Errorf("h2 sent again: %q; want it named and asked about", again.Text)
	}
	h3 := entry(say("U1", "/gpu spend add 8x h800 @aliyun ¥36000 包年 team=research date=2026-11-01"))
	h4 := entry(say("U2", "/gpu spend add invoice ¥180 a100 @runpod team=vision date=2026-11-06"))
	fix := say("U2", "不对，金额是1800元")
	if e := entry(fix); e.ID != h4.ID || e.Amount.String() != "¥1,800.00" || !strings.HasPrefix(fix.Text, "已修改 #"+h4.ID+"：amount: ¥180.00 → ¥1,800.00") {
		t.Errorf("correction in words: %q", fix.Text)
	}

	now = time.Date(2026, 12, 1, 10, 0, 0, 0, loc)
	bills := []struct{ name, csv, flags string }{
		{"autodl.csv", "date,gpu,cards,hours,amount,platform,team,note\n" +
			"2026-11-03,4090,1,40,¥75.20,autodl,research,\n" +
			"2026-11-03,4090,1,40,¥75.20,autodl,research,\n" +
			"2026-11-10,4090,2,24,¥90.24,autodl,research,\n" +
			"2026-11-15,,,,-¥30.00,autodl,research,compensation for an outage\n",
			"✅ 1 hand-added estimates confirmed by the bill|#" + h1.ID + " (RTX 4090 ×1, 40 h, ¥75.00) → bill line|#" + h2.ID + " (RTX 4090 ×1, 10 h, ¥20.00, 2026-11-05 on AutoDL)|Row 3 repeats row 2"},
		{"aliyun.csv", "date,gpu,cards,hours,amount,platform,billing,team,category\n" +
			"2026-11-01,h800,8,,36000,aliyun,包年,research,Usage\n" +
			"2026-11-30,,,,2160.00,aliyun,,research,Tax\n" +
			"2026-11-30,,,,2160.00,aliyun,,research,Tax\n",
			"#" + h3.ID + " (H800 SXM ×8, 0 h, ¥36,000.00) → bill line|Row 4 repeats row 3|Non-GPU costs (tax, support, storage, network) ¥2,160.00"},
		{"aws.csv", "Date,Instance Type,GPU Qty,Usage Hours,cost_usd,Cost Center\n" +
			"2026-11-20,p4d.24xlarge,8,10,327.73,vision\n" +
			"2026-11-20,p4d.24xlarge,8,10,327.73,vision\n" +
			"2026-11-25,g5.xlarge,,24,24.14,vision\n",
			"Row 3 repeats row 2"},
	}
	for _, bl := range bills {
		res, err := l.ImportWith(ctx, "T1", "UADMIN", strings.NewReader(bl.csv), bl.name, ledger.ImportOptions{ConfirmPrices: true})
		if err != nil || len(res.Errors) > 0 {
			t.Fatalf("%s: %v %v", bl.name, err, res.Errors)
		}
		reply := bot.ImportSummary(res)
		for _, want := range strings.Split(bl.flags, "|") {
			if !strings.Contains(reply, want) {
				t.Errorf("%s: the import reply lacks %q:\n%s", bl.name, want, reply)
			}
		}
	}

	rep := say("U1", "/gpu spend report 2026-11")
	r := rep.Result.(*ledger.Report)
	cny, usd := knowledge.CNY, knowledge.USD
	for _, c := range []struct {
		what      string
		got, want ledger.Amounts
	}{
		{"total", r.Total.Amount, ledger.Amounts{cny: 4011544, usd: 35187}},
		{"billed", r.Total.Billed, ledger.Amounts{cny: 3832544, usd: 35187}},
		{"estimated", r.Total.Estimated, ledger.Amounts{cny: 182000}},
		{"credits", r.Total.Refunds, ledger.Amounts{cny: -3000}},
		{"non-GPU", r.Total.NonGPU, ledger.Amounts{cny: 216000}},
	} {
		if c.got.String() != c.want.String() {
			t.Errorf("%s = %s, want %s", c.what, c.got, c.want)
		}
	}
	// In English the report converts to dollars: 40,115.44 ÷ 7.15 = $5,610.55 + $351.87 = $5,962.42.
	if r.Total.Converted == nil || r.Total.Converted.String() != "$5,962.42" || r.Total.CardHours != 202 || r.Total.Superseded != 2 {
		t.Errorf("converted %v, card-hours %v, superseded %d; want $5,962.42, 202, 2", r.Total.Converted, r.Total.CardHours, r.Total.Superseded)
	}
	zh := say("U2", "11月一共花了多少")
	if rz, ok := zh.Result.(*ledger.Report); !ok || rz.Total.Converted == nil || rz.Total.Converted.String() != "¥42,631.31" ||
		!strings.HasPrefix(zh.Text, "2026-11 GPU 支出：¥40,115.44 + $351.87 ≈ ¥42,631.31（按 1 美元 = 7.15 元）") {
		t.Errorf("11月一共花了多少: %q", zh.Text)
	}
	for _, want := range []string{
		"team research: ¥40,000.00 budget, spent ¥38,295.44 (96%), ¥1,704.56 left",
		"platform AutoDL: ¥150.00 budget, spent ¥155.44 (104%), over by ¥5.44",
	} {
		if !strings.Contains(rep.Text, want) {
			t.Errorf("the report's budget vs actual lacks %q:\n%s", want, rep.Text)
		}
	}

	// The commitments list (#24 item 4) on 12-01 10:00, asked as a command
	// and in words: the bill's 包年 line alone (the hand entry it confirmed
	// is replaced), 8 cards × (30 days + 10 h = 730 h) = 5,840 card-h paid
	// for; no hours logged on aliyun H800, so used is unknown, not idle.
	for q, want := range map[string][]string{
		"/gpu spend commitments":              {"Commitments running on 2026-12-01: 1; renewing or ending by 2026-12-31: 0.", "H800 SXM ×8 on Alibaba Cloud — 12 months from 2026-11-01, renews 2027-11-01, month 2 of 12; billed ¥36,000.00 (from the bill), ¥3,000.00 a month amortised; used unknown", "of 5,840 card-h paid for so far"},
		"which reservations renew this month": {"Commitments running on 2026-12-01: 1;", "renews 2027-11-01"},
		"哪些包月快到期了":                            {"2026-12-01 生效中的包年包月：1 项；其中 0 项在 2026-12-31 前到期或续费。", "H800 SXM ×8，阿里云，12 个月，自 2026-11-01 起，2027-11-01 到期续费，第 2/12 个月；账面 ¥36,000.00（账单金额），按月分摊 ¥3,000.00；已用未知", "至今已付 5,840 卡时"},
	} {
		a := say("U1", q)
		res, ok := a.Result.(bot.SpendCommitments)
		if !ok || len(res.Commitments) != 1 || res.Commitments[0].Entry.ID == h3.ID || res.Commitments[0].UsageKnown || res.Commitments[0].Committed != 5840 {
			t.Errorf("%s: %+v %q; want the bill's 包年 line, 5,840 card-h paid for, usage unknown", q, a.Result, a.Text)
		}
		for _, w := range want {
			if !strings.Contains(a.Text, w) {
				t.Errorf("%s: the answer lacks %q:\n%s", q, w, a.Text)
			}
		}
	}

	rs := New(l, nil, Options{KB: kb, FX: 7.15})
	rs.UseBudgetLines(al.VersusFunc(clock))
	rc, err := rs.Build(ctx, "T1", ledger.Month{Year: 2026, Month: time.November}, "en", now)
	if err != nil {
		t.Fatal(err)
	}
	if rc.Report.Total.Converted == nil || rc.Report.Total.Converted.String() != "¥42,631.31" {
		t.Errorf("recap total %v, want ¥42,631.31", rc.Report.Total.Converted)
	}
	if len(rc.Commitments) != 1 || rc.Commitments[0].PerMonth.String() != "¥3,000.00" || rc.Commitments[0].Renews.Format("2006-01-02") != "2027-11-01" || rc.Commitments[0].MonthsUse != 1 {
		t.Errorf("commitments %+v; want the 包年 line, ¥3,000.00 a month, renewing 2027-11-01, month 1", rc.Commitments)
	}
	f := rc.Forecast
	if f == nil || f.Committed.String() != "¥3,000.00" || f.RunRate.String() != "¥90.04" || f.Projected.String() != "¥5,791.35" || f.Low.String() != "¥3,764.37" || f.High.String() != "¥5,791.35" || f.Days != 31 {
		t.Errorf("forecast %+v; want committed ¥3,000.00, ¥90.04 a day × 31 = ¥5,791.35, range ¥3,764.37–¥5,791.35", f)
	}
	text, _ := rc.Render()
	for _, want := range []string{"*Budget vs actual*", "over by ¥5.44", "*Forecast for", "¥5,791.35 (range ¥3,764.37–¥5,791.35)", "*Commitments*", "renews or ends 2027-11-01; hours used unknown (no usage recorded on it), not counted as idle"} {
		if !strings.Contains(text, want) {
			t.Errorf("the recap lacks %q:\n%s", want, text)
		}
	}
	for _, f := range rc.Findings {
		if s := f.Text.In("en"); strings.Contains(strings.ToLower(s), "wasted") || strings.Contains(strings.ToLower(s), "idle") {
			t.Errorf("a finding the data cannot support (no usage recorded on the 包年 plan is not idleness): %q", s)
		}
	}
}
