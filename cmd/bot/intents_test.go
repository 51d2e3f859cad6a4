package main

import (
	"context"
	"log/slog"
	"slices"
	"testing"

	"github.com/kelseyhightower/envconfig"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/knowledge"
)

// TestIntentTable checks the table bot serve answers from, as wire builds
// it: every lexicon intent has a row and every row its words, the routable
// rows are the router's classes, and only the intents the transport
// answers itself have no handler.
func TestIntentTable(t *testing.T) {
	var cfg Config
	if err := envconfig.Process("", &cfg); err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenEmbedded(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kb := knowledge.MustShipped()
	b := bot.New(bot.Config{FX: cfg.FX}, kb, nil)
	if _, err := wire(cfg, kb, b, st, nil, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	table := b.Table()
	if err := intent.Check(table); err != nil {
		t.Error(err)
	}
	for id := range knowledge.MustLexicon().Intents {
		if _, ok := intent.Find(table, intent.ID(id)); !ok {
			t.Errorf("the lexicon has words for %q, which has no row: add its package's Row in deps.intents", id)
		}
	}
	var routable, unhandled []intent.ID
	for _, r := range table {
		if len(r.Words) == 0 && r.ID != "bill" && r.ID != parse.Unknown {
			t.Errorf("%s: no /gpu words (give it an entry under intents: in the lexicon)", r.ID)
		}
		if r.Routable {
			routable = append(routable, r.ID)
		}
		if r.Handler == nil {
			unhandled = append(unhandled, r.ID)
		}
	}
	classes := slices.DeleteFunc(parse.Classes(), func(id intent.ID) bool { return id == parse.Unknown })
	slices.Sort(routable)
	slices.Sort(classes)
	if !slices.Equal(routable, classes) {
		t.Errorf("routable rows %v, router classes %v: mark the row Routable, or add the class and -update the weights", routable, classes)
	}
	// bill is a DM'd file and listen a channel's opt-in: the transport's.
	if want := []intent.ID{"bill", parse.Listen}; !slices.Equal(unhandled, want) {
		t.Errorf("rows without a handler %v, want %v", unhandled, want)
	}
	// The writes: answers about the team's own records or changes to them,
	// never re-run by a button nor sent to the model to reword (a spend
	// report's ¥200 must not come back as ¥20; issue #28 item 5).
	var writes []intent.ID
	for _, r := range table {
		if b.Writes(r.ID) {
			writes = append(writes, r.ID)
		}
	}
	slices.Sort(writes)
	if want := []intent.ID{"bill", "budget", "listen", "settings", "spend", "subscribe", "watch"}; !slices.Equal(writes, want) {
		t.Errorf("writes %v, want %v", writes, want)
	}
	if a := b.Answer(context.Background(), bot.Message{Text: "/gpu sources"}); a.Intent != "sources" || a.Err != "" {
		t.Errorf("/gpu sources: intent %s, err %q, text %q", a.Intent, a.Err, a.Text)
	}
}
