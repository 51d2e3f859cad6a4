package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/ledger"
)

// TestSpendCommitments (#24 item 4): the commitments list, asked as a
// command and in words in both languages, lists each plan with its term,
// dates, money and the card-hours used and idle — against hand values.
// The clock is 2026-10-20 12:00 UTC = 20:00 in Shanghai (spendBot).
//
//	8× H800 aliyun ¥36,000 包年 from 2026-10-01: renews 2027-10-01, ¥36,000 ÷ 12
//	  = ¥3,000.00 a month; paid for so far 8 × (19 days × 24 + 20 h = 476 h)
//	  = 3,808 card-h; used 8 × 100 h = 800 (the aliyun H800 hours logged on
//	  10-10; the 20 h run billed ¥3,000 on demand was paid for apart);
//	  idle 3,808 − 800 = 3,008 = 79 %.
//	2× A100 80GB autodl ¥7,000 包月 from 2026-10-05: renews 2026-11-05, in 16
//	  days (15 days 4 h, rounded up); paid for 2 × (15 × 24 + 20 = 380 h) =
//	  760 card-h; no usage recorded: unknown, not idle.
//	The 4090 on-demand run is no commitment. Neither renews by 2026-10-31.
func TestSpendCommitments(t *testing.T) {
	b, _ := spendBot(t)
	yr := say(b, "U1", "/gpu spend add 8x h800 @aliyun ¥36000 包年 date=2026-10-01").Result.(ledger.Entry)
	say(b, "U1", "/gpu spend add 8x h800 @aliyun 100h date=2026-10-10")      // hours logged, no charge of their own
	say(b, "U1", "/gpu spend add 8x h800 @aliyun 20h ¥3000 date=2026-10-12") // paid for apart: not on the plan
	mo := say(b, "U1", "/gpu spend add 2x a100 @autodl ¥7000 包月 date=2026-10-05").Result.(ledger.Entry)
	say(b, "U1", "/gpu spend add 40h 4090 @autodl ¥75 date=2026-10-12")

	wantEN := []string{
		"Commitments running on 2026-10-20: 2; renewing or ending by 2026-10-31: 0.",
		"• #" + mo.ID + " A100 80GB ×2 on AutoDL — 1 month (包月) from 2026-10-05, renews 2026-11-05 (in 16 days); billed ¥7,000.00 (estimated), ¥7,000.00 a month amortised; used unknown (no usage recorded on A100 80GB at AutoDL in the term, so not counted as idle) of 760 card-h paid for so far",
		"• #" + yr.ID + " H800 SXM ×8 on Alibaba Cloud — 12 months from 2026-10-01, renews 2027-10-01, month 1 of 12; billed ¥36,000.00 (estimated), ¥3,000.00 a month amortised; used 800 of 3,808 card-h paid for so far, idle 3,008 (79%)",
	}
	wantZH := []string{
		"2026-10-20 生效中的包年包月：2 项；其中 0 项在 2026-10-31 前到期或续费。",
		"• #" + mo.ID + " A100 80GB ×2，AutoDL 算力云，包月（1 个月），自 2026-10-05 起，2026-11-05 到期续费（还有 16 天）；账面 ¥7,000.00（估算），按月分摊 ¥7,000.00；已用未知（期限内没有 AutoDL 算力云 A100 80GB 的用量记录，不算闲置），至今已付 760 卡时",
		"• #" + yr.ID + " H800 SXM ×8，阿里云，12 个月，自 2026-10-01 起，2027-10-01 到期续费，第 1/12 个月；账面 ¥36,000.00（估算），按月分摊 ¥3,000.00；已用 800 卡时，至今已付 3,808 卡时，闲置 3,008 卡时（79%）",
	}
	for text, want := range map[string][]string{
		"/gpu spend commitments":              wantEN,
		"list our commitments":                wantEN,
		"which reservations renew this month": wantEN,
		"我们有哪些包年包月":                           wantZH,
		"哪些包月快到期了":                            wantZH,
	} {
		a := say(b, "U1", text)
		res, ok := a.Result.(SpendCommitments)
		if !ok || len(res.Commitments) != 2 {
			t.Errorf("%s: %T %q; want the commitments list", text, a.Result, a.Text)
			continue
		}
		// typed: 2 plans; ¥7,000 + ¥36,000 ÷ 12 = ¥10,000 a month amortised;
		// idle 3,808 − 800 = 3,008 card-h (the 包月 plan's usage is unknown)
		if ty := a.Typed; ty == nil || ty.Asked != "commitments" || ty.Value == nil || *ty.Value != 2 || len(ty.Also) != 2 ||
			*ty.Also[0].Value != 10000 || ty.Also[0].Currency != "CNY" || *ty.Also[1].Value != 3008 {
			t.Errorf("%s: typed %+v, want 2 commitments, ¥10,000 a month, 3,008 idle card-h", text, ty)
		}
		lines := strings.Split(a.Text, "\n")
		for i, w := range want {
			if i >= len(lines) || lines[i] != w {
				got := ""
				if i < len(lines) {
					got = lines[i]
				}
				t.Errorf("%s line %d\n got %q\nwant %q", text, i, got, w)
			}
		}
	}
	// Questions about commitments that are not the list stay what they are.
	for _, text := range []string{"包月划算吗", "is a 1-year reservation cheaper than on demand for h100", "AWS上H100一年期预留比按需"} {
		if _, ok := say(b, "U1", text).Result.(SpendCommitments); ok {
			t.Errorf("%s: answered with the commitments list", text)
		}
	}
}

