package bot

import (
	"context"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
)

func (b *Bot) recommend(ctx context.Context, a *Answer, req parse.Request) error {
	s := req.Slots
	in := advisor.RecommendInput{
		Budget: money(s.Budget), HoursPerMonth: s.HoursPerMonth,
		Where:    advisor.OfferFilter{Platform: s.Platform},
		Spot:     s.Spot, // spot may serve only when asked
		Currency: b.currency(req), FX: b.fx(s),
	}
	if b.imageModel(cmpOr(s.Model, s.Arch)) || s.Workload == "diffusion" && s.Method == "inference" {
		// Which card for an image model, or for making images: the image
		// answer ranks the cards that hold it by cost per 1,000 images.
		return b.recommendImage(ctx, a, req)
	}
	switch {
	case s.Workload == "diffusion":
		in.Preset = advisor.PresetDiffusion // the seed's ranking: training SD3
	case s.ParamsB > 0:
		in.Workload = workload(s)
	case s.Workload == "llm-finetune" || s.Method == "lora" || s.Method == "qlora" || s.Method == "full":
		in.Preset = advisor.PresetFineTune
	case s.Workload == "inference" || s.Method == "inference":
		in.Preset = advisor.PresetInference
	}
	// The persona comes from the lexicon's words (the parser's slot) or
	// a persona= setting.
	for _, w := range append([]string{s.Persona}, s.Args...) {
		if p, ok := advisor.CanonicalPersona(w); ok {
			in.Persona = p
			break
		}
	}
	m := b.market(ctx)
	res, err := nativeFirst(&in.Where, func() (advisor.Recommendation, error) { return advisor.Recommend(in, m) })
	if err != nil {
		return err
	}
	defaultedValues(res.Inputs, res.Inputs.Defaulted, a.Assumed)
	a.Result = res
	a.Currency = string(res.Inputs.Currency)
	a.show(renderRecommend(a.Lang, res, a.Assumed))
	return nil
}

// recommendImage answers "which card for SD / image generation": the image
// model named, else SDXL (said in the assumptions), sized and priced on
// every card by package advisor.
func (b *Bot) recommendImage(ctx context.Context, a *Answer, req parse.Request) error {
	if cmpOr(req.Slots.Model, req.Slots.Arch) == "" {
		req.Slots.Model = defaultImageModel
		if a.Assumed == nil {
			a.Assumed = map[string]any{}
		}
		a.Assumed["model"] = defaultImageModel
	}
	return b.image(ctx, a, req)
}

// defaultImageModel is the image model a question naming none is sized
// for: the most used open text-to-image model at 1024².
const defaultImageModel = "sdxl-base-1.0"
