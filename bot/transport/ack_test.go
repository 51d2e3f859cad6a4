package transport

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/slack-go/slack"

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

// The click rewrites the alert itself (replace_original): the clicked
// alert's button becomes "Acknowledged by <@U2>", the other alert in the
// same post keeps its button, and a redelivered click changes nothing
// more.
func TestBudgetAlertAcknowledgeUpdatesAlert(t *testing.T) {
	h := newHarness(t, nil)
	h.app.cfg.Acknowledge = func(context.Context, string, string, string) error { return nil }
	section := func(text, id string) slack.Block {
		btn := slack.NewButtonBlockElement(budgets.AckAction, id, slack.NewTextBlockObject(slack.PlainTextType, "Acknowledge", false, false))
		return slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, slack.NewAccessory(btn))
	}
	raw, err := json.Marshal(slack.Blocks{BlockSet: []slack.Block{
		section("pretrain is past 50% of its budget", "pretrain|2026-10|50"),
		section("Budget forecast: pretrain reaches its budget on the 29th", "pretrain|2026-10|forecast"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	var blocks any
	if err := json.Unmarshal(raw, &blocks); err != nil {
		t.Fatal(err)
	}
	payload := bottest.BlockAction("C1", "U2", "1.2", budgets.AckAction, "pretrain|2026-10|50", h.slack.ResponseURL("ack2"), "trig-ack2")
	payload["message"] = map[string]any{"ts": "1.2", "text": "pretrain is past 50% of its budget", "blocks": blocks}
	for range 2 {
		if r := h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(payload)); r.status != 200 {
			t.Fatalf("click status %d", r.status)
		}
	}
	h.settle()
	calls := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)
	if len(calls) != 1 {
		t.Fatalf("%d responses to two deliveries of one click, want 1", len(calls))
	}
	var got struct {
		ReplaceOriginal bool         `json:"replace_original"`
		Text            string       `json:"text"`
		Blocks          slack.Blocks `json:"blocks"`
	}
	if err := json.Unmarshal(calls[0].Body, &got); err != nil {
		t.Fatalf("response body %s: %v", calls[0].Body, err)
	}
	if !got.ReplaceOriginal || !strings.Contains(got.Text, "Acknowledged by <@U2>") {
		t.Errorf("response replace_original=%v text %q; want the alert replaced, naming U2", got.ReplaceOriginal, got.Text)
	}
	var buttons []string
	var notes int
	for _, b := range got.Blocks.BlockSet {
		switch b := b.(type) {
		case *slack.SectionBlock:
			if b.Accessory != nil && b.Accessory.ButtonElement != nil {
				buttons = append(buttons, b.Accessory.ButtonElement.Value)
			}
		case *slack.ContextBlock:
			body, _ := json.Marshal(b)
			if strings.Contains(string(body), "Acknowledged by \\u003c@U2\\u003e") {
				notes++
			}
		}
	}
	if len(buttons) != 1 || buttons[0] != "pretrain|2026-10|forecast" || notes != 1 {
		t.Errorf("buttons left %q, acknowledgement notes %d; want only the forecast's button and one note", buttons, notes)
	}
}
