package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/parse"
)

// Slack's limits (Block Kit and chat.postMessage references).
const (
	maxBlocks       = 50
	maxSectionText  = 3000
	maxFieldText    = 2000
	maxHeaderText   = 150
	maxButtonValue  = 2000
	maxFallbackText = 4000 // "limit text to 4,000 characters"
)

// Button action ids; all start with actionPrefix.
const (
	actionPrefix   = "gpubot."
	actionsBlockID = "gpubot.actions"
	actBreakdown   = "gpubot.breakdown"
	actCurrency    = "gpubot.currency"
	actBits        = "gpubot.bits"
	viewBreakdown  = "breakdown"
)

// state is what a button carries: the question as asked plus the changes
// the buttons made. Clicking re-answers state.text() from scratch, so a
// button needs nothing from the server and works on any replica.
type state struct {
	Q     string            `json:"q"`
	Slash bool              `json:"s,omitempty"`
	Set   map[string]string `json:"o,omitempty"` // key=value settings appended to Q
	View  string            `json:"v,omitempty"`
}

// overrides are the settings buttons may add, with the values they may take;
// bot/parse reads them as key=value in both commands and sentences.
var overrides = map[string][]string{
	"currency": {"usd", "cny"},
	"bits":     {"8"},
}

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

// with returns s with key set to value; an empty value removes it.
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

func (s state) withView(v string) state {
	s.View = v
	return s
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
	if s.View != "" && s.View != viewBreakdown {
		return s, errors.New("unknown view")
	}
	return s, nil
}

// reply is a message ready for Slack.
type reply struct {
	Text   string
	Blocks []slack.Block
}

// compose turns an answer into a message: the bot's blocks (or the worked
// answer when st asks for the breakdown), buttons where they help, Slack's
// limits applied, and a fallback text that is never empty.
func compose(a bot.Answer, st state) reply {
	text := a.Text
	if strings.TrimSpace(text) == "" {
		text = tr(a.Lang, "gpubot has no answer to show.", "gpubot 没有可显示的回答。")
	}
	var blocks []slack.Block
	if st.View == viewBreakdown {
		blocks = plainSections(text)
	} else {
		blocks = slices.Clone(a.Blocks)
	}
	if a.Intent == parse.Help {
		blocks = append(blocks, slack.NewSectionBlock(mrkdwn(escape(listenUsage(a.Lang))), nil, nil))
		text += "\n" + listenUsage(a.Lang)
	}
	btns := buttons(a, st)
	limit := maxBlocks
	if len(btns) > 0 {
		limit--
	}
	blocks = clamp(blocks, limit)
	if len(btns) > 0 {
		blocks = append(blocks, slack.NewActionBlock(actionsBlockID, btns...))
	}
	return reply{Text: clip(escape(text), maxFallbackText), Blocks: blocks}
}

func listenUsage(lang string) string {
	return tr(lang,
		"/gpu listen on|off — answer GPU questions in this channel without a mention",
		"/gpu listen on|off — 在本频道无需 @ 也回答 GPU 问题")
}

// Intents that get each button.
var (
	breakdownIntents = []parse.Intent{parse.Fit, parse.Cost, parse.Monthly, parse.Buy, parse.Compare, parse.Recommend}
	moneyIntents     = []parse.Intent{parse.Fit, parse.Cost, parse.Monthly, parse.Buy, parse.Price, parse.Compare, parse.Recommend, parse.Spend}
	bitsIntents      = []parse.Intent{parse.Fit, parse.Cost}
)

// buttons offers the follow-ups that change a numeric answer: the worked
// breakdown, the other currency, and an 8-bit variant where the engine
// accepts one.
func buttons(a bot.Answer, st state) []slack.BlockElement {
	if a.Ephemeral {
		return nil
	}
	type btn struct {
		id, label string
		next      state
	}
	var bs []btn
	if slices.Contains(breakdownIntents, a.Intent) {
		if st.View == viewBreakdown {
			bs = append(bs, btn{actBreakdown, tr(a.Lang, "Hide breakdown", "收起明细"), st.withView("")})
		} else {
			bs = append(bs, btn{actBreakdown, tr(a.Lang, "Show breakdown", "显示明细"), st.withView(viewBreakdown)})
		}
	}
	if slices.Contains(moneyIntents, a.Intent) && hasMoney(a.Result) {
		if currency(a, st) == "USD" {
			bs = append(bs, btn{actCurrency, tr(a.Lang, "In 人民币 (CNY)", "换成人民币"), st.with("currency", "cny")})
		} else {
			bs = append(bs, btn{actCurrency, tr(a.Lang, "In USD", "换成美元 (USD)"), st.with("currency", "usd")})
		}
	}
	if slices.Contains(bitsIntents, a.Intent) {
		// The advisor takes an 8-bit base only for inference and QLoRA;
		// LoRA, full and freeze fine-tunes train a 16-bit model.
		method, bits := a.Slots.Method, a.Slots.Bits
		if method == "" {
			method, _ = a.Assumed["method"].(string)
		}
		if bits == 0 {
			bits, _ = a.Assumed["bits"].(int)
		}
		switch {
		case st.Set["bits"] == "8":
			bs = append(bs, btn{actBits, tr(a.Lang, "Undo 8-bit", "取消 8-bit"), st.with("bits", "")})
		case (method == "inference" || method == "qlora") && bits != 8:
			bs = append(bs, btn{actBits, tr(a.Lang, "Assume 8-bit", "按 8-bit 计算"), st.with("bits", "8")})
		}
	}
	var out []slack.BlockElement
	for _, b := range bs {
		v := b.next.encode()
		if len(v) > maxButtonValue {
			return nil // the question is too long to carry; no buttons rather than broken ones
		}
		out = append(out, slack.NewButtonBlockElement(b.id, v, slack.NewTextBlockObject(slack.PlainTextType, b.label, false, false)))
	}
	return out
}

