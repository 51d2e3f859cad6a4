package bot

import (
	"context"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/gpubot/gpubot/bot/thread"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/redis/go-redis/v9"
)

// TestThreadFollowUp: in a Slack thread, "20k samples" after the bot asked
// how much data is answered as the whole question; in another thread it is
// not.
func TestThreadFollowUp(t *testing.T) {
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer rdb.Close()
	b := New(Config{FX: 7.2}, knowledge.MustShipped(), nil)
	b.UseThreads(thread.New(rdb, thread.Options{}))
	ctx := context.Background()
	in := Message{Team: "T1", Channel: "C1", User: "U1", Thread: "1700000000.000100"}
	in.Text = "7b lora 微调成本多少"
	if a := b.Answer(ctx, in); len(a.Slots.Missing) == 0 {
		t.Fatalf("first answer %+v: want it to ask for the data size", a.Slots)
	}
	in.Text = "20k samples"
	a := b.Answer(ctx, in)
	if a.Intent != "cost" || a.Slots.ParamsB != 7 || a.Slots.Samples != 20000 || a.Err != "" {
		t.Errorf("follow-up answered %s %+v (err %q); want the 7B LoRA cost with 20 000 samples", a.Intent, a.Slots, a.Err)
	}
	other := in
	other.Thread = "1700000000.000999"
	if a := b.Answer(ctx, other); a.Slots.ParamsB == 7 {
		t.Errorf("another thread inherited the model size: %+v", a.Slots)
	}
}
