package bot

import (
	"context"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

func (b *Bot) compare(ctx context.Context, a *Answer, req parse.Request) error {
	gpus := req.Slots.GPUs
	if len(gpus) < 2 {
		return &advisor.InputError{Field: "gpu", Reason: tr(a.Lang, "name at least two cards to compare", "请至少给出两张卡来对比"), Hint: "/gpu compare h100 h800 h20"}
	}
	m, personaNote := b.personaMarket(ctx, a, req, b.market(ctx)) // an enterprise: contracted clouds only (price_persona.go)
	res, err := advisor.Compare(gpus, m, b.currency(req), b.fx(req.Slots))
	if err != nil {
		return err
	}
	present.WordCompare(&res) // the engine returns values; present writes the words
	if personaNote != "" {
		res.Assumptions = append(res.Assumptions, advisor.Text{EN: personaNote, ZH: personaNote})
		notePersona(a, personaNote)
	}
	a.Result = res
	a.Currency = string(res.Inputs.Currency)
	a.show(renderCompare(a.Lang, res))
	return nil
}
