package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/bot/thread"
	"github.com/gpubot/gpubot/knowledge"
)

// ledgerThreadHarness is the real bot with a ledger and the conversation
// store, over the strict fake Slack.
func ledgerThreadHarness(t *testing.T) (*harness, *ledger.Ledger) {
	t.Helper()
	st, err := store.OpenEmbedded(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	kb := knowledge.MustShipped()
	now := func() time.Time { return time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC) }
	l := ledger.New(st, ledger.Options{KB: kb, Now: now})
	b := bot.New(bot.Config{FX: 7.2}, kb, nil)
	b.Route(parse.Spend, bot.NewSpend(l, ledger.NewAuthorizer(nil, nil, 0), 7.2, now))
	h := newHarness(t, b)
	b.UseThreads(thread.New(h.rdb, thread.Options{}))
	return h, l
}

// where is a conversation of the click-writes test: a DM, or a channel
// thread the bot is mentioned in.
type where struct {
	name, channel, root string
}

func (w where) say(t *testing.T, h *harness, id, ts, text string) {
	t.Helper()
	var ev map[string]any
	if w.root == "" {
		ev = bottest.Msg(w.channel, "im", "U1", ts, text)
	} else {
		ev = bottest.Mention(w.channel, "U1", ts, "<@UBOT> "+text)
		if ts != w.root {
			ev["thread_ts"] = w.root
		}
	}
	h.event(t, id, ev)
	h.settle()
}

// clickKinds are every button a message of the bot can carry, with the
// value each would hold on the answer whose Show-working button is st:
// the views and settings the bot renders, Share, a clarifying reading,
// and the old Show-breakdown id.
func clickKinds(st state) map[string]string {
	base := st.withView("")
	return map[string]string{
		actWorking:   base.withView(present.Working).encode(),
		actMore:      base.withView(present.More).encode(),
		actBreakdown: base.withView("breakdown").encode(),
		actCurrency:  base.with("currency", "cny").encode(),
		actBits:      base.with("bits", "8").encode(),
		actShare:     base.encode(),
		askAction(0): state{Q: st.Q, Asker: st.Asker}.encode(),
	}
}

// In a DM or thread whose last request was a spend entry, a click on an
// earlier answer's button — whatever its kind, its answer family stored
// or gone (restart, expiry, variants skipped while busy) — writes nothing:
// the red team booked one entry per click by re-asking "what about on
// a100?" in the conversation, where it merged into the spend add.
func TestAClickNeverWrites(t *testing.T) {
	for _, w := range []where{{"DM", "D1", ""}, {"thread", "C1", "1.000001"}} {
		for _, stored := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/family stored %v", w.name, stored), func(t *testing.T) {
				h, l := ledgerThreadHarness(t)
				w.say(t, h, "Ev1", "1.000001", "cost 13b lora 50k samples on h100")
				w.say(t, h, "Ev2", "1.000002", "what about on a100?")
				posts := h.slack.Calls("chat.postMessage")
				if len(posts) != 2 || !strings.Contains(posts[1].Form.Get("text"), "13B LoRA fine-tune on A100") {
					t.Fatalf("the follow-up was not answered in its conversation: %d posts, last %.100q", len(posts), posts[len(posts)-1].Form.Get("text"))
				}
				var st state
				if err := json.Unmarshal([]byte(buttonValue(t, []byte(posts[1].Form.Get("blocks")), actWorking)), &st); err != nil {
					t.Fatal(err)
				}
				w.say(t, h, "Ev3", "1.000003", "spend add 40h 4090 ¥75 project=llm")
				if n := entries(t, l); n != 1 {
					t.Fatalf("%d entries after one spend add, want 1", n)
				}
				if !stored {
					for _, k := range h.mini.Keys() {
						if strings.HasPrefix(k, "gpubot:answer:") {
							h.mini.Del(k)
						}
					}
				}
				i := 0
				for kind, value := range clickKinds(st) {
					i++
					p := bottest.BlockAction(w.channel, "U1", "1.000002", kind, value, h.slack.ResponseURL(fmt.Sprint("click", i)), fmt.Sprint("trig-", i))
					if w.root != "" {
						p["container"].(map[string]any)["thread_ts"] = w.root
						p["message"].(map[string]any)["thread_ts"] = w.root
					}
					h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(p))
					h.settle()
					if n := entries(t, l); n != 1 {
						t.Fatalf("%s click: %d ledger entries, want the 1 typed", kind, n)
					}
				}
				// A typed fragment after the write is not merged into it
				// either: "and on runpod?" books nothing.
				w.say(t, h, "Ev4", "1.000004", "and on runpod?")
				if n := entries(t, l); n != 1 {
					t.Errorf("typed follow-up after a spend add: %d entries, want 1", n)
				}
			})
		}
	}
}

// The parser's list of write intents (parse.FollowUp refuses to merge
// into one) is the bot's: every intent the bot's table marks as a write
// takes no follow-up, and a read-only one still does.
func TestNoFollowUpMergesIntoAWrite(t *testing.T) {
	p := parse.New(knowledge.MustShipped(), fullTable()...)
	now := time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC)
	writes := 0
	for _, r := range fullTable() {
		id := r.ID
		if len(r.Words) == 0 && !r.Routable {
			continue // no message reads as it (bill: a DM'd file)
		}
		prev := parse.Request{Intent: id, Lang: "en", Confidence: 1, Text: "previous",
			Slots: parse.Slots{ParamsB: 13, Method: "lora", GPUs: []string{"h100-sxm"}, Hours: 40}}
		got, merged := p.FollowUp(prev, "and on runpod?", now)
		if r.Writes {
			writes++
			if merged || got.Intent == id {
				t.Errorf("%s (a write): \"and on runpod?\" merged into it (%s, merged %v)", id, got.Intent, merged)
			}
		}
	}
	if writes == 0 {
		t.Fatal("no intent is a write; the list above is out of date")
	}
	prev := parse.Request{Intent: parse.Cost, Lang: "en", Confidence: 1, Text: "cost 13b lora 50k samples on h100",
		Slots: parse.Slots{ParamsB: 13, Method: "lora", GPUs: []string{"h100-sxm"}}}
	if got, merged := p.FollowUp(prev, "what about on a100?", now); !merged || len(got.Slots.GPUs) != 1 || got.Slots.GPUs[0] != "a100-80g" || got.Slots.ParamsB != 13 {
		t.Errorf("a read-only follow-up: merged %v, gpu %s, params %v; want the 13B cost on the a100-80g", merged, got.Slots.GPUs, got.Slots.ParamsB)
	}
}
