package bot

import (
	"context"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// cmpOr is the first non-empty string.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// imageModel reports whether the named model is a text-to-image model.
func (b *Bot) imageModel(name string) bool {
	if name == "" {
		return false
	}
	_, ok := knowledge.FindImageModel(b.kb.Images, name)
	return ok
}

// image answers fit / speed / cost for an image model (SD, SDXL, SD3, FLUX).
func (b *Bot) image(ctx context.Context, a *Answer, req parse.Request) error {
	s := req.Slots
	method := advisor.Method(s.Method)
	in := advisor.ImageInput{Model: s.Model, Method: method, Resolution: s.Resolution, Batch: s.Batch,
		GPU: firstGPU(s), Images: s.Images, Price: money(s.Price), Spot: s.Spot,
		Currency: b.currency(req), FX: b.fx(s)}
	res, err := advisor.Image(in, b.market(ctx), b.kb.Images)
	if err != nil {
		return err
	}
	a.Result = res
	a.Currency = string(res.Currency)
	a.show(renderImage(a.Lang, res, s.Images > 0))
	return nil
}
