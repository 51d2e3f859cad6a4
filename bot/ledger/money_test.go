package ledger

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

func TestParseAmount(t *testing.T) {
	for in, want := range map[string]Money{
		"¥75":        cny(7500),
		"￥75":        cny(7500),
		"75元":        cny(7500),
		"75块钱":       cny(7500),
		"RMB 75":     cny(7500),
		"75.00 CNY":  cny(7500),
		"¥1,600.00":  cny(160000),
		"$2.5":       usd(250),
		"US$2.5":     usd(250),
		"2.5 USD":    usd(250),
		"2.5美元":      usd(250),
		"56.4":       cny(5640),
		"0.005":      cny(1), // half a fen rounds up
		"0.004":      cny(0),
		"¥ 7,515.50": cny(751550),
		".5":         cny(50),
		"1.6万":       cny(1600000), // the shared reader (bot/parse/amount) reads magnitudes
		"一万六":        cny(1600000),
		"1.2萬":       cny(1200000),
	} {
		got, err := ParseAmount(in, knowledge.CNY)
		if err != nil || got != want {
			t.Errorf("ParseAmount(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "$2.5/h", "¥1.8/小时", "-5", "$5元", "1e3", "¥", "18,50"} {
		if got, err := ParseAmount(in, knowledge.CNY); err == nil {
			t.Errorf("ParseAmount(%q) = %v, want refused", in, got)
		}
	}
	if got, _ := ParseAmount("12", ""); got.Currency != "" {
		t.Errorf("ParseAmount(bare, no default) currency = %q", got.Currency)
	}
}

func TestMoney(t *testing.T) {
	if got := MoneyFromFloat(75.005, knowledge.CNY); got != cny(7501) {
		t.Errorf("MoneyFromFloat(75.005) = %v, want ¥75.01", got)
	}
	if got := MoneyFromFloat(0.1+0.2, knowledge.CNY); got != cny(30) {
		t.Errorf("MoneyFromFloat(0.1+0.2) = %v, want ¥0.30", got)
	}
	for m, want := range map[Money]string{
		cny(751550): "¥7,515.50", usd(5000): "$50.00", cny(-326522): "-¥3,265.22", {Minor: 1200, Currency: "EUR"}: "12.00 EUR", cny(5): "¥0.05",
	} {
		if got := m.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", m, got, want)
		}
	}
	if d := cny(-5).Decimal(); d != "-0.05" {
		t.Errorf("Decimal = %q", d)
	}
	a := Amounts{knowledge.CNY: 751550, knowledge.USD: 5000}
	fx := FX{To: knowledge.CNY, Rates: map[knowledge.Currency]float64{knowledge.USD: 7.2}}
	if got, ok := fx.Convert(a); !ok || got != cny(787550) {
		t.Errorf("Convert = %v, %v; want ¥7,875.50", got, ok)
	}
	if _, ok := (FX{To: knowledge.CNY}).Convert(a); ok {
		t.Error("Convert without a USD rate added CNY and USD")
	}
	if got, ok := (FX{To: knowledge.USD, Rates: map[knowledge.Currency]float64{knowledge.CNY: 1 / 7.2}}).Convert(a); !ok || got != usd(109382) {
		t.Errorf("Convert to USD = %v, %v; want $1,093.82 (7515.50 / 7.2 + 50)", got, ok)
	}
	if s := (Amounts{}).String(); s != "0" {
		t.Errorf("empty Amounts = %q", s)
	}
}
