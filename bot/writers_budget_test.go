package bot_test

import (
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/budget"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/store"
)

// The writers' bot gets budgets as cmd/bot wires them (see writersBot).
func init() {
	bot.WritersBudget = func(t *testing.T, b *bot.Bot, st *store.Store, l *ledger.Ledger, now func() time.Time) {
		al := budget.NewAlerts(budget.NewStore(st.Redis, nil), l, nil, 7.2)
		b.Route(parse.Budget, budget.NewHandler(al, nil, now))
	}
}
