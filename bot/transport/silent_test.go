package transport

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/phrase"
	"github.com/gpubot/gpubot/knowledge"
)

// A command left two private messages: the "⏳ Working on" note stayed and
// the answer came below it. The answer, and a rephrase after it, now
// replace the note: every response_url post of a command replaces.
func TestOneMessagePerCommand(t *testing.T) {
	h, _ := phraseHarness(t, faithful)
	h.slash(t, "fit 13b lora", "r", "t1")
	sock := runSocket(t, h)
	sock.Send(t, "slash_commands", "env-1", bottest.SlashPayload("fit 13b lora", "C1", "U1", h.slack.ResponseURL("s"), "t2"))
	sock.WaitAck(t, "env-1")
	h.settle()
	calls := h.slack.Calls(bottest.ResponseURLMethod)
	per := map[string]int{}
	for _, c := range calls {
		per[c.Path]++
		if c.JSON(t)["replace_original"] != true {
			t.Errorf("%s: a new private message beside the working note: %.200s", c.Path, c.Body)
		}
	}
	// the answer, then its rephrase, on each transport
	if per["/response/r"] != 2 || per["/response/s"] != 2 {
		t.Errorf("response_url posts %v, want the answer and its rephrase for each command", per)
	}
}

// A currency click replaced the answer, then the late LLM rephrase put the
// first variant back. A replaced answer is not rephrased. "socket" is the
// DM case with the click over Socket Mode.
func TestRephraseNeverRevertsAClick(t *testing.T) {
	for _, via := range []string{"dm", "slash", "socket"} {
		h := newHarness(t, bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil))
		llm := bottest.NewOpenAI(t)
		llm.SetDefault(bottest.OpenAIReply{Text: faithful, Delay: 400 * time.Millisecond})
		h.app.cfg.Phraser = phrase.New(phrase.Config{BaseURL: llm.BaseURL(), Model: "m", Timeout: 5 * time.Second}, nil)
		var blocks []byte
		ts := "1.5"
		if via != "slash" {
			h.event(t, "Ev1", bottest.Msg("D1", "im", "U1", "1.000001", "/gpu fit 13b lora"))
			post := h.slack.WaitCalls(t, "chat.postMessage", 1)[0]
			blocks = []byte(post.Form.Get("blocks"))
			ts = h.slack.WaitMessages(t, "D1", 1)[0].TS
		} else {
			h.slash(t, "fit 13b lora", "r", "t1")
			blocks = blocksOf(t, h.slack.WaitCalls(t, bottest.ResponseURLMethod, 1)[0].Body)
		}
		// The click comes while the model is still writing.
		p := bottest.BlockAction("D1", "U1", ts, actCurrency, buttonValue(t, blocks, actCurrency), h.slack.ResponseURL("click"), "trig-c")
		if via == "socket" {
			sock := runSocket(t, h)
			sock.Send(t, "interactive", "env-c", p)
			sock.WaitAck(t, "env-c")
		} else {
			h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(p))
		}
		h.settle() // the rephrase has come back by now
		if n := len(llm.Requests()); n != 1 {
			t.Fatalf("%s: %d model calls, want the one rephrase attempted", via, n)
		}
		clicked := 0
		for _, c := range h.slack.Calls(bottest.ResponseURLMethod) {
			if strings.HasSuffix(c.Path, "/click") {
				clicked++
				if c.JSON(t)["replace_original"] != true || !strings.Contains(string(c.Body), "¥") {
					t.Errorf("%s: the click answered %.200s, want the CNY variant in place", via, c.Body)
				}
			} else if via == "slash" && c.JSON(t)["text"] != nil && strings.Contains(c.JSON(t)["text"].(string), "about 31.01 GB per replica") {
				t.Errorf("%s: the rephrase replaced the clicked variant: %.200s", via, c.Body)
			}
		}
		if clicked != 1 {
			t.Errorf("%s: %d click answers, want 1", via, clicked)
		}
		if n := len(h.slack.Calls("chat.update")); n != 0 {
			t.Errorf("%s: %d chat.update calls after the click, want none (the rephrase reverts it)", via, n)
		}
	}
}

// panicky is a bot whose every answer panics.
type panicky struct{ fakeBot }

func (p *panicky) Answer(context.Context, bot.Message) bot.Answer { panic("boom") }

// A panic in an answer left "⏳ Working on" up forever and a mention
// unanswered. The asker is told, in their language, where they asked.
func TestAPanicTellsTheAsker(t *testing.T) {
	h := newHarness(t, &panicky{})
	h.slash(t, "fit 13b lora", "en", "t1")
	h.slash(t, "13b 模型 lora 要多大显存", "zh", "t2")
	h.event(t, "Ev1", bottest.Mention("C1", "U1", "1.000001", "<@UBOT> fit 13b lora"))
	sock := runSocket(t, h)
	sock.Send(t, "events_api", "env-1", json.RawMessage(bottest.EventCallback("Ev2", bottest.Msg("D1", "im", "U1", "2.000001", "13b 要多大显存"))))
	sock.WaitAck(t, "env-1")
	h.settle()
	for _, c := range h.slack.Calls(bottest.ResponseURLMethod) {
		body := c.JSON(t)
		want := map[string]string{"/response/en": "Something broke on our side", "/response/zh": "我这边回答时出错了"}[c.Path]
		if text, _ := body["text"].(string); !strings.HasPrefix(text, want) || body["replace_original"] != true {
			t.Errorf("%s: told %v, want %q in place of the working note", c.Path, body, want)
		}
	}
	if n := len(h.slack.Calls(bottest.ResponseURLMethod)); n != 2 {
		t.Errorf("%d response_url posts, want each command told once", n)
	}
	posts := h.slack.Calls("chat.postMessage")
	if len(posts) != 2 {
		t.Fatalf("%d posts, want the mention and the DM told", len(posts))
	}
	for _, p := range posts {
		want := map[string]string{"C1": "Something broke on our side", "D1": "我这边回答时出错了"}[p.Form.Get("channel")]
		if !strings.HasPrefix(p.Form.Get("text"), want) {
			t.Errorf("%s: told %q, want %q", p.Form.Get("channel"), p.Form.Get("text"), want)
		}
		if p.Form.Get("channel") == "C1" && p.Form.Get("thread_ts") != "1.000001" {
			t.Errorf("the mention was told outside its thread (%q)", p.Form.Get("thread_ts"))
		}
	}
	if !strings.Contains(h.logs.String(), "handler panicked") {
		t.Error("the panic was not logged")
	}
}
