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

// TestFollowUpOfThePlannedQuestion: a follow-up follows the question that
// was answered, not the router's first label. "A800 8卡按量跑一个月多少钱" is
// a rental (8 × 730 h at the market's rate), so "包月呢" asks the A800's
// plan — never a default card's; "H20租一个月多少钱" then "那8张呢" is eight
// of the H20s for the month: 8 × 730 × ¥7.5 = ¥43,800.
func TestFollowUpOfThePlannedQuestion(t *testing.T) {
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer rdb.Close()
	b := rentalBot(hourly("x/a800", "chenjianyun", "a800", 5.15, 5.15), hourly("u/h20", "ucloud", "h20", 7.5, 7.5))
	b.UseThreads(thread.New(rdb, thread.Options{}))
	ctx := context.Background()
	in := Message{Team: "T1", Channel: "C1", User: "U1", Thread: "1700000000.000200"}
	in.Text = "A800 8卡按量跑一个月多少钱"
	if a := b.Answer(ctx, in); a.Typed == nil || a.Typed.Asked != "money_total" || a.Typed.Value == nil || *a.Typed.Value != 8*730*5.15 {
		t.Fatalf("first answer %s %+v, want the month's rental 8 × 730 × ¥5.15 = ¥30,076", a.Intent, a.Typed)
	}
	in.Text = "包月呢"
	if a := b.Answer(ctx, in); len(a.Slots.GPUs) == 0 || a.Slots.GPUs[0] != "a800" || a.Slots.Cards != 8 {
		t.Errorf("包月呢 answered %s for %v ×%d, want the A800s", a.Intent, a.Slots.GPUs, a.Slots.Cards)
	}
	in.Thread = "1700000000.000300"
	in.Text = "H20租一个月多少钱"
	b.Answer(ctx, in)
	in.Text = "那8张呢"
	a := b.Answer(ctx, in)
	if a.Intent != "price" || a.Typed == nil || a.Typed.Value == nil || *a.Typed.Value != 43800 {
		t.Errorf("那8张呢 answered %s %+v, want 8 H20 for a month = ¥43,800\n%s", a.Intent, a.Typed, a.Text)
	}
}
