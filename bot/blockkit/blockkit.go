// Package blockkit holds the small Block Kit helpers the scheduled posts and
// command replies share: escaping, sections, context lines, language pick.
package blockkit

import (
	"strings"

	"github.com/slack-go/slack"
)

// control escapes Slack's three control characters; built once.
var control = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Escape makes text safe inside mrkdwn the caller formats itself (its own
// *bold* stays bold): only &, < and > are escaped.
func Escape(s string) string { return control.Replace(s) }

// Section is a mrkdwn section block.
func Section(mrkdwn string) slack.Block {
	return slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, mrkdwn, false, false), nil, nil)
}

// Context is a small grey mrkdwn line.
func Context(mrkdwn string) slack.Block {
	return slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, mrkdwn, false, false))
}

// Tr picks the Chinese or English text.
func Tr(lang, en, zh string) string {
	if lang == "zh" {
		return zh
	}
	return en
}
