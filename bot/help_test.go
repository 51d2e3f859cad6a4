package bot

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

var (
	reHelpKey     = regexp.MustCompile(`(?:^|[\s(|,;：:])([a-z_]+)=`)
	reHelpAliases = regexp.MustCompile(`^[a-z_]+= \(([^)]*)\)`)
)

// helpKeys returns every key=value key help shows, in its text or its
// working, with the other spellings its reference lists in parentheses.
func helpKeys(a Answer) map[string]bool {
	keys := map[string]bool{}
	all := []string{a.Text}
	for _, s := range a.Working {
		all = append(all, s.Label)
		if m := reHelpAliases.FindStringSubmatch(s.Label); m != nil {
			for _, al := range strings.Split(m[1], ", ") {
				keys[al] = true
			}
		}
	}
	for _, s := range all {
		for _, m := range reHelpKey.FindAllStringSubmatch(s, -1) {
			keys[m[1]] = true
		}
	}
	return keys
}

// TestHelpReadsTheLexicon checks help against the parser: every key help
// shows is a setting the parser reads (its hint's value parses without a
// problem), every lexicon setting is in help's working, every /gpu word
// help lists runs its command, and the visible text stays on one screen.
func TestHelpReadsTheLexicon(t *testing.T) {
	b := newTestBot(t)
	p := parse.New(knowledge.MustShipped())
	lex := knowledge.MustLexicon()
	for _, q := range []string{"/gpu help", "/gpu 帮助"} {
		a := b.Answer(context.Background(), Message{Text: q})
		if n := len([]rune(a.Text)); n > maxHelpText || n == 0 {
			t.Errorf("%q: help text is %d characters, want 1..%d", q, n, maxHelpText)
		}
		var working strings.Builder
		for _, s := range a.Working {
			working.WriteString(s.Label + "\n")
		}
		keys := helpKeys(a)
		if len(keys) < len(lex.Settings) {
			t.Fatalf("%q: help shows %d keys, fewer than the lexicon's %d settings", q, len(keys), len(lex.Settings))
		}
		for key := range keys {
			set, ok := lex.Setting(key)
			if !ok {
				t.Errorf("%q shows %s=, which the parser does not read", q, key)
				continue
			}
			intent := "fit"
			if len(set.Intents) > 0 {
				intent = set.Intents[0]
			}
			_, val, _ := strings.Cut(strings.Fields(set.Hint)[0], "=")
			cmd := intent + " " + key + "=" + val
			if intent == "spend" {
				cmd = "spend add " + key + "=" + val
			}
			for _, pr := range p.ParseSlash(cmd).Problems {
				if pr.Field == set.Key || strings.Contains(pr.Reason, "unknown setting") {
					t.Errorf("/gpu %s (help's %s= with its hint's value): %s", cmd, key, pr.Reason)
				}
			}
		}
		for _, s := range lex.Settings {
			if !strings.Contains(working.String(), s.Key+"=") {
				t.Errorf("%q: setting %s= is not in help's working", q, s.Key)
			}
		}
		for _, r := range b.Table() {
			for _, w := range r.Words {
				if !strings.Contains(working.String(), w) {
					t.Errorf("%q: /gpu %s (%s) is not in help's working", q, w, r.ID)
				}
			}
		}
	}
}

// TestHelpSlashWordsRun checks that every /gpu word the lexicon (and so
// help) lists runs the command it is listed under.
func TestHelpSlashWordsRun(t *testing.T) {
	p := parse.New(knowledge.MustShipped())
	for intent, words := range knowledge.MustLexicon().Intents {
		for _, w := range words.Words {
			if got := p.ParseSlash(w).Intent; string(got) != intent {
				t.Errorf("/gpu %s runs %s, want %s", w, got, intent)
			}
		}
	}
}
