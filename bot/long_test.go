package bot

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLongMessagesAreAnswered: 40 KB pastes go through the whole answer
// (parse, engine, render) and come back as an ordinary, bounded answer.
// The parser reads a bounded prefix; nothing downstream sees the rest.
func TestLongMessagesAreAnswered(t *testing.T) {
	const size = 40 << 10
	fill := func(unit string) string {
		var b strings.Builder
		for b.Len()+len(unit) <= size {
			b.WriteString(unit)
		}
		return b.String()
	}
	b := newTestBot(t)
	for name, msg := range map[string]string{
		"a question repeated":  fill("我们团队想用 4090 做七十亿参数模型的 LoRA 微调，每月大约跑 200 小时，包月划算吗？按需价格 1.8 元每小时。"),
		"one unbroken run":     fill("显卡"),
		"numbers everywhere":   fill("七十亿 130亿 4k 32k ¥1.8/h 200h 70% "),
		"mixed scripts":        fill("H100 和 H800 选哪个 😀 \u202e עברית \u200c "),
		"a slash command":      "/gpu fit " + fill("13b lora ctx=8k "),
		"invalid UTF-8 inside": fill("包月划算吗\xff\xfe"),
	} {
		t.Run(name, func(t *testing.T) {
			if len(msg) < size-200 {
				t.Fatalf("message is %d bytes", len(msg))
			}
			a := b.Answer(context.Background(), Message{Text: msg, Team: "T1", Channel: "C1", User: "U1"})
			if a.Text == "" || !utf8.ValidString(a.Text) {
				t.Fatalf("answer text %q", a.Text)
			}
			if a.Err == "internal" {
				t.Fatalf("internal error: %s", a.Text)
			}
			if len(a.Text) > 20_000 {
				t.Errorf("a %d-byte answer to a long message; the parser should have bounded it", len(a.Text))
			}
		})
	}
}
