package parse

import (
	"math"
	"testing"
)

func TestNumber(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"13", 13, true},
		{"1,200", 1200, true},
		{"1.5", 1.5, true},
		{"2.5e3", 0, false}, // scientific notation is refused
		{"32k", 32000, true},
		{"32K", 32000, true},
		{"100M", 1e8, true},
		{"1B", 1e9, true},
		{"2T", 2e12, true},
		{"1.6万", 16000, true},
		{"5w", 50000, true},
		{"3千万", 3e7, true},
		{"1.2万亿", 1.2e12, true},
		{"130亿", 1.3e10, true},
		{"七十", 70, true},
		{"七十亿", 7e9, true},
		{"一百三十", 130, true},
		{"一百三", 130, true},
		{"两", 2, true},
		{"十二", 12, true},
		{"二十万", 200000, true},
		{"三万五", 35000, true},
		{"两千五", 2500, true},
		{"一百零五", 105, true},
		{"三万零五", 30005, true},
		{"一亿二千万", 1.2e8, true},
		{"五万亿", 5e12, true},
		{"１２", 12, true}, // full-width digits
		{"", 0, false},
		{"abc", 0, false},
		{"万一", 0, false},
		{"一二", 0, false},
		{"1e400", 0, false},
		{"nan", 0, false},
		{"inf", 0, false},
		{"1.2.3", 0, false},
		{"5x", 0, false},
		{".", 0, false},
	}
	for _, tt := range tests {
		got, ok := Number(tt.in)
		if ok != tt.ok || ok && math.Abs(got-tt.want) > 1e-9*math.Max(1, tt.want) {
			t.Errorf("Number(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseMoney(t *testing.T) {
	tests := []struct {
		in   string
		want Money
		ok   bool
	}{
		{"1.8", Money{1.8, ""}, true},
		{"¥1.8", Money{1.8, "CNY"}, true},
		{"￥1.8", Money{1.8, "CNY"}, true},
		{"2.5usd", Money{2.5, "USD"}, true},
		{"2.5 USD", Money{2.5, "USD"}, true},
		{"$2.5/h", Money{2.5, "USD"}, true},
		{"1.2元", Money{1.2, "CNY"}, true},
		{"1.2元/时", Money{1.2, "CNY"}, true},
		{"25k", Money{25000, ""}, true},
		{"$25k", Money{25000, "USD"}, true},
		{"1.6万", Money{16000, ""}, true},
		{"1.5w", Money{15000, ""}, true},
		{"900/月", Money{900, ""}, true},
		{"3块", Money{3, "CNY"}, true},
		{"3块钱", Money{3, "CNY"}, true},
		{"100美元", Money{100, "USD"}, true},
		{"75rmb", Money{75, "CNY"}, true},
		{"0", Money{0, ""}, true},
		{"-5", Money{}, false},
		{"abc", Money{}, false},
		{"1.8/day/h", Money{}, false},
		{"", Money{}, false},
	}
	for _, tt := range tests {
		got, ok := ParseMoney(tt.in)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("ParseMoney(%q) = %+v, %v; want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseFraction(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"70%", 0.7, true},
		{"0.7", 0.7, true},
		{"70", 0.7, true},
		{"七成", 0.7, true},
		{"7成", 0.7, true},
		{"百分之七十", 0.7, true},
		{"5%", 0.05, true},
		{"0", 0, true},
		{"-5%", 0, false},
		{"abc", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseFraction(tt.in)
		if ok != tt.ok || ok && math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("ParseFraction(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestArabize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"七十亿参数", "70亿参数"},
		{"一百三十亿参数", "130亿参数"},
		{"两轮", "2轮"},
		{"五万条数据", "5万条数据"},
		{"一万块以内", "1万块以内"},
		{"百分之七十", "70%"},
		{"利用率七成", "利用率7成"},
		{"三年回本", "3年回本"},
		{"单卡3090", "1卡3090"},
		{"一张4090", "1张4090"},
		{"两块钱一小时", "2块钱一小时"}, // 一小时 means "per hour"
		{"一个月跑400小时", "一个月跑400小时"},
		{"一年用3000小时", "一年用3000小时"},
		{"看一下", "看一下"},
		{"万一不行", "万一不行"},
		{"千万别买", "千万别买"},
		{"下午三点开会", "下午三点开会"},
		{"每百万 token", "每100万 token"},
		{"数据 2 万条", "数据 2万条"},
		{"two h100s", "2 h100s"},
		{"九月份", "9月份"},
		{"half a million dollars", "500000 dollars"},
		{"half a billion tokens", "500000000 tokens"},
		{"1.5 million tokens a day", "1500000 tokens a day"},
		{"2 billion tokens/day", "2000000000 tokens/day"},
		{"$1.2 million", "$1200000"},
		{"a million thanks", "a million thanks"}, // no figure: left as words
	}
	for _, tt := range tests {
		if got := arabize(tt.in); got != tt.want {
			t.Errorf("arabize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<@U024BE7LH> 13b lora", "13b lora"},
		{"<@U024BE7LH|bob> hi", "hi"},
		{"<#C123|general> <!here> 4090", "4090"},
		{"see <https://autodl.com/x|AutoDL> now", "see AutoDL now"},
		{"see <https://autodl.com/x>", "see"},
		{"`/gpu fit 13b`", "/gpu fit 13b"},
		{"*4090* 包月", "4090 包月"},
		{"１３ｂ，ｌｏｒａ", "13b, lora"}, // a full-width comma ends a clause
		{"h100 &amp; h800", "h100 & h800"},
		{"ok :thumbsup: 4090", "ok 4090"},
		{"a\u3000b", "a b"},
		{"【H100】vs《A100》", "[H100]vs<A100>"},
	}
	for _, tt := range tests {
		if got := Clean(tt.in); got != tt.want {
			t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLang(t *testing.T) {
	tests := []struct{ in, want string }{
		{"包月划算吗", "zh"},
		{"how much to fine-tune a 70B with QLoRA?", "en"},
		{"4090 包月 worth it?", "en"},      // the question is asked in English
		{"OOM 怎么办 when doing 70b", "zh"}, // a Chinese question word
		{"4090 的 price 现在多少", "zh"},
		{"how much is a 4090 on AutoDL", "en"},
		{"13b lora", "en"},
	}
	for _, tt := range tests {
		if got := Lang(tt.in); got != tt.want {
			t.Errorf("Lang(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
