package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/present"
)

// A purchase that never pays back says so in the working too, never
// "0 months". By hand for a ¥16,000 RTX 4090 used 12 h a day (365 h a
// month) against the cheapest on-demand rent of about ¥1.2/h: the rent
// saved, less power (0.45 kW × PUE 1.4 × ¥0.8 ≈ ¥0.5/h), is about
// 365 × 0.7 ≈ ¥260 a month, less than operations and the cost of capital
// ((20 % + 5 %) × 16,000 ÷ 12 ≈ ¥333 a month): no monthly saving.
func TestNeverPaysBackIsSaidInTheWorking(t *testing.T) {
	b := newTestBot(t)
	for _, q := range []string{"4090 买一张 16000 元，每天用 12 小时", "/gpu buy 4090 price=2200usd hours=365"} {
		a := b.Answer(context.Background(), Message{Text: q})
		res, ok := a.Result.(BuyView)
		if !ok || !res.NeverPays {
			t.Fatalf("%q: result %T never_pays=%v, want a purchase that never pays back", q, a.Result, ok && res.NeverPays)
		}
		found := false
		for _, s := range a.Working {
			if s.Kind != present.StepCalc || s.Unit != "months" {
				continue
			}
			if strings.HasPrefix(s.Shown, "0 ") {
				t.Errorf("%q: %s shown as %q", q, s.Label, s.Shown)
			}
			if s.Shown == "never pays back" || s.Shown == "永远回不了本" {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no payback step says it never pays back", q)
		}
	}
}
