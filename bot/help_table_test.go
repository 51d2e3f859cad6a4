package bot_test

import (
	"context"
	"slices"
	"testing"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/budget"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/profile"
	subscribecmd "github.com/gpubot/gpubot/bot/subscribe/command"
	"github.com/gpubot/gpubot/bot/transport"
	"github.com/gpubot/gpubot/bot/watch"
)

// tableRows are cmd/bot's rows beyond the bot's own, without handlers:
// help reads only their facts.
func tableRows() []intent.Row {
	return []intent.Row{subscribecmd.Row(nil), watch.Row(nil), budget.Row(nil), profile.Row(nil), transport.ListenRow()}
}

// TestHelpGolden renders help over the whole intent table, as bot serve
// shows it (testdata/help_*.golden.json).
func TestHelpGolden(t *testing.T) {
	b := bot.NewTestBot(t)
	if err := b.Add(tableRows()...); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, text string }{{"help_en", "/gpu help"}, {"help_zh", "/gpu 帮助"}} {
		t.Run(tt.name, func(t *testing.T) {
			bot.CheckGolden(t, tt.name, b.Answer(context.Background(), bot.Message{Text: tt.text}))
		})
	}
}

// TestRoutableRowsAreTheClasses holds the router's classes (in the order
// of its embedded weights) to the table's Routable rows, and Unknown.
func TestRoutableRowsAreTheClasses(t *testing.T) {
	b := bot.NewTestBot(t)
	if err := b.Add(tableRows()...); err != nil {
		t.Fatal(err)
	}
	var routable []intent.ID
	for _, r := range b.Table() {
		if r.Routable {
			routable = append(routable, r.ID)
		}
	}
	routable = append(routable, "unknown")
	classes := parse.Classes()
	slices.Sort(routable)
	slices.Sort(classes)
	if !slices.Equal(routable, classes) {
		t.Errorf("routable rows %v, router classes %v: mark the row Routable, or add the class and regenerate the weights (-update)", routable, classes)
	}
}
