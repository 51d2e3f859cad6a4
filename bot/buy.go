package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// BuyView is the buy answer's result: the contract's lines are the four
// annual cost lines; every step of the calculation is in steps. Asked is
// what the question asked first (payback_months, break_even_util, which;
// "" for none): the headline leads with it.
type BuyView struct {
	advisor.BuyResult
	Lines []advisor.Line `json:"lines"`
	Steps []advisor.Line `json:"steps"`
	Asked string         `json:"asked,omitempty"`
}

func (b *Bot) buy(ctx context.Context, msg Message, a *Answer, req parse.Request) error {
	s := req.Slots
	if asksCommit(req.Text) && (s.Price == nil && s.Rent == nil || !hasAny(req.Text, purchaseWords)) {
		// "1-yr reserved vs on-demand for 16 H100s" (commit.go); a purchase
		// with its price ("buy 8x H200 for $320k, 3-yr depreciation") or
		// against a rent ("buy an HGX node outright or rent at $2.50/GPU-hr
		// over 3 years") stays here
		return b.commit(ctx, a, req)
	}
	in := advisor.BuyInput{
		GPU: firstGPU(s), Purchase: money(s.Price), Rent: money(s.Rent), RentMonthly: money(s.Monthly), Years: s.Years,
		Utilization: s.Utilization, Watts: s.Watts, Power: moneyPtr(s.Power), Ops: moneyPtr(s.Ops), Rate: s.Rate,
		Cards: s.Cards, HoursPerMonth: s.HoursPerMonth, Residual: s.Residual, PerCardQuote: s.QuotePer == "card",
		Where:    advisor.OfferFilter{Platform: s.Platform},
		Currency: b.currency(req), FX: b.fx(s),
		Purchases: b.kb.Procurement.Purchases, Reserved: b.kb.Procurement.Reserved,
	}
	readPurchase(&in, req.Text) // new or used, a server, a per-card quote (buy_words.go)
	hosting := hasAny(req.Text, hostingWords) && !strings.Contains(req.Text, "包月")
	if hosting && s.Monthly != nil && s.Ops == nil {
		// "$4,500/mo colo", "托管每月3万": a hosting fee a month, the running
		// cost, not a monthly plan to rent. A machine's fee is per card ÷
		// its cards, unless normalizeQuotes already divided it (a machine's
		// monthly figure beside a term word, plan.go).
		per := s.Monthly.Amount
		if divided := asksCommit(strings.ToLower(req.Text)) && s.QuotePer == "machine"; s.Cards > 1 && !divided {
			per /= float64(s.Cards)
		}
		in.Ops = &advisor.Money{Amount: per * 12, Currency: knowledge.Currency(s.Monthly.Currency)}
		in.RentMonthly = advisor.Money{}
		a.use("monthly", "your hosting fee a month: the running cost (power and space included)")
	}
	in.Hosted = hosting && in.Ops != nil
	in.OwnPC = hasAny(req.Text, ownPCWords)
	if in.RentMonthly.Given() && !in.Rent.Given() {
		a.use("monthly", "the monthly plan renting is priced at")
		switch {
		case s.QuotePer == "machine" && s.Cards > 1:
			in.RentMonthly.Amount /= float64(s.Cards) // "8卡包月6.5万": the machine's plan, per card
		case s.QuotePer == "" && in.Server && in.Cards > 1 && !in.PerCardQuote && !perCardSaid(strings.ToLower(req.Text)):
			// "an 8-card H800 server for ¥2.1M vs a ¥120k/month plan": the
			// server's plan, per card
			in.RentMonthly.Amount /= float64(in.Cards)
		}
	}
	if s.Ops != nil && s.QuotePer == "machine" && s.Cards > 1 {
		ops := *in.Ops
		ops.Amount /= float64(s.Cards) // "托管每年12万" for the 8-card machine: per card (noted by normalizeQuotes)
		in.Ops = &ops
	}
	if s.PUE > 0 {
		pue := s.PUE
		in.PUE = &pue
	}
	if in.GPU == "" {
		return &advisor.InputError{Field: "gpu", Reason: tr(a.Lang, "which card would you buy? name one", "想买哪张卡？请指明型号"), Hint: "/gpu buy h100 util=70%"}
	}
	var usageNote string
	if in.Utilization == 0 && in.HoursPerMonth == 0 {
		if g, ok := b.kb.GPU(in.GPU); ok {
			if u, ok := b.teamUsage(ctx, msg, g.ID); ok && u.Utilisation > 0 {
				in.Utilization = min(advisor.Round2(u.Utilisation), 1)
				a.Assumed["utilization"] = in.Utilization
				usageNote = tr(a.Lang,
					fmt.Sprintf("Utilisation measured from your team's last 30 days: %s card-hours on %d card(s) = %s%%.", fmtNum(u.CardHours), max(u.Cards, 1), fmtNum(in.Utilization*100)),
					fmt.Sprintf("利用率取自团队最近 30 天的记账：%s 卡时、%d 张卡 = %s%%。", fmtNum(u.CardHours), max(u.Cards, 1), fmtNum(in.Utilization*100)))
			}
		}
	}
	m, personaNote := b.personaMarket(ctx, a, req, b.market(ctx)) // an enterprise rents from contracted clouds (price_persona.go)
	res, err := nativeFirst(&in.Where, func() (advisor.BuyResult, error) { return advisor.Buy(in, m) })
	if err != nil {
		return err
	}
	defaultedValues(res.Inputs, res.Inputs.Defaulted, a.Assumed)
	view := BuyView{BuyResult: res, Lines: res.AnnualLines(), Steps: res.Lines, Asked: buyAsked(req.Text)}
	if s.Years > 0 {
		a.use("years", "the depreciation years")
	}
	a.Result = view
	a.Currency = string(res.Currency)
	notePersona(a, personaNote)
	a.show(renderBuy(a.Lang, view, a.Assumed, usageNote, bareMoneyNote(a.Lang, in.Currency, s.Price, s.Rent, s.Power, s.Ops), personaNote))
	return nil
}
