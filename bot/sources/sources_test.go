package sources

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/knowledge"
	"github.com/gpubot/gpubot/knowledge/catalog"
)

// now is the clock the cases are read against.
var now = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// status is a catalogue of three sources, as Catalog.Status sorts them:
// skypilot refreshed 3 h before now, team-file never fetched, vast failing
// since the day before with its last good 56 offers kept.
func status(context.Context) ([]catalog.SourceStatus, error) {
	return []catalog.SourceStatus{
		{Name: "skypilot", Offers: 1234, LastAttempt: now.Add(-3 * time.Hour), LastSuccess: now.Add(-3 * time.Hour)},
		{Name: "team-file"},
		{Name: "vast", Offers: 56, LastSuccess: now.Add(-30 * time.Hour), StaleSince: time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC),
			Error: "GET https://console.vast.ai/api/v0/bundles: 502"},
	}, nil
}

// newBot is a bot whose table holds this intent's row, as cmd/bot's does.
func newBot(t *testing.T, h *Handler) *bot.Bot {
	t.Helper()
	b := bot.New(bot.Config{FX: 7.2}, knowledge.MustShipped(), nil)
	if err := b.Add(Row(h)); err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSources(t *testing.T) {
	b := newBot(t, &Handler{Status: status, Now: func() time.Time { return now }})
	tests := []struct{ ask, want string }{
		{"/gpu sources", "Prices come from 3 sources; 1 failed its last refresh and shows its last good offers.\n" +
			"• skypilot — 1,234 offers, updated 3 h ago\n" +
			"• team-file — not fetched yet\n" +
			"• vast — 56 offers, stale since 2026-12-01"},
		{"/gpu 数据源", "价格来自 3 个来源，其中 1 个最近一次刷新失败，仍使用上次成功获取的报价。\n" +
			"• skypilot — 1,234 条报价，3 小时前更新\n" +
			"• team-file — 尚未获取\n" +
			"• vast — 56 条报价，自 2026年12月1日 起未能更新"},
	}
	for _, tt := range tests {
		a := b.Answer(context.Background(), bot.Message{Text: tt.ask, Team: "T1"})
		if a.Intent != ID || a.Err != "" || a.Text != tt.want {
			t.Errorf("%s: intent %s, err %q, text\n%s\nwant\n%s", tt.ask, a.Intent, a.Err, a.Text, tt.want)
		}
		if len(a.Buttons) != 0 {
			t.Errorf("%s: buttons %v, want none (the row offers none)", tt.ask, a.Buttons)
		}
	}
}

// An unreadable catalogue is said as unavailable, never with the driver's
// text.
func TestSourcesUnavailable(t *testing.T) {
	b := newBot(t, &Handler{Status: func(context.Context) ([]catalog.SourceStatus, error) {
		return nil, errors.New("dial tcp 10.0.0.7:6379: connection refused")
	}})
	a := b.Answer(context.Background(), bot.Message{Text: "/gpu sources", Team: "T1"})
	if want := "Not available right now: the price catalogue cannot be read just now."; a.Err != intent.EUNAVAILABLE || a.Text != want {
		t.Errorf("err %q, text %q; want %q, %q", a.Err, a.Text, intent.EUNAVAILABLE, want)
	}
}

// Before any refresh the catalogue serves the shipped offers, and says so.
func TestSourcesBeforeAnyRefresh(t *testing.T) {
	b := newBot(t, &Handler{Status: func(context.Context) ([]catalog.SourceStatus, error) {
		return []catalog.SourceStatus{{Name: "shipped"}, {Name: "skypilot-vast"}}, nil
	}})
	a := b.Answer(context.Background(), bot.Message{Text: "/gpu sources", Team: "T1"})
	want := "No price source has been fetched yet: answers use the prices the bot ships with.\n• shipped — not fetched yet\n• skypilot-vast — not fetched yet"
	if a.Text != want {
		t.Errorf("text\n%s\nwant\n%s", a.Text, want)
	}
}

// Help lists the intent from its row alone.
func TestHelpListsSources(t *testing.T) {
	b := newBot(t, &Handler{Status: status, Now: func() time.Time { return now }})
	a := b.Answer(context.Background(), bot.Message{Text: "/gpu help"})
	found := false
	for _, l := range a.Result.(map[string]any)["commands"].([]string) {
		found = found || l == "/gpu sources — where prices come from and how fresh they are"
	}
	if !found {
		t.Errorf("help does not list /gpu sources: %v", a.Result)
	}
}
