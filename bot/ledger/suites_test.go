package ledger

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpubot/gpubot/knowledge"
)

// The suites below run against miniredis (ledger_test.go) and a real
// redis-server (ledger_integration_test.go).

func suiteCRUD(t *testing.T, ns newStore) {
	ctx := context.Background()
	l, clk := newLedger(t, ns(t))
	loc := l.Location()
	tm := team(t)

	clk.Set(time.Date(2026, 10, 3, 10, 0, 0, 0, loc))
	a := mustAdd(t, l, Entry{Team: tm, Channel: "C1", User: "UALICE", GPU: "4090", Platform: "@AutoDL",
		Hours: 40, Amount: cny(7500), Project: "LLM FT", Key: "msg:C1:1"})
	if len(a.ID) != idLen || strings.Trim(a.ID, idAlphabet) != "" {
		t.Errorf("Add id = %q, want %d characters of %q", a.ID, idLen, idAlphabet)
	}
	want := Entry{ID: a.ID, Team: tm, Channel: "C1", Project: "llm-ft", User: "UALICE", Platform: "autodl", GPU: "rtx4090",
		Cards: 1, Hours: 40, At: clk.Now(), Amount: cny(7500), Billing: OnDemand, CreatedAt: clk.Now(), Source: SourceSlack,
		Key: "msg:C1:1", Kind: Spend}
	if d := cmp.Diff(want, a); d != "" {
		t.Errorf("Add normalised entry (-want +got):\n%s", d)
	}
	got, err := l.Get(ctx, tm, strings.ToUpper(a.ID))
	if err != nil {
		t.Fatalf("Get(%s): %v", a.ID, err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Get after Add (-want +got):\n%s", d)
	}

	clk.Set(time.Date(2026, 10, 4, 10, 0, 0, 0, loc))
	b := mustAdd(t, l, Entry{Team: tm, User: "UALICE", GPU: "h100", Cards: 8, Hours: 10, Amount: cny(160000), Project: "pretrain"})
	clk.Set(time.Date(2026, 10, 5, 10, 0, 0, 0, loc))
	c := mustAdd(t, l, Entry{Team: tm, User: "UBOB", GPU: "a100", Hours: 5, Amount: usd(1000), Project: "llm-ft"})
	clk.Set(time.Date(2026, 9, 30, 10, 0, 0, 0, loc))
	sep := mustAdd(t, l, Entry{Team: tm, User: "UBOB", GPU: "a100", Hours: 1, Amount: cny(500), Project: "llm-ft"})

	oct := Month{2026, time.October}
	list, err := l.List(ctx, tm, oct, "")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{a.ID, b.ID, c.ID}, ids(list)); d != "" {
		t.Errorf("List(2026-10) ids (-want +got):\n%s", d)
	}
	list, _ = l.List(ctx, tm, oct, "llm ft")
	if d := cmp.Diff([]string{a.ID, c.ID}, ids(list)); d != "" {
		t.Errorf("List(2026-10, project=llm ft) ids (-want +got):\n%s", d)
	}
	list, _ = l.List(ctx, tm, Month{}, "")
	if d := cmp.Diff([]string{sep.ID, a.ID, b.ID, c.ID}, ids(list)); d != "" {
		t.Errorf("List(all) ids (-want +got):\n%s", d)
	}

	// Scoped to the workspace: another team sees nothing and deletes nothing.
	other := team(t)
	if l2, _ := l.List(ctx, other, Month{}, ""); len(l2) != 0 {
		t.Errorf("List(other team) = %d entries, want 0", len(l2))
	}
	if _, err := l.Get(ctx, other, a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(other team, %s) err = %v, want ErrNotFound", a.ID, err)
	}
	if _, err := l.Delete(ctx, other, a.ID, "UALICE", true); !errors.Is(err, ErrNotFound) {
		t.Errorf("Delete(other team, %s, admin) err = %v, want ErrNotFound", a.ID, err)
	}

	// Delete: own yes, others' only as admin.
	if _, err := l.Delete(ctx, tm, c.ID, "UALICE", false); !errors.Is(err, ErrForbidden) {
		t.Errorf("Delete(Bob's entry by Alice, not admin) err = %v, want ErrForbidden", err)
	}
	if _, err := l.Get(ctx, tm, c.ID); err != nil {
		t.Errorf("entry %s gone after a refused delete: %v", c.ID, err)
	}
	if gone, err := l.Delete(ctx, tm, "#"+c.ID, "UALICE", true); err != nil || gone.ID != c.ID {
		t.Errorf("Delete(Bob's entry by admin Alice) = %s, %v; want %s, nil", gone.ID, err, c.ID)
	}
	if _, err := l.Delete(ctx, tm, c.ID, "UALICE", true); !errors.Is(err, ErrNotFound) {
		t.Errorf("Delete twice err = %v, want ErrNotFound", err)
	}
	if _, err := l.Delete(ctx, tm, "not-an-id", "UALICE", true); !errors.Is(err, ErrNotFound) {
		t.Errorf("Delete(malformed id) err = %v, want ErrNotFound", err)
	}

	// Undo walks back the user's own entries, newest first, then stops.
	if gone, err := l.Undo(ctx, tm, "UALICE"); err != nil || gone.ID != b.ID {
		t.Errorf("Undo(Alice) #1 = %s, %v; want %s", gone.ID, err, b.ID)
	}
	if _, err := l.Delete(ctx, tm, a.ID, "UALICE", false); err != nil {
		t.Errorf("Delete(own entry) err = %v", err)
	}
	if _, err := l.Undo(ctx, tm, "UALICE"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Undo(Alice) with nothing left err = %v, want ErrNotFound", err)
	}
	if gone, err := l.Undo(ctx, tm, "UBOB"); err != nil || gone.ID != sep.ID {
		t.Errorf("Undo(Bob) = %s, %v; want %s", gone.ID, err, sep.ID)
	}
	if left, _ := l.List(ctx, tm, Month{}, ""); len(left) != 0 {
		t.Errorf("after deleting everything List = %v, want none", ids(left))
	}
}

