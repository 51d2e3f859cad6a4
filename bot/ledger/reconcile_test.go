package ledger

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/knowledge"
)

// fleetBill is an 8-card H800 fleet billed per day: 8 cards × 24 h = 192
// card-hours a line, priced per day.
func fleetBill(days []int, amount func(day int) string) string {
	var b strings.Builder
	b.WriteString("date,project,gpu,cards,hours,amount,platform\n")
	for _, d := range days {
		fmt.Fprintf(&b, "2026-10-%02d,pretrain,h800,8,24,%s,aliyun\n", d, amount(d))
	}
	return b.String()
}

func days(from, to int) []int {
	var out []int
	for d := from; d <= to; d++ {
		out = append(out, d)
	}
	return out
}

// Re-importing a corrected bill replaces the corrected lines instead of
// booking the run again (it said "1 added, 6 duplicates" and counted 8,640
// card-hours on an 8-card fleet in a 30-day month).
//
// Hand calculation: the first bill has days 1–9 at ¥2,880 (192 card-h ×
// ¥15). The corrected bill prices days 1–3 at ¥2,688 (192 × ¥14), keeps
// days 4–9 and adds day 10 at ¥2,880: 3 changed, 1 added, 6 unchanged.
// October then holds 10 lines, 10 × 192 = 1,920 card-hours and
// 3 × 2,688 + 7 × 2,880 = 8,064 + 20,160 = ¥28,224.00.
func TestReimportCorrectedBill(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	first := importString(t, l, tm, fleetBill(days(1, 9), func(int) string { return "2880" }))
	if len(first.Added) != 9 {
		t.Fatalf("first import added %d, want 9", len(first.Added))
	}
	corrected := fleetBill(days(1, 10), func(d int) string {
		if d <= 3 {
			return "2688"
		}
		return "2880"
	})
	res := importString(t, l, tm, corrected)
	if len(res.Changed) != 3 || len(res.Added) != 1 || res.Unchanged != 6 {
		t.Errorf("corrected bill: %d changed, %d added, %d unchanged; want 3, 1, 6", len(res.Changed), len(res.Added), res.Unchanged)
	}
	r, err := l.Report(ctx, tm, Month{2026, 10}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Total.Entries != 10 || r.Total.CardHours != 1920 || r.Total.Amount[knowledge.CNY] != 2822400 {
		t.Errorf("October after the correction: %d entries, %v card-h, %s; want 10, 1920, ¥28,224.00",
			r.Total.Entries, r.Total.CardHours, r.Total.Amount)
	}
	if r.Total.Billed[knowledge.CNY] != 2822400 || len(r.Total.Estimated) != 0 && r.Total.Estimated[knowledge.CNY] != 0 {
		t.Errorf("billed %s, estimated %s; want all ¥28,224.00 billed", r.Total.Billed, r.Total.Estimated)
	}
	// The changed lines kept their ids: links to them stay valid.
	ids := map[string]bool{}
	for _, e := range first.Added {
		ids[e.ID] = true
	}
	for _, e := range res.Changed {
		if !ids[e.ID] {
			t.Errorf("changed line got a new id %s", e.ID)
		}
	}
	again := importString(t, l, tm, corrected)
	if len(again.Changed)+len(again.Added) != 0 || again.Unchanged != 10 {
		t.Errorf("same corrected bill again: %d changed, %d added, %d unchanged; want 0, 0, 10", len(again.Changed), len(again.Added), again.Unchanged)
	}
}

// With a provider line id the identity is the id: a correction of the
// hours is still the same line.
func TestReimportByLineID(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	importString(t, l, tm, "line id,date,gpu,cards,hours,amount\nL-1,2026-10-05,h800,8,24,2880\nL-2,2026-10-06,h800,8,24,2880\n")
	res := importString(t, l, tm, "line id,date,gpu,cards,hours,amount\nL-1,2026-10-05,h800,8,20,2400\nL-2,2026-10-06,h800,8,24,2880\n")
	if len(res.Changed) != 1 || len(res.Added) != 0 || res.Unchanged != 1 {
		t.Errorf("%d changed, %d added, %d unchanged; want 1, 0, 1", len(res.Changed), len(res.Added), res.Unchanged)
	}
	r, _ := l.Report(ctx, tm, Month{2026, 10}, nil)
	// 8 × 20 + 8 × 24 = 352 card-h; ¥2,400 + ¥2,880 = ¥5,280.
	if r.Total.CardHours != 352 || r.Total.Amount[knowledge.CNY] != 528000 {
		t.Errorf("October = %v card-h, %s; want 352, ¥5,280.00", r.Total.CardHours, r.Total.Amount)
	}
}

// A run logged in chat and then billed was counted twice with no warning.
// Now the import names the chat entry as a probable duplicate (same
// project, card and day; 8 × 23 h = 184 card-h is within 10 % of 192), and
// once confirmed it leaves the totals: the spend is counted once, billed.
func TestChatEntryMatchingBillIsFlagged(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	loc := l.Location()
	chat := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "h800", Cards: 8, Hours: 23, Amount: cny(276000),
		Project: "pretrain", At: mustTime(t, "2026-10-05 20:00", loc)})
	other := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "h800", Cards: 8, Hours: 10, Amount: cny(120000),
		Project: "pretrain", At: mustTime(t, "2026-10-05 21:00", loc)}) // 80 card-h: not the billed run
	res := importString(t, l, tm, fleetBill([]int{5}, func(int) string { return "2880" }))
	if len(res.Probable) != 1 || res.Probable[0].Chat.ID != chat.ID {
		t.Fatalf("probable duplicates = %+v, want chat entry %s", res.Probable, chat.ID)
	}
	r, _ := l.Report(ctx, tm, Month{2026, 10}, nil)
	if r.Total.Amount[knowledge.CNY] != 276000+120000+288000 {
		t.Errorf("before confirmation total = %s, want all three (¥6,840.00)", r.Total.Amount)
	}
	if _, err := l.Supersede(ctx, tm, chat.ID, res.Probable[0].Bill.ID); err != nil {
		t.Fatal(err)
	}
	r, _ = l.Report(ctx, tm, Month{2026, 10}, nil)
	// ¥1,200 (the other chat entry) + ¥2,880 (the bill) = ¥4,080; 80 + 192 card-h.
	if r.Total.Amount[knowledge.CNY] != 408000 || r.Total.CardHours != 272 || r.Total.Superseded != 1 {
		t.Errorf("after confirmation = %s, %v card-h, %d superseded; want ¥4,080.00, 272, 1", r.Total.Amount, r.Total.CardHours, r.Total.Superseded)
	}
	if _, err := l.Supersede(ctx, tm, res.Probable[0].Bill.ID, other.ID); err == nil {
		t.Error("a bill line was superseded by a chat entry")
	}
}

