package ledger

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpubot/gpubot/knowledge"
)

func importString(t *testing.T, l *Ledger, team, csv string) *ImportResult {
	t.Helper()
	res, err := l.Import(context.Background(), team, "UADMIN", strings.NewReader(csv), "bill.csv")
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	return res
}

func TestImportEnglishHeaderAndFields(t *testing.T) {
	l, _ := newLedger(t, miniStore(t))
	loc := l.Location()
	tm := team(t)
	csv := "Date,Project,GPU Model,GPU_Count,Duration,Cost,Currency,Provider,Billing Mode,Notes,Invoice No\n" +
		"2026-10-31T23:30,Vision Team,H100 SXM,8,62.5h,\"$1,234.50\",usd,Lambda Labs,spot,night run,INV-1\n"
	res := importString(t, l, tm, csv)
	if len(res.Added) != 1 || len(res.Errors) != 0 {
		t.Fatalf("added %d, errors %v", len(res.Added), res.Errors)
	}
	got := res.Added[0]
	want := Entry{ID: got.ID, Team: tm, Project: "vision-team", User: "UADMIN", Platform: "lambda", GPU: "h100-sxm",
		Cards: 8, Hours: 62.5, At: time.Date(2026, 10, 31, 23, 30, 0, 0, loc), Amount: usd(123450), Billing: Spot,
		Note: "night run", CreatedAt: got.CreatedAt, Source: "csv:" + res.FileHash, ImportKey: got.ImportKey, Line: got.Line, Kind: Spend}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("imported entry (-want +got):\n%s", d)
	}
	if len(res.FileHash) != 12 || len(got.ImportKey) != 32 {
		t.Errorf("file hash %q / import key %q have the wrong length", res.FileHash, got.ImportKey)
	}
	check(t, "ignored columns", []string{"Invoice No"}, res.Ignored)
	if MonthOf(got.At, loc) != (Month{2026, time.October}) {
		t.Errorf("23:30 on 31 Oct Shanghai booked to %v", MonthOf(got.At, loc))
	}
}

