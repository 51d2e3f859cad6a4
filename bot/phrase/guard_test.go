package phrase

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/parse/amount"
)

// guardFacts is a cost-and-fit answer's facts, numeric and text.
var guardFacts = []Fact{
	{Name: "memory_gb", Value: 41.13, Unit: "GB"},
	{Name: "price", Value: 1200, Unit: "CNY"},
	{Name: "total", Value: 12345.678, Unit: "CNY"},
	{Name: "hourly", Value: 2.5, Unit: "USD/h"},
	{Name: "low", Value: 1.8, Unit: "CNY/h"},
	{Name: "high", Value: 2.5, Unit: "CNY/h"},
	{Name: "breakeven_utilization", Value: 0.7, Unit: "ratio"},
	{Name: "params_b", Value: 13, Unit: "B"},
	{Name: "count", Value: 8},
	{Name: "seq_len", Value: 32768},
	{Name: "payback_months", Value: 14.2, Unit: "month"},
	{Name: "breakeven_hours_per_month", Value: 150, Unit: "h/month"},
	{Name: "spare_gb", Value: 10.79, Unit: "GB"},
	{Name: "overhead_gb", Value: 2.72, Unit: "GB"},
	{Name: "observed_at", Text: "2026-09-15"},
	{Name: "gpu", Text: "RTX 4090"},
	{Name: "gpu", Text: "H100 SXM"},
	{Name: "daily", Text: "posted at 09:30 Asia/Shanghai"},
}

func TestCheckFormats(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		reason string // "" means accepted; else the kind of the first reason
	}{
		// memory and rounding
		{"exact GB", "needs 41.13 GB", ""},
		{"rounded to one decimal", "needs 41.1 GB", ""},
		{"rounded to integer", "约 41 GB 显存", ""},
		{"not 42", "needs 42 GB", ReasonNumber},
		{"not 40: trailing zero is not rounding to tens", "needs 40 GB", ReasonNumber},
		{"10.79 may read 11", "11 GB spare", ""},
		{"2.72 may not read 3 (10% off)", "3 GB overhead", ReasonNumber},
		{"GiB converted", "about 38.3 GiB", ""},
		{"GB figure with GiB label is a unit change", "41.13 GiB", ReasonUnit},
		{"G alone", "41G", ""},
		{"bare number matches any unit", "41.13, mostly weights", ""},
		// money
		{"yen prefix", "¥1,200", ""},
		{"元 suffix", "1,200元", ""},
		{"spaced 元", "1200 元", ""},
		{"full-width", "１２００元", ""},
		{"Chinese numeral money", "一千二百元", ""},
		{"colloquial Chinese money", "一千二元", ""},
		{"k with 元", "1.2k 元", ""},
		{"万元 rounding of 12,345.68", "总价约 1.2万元", ""},
		{"万元 off by a thousand", "总价约 1.3万元", ReasonNumber},
		{"grouped with decimals", "¥12,345.68", ""},
		{"元 to $ swap", "$1,200", ReasonUnit},
		{"元 to 美元 swap", "1,200 美元", ReasonUnit},
		{"$ rate", "$2.5/h", ""},
		{"美元 rate", "2.5 美元/小时", ""},
		{"USD code", "USD 2.5 per hour", ""},
		{"rate with the wrong period", "$2.5/月", ReasonUnit},
		{"$ rate as ¥", "¥2.5/h", ""}, // 2.5 CNY/h is a fact too (the range's top)
		{"range", "1.8–2.5 元/小时", ""},
		{"range with a changed end", "1.8–2.6 元/小时", ReasonNumber},
		{"range with currency swap", "$1.8–2.5/h", ReasonUnit},
		// ratios
		{"percent", "70% utilisation", ""},
		{"七成", "利用率七成", ""},
		{"百分之七十", "利用率百分之七十", ""},
		{"fraction", "utilisation 0.7", ""},
		{"changed percent", "75% utilisation", ReasonNumber},
		{"七成 is not 八成", "八成", ReasonUnit}, // 8 is a fact, 0.8 is not
		// params, counts, context
		{"13B", "13B model", ""},
		{"130亿", "130亿参数", ""},
		{"13 billion", "13 billion parameters", ""},
		{"14B", "14B model", ReasonNumber},
		{"×8", "RTX 4090 ×8", ""},
		{"八卡", "八卡 RTX 4090", ""},
		{"8 张", "8 张 RTX 4090", ""},
		{"九张", "九张卡", ReasonNumber},
		{"spelled out", "eight cards", ""},
		{"spelled out, wrong", "nine cards", ReasonNumber},
		{"32k is 32,768", "32k context", ""},
		// time
		{"months", "回本 14.2 个月", ""},
		{"months rounded", "about 14 months to pay back", ""},
		{"months off", "15 months to pay back", ReasonNumber},
		{"hours per month", "150 h/月", ""},
		{"hours per month, Chinese", "每月 150 小时", ""},
		// dates and clocks
		{"date", "2026年9月的报价", ""},
		{"full date", "observed 2026-09-15", ""},
		{"English date", "Sep 2026 prices", ""},
		{"year", "2026 prices", ""},
		{"wrong year", "2025年的价格", ReasonDate},
		{"wrong day", "2026-09-16", ReasonDate},
		{"clock", "每天 09:30 推送", ""},
		{"wrong clock", "每天 10:30 推送", ReasonDate},
		// names
		{"card name", "RTX 4090", ""},
		{"card name without space", "RTX4090", ""},
		{"plural", "eight 4090s", ""},
		{"short name inside a longer one", "H100 is fine", ""},
		{"invented card", "H200 is better", ReasonName},
		{"A10 is not A100", "A10", ReasonName},
		// text that is not numbers
		{"list markers", "1. 先租\n2. 再包月", ""},
		{"ordinals and words", "第一步，统一采购，一些平台，之一", ""},
		{"mentions and emoji", "<@U12345> :+1: 13B", ""},
		{"empty", "  ", ReasonEmpty},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, reasons := Check(tt.text, guardFacts, nil)
			switch {
			case tt.reason == "" && !ok:
				t.Errorf("Check(%q) rejected: %v; tokens %s", tt.text, reasons, dump(extract(tt.text)))
			case tt.reason != "" && ok:
				t.Errorf("Check(%q) accepted, want a %s rejection; tokens %s", tt.text, tt.reason, dump(extract(tt.text)))
			case tt.reason != "" && reasonKind(reasons[0]) != tt.reason:
				t.Errorf("Check(%q) reasons %v, want first of kind %s", tt.text, reasons, tt.reason)
			}
		})
	}
}

