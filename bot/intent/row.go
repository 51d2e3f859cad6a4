package intent

import (
	"fmt"
	"slices"
)

// Row is everything the bot knows about one intent. Each intent's own
// package exports its row; cmd/bot puts them in one table.
type Row struct {
	ID ID
	// Words are the first words of a /gpu command that run the intent and
	// Sub the words after them, by the value they set ("add" →
	// [add, log, +, 记]). Both are the lexicon's (knowledge/data/lexicon.yaml,
	// the intents section under ID); Fill copies them in, so a row in Go
	// never repeats a word.
	Words []string
	Sub   map[string][]string
	// Settings are the key=value settings the intent reads (the lexicon's
	// settings that list it), for help. Fill copies them in.
	Settings []string
	// Example is a command to try, shown in help and as the right form when
	// a command cannot be read; ExampleZH replaces it in Chinese help, for
	// rows whose example is a sentence.
	Example, ExampleZH string
	// Help and HelpZH say what the intent answers, one line each.
	Help, HelpZH string
	// Buttons are the follow-ups its answers may offer (never for Writes).
	Buttons []Button
	// Essential are the result figures that are the answer (JSON paths,
	// "[]" for any list element): a rephrase that drops one its headline
	// shows is refused.
	Essential []string
	// Writes marks commands that change state: no re-run buttons, never
	// answered unprompted in a thread, never re-run by an edit.
	Writes bool
	// Public marks commands whose confirmation is posted for the whole
	// channel rather than to the asker alone (a subscription).
	Public bool
	// Routable marks intents a plain sentence may be routed to: the
	// router's classes (parse.Classes) are exactly these rows. It is the
	// lexicon's (routable: true), copied in by Fill: the router is trained
	// on it.
	Routable bool
	// Handler answers the intent: a bot.Handler, or one of the bot's own
	// answers for the rows bot.Rows returns. It is typed any because the
	// request and answer it takes carry the parser's slots and the rendered
	// document, which this leaf cannot name; bot.Bot.Add refuses anything
	// else. Nil: the transport answers it (listen) or nobody does (bill,
	// imported from a DM'd file).
	Handler any
}

// Lexical is what the lexicon says of an intent: its words, sub-words,
// whether a sentence may be routed to it, and the settings that list it.
type Lexical struct {
	Words    []string
	Sub      map[string][]string
	Routable bool
	Settings []string
}

// Fill completes the rows from the lexicon (lex, by ID): words and
// sub-words (a row that already has words keeps them), Routable, and the
// settings.
func Fill(rows []Row, lex func(ID) Lexical) []Row {
	out := make([]Row, len(rows))
	for i, r := range rows {
		l := lex(r.ID)
		if len(r.Words) == 0 {
			r.Words, r.Sub = l.Words, l.Sub
		}
		r.Routable = r.Routable || l.Routable
		if len(r.Settings) == 0 {
			r.Settings = l.Settings
		}
		out[i] = r
	}
	return out
}

// Check reports the first row that breaks the table's rules: an empty or
// repeated ID, a /gpu word that runs two intents, a write with buttons.
func Check(rows []Row) error {
	ids := map[ID]bool{}
	words := map[string]ID{}
	for _, r := range rows {
		if r.ID == "" {
			return fmt.Errorf("intent table: a row has no id")
		}
		if ids[r.ID] {
			return fmt.Errorf("intent table: %q twice", r.ID)
		}
		ids[r.ID] = true
		for _, w := range r.Words {
			if other, ok := words[w]; ok {
				return fmt.Errorf("intent table: /gpu %s runs both %q and %q", w, other, r.ID)
			}
			words[w] = r.ID
		}
		if r.Writes && len(r.Buttons) > 0 {
			return fmt.Errorf("intent table: %q writes and offers buttons %v", r.ID, r.Buttons)
		}
	}
	return nil
}

// Find returns the row with id.
func Find(rows []Row, id ID) (Row, bool) {
	i := slices.IndexFunc(rows, func(r Row) bool { return r.ID == id })
	if i < 0 {
		return Row{}, false
	}
	return rows[i], true
}

// Examples maps each row's ID to its example, for the parser's hints.
func Examples(rows []Row) map[ID]string {
	out := map[ID]string{}
	for _, r := range rows {
		if r.Example != "" {
			out[r.ID] = r.Example
		}
	}
	return out
}
