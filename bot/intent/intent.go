// Package intent is the Slack-side domain: what a user said (Message), the
// intents the bot answers (ID, Row) and the one error a user may see
// (Error). It imports the standard library only, so every layer — the
// parser, the presentation, each feature, the transport, the wiring — can
// name these types without importing the bot.
//
// The intent table is a []Row built once by cmd/bot from the rows each
// feature package exports (bot.Rows for the read-only intents and spend,
// budget.Row, watch.Row, profile.Row, subscribe/command.Row,
// transport.ListenRow, fx.Row). Help, the parser's examples, the router's
// classes, the buttons, the transport's write and public checks and the
// dispatch all read that table.
package intent

// ID names an intent; the names are the ask --json contract's ("fit",
// "spend", "watch"). parse.Intent is the same type.
type ID string

// Message is one thing a user said, wherever it came from.
type Message struct {
	Text    string
	Team    string
	Channel string
	User    string
	Slash   bool // text is a /gpu command's argument text
	// ID names the request for idempotent writes (the spend ledger): the
	// same Slack message, command or click always carries the same ID, so a
	// redelivery books nothing twice. "" when there is none (CLI).
	ID string
	// Thread is the thread the message was said in (its root ts); with
	// UseThreads, a follow-up there is merged with the thread's last request.
	Thread string
	// Locale is the asker's Slack locale (users.info, e.g. "zh-CN"); it
	// picks the answer's language when the text does not (a command with
	// no Chinese in it).
	Locale string
	// Variant marks the same question asked again with a button's setting
	// (currency=cny, bits=8) to store beside the answer: it reads the
	// conversation like the question did but is not recorded in it (the
	// thread's last request stays the one the user asked) nor counted as
	// an answer in the metrics.
	Variant bool
}

// Button is a follow-up an answer offers. Every one re-renders or re-asks a
// read-only question; write commands (spend, subscribe, listen) get none.
type Button string

// The buttons.
const (
	ButtonWorking  Button = "working"  // show the full derivation (ephemeral)
	ButtonMore     Button = "more"     // show the whole list (ephemeral)
	ButtonCurrency Button = "currency" // the same question in the other currency
	ButtonBits8    Button = "bits8"    // the same question with an 8-bit model
)

// ReadButtons are the buttons most read-only answers offer.
var ReadButtons = []Button{ButtonWorking, ButtonMore, ButtonCurrency}
