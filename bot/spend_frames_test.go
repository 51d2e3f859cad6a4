package bot

import (
	"context"
	"testing"

	"github.com/gpubot/gpubot/bot/ledger"
)

// TestSpendLandsAsTyped: the project, the day and the amount a user types
// are what the ledger stores (issue 13: "记在 pretrain 名下" was booked to
// unassigned, "昨天" dated today, "1,200 块" read as ¥200).
func TestSpendLandsAsTyped(t *testing.T) {
	// Hours are chosen so each amount is a plausible card-hour price (¥2,
	// ¥2, ¥10): an implausible one is asked about before it is booked.
	b, _ := spendBot(t) // the bot's clock: 2026-10-20 12:01 UTC
	tests := []struct {
		text, project, day string
		minor              int64
	}{
		{"记一笔 H800 两卡 30 小时 记在 pretrain 名下", "pretrain", "2026-10-20", 0},
		{"昨天 4090 跑了 500 小时 花了 ¥1,000 算到 ocr 项目", "ocr", "2026-10-19", 100000},
		{"记一笔 4090 600 小时 1,200 块 记到 search-rerank 项目", "search-rerank", "2026-10-20", 120000},
		{"记一笔 10月3日 h100 1600 小时 一万六 项目 asr", "asr", "2026-10-03", 1600000},
	}
	for _, tt := range tests {
		a := say(b, "U1", tt.text)
		if a.Err != "" {
			t.Errorf("%q: %s (%s)", tt.text, a.Err, a.Text)
			continue
		}
		es, err := b.handler("spend").(*Spend).ledger.List(context.Background(), "T1", ledger.Month{}, tt.project)
		if err != nil || len(es) != 1 {
			t.Errorf("%q: %d entries for project %s (%v), want 1", tt.text, len(es), tt.project, err)
			continue
		}
		e := es[0]
		loc := b.handler("spend").(*Spend).ledger.Location()
		if got := e.At.In(loc).Format("2006-01-02"); got != tt.day {
			t.Errorf("%q booked on %s, want %s", tt.text, got, tt.day)
		}
		if tt.minor != 0 && e.Amount.Minor != tt.minor {
			t.Errorf("%q amount %v, want %d fen", tt.text, e.Amount, tt.minor)
		}
	}
}
