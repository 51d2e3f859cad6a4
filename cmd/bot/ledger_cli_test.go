package main

import (
	"testing"
	"time"
)

// TestCLICommitmentsAndCardBudgets (#24 items 4 and 6 from the command
// line): `bot ask` reaches the same ledger and budgets as Slack. A 包年
// of ¥36,000 booked today is ¥3,000.00 a month and renews a year from
// today; a 包月 of ¥7,000 from yesterday with 2 × 10 h logged on it (no
// amount of its own) has 20 card-h used. An H100 budget counts the SXM
// $20 and the PCIe $15: $35.00 of $20,000.00 (0 %).
func TestCLICommitmentsAndCardBudgets(t *testing.T) {
	c := newCLI(t)
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().In(loc)
	today, yesterday := now.Format("2006-01-02"), now.AddDate(0, 0, -1).Format("2006-01-02")
	for _, q := range []string{
		"/gpu spend add 8x h800 @aliyun ¥36000 包年",
		"/gpu spend add 2x a100 @autodl ¥7000 包月 date=" + yesterday,
		"/gpu spend add 2x a100 @autodl 10h date=" + yesterday,
		"/gpu spend add 10h h100 @runpod $20",
		"/gpu spend add 10h h100-pcie @lambda $15",
	} {
		contains(t, q, c.run("ask", q), "#")
	}
	renews := time.Date(now.Year()+1, now.Month(), now.Day(), 0, 0, 0, 0, loc).Format("2006-01-02") // the same day next year
	contains(t, "commitments", c.run("ask", "/gpu spend commitments"),
		"Commitments running on "+today+": 2;",
		"A100 80GB ×2 on AutoDL — 1 month (包月) from "+yesterday,
		"billed ¥7,000.00 (estimated), ¥7,000.00 a month amortised; used 20 of",
		"H800 SXM ×8 on Alibaba Cloud — 12 months from "+today+", renews "+renews,
		"¥3,000.00 a month amortised; used unknown")
	contains(t, "commitments in Chinese", c.run("ask", "哪些包月快到期了"), today+" 生效中的包年包月：2 项", "阿里云，12 个月")

	contains(t, "card budget", c.run("ask", "/gpu budget set gpu=H100 $20k/month"),
		"Budget set: H100 cards (H100 SXM, H100 PCIe), $20,000.00 a month.",
		"H100 cards (H100 SXM, H100 PCIe): $35.00 / $20,000.00 (0%)")
	contains(t, "card budget in Chinese", c.run("ask", "H100 每月预算3万美元"),
		"预算已设置：H100 系列显卡（H100 SXM、H100 PCIe），每月 $30,000.00。")
}
