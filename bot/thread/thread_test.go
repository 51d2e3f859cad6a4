package thread

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/redis/go-redis/v9"
)

func newStore(t *testing.T) (*Store, *miniredis.Miniredis) {
	t.Helper()
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { rdb.Close() })
	return New(rdb, Options{}), mr
}

func TestKeys(t *testing.T) {
	tests := []struct {
		c    Conversation
		want string
	}{
		{Conversation{"T1", "C1", "1700000000.000100"}, "thread:T1:C1:1700000000.000100"},
		{Conversation{"T1", "C1", ""}, ""},
		{Conversation{"T1", "D9", "1700000000.000100"}, "thread:T1:D9"},
		{Conversation{"T1", "D9", ""}, "thread:T1:D9"},
		{Conversation{"cli", "cli", "x"}, "thread:cli:cli:x"}, // bot ask --thread x
		{Conversation{}, ""},
	}
	for _, tt := range tests {
		if got := tt.c.Key(); got != tt.want {
			t.Errorf("%+v.Key() = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestFollowUpAcrossStore(t *testing.T) {
	s, mr := newStore(t)
	ctx := context.Background()
	p := parse.New(knowledge.MustShipped())
	c := Conversation{"T1", "C1", "1700000000.000100"}
	first := p.Parse("7b lora 微调成本多少")
	if err := s.Put(ctx, c, first); err != nil {
		t.Fatal(err)
	}
	prev, ok, err := s.Last(ctx, c)
	if err != nil || !ok {
		t.Fatalf("Last = %v, %v; want the first request", ok, err)
	}
	got, follow := p.FollowUp(prev, "20k samples", time.Time{})
	if !follow || got.Intent != parse.Cost || got.Slots.Samples != 20000 || got.Slots.ParamsB != 7 || got.Slots.Method != "lora" {
		t.Errorf("follow-up = %s %+v (follow %v); want cost, 7B lora, 20 000 samples", got.Intent, got.Slots, follow)
	}
	// another thread knows nothing of it
	if _, ok, _ := s.Last(ctx, Conversation{"T1", "C1", "1700000000.000200"}); ok {
		t.Error("another thread sees this thread's request")
	}
	// the channel thread lasts a day; a DM 30 minutes
	if ttl := mr.TTL(c.Key()); ttl != ThreadTTL {
		t.Errorf("thread TTL = %v, want %v", ttl, ThreadTTL)
	}
	dm := Conversation{"T1", "D1", ""}
	if err := s.Put(ctx, dm, first); err != nil {
		t.Fatal(err)
	}
	mr.FastForward(29 * time.Minute)
	if _, ok, _ := s.Last(ctx, dm); !ok {
		t.Error("DM forgotten after 29 minutes, want it kept for 30")
	}
	mr.FastForward(2 * time.Minute)
	if _, ok, _ := s.Last(ctx, dm); ok {
		t.Error("DM still remembered after 31 minutes")
	}
}

func TestPutSkipsNothingToFollow(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	p := parse.New(knowledge.MustShipped())
	c := Conversation{"T1", "C1", "1"}
	_ = s.Put(ctx, c, p.Parse("13b lora 要多少显存"))
	for _, text := range []string{"谢谢", "help", "100000b 模型要几张卡"} {
		if err := s.Put(ctx, c, p.Parse(text)); err != nil {
			t.Fatal(err)
		}
	}
	prev, ok, _ := s.Last(ctx, c)
	if !ok || prev.Intent != parse.Fit || prev.Slots.ParamsB != 13 {
		t.Errorf("Last = %s %+v, %v; want the fit question kept over thanks, help and a bad value", prev.Intent, prev.Slots, ok)
	}
}
