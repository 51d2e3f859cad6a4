package bot

import (
	"context"
	"strings"

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
	text := strings.ToLower(req.Text)
	switch {
	case strings.Contains(text, "diffusion") || strings.Contains(text, "扩散") || strings.Contains(text, "sd3") || strings.Contains(text, "stable diffusion") || s.Workload == "diffusion":
		in.Preset = advisor.PresetDiffusion
	case s.ParamsB > 0:
		in.Workload = workload(s)
	case s.Workload == "finetune" || s.Method == "lora" || s.Method == "qlora" || s.Method == "full":
		in.Preset = advisor.PresetFineTune
	case s.Workload == "inference" || s.Method == "inference":
		in.Preset = advisor.PresetInference
	}
	for _, w := range append(strings.Fields(text), s.Args...) {
		if p, ok := advisor.CanonicalPersona(w); ok {
			in.Persona = p
			break
		}
	}
	if in.Persona == "" {
		for _, w := range []string{"个人", "初创", "创业", "小团队", "企业", "高校", "科研"} {
			if strings.Contains(text, w) {
				in.Persona, _ = advisor.CanonicalPersona(w)
				break
			}
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