func mustTime(t *testing.T, s string, loc *time.Location) time.Time {
	t.Helper()
	v, err := parseWhen(s, loc)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Rows shown must add up to the total: Top folds the tail into "other".
// Hand sums: projects a ¥40, b ¥30, c ¥20, d ¥10 → top 3 = a, b, other ¥30.
func TestTopAddsUpWithOther(t *testing.T) {
	var es []Entry
	for p, v := range map[string]int64{"a": 4000, "b": 3000, "c": 2000, "d": 1000} {
		es = append(es, Entry{Project: p, GPU: "h800", Cards: 1, Hours: float64(v / 100), Amount: cny(v), Kind: Spend})
	}
	fx := &FX{To: knowledge.CNY}
	gs := Top(Rollup(es, nil, func(e Entry) string { return e.Project }, fx), 3, fx)
	if len(gs) != 3 || gs[2].Key != Other || gs[2].Amount[knowledge.CNY] != 3000 || gs[2].CardHours != 30 {
		t.Fatalf("top 3 = %+v", gs)
	}
	var sum int64
	for _, g := range gs {
		sum += g.Amount[knowledge.CNY]
	}
	if sum != 10000 {
		t.Errorf("rows add up to %d, want the total 10000", sum)
	}
}

// Card-hours read the same in every view ("4,912 vs 4,911.5").
func TestFormatCardHours(t *testing.T) {
	for h, want := range map[float64]string{4911.5: "4911.5", 4912: "4912", 110.0 / 3: "36.7", 0.04: "0", 804.5: "804.5"} {
		if got := FormatCardHours(h); got != want {
			t.Errorf("FormatCardHours(%v) = %q, want %q", h, got, want)
		}
	}
}

// A bill line that matches a hand-added estimate (card, platform, period,
// amount within 10 %) confirms it: the estimate leaves the totals at once.
// A looser match is listed as probable; estimates on the bill's platform
// with no line are listed as unmatched.
//
// Hand values (fen):
//
//	c1 包月 8× H800 on aliyun, ¥36,000 estimate; bill ¥36,500 (1.4 % off) → confirmed
//	c2 4090 10 h on autodl 10-05, ¥20 estimate; bill ¥18.80 (6.4 % off)    → confirmed
//	c3 4090 5 h on autodl 10-07, ¥10, no line                            → unmatched
//	c4 4090 2 h on vast 10-05, ¥4: not this bill's platform              → not listed
//	c5 A100 10 h on autodl 10-05, ¥100; bill ¥60 (40 % off)              → probable
//	total = bill 3,650,000 + 1,880 + 6,000 + hand c3 1,000 + c4 400 + c5 10,000
//	      = 3,669,280 (¥36,692.80)
func TestBillConfirmsEstimates(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	loc := l.Location()
	add := func(gpu string, cards int, hours float64, minor int64, platform, day string, b Billing) Entry {
		return mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: gpu, Cards: cards, Hours: hours, Amount: cny(minor), Platform: platform,
			At: mustTime(t, day, loc), Billing: b, Confirm: true})
	}
	c1 := add("h800", 8, 0, 3600000, "aliyun", "2026-10-01", Monthly)
	c2 := add("4090", 1, 10, 2000, "autodl", "2026-10-05", OnDemand)
	c3 := add("4090", 1, 5, 1000, "autodl", "2026-10-07", OnDemand)
	add("4090", 1, 2, 400, "vast", "2026-10-05", OnDemand)
	c5 := add("a100", 1, 10, 10000, "autodl", "2026-10-05", OnDemand)
	bill := "date,gpu,cards,hours,amount,platform,billing\n" +
		"2026-10-01,h800,8,,36500,aliyun,包月\n" +
		"2026-10-05,4090,1,10,18.80,autodl,按量\n" +
		"2026-10-05,a100,1,10,60,autodl,按量\n"
	res, err := l.ImportWith(ctx, tm, "UADMIN", strings.NewReader(bill), "bill.csv", ImportOptions{ConfirmPrices: true})
	if err != nil || len(res.Errors) != 0 {
		t.Fatalf("import: %v %v", err, res.Errors)
	}
	var confirmed []string
	for _, m := range res.Confirmed {
		confirmed = append(confirmed, m.Chat.ID)
		if m.Chat.SupersededBy != m.Bill.ID {
			t.Errorf("confirmed #%s is not superseded by its line #%s", m.Chat.ID, m.Bill.ID)
		}
	}
	check(t, "confirmed", []string{c1.ID, c2.ID}, confirmed)
	if len(res.Probable) != 1 || res.Probable[0].Chat.ID != c5.ID {
		t.Errorf("probable = %+v, want #%s", res.Probable, c5.ID)
	}
	check(t, "unmatched", []string{c3.ID}, ids(res.Unmatched))
	r, _ := l.Report(ctx, tm, Month{2026, 10}, nil)
	if r.Total.Amount[knowledge.CNY] != 3669280 || r.Total.Superseded != 2 {
		t.Errorf("October = %s with %d superseded; want ¥36,692.80 and 2", r.Total.Amount, r.Total.Superseded)
	}
}
