package recap

import (
	"testing"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/knowledge"
)

// A 包年 plan with no recorded hours this month wastes this month's share
// (¥36,000 ÷ 12 = ¥3,000), not the year's fee ("¥36,000 wasted"); a plan
// whose bill line has no hours (hours unknown) is never called idle: idle
// is only said from recorded usage.
func TestIdlePlansFromRecordedUsageOnly(t *testing.T) {
	n := names{kb: knowledge.MustShipped()}
	yearly := ledger.Entry{GPU: "h800", Cards: 8, Platform: "aliyun", Project: "pretrain", Billing: ledger.Monthly, TermMonths: 12,
		Amount: ledger.Money{Minor: 3600000, Currency: knowledge.CNY}, Kind: ledger.Spend}
	fs := idlePlans([]ledger.Entry{yearly}, n)
	if len(fs) != 1 || fs[0].Saving != 3000 {
		t.Errorf("idle 包年 plan: %+v; want one finding of ¥3,000.00", fs)
	}
	billed := yearly
	billed.HoursUnknown = true
	if fs := idlePlans([]ledger.Entry{billed}, n); len(fs) != 0 {
		t.Errorf("a plan with hours unknown was called idle: %+v", fs)
	}
}
