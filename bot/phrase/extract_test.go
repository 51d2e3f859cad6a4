package phrase

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// dump is a readable form of what extract found, for failure messages.
func dump(qs []qty) string {
	var b strings.Builder
	for _, q := range qs {
		switch q.kind {
		case kNumber:
			fmt.Fprintf(&b, "[%q = %v %s", q.raw, q.vals()[0].v, q.def.dim)
			if q.per != "" {
				fmt.Fprintf(&b, "/%s", q.per)
			}
			b.WriteString("] ")
		case kDate:
			fmt.Fprintf(&b, "[%q date %s] ", q.raw, q.date)
		case kClock:
			fmt.Fprintf(&b, "[%q clock %s] ", q.raw, q.name)
		case kName:
			fmt.Fprintf(&b, "[%q name %s] ", q.raw, q.name)
		}
	}
	return b.String()
}

func TestExtractNumbers(t *testing.T) {
	type num struct {
		v   float64 // first reading, base units
		dim string
		per string
	}
	tests := []struct {
		name string
		text string
		want []num
	}{
		{"thousands separator", "costs 1,200 in total", []num{{1200, "", ""}}},
		{"k suffix reads 1,000 first", "about 1.2k", []num{{1200, "", ""}}},
		{"万 scale", "约 1.2万", []num{{12000, "", ""}}},
		{"亿 scale", "1.5亿", []num{{1.5e8, "", ""}}},
		{"yen prefix", "¥1200", []num{{1200, "CNY", ""}}},
		{"full-width yen and digits", "￥１２００", []num{{1200, "CNY", ""}}},
		{"元 suffix", "1200元", []num{{1200, "CNY", ""}}},
		{"万元", "1.2万元", []num{{12000, "CNY", ""}}},
		{"dollar rate", "$2.5/h", []num{{2.5, "USD", "h"}}},
		{"美元 per hour", "2.5 美元/小时", []num{{2.5, "USD", "h"}}},
		{"元 per card-hour", "1.99元/卡时", []num{{1.99, "CNY", "h"}}},
		{"USD code prefix", "USD 2.5 per hour", []num{{2.5, "USD", "h"}}},
		{"US$", "US$3", []num{{3, "USD", ""}}},
		{"percent", "70%", []num{{0.7, "ratio", ""}}},
		{"full-width percent", "７０％", []num{{0.7, "ratio", ""}}},
		{"七成", "利用率七成", []num{{0.7, "ratio", ""}}},
		{"百分之七十", "百分之七十", []num{{0.7, "ratio", ""}}},
		{"百分之 with digits", "百分之 7.5", []num{{0.075, "ratio", ""}}},
		{"Chinese tens", "七十", []num{{70, "", ""}}},
		{"两百", "两百", []num{{200, "", ""}}},
		{"一千二百", "一千二百", []num{{1200, "", ""}}},
		{"colloquial 两百五", "两百五", []num{{250, "", ""}}},
		{"colloquial 三万五", "三万五", []num{{35000, "", ""}}},
		{"一亿五千万", "一亿五千万", []num{{1.5e8, "", ""}}},
		{"一点五", "一点五倍", []num{{1.5, "", ""}}},
		{"七十亿", "七十亿参数", []num{{7e9, "", ""}}},
		{"full-width digits", "１２００", []num{{1200, "", ""}}},
		{"range shares unit", "1.8–2.5 元/小时", []num{{1.8, "CNY", "h"}, {2.5, "CNY", "h"}}},
		{"range shares currency", "$1.8-2.5/h", []num{{1.8, "USD", "h"}, {2.5, "USD", "h"}}},
		{"range shares percent", "20–30%", []num{{0.2, "ratio", ""}, {0.3, "ratio", ""}}},
		{"range shares scale", "1.2~1.5万", []num{{12000, "", ""}, {15000, "", ""}}},
		{"card count ×", "RTX 4090 ×8", []num{{4090, "", ""}, {8, "", ""}}},
		{"card count x", "x8", []num{{8, "", ""}}},
		{"card count 8x", "8x H100", []num{{8, "", ""}}},
		{"GB", "41.13 GB", []num{{41.13, "GB", ""}}},
		{"GiB converts to GB", "38 GiB", []num{{38 * 1.073741824, "GB", ""}}},
		{"G alone", "80G 显存", []num{{80, "GB", ""}}},
		{"TB", "2 TB", []num{{2000, "GB", ""}}},
		{"GB/s", "400 GB/s", []num{{400, "GB", "s"}}},
		{"params B", "13B", []num{{13e9, "", ""}}},
		{"params billion", "13 billion", []num{{13e9, "", ""}}},
		{"context k", "32k", []num{{32000, "", ""}}},
		{"hours per month", "150 h/月", []num{{150, "h", "month"}}},
		{"小时每月", "150小时每月", []num{{150, "h", "month"}}},
		{"months", "14.2 个月", []num{{14.2, "month", ""}}},
		{"years", "3年回本", []num{{3, "year", ""}}},
		{"GPU-hours", "1,000 GPU-hours", []num{{1000, "h", ""}}},
		{"卡时", "1000 卡时", []num{{1000, "h", ""}}},
		{"八折 is 80% or 20% off", "八折", []num{{0.8, "ratio", ""}}},
		{"spelled-out", "two cards", []num{{2, "", ""}}},
		{"spelled-out compound", "seventy-five percent", []num{{0.75, "ratio", ""}}},
		{"measure word", "两张卡", []num{{2, "", ""}}},
		{"八卡", "八卡机器", []num{{8, "", ""}}},
		{"per M tokens", "$0.35/M tokens", []num{{0.35, "USD", "Mtok"}}},
		{"decimal leading dot", "about .5 GB", []num{{0.5, "GB", ""}}},
		{"sentence end", "It needs 41 GB.", []num{{41, "GB", ""}}},
		{"4-digit group only", "batch 4,4096", []num{{4, "", ""}, {4096, "", ""}}},
		{"spaced currency", "$ 12", []num{{12, "USD", ""}}},
		{"CNY suffix", "1200 RMB", []num{{1200, "CNY", ""}}},
		{"negative read as magnitude", "−5%", []num{{0.05, "ratio", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qs := extract(tt.text)
			var got []num
			for _, q := range qs {
				if q.kind == kNumber {
					got = append(got, num{q.vals()[0].v, q.def.dim, q.per})
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("extract(%q) = %s, want %d numbers %v", tt.text, dump(qs), len(tt.want), tt.want)
			}
			for i := range got {
				if math.Abs(got[i].v-tt.want[i].v) > 1e-9*math.Max(1, tt.want[i].v) || got[i].dim != tt.want[i].dim || got[i].per != tt.want[i].per {
					t.Errorf("extract(%q)[%d] = %v, want %v (all: %s)", tt.text, i, got[i], tt.want[i], dump(qs))
				}
			}
		})
	}
}

func TestExtractSkipsNonNumbers(t *testing.T) {
	tests := []struct {
		name string
		text string
	}{
		{"list markers", "1. 先租\n2) 再包月\n3、最后自建\n(4) done\n[5] note"},
		{"ordinals zh", "第一步，第2步，周一开会"},
		{"ordinals en", "Step 1: profile. Option 2 is cheaper. the 3rd card. #4"},
		{"lone 一 in words", "一些、统一、一般、之一、进一步、一下、一个方案"},
		{"lone numerals without a measure word", "两者都行，三思而后行，四舍五入"},
		{"idioms", "十分划算，万一出问题，千万别忘了，十几张，几十张"},
		{"approximate runs", "七八十，三三两两"},
		{"成本 is not 成", "零成本，降低成本"},
		{"折旧 is not 折", "折旧和打折"},
		{"one as a pronoun", "the cheapest one is fine, no one else"},
		{"Slack mention and emoji", "<@U12345> :+1: :flag-cn:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, q := range extract(tt.text) {
				if q.kind == kNumber {
					t.Errorf("extract(%q) found %s, want no numbers", tt.text, dump([]qty{q}))
				}
			}
		})
	}
}

