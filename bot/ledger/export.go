package ledger

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"time"
)

// ExportColumns is the header of Export: one row per entry, amounts as
// plain decimals in their own currency.
var ExportColumns = []string{"id", "date", "project", "team", "platform", "gpu", "cards", "hours", "hours_unknown",
	"card_hours", "amount", "currency", "kind", "category", "billing", "basis", "superseded_by", "source", "user", "note"}

// Export writes entries as CSV (ExportColumns), in loc's dates. Every text
// cell is made formula-safe: a cell a spreadsheet would run as a formula
// (starting with =, +, -, @, a tab or a carriage return) gets a leading
// apostrophe, as OWASP's CSV-injection guidance says; numbers are written
// by the ledger itself and stay numbers. Superseded entries are listed
// (basis "superseded") so the file shows what a bill replaced; they are in
// no total.
func Export(w io.Writer, es []Entry, loc *time.Location) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(ExportColumns); err != nil {
		return err
	}
	for _, e := range es {
		amount, cur := "", ""
		if e.Priced() {
			amount, cur = e.Amount.Decimal(), string(e.Amount.Currency)
		}
		basis := e.Basis()
		if e.SupersededBy != "" {
			basis = "superseded"
		}
		row := []string{
			SafeCell(e.ID), e.At.In(loc).Format("2006-01-02"), SafeCell(e.Project), SafeCell(e.CostCenter), SafeCell(e.Platform), SafeCell(e.GPU),
			strconv.Itoa(e.Cards), fmtNum(e.Hours), strconv.FormatBool(e.HoursUnknown), fmtNum(e.CardHours()),
			amount, cur, string(e.Kind), e.Category, string(e.Billing), basis, SafeCell(e.SupersededBy), SafeCell(e.Source), SafeCell(e.User), SafeCell(e.Note),
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// SafeCell defuses a text cell a spreadsheet would evaluate: "=HYPERLINK(…)"
// becomes "'=HYPERLINK(…)".
func SafeCell(s string) string {
	if s == "" {
		return s
	}
	if strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
