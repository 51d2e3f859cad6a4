package transport

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
	budgets "github.com/gpubot/gpubot/bot/budget"
)

// A click on a budget alert's Acknowledge button is recorded once (Slack
// may deliver it twice) and answered under the alert with who clicked.
func TestBudgetAlertAcknowledge(t *testing.T) {
	h := newHarness(t, nil)
	var mu sync.Mutex
	var got []string
	h.app.cfg.Acknowledge = func(_ context.Context, team, alert, user string) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, team+" "+alert+" "+user)
		return nil
	}
	click := bottest.InteractiveForm(bottest.BlockAction("C1", "U2", "1.1", budgets.AckAction, "pretrain|2026-10|80", h.slack.ResponseURL("ack"), "trig-ack"))
	for range 2 {
		if r := h.send(t, "/slack/interactive", formType, click); r.status != 200 {
			t.Fatalf("click status %d", r.status)
		}
	}
	h.settle()
	calls := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0] != bottest.TeamID+" pretrain|2026-10|80 U2" {
		t.Errorf("acknowledgements recorded: %q, want one for pretrain|2026-10|80 by U2", got)
	}
	if len(calls) != 1 || !strings.Contains(string(calls[0].Body), `\u003c@U2\u003e acknowledged this budget alert`) {
		t.Errorf("replies: %d, first %s", len(calls), calls[0].Body)
	}
}