func TestExtractDatesNamesClocks(t *testing.T) {
	tests := []struct {
		text string
		kind qkind
		want string
	}{
		{"2026-09", kDate, "2026-09"},
		{"2026-09-15", kDate, "2026-09-15"},
		{"2026/9/15", kDate, "2026-09-15"},
		{"2026.09", kDate, "2026-09"},
		{"2026年9月", kDate, "2026-09"},
		{"2026年9月15日", kDate, "2026-09-15"},
		{"2026 年", kDate, "2026"},
		{"9月15日", kDate, "09-15"},
		{"Sep 2026", kDate, "2026-09"},
		{"September 15, 2026", kDate, "2026-09-15"},
		{"09:30", kClock, "9:30"},
		{"H100", kName, "h100"},
		{"llama-2-13b", kName, "llama213b"},
		{"Qwen2.5-72B", kName, "qwen2572b"},
		{"ZeRO-3", kName, "zero3"},
		{"RTX4090", kName, "rtx4090"},
		{"4090D", kName, "4090d"},
		{"4090s", kName, "4090s"},
		{"https://example.com/a/1", kName, "httpsexamplecoma1"},
	}
	for _, tt := range tests {
		qs := extract(tt.text)
		if len(qs) != 1 || qs[0].kind != tt.kind {
			t.Errorf("extract(%q) = %s, want one token of kind %d", tt.text, dump(qs), tt.kind)
			continue
		}
		got := qs[0].name
		if tt.kind == kDate {
			got = qs[0].date.String()
		}
		if got != tt.want {
			t.Errorf("extract(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestParseCN(t *testing.T) {
	tests := []struct {
		in   string
		v    float64
		ok   bool
		step float64
	}{
		{"七", 7, true, 0},
		{"十", 10, true, 0},
		{"十二", 12, true, 0},
		{"七十", 70, true, 0},
		{"一百零五", 105, true, 0},
		{"两百五十", 250, true, 0},
		{"两百五", 250, true, 10},
		{"一千二", 1200, true, 100},
		{"三万五千", 35000, true, 0},
		{"三万五", 35000, true, 1000},
		{"二十万", 200000, true, 1e4},
		{"一亿五千万", 1.5e8, true, 1e4},
		{"三点一四", 3.14, true, 0},
		{"万", 0, false, 0},
		{"百", 0, false, 0},
		{"千万", 0, false, 0},
		{"四五", 0, false, 0},
		{"七八十", 0, false, 0},
		{"十百", 0, false, 0},
	}
	for _, tt := range tests {
		v, step, _, ok := parseCN([]rune(tt.in))
		if ok != tt.ok || (ok && (math.Abs(v-tt.v) > 1e-9 || step != tt.step)) {
			t.Errorf("parseCN(%q) = %v, step %v, %v; want %v, step %v, %v", tt.in, v, step, ok, tt.v, tt.step, tt.ok)
		}
	}
}

// FuzzExtract checks that the extractor never panics, keeps its offsets in
// range, and that any text passes the guard against itself.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"41.13 GB", "¥1,200", "1.2万元", "$2.5/h", "七成", "百分之七十", "１２００",
		"1.8–2.5 元/小时", "×8", "2026年9月15日", "09:30", "llama-2-13b", "一亿五千万",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		qs := extract(s)
		n := utf8.RuneCountInString(s)
		if !utf8.ValidString(s) {
			n = len([]rune(s))
		}
		for _, q := range qs {
			if q.start < 0 || q.end < q.start || q.end > n {
				t.Fatalf("extract(%q): token %q at [%d,%d) out of [0,%d)", s, q.raw, q.start, q.end, n)
			}
			for _, v := range q.vals() {
				if math.IsNaN(v.v) {
					t.Fatalf("extract(%q): NaN in %q", s, q.raw)
				}
			}
		}
		if strings.TrimSpace(s) == "" {
			return
		}
		if ok, why := Check(s, []Fact{{Name: "self", Text: s}}, nil); !ok {
			t.Fatalf("Check(%q) against itself failed: %v; tokens %s", s, why, dump(qs))
		}
	})
}
