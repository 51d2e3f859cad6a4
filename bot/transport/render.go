package transport

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/present"
)

// Slack's limits live in bot/present (present.Limit applies them); these
// are the names this package's older callers use.
const (
	maxBlocks      = present.MaxBlocks
	maxButtonValue = 2000
)

// Button action ids; all start with actionPrefix.
const (
	actionPrefix   = "gpubot."
	actionsBlockID = "gpubot.actions"
	actWorking     = "gpubot.working"
	actMore        = "gpubot.more"
	actCurrency    = "gpubot.currency"
	actBits        = "gpubot.bits"
	actShare       = "gpubot.share"
	actAsk         = "gpubot.ask" // a clarifying question's reading
	// actBreakdown is the old "Show breakdown" button, still on messages
	// posted before the working view replaced it.
	actBreakdown = "gpubot.breakdown"
)

// askAction is the action id of a clarifying question's i-th reading
// (gpubot.ask.1, gpubot.ask.2): one action id per element of a block.
func askAction(i int) string { return actAsk + "." + strconv.Itoa(i+1) }

// actionKind is the button an action id names: a reading's numbered id
// is actAsk (and so is the bare id of messages posted before numbering).
func actionKind(id string) string {
	if strings.HasPrefix(id, actAsk+".") {
		return actAsk
	}
	return id
}

// state is what a button carries: the question as asked, the changes the
// buttons made, the view asked for, who asked, and where the rendered
// answers are stored. Every button re-renders a stored answer: the view
// (working, more, share) of the variant (currency, 8-bit) the settings ask
// for, from the answer's family (family.go). Write commands get no buttons
// at all.
type state struct {
	Q     string            `json:"q"`
	Slash bool              `json:"s,omitempty"`
	Set   map[string]string `json:"o,omitempty"` // key=value settings appended to Q
	View  string            `json:"v,omitempty"`
	Asker string            `json:"u,omitempty"` // the user who asked; only their click replaces
	Key   string            `json:"k,omitempty"` // stored family (answerKey)
}

// overrides are the settings buttons may add, with the values they may take;
// bot/parse reads them as key=value in both commands and sentences.
var overrides = map[string][]string{
	"currency": {"usd", "cny"},
	"bits":     {"8"},
}

// views a button may ask for ("breakdown" is the old name of working).
var views = []string{"", string(present.Working), string(present.More), "breakdown"}

func (s state) text() string {
	t := s.Q
	for _, k := range slices.Sorted(maps.Keys(s.Set)) {
		t += " " + k + "=" + s.Set[k]
	}
	return t
}

func (s state) message(team, channel, user string) bot.Message {
	return bot.Message{Text: s.text(), Team: team, Channel: channel, User: user, Slash: s.Slash}
}

// messageFor is message with the user's locale looked up.
func (a *App) messageFor(ctx context.Context, s state, team, channel, user string) bot.Message {
	m := s.message(team, channel, user)
	m.Locale = a.locale(ctx, team, user, m.Text)
	return m
}

// with returns s with key set to value; an empty value removes it. The
// family stays: it holds the variant with the change.
func (s state) with(key, value string) state {
	set := maps.Clone(s.Set)
	if set == nil {
		set = map[string]string{}
	}
	if value == "" {
		delete(set, key)
	} else {
		set[key] = value
	}
	if len(set) == 0 {
		set = nil
	}
	s.Set = set
	return s
}

func (s state) withView(v present.View) state {
	s.View = string(v)
	return s
}

func (s state) view() present.View {
	if s.View == "breakdown" {
		return present.Working
	}
	return present.View(s.View)
}

func (s state) encode() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// decodeState reads and checks a button's value.
func decodeState(v string) (state, error) {
	var s state
	if err := json.Unmarshal([]byte(v), &s); err != nil {
		return s, err
	}
	if strings.TrimSpace(s.Q) == "" {
		return s, errors.New("no question")
	}
	for k, val := range s.Set {
		if !slices.Contains(overrides[k], val) {
			return s, errors.New("setting not allowed: " + k)
		}
	}
	if !slices.Contains(views, s.View) {
		return s, errors.New("unknown view")
	}
	if s.Key != "" && !validKey(s.Key) {
		return s, errors.New("bad answer key")
	}
	return s, nil
}

// reply is a message ready for Slack.
type reply struct {
	Text   string
	Blocks []slack.Block
}

