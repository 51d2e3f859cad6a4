package transport

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// unclear are phrasings that may leave the router unsure between two
// read-only intents; unclearIn keeps those it is unsure of today (the
// router's weights change, so the test asks it rather than trusting a
// confidence written here).
var unclear = map[string][]string{
	"en": {"70b on h100", "13b on a100", "34b on 4090", "7b on h20", "14b on a800", "what about 70b on h800"},
	"zh": {"用 h800 训 7b", "用 h100 训 13b", "用 a100 训 70b", "用 4090 训 14b", "7b 微调", "13b 微调"},
}

var readOnly = []parse.Intent{parse.Fit, parse.Cost, parse.Monthly, parse.Buy, parse.Price, parse.Compare, parse.Recommend}

func unclearIn(t *testing.T, lang string) []parse.Request {
	t.Helper()
	p := parse.New(knowledge.MustShipped())
	var out []parse.Request
	for _, s := range unclear[lang] {
		r := p.Parse(s)
		if r.Confidence < parse.ChannelThreshold && slices.Contains(readOnly, r.Intent) && slices.Contains(readOnly, r.Runner) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		t.Fatalf("the router is sure of every %s phrasing in %q now; add some it is unsure of", lang, unclear[lang])
	}
	return out
}

// An unclear question asked of the bot (DM, mention) gets the two likeliest
// readings as buttons; the bot computes nothing until one is picked, and
// the pick is the same words asked as that command.
func TestUnclearQuestionsGetTwoReadings(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		for i, req := range unclearIn(t, lang) {
			h, cb := familyHarness(t)
			if i%2 == 0 {
				h.event(t, "Ev1", bottest.Msg("D1", "im", "U1", "1.000001", req.Text))
			} else {
				h.event(t, "Ev1", bottest.Mention("C1", "U1", "1.000001", "<@UBOT> "+req.Text))
			}
			h.settle()
			posts := h.slack.Calls("chat.postMessage")
			if len(posts) != 1 {
				t.Fatalf("%q: %d posts, want the clarifying question", req.Text, len(posts))
			}
			text := posts[0].Form.Get("text")
			want := map[string]string{"en": "Did you mean /gpu " + string(req.Intent) + " or /gpu " + string(req.Runner) + "?",
				"zh": "你是想问 /gpu " + string(req.Intent) + " 还是 /gpu " + string(req.Runner) + "？"}[lang]
			if !strings.HasPrefix(text, want) {
				t.Errorf("%q (%s %.2f, %s %.2f): answered %q, want %q", req.Text, req.Intent, req.Confidence, req.Runner, req.RunnerConfidence, text, want)
			}
			if n := cb.n.Load(); n != 0 {
				t.Errorf("%q: the bot answered %d times before a reading was picked", req.Text, n)
			}
			blocks := []byte(posts[0].Form.Get("blocks"))
			var st state
			json.Unmarshal([]byte(buttonValue(t, blocks, askAction(0))), &st)
			if wantQ := "/gpu " + string(req.Intent) + " " + req.Text; st.Q != wantQ || st.Asker != "U1" {
				t.Errorf("%q: the first button asks %q for %q, want %q for U1", req.Text, st.Q, st.Asker, wantQ)
			}
			if n := strings.Count(string(blocks), `"`+actAsk+`.`); n != 2 {
				t.Errorf("%q: %d reading buttons, want 2", req.Text, n)
			}
			if e := bottest.BlocksError(blocks, false); e != "" {
				t.Errorf("%q: Slack would refuse the clarifying question: %s", req.Text, e)
			}
			// The asker picks the first reading: it is answered as that
			// command, in place of the question.
			got := h.click(t, "U1", askAction(0), buttonValue(t, blocks, askAction(0)), "pick")
			direct := cb.Bot.Answer(t.Context(), bot.Message{Text: st.Q, Team: bottest.TeamID, Channel: "C1", User: "U1"})
			if got["replace_original"] != true || got["text"] != escape(direct.Text) {
				t.Errorf("%q: the pick answered %v, want %q in place", req.Text, got["text"], direct.Text)
			}
			if direct.Intent != req.Intent {
				t.Errorf("%q: the pick was read as %s, want %s", st.Q, direct.Intent, req.Intent)
			}
		}
	}
}

