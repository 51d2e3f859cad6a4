package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/ledger"
)

// TestCorrectionInWords (#24 item 1): a correction in words edits the
// entry it means — the asker's last one, one named by id, one described
// by its platform — in place, never adding a second; undo restores it.
// The clock is 2026-10-20 (spendBot).
func TestCorrectionInWords(t *testing.T) {
	b, _ := spendBot(t)
	send := func(id, user, text string) Answer {
		return b.Answer(context.Background(), Message{ID: id, Text: text, Team: "T1", Channel: "C1", User: user})
	}
	e := send("m1", "U1", "/gpu spend add 40h 4090 @autodl ¥75 project=llm-ft").Result.(ledger.Entry)
	other := send("m2", "U1", "/gpu spend add 10h a100 @runpod $25 project=rag").Result.(ledger.Entry)
	// U2's entry is newer, but U1's "不对" means U1's own last entry.
	send("m3", "U2", "/gpu spend add 5h 4090 @autodl ¥9 project=x")

	fix := send("m4", "U1", "不对，金额是80元")
	got, ok := fix.Result.(ledger.Entry) // the last entry U1 wrote is the runpod one
	if !ok || got.ID != other.ID || got.Amount.String() != "¥80.00" || !strings.HasPrefix(fix.Text, "已修改 #"+other.ID) {
		t.Fatalf("不对，金额是80元: %+v %q; want #%s (U1's last) at ¥80.00, verdict first", got, fix.Text, other.ID)
	}
	// By id, in English; 4090 40 h → 50 h.
	en := send("m5", "U1", "actually #"+e.ID+" was 50 hours")
	if got := en.Result.(ledger.Entry); got.ID != e.ID || got.Hours != 50 || !strings.Contains(en.Text, "hours: 40 h → 50 h") {
		t.Errorf("by id: %+v %q", got, en.Text)
	}
	// Undo restores the last edit (the hours), then the one before.
	if u := send("m6", "U1", "/gpu spend undo"); !strings.Contains(u.Text, "Undid the edit of #"+e.ID) || u.Result.(ledger.Entry).Hours != 40 {
		t.Errorf("undo: %q", u.Text)
	}
	// Described by platform: dated September not October (2026-10-20 → 2026-09-20), amount $30.
	d := send("m7", "U1", "the runpod entry should be dated September not October, and the amount is $30")
	got = d.Result.(ledger.Entry)
	if got.ID != other.ID || got.At.Format("2006-01-02") != "2026-09-20" || got.Amount.String() != "$30.00" {
		t.Errorf("described: %+v %q; want #%s dated 2026-09-20, $30.00", got, d.Text, other.ID)
	}
	// A platform in Chinese, by id.
	p := send("m8", "U1", "change #"+e.ID+"'s platform to 火山引擎")
	if got := p.Result.(ledger.Entry); got.Platform != "volcengine" {
		t.Errorf("platform: %+v %q", got, p.Text)
	}
	// Nothing was added: October holds the two 4090 entries, September the runpod one.
	r := say(b, "U1", "/gpu spend report 2026-10").Result.(*ledger.Report)
	if r.Total.Entries != 2 {
		t.Errorf("October has %d entries after four corrections, want 2 (nothing added)", r.Total.Entries)
	}
	// An id that cannot be one is said, with what was read.
	if bad := send("m9", "U1", "change #abc's platform to 火山引擎"); !strings.Contains(bad.Text, "#abc") {
		t.Errorf("bad id: %q", bad.Text)
	}
}

