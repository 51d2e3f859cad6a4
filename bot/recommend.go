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
	// a persona= setting, or the team's profile setting (price_persona.go).
	in.Persona = b.persona(ctx, s)
	res, err := rankSupplied(in, b.market(ctx))
	if err != nil {
		return err
	}
	defaultedValues(res.Inputs, res.Inputs.Defaulted, a.Assumed)
	a.Result = res
	a.Currency = string(res.Inputs.Currency)
	a.show(renderRecommend(a.Lang, res, a.Assumed))
	return nil
}

// rankSupplied ranks the cards on offers that can serve the plan: a row
// priced on an offer that cannot (advisor Market.Unsuppliable: a
// single-card marketplace listing for an 8-card replica, a card without
// BF16 for a 16-bit language model) is set aside with its reason and the
// ranking is made again without it, a few times at most ("70b inference"
// led with 8× V100 on a $0.09 one-card Vast.ai listing).
func rankSupplied(in advisor.RecommendInput, m advisor.Market) (advisor.Recommendation, error) {
	llm := in.Preset != advisor.PresetDiffusion
	var aside []advisor.Ranked
	var res advisor.Recommendation
	owned := false // m.Offers is this call's own copy, filtered in place after the first
	for pass := 0; pass < 5; pass++ {
		r, err := nativeFirst(&in.Where, func() (advisor.Recommendation, error) { return advisor.Recommend(in, m) })
		if err != nil {
			if pass > 0 {
				break // nothing left to rank: keep the last ranking, its set-aside rows said
			}
			return r, err
		}
		res = r
		var drop map[string]bool
		for _, rk := range res.Rankings {
			for _, row := range rk.Rows {
				if drop[row.Offer] {
					continue
				}
				for _, o := range m.Offers { // a ranking shows ten rows at most: a scan each
					if o.Key != row.Offer {
						continue
					}
					if why := m.Unsuppliable(o, row.Cards, in.Workload.Bits, llm); why.EN != "" {
						if drop == nil {
							drop = map[string]bool{}
						}
						drop[row.Offer] = true
						row.Note = why
						aside = append(aside, row)
					}
					break
				}
			}
		}
		if len(drop) == 0 {
			break
		}
		if !owned {
			m, owned = m.WithoutOffers(drop), true
			continue
		}
		kept := m.Offers[:0]
		for _, o := range m.Offers {
			if !drop[o.Key] {
				kept = append(kept, o)
			}
		}
		m.Offers = kept
	}
	if len(res.Rankings) > 0 && len(aside) > 0 {
		res.Rankings[0].Aside = append(res.Rankings[0].Aside, aside...)
		res.Assumptions = append(res.Assumptions, advisor.Text{
			EN: "offers that cannot serve the plan are set aside, not ranked: marketplace listings with fewer cards than one replica needs, and cards without BF16 for a 16-bit language model",
			ZH: "不能支撑方案的报价不参与排名：卡数不够一个副本的算力市场挂单，以及 16 位大模型任务下不支持 BF16 的卡"})
	}
	return res, nil
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