func TestCheckEssential(t *testing.T) {
	essential := []Fact{{Name: "memory_gb", Value: 41.13, Unit: "GB"}, {Name: "total", Value: 12345.678, Unit: "CNY"}}
	tests := []struct {
		text string
		ok   bool
	}{
		{"41.13 GB, ¥12,346 in all", true},
		{"about 41 GB; about 1.2万元 in all", true},
		{"41.13 and 12,345.68", true}, // without units
		{"41.13 GB", false},
		{"weights are 13B × 2 bytes; ¥12,346", false},
		{"$12,346 and 41.13 GB", false}, // the wrong currency does not count
	}
	for _, tt := range tests {
		ok, reasons := Check(tt.text, guardFacts, essential)
		if ok != tt.ok {
			t.Errorf("Check(%q, essential) = %v %v, want %v", tt.text, ok, reasons, tt.ok)
		}
		if !tt.ok && !ok && !strings.Contains(strings.Join(reasons, ";"), ReasonEssential) && !strings.Contains(strings.Join(reasons, ";"), ReasonUnit) {
			t.Errorf("Check(%q, essential) reasons %v, want an essential or unit reason", tt.text, reasons)
		}
	}
}

func TestNear(t *testing.T) {
	tests := []struct {
		v, f, step float64
		want       bool
	}{
		{41.13, 41.13, 0.01, true},
		{41.1, 41.13, 0.1, true},
		{41, 41.13, 1, true},
		{42, 41.13, 1, false},
		{41.2, 41.13, 0.1, false}, // 41.13 rounds to 41.1
		{41.125, 41.125, 0.001, true},
		{41.13, 41.125, 0.01, true}, // half-way rounds either way
		{41.12, 41.125, 0.01, true},
		{0, 0, 1, true},
		{1, 0, 1, false},
		{3, 2.72, 1, false},       // within half a unit but 10% off
		{1000, 1449, 1000, false}, // "1k" for 1,449
	}
	for _, tt := range tests {
		if got := near(tt.v, tt.f, tt.step); got != tt.want {
			t.Errorf("near(%v, %v, step %v) = %v, want %v", tt.v, tt.f, tt.step, got, tt.want)
		}
	}
}

