package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// A comparison of cards that names a job ("qwen2.5 32b lora, 4090 or a100
// for 50k samples?", "A800和H20做推理到底谁快？") answers the job on each
// card, not the cards' spec sheets: every figure of the job is used.
func TestCompareCardsForAJob(t *testing.T) {
	usd := func(o knowledge.Offer) knowledge.Offer { o.Currency = knowledge.USD; return o }
	b := rentalBot(
		usd(hourly("a", "runpod", "rtx4090", 0.40, 0.40)),
		usd(hourly("b", "runpod", "a100-80g", 1.20, 1.20)),
		hourly("c", "autodl", "a800", 6.00, 6.00),
		hourly("d", "autodl", "h20", 7.50, 7.50),
	)
	ask := func(q string) Answer {
		return b.Answer(context.Background(), Message{Text: q, Team: "T1", Channel: "D1", User: "U1"})
	}

	a := ask("qwen2.5 32b lora, 4090 or a100 which is cheaper for 50k samples?")
	v, ok := a.Result.(OptionsAnswer)
	if !ok || len(v.Rows)+len(v.Failed) != 2 {
		t.Fatalf("lora on two cards: result %T %+v, want both cards answered\n%s", a.Result, a.Result, a.Text)
	}
	if _, ok := a.Used["samples"]; !ok {
		t.Errorf("the 50k samples are not used: used %v ignored %v", a.Used, a.Ignored)
	}
	for _, r := range v.Rows {
		// a job's bill is its card-hours at the card's rate: $0.40 or $1.20
		rate := map[string]float64{"rtx4090": 0.40, "a100-80g": 1.20}[r.GPU]
		if got, want := r.Result.Total, r.Result.GPUHours*rate; want == 0 || math.Abs(got-want) > 0.01*want+0.01 {
			t.Errorf("%s: total %v, want card-hours %v × $%v = %v", r.GPU, got, r.Result.GPUHours, rate, want)
		}
	}
	for i := 1; i < len(v.Rows); i++ {
		if v.Rows[i].Value < v.Rows[i-1].Value {
			t.Errorf("rows not cheapest first: %+v", v.Rows)
		}
	}

	// "谁快" in serving: tokens a second per card, the faster first, and
	// the first line names it
	a = ask("A800和H20做推理到底谁快？我们主要跑70B")
	v, ok = a.Result.(OptionsAnswer)
	if !ok || v.Asked != "tokens_per_s" || len(v.Rows) != 2 {
		t.Fatalf("谁快: result %+v, want both cards ranked by tokens/s\n%s", a.Result, a.Text)
	}
	for _, r := range v.Rows {
		if want := r.Result.TokensPerS / float64(r.Result.GPUs); math.Abs(r.Value-want) > 1e-9 {
			t.Errorf("%s: %v tok/s per card, want the replica's %v over its %d cards", r.GPU, r.Value, r.Result.TokensPerS, r.Result.GPUs)
		}
	}
	if v.Rows[0].Value < v.Rows[1].Value {
		t.Errorf("not fastest first: %+v", v.Rows)
	}
	if !strings.Contains(a.Headline, gpuName(v.Rows[0].GPU)+" 最快") {
		t.Errorf("headline %q does not name the faster card first", a.Headline)
	}
}
