package amount

import (
	"math"
	"strings"
	"testing"
)

func TestNumber(t *testing.T) {
	tests := []struct {
		in   string
		want float64
	}{
		{"13", 13},
		{"1,200", 1200},
		{"12,345,678.90", 12345678.90},
		{"1.5", 1.5},
		{"32k", 32000},
		{"100M", 1e8},
		{"1.6万", 16000},
		{"1.2萬", 12000},
		{"3億", 3e8},
		{"5 千", 5000},
		{"5w", 50000},
		{"3千万", 3e7},
		{"1.2万亿", 1.2e12},
		{"七十", 70},
		{"一万六", 16000},
		{"1万6", 16000},
		{"三万五", 35000},
		{"两千五", 2500},
		{"一百零五", 105},
		{"一亿二千万", 1.2e8},
		{"１２", 12},
		{"-3", -3},
	}
	for _, tt := range tests {
		got, err := Number(tt.in)
		if err != nil || math.Abs(got-tt.want) > 1e-9*math.Max(1, tt.want) {
			t.Errorf("Number(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestNumberRefuses(t *testing.T) {
	tests := []struct{ in, says string }{
		{"2.5e3", "scientific notation"},
		{"1e308", "scientific notation"},
		{"18,50", "decimal comma"},
		{"1,5", "decimal comma"},
		{"1,2345", "misplaced"},
		{"", "no number"},
		{"abc", "not a number"},
		{"万一", "not a number"},
		{"1.2.3", "not a number"},
		{"nan", "not a number"},
	}
	for _, tt := range tests {
		v, err := Number(tt.in)
		if err == nil {
			t.Errorf("Number(%q) = %v, want an error saying %q", tt.in, v, tt.says)
			continue
		}
		if !strings.Contains(err.Error(), tt.says) {
			t.Errorf("Number(%q) error %q, want it to say %q", tt.in, err, tt.says)
		}
		if e := err.(*Error); e.ReasonZH == "" || e.Hint == "" {
			t.Errorf("Number(%q) error has no Chinese reason or hint: %+v", tt.in, e)
		}
	}
}

func TestRead(t *testing.T) {
	tests := []struct {
		in   string
		want Money
	}{
		{"¥1,000", Money{1000, "CNY", ""}},
		{"1,200 块", Money{1200, "CNY", ""}},
		{"$12,345,678.90", Money{12345678.90, "USD", ""}},
		{"1.2万", Money{12000, "", ""}},
		{"一万六", Money{16000, "", ""}},
		{"16k", Money{16000, "", ""}},
		{"$2k", Money{2000, "USD", ""}},
		{"3000 刀", Money{3000, "USD", ""}},
		{"5 千", Money{5000, "", ""}},
		{"￥1,600.00", Money{1600, "CNY", ""}},
		{"US$2.5", Money{2.5, "USD", ""}},
		{"RMB 75", Money{75, "CNY", ""}},
		{"75块钱", Money{75, "CNY", ""}},
		{"2.5 USD", Money{2.5, "USD", ""}},
		{"$2.5/h", Money{2.5, "USD", "hour"}},
		{"900/月", Money{900, "", "month"}},
		{"1.2元/时", Money{1.2, "CNY", "hour"}},
		{"0.8/度", Money{0.8, "", "kwh"}},
		{"1万6元", Money{16000, "CNY", ""}},
	}
	for _, tt := range tests {
		got, err := Read(tt.in)
		if err != nil || math.Abs(got.Amount-tt.want.Amount) > 1e-9 || got.Currency != tt.want.Currency || got.Per != tt.want.Per {
			t.Errorf("Read(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	if m, _ := Read("$12,345,678.90"); m.Minor() != 1234567890 {
		t.Errorf("Minor($12,345,678.90) = %d, want 1234567890", m.Minor())
	}
}

func TestReadRefuses(t *testing.T) {
	tests := []struct{ in, says string }{
		{"-50", "negative"},
		{"¥-50", "negative"},
		{"-$5", "negative"},
		{"1e308", "scientific notation"},
		{"2000000000000", "accepted range"},
		{"18,50 €", "decimal comma"},
		{"¥18,50", "decimal comma"},
		{"$5 rmb", "two currencies"},
		{"¥", "no amount"},
	}
	for _, tt := range tests {
		m, err := Read(tt.in)
		if err == nil {
			t.Errorf("Read(%q) = %+v, want an error saying %q", tt.in, m, tt.says)
			continue
		}
		if !strings.Contains(err.Error(), tt.says) {
			t.Errorf("Read(%q) error %q, want it to say %q", tt.in, err, tt.says)
		}
		if e := err.(*Error); e.Input != tt.in {
			t.Errorf("Read(%q) error input = %q, want the input as typed", tt.in, e.Input)
		}
	}
}

// TestReadChinese checks values and the precision written against hand
// readings: "三万五" is 3.5 万 to the thousand, "二十万" 20 万 to the 万.
func TestReadChinese(t *testing.T) {
	tests := []struct {
		in   string
		ok   bool
		want Figure
	}{
		{"七", true, Figure{Value: 7}},
		{"十", true, Figure{Value: 10}},
		{"十二", true, Figure{Value: 12}},
		{"七十", true, Figure{Value: 70}},
		{"一百零五", true, Figure{Value: 105}},
		{"一千零五", true, Figure{Value: 1005}},
		{"两百五十", true, Figure{Value: 250}},
		{"两百五", true, Figure{Value: 250, Step: 10}},
		{"一千二", true, Figure{Value: 1200, Step: 100}},
		{"三千五", true, Figure{Value: 3500, Step: 100}},
		{"一万六", true, Figure{Value: 16000, Step: 1000}},
		{"三万五千", true, Figure{Value: 35000}},
		{"二十万", true, Figure{Value: 200000, Step: 1e4}},
		{"一亿五千万", true, Figure{Value: 1.5e8, Step: 1e4}},
		{"一亿五", true, Figure{Value: 1.5e8, Step: 1e7}},
		{"五万亿", true, Figure{Value: 5e12, Step: 1e8}},
		{"三点一四", true, Figure{Value: 3.14, Decimals: 2}},
		{"一点五", true, Figure{Value: 1.5, Decimals: 1}},
		{"百万", true, Figure{Value: 1e6, Step: 1e4}},
		{"萬", false, Figure{}},
		{"万一", false, Figure{}},
		{"四五", false, Figure{}},
		{"七八十", false, Figure{}},
		{"十百", false, Figure{}},
		{"一百十", false, Figure{}},
		{"二〇二六", false, Figure{}},
		{"一万点五", false, Figure{}},
		{"三点", false, Figure{}},
	}
	for _, tt := range tests {
		got, ok := ReadChinese(tt.in)
		if ok != tt.ok || ok && (math.Abs(got.Value-tt.want.Value) > 1e-9 || got.Step != tt.want.Step || got.Decimals != tt.want.Decimals) {
			t.Errorf("ReadChinese(%q) = %+v, %v; want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestEnglish(t *testing.T) {
	tests := []struct {
		in      string
		v       float64
		mag, ok bool
	}{
		{"two", 2, false, true},
		{"Forty", 40, false, true},
		{"dozen", 12, false, true},
		{"hundred", 100, true, true},
		{"million", 1e6, true, true},
		{"couple", 0, false, false},
	}
	for _, tt := range tests {
		v, mag, ok := English(tt.in)
		if v != tt.v || mag != tt.mag || ok != tt.ok {
			t.Errorf("English(%q) = %v, %v, %v; want %v, %v, %v", tt.in, v, mag, ok, tt.v, tt.mag, tt.ok)
		}
	}
}