// TestSpendCommitmentsNone: with nothing prepaid the list says so and how
// to book one, in the asker's language.
func TestSpendCommitmentsNone(t *testing.T) {
	b, _ := spendBot(t)
	say(b, "U1", "/gpu spend add 40h 4090 @autodl ¥75 date=2026-10-12")
	if a := say(b, "U1", "/gpu spend commitments"); !strings.HasPrefix(a.Text, "No commitments running on 2026-10-20") || !strings.Contains(a.Text, "包年") {
		t.Errorf("en: %q", a.Text)
	}
	if a := say(b, "U1", "我们有哪些包年包月"); !strings.HasPrefix(a.Text, "2026-10-20 没有生效中的包年包月") {
		t.Errorf("zh: %q", a.Text)
	}
}

// TestSpendReportByCardFamily (#24 item 7): a report filtered by a card
// family counts every variant, by a card only that card; in words the
// family named ("H100") is the family. Hand values: H100 SXM $20 + H100
// PCIe $15 = $35.00 in 2 entries, 20 card-h; PCIe alone $15.00; the A100
// and 4090 runs never count.
func TestSpendReportByCardFamily(t *testing.T) {
	b, _ := spendBot(t)
	for _, text := range []string{"/gpu spend add 10h h100 @runpod $20", "/gpu spend add 10h h100-pcie @lambda $15",
		"/gpu spend add 10h a100 @runpod $10", "/gpu spend add 40h 4090 @autodl ¥75"} {
		if a := say(b, "U1", text); a.Err != "" {
			t.Fatalf("%s: %q", text, a.Text)
		}
	}
	for text, want := range map[string][3]int64{ // USD cents, entries, card-h
		"/gpu spend report gpu=H100":                {3500, 2, 20},
		"/gpu spend report gpu=h100-pcie":           {1500, 1, 10},
		"H100 这个月花了多少":                              {3500, 2, 20},
		"what did we spend on H100 PCIe this month": {1500, 1, 10},
	} {
		a := say(b, "U1", text)
		r, ok := a.Result.(*ledger.Report)
		if !ok {
			t.Errorf("%s: %T %q", text, a.Result, a.Text)
			continue
		}
		if got := [3]int64{r.Total.Amount["USD"], int64(r.Total.Entries), int64(r.Total.CardHours)}; got != want || r.Total.Amount["CNY"] != 0 {
			t.Errorf("%s: got %v %v; want %v", text, got, r.Total.Amount, want)
		}
	}
}

