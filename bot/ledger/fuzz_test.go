package ledger

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"testing"
	"unicode/utf8"
)

// FuzzImport feeds arbitrary bytes to the CSV import, on miniredis. It
// must never panic; a file it cannot read is an InputError (storage never
// fails here); every row it adds is a well-formed entry of the importing
// team; and importing the same bytes again adds nothing. Seeds:
// testdata/sample_bill.csv and testdata/fuzz/FuzzImport.
func FuzzImport(f *testing.F) {
	if raw, err := os.ReadFile("testdata/sample_bill.csv"); err == nil {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		l, _ := newLedger(t, miniStore(t))
		ctx := context.Background()
		const tm = "TFUZZ"
		res, err := l.Import(ctx, tm, "UADMIN", bytes.NewReader(raw), "fuzz.csv")
		if err != nil {
			var in *InputError
			if !errors.As(err, &in) {
				t.Fatalf("Import error %v is not an InputError", err)
			}
			return
		}
		if n := len(res.Added) + res.Duplicates; n > res.Rows {
			t.Fatalf("%d rows added or duplicate, but only %d read", n, res.Rows)
		}
		for _, e := range res.Added {
			switch {
			case e.Team != tm || e.User != "UADMIN" || e.ID == "" || e.ImportKey == "":
				t.Fatalf("entry %+v: wrong team, user or keys", e)
			case e.GPU == "" || e.Project == "" || e.Cards < 1:
				t.Fatalf("entry %+v: card, project or count missing", e)
			case !(e.Hours > 0) && !e.HoursUnknown || e.HoursUnknown && e.Hours != 0 || math.IsInf(e.Hours, 0):
				// a bill line with money and no hours is booked with hours
				// unknown (0), never with made-up hours
				t.Fatalf("entry %+v: hours %v", e, e.Hours)
			case e.Amount.Minor < 0:
				t.Fatalf("entry %+v: negative amount", e)
			case !utf8.ValidString(e.Note) || !utf8.ValidString(e.Project) || !utf8.ValidString(e.Platform):
				t.Fatalf("entry %+v: text is not UTF-8", e)
			}
			if _, err := l.Get(ctx, tm, e.ID); err != nil {
				t.Fatalf("added entry %s cannot be read back: %v", e.ID, err)
			}
		}
		again, err := l.Import(ctx, tm, "UADMIN", bytes.NewReader(raw), "fuzz.csv")
		if err != nil {
			t.Fatalf("second import of the same file: %v", err)
		}
		if len(again.Added) != 0 || again.Duplicates != len(res.Added)+res.Duplicates {
			t.Fatalf("second import added %d (duplicates %d); want 0 added, %d duplicates",
				len(again.Added), again.Duplicates, len(res.Added)+res.Duplicates)
		}
	})
}
