package ledger

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/knowledge"
)

// TestReplayNovember replays a month as a finance team runs it: hand
// entries for two teams, three bills (two in CNY, one in USD with a
// cost_usd header) each with a line repeated inside the file, a credit, a
// tax line, estimates the bills confirm, a 包年 plan, a correction, a
// repeated hand entry, and checks every total against hand values.
//
// Hand entries (CNY):
//
//	h1 research 4090 ×1 40 h autodl ¥75 (11-03)        → confirmed by bill 1's ¥75.20 (0.3 % off)
//	h2 vision   4090 ×1 10 h autodl ¥20 (11-05)        → no bill line: unmatched
//	h3 research H800 ×8 aliyun ¥36,000 包年 (11-01)     → confirmed by bill 2's 包年 line
//	h4 vision   A100 invoice ¥180 runpod (11-06)       → corrected to ¥1,800 (edit)
//	h2 again as a new message                           → flagged as a repeat, not booked
//
// Bills:
//
//	1 autodl CNY: 4090 40 h ¥75.20 (twice: the second flagged), 4090 ×2 24 h ¥90.24, credit −¥30.00
//	2 aliyun CNY: H800 ×8 包年 ¥36,000 (12 months), tax ¥2,160.00 (twice: the second flagged)
//	3 USD (cost_usd): p4d.24xlarge ×8 10 h $327.73 (twice: flagged), g5.xlarge 24 h $24.14
//
// November, CNY: h2 20 + h4 1,800 + 75.20 + 90.24 − 30.00 + 36,000 + 2,160 = ¥40,115.44
// (h1 and h3 are superseded by the lines that confirmed them).
// GPU ¥37,985.44 (20 + 1,800 + 75.20 + 90.24 + 36,000), non-GPU ¥2,160.00, credits −¥30.00.
// USD: 327.73 + 24.14 = $351.87 = 35,187 cents × 7.15 = 251,587.05 fen → ¥2,515.87.
// One reporting currency at the team's 7.15: 40,115.44 + 2,515.87 = ¥42,631.31.
// Card-hours: h2 10 + 40 + 48 + p4d 80 + g5 24 = 202 (the invoice and the 包年 plan have none).
// Teams: research ¥38,295.44 (75.20 + 90.24 − 30 + 36,000 + 2,160); vision ¥1,820.00 and $351.87.
// Amortised: the 包年 plan's ¥36,000 ÷ 12 = ¥3,000 in November: 40,115.44 − 36,000 + 3,000 = ¥7,115.44.
func TestReplayNovember(t *testing.T) {
	ctx := context.Background()
	l, clk := newLedger(t, miniStore(t))
	loc := l.Location()
	clk.Set(time.Date(2026, 12, 1, 10, 0, 0, 0, loc))
	tm := team(t)
	hand := func(key, team, gpu string, cards int, hours float64, minor int64, platform, day string, b Billing, term int, unknown bool) Entry {
		return mustAdd(t, l, Entry{Team: tm, User: "U1", Key: key, CostCenter: team, GPU: gpu, Cards: cards, Hours: hours, Amount: cny(minor),
			Platform: platform, At: mustTime(t, day, loc), Billing: b, TermMonths: term, HoursUnknown: unknown, Confirm: true})
	}
	h1 := hand("m1", "research", "4090", 1, 40, 7500, "autodl", "2026-11-03", OnDemand, 0, false)
	h2 := hand("m2", "vision", "4090", 1, 10, 2000, "autodl", "2026-11-05", OnDemand, 0, false)
	h3 := hand("m3", "research", "h800", 8, 0, 3600000, "aliyun", "2026-11-01", Monthly, 12, false)
	h4 := hand("m4", "vision", "a100", 1, 0, 18000, "runpod", "2026-11-06", OnDemand, 0, true)

	// The same entry as h2, sent again as another message.
	again := Entry{Team: tm, User: "U1", Key: "m5", CostCenter: "vision", GPU: "4090", Cards: 1, Hours: 10, Amount: cny(2000), Platform: "autodl", At: mustTime(t, "2026-11-05", loc)}
	if prev, ok, err := l.Repeat(ctx, again); err != nil || !ok || prev.ID != h2.ID {
		t.Errorf("repeat of h2: %v, %v, %v; want #%s", prev.ID, ok, err, h2.ID)
	}
	// The correction: "不对，金额是1800元".
	if _, after, err := l.Edit(ctx, tm, h4.ID, "U1", false, "m6", map[string]string{"amount": "1800元"}, false); err != nil || after.Amount != cny(180000) {
		t.Fatalf("edit h4: %+v, %v", after, err)
	}

	imp := func(name, csv string) *ImportResult {
		t.Helper()
		res, err := l.ImportWith(ctx, tm, "UADMIN", strings.NewReader(csv), name, ImportOptions{ConfirmPrices: true})
		if err != nil || len(res.Errors) != 0 {
			t.Fatalf("%s: %v %v", name, err, res.Errors)
		}
		return res
	}
	b1 := imp("autodl.csv", "date,gpu,cards,hours,amount,platform,team,note\n"+
		"2026-11-03,4090,1,40,¥75.20,autodl,research,\n"+
		"2026-11-03,4090,1,40,¥75.20,autodl,research,\n"+
		"2026-11-10,4090,2,24,¥90.24,autodl,research,\n"+
		"2026-11-15,,,,-¥30.00,autodl,research,compensation for an outage\n")
	b2 := imp("aliyun.csv", "date,gpu,cards,hours,amount,platform,billing,team,category\n"+
		"2026-11-01,h800,8,,36000,aliyun,包年,research,Usage\n"+
		"2026-11-30,,,,2160.00,aliyun,,research,Tax\n"+
		"2026-11-30,,,,2160.00,aliyun,,research,Tax\n")
	b3 := imp("aws.csv", "Date,Instance Type,GPU Qty,Usage Hours,cost_usd,Cost Center\n"+
		"2026-11-20,p4d.24xlarge,8,10,327.73,vision\n"+
		"2026-11-20,p4d.24xlarge,8,10,327.73,vision\n"+
		"2026-11-25,g5.xlarge,,24,24.14,vision\n")

	for _, c := range []struct {
		name              string
		res               *ImportResult
		added, inFileRow  int
		confirmed, unmatc []string
	}{
		{"bill 1", b1, 3, 3, []string{h1.ID}, []string{h2.ID}},
		{"bill 2", b2, 2, 4, []string{h3.ID}, []string{}},
		{"bill 3", b3, 2, 3, nil, []string{}},
	} {
		if len(c.res.Added) != c.added || len(c.res.InFile) != 1 || c.res.InFile[0].Row != c.inFileRow {
			t.Errorf("%s: added %d, repeated %+v; want %d added, row %d repeated", c.name, len(c.res.Added), c.res.InFile, c.added, c.inFileRow)
		}
		var conf []string
		for _, m := range c.res.Confirmed {
			conf = append(conf, m.Chat.ID)
		}
		check(t, c.name+" confirmed", c.confirmed, conf)
		check(t, c.name+" unmatched", c.unmatc, ids(c.res.Unmatched))
	}

	fx := &FX{To: knowledge.CNY, Rates: map[knowledge.Currency]float64{knowledge.USD: 7.15}}
	r, err := l.Report(ctx, tm, Month{2026, time.November}, fx)
	if err != nil {
		t.Fatal(err)
	}
	check(t, "total", Amounts{knowledge.CNY: 4011544, knowledge.USD: 35187}, r.Total.Amount)
	check(t, "GPU", Amounts{knowledge.CNY: 3798544, knowledge.USD: 35187}, r.Total.GPU)
	check(t, "non-GPU", Amounts{knowledge.CNY: 216000}, r.Total.NonGPU)
	check(t, "credits", Amounts{knowledge.CNY: -3000}, r.Total.Refunds)
	if r.Total.Converted == nil || *r.Total.Converted != cny(4263131) {
		t.Errorf("converted total %v, want ¥42,631.31", r.Total.Converted)
	}
	if r.Total.CardHours != 202 || r.Total.Superseded != 2 || r.Total.HoursUnknown != 2 {
		t.Errorf("card-hours %v, superseded %d, hours unknown %d; want 202, 2, 2", r.Total.CardHours, r.Total.Superseded, r.Total.HoursUnknown)
	}
	check(t, "by team", map[string]Amounts{
		"research": {knowledge.CNY: 3829544},
		"vision":   {knowledge.CNY: 182000, knowledge.USD: 35187},
	}, groupAmounts(r.ByTeam))
	check(t, "amortised", Amounts{knowledge.CNY: 711544, knowledge.USD: 35187}, r.Amortised)
}
