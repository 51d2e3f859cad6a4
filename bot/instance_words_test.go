package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Cloud instance types are the cards they hold ("p5.48xlarge" = 8 H100 on
// AWS, "a3-highgpu-8g" = 8 H100 on Google Cloud; "8g" is no 8 GB card), a
// month of on demand is 730 h of the cards, and a commitment asked "per
// month" gives both months first.
func TestInstanceTypesAndMonths(t *testing.T) {
	usd := func(o knowledge.Offer) knowledge.Offer { o.Currency = knowledge.USD; return o }
	b := rentalBot(usd(hourly("g", "gcp", "h100-sxm", 4.50, 4.50)), usd(hourly("r", "runpod", "h100-sxm", 2.00, 2.00)))
	ask := func(q string) Answer {
		return b.Answer(context.Background(), Message{Text: q, Team: "T1", Channel: "D1", User: "U1"})
	}
	a := ask("GCP a3-highgpu-8g on-demand monthly cost?")
	if a.Slots.Cards != 8 || len(a.Slots.GPUs) != 1 || a.Slots.GPUs[0] != "h100-sxm" || a.Slots.VRAMGB != 0 {
		t.Fatalf("a3-highgpu-8g read as %+v, want 8 H100 and no 8 GB", a.Slots)
	}
	// 8 cards × 730 h × $4.50 = $26,280
	if !strings.HasPrefix(a.Headline, "≈ $26,280 for 8 card(s) × 730 h") {
		t.Errorf("a3-highgpu-8g a month: %q, want 8 × 730 h × $4.50 = $26,280", a.Headline)
	}

	b = New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	a = ask("1-year reserved price for 8x H100 on AWS (p5.48xlarge) vs on-demand, per month?")
	c, ok := a.Result.(CommitView)
	if !ok {
		t.Fatalf("p5.48xlarge reserved: %T\n%s", a.Result, a.Text)
	}
	// the month of each: 8 cards × 730 h × the committed and on-demand rates
	r := c.CommitResult
	if w := 8 * 730 * r.Chosen.Committed; math.Abs(r.CommittedMonthly-w) > 0.01 {
		t.Errorf("committed a month %v, want 8 × 730 × %v = %v", r.CommittedMonthly, r.Chosen.Committed, w)
	}
	if w := 8 * 730 * r.Chosen.OnDemand * r.Utilization; math.Abs(r.OnDemandMonthly-w) > 0.01 {
		t.Errorf("on demand a month %v, want 8 × 730 × %v × %v = %v", r.OnDemandMonthly, r.Chosen.OnDemand, r.Utilization, w)
	}
	if !strings.HasPrefix(a.Headline, "1-year commitment: "+moneyStr(r.CommittedMonthly, "USD")+" a month vs on demand "+moneyStr(r.OnDemandMonthly, "USD")+" a month") {
		t.Errorf("headline %q: want both months first", a.Headline)
	}
}
