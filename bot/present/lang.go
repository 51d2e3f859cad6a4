// Package present is how every answer reaches a person: one language type,
// one number/money/date formatter for both languages, one escaping policy
// for everything sent to Slack (blocks and text fallbacks alike), the names
// people know cards and platforms by, and a document type that becomes
// Block Kit or plain text within Slack's limits.
//
// The bot, the transport, the daily digest, the monthly recap and the
// subscription replies all render through it, so a price looks the same in
// an answer and in the daily post and no string reaches a channel unescaped.
package present

// Lang is the language an answer is written in.
type Lang string

// The two languages the bot answers in.
const (
	EN Lang = "en"
	ZH Lang = "zh"
)

// LangOf reads a language code; anything but "zh" is English, the
// language the bot falls back to.
func LangOf(code string) Lang {
	if code == string(ZH) || len(code) >= 2 && code[:2] == "zh" {
		return ZH
	}
	return EN
}

// Pick returns the text in l.
func (l Lang) Pick(en, zh string) string {
	if l == ZH {
		return zh
	}
	return en
}

// Tr picks the English or Chinese text for a language code ("zh", "en",
// or a Slack locale such as "zh-CN").
func Tr(code, en, zh string) string { return LangOf(code).Pick(en, zh) }
