package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// TestSpendAddEntryForms: a space-grouped amount is read whole, a team is
// kept on the entry, an invoice without hours is booked with its hours
// marked unknown, and a dated entry is dated to the day (midnight), not
// stamped 12:00.
func TestSpendAddEntryForms(t *testing.T) {
	b, _ := spendBot(t)
	for _, c := range []struct {
		text  string
		check func(e ledger.Entry) string
	}{
		// ¥1 000 is a thousand yuan (100000 fen), not ¥1.00: 500 h on a
		// 4090 at ¥2.00 per card-hour.
		{"/gpu spend add 500h 4090 @autodl ¥1 000", func(e ledger.Entry) string {
			if e.Amount.Minor != 100000 {
				return "amount " + e.Amount.String() + ", want ¥1,000.00"
			}
			return ""
		}},
		{"/gpu spend add 40h 4090 @autodl ¥75 team=vision", func(e ledger.Entry) string {
			if e.CostCenter != "vision" {
				return "team " + e.CostCenter + ", want vision"
			}
			return ""
		}},
		{"/gpu spend add invoice ¥1800 a100 @autodl", func(e ledger.Entry) string {
			if !e.HoursUnknown || e.Hours != 0 || e.Amount.Minor != 180000 {
				return "want ¥1,800.00 with hours unknown"
			}
			return ""
		}},
		{"/gpu spend add 10h 4090 @autodl ¥20 date=2026-10-19", func(e ledger.Entry) string {
			if e.At.Format("2006-01-02 15:04") != "2026-10-19 00:00" {
				return "dated " + e.At.Format("2006-01-02 15:04") + ", want 2026-10-19 00:00"
			}
			return ""
		}},
	} {
		a := say(b, "U1", c.text)
		e, ok := a.Result.(ledger.Entry)
		if a.Err != "" || !ok {
			t.Errorf("%s: not saved: %q", c.text, a.Text)
			continue
		}
		if msg := c.check(e); msg != "" {
			t.Errorf("%s: %s (%s)", c.text, msg, a.Text)
		}
	}
	if a := say(b, "U1", "/gpu spend add invoice ¥2400 h100 @autodl"); !strings.Contains(a.Text, "hours unknown") {
		t.Errorf("the reply does not say the hours are unknown: %q", a.Text)
	}
}

// TestSpendRepeatIsAsked: the same entry sent again as a new message is
// not booked twice: the reply names the entry it repeats and asks; with
// "anyway" it is booked. A redelivery of the first message (same id) is a
// replay, not a repeat.
func TestSpendRepeatIsAsked(t *testing.T) {
	b, _ := spendBot(t)
	send := func(id, text string) Answer {
		return b.Answer(context.Background(), Message{ID: id, Text: text, Team: "T1", Channel: "C1", User: "U1"})
	}
	first := send("m1", "/gpu spend add 40h 4090 @autodl ¥75 project=llm-ft")
	e, ok := first.Result.(ledger.Entry)
	if !ok || first.Err != "" {
		t.Fatalf("first: %q", first.Text)
	}
	if re := send("m1", "/gpu spend add 40h 4090 @autodl ¥75 project=llm-ft"); re.Err != "" || !strings.Contains(re.Text, "delivered twice") {
		t.Errorf("redelivery of m1: err %q text %q; want a replay", re.Err, re.Text)
	}
	second := send("m2", "/gpu spend add 40h 4090 @autodl ¥75 project=llm-ft")
	if second.Err != "repeat" || !strings.Contains(second.Text, "#"+e.ID) || !strings.Contains(second.Text, "add anyway?") {
		t.Errorf("second message: err %q text %q; want it to name #%s and ask", second.Err, second.Text, e.ID)
	}
	third := send("m3", "/gpu spend add 40h 4090 @autodl ¥75 project=llm-ft anyway")
	if third.Err != "" || !strings.Contains(third.Text, "Saved #") {
		t.Errorf("with anyway: err %q text %q; want it saved", third.Err, third.Text)
	}
	r := say(b, "U1", "/gpu spend report 2026-10")
	rep := r.Result.(*ledger.Report)
	// Two entries of ¥75: the first and the one sent with "anyway".
	if rep.Total.Entries != 2 || rep.Total.Amount.Money("CNY").Minor != 15000 {
		t.Errorf("October: %d entries, %s; want 2, ¥150.00", rep.Total.Entries, rep.Total.Amount)
	}
}

