package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// A quoted card-hour price is weighed against the market's on-demand
// offers for the card. Hand-valued: offers 12, 14, 16, 20 → median 15;
// ¥18 is 1.2× the median (dear, past the 10 % band), ¥16 is 1.067×
// (about the market). "贵不贵" turns the verdict round: yes = dear.
func TestQuoteAgainstMarket(t *testing.T) {
	offers := []knowledge.Offer{
		hourly("a/h800", "autodl", "h800", 12, 12), hourly("b/h800", "gpushare", "h800", 14, 14),
		hourly("c/h800", "aliyun", "h800", 16, 16), hourly("d/h800", "tencent-cloud", "h800", 20, 20),
	}
	for _, c := range []struct {
		q, verdict, headline string
	}{
		{"按量租H800一卡时多少算合理？有渠道报18块，贵不贵？", "yes", "偏贵"},
		{"H800 有渠道报16块一小时，合理吗", "yes", "与市场价相当"},
		{"H800 按量报价18块一卡时 合理吗", "no", "偏贵"},
	} {
		b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
		b.UsePrices(shippedPrices(offers))
		a := b.Answer(context.Background(), Message{Text: c.q})
		if a.Typed == nil || a.Typed.Asked != "price_per_card_hour" || a.Typed.Value == nil || *a.Typed.Value != 15 {
			t.Fatalf("%s: want the market median ¥15 first, got %s %+v\n%s", c.q, a.Intent, a.Typed, a.Text)
		}
		if a.Typed.Verdict == nil || *a.Typed.Verdict != c.verdict {
			t.Errorf("%s: verdict %v, want %s", c.q, a.Typed.Verdict, c.verdict)
		}
		if first, _, _ := strings.Cut(a.Text, "\n"); !strings.Contains(first, c.headline) || !strings.Contains(first, "¥15") {
			t.Errorf("%s: first line %q, want %q and the median ¥15", c.q, first, c.headline)
		}
		if _, ok := a.Used["price"]; !ok {
			t.Errorf("%s: the quote is not accounted as used: %v", c.q, a.Used)
		}
	}
}

// A machine's monthly quote is weighed per card-hour: ¥180,000 a month
// for 8 cards ÷ 8 ÷ 730 h = ¥30.82 a card-hour, 2.05× the ¥15 median of
// the offers 12, 14, 16, 20 → dear ("划算吗" → no). "整机每月18万" is the
// machine's month, not its purchase price.
func TestMonthlyQuoteAgainstMarket(t *testing.T) {
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	b.UsePrices(shippedPrices([]knowledge.Offer{
		hourly("a/h100", "autodl", "h100-sxm", 12, 12), hourly("b/h100", "gpushare", "h100-sxm", 14, 14),
		hourly("c/h100", "aliyun", "h100-sxm", 16, 16), hourly("d/h100", "tencent-cloud", "h100-sxm", 20, 20),
	}))
	a := b.Answer(context.Background(), Message{Text: "供应商报价：8卡H100整机每月18万，划算吗？"})
	if a.Slots.Monthly == nil || a.Slots.Monthly.Amount != 180000 || a.Slots.Price != nil {
		t.Fatalf("slots: monthly %+v price %+v, want the month ¥180,000 and no purchase price", a.Slots.Monthly, a.Slots.Price)
	}
	pv, ok := a.Result.(PriceView)
	if !ok || pv.Quote == nil || pv.Quote.Quote != 30.82 || !pv.Quote.Dear {
		t.Fatalf("result %T %+v, want a dear quote of ¥30.82 a card-hour\n%s", a.Result, pv.Quote, a.Text)
	}
	if a.Typed == nil || a.Typed.Verdict == nil || *a.Typed.Verdict != "no" {
		t.Errorf("划算吗 verdict %+v, want no", a.Typed)
	}
}
