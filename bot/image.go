package bot

import (
	"cmp"
	"context"
	"fmt"

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
		GPU: firstGPU(s), Images: s.Images, Price: money(s.Price), Spot: s.Spot, Bits: s.Bits, TextEncoder: s.TextEncoder,
		Currency: b.currency(req), FX: b.fx(s)}
	if s.Steps > 0 {
		if method == advisor.Inference || method == "" {
			in.Steps = s.Steps // denoising steps
		} else {
			in.TrainSteps = s.Steps // a fine-tune's optimizer steps
		}
		a.use("steps", "the image model's steps")
	}
	if len(s.GPUs) < 2 {
		res, err := advisor.Image(in, b.market(ctx), b.kb.Images)
		if err != nil {
			return err
		}
		a.Result = res
		a.Currency = string(res.Currency)
		d := renderImage(a.Lang, res, s)
		if have := s.VRAMGB; have > 0 && res.MemoryGB > 0 {
			// "显存12g能不能跑SDXL的LoRA训练": their memory against the need leads
			a.memVerdict = &[2]float64{res.MemoryGB, have}
			a.verdictAsked = true
			a.use("vram_gb", "your card's memory: the verdict")
			lead := tr(a.Lang, fmt.Sprintf("No — it needs ≈%s GB, more than your %s GB. ", fmtNum(res.MemoryGB), fmtNum(have)),
				fmt.Sprintf("不行：约需 %s GB 显存，超过你的 %s GB。", fmtNum(res.MemoryGB), fmtNum(have)))
			if res.MemoryGB <= have {
				lead = tr(a.Lang, fmt.Sprintf("Yes — it needs ≈%s GB, within your %s GB. ", fmtNum(res.MemoryGB), fmtNum(have)),
					fmt.Sprintf("可以：约需 %s GB 显存，在你的 %s GB 之内。", fmtNum(res.MemoryGB), fmtNum(have)))
			}
			d.Headline = lead + d.Headline
		}
		a.show(d)
		return nil
	}
	// "4090 还是 L40S": every named card answered, the cheapest per image shown
	var best *advisor.ImageResult
	var all []advisor.ImageResult
	var firstErr error
	for _, id := range s.GPUs {
		in.GPU = id
		res, err := advisor.Image(in, b.market(ctx), b.kb.Images)
		if err != nil {
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		all = append(all, res)
		if res.Best != nil && (best == nil || best.Best == nil || res.Best.PerThousand < best.Best.PerThousand) {
			r := res
			best = &r
		}
	}
	if best == nil {
		if len(all) == 0 {
			return firstErr
		}
		best = &all[0]
	}
	a.Result = *best
	a.Currency = string(best.Currency)
	d := renderImage(a.Lang, *best, s)
	d.Summary = append(d.Summary, imageOthers(a.Lang, *best, all))
	a.show(d)
	return nil
}
