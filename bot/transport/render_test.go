package transport

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

func TestComposeKeepsWithinSlackLimits(t *testing.T) {
	a := cannedAnswer(bot.Message{Text: "fit 13b"})
	long := strings.Repeat("显存", 3000)
	a.Text = long
	a.Blocks = []slack.Block{slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, long, false, false))}
	for range 60 {
		a.Blocks = append(a.Blocks, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, long, false, false),
			[]*slack.TextBlockObject{slack.NewTextBlockObject(slack.MarkdownType, long, false, false)}, nil))
	}
	r := compose(a, state{Q: "fit 13b lora"}, false)
	if len(r.Blocks) != maxBlocks {
		t.Fatalf("%d blocks, want %d", len(r.Blocks), maxBlocks)
	}
	if _, ok := r.Blocks[len(r.Blocks)-1].(*slack.ActionBlock); !ok {
		t.Errorf("last block is %T, want the buttons", r.Blocks[len(r.Blocks)-1])
	}
	for i, b := range r.Blocks {
		switch b := b.(type) {
		case *slack.HeaderBlock:
			if n := utf8.RuneCountInString(b.Text.Text); n > present.MaxHeaderText {
				t.Errorf("block %d: header of %d characters", i, n)
			}
		case *slack.SectionBlock:
			if n := utf8.RuneCountInString(b.Text.Text); n > present.MaxSectionText {
				t.Errorf("block %d: section of %d characters", i, n)
			}
			for _, f := range b.Fields {
				if n := utf8.RuneCountInString(f.Text); n > present.MaxFieldText {
					t.Errorf("block %d: field of %d characters", i, n)
				}
			}
		}
	}
	if n := utf8.RuneCountInString(r.Text); n > present.MaxFallback {
		t.Errorf("fallback text of %d characters", n)
	}
	// The caller's blocks are not changed.
	if n := utf8.RuneCountInString(a.Blocks[1].(*slack.SectionBlock).Text.Text); n != len([]rune(long)) {
		t.Errorf("compose clipped the answer's own block to %d", n)
	}

	breakdown := compose(a, state{Q: "fit 13b lora", View: "working"}, false)
	for i, b := range breakdown.Blocks[:len(breakdown.Blocks)-1] {
		if n := utf8.RuneCountInString(b.(*slack.SectionBlock).Text.Text); n > present.MaxSectionText {
			t.Errorf("breakdown block %d: %d characters", i, n)
		}
	}
}

func TestComposeAlwaysSetsFallbackText(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		r := compose(bot.Answer{Intent: parse.Fit, Lang: lang}, state{Q: "x"}, false)
		if strings.TrimSpace(r.Text) == "" {
			t.Errorf("%s: empty fallback text", lang)
		}
	}
	r := compose(bot.Answer{Text: "a < b & c > d *bold* <!channel> seq_len"}, state{Q: "x"}, false)
	if r.Text != "a &lt; b &amp; c &gt; d ×bold× &lt;!channel&gt; seq_len" {
		t.Errorf("fallback text %q not escaped for mrkdwn", r.Text)
	}
}

func TestComposeDropsButtonsThatCannotCarryTheQuestion(t *testing.T) {
	q := "fit 13b lora " + strings.Repeat("与显存有关的很长的问题", 100)
	r := compose(cannedAnswer(bot.Message{Text: q}), state{Q: q}, true)
	for _, b := range r.Blocks {
		if _, ok := b.(*slack.ActionBlock); ok {
			t.Fatal("buttons on a question too long for a button value")
		}
	}
}

func TestComposeInChinese(t *testing.T) {
	r := compose(cannedAnswer(bot.Message{Text: "13b 推理要多大显存"}), state{Q: "13b 推理要多大显存"}, false)
	b, _ := json.Marshal(map[string]any{"text": r.Text, "blocks": r.Blocks})
	golden(t, "compose_zh", b)
}

// TestButtonsFollowTheAnswer: the transport offers exactly the buttons the
// answer lists (the bot decides which apply; bot's TestButtons checks that),
// Share only on a private slash answer, none on errors.
func TestButtonsFollowTheAnswer(t *testing.T) {
	ids := func(a bot.Answer, st state, share bool) []string {
		var out []string
		for _, e := range buttons(a, st, share) {
			out = append(out, e.(*slack.ButtonBlockElement).ActionID)
		}
		return out
	}
	fit := cannedAnswer(bot.Message{Text: "fit 13b"}) // inference, by default
	tests := []struct {
		name  string
		a     bot.Answer
		st    state
		share bool
		want  []string
	}{
		{"the answer's buttons", fit, state{Q: "q"}, false, []string{actWorking, actCurrency, actBits}},
		{"a private slash answer can be shared", fit, state{Q: "q"}, true, []string{actWorking, actCurrency, actBits, actShare}},
		{"8-bit by a button can be undone", fit, state{Q: "q", Set: map[string]string{"bits": "8"}}, false, []string{actWorking, actCurrency, actBits}},
		{"a write command lists none", bot.Answer{Intent: parse.Spend, Text: "Saved #1"}, state{Q: "q"}, true, nil},
		{"errors get none", func() bot.Answer { a := fit; a.Ephemeral = true; return a }(), state{Q: "q"}, true, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ids(tt.a, tt.st, tt.share)); diff != "" {
			t.Errorf("%s: buttons (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestPlainText(t *testing.T) {
	for in, want := range map[string]string{
		"<@UBOT> fit 13b lora":                       "fit 13b lora",
		"<@UBOT>: 13b lora 要多大显存":                    "13b lora 要多大显存",
		"hey <@UBOT|gpubot>, H100 vs H800 &amp; H20": "hey H100 vs H800 & H20",
		"<!here> price in <#C123|gpu-ops> &lt;$2/h":  "price in #gpu-ops <$2/h",
		"see <https://example.com/x|the sheet> now":  "see the sheet now",
		"<https://example.com/y>":                    "https://example.com/y",
	} {
		if got := plainText(in); got != want {
			t.Errorf("plainText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestListenCommand(t *testing.T) {
	for in, want := range map[string][2]string{
		"listen on": {"on", "true"}, "LISTEN off": {"off", "true"}, "listen": {"", "true"},
		"监听 开": {"on", "true"}, "listen 状态": {"status", "true"}, "fit 13b": {"", "false"}, "listening on": {"", "false"},
	} {
		arg, ok := listenCommand(in)
		if arg != want[0] || (ok != (want[1] == "true")) {
			t.Errorf("listenCommand(%q) = %q, %v", in, arg, ok)
		}
	}
}
