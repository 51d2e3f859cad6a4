package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

func (b *Bot) cost(ctx context.Context, a *Answer, req parse.Request) error {
	if name := cmpOr(req.Slots.Model, req.Slots.Arch); b.imageModel(name) {
		// An image model's cost is per image (and images=), not per token.
		req.Slots.Model = name
		return b.image(ctx, a, req)
	}
	s := req.Slots
	if (len(s.GPUs) >= 2 || len(s.Platforms) >= 2) && (s.ParamsB > 0 || s.Model != "" || s.Arch != "") {
		return b.options(ctx, a, req) // "A100 vs H100 vs L40S", "runpod or vast?": every option answered
	}
	if servingTargets(s) {
		return b.slo(ctx, a, req)
	}
	in := b.costInput(req)
	if in.Utilization > 0 {
		a.use("utilization", "the share of paid hours the replica generates: each million tokens carries the idle ones")
	}
	if s.Monthly != nil && s.Price == nil && in.Price.Given() {
		a.use("monthly", "the plan's month ÷ 730 h is the rent per card-hour")
		a.use("quote_per", "a machine's plan divided by its cards")
	}
	if in.Workload.Bits == 8 && (in.Workload.Method == advisor.Full || in.Workload.Method == advisor.LoRA) {
		in.FP8, in.Workload.Bits = true, 0 // "full fp8": train in FP8 on cards that have it
	}
	m, personaNote := b.personaMarket(ctx, a, req, b.market(ctx)) // an enterprise: contracted clouds only (price_persona.go)
	res, err := nativeFirst(&in.Where, func() (advisor.CostResult, error) { return advisor.Cost(in, m) })
	var supplyNote string
	if err == nil && in.GPU == "" && !in.Price.Given() {
		res, supplyNote = costSupplied(a.Lang, in, m, res) // the engine's pick can serve the plan (recommend.go's rule)
	}
	var noPrice *advisor.InputError
	if errors.As(err, &noPrice) && noPrice.Field == "price" && !in.Where.NativeOnly && (s.RequestsPerS > 0 || s.TokensPerDay > 0 || s.PeakRequestsPerS > 0) && in.Workload.Method == advisor.Inference {
		return b.slo(ctx, a, req) // no price for the card: the fleet is still sized
	}
	var accumNote string
	var noFit *advisor.InputError
	if errors.As(err, &noFit) && (noFit.Field == "gpu" || noFit.Field == "gpus") && in.Workload.Batch > 1 && in.Workload.Method != advisor.Inference {
		// "batch 16 … on 1 A100 40G": a batch too big for memory at once
		// runs as micro-batch 1 with gradient accumulation — the same
		// tokens and compute, one sequence's activations at a time
		batch := in.Workload.Batch
		in.Workload.Batch = 1
		if r, e := nativeFirst(&in.Where, func() (advisor.CostResult, error) { return advisor.Cost(in, m) }); e == nil {
			res, err = r, nil
			accumNote = accumulationNote(a.Lang, batch)
		} else {
			in.Workload.Batch = batch
		}
	}
	have := in.GPUs
	var tooFew *advisor.InputError
	if errors.As(err, &tooFew) && tooFew.Field == "gpus" && have > 0 {
		// "一张4090 48小时内跑得完不": their count cannot hold the job. That
		// is the answer (no), worked on the count the job needs.
		in.GPUs = 0
		res, err = nativeFirst(&in.Where, func() (advisor.CostResult, error) { return advisor.Cost(in, m) })
		a.tooFew = err == nil
	}
	if err != nil {
		return err
	}
	a.Assumed = assumed(res.Inputs.Workload, s.GC != "")
	defaultedValues(res.Inputs, res.Inputs.Defaulted, a.Assumed)
	for _, d := range res.Inputs.Defaulted {
		switch d {
		case "mfu":
			a.Assumed["mfu"] = res.MFU
		case "gpu":
			a.Assumed["gpu"] = res.GPU
		}
	}
	if res.Serving != nil && res.Inputs.Workload.Method == advisor.Inference && s.Concurrency == 0 {
		delete(a.Assumed, "concurrency") // the batch comes from KV-cache room, shown in the lines
	}
	a.Result = res
	a.Currency = string(res.Currency)
	notePersona(a, personaNote)
	d := renderCost(a.Lang, res, a.Assumed, bareMoneyNote(a.Lang, in.Currency, s.Price), personaNote, supplyNote, accumNote)
	if res.WithinBudget != nil {
		a.verdictAsked = true
	}
	d = leadWithAsked(a.Lang, d, s, res)
	if a.tooFew {
		d = leadWithTooFew(a.Lang, d, have, res)
	}
	if res.Plan != nil && !asksCommit(strings.ToLower(req.Text)) && reMonthlyPlanAsked.MatchString(strings.ToLower(req.Text)) {
		// "always on: is a monthly plan cheaper?": the plan's cards on 包月
		if mr, ok := b.planOnMonthly(req, m, res.GPU, res.Plan.Cards, res.Currency); ok {
			d = withPlanMonthly(a.Lang, d, res.Plan.MonthlyOnDemand, string(res.Currency), mr)
			a.planMonthly = &mr
			a.use("hours_per_month", "always on: the service and the plans bill every hour of the month")
		}
	}
	if res.Plan != nil && asksCommit(strings.ToLower(req.Text)) {
		// "monthly bill on AWS on-demand vs 1-yr reserved", "包年比按量能省多少":
		// the plan's cards on the sourced term, against its on-demand month
		if cr, ok := b.planOnTerm(req, res.GPU, res.Plan.Cards, res.Currency); ok {
			d = withPlanTerm(a.Lang, d, res.Plan.MonthlyOnDemand, string(res.Currency), cr)
			a.use("years", "the commitment's term")
			a.planTerm = &cr
		} else {
			d = noPlanTerm(a.Lang, d, res.GPU, commitTerm(req.Text))
		}
	}
	if cmp, ok, err := b.apiPerM(req, res); ok {
		d = withAPIPerM(a.Lang, d, cmp) // "跟官方API价差几倍？" (api.go)
		a.apiPerM = &cmp
	} else if err != nil {
		d.Summary = append([]string{tr(a.Lang,
			"No hosted API price for this model is in the data, so the API side is not compared.",
			"数据里没有这个模型的 API 报价，所以没有和 API 对比。")}, d.Summary...)
	}
	a.show(d)
	return nil
}

