package bot

import (
	"strings"
	"testing"
)

// The first line states the figure asked for: "多久回本" leads with the
// payback in months (the buy answer's own headline is the break-even
// utilisation), "what TTFT" with the first-token latency (the cost
// answer's is the price per million tokens). A headline that already
// says the figure is left alone.
func TestFirstLineStatesTheAskedFigure(t *testing.T) {
	for _, c := range []struct{ q, asked, prefix, unit string }{
		{"自己买一张二手4090大概1.3万，租的话一小时2块，我每天用8小时，多久回本？", "payback_months", "回本：", " 个月"},
		{"What TTFT should we expect for Llama 70B FP8 on 2x H100 with 8k-token prompts?", "ttft_ms", "First token (TTFT): ≈", " ms"},
	} {
		a := askOne(t, c.q)
		if a.Typed == nil || a.Typed.Asked != c.asked || a.Typed.Value == nil {
			t.Fatalf("%s: typed %+v, want %s", c.q, a.Typed, c.asked)
		}
		v := *a.Typed.Value
		if c.asked == "ttft_ms" {
			v = float64(int(v + 0.5))
		}
		if want := c.prefix + fmtNum(v) + c.unit; !strings.HasPrefix(a.Headline, want) {
			t.Errorf("%s: headline %q, want it to start %q", c.q, a.Headline, want)
		}
	}
	a := askOne(t, "13b lora 5万条 4090 多少钱")
	if strings.HasPrefix(a.Headline, "合计：") {
		t.Errorf("a headline that states its total got a second one: %q", a.Headline)
	}
}
