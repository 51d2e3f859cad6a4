package present

import (
	"strings"

	"github.com/slack-go/slack"
)

// Slack's limits (Block Kit reference): 50 blocks a message, 3,000
// characters a section's text, 2,000 a field, 10 fields a section, 150 a
// header; chat.postMessage: "limit text to 4,000 characters".
const (
	MaxBlocks      = 50
	MaxSectionText = 3000
	MaxFieldText   = 2000
	MaxFields      = 10
	MaxHeaderText  = 150
	MaxFallback    = 4000
)

// Blocks renders a view of the document as Block Kit, already within
// Slack's limits (Limit is applied). Every string is escaped.
func (d Doc) Blocks(v View) []slack.Block {
	switch v {
	case Working:
		return Limit(append([]slack.Block{Section("*" + Escape(d.Headline) + "*")}, PlainSections(strings.TrimPrefix(d.WorkingText(), d.Headline))...), 0)
	case More:
		return Limit(append([]slack.Block{Section("*" + Escape(d.Headline) + "*")}, PlainSections(strings.TrimPrefix(d.MoreText(), d.Headline))...), 0)
	}
	head := "*" + Escape(d.Headline) + "*"
	for _, s := range d.Summary {
		head += "\n" + Escape(s)
	}
	bs := []slack.Block{Section(head)}
	if fs := d.figures(); len(fs) > 0 {
		var objs []*slack.TextBlockObject
		for _, f := range fs {
			objs = append(objs, Mrkdwn("*"+Escape(f.Label)+"*\n"+Escape(f.Value)))
		}
		bs = append(bs, slack.NewSectionBlock(nil, objs, nil))
	}
	if len(d.List) > 0 {
		shown := min(len(d.List), ShortList)
		var b strings.Builder
		if d.ListTitle != "" {
			b.WriteString("*" + Escape(d.ListTitle) + "*\n")
		}
		for _, it := range d.List[:shown] {
			b.WriteString("• " + Escape(it) + "\n")
		}
		if shown < len(d.List) {
			b.WriteString(Escape(d.moreLine(shown)))
		}
		bs = append(bs, Section(strings.TrimRight(b.String(), "\n")))
	}
	for _, p := range d.Body {
		for _, c := range chunks(p, MaxSectionText-100) {
			bs = append(bs, Section(Escape(c)))
		}
	}
	var ctx []string
	if len(d.Assumed) > 0 {
		codes := make([]string, len(d.Assumed))
		for i, a := range d.Assumed {
			codes[i] = Code(a)
		}
		ctx = append(ctx, d.Lang.Pick("Assumed: ", "默认：")+strings.Join(codes, " ")+Escape(d.Lang.Pick(" (paste any to change it)", "（复制其中任一项改值重问）")))
	}
	if l := d.NextLine(); l != "" {
		ctx = append(ctx, Escape(l))
	}
	for _, c := range ctx {
		bs = append(bs, Context(c))
	}
	return Limit(bs, 0)
}

// Mrkdwn is a mrkdwn text object; the caller has escaped its data.
func Mrkdwn(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, s, false, false)
}

// Plain is a plain_text object (no mrkdwn, nothing to escape but the
// control characters Slack reads in any text).
func Plain(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
}

// Section is a mrkdwn section block; the caller has escaped its data.
func Section(mrkdwn string) slack.Block {
	return slack.NewSectionBlock(Mrkdwn(mrkdwn), nil, nil)
}

// Context is a small grey mrkdwn line; the caller has escaped its data.
func Context(mrkdwn string) slack.Block {
	return slack.NewContextBlock("", Mrkdwn(mrkdwn))
}

// Header is a plain-text header block.
func Header(s string) slack.Block { return slack.NewHeaderBlock(Plain(s)) }

// TextBlocks shows plain text (escaped) in sections.
func TextBlocks(s string) []slack.Block {
	var out []slack.Block
	for _, c := range chunks(s, MaxSectionText-100) {
		out = append(out, Section(Escape(c)))
	}
	return out
}

// PlainSections shows text in plain_text sections (no mrkdwn, so no stray
// formatting next to Chinese), split at line ends to fit Slack's limit.
func PlainSections(text string) []slack.Block {
	var out []slack.Block
	for _, c := range chunks(text, MaxSectionText-100) {
		out = append(out, slack.NewSectionBlock(Plain(Escape(c)), nil, nil))
	}
	return out
}

// Fallback is a message's text fallback (notifications, screen readers,
// clients without blocks): escaped like everything else, within Slack's
// limit, never empty.
func Fallback(lang Lang, text string) string {
	if strings.TrimSpace(text) == "" {
		text = lang.Pick("gpubot has no answer to show.", "gpubot 没有可显示的回答。")
	}
	return Clip(Escape(text), MaxFallback)
}

// Limit is the one place Slack's Block Kit limits are applied: at most
// MaxBlocks−reserve blocks (reserve leaves room for the caller's buttons),
// a last context line saying what was cut, and every text within its
// block's limit.
func Limit(blocks []slack.Block, reserve int) []slack.Block {
	n := MaxBlocks - reserve
	if len(blocks) > n {
		cut := len(blocks) - (n - 1)
		blocks = append(blocks[:n-1:n-1], Context(Escape("… "+itoa(cut)+" more sections not shown / 另有 "+itoa(cut)+" 段未显示")))
	}
	out := make([]slack.Block, 0, len(blocks))
	for _, b := range blocks {
		switch b := b.(type) {
		case *slack.SectionBlock:
			s := *b
			s.Text = clipText(s.Text, MaxSectionText)
			if len(s.Fields) > MaxFields {
				s.Fields = s.Fields[:MaxFields]
			}
			if len(s.Fields) > 0 {
				fs := make([]*slack.TextBlockObject, len(s.Fields))
				for i := range s.Fields {
					fs[i] = clipText(s.Fields[i], MaxFieldText)
				}
				s.Fields = fs
			}
			out = append(out, &s)
		case *slack.HeaderBlock:
			h := *b
			h.Text = clipText(h.Text, MaxHeaderText)
			out = append(out, &h)
		case *slack.ContextBlock:
			c := *b
			els := make([]slack.MixedElement, len(c.ContextElements.Elements))
			for i, e := range c.ContextElements.Elements {
				if t, ok := e.(*slack.TextBlockObject); ok {
					e = clipText(t, MaxSectionText)
				}
				els[i] = e
			}
			c.ContextElements.Elements = els
			out = append(out, &c)
		default:
			out = append(out, b)
		}
	}
	return out
}

func itoa(n int) string { return Num(float64(n)) }

func clipText(t *slack.TextBlockObject, n int) *slack.TextBlockObject {
	if t == nil || len([]rune(t.Text)) <= n {
		return t
	}
	c := *t
	c.Text = Clip(c.Text, n)
	return &c
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
