package transport

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/bottest"
)

func joined(channel, user string) map[string]any {
	return map[string]any{"type": "member_joined_channel", "channel": channel, "channel_type": "C", "user": user, "team": bottest.TeamID, "event_ts": "1.1"}
}

// When the bot itself joins a channel it posts a short intro, in both
// languages, once per channel (HTTP and Socket Mode); another member
// joining, or the bot joining again, posts nothing. docs/slack.md named
// this test before it existed.
func TestTheBotIntroducesItselfWhenItJoins(t *testing.T) {
	h := newHarness(t, nil)
	h.event(t, "Ev1", joined("C1", bottest.BotUserID))
	h.event(t, "Ev2", joined("C1", "U7"))              // a person
	h.event(t, "Ev3", joined("C1", bottest.BotUserID)) // re-invited after a kick
	sock := runSocket(t, h)
	sock.Send(t, "events_api", "env-1", json.RawMessage(bottest.EventCallback("Ev4", joined("C2", bottest.BotUserID))))
	sock.WaitAck(t, "env-1")
	h.settle()
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 2 {
		t.Fatalf("%d posts, want one intro in C1 and one in C2", len(posts))
	}
	// C1 and C2 are different conversations: their posts may go out in
	// either order, so each channel is checked for its own intro
	seen := map[string]int{}
	for i := range posts {
		f := posts[i].Form
		seen[f.Get("channel")]++
		if f.Get("thread_ts") != "" {
			t.Errorf("intro %d in %s is in thread %q, want top level", i, f.Get("channel"), f.Get("thread_ts"))
		}
		if text := f.Get("text"); !strings.Contains(text, "Hi, I'm gpubot") || !strings.Contains(text, "我是 gpubot") || !strings.Contains(text, "/gpu listen on") {
			t.Errorf("intro %q, want it in both languages with how to ask", text)
		}
	}
	if seen["C1"] != 1 || seen["C2"] != 1 {
		t.Errorf("intros per channel %v, want one in C1 and one in C2", seen)
	}
}

// thread_broadcast replies and the admin-only listen switch over Socket
// Mode too (their HTTP legs: TestThreadBroadcastRepliesAreRead,
// TestListenAndAcknowledgeNeedAnAdmin).
func TestBroadcastAndListenOverSocketMode(t *testing.T) {
	h := newHarness(t, nil)
	h.app.cfg.Users, h.app.cfg.Admins = h.api, []string{"U3"}
	sock := runSocket(t, h)
	sock.Send(t, "slash_commands", "env-1", bottest.SlashPayload("listen on", "C1", "U1", h.slack.ResponseURL("member"), "t1"))
	sock.WaitAck(t, "env-1")
	h.settle()
	if got := h.slack.Calls(bottest.ResponseURLMethod); len(got) == 0 || !strings.Contains(string(got[len(got)-1].Body), "Only workspace admins") {
		t.Fatalf("a member's listen on over Socket Mode was not refused: %v", got)
	}
	sock.Send(t, "slash_commands", "env-2", bottest.SlashPayload("listen on", "C1", "U3", h.slack.ResponseURL("admin"), "t2"))
	sock.WaitAck(t, "env-2")
	h.settle()
	got := h.slack.Calls(bottest.ResponseURLMethod)
	if last := got[len(got)-1].JSON(t); last["response_type"] != "in_channel" || !strings.Contains(last["text"].(string), "(changed by <@U3>)") {
		t.Fatalf("an admin's listen on over Socket Mode: %v", last)
	}
	ev := bottest.Msg("C1", "channel", "U1", "1.000009", "fit 13b lora")
	ev["subtype"], ev["thread_ts"] = "thread_broadcast", "1.000001"
	sock.Send(t, "events_api", "env-3", json.RawMessage(bottest.EventCallback("Ev1", ev)))
	sock.WaitAck(t, "env-3")
	h.settle()
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 1 || posts[0].Form.Get("thread_ts") != "1.000001" {
		t.Errorf("%d replies to a broadcast thread reply over Socket Mode, want 1 in its thread", len(posts))
	}
}