func suiteAddRejects(t *testing.T, ns newStore) {
	l, _ := newLedger(t, ns(t))
	tm := team(t)
	cases := map[string]struct {
		e     Entry
		field string
	}{
		"unknown card":      {Entry{Team: tm, User: "U1", GPU: "rtx9090", Hours: 1}, "gpu"},
		"no card":           {Entry{Team: tm, User: "U1", Hours: 1}, "gpu"},
		"no hours":          {Entry{Team: tm, User: "U1", GPU: "4090"}, "hours"},
		"negative hours":    {Entry{Team: tm, User: "U1", GPU: "4090", Hours: -3}, "hours"},
		"a year and more":   {Entry{Team: tm, User: "U1", GPU: "4090", Hours: 9000}, "hours"},
		"negative cards":    {Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Cards: -1}, "cards"},
		"negative amount":   {Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: cny(-100)}, "amount"},
		"unknown billing":   {Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Billing: "barter"}, "billing"},
		"no user":           {Entry{Team: tm, GPU: "4090", Hours: 1}, "user"},
		"no team":           {Entry{User: "U1", GPU: "4090", Hours: 1}, "team"},
		"hash tag in team":  {Entry{Team: "T{x}", User: "U1", GPU: "4090", Hours: 1}, "team"},
		"end before start":  {Entry{Team: tm, User: "U1", GPU: "4090", Start: time.Unix(100, 0), End: time.Unix(50, 0)}, "end"},
		"too many cards":    {Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Cards: 100000}, "cards"},
		"NaN hours":         {Entry{Team: tm, User: "U1", GPU: "4090", Hours: math.NaN()}, "hours"},
		"empty gpu spacing": {Entry{Team: tm, User: "U1", GPU: "   ", Hours: 1}, "gpu"},
		"odd currency":      {Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: Money{Minor: 1, Currency: "yuan"}}, "currency"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := l.Add(context.Background(), tc.e)
			var in *InputError
			if !errors.As(err, &in) || in.Field != tc.field {
				t.Fatalf("Add err = %v, want an InputError on %s", err, tc.field)
			}
		})
	}
	if all, _ := l.List(context.Background(), tm, Month{}, ""); len(all) != 0 {
		t.Errorf("rejected adds stored %d entries", len(all))
	}
}

