package phrase_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/phrase"
)

// answerInput reads a `bot ask --json` answer from testdata and builds the
// phraser's input the way the transport does, with the intent's essential
// figures.
func answerInput(t *testing.T, file string, essentialKeys ...string) phrase.Input {
	t.Helper()
	b, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var a map[string]any
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	text := a["text"].(string)
	headline, _, _ := strings.Cut(text, "\n") // the first line is the headline
	facts := phrase.FactsFrom(text, a["result"], a["slots"], a["assumed"])
	return phrase.Input{Lang: a["lang"].(string), Template: text, Facts: facts,
		Essential: phrase.EssentialFrom(headline, a["result"], essentialKeys)}
}

// TestHeadlineGuardRefusesMovedFigures is the red-team run of issue #28
// item 5: rephrases whose first line carries the answer's own other
// numbers and names. Every number and name in them is somewhere in the
// answer, so the number and claim guards alone pass them (checked below, so
// the test shows the hole it closes); the headline guard refuses each, and
// the template stands. Faithful rewordings of the same answers still pass.
func TestHeadlineGuardRefusesMovedFigures(t *testing.T) {
	// 13B LoRA fit: the headline is "about 41.13 GB per replica"; 48 GB is
	// the L40S's memory, 26 GB the weights line.
	fit := answerInput(t, "fit_13b_lora_en.json", "memory_gb", "options[].count")
	// 7B inference pick: V100 SXM2 @ Vast.ai ×2 at $0.09/card-h; the A100
	// 80GB at $0.29/card-h and the RTX 2080 Ti at $0.05 are lower rows.
	rec := answerInput(t, "recommend_7b_inference_en.json") // the intent table names no essential figure
	for _, tt := range []struct {
		name    string
		in      phrase.Input
		text    string
		refused bool
		fixedBy string // what in the first line gives it away
		hole    bool   // the number and claim guards alone pass it
	}{
		{"fit: 41.13 GB → 48 GB", fit,
			"A 13B LoRA fine-tune needs about 48 GB per replica.\nIt fits on one L40S 48GB (6.86 GB spare); the total is 41.13 GB with weights 26 GB.", true, "48 GB", true},
		{"fit: the weights line as the answer", fit,
			"A 13B LoRA fine-tune needs about 26 GB per replica (41.13 GB with activations and overhead).", true, "26 GB", true},
		{"pick: $0.09 → $0.29", rec,
			"Best value for 7B inference: V100 SXM2 @ Vast.ai ×2 at $0.29/card-h, value 209.07, $0.021/M tokens.\nNext: A100 80GB @ Vast.ai ×1 — $0.09/card-h.", true, "$0.29", true},
		{"pick: V100 → A100", rec,
			"Best value for 7B inference: A100 80GB @ Vast.ai ×2 — $0.09/card-h, value 209.07, $0.021/M tokens.\nAlso ranked: V100 SXM2.", true, "A100", false},
		{"pick: another card is the cheapest", rec,
			"The RTX 2080 Ti is the cheapest option.\nBest value for 7B inference: V100 SXM2 @ Vast.ai ×2 — $0.09/card-h, value 209.07, $0.021/M tokens.", true, "RTX 2080 Ti", true},
		{"fit: faithful", fit,
			"A 13B LoRA fine-tune needs about 41.13 GB per replica: weights 26 GB, activations 11.66 GB.\nOne L40S 48GB holds it with 6.86 GB spare.", false, "", false},
		{"pick: faithful", rec,
			"For 7B inference the best value is V100 SXM2 @ Vast.ai ×2 at $0.09/card-h (value 209.07, $0.021/M tokens).\nRunner-up: A100 80GB @ Vast.ai ×1 at $0.29/card-h.", false, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.hole {
				// The hole: the other guards alone let it through.
				ok, why := phrase.Check(tt.text, append(tt.in.Facts, phrase.Fact{Name: phrase.AnswerFact, Text: tt.in.Template}), tt.in.Essential)
				if ok {
					ok, why = phrase.CheckClaims(tt.text, tt.in.Template, tt.in.Facts)
				}
				if !ok {
					t.Errorf("the number and claim guards already refuse it (%v): not the red-team case", why)
				}
			}
			ok, reasons := phrase.CheckHeadline(tt.text, tt.in.Template, tt.in.Essential)
			if ok == tt.refused {
				t.Fatalf("CheckHeadline(%q) = %v %v, want refused=%v", tt.text, ok, reasons, tt.refused)
			}
			if tt.refused && !strings.Contains(strings.Join(reasons, "; "), tt.fixedBy) {
				t.Errorf("reasons %v do not name %q", reasons, tt.fixedBy)
			}
			// Through the phraser and the fake OpenAI server: a refused
			// rephrase leaves the template, a faithful one is used.
			h := newHarness(t, phrase.Config{})
			h.fake.Script(bottest.OpenAIReply{Text: tt.text})
			got, err := h.p.Rephrase(context.Background(), tt.in)
			var rej *phrase.RejectedError
			switch {
			case tt.refused && !errors.As(err, &rej):
				t.Errorf("Rephrase = %q, %v; want it rejected", got, err)
			case !tt.refused && err != nil:
				t.Errorf("Rephrase of a faithful text: %v", err)
			}
		})
	}
}
