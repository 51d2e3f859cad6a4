package ledger

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Edit changes an entry in place (same id), checks it again, replays on
// the same key, is refused for another user's entry, and Undo restores the
// entry as it was.
func TestEditAndUndo(t *testing.T) {
	ctx := context.Background()
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	e := mustAdd(t, l, Entry{Team: tm, User: "U1", GPU: "4090", Hours: 40, Amount: cny(7500), Platform: "autodl", At: mustTime(t, "2026-10-20", l.Location())})
	before, after, err := l.Edit(ctx, tm, "#"+e.ID, "U1", false, "k1", map[string]string{"amount": "¥80", "platform": "火山引擎", "team": "Vision"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if before.Amount != cny(7500) || after.ID != e.ID || after.Amount != cny(8000) || after.Platform != "volcengine" || after.CostCenter != "vision" {
		t.Errorf("edit: before %s, after %+v; want ¥75.00 → ¥80.00 on volcengine (火山引擎, the platform id), team vision, id %s", before.Amount, after, e.ID)
	}
	// The same request again changes nothing more.
	if _, again, err := l.Edit(ctx, tm, e.ID, "U1", false, "k1", map[string]string{"amount": "¥90"}, false); err != nil || !again.Replayed || again.Amount != cny(8000) {
		t.Errorf("replayed edit: %+v, %v; want the first result replayed", again, err)
	}
	if _, _, err := l.Edit(ctx, tm, e.ID, "U2", false, "k2", map[string]string{"amount": "¥1"}, false); !errors.Is(err, ErrForbidden) {
		t.Errorf("another user's edit: %v, want ErrForbidden", err)
	}
	var in *InputError
	if _, _, err := l.Edit(ctx, tm, e.ID, "U1", false, "k3", map[string]string{"hours": "abc"}, false); !errors.As(err, &in) {
		t.Errorf("bad hours: %v, want an InputError", err)
	}
	r, _ := l.Report(ctx, tm, Month{2026, 10}, nil)
	if r.Total.Entries != 1 || r.Total.Amount[knowledge.CNY] != 8000 {
		t.Errorf("October after the edit: %d entries, %s; want 1, ¥80.00", r.Total.Entries, r.Total.Amount)
	}
	got, err := l.UndoOnce(ctx, tm, "U1", "u1")
	if err != nil || !got.Restored || got.Amount != cny(7500) || got.Platform != "autodl" {
		t.Fatalf("undo after edit: %+v, %v; want the entry restored to ¥75.00 on autodl", got, err)
	}
	r, _ = l.Report(ctx, tm, Month{2026, 10}, nil)
	if r.Total.Entries != 1 || r.Total.Amount[knowledge.CNY] != 7500 {
		t.Errorf("October after undo: %d entries, %s; want 1, ¥75.00", r.Total.Entries, r.Total.Amount)
	}
	// The next undo removes the entry itself.
	if gone, err := l.UndoOnce(ctx, tm, "U1", "u2"); err != nil || gone.Restored || gone.ID != e.ID {
		t.Errorf("second undo: %+v, %v; want #%s removed", gone, err, e.ID)
	}
}

// Export writes one row per entry; a note or project a spreadsheet would
// run as a formula is defused with a leading apostrophe, while a credit's
// negative amount stays a number.
func TestExportIsFormulaSafe(t *testing.T) {
	loc := Shanghai
	es := []Entry{
		{ID: "abc123", At: mustTime(t, "2026-11-03", loc), Project: "=cmd|' /C calc'!A0", GPU: "rtx4090", Cards: 1, Hours: 10, Amount: cny(2000), Kind: Spend, Billing: OnDemand, Source: SourceSlack, Note: "@SUM(A1:A9)"},
		{ID: "def456", At: mustTime(t, "2026-11-04", loc), Project: "ocr", Amount: cny(-12000), Kind: Refund, Source: "csv:0123456789ab", Note: "+1 credit"},
	}
	var b strings.Builder
	if err := Export(&b, es, loc); err != nil {
		t.Fatal(err)
	}
	want := strings.Join(ExportColumns, ",") + "\n" +
		`abc123,2026-11-03,'=cmd|' /C calc'!A0,,,rtx4090,1,10,false,10,20.00,CNY,spend,,on_demand,estimated,,slack,,'@SUM(A1:A9)` + "\n" +
		`def456,2026-11-04,ocr,,,,0,0,false,0,-120.00,CNY,refund,,,billed,,csv:0123456789ab,,'+1 credit` + "\n"
	check(t, "export", want, b.String())
}