// TestSpendEditExport: spend edit changes an entry in place and says what
// changed; spend undo restores it; spend export lists the month as CSV.
func TestSpendEditExport(t *testing.T) {
	b, _ := spendBot(t)
	a := say(b, "U1", "/gpu spend add 40h 4090 @autodl ¥75 project=llm-ft")
	e := a.Result.(ledger.Entry)
	ed := say(b, "U1", "/gpu spend edit "+e.ID+" amount=¥80 team=vision")
	after, ok := ed.Result.(ledger.Entry)
	if ed.Err != "" || !ok || after.ID != e.ID || after.Amount.Minor != 8000 || after.CostCenter != "vision" {
		t.Fatalf("edit: err %q text %q", ed.Err, ed.Text)
	}
	if !strings.Contains(ed.Text, "amount: ¥75.00 → ¥80.00") {
		t.Errorf("edit reply does not say what changed: %q", ed.Text)
	}
	ex := say(b, "U1", "/gpu spend export 2026-10")
	out, ok := ex.Result.(SpendExport)
	if !ok || out.Entries != 1 || !strings.Contains(out.CSV, ",80.00,CNY,") || !strings.Contains(out.CSV, ",vision,") {
		t.Errorf("export: %+v (%q)", out, ex.Text)
	}
	u := say(b, "U1", "/gpu spend undo")
	if back, ok := u.Result.(ledger.Entry); !ok || back.Amount.Minor != 7500 || !strings.Contains(u.Text, "Undid the edit") {
		t.Errorf("undo after edit: %q", u.Text)
	}
}

// TestSpendReportUsesTheTeamsFX: with the team's currency=CNY fx=7.15, an
// English report of a USD month is converted to yuan at 7.15 and says so:
// $100.00 × 7.15 = ¥715.00.
func TestSpendReportUsesTheTeamsFX(t *testing.T) {
	st, err := store.OpenEmbedded(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := func() time.Time { return time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC) }
	kb := knowledge.MustShipped()
	l := ledger.New(st, ledger.Options{KB: kb, Now: now})
	b := New(Config{FX: 7.2}, kb, nil)
	sp := NewSpend(l, nil, 7.2, now)
	sp.UseTeamFX(func(context.Context, string) (knowledge.Currency, float64) { return knowledge.CNY, 7.15 })
	b.Route(parse.Spend, sp)
	say(b, "U1", "/gpu spend add 3x h100 8h lambda $100 project=pretrain")
	r := say(b, "U1", "/gpu spend report 2026-10")
	rep := r.Result.(*ledger.Report)
	if rep.Total.Converted == nil || *rep.Total.Converted != (ledger.Money{Minor: 71500, Currency: knowledge.CNY}) {
		t.Fatalf("converted total %+v, want ¥715.00", rep.Total.Converted)
	}
	if !strings.Contains(r.Text, "≈ ¥715.00") || !strings.Contains(r.Text, "7.15") {
		t.Errorf("the report does not give the converted total and its rate:\n%s", r.Text)
	}
}

// TestSpendReportFilters: spend report team= and gpu= (a family) keep only
// those entries: vision ¥75 + ¥20 = ¥95.00; gpu=a100 keeps the A100 40GB
// and the A100 80GB entries: ¥300 + ¥500 = ¥800.00.
func TestSpendReportFilters(t *testing.T) {
	b, _ := spendBot(t)
	for _, s := range []string{
		"/gpu spend add 40h 4090 @autodl ¥75 team=vision",
		"/gpu spend add 10h 4090 @autodl ¥20 team=vision",
		"/gpu spend add 100h 4090 @autodl ¥200 team=research",
		"/gpu spend add 100h a100-40g @autodl ¥300 team=research confirm",
		"/gpu spend add 100h a100 @autodl ¥500 team=research confirm",
	} {
		if a := say(b, "U1", s); a.Err != "" {
			t.Fatalf("%s: %q", s, a.Text)
		}
	}
	r := say(b, "U1", "/gpu spend report 2026-10 team=vision")
	if rep := r.Result.(*ledger.Report); rep.Total.Amount.Money("CNY").Minor != 9500 || !strings.Contains(r.Text, "team=vision") {
		t.Errorf("team=vision: %s\n%s", rep.Total.Amount, r.Text)
	}
	r = say(b, "U1", "/gpu spend report 2026-10 gpu=a100")
	if rep := r.Result.(*ledger.Report); rep.Total.Amount.Money("CNY").Minor != 80000 {
		t.Errorf("gpu=a100: %s, want ¥800.00\n%s", rep.Total.Amount, r.Text)
	}
}

// TestSpendWriteSaysTheBudgetAlert: a write's reply carries the budget
// alerts it made due; a redelivery (replay) does not repeat them.
func TestSpendWriteSaysTheBudgetAlert(t *testing.T) {
	st, err := store.OpenEmbedded(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := func() time.Time { return time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC) }
	kb := knowledge.MustShipped()
	b := New(Config{FX: 7.2}, kb, nil)
	sp := NewSpend(ledger.New(st, ledger.Options{KB: kb, Now: now}), nil, 7.2, now)
	sp.UseBudgetNotes(func(_ context.Context, team, lang string) []string {
		return []string{"⚠️ Budget alert: the team has spent ¥80.00 in 2026-10, past 80% of its ¥100.00 budget (80%)."}
	})
	b.Route(parse.Spend, sp)
	send := func(id string) Answer {
		return b.Answer(context.Background(), Message{ID: id, Text: "/gpu spend add 40h 4090 @autodl ¥75", Team: "T1", Channel: "C1", User: "U1"})
	}
	if a := send("m1"); !strings.Contains(a.Text, "past 80% of its ¥100.00 budget") {
		t.Errorf("write reply without the alert: %q", a.Text)
	}
	if a := send("m1"); strings.Contains(a.Text, "Budget alert") {
		t.Errorf("a replay repeated the alert: %q", a.Text)
	}
}
