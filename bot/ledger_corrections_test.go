package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/knowledge"
)

// seed books an amount-only entry of U1's on platform p, dated at (2026,
// Shanghai), as a Slack entry would be.
func seed(t *testing.T, l *ledger.Ledger, p string, amount float64, cur knowledge.Currency, mo time.Month, day int) ledger.Entry {
	t.Helper()
	e, err := l.Add(context.Background(), ledger.Entry{Team: "T1", User: "U1", Platform: p, HoursUnknown: true, Source: ledger.SourceSlack,
		At: time.Date(2026, mo, day, 12, 0, 0, 0, ledger.Shanghai), Amount: ledger.MoneyFromFloat(amount, cur), Confirm: true})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestCorrectionFindsTheEntrySaid (#22, writers cto-024/064/092,
// student-070, finance-007): a correction finds the entry by what the
// user says — the platform as typed, the amount it has now, the month it
// is in — changes only what they said, and says old → new. Each case has
// a decoy: the same platform with another amount or month, added later
// (so "the latest AWS entry" would be the wrong one). The clock is
// 2026-12-02 (paceBot).
func TestCorrectionFindsTheEntrySaid(t *testing.T) {
	b, l := paceBot(t)
	aws := seed(t, l, "aws", 320, knowledge.USD, 12, 1)
	seed(t, l, "aws", 500, knowledge.USD, 12, 1) // decoy: newer, another amount
	tcNov := seed(t, l, "腾讯云", 68000, knowledge.CNY, 11, 15)
	seed(t, l, "tencent", 68000, knowledge.CNY, 12, 1) // decoy: December
	hyNov := seed(t, l, "恒源云", 286, knowledge.CNY, 11, 10)
	seed(t, l, "恒源云", 286, knowledge.CNY, 12, 1) // decoy: this month
	autodl := seed(t, l, "autodl", 75, knowledge.CNY, 4, 10)
	vast := seed(t, l, "vast.ai", 386.40, knowledge.USD, 12, 1)

	for _, c := range []struct {
		text, id, want, show string
		check                func(ledger.Entry) bool
	}{
		// $320 → $230 on the $320 AWS entry, not the newer $500 one
		{"刚记的那笔AWS $320应该是$230，手抖打错了。", aws.ID, "$230.00", "$320.00 → $230.00", nil},
		// November's 腾讯云 ¥68,000 (6.8万) → ¥86,000 (8.6万); December's stays
		{"11月那笔腾讯云的6.8万录反了，改成8.6万。", tcNov.ID, "¥86,000.00", "¥68,000.00 → ¥86,000.00", nil},
		// last month (November) 恒源云 ¥286 → ¥268, a bare figure in the entry's own currency
		{"上个月那笔恒源云的记错了，是268不是286，帮我改一下", hyNov.ID, "¥268.00", "¥286.00 → ¥268.00", nil},
		// April → March, the same day: 2026-04-10 → 2026-03-10 (April is
		// beyond the 62-day window; the month said finds it); amount unchanged
		{"刚才那条AutoDL的记录月份写错了，应该是3月，不是4月。", autodl.ID, "¥75.00", "2026-04-10 → 2026-03-10", nil},
		// vast.ai = vastai: December 1 → November 1, $386.40 → $368.40
		{"the vast.ai entry should be dated November not December, and the amount is $368.40 — typo", vast.ID, "$368.40", "2026-12-01 → 2026-11-01", nil},
	} {
		a := askPace(t, b, c.text)
		got, ok := a.Result.(ledger.Entry)
		if !ok || got.ID != c.id || got.Amount.String() != c.want || !strings.Contains(a.Text, c.show) {
			t.Errorf("%s\n got %+v %q\nwant #%s at %s, saying %q", c.text, got, a.Text, c.id, c.want, c.show)
		}
	}
	// the decoys are untouched: December holds $500 + $230 ... by hand:
	// aws $230 (edited, still Dec 1) + $500, tencent ¥68,000, 恒源云 ¥286; vast moved out
	r := askPace(t, b, "/gpu spend report 2026-12").Result.(*ledger.Report)
	if got := r.Total.Amount.String(); got != "¥68,286.00 + $730.00" {
		t.Errorf("December after the corrections: %s, want ¥68,286.00 + $730.00 (decoys untouched)", got)
	}

	// nothing matches: said what was read, nothing changed
	a := askPace(t, b, "刚记的那笔AWS $999应该是$230")
	if a.Err == "" || !strings.Contains(a.Text, "aws") || !strings.Contains(a.Text, "$999") || !strings.Contains(a.Text, "没有修改") {
		t.Errorf("no match: %q (err %q); want what was read and that nothing changed", a.Text, a.Err)
	}
}

// TestDeletionOfADuplicateSaid (writers cto-137): "12月账里有两笔重复的阿里云
// 扣费，各2.3万，删掉其中一笔" removes one of the two ¥23,000 aliyun entries
// of December and leaves the other: ¥23,000 × 2 − ¥23,000 = ¥23,000.
func TestDeletionOfADuplicateSaid(t *testing.T) {
	b, l := paceBot(t)
	seed(t, l, "aliyun", 23000, knowledge.CNY, 12, 1)
	seed(t, l, "aliyun", 23000, knowledge.CNY, 12, 1)
	seed(t, l, "autodl", 23000, knowledge.CNY, 12, 1) // same amount, another platform
	a := askPace(t, b, "12月账里有两笔重复的阿里云扣费，各2.3万，删掉其中一笔。")
	if a.Err != "" || !strings.Contains(a.Text, "¥23,000.00") {
		t.Fatalf("delete: %q (err %q)", a.Text, a.Err)
	}
	r := askPace(t, b, "/gpu spend report 2026-12").Result.(*ledger.Report)
	if r.Total.Entries != 2 || r.Total.Amount.String() != "¥46,000.00" {
		t.Errorf("after: %d entries, %s; want 2, ¥46,000.00", r.Total.Entries, r.Total.Amount)
	}
	es, _ := l.List(context.Background(), "T1", ledger.Month{Year: 2026, Month: 12}, "")
	n := 0
	for _, e := range es {
		if e.Platform == "autodl" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the autodl entry of the same amount was removed")
	}
}

// TestCorrectionOfTheLatestByAmountSaid: "不对，是1800元不是18000元" names
// no platform or month, so it means the asker's latest entry even when
// that entry was booked at another figure (¥8,800 here): it is changed
// ¥8,800.00 → ¥1,800.00 and the answer says the booked figure differed.
// With a platform named, a wrong old figure changes nothing and the hint
// names the nearest entry.
func TestCorrectionOfTheLatestByAmountSaid(t *testing.T) {
	b, l := paceBot(t)
	e := seed(t, l, "volcengine", 8800, knowledge.CNY, 12, 1)
	a := askPace(t, b, "不对，是1800元不是18000元")
	got, ok := a.Result.(ledger.Entry)
	if !ok || got.ID != e.ID || !strings.Contains(a.Text, "¥8,800.00 → ¥1,800.00") || !strings.Contains(a.Text, "不是你说的") {
		t.Errorf("latest by amount: %+v %q", got, a.Text)
	}
	a = askPace(t, b, "火山引擎那笔记错了，是2000元不是9999元")
	if a.Err == "" || !strings.Contains(a.Text, "#"+e.ID) || !strings.Contains(a.Text, "9999") {
		t.Errorf("named platform, wrong old figure: %q; want nothing changed, the nearest entry #%s named", a.Text, e.ID)
	}
	if r := askPace(t, b, "/gpu spend report 2026-12").Result.(*ledger.Report); r.Total.Amount.String() != "¥1,800.00" {
		t.Errorf("after the refused correction: %s, want ¥1,800.00", r.Total.Amount)
	}
}
