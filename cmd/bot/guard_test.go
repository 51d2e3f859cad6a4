package main

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
)

// TestAskRefusesAHeadlineWithTheAnswersOtherNumbers: issue #28 item 5 end
// to end. The model puts the L40S's 48 GB in the headline and moves the
// real figure (31.01 GB) to a later line; every number is the answer's
// own, yet bot ask prints the template, identical to running without an
// LLM.
func TestAskRefusesAHeadlineWithTheAnswersOtherNumbers(t *testing.T) {
	plain, err := runBot(t, "", "ask", "/gpu fit 13b lora")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plain, "31.01 GB") || !strings.Contains(plain, "48GB") {
		t.Fatalf("the fit answer changed (want 31.01 GB and a 48GB card in it):\n%s", plain)
	}
	llm := bottest.NewOpenAI(t)
	llm.SetDefault(bottest.OpenAIReply{Text: "A 13B LoRA fine-tune needs about 48 GB per replica.\nIn all it is 31.01 GB."})
	t.Setenv("OPENAI_BASE_URL", llm.BaseURL())
	t.Setenv("OPENAI_MODEL", "test-model")
	out, err := runBot(t, "", "ask", "/gpu fit 13b lora")
	if err != nil {
		t.Fatal(err)
	}
	if len(llm.Requests()) != 1 {
		t.Fatalf("%d LLM requests, want 1 (the rephrase was asked for and refused)", len(llm.Requests()))
	}
	if out != plain {
		t.Errorf("with a headline-moving model ask printed:\n%s\nwant the template:\n%s", out, plain)
	}
}

// TestAskNeverRephrasesLedgerAnswers: a spend report is the team's own
// money; it never goes to the model, so a model that would answer ¥20 for
// ¥200 is never asked.
func TestAskNeverRephrasesLedgerAnswers(t *testing.T) {
	llm := bottest.NewOpenAI(t)
	llm.SetDefault(bottest.OpenAIReply{Text: "GPU spend this month: ¥20."})
	t.Setenv("OPENAI_BASE_URL", llm.BaseURL())
	t.Setenv("OPENAI_MODEL", "test-model")
	out, err := runBot(t, "/gpu spend add 4090 x2 10h ¥200 project=demo\n/gpu spend report\n", "ask", "--thread", "T", "-")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(llm.Requests()); n != 0 {
		t.Errorf("%d LLM requests for spend answers, want none", n)
	}
	if !strings.Contains(out, "200") || strings.Contains(out, "¥20.") {
		t.Errorf("spend answers:\n%s\nwant the ledger's ¥200, never the model's ¥20", out)
	}
}
