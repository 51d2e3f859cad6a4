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
	"github.com/gpubot/gpubot/bot/thread"
	"github.com/gpubot/gpubot/knowledge"
)

// slowFirst is the real bot, slow on a conversation's opening question
// (a model call, a cold cache): its follow-ups, sent a few milliseconds
// later, reach a free worker first unless the conversation is serialised.
type slowFirst struct {
	*bot.Bot
	delay time.Duration
}

func (s slowFirst) Answer(ctx context.Context, m bot.Message) bot.Answer {
	if strings.HasPrefix(m.Text, "cost ") {
		select {
		case <-time.After(s.delay):
		case <-ctx.Done():
		}
	}
	return s.Bot.Answer(ctx, m)
}

// orderConv is one of the four conversations of the ordering test.
type orderConv struct {
	channel, kind, root string // root: the thread's ts in a channel (its first message's, orderEvents)
	params              string // the opening question's model size
}

var orderConvs = []orderConv{
	{channel: "D1", kind: "im", params: "7"},
	{channel: "D2", kind: "im", params: "13"},
	{channel: "C1", kind: "channel", root: "3.000001", params: "34"},
	{channel: "C2", kind: "channel", root: "4.000001", params: "70"},
}

// orderTurns are each conversation's five messages: a cost question, then
// four follow-ups that name only a card. Read alone, "what about on a100?"
// is a price question; read after its question it is that question's cost
// on the A100 — the words below are what the cost headline says then.
var orderTurns = []struct{ text, card string }{
	{"cost %sb lora 50k samples on h100", "H100 SXM"},
	{"what about on a100?", "A100 80GB"},
	{"and on 4090?", "RTX 4090"},
	{"what about on h800?", "H800 SXM"},
	{"and on h100?", "H100 SXM"},
}

// orderEvents are the 20 messages interleaved: every conversation's first
// message, then every conversation's second, and so on.
func orderEvents() []map[string]any {
	var out []map[string]any
	for i, turn := range orderTurns {
		for j, c := range orderConvs {
			text := turn.text
			if i == 0 {
				text = fmt.Sprintf(text, c.params)
			}
			ts := fmt.Sprintf("%d.%06d", j+1, i+1)
			var ev map[string]any
			if c.kind == "im" {
				ev = bottest.Msg(c.channel, "im", "U1", ts, text)
			} else {
				ev = bottest.Mention(c.channel, "U1", ts, "<@UBOT> "+text)
				if i > 0 {
					ev["thread_ts"] = c.root
				}
			}
			out = append(out, ev)
		}
	}
	return out
}

func orderHarness(t *testing.T, delay time.Duration) *harness {
	t.Helper()
	b := bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil)
	h := newHarness(t, slowFirst{Bot: b, delay: delay})
	b.UseThreads(thread.New(h.rdb, thread.Options{}))
	return h
}

// checkOrder asserts that every conversation got its five answers in the
// order asked, in its thread, each read in that conversation's context.
func checkOrder(t *testing.T, h *harness) {
	t.Helper()
	posts := h.slack.WaitCalls(t, "chat.postMessage", len(orderConvs)*len(orderTurns))
	for _, c := range orderConvs {
		var got []string
		for _, p := range posts {
			if p.Form.Get("channel") != c.channel {
				continue
			}
			if c.root != "" && p.Form.Get("thread_ts") != c.root {
				t.Errorf("%s: answer in thread %q, want %s", c.channel, p.Form.Get("thread_ts"), c.root)
			}
			got = append(got, p.Form.Get("text"))
		}
		if len(got) != len(orderTurns) {
			t.Fatalf("%s: %d answers, want %d", c.channel, len(got), len(orderTurns))
		}
		for i, turn := range orderTurns {
			want := c.params + "B LoRA fine-tune on " + turn.card
			if !strings.Contains(got[i], want) {
				t.Errorf("%s answer %d = %.120q, want it to say %q (message %d, read after its conversation's question)", c.channel, i+1, got[i], want, i+1)
			}
		}
	}
}