func suiteMonthBoundary(t *testing.T, ns newStore) {
	ctx := context.Background()
	l, _ := newLedger(t, ns(t))
	loc := l.Location()
	tm := team(t)
	// 23:30 on 31 October in Shanghai is 15:30 UTC the same day: October.
	late := time.Date(2026, 10, 31, 23, 30, 0, 0, loc)
	if got := late.UTC(); got != time.Date(2026, 10, 31, 15, 30, 0, 0, time.UTC) {
		t.Fatalf("fixture: %v in UTC = %v", late, got)
	}
	// 00:10 on 1 November in Shanghai is still 31 October in UTC: November.
	early := time.Date(2026, 11, 1, 0, 10, 0, 0, loc)
	if got := early.UTC(); got.Month() != time.October {
		t.Fatalf("fixture: %v in UTC = %v, want 31 October", early, got)
	}
	// Midnight exactly starts the month.
	midnight := time.Date(2026, 11, 1, 0, 0, 0, 0, loc)
	a := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: cny(188), At: late})
	b := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 1, Amount: cny(188), At: early.UTC()})
	c := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Amount: cny(188), Start: midnight, End: midnight.Add(2 * time.Hour)})
	if c.Hours != 2 || !c.At.Equal(midnight) {
		t.Errorf("Add(start, end) hours, at = %v, %v; want 2, %v", c.Hours, c.At, midnight)
	}

	oct, _ := l.List(ctx, tm, Month{2026, time.October}, "")
	nov, _ := l.List(ctx, tm, Month{2026, time.November}, "")
	if d := cmp.Diff([]string{a.ID}, ids(oct)); d != "" {
		t.Errorf("October in Asia/Shanghai (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{c.ID, b.ID}, ids(nov)); d != "" {
		t.Errorf("November in Asia/Shanghai (-want +got):\n%s", d)
	}
	if MonthOf(late, loc) != (Month{2026, time.October}) || MonthOf(late, time.UTC) != (Month{2026, time.October}) {
		t.Errorf("MonthOf(%v) wrong", late)
	}
	if MonthOf(early, loc) != (Month{2026, time.November}) || MonthOf(early, time.UTC) != (Month{2026, time.October}) {
		t.Errorf("MonthOf(%v) in Shanghai/UTC wrong", early)
	}

	// The same entries read in UTC split differently: the zone decides.
	utc := New(l.st, Options{KB: knowledge.MustShipped(), Location: time.UTC})
	octUTC, _ := utc.List(ctx, tm, Month{2026, time.October}, "")
	if d := cmp.Diff([]string{a.ID, c.ID, b.ID}, ids(octUTC)); d != "" {
		t.Errorf("October in UTC (-want +got):\n%s", d)
	}
}