func TestImportRowErrors(t *testing.T) {
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	csv := "日期,项目,显卡,卡数,时长,金额,币种,平台,计费方式,备注\n" + // line 1
		"2026-10-01,a,4090,1,10,¥18.80,,autodl,按量,good\n" + // 2
		"10/01/2026,a,4090,1,10,¥18.80,,autodl,按量,\n" + // 3 ambiguous date
		"2026-10-02,a,rtx9090,1,10,¥18.80,,autodl,按量,\n" + // 4 unknown card
		"2026-10-02,a,4090,two,10,¥18.80,,autodl,按量,\n" + // 5 cards
		"2026-10-02,a,4090,1,-3,¥18.80,,autodl,按量,\n" + // 6 negative hours
		"2026-10-02,a,4090,1,10,$2.5/h,,autodl,按量,\n" + // 7 a rate, not a total
		"2026-10-02,a,4090,1,10,$50,CNY,autodl,按量,\n" + // 8 currency conflict
		"2026-10-02,a,4090,1,10,¥18.80,,autodl,barter,\n" + // 9 billing
		"2026-10-02,a,4090,1,10,¥1,600.00,,autodl,按量,\n" + // 10 unquoted thousands comma
		"2026-10-02,a,,1,10,¥18.80,,autodl,按量,\n" + // 11 no card
		"2026-10-02,a,4090,1,9000,¥18.80,,autodl,按量,\n" + // 12 a year of hours
		",a,4090,1,10,¥18.80,,autodl,按量,\n" + // 13 no date
		"2026-10-02,a,4090,1,10,-5,,autodl,按量,\n" + // 14 negative money
		"2026-10-02,a,4090,1,10,¥18.80,EUR?,autodl,按量,\n" + // 15 currency
		",,,,,,,,,\n" + // 16 blank: skipped, not an error
		"2026-10-03,b,A100,2,\"1,000\",,,,,\n" + // 17 good: thousands in hours, no amount
		"2026-10-03,a,4090,1,10,¥18.80,,autodl,按量\n" // 18 good: trailing field missing
	res := importString(t, l, tm, csv)
	type got struct {
		Row    int
		Column string
	}
	var rows []got
	for _, e := range res.Errors {
		rows = append(rows, got{e.Row, e.Column})
	}
	check(t, "row errors (row, column)", []got{
		{3, "日期"}, {4, "显卡"}, {5, "卡数"}, {6, "时长"}, {7, "金额"}, {8, "金额"}, {9, "计费方式"},
		{10, ""}, {11, "显卡"}, {12, "时长"}, {13, "日期"}, {15, "币种"},
	}, rows)
	for _, e := range res.Errors {
		if e.Reason == "" || !strings.HasPrefix(e.Error(), "row ") {
			t.Errorf("row error %+v reads %q", e, e.Error())
		}
	}
	if s := res.Errors[4].Error(); !strings.Contains(s, "rate") {
		t.Errorf("hourly-rate amount explained as %q", s)
	}
	if s := res.Errors[7].Error(); !strings.Contains(s, "row 10") || !strings.Contains(s, `"1,600.00"`) {
		t.Errorf("shifted row explained as %q", s)
	}
	// Rows 2, 14 (a negative amount: a credit of ¥5, netted), 17 and 18.
	if res.Rows != 16 || len(res.Added) != 4 {
		t.Errorf("rows %d, added %d; want 16 read (blank skipped), 4 added", res.Rows, len(res.Added))
	}
	for _, a := range res.Added {
		switch {
		case a.Project == "b" && (a.Hours != 1000 || a.Priced() || a.Cards != 2):
			t.Errorf("row 17 = %+v, want 2 cards, 1000 h, no amount", a)
		case a.IsRefund() && (a.Amount != cny(-500) || a.CardHours() != 0 || a.GPU != "rtx4090"):
			t.Errorf("row 14 = %+v, want a credit of -¥5.00 on the 4090, no card-hours", a)
		}
	}
}

func TestImportFormats(t *testing.T) {
	l, _ := newLedger(t, miniStore(t))
	loc := l.Location()
	tm := team(t)
	// Excel's UTF-8 BOM, semicolons, minutes, the currency in the amount
	// header, Chinese full-width yen and dates.
	csv := "\ufeff消费时间;显卡型号;显卡数量;使用时长(分钟);金额(元);平台;项目名称\n" +
		"2026年10月5日 14:00;4090;1;90;￥2.82;恒源云;Demo\n" +
		"2026.10.06;4090;1;30;1.00;AutoDL;demo\n"
	res := importString(t, l, tm, csv)
	if len(res.Errors) != 0 || len(res.Added) != 2 {
		t.Fatalf("errors %v, added %d", res.Errors, len(res.Added))
	}
	a, b := res.Added[0], res.Added[1]
	if a.Hours != 1.5 || a.Amount != cny(282) || a.Platform != "hengyuanyun" || a.Project != "demo" ||
		!a.At.Equal(time.Date(2026, 10, 5, 14, 0, 0, 0, loc)) {
		t.Errorf("first row = %+v", a)
	}
	if b.Hours != 0.5 || b.Amount != cny(100) || !b.At.Equal(time.Date(2026, 10, 6, 0, 0, 0, 0, loc)) {
		t.Errorf("second row = %+v", b)
	}

	// Start and end instead of date and hours; tabs; CRLF.
	csv = "start\tend\tgpu\tcards\tamount\r\n" + // Windows line ends
		"2026-10-07 22:00\t2026-10-08 01:30\ta100\t2\t$7\r\n"
	res = importString(t, l, tm, csv)
	if len(res.Errors) != 0 || len(res.Added) != 1 {
		t.Fatalf("start/end: errors %v, added %d", res.Errors, len(res.Added))
	}
	if e := res.Added[0]; e.Hours != 3.5 || e.CardHours() != 7 || e.Amount != usd(700) || !e.At.Equal(time.Date(2026, 10, 7, 22, 0, 0, 0, loc)) {
		t.Errorf("start/end row = %+v", e)
	}
}