// TestBudgetCheckWithTheirFigures (#24 item 6): a budget question with its
// own figures is answered with them, verdict first:
// 1,800 card-hours × ¥2.00 = ¥3,600.00 ≤ ¥5,000.00 → not over, 72 %, ¥1,400.00 left;
// 3,000 × ¥2.00 = ¥6,000.00 > ¥5,000.00 → over by ¥1,000.00.
// A budget given for the year is set against the ledger's year:
// ¥50,000 − (¥75 + ¥50) = ¥49,875.00 left.
func TestBudgetCheckWithTheirFigures(t *testing.T) {
	b, _ := spendBot(t)
	for text, want := range map[string]string{
		"组里每月预算5000 rmb，目前4090用了1800个卡时，按2块一小时算，是不是已经超了": "没有超：按你给的数，1,800 卡时 × ¥2.00 = ¥3,600.00，占每月预算 ¥5,000.00 的 72%，还剩 ¥1,400.00。",
		"组里每月预算5000 rmb，目前4090用了3000个卡时，按2块一小时算，是不是已经超了": "已经超了：按你给的数，3,000 卡时 × ¥2.00 = ¥6,000.00，占每月预算 ¥5,000.00 的 120%，超出 ¥1,000.00。",
	} {
		a := say(b, "U1", text)
		if head, _, _ := strings.Cut(a.Text, "\n"); head != want {
			t.Errorf("%s\n got %q\nwant %q", text, head, want)
		}
	}
	say(b, "U1", "/gpu spend add 40h 4090 @autodl ¥75")
	say(b, "U1", "/gpu spend add 20h 4090 @autodl ¥50")
	a := say(b, "U1", "我们组今年给了５万算力费，现在还剩多少啊")
	if head, _, _ := strings.Cut(a.Text, "\n"); head != "没有超：2026 的 ¥50,000.00 还剩 ¥49,875.00（账本里已花 ¥125.00，占 0%，2 条记录）。" {
		t.Errorf("year left: %q", a.Text)
	}
}

// TestDeletionInWords: "把10月那笔腾讯云 ¥52,000 删掉吧，重复记了" removes the
// entry it describes (platform, amount, month) — it was read as a new
// entry — and leaves the others; a description that matches nothing
// removes nothing and says so.
func TestDeletionInWords(t *testing.T) {
	b, _ := spendBot(t) // clock 2026-10-20
	say(b, "U1", "/gpu spend add 8x h20 @tencent-cloud ¥52000 包月 date=2026-10-01")
	dup := say(b, "U1", "/gpu spend add 8x h20 @tencent-cloud ¥52000 包月 date=2026-10-02 anyway").Result.(ledger.Entry)
	say(b, "U1", "/gpu spend add 40h 4090 @autodl ¥75 date=2026-10-05")
	a := say(b, "U1", "把10月那笔腾讯云 ¥52,000 删掉吧，重复记了。")
	if a.Err != "" || !strings.Contains(a.Text, "#"+dup.ID) {
		t.Fatalf("delete in words: %q (err %q), want #%s removed", a.Text, a.Err, dup.ID)
	}
	// ¥52,000 + ¥75 remain: ¥52,075.00 in 3 − 1 = 2 entries
	rep := say(b, "U1", "/gpu spend report 2026-10").Result.(*ledger.Report)
	if rep.Total.Entries != 2 || rep.Total.Amount.String() != "¥52,075.00" {
		t.Errorf("after the delete: %d entries, %s; want 2 and ¥52,075.00", rep.Total.Entries, rep.Total.Amount)
	}
	// "删掉刚才那笔": the asker's latest entry (the ¥75 AutoDL one)
	if a = say(b, "U1", "删掉刚才那笔。"); a.Err != "" || !strings.Contains(a.Text, "¥75.00") {
		t.Errorf("删掉刚才那笔: %q", a.Text)
	}
	if rep := say(b, "U1", "/gpu spend report 2026-10").Result.(*ledger.Report); rep.Total.Entries != 1 {
		t.Errorf("after removing the latest: %d entries, want 1", rep.Total.Entries)
	}
	a = say(b, "U1", "delete the lambda entry")
	if a.Err == "" || !strings.Contains(a.Text, "nothing was removed") {
		t.Errorf("no match: %q", a.Text)
	}
}
