package bot

import (
	"context"
	"strings"
	"testing"
)

func TestKnowledgeQuestionsPickTheRightGuideItem(t *testing.T) {
	b := newTestBot(t)
	tests := []struct{ q, topic string }{
		{"签合同要注意什么", "contract"},
		{"what should the SLA and compensation terms say?", "contract"},
		{"what hidden costs should I expect", "hidden_costs"},
		{"爆显存了怎么办", "oom"},
		{"CUDA out of memory, what can I do before buying a bigger card?", "oom"},
		{"昇腾迁移难吗", "xinchuang"},
	}
	for _, tt := range tests {
		a := b.Answer(context.Background(), Message{Text: tt.q})
		if a.Intent != "knowledge" {
			t.Errorf("%q routed to %s, want knowledge", tt.q, a.Intent)
			continue
		}
		res, ok := a.Result.(KnowledgeResult)
		if !ok || len(res.Items) == 0 {
			t.Errorf("%q: no guide item chosen: %q", tt.q, a.Text)
			continue
		}
		if res.Items[0].Topic != tt.topic {
			t.Errorf("%q: top item %s (%s), want topic %s", tt.q, res.Items[0].ID, res.Items[0].Topic, tt.topic)
		}
		if res.Items[0].Source == "" {
			t.Errorf("%q: answer without a source", tt.q)
		}
	}
}

func TestGuideRankingIsDeterministic(t *testing.T) {
	b := newTestBot(t)
	first := rankGuide(b.kb.Guide, "合同 sla 赔偿 发票", "contract", nil)
	for range 20 {
		again := rankGuide(b.kb.Guide, "合同 sla 赔偿 发票", "contract", nil)
		if len(again) != len(first) || again[0].ID != first[0].ID {
			t.Fatalf("ranking changed between runs: %v vs %v", first[0].ID, again[0].ID)
		}
	}
	if got := rankGuide(b.kb.Guide, "the weather in Paris", "", nil); len(got) != 0 {
		t.Errorf("off-topic text matched %d guide items (%s)", len(got), got[0].ID)
	}
}

func TestMissingValuesGetAFollowUpQuestion(t *testing.T) {
	b := newTestBot(t)
	en := b.Answer(context.Background(), Message{Text: "how much to fine-tune a 70B with QLoRA?"})
	if en.Err == "" || !strings.HasPrefix(en.Text, "One more thing:") || !strings.Contains(en.Text, "/gpu cost") {
		t.Errorf("English follow-up: %q", en.Text)
	}
	zh := b.Answer(context.Background(), Message{Text: "70b qlora 微调要花多少钱"})
	if !strings.HasPrefix(zh.Text, "还差一点信息：") || !strings.Contains(zh.Text, "样本") {
		t.Errorf("Chinese follow-up: %q", zh.Text)
	}
}