// The sample bill's hand-computed sums. Rows are numbered as lines of
// testdata/sample_bill.csv (line 1 is the header).
//
// September 2026 (lines 2–12, 11 rows), amounts in CNY, card-hours = cards × hours:
//
//	 2 llm-ft   rtx4090  1×40  =  40  ¥75.00    autodl on_demand
//	 3 llm-ft   rtx4090  2×24  =  48  ¥90.00    autodl on_demand
//	 4 aigc     rtx4090  1×30  =  30  ¥56.40    autodl on_demand
//	 5 aigc     a100-80g 1×20  =  20  ¥100.00   autodl on_demand
//	 6 llm-ft   rtx4090  1×16  =  16  ¥30.08    autodl on_demand
//	 7 pretrain h100-sxm 8×10  =  80  ¥1600.00  aliyun on_demand
//	 8 aigc     rtx4090  1×10  =  10  ¥18.80    autodl on_demand
//	 9 pretrain a100-80g 4×12  =  48  ¥240.00   aliyun spot
//	10 llm-ft   a100-80g 1×8   =   8  ¥40.00    autodl on_demand
//	11 pretrain h100-sxm 8×5   =  40  ¥800.00   aliyun on_demand
//	12 aigc     rtx4090  1×200 = 200  ¥1200.00  autodl monthly
//
//	total     ¥75+90+56.40+100+30.08+1600+18.80+240+40+800+1200 = ¥4250.28; card-h 540
//	llm-ft    75+90+30.08+40 = ¥235.08, 40+48+16+8 = 112 card-h, 4 rows
//	aigc      56.40+100+18.80+1200 = ¥1375.20, 30+20+10+200 = 260 card-h, 4 rows
//	pretrain  1600+240+800 = ¥2640.00, 80+48+40 = 168 card-h, 3 rows
//	rtx4090   75+90+56.40+30.08+18.80+1200 = ¥1470.28, 344 card-h
//	a100-80g  100+240+40 = ¥380.00, 76 card-h
//	h100-sxm  1600+800 = ¥2400.00, 120 card-h
//	autodl    ¥1610.28, 372 card-h;  aliyun ¥2640.00, 168 card-h
//	monthly   ¥1200.00, 200 card-h; spot ¥240.00, 48 card-h; on_demand ¥2810.28, 292 card-h
//
// October 2026 (lines 13–27 less line 26, 14 rows); line 26 has hours "abc"
// and is reported, not imported:
//
//	13 llm-ft   rtx4090  1×50   =  50   ¥94.00    autodl on_demand
//	14 llm-ft   rtx4090  2×30   =  60   ¥112.80   autodl on_demand
//	15 pretrain a100-80g 4×6    =  24   ¥120.00   aliyun spot
//	16 aigc     rtx4090  1×200  = 200   ¥1200.00  autodl monthly
//	17 aigc     a100-80g 1×16   =  16   ¥80.00    autodl on_demand
//	18 pretrain h100-sxm 8×20   = 160   ¥3200.00  aliyun on_demand
//	19 pretrain h100-sxm 2×10   =  20   $50.00    aliyun on_demand (the USD row)
//	20 pretrain a100-80g 4×24   =  96   ¥480.00   aliyun spot
//	21 llm-ft   a100-80g 2×10   =  20   ¥100.00   autodl on_demand
//	22 aigc     rtx4090  1×12   =  12   ¥22.56    autodl on_demand
//	23 llm-ft   rtx4090  1×36.5 =  36.5 ¥68.62    autodl on_demand
//	24 pretrain h100-sxm 8×12.5 = 100   ¥2000.00  aliyun on_demand
//	25 aigc     a100-80g 1×6    =   6   ¥30.00    autodl on_demand
//	27 llm-ft   rtx4090  1×4    =   4   ¥7.52     autodl on_demand (31 Oct 23:30 Shanghai)
//
//	total     CNY 94+112.80+120+1200+80+3200+480+100+22.56+68.62+2000+30+7.52 = ¥7515.50,
//	          USD $50.00 (never added to the CNY); card-h 804.5
//	llm-ft    94+112.80+100+68.62+7.52 = ¥382.94, 50+60+20+36.5+4 = 170.5 card-h, 5 rows
//	aigc      1200+80+22.56+30 = ¥1332.56, 200+16+12+6 = 234 card-h, 4 rows
//	pretrain  120+3200+480+2000 = ¥5800.00 and $50.00, 24+160+20+96+100 = 400 card-h, 5 rows
//	rtx4090   94+112.80+1200+22.56+68.62+7.52 = ¥1505.50, 362.5 card-h
//	a100-80g  120+80+480+100+30 = ¥810.00, 162 card-h
//	h100-sxm  3200+2000 = ¥5200.00 and $50.00, 280 card-h
//	autodl    ¥1715.50, 404.5 card-h;  aliyun ¥5800.00 and $50.00, 400 card-h
//	monthly   ¥1200.00, 200 card-h; spot ¥600.00, 120 card-h; on_demand ¥5715.50 and $50.00, 484.5 card-h
//	change    CNY 7515.50 − 4250.28 = +¥3265.22; USD +$50.00; card-h +264.5
//	with FX 1 USD = 7.2 CNY: 7515.50 + 50×7.2 = ¥7875.50 (September stays ¥4250.28)
func suiteSampleBill(t *testing.T, ns newStore) {
	ctx := context.Background()
	l, _ := newLedger(t, ns(t))
	tm := team(t)

	res := importSample(t, l, tm)
	if res.Rows != 26 || len(res.Added) != 25 || res.Duplicates != 0 || len(res.Errors) != 1 {
		t.Fatalf("Import(sample) rows, added, duplicates, errors = %d, %d, %d, %v; want 26, 25, 0, 1 error",
			res.Rows, len(res.Added), res.Duplicates, res.Errors)
	}
	if e := res.Errors[0]; e.Row != 26 || e.Column != "时长(小时)" || e.Value != "abc" {
		t.Errorf("row error = %+v (%v), want line 26, column 时长(小时), value abc", e, e)
	}
	if len(res.Ignored) != 0 {
		t.Errorf("Import ignored columns %v, want none", res.Ignored)
	}

	fx := &FX{To: knowledge.CNY, Rates: map[knowledge.Currency]float64{knowledge.USD: 7.2}}
	oct, err := l.Report(ctx, tm, Month{2026, time.October}, fx)
	if err != nil {
		t.Fatal(err)
	}
	sep, err := l.Report(ctx, tm, Month{2026, time.September}, nil)
	if err != nil {
		t.Fatal(err)
	}

	type row struct {
		Amount    Amounts
		CardHours float64
		Entries   int
	}
	totals := func(ts Totals) row { return row{ts.Amount, ts.CardHours, ts.Entries} }
	groups := func(gs []Group) map[string]row {
		out := map[string]row{}
		for _, g := range gs {
			if g.Entries > 0 {
				out[g.Key] = totals(g.Totals)
			}
		}
		return out
	}
	C, U := knowledge.CNY, knowledge.USD

	// September, from the table above.
	check(t, "Sep total", row{Amounts{C: 425028}, 540, 11}, totals(sep.Total))
	check(t, "Sep by project", map[string]row{
		"llm-ft":   {Amounts{C: 23508}, 112, 4},
		"aigc":     {Amounts{C: 137520}, 260, 4},
		"pretrain": {Amounts{C: 264000}, 168, 3},
	}, groups(sep.ByProject))
	check(t, "Sep by card", map[string]row{
		"rtx4090":  {Amounts{C: 147028}, 344, 6},
		"a100-80g": {Amounts{C: 38000}, 76, 3},
		"h100-sxm": {Amounts{C: 240000}, 120, 2},
	}, groups(sep.ByGPU))
	check(t, "Sep by platform", map[string]row{
		"autodl": {Amounts{C: 161028}, 372, 8},
		"aliyun": {Amounts{C: 264000}, 168, 3},
	}, groups(sep.ByPlatform))
	check(t, "Sep by billing", map[string]row{
		"on_demand": {Amounts{C: 281028}, 292, 9},
		"spot":      {Amounts{C: 24000}, 48, 1},
		"monthly":   {Amounts{C: 120000}, 200, 1},
	}, groups(sep.ByBilling))
	if sep.MostUsed != "rtx4090" {
		t.Errorf("Sep most used = %q, want rtx4090 (344 card-h)", sep.MostUsed)
	}

	// October, from the table above; USD kept apart.
	check(t, "Oct total", row{Amounts{C: 751550, U: 5000}, 804.5, 14}, totals(oct.Total))
	check(t, "Oct by project", map[string]row{
		"llm-ft":   {Amounts{C: 38294}, 170.5, 5},
		"aigc":     {Amounts{C: 133256}, 234, 4},
		"pretrain": {Amounts{C: 580000, U: 5000}, 400, 5},
	}, groups(oct.ByProject))
	check(t, "Oct by card", map[string]row{
		"rtx4090":  {Amounts{C: 150550}, 362.5, 6},
		"a100-80g": {Amounts{C: 81000}, 162, 5},
		"h100-sxm": {Amounts{C: 520000, U: 5000}, 280, 3},
	}, groups(oct.ByGPU))
	check(t, "Oct by platform", map[string]row{
		"autodl": {Amounts{C: 171550}, 404.5, 9},
		"aliyun": {Amounts{C: 580000, U: 5000}, 400, 5},
	}, groups(oct.ByPlatform))
	check(t, "Oct by billing", map[string]row{
		"on_demand": {Amounts{C: 571550, U: 5000}, 484.5, 11},
		"spot":      {Amounts{C: 60000}, 120, 2},
		"monthly":   {Amounts{C: 120000}, 200, 1},
	}, groups(oct.ByBilling))
	check(t, "Oct vs Sep", Amounts{C: 326522, U: 5000}, oct.Change())
	check(t, "Oct prev = Sep", totals(sep.Total), totals(oct.Prev))
	if oct.Total.Converted == nil || *oct.Total.Converted != cny(787550) {
		t.Errorf("Oct converted total = %v, want ¥7,875.50 (7515.50 + 50 × 7.2)", oct.Total.Converted)
	}
	if oct.Prev.Converted == nil || *oct.Prev.Converted != cny(425028) {
		t.Errorf("Oct prev converted = %v, want ¥4,250.28", oct.Prev.Converted)
	}
	if sep.Total.Converted != nil {
		t.Errorf("Sep without FX converted = %v, want none", sep.Total.Converted)
	}
	if oct.MostUsed != "rtx4090" {
		t.Errorf("Oct most used = %q, want rtx4090 (362.5 card-h)", oct.MostUsed)
	}
	// With FX, groups are ordered by converted spend: pretrain ¥5800 + $50×7.2,
	// aigc ¥1332.56, llm-ft ¥382.94.
	var order []string
	for _, g := range oct.ByProject {
		order = append(order, g.Key)
	}
	check(t, "Oct project order", []string{"pretrain", "aigc", "llm-ft"}, order)
	if g := oct.ByProject[0]; g.Converted == nil || *g.Converted != cny(616000) {
		t.Errorf("pretrain converted = %v, want ¥6,160.00 (5800 + 360)", g.Converted)
	}
	if s := oct.Total.Amount.String(); s != "¥7,515.50 + $50.00" {
		t.Errorf("Oct total String = %q", s)
	}

	// Usage over the 30 days before 2026-11-01 00:00 Shanghai, i.e. from
	// 2026-10-02 00:00: line 13 (1 Oct) falls out.
	//   rtx4090  60+200+12+36.5+4 = 312.5 card-h; most cards on one row 2 →
	//            312.5 ÷ (2 × 720) = 0.2170138…; ¥112.80+1200+22.56+68.62+7.52 = ¥1411.50
	//   h100-sxm 160+20+100 = 280 card-h; 8 cards → 280 ÷ 5760 = 0.0486111…
	//   a100-80g 24+16+96+20+6 = 162 card-h; 4 cards → 162 ÷ 2880 = 0.05625
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, l.Location())
	us, err := l.Usage(ctx, tm, now, nil)
	if err != nil {
		t.Fatal(err)
	}
	type urow struct {
		GPU       string
		CardHours float64
		Cards     int
		Util      float64
	}
	var gotU []urow
	for _, u := range us {
		gotU = append(gotU, urow{u.GPU, u.CardHours, u.Cards, math.Round(u.Utilisation*1e6) / 1e6})
	}
	check(t, "Usage last 30 days", []urow{
		{"rtx4090", 312.5, 2, 0.217014},
		{"h100-sxm", 280, 8, 0.048611},
		{"a100-80g", 162, 4, 0.05625},
	}, gotU)
	check(t, "rtx4090 30-day spend", Amounts{C: 141150}, us[0].Amount)
	check(t, "rtx4090 30-day card-h by billing", map[Billing]float64{Monthly: 200, OnDemand: 112.5}, us[0].ByBilling)
	// A known fleet of one 4090: 312.5 ÷ 720 = 0.4340277…
	us, _ = l.Usage(ctx, tm, now, map[string]int{"rtx4090": 1})
	if u := us[0]; u.Cards != 1 || !u.CardsGiven || math.Abs(u.Utilisation-312.5/720) > 1e-12 {
		t.Errorf("Usage with fleet rtx4090=1: %+v, want utilisation 312.5/720", u)
	}
	top, ok, err := l.MostUsedCard(ctx, tm, now)
	if err != nil || !ok || top.GPU != "rtx4090" {
		t.Errorf("MostUsedCard = %v, %v, %v; want rtx4090", top.GPU, ok, err)
	}

	// Importing the same file again adds nothing.
	again := importSample(t, l, tm)
	if len(again.Added) != 0 || again.Duplicates != 25 || len(again.Errors) != 1 {
		t.Errorf("re-import added, duplicates, errors = %d, %d, %d; want 0, 25, 1", len(again.Added), again.Duplicates, len(again.Errors))
	}
	// Nor do the same rows spelled differently in another file.
	same := "date,project,gpu,cards,hours,amount,currency,platform,billing,note\n" +
		"2026-09-02,LLM-FT,rtx4090,1,40h,75元,cny,autodl,on-demand,qwen-7b lora\n" +
		"2026-10-12,pretrain,h100-sxm,2,10,50,USD,Aliyun,on_demand,intl account\n" +
		"2026-10-12,pretrain,h100-sxm,2,10,50,USD,Aliyun,on_demand,a new row\n"
	res2, err := l.Import(ctx, tm, "UADMIN", strings.NewReader(same), "respelled.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(res2.Added) != 1 || res2.Duplicates != 2 || len(res2.Errors) != 0 {
		t.Errorf("respelled import added, duplicates, errors = %d, %d, %v; want 1, 2, none", len(res2.Added), res2.Duplicates, res2.Errors)
	}
	all, _ := l.List(ctx, tm, Month{}, "")
	if len(all) != 26 {
		t.Errorf("ledger holds %d entries after three imports, want 25 + 1", len(all))
	}
	// Imported rows are not on anyone's undo list.
	if _, err := l.Undo(ctx, tm, "UADMIN"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Undo after an import err = %v, want ErrNotFound", err)
	}
	// A deleted imported row stays deleted when the bill is imported again.
	if _, err := l.Delete(ctx, tm, res.Added[0].ID, "UADMIN", false); err != nil {
		t.Fatal(err)
	}
	if again := importSample(t, l, tm); len(again.Added) != 0 {
		t.Errorf("re-import after a delete added %d rows, want 0", len(again.Added))
	}
}

func check(t *testing.T, what string, want, got any) {
	t.Helper()
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s (-want +got):\n%s", what, d)
	}
}

// suiteConcurrentAdds races writers in one team: every add gets its own id
// and none is lost (WATCH retries).
func suiteConcurrentAdds(t *testing.T, ns newStore) {
	l, _ := newLedger(t, ns(t))
	tm := team(t)
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := l.Add(context.Background(), Entry{Team: tm, User: fmt.Sprintf("U%d", i%4), GPU: "4090", Hours: float64(i + 1), Amount: cny(200 * int64(i+1))})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent Add: %v", err)
		}
	}
	all, err := l.List(context.Background(), tm, Month{}, "")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range all {
		seen[e.ID] = true
	}
	if len(all) != n || len(seen) != n {
		t.Errorf("after %d concurrent adds: %d entries, %d distinct ids", n, len(all), len(seen))
	}
}

func readSample(t *testing.T) []byte {
	t.Helper()
	raw, err := os.ReadFile("testdata/sample_bill.csv")
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