func TestImportFileErrors(t *testing.T) {
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	for name, csv := range map[string]string{
		"empty":              "",
		"no gpu column":      "date,hours,amount\n2026-10-01,1,¥1\n",
		"no hours or amount": "date,gpu\n2026-10-01,4090\n",
		"no date":            "gpu,hours\n4090,1\n",
		"GBK, not UTF-8":     "\xc8\xd5\xc6\xda,\xcf\xd4\xbf\xa8\n", // 日期,显卡 in GBK
	} {
		_, err := l.Import(context.Background(), tm, "UADMIN", strings.NewReader(csv), "bill.csv")
		var in *InputError
		if !errors.As(err, &in) {
			t.Errorf("%s: Import err = %v, want an InputError", name, err)
		}
	}
	if all, _ := l.List(context.Background(), tm, Month{}, ""); len(all) != 0 {
		t.Errorf("rejected files added %d entries", len(all))
	}
}

// TestImportRepeatedRows: a bill that lists the same line twice books it
// once and lists the repeat (row 3 repeats row 2); importing it again adds
// nothing; KeepDuplicates books both.
func TestImportRepeatedRows(t *testing.T) {
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	csv := "date,gpu,hours,amount\n2026-10-01,4090,1,¥1.88\n2026-10-01,4090,1,¥1.88\n"
	first := importString(t, l, tm, csv)
	second := importString(t, l, tm, csv)
	if len(first.Added) != 1 || len(first.InFile) != 1 || first.InFile[0].Row != 3 || first.InFile[0].FirstRow != 2 {
		t.Errorf("first import added %d, in-file duplicates %+v; want 1 added, row 3 repeating row 2", len(first.Added), first.InFile)
	}
	if len(second.Added) != 0 || second.Duplicates != 1 {
		t.Errorf("second import added %d with %d unchanged; want 0, 1", len(second.Added), second.Duplicates)
	}
	// The same bill in another team is that team's own spend.
	other := importString(t, l, team(t), csv)
	if len(other.Added) != 1 {
		t.Errorf("another team's import added %d, want 1", len(other.Added))
	}
	// Told that both lines are real, the importer books the second too.
	res, err := l.ImportWith(context.Background(), tm, "UADMIN", strings.NewReader(csv), "bill.csv", ImportOptions{KeepDuplicates: true})
	if err != nil || len(res.Added) != 1 || res.Duplicates != 1 || len(res.InFile) != 0 {
		t.Errorf("KeepDuplicates: err %v, added %d, unchanged %d, flagged %d; want 1, 1, 0", err, len(res.Added), res.Duplicates, len(res.InFile))
	}
}

// TestImportUnclosedQuote: a stray quote swallows the rows after it; the
// import says so instead of booking a garbled row, and later rows still count.
func TestImportUnclosedQuote(t *testing.T) {
	l, _ := newLedger(t, miniStore(t))
	csv := "date,gpu,hours,amount,note\n" +
		"2026-10-01,4090,1,¥1.88,\"a note\n" + // 2: the quote never closes
		"2026-10-02,4090,1,¥1.88,second\n" +
		"2026-10-03,4090,1,¥1.88,third\n"
	res := importString(t, l, team(t), csv)
	if len(res.Errors) != 1 || res.Errors[0].Row != 2 || !strings.Contains(res.Errors[0].Reason, "lines 2–4") || len(res.Added) != 0 {
		t.Errorf("unclosed quote: errors %v, added %d", res.Errors, len(res.Added))
	}
	// A legitimate note over two lines is fine.
	res = importString(t, l, team(t), "date,gpu,hours,amount,note\n2026-10-01,4090,1,¥1.88,\"line one\nline two, still the note\"\n")
	if len(res.Errors) != 0 || len(res.Added) != 1 || res.Added[0].Note != "line one\nline two, still the note" {
		t.Errorf("multi-line note: errors %v, added %+v", res.Errors, res.Added)
	}
}

