package bot

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// market is the advisor's view of cards and prices: shipped specs with the
// current offers (the live catalogue when one is attached).
func (b *Bot) market(ctx context.Context) advisor.Market {
	m := b.mkt // a copy sharing the prepared engine cache
	if b.prices != nil {
		if offers, err := b.prices.Offers(ctx); err == nil && len(offers) > 0 {
			m.Offers = offers
		} else if err != nil {
			b.log.WarnContext(ctx, "live prices unavailable, using shipped catalogue", "err", err)
		}
	}
	m.Offers = b.allowedOffers(ctx, m.Offers) // the team profile's platforms (profile_filter.go)
	return m
}

// currency is the answer's currency: what the user asked for, else CNY for
// Chinese questions and USD for English ones.
func (b *Bot) currency(req parse.Request) knowledge.Currency {
	switch req.Slots.Currency {
	case "CNY":
		return knowledge.CNY
	case "USD":
		return knowledge.USD
	}
	// no currency asked for: the one their own figures are in ("I can
	// only afford ~¥1000", "预算 $300"), when they are all in one
	stated := ""
	for _, m := range []*parse.Money{req.Slots.Budget, req.Slots.Price, req.Slots.Monthly} {
		switch {
		case m == nil || m.Currency == "":
		case stated == "":
			stated = m.Currency
		case stated != m.Currency:
			stated = "mixed"
		}
	}
	switch stated {
	case "CNY":
		return knowledge.CNY
	case "USD":
		return knowledge.USD
	}
	if req.Lang == "zh" {
		return knowledge.CNY
	}
	return knowledge.USD
}

func (b *Bot) fx(s parse.Slots) float64 {
	if s.FX > 0 {
		return s.FX
	}
	if b.cfg.FX > 0 {
		return b.cfg.FX
	}
	return advisor.DefaultCNYPerUSD
}

func money(m *parse.Money) advisor.Money {
	if m == nil {
		return advisor.Money{}
	}
	return advisor.Money{Amount: m.Amount, Currency: knowledge.Currency(m.Currency)}
}

func moneyPtr(m *parse.Money) *advisor.Money {
	if m == nil {
		return nil
	}
	v := money(m)
	return &v
}

func firstGPU(s parse.Slots) string {
	if len(s.GPUs) > 0 {
		return s.GPUs[0]
	}
	return ""
}

// defaultedValues turns an input struct's Defaulted list into name → value,
// reading the values from the struct's own JSON so names match the contract.
func defaultedValues(in any, names []string, into map[string]any) {
	raw, err := json.Marshal(in)
	if err != nil {
		return
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return
	}
	for _, n := range names {
		v, ok := m[n]
		if !ok || v == nil || v == "" || v == 0.0 {
			continue // filled later in the result, not in the inputs
		}
		into[n] = v
	}
}

// nativeFirst runs an engine call with offers in the answer's currency
// first (USD platforms for English questions, Chinese platforms for Chinese
// ones) and falls back to every offer when that finds no price.
func nativeFirst[T any](where *advisor.OfferFilter, call func() (T, error)) (T, error) {
	where.NativeOnly = true
	res, err := call()
	var in *advisor.InputError
	if err != nil && errors.As(err, &in) {
		where.NativeOnly = false
		if res2, err2 := call(); err2 == nil {
			return res2, nil
		}
	}
	return res, err
}

// bareMoneyNote says how amounts without a currency were read.
func bareMoneyNote(lang string, cur knowledge.Currency, ms ...*parse.Money) string {
	for _, m := range ms {
		if m != nil && m.Currency == "" {
			if cur == knowledge.CNY {
				return tr(lang, "Amounts without a currency are read as yuan; write $2.5 or add currency=usd for dollars.",
					"未写币种的金额按人民币理解；美元请写 $2.5 或加 currency=usd。")
			}
			return tr(lang, "Amounts without a currency are read as US dollars (English question); write ¥16000 or add currency=cny for yuan.",
				"未写币种的金额按美元理解；人民币请写 ¥16000 或加 currency=cny。")
		}
	}
	return ""
}

// teamUsage is the team's last-30-day usage of gpu ("" = the most used
// card); ok is false when the ledger has none.
func (b *Bot) teamUsage(ctx context.Context, m Message, gpu string) (ledger.CardUsage, bool) {
	if b.usage == nil {
		return ledger.CardUsage{}, false
	}
	team := m.Team
	if team == "" {
		team = "local"
	}
	us, err := b.usage.Usage(ctx, team, b.now(), nil)
	if err != nil {
		b.log.WarnContext(ctx, "team usage unavailable", "err", err)
		return ledger.CardUsage{}, false
	}
	var best ledger.CardUsage
	for _, u := range us {
		if (gpu == "" || u.GPU == gpu) && u.CardHours > best.CardHours {
			best = u
		}
	}
	return best, best.CardHours > 0
}

func appendOnce(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}
