package bot

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/slack-go/slack"
)

// Slack's limits (Block Kit reference): 50 blocks a message, 3000 characters
// a section text, 2000 a field, 10 fields a section, 150 a header.
const (
	maxBlocks      = 50
	maxSectionText = 3000
	maxFieldText   = 2000
	maxFields      = 10
	maxHeaderText  = 150
)

// tr picks the English or Chinese string.
func tr(lang, en, zh string) string {
	if lang == "zh" {
		return zh
	}
	return en
}

// fmtNum prints a figure with at most two decimals and no trailing zeros.
func fmtNum(f float64) string {
	if math.Abs(f) >= 1000 {
		return groupThousands(strconv.FormatFloat(math.Round(f), 'f', 0, 64))
	}
	dec := 2
	if math.Abs(f) < 1 {
		dec = 3 // $0.198 per million tokens, not $0.2
	}
	p := math.Pow(10, float64(dec))
	s := strconv.FormatFloat(math.Round(f*p)/p, 'f', dec, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

func groupThousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// escape makes user-visible text safe for mrkdwn: &, <, > are escaped and
// formatting characters that could pair up with Chinese text are dropped.
func escape(s string) string { return mrkdwnEscaper.Replace(s) }

// mrkdwnEscaper is built once: building a Replacer costs more than using it.
// One pass is the same as escaping &<> first and then *_~, as no
// replacement contains a character another one replaces.
var mrkdwnEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "*", "×", "_", " ", "~", "-")

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func mrkdwn(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, clip(s, maxSectionText), false, false)
}

func plain(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
}

// header is a plain-text header block.
func header(s string) slack.Block {
	return slack.NewHeaderBlock(plain(clip(s, maxHeaderText)))
}

// section is a mrkdwn section; text longer than Slack allows is cut.
func section(s string) slack.Block {
	return slack.NewSectionBlock(mrkdwn(s), nil, nil)
}

// fields renders label/value pairs as section fields, ten per section.
func fields(pairs [][2]string) []slack.Block {
	var blocks []slack.Block
	for len(pairs) > 0 {
		n := min(len(pairs), maxFields)
		var fs []*slack.TextBlockObject
		for _, p := range pairs[:n] {
			fs = append(fs, slack.NewTextBlockObject(slack.MarkdownType, clip("*"+escape(p[0])+"*\n"+escape(p[1]), maxFieldText), false, false))
		}
		blocks = append(blocks, slack.NewSectionBlock(nil, fs, nil))
		pairs = pairs[n:]
	}
	return blocks
}

// context is a small grey line (assumptions, sources, dates).
func contextLine(s string) slack.Block {
	return slack.NewContextBlock("", mrkdwn(escape(s)))
}

func textBlocks(s string) []slack.Block {
	return []slack.Block{section(escape(s))}
}

// capBlocks keeps a message within Slack's block limit.
func capBlocks(bs []slack.Block) []slack.Block {
	if len(bs) > maxBlocks {
		return bs[:maxBlocks]
	}
	return bs
}

// bullet list for plain text.
func bullets(items []string) string {
	var b strings.Builder
	for _, it := range items {
		fmt.Fprintf(&b, "• %s\n", it)
	}
	return b.String()
}
