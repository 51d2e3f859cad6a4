package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// "is claude haiku api cheaper than renting an H100 …" is routed to buy by
// the router ("renting"); the whole question is an API weighed against
// self-hosting, and the API named leads the first line.
func TestAPIQuestionRoutedToBuyIsAnAPIAnswer(t *testing.T) {
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	a := b.Answer(context.Background(), Message{Text: "is claude haiku api cheaper than renting an H100 for 50M tokens a day?", Team: "T1", Channel: "D1", User: "U1"})
	if a.Intent != "api" {
		t.Fatalf("intent %s, want api\n%s", a.Intent, a.Text)
	}
	if !strings.Contains(a.Headline, "claude-haiku") || !strings.Contains(a.Headline, "50,000,000 tokens/day") {
		t.Errorf("headline %q: want the named API and the load", a.Headline)
	}
	if _, ok := a.Ignored["tokens_per_day"]; ok {
		t.Errorf("the load is ignored: %v", a.Ignored)
	}
}