// TestSpendAnswersNamePlatforms (#24 item 7): spend answers name a
// platform as every other answer does — the add reply, the list and the
// report's platform rows said "runpod" and "aliyun" — and the billing in
// words ("on demand", "预付 12 个月"; it said on_demand, monthly).
func TestSpendAnswersNamePlatforms(t *testing.T) {
	b, _ := spendBot(t)
	if a := say(b, "U1", "/gpu spend add 10h h100 @runpod $20"); !strings.Contains(a.Text, "10 h on RunPod,") || !strings.Contains(a.Text, ", on demand, dated") {
		t.Errorf("add: %q", a.Text)
	}
	if a := say(b, "U1", "/gpu spend add 8x h800 @aliyun ¥36000 包年"); !strings.Contains(a.Text, "平台 阿里云") || !strings.Contains(a.Text, "，预付 12 个月，") {
		t.Errorf("add (zh): %q", a.Text)
	}
	if a := say(b, "U1", "/gpu spend report"); !strings.Contains(a.Text, "\n• RunPod: $20.00") || !strings.Contains(a.Text, "\n• Alibaba Cloud: ¥36,000.00") {
		t.Errorf("report: %q", a.Text)
	}
	if a := say(b, "U1", "/gpu spend list"); !strings.Contains(a.Text, "H100 SXM ×1 10 h RunPod $20.00") {
		t.Errorf("list: %q", a.Text)
	}
}

// TestInvoiceWithoutACard (#24 item 1): an invoice gives an amount, a
// platform and a period; the card and hours may be unknown. It was
// refused ("name the card"). Booked as GPU spend with no card and hours
// unknown, its money counts and its hours do not: two invoices of ¥1,800
// (U2's, and U1's booked again after a delete) + the ¥75 4090 run =
// ¥3,675.00, 40 card-h (the 4090 run alone); team vision ¥1,800.00.
func TestInvoiceWithoutACard(t *testing.T) {
	b, _ := spendBot(t)
	en := say(b, "U1", "/gpu spend add invoice ¥1800 @volcengine team=vision")
	e, ok := en.Result.(ledger.Entry)
	if !ok || e.GPU != "" || !e.HoursUnknown || e.Amount.String() != "¥1,800.00" || e.CostCenter != "vision" ||
		!strings.HasPrefix(en.Text, "Saved #"+e.ID+": card not named, hours unknown on Volcano Engine, ¥1,800.00") {
		t.Fatalf("en: %+v %q", en.Result, en.Text)
	}
	zh := say(b, "U2", "记一笔：火山引擎发票 1800元")
	if z, ok := zh.Result.(ledger.Entry); !ok || z.GPU != "" || !z.HoursUnknown || !strings.Contains(zh.Text, "未写显卡，时长未知，平台 火山引擎，¥1,800.00") {
		t.Errorf("zh: %+v %q", zh.Result, zh.Text)
	}
	say(b, "U1", "/gpu spend delete "+e.ID)
	say(b, "U1", "/gpu spend add invoice ¥1800 @volcengine team=vision anyway")
	say(b, "U1", "/gpu spend add 40h 4090 @autodl ¥75")
	r := say(b, "U1", "/gpu spend report").Result.(*ledger.Report)
	if r.Total.Amount.String() != "¥3,675.00" || r.Total.CardHours != 40 {
		t.Errorf("report: %s, %v card-h; want ¥3,675.00 (1,800 × 2 + 75), 40 card-h", r.Total.Amount, r.Total.CardHours)
	}
	v := say(b, "U1", "/gpu spend report team=vision").Result.(*ledger.Report)
	if v.Total.Amount.String() != "¥1,800.00" || v.Total.Entries != 1 {
		t.Errorf("team vision: %s in %d entries; want ¥1,800.00 in 1", v.Total.Amount, v.Total.Entries)
	}
}

