package bot_test

import (
	"context"
	"testing"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/budget"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/profile"
	subscribecmd "github.com/gpubot/gpubot/bot/subscribe/command"
	"github.com/gpubot/gpubot/bot/transport"
	"github.com/gpubot/gpubot/bot/watch"
)

// tableRows are the write intents' rows, without handlers: help reads
// only their facts. The golden pins help's layout over these; cmd/bot's
// TestIntentTable checks the table bot serve builds, newer intents
// (sources) included.
func tableRows() []intent.Row {
	return []intent.Row{subscribecmd.Row(nil), watch.Row(nil), budget.Row(nil), profile.Row(nil), transport.ListenRow()}
}

// TestHelpGolden renders help over the bot's rows and the write intents'
// (testdata/help_*.golden.json).
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
