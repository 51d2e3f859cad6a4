package transport

import (
	"context"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/knowledge"
)

// BenchmarkAnswerFamily is what an answer with currency and 8-bit buttons
// costs at answer time: the answer alone, and the answer with its variants
// asked and the family stored (miniredis).
func BenchmarkAnswerFamily(b *testing.B) {
	bt := bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil)
	mini := miniredis.RunT(b)
	rdb := redis.NewClient(&redis.Options{Addr: mini.Addr()})
	b.Cleanup(func() { rdb.Close() })
	a := New(Config{}, bt, rdb, nil, nil)
	ctx := context.Background()
	for _, q := range []struct{ name, text string }{
		{"fit_currency_bits8", "fit 13b"},
		{"price_currency", "price h100"},
	} {
		st := state{Q: q.text, Slash: true, Asker: "U1"}
		m := st.message("T1", "C1", "U1")
		b.Run(q.name+"/answer", func(b *testing.B) {
			for b.Loop() {
				bt.Answer(ctx, m)
			}
		})
		b.Run(q.name+"/answer+family", func(b *testing.B) {
			for b.Loop() {
				if ans := bt.Answer(ctx, m); a.remember(ctx, st, m, &ans) == "" {
					b.Fatal("not stored")
				}
			}
		})
	}
}