// TestCheckNumbersInWords: numbers spelled out, in English and Chinese,
// multipliers included, are checked like digits.
func TestCheckNumbersInWords(t *testing.T) {
	facts := []Fact{{Name: "memory_gb", Value: 41.13, Unit: "GB"}, {Name: "total", Value: 1200, Unit: "CNY"}, {Name: "gpus", Value: 2}}
	for _, tt := range []struct {
		text string
		ok   bool
	}{
		{"forty-one GB", true}, {"forty-two GB", false},
		{"四十一 GB", true}, {"四十二 GB", false},
		{"twelve hundred yuan", true}, {"thirteen hundred yuan", false},
		{"一千二百元", true}, {"一千三百元", false},
		{"two cards", true}, {"three cards", false}, {"三张卡", false}, {"两张卡", true},
		{"twice the price", true}, {"triple the price", false}, {"half the cards", false},
		{"翻倍", true}, {"一半的卡", false}, {"减半", false},
		{"double-check the platform", true}, {"half-precision weights", true},
	} {
		if ok, r := Check(tt.text, facts, nil); ok != tt.ok {
			t.Errorf("Check(%q) = %v (%v), want %v", tt.text, ok, r, tt.ok)
		}
	}
}

// TestCheckReadsNumbersLikeTheParser checks that the guard reads the
// spoken and abbreviated figures people write with the parser's reader
// (package amount): each text is checked against a fact with the hand
// value (一万六 = 16,000; 1.2万 = 12,000; 三千五 = 3,500; $2k = 2,000
// dollars) and against a wrong one.
func TestCheckReadsNumbersLikeTheParser(t *testing.T) {
	tests := []struct {
		text, figure string
		right, wrong Fact
	}{
		{"训练大约花一万六元", "一万六", Fact{Name: "total", Value: 16000, Unit: "CNY"}, Fact{Name: "total", Value: 17000, Unit: "CNY"}},
		{"總價約一萬六元", "一萬六", Fact{Name: "total", Value: 16000, Unit: "CNY"}, Fact{Name: "total", Value: 15000, Unit: "CNY"}},
		{"预算 1.2万 元够用", "1.2万", Fact{Name: "budget", Value: 12000, Unit: "CNY"}, Fact{Name: "budget", Value: 13000, Unit: "CNY"}},
		{"每月三千五元", "三千五", Fact{Name: "monthly_cost", Value: 3500, Unit: "CNY"}, Fact{Name: "monthly_cost", Value: 3000, Unit: "CNY"}},
		{"about $2k in all", "2k", Fact{Name: "total", Value: 2000, Unit: "USD"}, Fact{Name: "total", Value: 3000, Unit: "USD"}},
	}
	for _, tt := range tests {
		// the parser's reading of the figure is the hand value too
		if v, err := amount.Number(tt.figure); err != nil || v != tt.right.Value {
			t.Errorf("amount.Number(%q) = %v, %v; want %v", tt.figure, v, err, tt.right.Value)
		}
		if ok, why := Check(tt.text, []Fact{tt.right}, []Fact{tt.right}); !ok {
			t.Errorf("Check(%q) with %s: refused (%v), want accepted", tt.text, tt.right.describe(), why)
		}
		if ok, _ := Check(tt.text, []Fact{tt.wrong}, nil); ok {
			t.Errorf("Check(%q) with only %s: accepted, want refused", tt.text, tt.wrong.describe())
		}
	}
}