// hasMoney reports whether an answer's result carries a price.
func hasMoney(result any) bool {
	if result == nil {
		return false
	}
	b, err := json.Marshal(result)
	return err == nil && (bytes.Contains(b, []byte(`"currency":"USD"`)) || bytes.Contains(b, []byte(`"currency":"CNY"`)))
}

// currency is the one the answer is in: asked for, the only one in the
// result, or the language's default (DESIGN.md: CNY for Chinese questions,
// USD for English ones).
func currency(a bot.Answer, st state) string {
	if c := st.Set["currency"]; c != "" {
		return strings.ToUpper(c)
	}
	if a.Slots.Currency != "" {
		return strings.ToUpper(a.Slots.Currency)
	}
	if b, err := json.Marshal(a.Result); err == nil {
		usd, cny := bytes.Contains(b, []byte(`"currency":"USD"`)), bytes.Contains(b, []byte(`"currency":"CNY"`))
		switch {
		case usd && !cny:
			return "USD"
		case cny && !usd:
			return "CNY"
		}
	}
	if a.Lang == "zh" {
		return "CNY"
	}
	return "USD"
}

// clamp keeps at most n blocks and every text within Slack's limits.
func clamp(blocks []slack.Block, n int) []slack.Block {
	if len(blocks) > n {
		blocks = blocks[:n]
	}
	out := make([]slack.Block, 0, len(blocks))
	for _, b := range blocks {
		switch b := b.(type) {
		case *slack.SectionBlock:
			s := *b
			s.Text = clipText(s.Text, maxSectionText)
			if len(s.Fields) > 0 {
				s.Fields = slices.Clone(s.Fields)
				for i := range s.Fields {
					s.Fields[i] = clipText(s.Fields[i], maxFieldText)
				}
			}
			out = append(out, &s)
		case *slack.HeaderBlock:
			h := *b
			h.Text = clipText(h.Text, maxHeaderText)
			out = append(out, &h)
		default:
			out = append(out, b)
		}
	}
	return out
}

func clipText(t *slack.TextBlockObject, n int) *slack.TextBlockObject {
	if t == nil || len([]rune(t.Text)) <= n {
		return t
	}
	c := *t
	c.Text = clip(c.Text, n)
	return &c
}

// plainSections shows text in plain_text sections (no mrkdwn, so no stray
// formatting next to Chinese), split at line ends to fit Slack's limit.
func plainSections(text string) []slack.Block {
	var out []slack.Block
	for _, chunk := range chunks(text, maxSectionText-100) {
		out = append(out, slack.NewSectionBlock(slack.NewTextBlockObject(slack.PlainTextType, chunk, false, false), nil, nil))
	}
	return out
}

// chunks splits s into pieces of at most n runes, at line ends where it can.
func chunks(s string, n int) []string {
	var out []string
	var cur []rune
	for _, line := range strings.SplitAfter(strings.TrimSpace(s), "\n") {
		r := []rune(line)
		for len(r) > n { // a line longer than a chunk
			if len(cur) > 0 {
				out, cur = append(out, strings.TrimSpace(string(cur))), nil
			}
			out, r = append(out, string(r[:n])), r[n:]
		}
		if len(cur)+len(r) > n {
			out, cur = append(out, strings.TrimSpace(string(cur))), nil
		}
		cur = append(cur, r...)
	}
	if t := strings.TrimSpace(string(cur)); t != "" {
		out = append(out, t)
	}
	return out
}

func mrkdwn(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, clip(s, maxSectionText), false, false)
}

// escape makes plain text safe in mrkdwn: Slack's three control characters,
// and "*", which pairs up into bold around Chinese text (no spaces to stop it).
func escape(s string) string { return mrkdwnEscaper.Replace(s) }

// mrkdwnEscaper is built once: building a Replacer costs more than using it.
var mrkdwnEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "*", "×")

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func tr(lang, en, zh string) string {
	if lang == "zh" {
		return zh
	}
	return en
}
