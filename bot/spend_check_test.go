package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
)

// Each defect of the "silent changes" list, as a user types it.
// The clock is 2026-10-20 (spendBot).
func TestSpendRefusesWhatItCannotBookAsTyped(t *testing.T) {
	b, _ := spendBot(t)
	for _, c := range []struct{ text, want string }{
		{"/gpu spend add -30h 4090 ¥75", `"-30h"`},
		{"/gpu spend add 30h 4090 ¥-500", `"¥-500" makes no sense here; hours, cards, tokens and amounts are 0 or more`},
		{"/gpu spend add 30h 4090 -¥500", "spend refund ¥500"},
		{"/gpu spend add 10h 4090 ¥1850", "far above the catalogue's"}, // ¥185 a card-hour
		// What the parser's frames do not read: U+2212 minus, a sign before
		// the currency mark.
		{"/gpu spend add −30h 4090 ¥75", `"−30h": hours cannot be negative`},
		{"/gpu spend add 3x h100 8h lambda -$60", `"-$60": a spend amount cannot be negative`},
	} {
		a := say(b, "U1", c.text)
		if !strings.Contains(a.Text, c.want) {
			t.Errorf("%s\n got: %s\nwant: …%s…", c.text, a.Text, c.want)
		}
	}
	r := say(b, "U1", "/gpu spend report 2026-10")
	if rep := r.Result.(*ledger.Report); rep.Total.Entries != 0 {
		t.Errorf("refused entries were booked: %d entries", rep.Total.Entries)
	}
	// A month with no day is the entry's period: dated to its first day,
	// and the answer says the date (it was refused before, and a finance
	// team's invoices come by the month).
	if a := say(b, "U1", "记一笔 9月 4090 20小时 ¥50"); !strings.Contains(a.Text, "2026-09-01") || a.Err != "" {
		t.Errorf("9月: %s, want the entry dated 2026-09-01", a.Text)
	}
	if r := say(b, "U1", "/gpu spend report 2026-09"); r.Result.(*ledger.Report).Total.Amount.String() != "¥50.00" {
		t.Errorf("September report: %s, want the ¥50.00 entry", r.Text)
	}
	// A chat entry lands on the day the user named (the parser reads
	// 昨天 against the bot's clock, 2026-10-20).
	if a := say(b, "U1", "记一笔 昨天 4090 跑了 20 小时 50 块"); !strings.Contains(a.Text, "2026-10-19") {
		t.Errorf("昨天: %s, want the entry on 2026-10-19", a.Text)
	}
	// Confirmed, the unusual price is booked as typed.
	if a := say(b, "U1", "/gpu spend add 10h 4090 ¥1850 confirm"); !strings.Contains(a.Text, "¥1,850.00") {
		t.Errorf("confirmed price: %s", a.Text)
	}
}

// A refund is its own entry: negative, no card-hours, netted in the total.
// Hand sums: ¥750 spent (40 h × ¥18.75… typed as ¥750) − ¥500 back = ¥250;
// card-hours stay 40.
func TestSpendRefund(t *testing.T) {
	b, _ := spendBot(t)
	say(b, "U1", "/gpu spend add 40h 4090 ¥75 project=llm-ft")
	a := say(b, "U1", "/gpu spend refund ¥50 project=llm-ft")
	if !strings.Contains(a.Text, "Saved refund") || !strings.Contains(a.Text, "-¥50.00") {
		t.Fatalf("refund reply: %s", a.Text)
	}
	r := say(b, "U1", "/gpu spend report 2026-10")
	rep := r.Result.(*ledger.Report)
	if got := rep.Total.Amount.String(); got != "¥25.00" || rep.Total.CardHours != 40 {
		t.Errorf("after a refund: %s, %v card-h; want ¥25.00 (¥75 − ¥50), 40", got, rep.Total.CardHours)
	}
	if got := rep.Total.Refunds.String(); got != "-¥50.00" {
		t.Errorf("refunds = %s, want -¥50.00", got)
	}
}