// costInput is the engine's cost question for req's slots.
func (b *Bot) costInput(req parse.Request) advisor.CostInput {
	s := req.Slots
	in := advisor.CostInput{
		Workload: workload(s), GPU: firstGPU(s), GPUs: s.Cards,
		Tokens: s.Tokens, Samples: s.Samples, TokensPerSample: s.SampleTokens, Epochs: s.Epochs,
		MFU: s.MFU, TPS: s.TPS, Price: money(s.Price),
		InputTokens: s.InputTokens, OutputTokens: s.OutputTokens,
		TokensPerDay: s.TokensPerDay, RequestsPerS: s.RequestsPerS, Spot: s.Spot, Days: s.Days, Budget: money(s.Budget), Pretrain: s.Pretrain,
		Where:    advisor.OfferFilter{Platform: s.Platform},
		Currency: b.currency(req), FX: b.fx(s),
	}
	if in.Workload.Method == advisor.Inference && s.TokensPerDay == 0 && s.RequestsPerS == 0 && s.PeakRequestsPerS == 0 {
		// "利用率按70%": a replica busy 70 % of the hours paid; a load sizes
		// its own utilisation instead
		in.Utilization = s.Utilization
	}
	if in.Price.Amount == 0 && s.Monthly != nil && s.Monthly.Amount > 0 && in.GPU != "" && s.Budget == nil {
		// "H20一台8卡包月4.2万": the plan's month spread over its 730 hours
		// is the rent per card-hour (normalizeQuotes made it per card)
		m := *s.Monthly
		m.Amount = m.Amount / knowledge.HoursPerMonth
		in.Price = money(&m)
	}
	// A peak beside an average sizes for the peak; a peak alone is the
	// load to size for.
	switch {
	case s.PeakRequestsPerS > 0 && s.RequestsPerS > 0 && s.PeakRequestsPerS >= s.RequestsPerS:
		in.PeakFactor = s.PeakRequestsPerS / s.RequestsPerS
	case s.PeakRequestsPerS > 0 && s.RequestsPerS == 0:
		in.RequestsPerS, in.PeakFactor = s.PeakRequestsPerS, 1
	case s.RequestsPerS > 0 && !s.AverageLoad && s.PeakRequestsPerS == 0:
		in.PeakFactor = 1 // "at 20 QPS" is the load to size for, not an average to triple
	}
	return in
}

// costSupplied re-prices a plan the engine put on an offer that cannot
// serve it (advisor Market.Unsuppliable: a one-card marketplace listing for
// an 8-card replica, a card without BF16 for a 16-bit language model),
// without that offer, a few times at most; note says what was set aside.
// A card or price the question names is never second-guessed.
func costSupplied(lang string, in advisor.CostInput, m advisor.Market, res advisor.CostResult) (advisor.CostResult, string) {
	var aside []string
	for pass := 0; pass < 5 && res.Offer != nil; pass++ {
		var why advisor.Text
		for _, o := range m.Offers {
			if o.Key == res.Offer.Offer {
				why = m.Unsuppliable(o, res.GPUs, in.Workload.Bits, true)
				break
			}
		}
		if why.EN == "" {
			break
		}
		aside = append(aside, fmt.Sprintf("%s @ %s ×%d %s%s (%s)", gpuName(res.GPU), platformName(lang, res.Offer.Platform), res.GPUs,
			moneyStr(res.Offer.Low, string(res.Offer.Currency)), tr(lang, "/card-h", "/卡时"), why.In(lang)))
		m = m.WithoutOffers(map[string]bool{res.Offer.Offer: true})
		w := in.Where
		r2, err := nativeFirst(&w, func() (advisor.CostResult, error) { return advisor.Cost(in, m) })
		if err != nil {
			break // nothing else prices it: the first answer stands
		}
		res = r2
	}
	if len(aside) == 0 {
		return res, ""
	}
	return res, tr(lang, "Set aside: ", "未采用：") + strings.Join(aside, tr(lang, "; ", "；"))
}
