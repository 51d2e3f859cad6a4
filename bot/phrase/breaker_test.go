package phrase_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/bottest"
	"github.com/gpubot/gpubot/bot/phrase"
)

// gauge reads an unlabelled gauge from the registry.
func (h harness) gauge(t *testing.T, name string) float64 {
	t.Helper()
	mfs, err := h.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.GetMetric()) == 1 {
			return mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no gauge %s", name)
	return 0
}

// TestBreakerOpensAfterTimeoutsAndTriesAgainAfterTheCoolDown: three
// timeouts in a row open the breaker; while it is open no call reaches the
// endpoint and the metric says so; after the cool-down one call tries the
// endpoint again, and its success closes the breaker.
func TestBreakerOpensAfterTimeoutsAndTriesAgainAfterTheCoolDown(t *testing.T) {
	clk := bottest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	h := newHarness(t, phrase.Config{Timeout: 100 * time.Millisecond, BreakAfter: 3, CoolDown: time.Minute, Now: clk.Now})
	h.fake.SetDefault(bottest.OpenAIReply{Hang: true})
	for i := range 3 {
		if _, err := h.p.Rephrase(context.Background(), costInput()); err == nil || errors.Is(err, phrase.ErrBreakerOpen) {
			t.Fatalf("call %d: err %v, want a timeout", i+1, err)
		}
	}
	if got := h.gauge(t, "llm_breaker_open"); got != 1 {
		t.Errorf("llm_breaker_open = %v after 3 timeouts, want 1", got)
	}
	if _, err := h.p.Rephrase(context.Background(), costInput()); !errors.Is(err, phrase.ErrBreakerOpen) {
		t.Fatalf("4th call: err %v, want ErrBreakerOpen", err)
	}
	waitDone(t, h.p.Improve(context.Background(), costInput(), func(string) { t.Error("delivered while open") }))
	if n := len(h.fake.Requests()); n != 3 {
		t.Errorf("%d calls reached the endpoint, want 3 (none while open)", n)
	}
	if got := h.counter(t, "llm_calls_total", "outcome", phrase.OutcomeSkippedOpen); got != 2 {
		t.Errorf("skipped_breaker = %v, want 2", got)
	}

	clk.Add(59 * time.Second)
	if _, err := h.p.Rephrase(context.Background(), costInput()); !errors.Is(err, phrase.ErrBreakerOpen) {
		t.Errorf("before the cool-down ends: err %v, want ErrBreakerOpen", err)
	}
	clk.Add(2 * time.Second)
	h.fake.SetDefault(bottest.OpenAIReply{Text: costFaithful})
	got, err := h.p.Rephrase(context.Background(), costInput())
	if err != nil || got != costFaithful {
		t.Fatalf("after the cool-down: %q, %v; want the rephrase", got, err)
	}
	if g := h.gauge(t, "llm_breaker_open"); g != 0 {
		t.Errorf("llm_breaker_open = %v after a success, want 0", g)
	}
	if _, err := h.p.Rephrase(context.Background(), costInput()); err != nil {
		t.Errorf("closed again: %v", err)
	}
}

// TestFailedTrialReopensTheBreaker: the one call let through after the
// cool-down fails, so the breaker opens for another cool-down.
func TestFailedTrialReopensTheBreaker(t *testing.T) {
	clk := bottest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	h := newHarness(t, phrase.Config{Timeout: 50 * time.Millisecond, BreakAfter: 2, CoolDown: time.Minute, Now: clk.Now})
	h.fake.SetDefault(bottest.OpenAIReply{Hang: true})
	for range 2 {
		h.p.Rephrase(context.Background(), costInput())
	}
	clk.Add(time.Minute + time.Second)
	if _, err := h.p.Rephrase(context.Background(), costInput()); err == nil || errors.Is(err, phrase.ErrBreakerOpen) {
		t.Fatalf("trial: %v, want a timeout", err)
	}
	if _, err := h.p.Rephrase(context.Background(), costInput()); !errors.Is(err, phrase.ErrBreakerOpen) {
		t.Errorf("after a failed trial: %v, want ErrBreakerOpen", err)
	}
	if n := len(h.fake.Requests()); n != 3 {
		t.Errorf("%d calls reached the endpoint, want 3", n)
	}
}

// TestGuardRejectionsDoNotOpenTheBreaker: an endpoint that answers, but
// unfaithfully, is healthy; only the rephrase is thrown away.
func TestGuardRejectionsDoNotOpenTheBreaker(t *testing.T) {
	h := newHarness(t, phrase.Config{BreakAfter: 2})
	h.fake.SetDefault(bottest.OpenAIReply{Text: "训练成本约 ¥9,999。"})
	for range 4 {
		var rej *phrase.RejectedError
		if _, err := h.p.Rephrase(context.Background(), costInput()); !errors.As(err, &rej) {
			t.Fatalf("err %v, want a guard rejection", err)
		}
	}
	if n := len(h.fake.Requests()); n != 4 {
		t.Errorf("%d calls reached the endpoint, want 4", n)
	}
}

// TestImproveSkipsWhenEverySlotIsTaken: with Concurrency rephrases waiting
// on a hung endpoint, the next Improve returns at once without calling it.
func TestImproveSkipsWhenEverySlotIsTaken(t *testing.T) {
	h := newHarness(t, phrase.Config{Timeout: 5 * time.Second, Concurrency: 2, BreakAfter: 100})
	h.fake.SetDefault(bottest.OpenAIReply{Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	d1 := h.p.Improve(ctx, costInput(), func(string) {})
	d2 := h.p.Improve(ctx, costInput(), func(string) {})
	deadline := time.Now().Add(5 * time.Second)
	for len(h.fake.Requests()) < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	d3 := h.p.Improve(ctx, costInput(), func(string) { t.Error("delivered") })
	select {
	case <-d3:
	case <-time.After(time.Second):
		t.Fatal("the third Improve waited for a slot")
	}
	if got := h.counter(t, "llm_calls_total", "outcome", phrase.OutcomeSkippedBusy); got != 1 {
		t.Errorf("skipped_busy = %v, want 1", got)
	}
	cancel()
	waitDone(t, d1)
	waitDone(t, d2)
	if n := len(h.fake.Requests()); n != 2 {
		t.Errorf("%d calls reached the endpoint, want 2", n)
	}
	// The slots are free again.
	h.fake.SetDefault(bottest.OpenAIReply{Text: costFaithful})
	got := make(chan string, 1)
	waitDone(t, h.p.Improve(context.Background(), costInput(), func(s string) { got <- s }))
	select {
	case s := <-got:
		if s != costFaithful {
			t.Errorf("delivered %q", s)
		}
	default:
		t.Error("no delivery once the slots were free")
	}
}
