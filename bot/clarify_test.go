package bot

import (
	"testing"

	"github.com/gpubot/gpubot/bot/parse"
)

func TestClarifyOffersOnlyReadOnlyCommands(t *testing.T) {
	b := newTestBot(t)
	m := Message{Text: "70b on h100"}
	tests := []struct {
		name string
		req  parse.Request
		want []string // the choices' texts; nil: no clarifying question
	}{
		{"two read-only readings", parse.Request{Lang: "en", Intent: parse.Fit, Confidence: 0.46, Runner: parse.Cost, RunnerConfidence: 0.26},
			[]string{"/gpu fit 70b on h100", "/gpu cost 70b on h100"}},
		{"a confident reading is answered", parse.Request{Lang: "en", Intent: parse.Fit, Confidence: 0.6, Runner: parse.Cost}, nil},
		{"a write command is never offered", parse.Request{Lang: "en", Intent: parse.Fit, Confidence: 0.4, Runner: parse.Spend}, nil},
		{"nor is a write command first", parse.Request{Lang: "en", Intent: parse.Subscribe, Confidence: 0.4, Runner: parse.Price}, nil},
		// The lexicon gives guide notes a /gpu word (guide), so they are a
		// reading a button can ask for.
		{"guide notes are re-asked by their word", parse.Request{Lang: "en", Intent: parse.Knowledge, Confidence: 0.46, Runner: parse.Price},
			[]string{"/gpu guide 70b on h100", "/gpu price 70b on h100"}},
		{"unknown is no reading", parse.Request{Lang: "en", Intent: parse.Unknown, Confidence: 0.3, Runner: parse.Compare}, nil},
		{"a follow-up continues its conversation", parse.Request{Lang: "en", Intent: parse.Fit, Confidence: 0.4, Runner: parse.Cost, FollowUp: true}, nil},
	}
	for _, tt := range tests {
		a, ok := b.Clarify(m, tt.req)
		var got []string
		for _, c := range a.Choices {
			got = append(got, c.Text)
			if n := len([]rune(c.Label)); n > maxChoiceLabel {
				t.Errorf("%s: label of %d characters", tt.name, n)
			}
		}
		if ok != (tt.want != nil) || len(got) != len(tt.want) || (ok && (got[0] != tt.want[0] || got[1] != tt.want[1])) {
			t.Errorf("%s: Clarify = %v %q, want %q", tt.name, ok, got, tt.want)
		}
	}
}
