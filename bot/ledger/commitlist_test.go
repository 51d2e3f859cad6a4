package ledger

import (
	"context"
	"math"
	"testing"
	"time"
)

// TestCommitmentList lists the 包年 and 包月 plans running on 2026-12-02
// 10:00 (Asia/Shanghai) with their terms and the card-hours used and idle,
// against hand values:
//
//	A 8× H800 aliyun ¥36,000 包年, 2026-11-01: term 12, renews 2027-11-01,
//	  ¥36,000 ÷ 12 = ¥3,000.00 a month. Paid for so far: 8 cards × (30 days
//	  of November + 1 day + 10 h = 754 h) = 6,032 card-h. Used: 8×100 (11-10)
//	  + 8×50 (11-20) + 4×10 (12-01, logged as 包月 use) = 1,240 card-h logged
//	  on aliyun H800 inside the term without a charge of their own; the
//	  8×20 run on 11-25 billed ¥3,000 on demand was paid for apart and is
//	  not counted; idle 6,032 − 1,240 = 4,792 card-h = 79.44 %.
//	B 2× A100 80GB autodl ¥7,000 包月, 2026-11-15: term 1, renews 2026-12-15,
//	  ¥7,000.00 a month, 2 × (16 days + 1 day + 10 h = 418 h) = 836 card-h
//	  paid for; no usage on autodl A100 80GB inside the term (the 11-10 run
//	  is before it, the 4090 run is another card): used unknown, not idle.
//	C a 包月 from 2026-10-20 renewed 2026-11-20: over, not listed.
//	D on-demand runs are usage, not commitments.
//
// Listed soonest renewal first: B, then A.
func TestCommitmentList(t *testing.T) {
	ctx := context.Background()
	l, clk := newLedger(t, miniStore(t))
	loc := l.Location()
	tm := team(t)
	day := func(mo time.Month, d int) time.Time { return time.Date(2026, mo, d, 12, 0, 0, 0, loc) }
	clk.Set(time.Date(2026, 12, 2, 10, 0, 0, 0, loc))
	add := func(key string, e Entry) string {
		t.Helper()
		e.Team, e.User, e.Key = tm, "U1", key
		got, err := l.Add(ctx, e)
		if err != nil {
			t.Fatalf("add %s: %v", key, err)
		}
		return got.ID
	}
	a := add("a", Entry{GPU: "h800", Cards: 8, Platform: "aliyun", Amount: cny(3600000), Billing: Monthly, TermMonths: 12, HoursUnknown: true, At: day(11, 1)})
	b := add("b", Entry{GPU: "a100-80g", Cards: 2, Platform: "autodl", Amount: cny(700000), Billing: Monthly, HoursUnknown: true, At: day(11, 15)})
	add("c", Entry{GPU: "a100-80g", Cards: 2, Platform: "autodl", Amount: cny(700000), Billing: Monthly, HoursUnknown: true, At: day(10, 20)})
	u1 := add("u1", Entry{GPU: "h800", Cards: 8, Hours: 100, Platform: "aliyun", At: day(11, 10)})
	u2 := add("u2", Entry{GPU: "h800", Cards: 8, Hours: 50, Platform: "aliyun", At: day(11, 20)})
	u3 := add("u3", Entry{GPU: "h800", Cards: 4, Hours: 10, Platform: "aliyun", Billing: Monthly, At: day(12, 1)})
	add("u6", Entry{GPU: "h800", Cards: 8, Hours: 20, Platform: "aliyun", Amount: cny(300000), At: day(11, 25)})
	add("u4", Entry{GPU: "a100-80g", Cards: 2, Hours: 10, Platform: "autodl", At: day(11, 10)})
	add("u5", Entry{GPU: "4090", Cards: 1, Hours: 10, Platform: "autodl", At: day(11, 20)})

	cs, err := l.CommitmentList(ctx, tm, clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 {
		t.Fatalf("got %d commitments %+v; want B (包月) and A (包年)", len(cs), cs)
	}
	gotB, gotA := cs[0], cs[1]
	if gotB.Entry.ID != b || gotB.Term != 1 || gotB.Renews.Format("2006-01-02") != "2026-12-15" || gotB.PerMonth != cny(700000) ||
		gotB.Committed != 836 || gotB.UsageKnown || gotB.Used != 0 || gotB.Idle != 0 {
		t.Errorf("包月 %+v; want #%s, term 1, renews 2026-12-15, ¥7,000.00 a month, 836 card-h paid for, usage unknown", gotB, b)
	}
	if gotA.Entry.ID != a || gotA.Term != 12 || gotA.Renews.Format("2006-01-02") != "2027-11-01" || gotA.PerMonth != cny(300000) || gotA.MonthsUse != 2 ||
		gotA.Committed != 6032 || !gotA.UsageKnown || gotA.Used != 1240 || gotA.Idle != 4792 || math.Abs(gotA.IdleShare-0.7944) > 0.0001 {
		t.Errorf("包年 %+v; want #%s, term 12, renews 2027-11-01, ¥3,000.00 a month, month 2, 6,032 card-h paid for, 1,240 used, 4,792 idle (79.44%%)", gotA, a)
	}
	if want := []string{u1, u2, u3}; len(gotA.UsedBy) != 3 || gotA.UsedBy[0] != want[0] || gotA.UsedBy[1] != want[1] || gotA.UsedBy[2] != want[2] {
		t.Errorf("used by %v; want %v", gotA.UsedBy, want)
	}
}

// TestHeldSharesUsageOnce: two 包月 plans of 1× H100 SXM on one platform
// from 2026-11-01 (now 11-11 00:00: 240 card-h paid for each) and 300
// card-h of runs logged without a charge (a 50 card-h run billed on its
// own was paid for apart: not counted). The earlier plan takes 240 (full), the other the 60 left:
// idle 0 and 180 (75 %). Usage is never counted twice.
func TestHeldSharesUsageOnce(t *testing.T) {
	loc := time.UTC
	at := time.Date(2026, 11, 1, 8, 0, 0, 0, loc)
	plan := func(id string, at time.Time) Entry {
		return Entry{ID: id, GPU: "h100-sxm", Cards: 1, Platform: "runpod", Amount: Money{Minor: 100000, Currency: "USD"}, Billing: Monthly, HoursUnknown: true, At: at, Kind: Spend}
	}
	es := []Entry{plan("p1", at), plan("p2", at.Add(time.Hour)),
		{ID: "r1", GPU: "h100-sxm", Cards: 1, Hours: 300, Platform: "runpod", At: at.AddDate(0, 0, 5), Kind: Spend},
		{ID: "r2", GPU: "h100-sxm", Cards: 1, Hours: 50, Platform: "runpod", Amount: Money{Minor: 1000, Currency: "USD"}, At: at.AddDate(0, 0, 6), Kind: Spend}}
	cs := Held(es, time.Date(2026, 11, 11, 0, 0, 0, 0, loc), loc)
	if len(cs) != 2 {
		t.Fatalf("%+v", cs)
	}
	if cs[0].Used != 240 || cs[0].Idle != 0 || cs[1].Used != 60 || cs[1].Idle != 180 || cs[1].IdleShare != 0.75 {
		t.Errorf("got used %v/%v idle %v/%v (%v); want 240/60, idle 0/180 (75%%)", cs[0].Used, cs[1].Used, cs[0].Idle, cs[1].Idle, cs[1].IdleShare)
	}
}
