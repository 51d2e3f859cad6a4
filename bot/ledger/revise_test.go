package ledger

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/knowledge"
)

// TestCorrectedBillWithoutLineIDs (#24 item 5, #28 item 8): a corrected
// bill without line ids replaces the lines it corrects — hours, day or
// project changed — instead of booking them beside the old ones.
//
// Bill A (autodl): a1 11-03 4090 40 h ¥75.20 llm; a2 11-10 4090 ×2 24 h ¥90.24 llm;
// a3 11-12 A100 10 h ¥30.00 rag; a4 11-20 4090 5 h ¥9.40 llm; a5 11-15 4090 8 h ¥15.04 llm.
// Bill B corrects it: a1 → 44 h ¥82.72 (same day), a2 → dated 11-11 (same
// amount), a3 → project vision (same day, amount), a5 as it was, a4 gone,
// and a new H100 2 h ¥40.00 on 11-25.
// After B: 82.72 + 90.24 + 30.00 + 9.40 (a4, still booked, listed) + 15.04 + 40.00 = ¥267.40
// (booking B beside A would give 75.20 + 90.24 + 30 + 9.40 + 15.04 + 82.72 + 90.24 + 30 + 40 = ¥462.84).
// Bill C, another export sharing no line, repeats the H100 line with 2.5 h:
// booked and flagged as a suspected duplicate of B's line: ¥267.40 + 40.00 = ¥307.40.
func TestCorrectedBillWithoutLineIDs(t *testing.T) {
	ctx := context.Background()
	l, clk := newLedger(t, miniStore(t))
	loc := l.Location()
	clk.Set(time.Date(2026, 12, 1, 10, 0, 0, 0, loc))
	tm := team(t)
	imp := func(name, csv string) *ImportResult {
		t.Helper()
		res, err := l.ImportWith(ctx, tm, "UADMIN", strings.NewReader(csv), name, ImportOptions{ConfirmPrices: true})
		if err != nil || len(res.Errors) != 0 {
			t.Fatalf("%s: %v %v", name, err, res.Errors)
		}
		return res
	}
	const head = "date,gpu,cards,hours,amount,platform,project\n"
	a := imp("a.csv", head+
		"2026-11-03,4090,1,40,¥75.20,autodl,llm\n"+
		"2026-11-10,4090,2,24,¥90.24,autodl,llm\n"+
		"2026-11-12,a100,1,10,¥30.00,autodl,rag\n"+
		"2026-11-20,4090,1,5,¥9.40,autodl,llm\n"+
		"2026-11-15,4090,1,8,¥15.04,autodl,llm\n")
	if len(a.Added) != 5 {
		t.Fatalf("bill A added %d, want 5", len(a.Added))
	}
	b := imp("b.csv", head+
		"2026-11-03,4090,1,44,¥82.72,autodl,llm\n"+
		"2026-11-11,4090,2,24,¥90.24,autodl,llm\n"+
		"2026-11-12,a100,1,10,¥30.00,autodl,vision\n"+
		"2026-11-15,4090,1,8,¥15.04,autodl,llm\n"+
		"2026-11-25,h100,1,2,¥40.00,autodl,llm\n")
	var replaced []string
	for _, r := range b.Replaced {
		replaced = append(replaced, r.Old.ID+"→"+r.New.Amount.String()+" "+r.New.At.Format("01-02")+" "+r.New.Project)
	}
	check(t, "replaced", []string{
		a.Added[0].ID + "→¥82.72 11-03 llm",
		a.Added[1].ID + "→¥90.24 11-11 llm",
		a.Added[2].ID + "→¥30.00 11-12 vision",
	}, replaced)
	if len(b.Added) != 1 || b.Added[0].GPU != "h100-sxm" || b.Unchanged != 1 {
		t.Errorf("bill B: added %+v, unchanged %d; want the H100 line and 1 unchanged", ids(b.Added), b.Unchanged)
	}
	check(t, "missing from the correction", []string{a.Added[3].ID}, ids(b.Missing))
	nov := Month{2026, time.November}
	r, err := l.Report(ctx, tm, nov, nil)
	if err != nil {
		t.Fatal(err)
	}
	check(t, "November after the correction", Amounts{knowledge.CNY: 26740}, r.Total.Amount)

	c := imp("c.csv", head+"2026-11-25,h100,1,2.5,¥40.00,autodl,llm\n")
	if len(c.Added) != 1 || len(c.Suspected) != 1 || c.Suspected[0].Chat.ID != b.Added[0].ID {
		t.Errorf("bill C: added %v, suspected %+v; want its line flagged against #%s", ids(c.Added), c.Suspected, b.Added[0].ID)
	}
	r, _ = l.Report(ctx, tm, nov, nil)
	check(t, "November after C", Amounts{knowledge.CNY: 30740}, r.Total.Amount)
	// Importing B again changes nothing.
	if again := imp("b.csv", head+
		"2026-11-03,4090,1,44,¥82.72,autodl,llm\n"+
		"2026-11-11,4090,2,24,¥90.24,autodl,llm\n"+
		"2026-11-12,a100,1,10,¥30.00,autodl,vision\n"+
		"2026-11-15,4090,1,8,¥15.04,autodl,llm\n"+
		"2026-11-25,h100,1,2,¥40.00,autodl,llm\n"); len(again.Added)+len(again.Changed) != 0 {
		t.Errorf("B again: added %d, changed %d; want nothing", len(again.Added), len(again.Changed))
	}
}
