package bot

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// BenchmarkAnswer is a whole answer as a transport asks for it: parse,
// fill defaults, the engine, and rendering to text and Block Kit, ending
// with the blocks encoded as Slack receives them. One sub-benchmark per
// intent; make bench prints them.
func BenchmarkAnswer(b *testing.B) {
	bot := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	for _, q := range []struct{ name, text string }{
		{"fit", "/gpu fit 13b lora"},
		{"fit_zh", "13B 模型 LoRA 微调要多大显存"},
		{"cost", "/gpu cost 7b lora 50k samples 2 epochs on 4090"},
		{"cost_inference_any_card", "how much to serve a 70B model for 100M tokens?"},
		{"monthly", "/gpu monthly 4090 200h price=1.8 monthly=900"},
		{"buy", "/gpu buy h100"},
		{"price", "/gpu price h100"},
		{"compare", "H100 和 H800 选哪个"},
		{"recommend", "/gpu recommend 70b inference"},
		{"knowledge", "租卡合同里要写清楚哪些条款"},
		{"help", "/gpu help"},
	} {
		b.Run(q.name, func(b *testing.B) {
			m := Message{Text: q.text, Team: "T1", Channel: "C1", User: "U1"}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				a := bot.Answer(ctx, m)
				if a.Err != "" {
					b.Fatalf("%s: %s", q.text, a.Text)
				}
				if _, err := json.Marshal(a.Blocks); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
