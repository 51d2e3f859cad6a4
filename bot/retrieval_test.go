package bot

import (
	"context"
	"strings"
	"testing"
)

// TestIssueKnowledgeQuestions: the guide questions issue 13 found
// unanswered are routed to knowledge and answered with the right item, two
// related titles and a source.
func TestIssueKnowledgeQuestions(t *testing.T) {
	b := newTestBot(t)
	tests := []struct{ q, item string }{
		{"可中断实例半路被回收了咋办", "spot-interruption-checkpointing"},
		{"数据出口费怎么收", "egress-fees"},
		{"H20 算力被砍了为啥还有人买", "h20-positioning"},
		{"零售平台和大厂云比差在哪", "platform-categories"},
	}
	for _, tt := range tests {
		a := b.Answer(context.Background(), Message{Text: tt.q})
		res, ok := a.Result.(KnowledgeResult)
		if a.Intent != "knowledge" || !ok || len(res.Items) == 0 {
			t.Errorf("%q: intent %s, result %v; want a knowledge answer", tt.q, a.Intent, a.Result)
			continue
		}
		if res.Items[0].ID != tt.item {
			t.Errorf("%q answered with %s, want %s", tt.q, res.Items[0].ID, tt.item)
		}
		if len(res.Related) != 2 || !strings.Contains(a.Text, "相关：") {
			t.Errorf("%q: related %v, want two titles listed", tt.q, res.Related)
		}
	}
	a := b.Answer(context.Background(), Message{Text: "/gpu guide 今天中午吃什么"})
	if res, _ := a.Result.(KnowledgeResult); len(res.Items) != 0 || !strings.Contains(a.Text, "我可以讲") {
		t.Errorf("off-topic guide question answered %q, want what the bot can answer", a.Text)
	}
}