// Twenty messages in four conversations (two DMs, two channel threads),
// interleaved and sent back to back over HTTP while the opening questions
// are slow: each conversation is answered in order and every follow-up is
// read in its own conversation's context. Without the per-conversation
// order the follow-ups, answered first, were read alone (price questions).
func TestOneConversationIsAnsweredInOrderHTTP(t *testing.T) {
	h := orderHarness(t, 60*time.Millisecond)
	for i, ev := range orderEvents() {
		start := time.Now()
		if r := h.event(t, fmt.Sprintf("Ev%d", i), ev); r.status != 200 {
			t.Fatalf("event %d: status %d", i, r.status)
		}
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("event %d acked in %v, want < 3s", i, took)
		}
	}
	h.settle()
	checkOrder(t, h)
}

// The same over Socket Mode: every envelope is acked, the answers in order.
func TestOneConversationIsAnsweredInOrderSocket(t *testing.T) {
	h := orderHarness(t, 60*time.Millisecond)
	sock := runSocket(t, h)
	for i, ev := range orderEvents() {
		sock.Send(t, "events_api", fmt.Sprintf("env-%d", i), json.RawMessage(bottest.EventCallback(fmt.Sprintf("Ev%d", i), ev)))
	}
	for i := range orderEvents() {
		sock.WaitAck(t, fmt.Sprintf("env-%d", i))
	}
	checkOrder(t, h)
	h.settle()
}

// Conversations still run side by side: four slow opening questions in
// four conversations take about one delay, not four.
func TestConversationsRunInParallel(t *testing.T) {
	h := orderHarness(t, 300*time.Millisecond)
	start := time.Now()
	for i, ev := range orderEvents()[:len(orderConvs)] {
		h.event(t, fmt.Sprintf("Ev%d", i), ev)
	}
	h.settle()
	// 4 × 300 ms = 1.2 s one after another; in parallel ≈ 300 ms plus
	// the answers themselves.
	if took := time.Since(start); took > 900*time.Millisecond {
		t.Errorf("four conversations' slow questions took %v, want well under 4 × 300ms", took)
	}
}

// The per-conversation chains count against the queue: a full queue
// refuses work whichever conversation it is for.
func TestWaitingJobsCountAgainstTheQueue(t *testing.T) {
	c := conversations{waiting: map[string][]job{}}
	q := make(chan job, 3)
	for i, key := range []string{"a", "a", "a"} {
		if !c.admit(job{key: key}, q) {
			t.Fatalf("job %d refused with room left", i)
		}
	}
	if len(q) != 1 || c.waitingCount() != 2 {
		t.Fatalf("queue %d, waiting %d; want 1 queued and 2 behind it", len(q), c.waitingCount())
	}
	if c.admit(job{key: "b"}, q) || c.admit(job{key: "a"}, q) || c.admit(job{}, q) {
		t.Error("a fourth job admitted into a capacity of 3")
	}
	<-q // the running job of "a" finished: the next of "a" follows it
	if _, ok := c.next("a"); !ok {
		t.Fatal("no job behind the first of a")
	}
	if _, ok := c.next("a"); !ok {
		t.Fatal("no third job of a")
	}
	if _, ok := c.next("a"); ok {
		t.Fatal("a fourth job of a that was never admitted")
	}
	if !c.admit(job{key: "a"}, q) || len(q) != 1 {
		t.Error("an idle conversation's job did not go to the queue")
	}
}

func TestConversationKey(t *testing.T) {
	for _, tc := range []struct{ channel, thread, ts, want string }{
		{"D1", "", "1.1", "T1:D1"},
		{"D1", "1.0", "1.1", "T1:D1"}, // a DM is one conversation, threads too (bot/thread)
		{"C1", "", "1.1", "T1:C1:1.1"},
		{"C1", "1.1", "1.2", "T1:C1:1.1"}, // a reply joins its root's
		{"", "", "1.1", ""},
	} {
		if got := conversationKey("T1", tc.channel, tc.thread, tc.ts); got != tc.want {
			t.Errorf("conversationKey(%s, %q, %q) = %q, want %q", tc.channel, tc.thread, tc.ts, got, tc.want)
		}
	}
	raw := bottest.EventCallback("Ev1", map[string]any{"type": "message", "channel": "C1", "thread_ts": "5.0", "ts": "5.1"})
	if got := eventConversation(raw); got != "T1:C1:5.0" {
		t.Errorf("eventConversation = %q, want T1:C1:5.0", got)
	}
}