func TestImportDerivesMissingAmounts(t *testing.T) {
	price := func(_ context.Context, q PriceQuery) (Price, bool) {
		return Price{PerCardHour: 1.88, Currency: knowledge.CNY, Source: "test"}, q.GPU == "rtx4090"
	}
	l := New(miniStore(t), Options{KB: knowledge.MustShipped(), Location: shanghai(t), Price: price})
	res := importString(t, l, team(t), "date,gpu,hours\n2026-10-01,4090,10\n2026-10-01,h100,10\n")
	if len(res.Added) != 2 || res.Added[0].Amount != cny(1880) || res.Added[1].Priced() {
		t.Errorf("derived amounts: %+v", res.Added)
	}
}

// The defects of the issue, one row each: a decimal comma read as a
// thousands one (¥18,50 → ¥1,850, ¥185 a card-hour) and a bill dated in
// the future (2027-01-15 made a January 2027 recap). The clock is
// 2026-11-01.
func TestImportRefusesSilentChanges(t *testing.T) {
	l, _ := newLedger(t, miniStore(t))
	tm := team(t)
	res := importString(t, l, tm, "date,gpu,hours,amount\n"+
		"2026-10-03,4090,10,\"18,50\"\n"+ // ¥18.50 for 10 card-h: ¥1.85 a card-hour, in range
		"2026-10-04,4090,10,1850\n"+ // ¥185 a card-hour: 74× the catalogue's top
		"2027-01-15,4090,10,18\n") // in the future
	if len(res.Added) != 1 || res.Added[0].Amount != cny(1850) {
		t.Fatalf("added %+v, want one row of ¥18.50", res.Added)
	}
	if len(res.Errors) != 2 || !strings.Contains(res.Errors[0].Error(), "far above") || !strings.Contains(res.Errors[1].Error(), "2027-01-15 is in the future") {
		t.Errorf("row errors = %v, want the ¥1,850 row (price check) and the 2027 row (future)", res.Errors)
	}
	res, err := l.ImportWith(context.Background(), tm, "UADMIN", strings.NewReader("date,gpu,hours,amount\n2026-10-04,4090,10,1850\n"), "b.csv", ImportOptions{ConfirmPrices: true})
	if err != nil || len(res.Added) != 1 {
		t.Errorf("confirmed price: %+v, %v; want it booked", res, err)
	}
	// Semicolon files with decimal commas (European spreadsheets).
	res = importString(t, l, tm, "date;gpu;hours;amount\n2026-10-05;4090;10;18,50\n")
	if len(res.Added) != 1 || res.Added[0].Amount != cny(1850) {
		t.Errorf("semicolon file: %+v %v, want ¥18.50", res.Added, res.Errors)
	}
}

// TestBillDatesInRange: a date the layouts read but no bill carries
// ("0000.1", year 0; "3026-01-01") is refused with what was read.
func TestBillDatesInRange(t *testing.T) {
	for _, s := range []string{"0000.1", "1999-12-31", "3026-01-01"} {
		if _, err := parseWhen(s, Shanghai); err == nil || !strings.Contains(err.Error(), "between 2000 and 2100") {
			t.Errorf("parseWhen(%q) err %v, want a refusal naming the accepted years", s, err)
		}
	}
	if got, err := parseWhen("2026.10.31", Shanghai); err != nil || got.Year() != 2026 {
		t.Errorf("parseWhen(2026.10.31) = %v, %v", got, err)
	}
}
