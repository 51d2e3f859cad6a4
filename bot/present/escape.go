package present

import "strings"

// Escape is the one escaping policy for text that reaches Slack, in blocks
// and in text fallbacks alike, whoever wrote it (the user, a bill, the
// catalogue, the LLM):
//
//   - &, < and > become entities, so <!channel>, <!here>, <@U…> and masked
//     links <https://…|label> show as typed and ping or link nobody;
//   - * and ~ are replaced by × and ∼, because next to Chinese text (no
//     spaces to stop them) they pair up into bold and strikethrough;
//   - _ is left alone: Slack italicises only at word boundaries, and keys
//     such as seq_len must stay pasteable.
//
// Formatting the bot adds itself (a *bold* headline) is added after
// escaping, so it stays formatting.
func Escape(s string) string { return escaper.Replace(s) }

// escaper is built once: building a Replacer costs more than using it. One
// pass equals escaping &<> first, as no replacement contains a character
// another one replaces.
var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "*", "×", "~", "∼")

// Code shows a pasteable value (seq_len=4096) as inline code, where no
// mrkdwn applies; the value is escaped first.
func Code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(Escape(s), "`", "'") + "`"
}

// Clip cuts s to at most n runes, ending in "…" when cut.
func Clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		if n < 1 {
			return ""
		}
		cut := r[:n-1]
		// Never end inside an entity the escaping wrote (&amp; &lt; &gt;):
		// Slack would show the stub ("&am…").
		if i := lastIndexRune(cut, '&'); i >= 0 && len(cut)-i < len("&amp;") && !containsRune(cut[i:], ';') {
			cut = cut[:i]
		}
		return string(cut) + "…"
	}
	return s
}

func lastIndexRune(rs []rune, c rune) int {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i] == c {
			return i
		}
	}
	return -1
}

func containsRune(rs []rune, c rune) bool { return lastIndexRune(rs, c) >= 0 }

// EscapeControl escapes only Slack's control characters (&, <, >): for
// mrkdwn the bot formats itself (its *bold* headings stay bold) around data
// that has no formatting of its own to abuse. Mentions and links in the
// data are neutralised either way.
func EscapeControl(s string) string { return control.Replace(s) }

var control = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
