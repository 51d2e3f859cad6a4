package bot

import (
	"strings"

	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

// Choice is one reading of an unclear question: a button that asks Text,
// the same words as Intent's command.
type Choice struct {
	Intent parse.Intent `json:"intent"`
	Label  string       `json:"label"`
	Text   string       `json:"text"`
}

// maxChoiceLabel is Slack's limit on a button's text.
const maxChoiceLabel = 75

// Clarify is the answer to a direct question the router is unsure of
// (below parse.ChannelThreshold): which of its two likeliest intents was
// meant, each a button re-asking the text as that intent's command. ok is
// false when there is nothing to choose between (a follow-up, a command,
// or fewer than two read-only intents with a command word), and the
// question is then answered as it was read.
func (b *Bot) Clarify(m Message, req parse.Request) (Answer, bool) {
	if req.Slash || req.FollowUp || len(req.Problems) > 0 || req.Confidence >= parse.ChannelThreshold {
		return Answer{}, false
	}
	var cs []Choice
	var words []string
	for _, id := range []parse.Intent{req.Intent, req.Runner} {
		r, ok := b.row(id)
		slash := r.Words // the words the parser takes
		if !ok || r.Writes || len(slash) == 0 || r.Handler == nil || id == parse.Help {
			return Answer{}, false
		}
		words = append(words, slash[0])
		label := slash[0] + tr(req.Lang, ": "+r.Help, "："+r.HelpZH)
		cs = append(cs, Choice{Intent: id, Label: present.Clip(label, maxChoiceLabel),
			Text: "/gpu " + slash[0] + " " + strings.TrimSpace(m.Text)})
	}
	a := Answer{Intent: parse.Unknown, Confidence: req.Confidence, Lang: req.Lang, Slots: req.Slots, Assumed: map[string]any{}, Choices: cs}
	a.show(present.Doc{
		Headline: tr(req.Lang, "Did you mean /gpu "+words[0]+" or /gpu "+words[1]+"?",
			"你是想问 /gpu "+words[0]+" 还是 /gpu "+words[1]+"？"),
		Body: []string{strings.TrimRight(bullets([]string{cs[0].Label, cs[1].Label}), "\n")},
		Next: tr(req.Lang, "pick one below, or ask again with more detail", "请点选下面一项，或补充细节后再问"),
	})
	return a, true
}