// Someone else's pick is theirs alone.
func TestAnotherMembersPickIsPrivate(t *testing.T) {
	req := unclearIn(t, "en")[0]
	h, _ := familyHarness(t)
	h.event(t, "Ev1", bottest.Mention("C1", "U1", "1.000001", "<@UBOT> "+req.Text))
	h.settle()
	blocks := []byte(h.slack.Calls("chat.postMessage")[0].Form.Get("blocks"))
	got := h.click(t, "U2", askAction(1), buttonValue(t, blocks, askAction(1)), "pick")
	if got["replace_original"] == true || got["response_type"] != "ephemeral" {
		t.Errorf("U2's pick: %v; want an ephemeral answer", got)
	}
}

// In a channel without a mention an unclear message stays unanswered, even
// where unprompted answers are on; a clear one is answered directly.
func TestUnclearChannelMessagesStaySilent(t *testing.T) {
	h, _ := familyHarness(t)
	h.send(t, "/slack/commands", formType, bottest.SlashForm("listen on", "C1", "U1", h.slack.ResponseURL("on"), "t1"))
	h.settle()
	for i, req := range unclearIn(t, "en") {
		h.event(t, "Ev"+string(rune('a'+i)), bottest.Msg("C1", "channel", "U1", "1.00000"+string(rune('1'+i)), req.Text))
	}
	h.settle()
	if n := len(h.slack.Calls("chat.postMessage")); n != 0 {
		t.Errorf("%d replies to unclear channel messages, want none", n)
	}
	h.event(t, "Evz", bottest.Msg("C1", "channel", "U1", "2.000001", "13b 模型 LoRA 微调要多大显存"))
	h.settle()
	if posts := h.slack.Calls("chat.postMessage"); len(posts) != 1 || strings.Contains(posts[0].Form.Get("text"), "/gpu fit or") {
		t.Errorf("a clear channel question: %d posts; want it answered", len(posts))
	}
}

// Over Socket Mode too, the clarifying question is one post that Slack
// takes (the strict fake refuses blocks whose buttons share an action id),
// and its second reading is clickable on its own id.
func TestClarifyingButtonsSocketMode(t *testing.T) {
	req := unclearIn(t, "en")[0]
	h, _ := familyHarness(t)
	sock := runSocket(t, h)
	sock.Send(t, "events_api", "env-1", json.RawMessage(bottest.EventCallback("Ev1", bottest.Msg("D1", "im", "U1", "1.000001", req.Text))))
	sock.WaitAck(t, "env-1")
	posts := h.slack.WaitCalls(t, "chat.postMessage", 1)
	h.settle()
	if n := len(h.slack.Calls("chat.postMessage")); n != 1 {
		t.Fatalf("%d posts, want one clarifying question Slack accepts", n)
	}
	blocks := []byte(posts[0].Form.Get("blocks"))
	var st state
	json.Unmarshal([]byte(buttonValue(t, blocks, askAction(1))), &st)
	if want := "/gpu " + string(req.Runner) + " " + req.Text; st.Q != want {
		t.Errorf("second reading asks %q, want %q", st.Q, want)
	}
	sock.Send(t, "interactive", "env-2", bottest.BlockAction("D1", "U1", "1.000001", askAction(1), buttonValue(t, blocks, askAction(1)), h.slack.ResponseURL("pick"), "trig-pick"))
	sock.WaitAck(t, "env-2")
	got := h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0].JSON(t)
	if got["replace_original"] != true {
		t.Errorf("the asker's pick: %v, want the question replaced by its answer", got)
	}
}
