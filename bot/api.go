package bot

import (
	"context"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
)

// apiWords make a serving-cost question a self-host-vs-API one.
var apiWords = []string{"api", "调接口", "接口", "托管", "hosted", "自建还是", "self-host", "self host"}

func asksAPI(text string) bool { return hasAny(text, apiWords) }

// APIView is the self-host-vs-API answer: the serving plan and the API bills.
type APIView struct {
	advisor.APIResult
	SelfHost advisor.CostResult `json:"self_host"`
}

// api sizes the self-hosted plan with the cost engine, then bills the same
// load on every sourced host of the model.
func (b *Bot) api(ctx context.Context, a *Answer, req parse.Request) error {
	if err := b.cost(ctx, a, req); err != nil {
		return err
	}
	cr, ok := a.Result.(advisor.CostResult)
	if !ok || cr.Plan == nil {
		return nil // no serving plan (no load, or an image model): the cost answer stands
	}
	in := advisor.APIInput{
		Model: cmpOr(req.Slots.Model, req.Slots.Arch), TokensPerDay: req.Slots.TokensPerDay,
		InputTokens: cr.Inputs.InputTokens, OutputTokens: cr.Inputs.OutputTokens,
		Currency: cr.Currency, FX: b.fx(req.Slots), SelfHost: cr.Plan, Prices: b.kb.Procurement.APIs,
	}
	res, err := advisor.CompareAPI(in)
	if err != nil {
		return nil // no API price for this model: the cost answer stands, and says nothing it cannot source
	}
	a.Intent = "api"
	a.Result = APIView{APIResult: res, SelfHost: cr}
	a.show(renderAPI(a.Lang, res, cr, a.Assumed))
	return nil
}