// compose turns an answer into a message: the view st asks for (the short
// answer, the working or the whole list), the answer's buttons (plus Share
// for a slash answer only the asker sees), Slack's limits applied by
// present.Limit, and an escaped fallback text that is never empty.
func compose(a bot.Answer, st state, share bool) reply {
	lang := present.LangOf(a.Lang)
	text := a.Text
	var blocks []slack.Block
	switch v := st.view(); {
	case v != present.Short && a.Doc.Headline != "":
		text, blocks = a.Doc.Render(v), a.Doc.Blocks(v)
	case v != present.Short:
		text, blocks = a.Text, present.PlainSections(a.Text)
	default:
		blocks = slices.Clone(a.Blocks)
	}
	if len(blocks) == 0 {
		blocks = present.TextBlocks(text)
	}
	var btns []slack.BlockElement
	if st.view() == present.Short {
		btns = buttons(a, st, share)
	}
	reserve := 0
	if len(btns) > 0 {
		reserve = 1
	}
	blocks = present.Limit(blocks, reserve)
	if len(btns) > 0 {
		blocks = append(blocks, slack.NewActionBlock(actionsBlockID, btns...))
	}
	return reply{Text: present.Fallback(lang, text), Blocks: blocks}
}

// buttons offers the follow-ups the answer lists (bot.Answer.Buttons: the
// intent table's buttons that apply to it) and Share for a private slash
// answer. Errors, help and write commands have none.
func buttons(a bot.Answer, st state, share bool) []slack.BlockElement {
	if a.Ephemeral || a.Err != "" {
		return nil
	}
	type btn struct {
		id, label string
		next      state
	}
	var bs []btn
	for _, b := range a.Buttons {
		switch b {
		case bot.ButtonWorking:
			bs = append(bs, btn{actWorking, tr(a.Lang, "Show working", "计算过程"), st.withView(present.Working)})
		case bot.ButtonMore:
			bs = append(bs, btn{actMore, tr(a.Lang, "More", "更多"), st.withView(present.More)})
		case bot.ButtonCurrency:
			if currency(a, st) == "USD" {
				bs = append(bs, btn{actCurrency, tr(a.Lang, "In 人民币 (CNY)", "换成人民币"), st.with("currency", "cny")})
			} else {
				bs = append(bs, btn{actCurrency, tr(a.Lang, "In USD", "换成美元 (USD)"), st.with("currency", "usd")})
			}
		case bot.ButtonBits8:
			if st.Set["bits"] == "8" {
				bs = append(bs, btn{actBits, tr(a.Lang, "Undo 8-bit", "取消 8-bit"), st.with("bits", "")})
			} else {
				bs = append(bs, btn{actBits, tr(a.Lang, "Assume 8-bit", "按 8-bit 计算"), st.with("bits", "8")})
			}
		}
	}
	for i, c := range a.Choices {
		// A reading of an unclear question: asking it is a new question
		// (read-only: bot.Clarify offers no write command). Each has its
		// own action id: Slack refuses a block whose elements share one.
		bs = append(bs, btn{askAction(i), c.Label, state{Q: c.Text, Asker: st.Asker}})
	}
	if share && len(bs) > 0 {
		bs = append(bs, btn{actShare, tr(a.Lang, "Share in channel", "分享到频道"), st})
	}
	var out []slack.BlockElement
	seen := map[string]bool{}
	for _, b := range bs {
		if seen[b.id] {
			continue // Slack would refuse the whole message (invalid_blocks)
		}
		seen[b.id] = true
		v := b.next.encode()
		if len(v) > maxButtonValue {
			return nil // the question is too long to carry; no buttons rather than broken ones
		}
		out = append(out, slack.NewButtonBlockElement(b.id, v, slack.NewTextBlockObject(slack.PlainTextType, b.label, false, false)))
	}
	return out
}

// currency is the one the answer is in: asked for by a button, else the
// answer's own (a typed field), else the language's default (DESIGN.md:
// CNY for Chinese questions, USD for English ones).
func currency(a bot.Answer, st state) string {
	if c := st.Set["currency"]; c != "" {
		return strings.ToUpper(c)
	}
	if a.Currency != "" {
		return strings.ToUpper(a.Currency)
	}
	if a.Lang == "zh" {
		return "CNY"
	}
	return "USD"
}

// plainSections shows text in plain_text sections (bill import replies).
func plainSections(text string) []slack.Block { return present.PlainSections(text) }

// mrkdwn is a mrkdwn text object; escape is the one escaping policy
// (present.Escape); clamp applies Slack's limits (present.Limit).
func mrkdwn(s string) *slack.TextBlockObject {
	return present.Mrkdwn(present.Clip(s, present.MaxSectionText))
}

func escape(s string) string { return present.Escape(s) }

func clamp(blocks []slack.Block, n int) []slack.Block {
	return present.Limit(blocks, max(present.MaxBlocks-n, 0))
}

func clip(s string, n int) string { return present.Clip(s, n) }

func tr(lang, en, zh string) string { return present.Tr(lang, en, zh) }
