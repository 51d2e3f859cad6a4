package bot

import (
	"context"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
)

func (b *Bot) cost(ctx context.Context, a *Answer, req parse.Request) error {
	if name := cmpOr(req.Slots.Model, req.Slots.Arch); b.imageModel(name) {
		// An image model's cost is per image (and images=), not per token.
		req.Slots.Model = name
		return b.image(ctx, a, req)
	}
	s := req.Slots
	in := advisor.CostInput{
		Workload: workload(s), GPU: firstGPU(s), GPUs: s.Cards,
		Tokens: s.Tokens, Samples: s.Samples, TokensPerSample: s.SampleTokens, Epochs: s.Epochs,
		MFU: s.MFU, TPS: s.TPS, Price: money(s.Price),
		InputTokens: s.InputTokens, OutputTokens: s.OutputTokens,
		TokensPerDay: s.TokensPerDay, RequestsPerS: s.RequestsPerS, Spot: s.Spot, Days: s.Days, Budget: money(s.Budget),
		Where:    advisor.OfferFilter{Platform: s.Platform},
		Currency: b.currency(req), FX: b.fx(s),
	}
	if in.Workload.Bits == 8 && (in.Workload.Method == advisor.Full || in.Workload.Method == advisor.LoRA) {
		in.FP8, in.Workload.Bits = true, 0 // "full fp8": train in FP8 on cards that have it
	}
	m := b.market(ctx)
	res, err := nativeFirst(&in.Where, func() (advisor.CostResult, error) { return advisor.Cost(in, m) })
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
	a.show(renderCost(a.Lang, res, a.Assumed, bareMoneyNote(a.Lang, in.Currency, s.Price)))
	return nil
}