// TestTeamNamedInWords (#24 item 1): a hand entry's team said in words is
// kept (it was silently dropped): 研究组, 视觉团队, "for the vision team";
// "我们组" and "分两组" name no team.
func TestTeamNamedInWords(t *testing.T) {
	b, _ := spendBot(t)
	for text, want := range map[string]string{
		"40小时 4090 autodl 75元 研究组":                                "研究组",
		"视觉团队 8卡A100 跑了10小时 runpod 花了$250":                        "视觉团队",
		"/gpu spend add 10h a100 @runpod $25 for the vision team": "vision",
		"我们组 4090 5小时 autodl 10元":                                 "",
		"分两组跑 10h 4090 autodl ¥20":                                "",
		"/gpu spend add 3h 4090 @autodl ¥6 team=平台组":              "平台组",
	} {
		e, ok := say(b, "U1", text+" anyway").Result.(ledger.Entry)
		if !ok || e.CostCenter != want {
			t.Errorf("%s: team %q, want %q (%+v)", text, e.CostCenter, want, e)
		}
	}
}

// TestCompanyRollupInWords (#24 items 1 and 2, in Chinese): a repeat is
// asked about, not booked; 仍然记 books it; the company view splits by
// team. Hand values: 研究组 ¥75 × 2 = ¥150.00; 视觉组 $25.00; all at 7.2:
// 150 + 25 × 7.2 = ¥330.00, 40 × 2 + 10 = 90 card-h.
func TestCompanyRollupInWords(t *testing.T) {
	b, _ := spendBot(t)
	send := func(id, text string) Answer {
		return b.Answer(context.Background(), Message{ID: id, Text: text, Team: "T1", Channel: "C1", User: "U1"})
	}
	first := send("m1", "40小时 4090 autodl 75元 研究组").Result.(ledger.Entry)
	if again := send("m2", "40小时 4090 autodl 75元 研究组"); again.Err != "repeat" || !strings.HasPrefix(again.Text, "这条和 #"+first.ID) || !strings.Contains(again.Text, "这次没有保存") {
		t.Errorf("repeat: %q", again.Text)
	}
	if e, ok := send("m3", "40小时 4090 autodl 75元 研究组 仍然记").Result.(ledger.Entry); !ok || e.ID == first.ID || e.CostCenter != "研究组" {
		t.Errorf("仍然记: %+v", e)
	}
	send("m4", "10小时 a100 runpod 25美元 视觉组")
	a := send("m5", "各团队这个月花了多少")
	r, ok := a.Result.(*ledger.Report)
	if !ok || r.Total.Converted == nil || r.Total.Converted.String() != "¥330.00" || r.Total.CardHours != 90 {
		t.Fatalf("%T %q; want ¥330.00, 90 card-h", a.Result, a.Text)
	}
	for _, want := range []string{"按团队:\n• 视觉组: $25.00, 10 GPU-h", "• 研究组: ¥150.00, 80 GPU-h"} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("the company view lacks %q:\n%s", want, a.Text)
		}
	}
}

// TestBudgetLeftForACard (#24 item 6): what is left of a budget stated
// for a card family is read from that family's entries, not the whole
// ledger, and the hint sets the budget for the same cards and period.
// H100 SXM $20 + H100 PCIe $15 = $35.00 in 2 entries (the A100's $10 is
// not theirs): of $100, $65.00 left (35 %); of $30, over by $5.00 (117 %).
func TestBudgetLeftForACard(t *testing.T) {
	b, _ := spendBot(t)
	for _, text := range []string{"/gpu spend add 10h h100 @runpod $20", "/gpu spend add 10h h100-pcie @lambda $15", "/gpu spend add 10h a100 @runpod $10"} {
		say(b, "U1", text)
	}
	zh := say(b, "U1", "H100 每月预算100美元够吗")
	if head, rest, _ := strings.Cut(zh.Text, "\n"); head != "没有超：2026-10 H100 的 $100.00 还剩 $65.00（账本里已花 $35.00，占 35%，2 条记录）。" ||
		!strings.Contains(rest, "/gpu budget set gpu=h100 $100/month") || strings.Contains(rest, "未使用") {
		t.Errorf("zh: %q", zh.Text)
	}
	en := say(b, "U1", "H100 monthly budget $30, are we over?")
	if head, _, _ := strings.Cut(en.Text, "\n"); head != "Over budget: the $30.00 you were given for 2026-10 on H100, over by $5.00 (spent $35.00, 117%, 2 entries in the ledger)." {
		t.Errorf("en: %q", en.Text)
	}
}
