package bot

import (
	"fmt"
	"strings"
	"testing"
)

// TestHowManyNodesLeadsWithNodes: "200 QPS peak, avg 1k input / 300
// output tokens, p99 TTFT under 800ms. How many 8x H100 nodes?" asks for a
// count of 8-card machines. "avg 1k input" is a request's length, not an
// average of 1,000 requests/s (read that way the plan was 1,464 cards).
//
// Hand estimate of the size: prefill is 200 req/s × 1,024 tokens × 2 ×
// 70.6e9 FLOP = 2.9e16 FLOP/s; a node's 8 × 989 TFLOPS at 35–50 % is
// 2.8–4.0e15, so 7–10 nodes for prefill; decode 200 × 300 = 60k tokens/s
// adds a few more. 8–20 nodes (64–160 cards) bounds any sound plan.
func TestHowManyNodesLeadsWithNodes(t *testing.T) {
	a := askOne(t, "We need to serve Llama 3.1 70B at 200 QPS peak, avg 1k input / 300 output tokens, p99 TTFT under 800ms. How many 8x H100 nodes do we need?")
	res, ok := a.Result.(SLOAnswer)
	if !ok {
		t.Fatalf("result %T, want the serving plan\n%s", a.Result, a.Text)
	}
	if res.Plan == nil || res.Plan.PeakRequestsPerS != 200 {
		t.Fatalf("plan %+v, want the 200 requests/s peak", res.Plan)
	}
	if res.Cards < 64 || res.Cards > 160 {
		t.Errorf("%d cards, want 64–160 (8–20 nodes)", res.Cards)
	}
	nodes := (res.Cards + 7) / 8
	want := fmt.Sprintf("%d nodes of 8× H100 SXM (%d cards)", nodes, res.Cards)
	if !strings.HasPrefix(a.Headline, want) {
		t.Errorf("headline %q, want it to open with %q", a.Headline, want)
	}
	if strings.HasPrefix(a.Headline, "Yes") {
		t.Errorf("a how-many answered with a yes: %q", a.Headline)
	}
	// a yes/no about the targets keeps its yes
	if b := askOne(t, "TTFT under 800 ms for 14B at 10 rps on 4090 — possible?"); !strings.HasPrefix(b.Headline, "Yes") && !strings.HasPrefix(b.Headline, "No") {
		t.Errorf("the yes/no lost its verdict: %q", b.Headline)
	}
}
