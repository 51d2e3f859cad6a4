package main

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
)

func TestAskPrintsAFaithfulRephrase(t *testing.T) {
	llm := bottest.NewOpenAI(t)
	const faithful = "A 13B LoRA fine-tune needs about 31.01 GB per replica: one A100 80GB is enough."
	llm.SetDefault(bottest.OpenAIReply{Text: faithful})
	t.Setenv("OPENAI_BASE_URL", llm.BaseURL())
	t.Setenv("OPENAI_MODEL", "test-model")
	out, err := runBot(t, "", "ask", "/gpu fit 13b lora")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out) != faithful {
		t.Errorf("ask printed %q, want the rephrase", out)
	}
	reqs := llm.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "31.01") {
		t.Errorf("the prompt does not carry the facts: %d requests", len(reqs))
	}
}

func TestAskFallsBackToTheTemplateOnAChangedNumber(t *testing.T) {
	plain, err := runBot(t, "", "ask", "/gpu fit 13b lora")
	if err != nil {
		t.Fatal(err)
	}
	llm := bottest.NewOpenAI(t)
	llm.SetDefault(bottest.OpenAIReply{Text: "A 13B LoRA fine-tune needs about 44.13 GB per replica."})
	t.Setenv("OPENAI_BASE_URL", llm.BaseURL())
	t.Setenv("OPENAI_MODEL", "test-model")
	out, err := runBot(t, "", "ask", "/gpu fit 13b lora")
	if err != nil {
		t.Fatal(err)
	}
	if out != plain {
		t.Errorf("with an unfaithful model ask printed:\n%s\nwant the template, identical to no LLM:\n%s", out, plain)
	}
}