// Slots.Date (filled by the parser from date=, 昨天, 11月3日) decides the
// day and so the month; a future date is refused.
func TestSpendHonoursDate(t *testing.T) {
	b, _ := spendBot(t)
	sp := b.handler(parse.Spend).(*Spend)
	add := func(date string) Answer {
		a := Answer{Lang: "en", Assumed: map[string]any{}}
		req := parse.Request{Intent: parse.Spend, Slots: parse.Slots{Mode: "add", GPUs: []string{"rtx4090"}, Hours: 20,
			Amount: &parse.Money{Amount: 40, Currency: "CNY"}, Date: date}}
		if err := sp.Handle(context.Background(), Message{Team: "T1", User: "U1", Text: "spend add"}, req, &a); err != nil {
			a.Text = err.Error()
		}
		return a
	}
	if a := add("2026-09-30"); !strings.Contains(a.Text, "booked to 2026-09") {
		t.Errorf("dated entry: %s", a.Text)
	}
	if a := add("2026-10-21"); !strings.Contains(a.Text, "2026-10-21 is in the future") {
		t.Errorf("tomorrow's entry: %s", a.Text)
	}
}

// 上个月 and 11月 name months (they were '"last" is not a month').
func TestSpendReportRelativeMonths(t *testing.T) {
	b, _ := spendBot(t)
	for text, want := range map[string]string{
		"/gpu spend report 上个月": "2026-09",
		"上个月花了多少":               "2026-09",
		"/gpu spend report 9月":  "2026-09",
	} {
		a := say(b, "U1", text)
		rep, ok := a.Result.(*ledger.Report)
		if !ok || rep.Month.String() != want {
			t.Errorf("%s → %v (%s), want %s", text, a.Result, a.Text, want)
		}
	}
}

// "≈ $477.62" with no rate: a converted total names its rate, and the
// report splits billed, estimated and refunds.
func TestSpendReportStatesTheRate(t *testing.T) {
	b, _ := spendBot(t)
	say(b, "U1", "/gpu spend add 40h 4090 ¥75 project=llm-ft")
	say(b, "U1", "/gpu spend add 3x h100 8h lambda $60 project=pretrain")
	a := say(b, "U1", "/gpu spend report 2026-10")
	// ¥75 / 7.2 = $10.42; + $60 = $70.42.
	if !strings.Contains(a.Text, "¥75.00 + $60.00 ≈ $70.42 (at 7.2 CNY per USD)") || !strings.Contains(a.Text, "billed 0 · estimated ¥75.00 + $60.00 · refunds 0") {
		t.Errorf("report:\n%s", a.Text)
	}
}

// Entries are marked billed or estimated wherever they are listed.
func TestSpendListMarksBasis(t *testing.T) {
	b, _ := spendBot(t)
	say(b, "U1", "/gpu spend add 40h 4090 ¥75 project=llm-ft")
	say(b, "U1", "/gpu spend refund ¥20 project=llm-ft")
	a := say(b, "U1", "/gpu spend list 2026-10")
	if !strings.Contains(a.Text, "¥75.00 llm-ft (estimated)") || !strings.Contains(a.Text, "-¥20.00 llm-ft (refund)") {
		t.Errorf("list:\n%s", a.Text)
	}
}

// TestSpendReportTyped: a spend report's typed answer is its total, and a
// "went up?" question has its verdict: ¥50 in September, ¥50 + ¥30 = ¥80
// in October — up, so yes; an empty month against an empty one is no.
func TestSpendReportTyped(t *testing.T) {
	b, _ := spendBot(t)
	for _, e := range []string{"记一笔 9月 4090 20小时 ¥50", "记一笔 10月 4090 20小时 ¥50", "记一笔 10月 4090 10小时 ¥30"} {
		if a := say(b, "U1", e); a.Err != "" {
			t.Fatalf("%s: %s", e, a.Text)
		}
	}
	a := say(b, "U1", "10月一共花了多少？比9月涨了没有？")
	if a.Typed == nil || a.Typed.Asked != "spend" || a.Typed.Value == nil || *a.Typed.Value != 80 || a.Typed.Verdict == nil || *a.Typed.Verdict != "yes" {
		t.Errorf("typed %+v (%s), want spend ¥80 with yes", a.Typed, a.Text)
	}
	a = say(b, "U1", "7月一共花了多少？比6月涨了没有？")
	if a.Typed == nil || a.Typed.Value == nil || *a.Typed.Value != 0 || a.Typed.Verdict == nil || *a.Typed.Verdict != "no" {
		t.Errorf("empty July typed %+v (%s), want 0 with no", a.Typed, a.Text)
	}
}
