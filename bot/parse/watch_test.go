package parse

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

func TestWatchGrammar(t *testing.T) {
	p := New(knowledge.MustShipped())
	cases := []struct {
		in              string
		mode, gpu, plat string
		amount          float64
		cur             string
		lang            string
	}{
		{"/gpu watch h100 < $2/h", "below", "h100-sxm", "", 2, "USD", "en"},
		{"/gpu watch 4090 @autodl 降价", "low", "rtx4090", "autodl", 0, "", "zh"},
		{"/gpu watch a100 below 1.5 usd", "below", "a100-80g", "", 1.5, "USD", "en"},
		{"/gpu watch 4090 低于 1.8元", "below", "rtx4090", "", 1.8, "CNY", "zh"},
		{"/gpu watch list", "list", "", "", 0, "", "en"},
		{"/gpu watch off 3", "off", "", "", 0, "", "en"},
		{"/gpu 盯价 取消 all", "off", "", "", 0, "", "zh"},
	}
	for _, tc := range cases {
		r := p.Parse(tc.in)
		if r.Intent != Watch || r.Slots.Mode != tc.mode || len(r.Problems) != 0 {
			t.Errorf("%q: intent %s mode %q problems %v", tc.in, r.Intent, r.Slots.Mode, r.Problems)
			continue
		}
		if tc.gpu != "" && (len(r.Slots.GPUs) == 0 || r.Slots.GPUs[0] != tc.gpu || r.Slots.Platform != tc.plat) {
			t.Errorf("%q: gpus %v platform %q", tc.in, r.Slots.GPUs, r.Slots.Platform)
		}
		if tc.amount > 0 && (r.Slots.Amount == nil || r.Slots.Amount.Amount != tc.amount || r.Slots.Amount.Currency != tc.cur) {
			t.Errorf("%q: amount %+v", tc.in, r.Slots.Amount)
		}
		if r.Lang != tc.lang {
			t.Errorf("%q: lang %s", tc.in, r.Lang)
		}
	}
	for _, in := range []string{"/gpu watch h100", "/gpu watch < $2"} {
		if r := p.Parse(in); r.Intent != Watch || len(r.Problems) == 0 {
			t.Errorf("%q: want a problem with an example, got %+v", in, r.Problems)
		}
	}
}
