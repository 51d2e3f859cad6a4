package bot

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
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
	// "finetune flux", "SDXL fine-tuning with DreamBooth": a fine-tune the
	// method slot did not name is LoRA (parse.ImageTraining says why).
	trainWord, dreambooth := parse.ImageTraining(req.Text)
	if method == "" && trainWord != "" {
		method = advisor.Method(trainWord)
		a.use("method", "a fine-tune of an image model: "+trainWord)
	}
	in := advisor.ImageInput{Model: s.Model, Method: method, Resolution: s.Resolution, Batch: s.Batch,
		GPU: firstGPU(s), Images: s.Images, Price: money(s.Price), Spot: s.Spot, Bits: s.Bits, TextEncoder: s.TextEncoder,
		Currency: b.currency(req), FX: b.fx(s)}
	if s.Images > 0 && s.Steps == 0 && method != "" && method != advisor.Inference {
		// "SDXL LoRA on 3000 images": the images are the training set, not
		// pictures to make — one optimizer step per image each epoch at
		// batch 1 (kohya's and diffusers' step count), so 3,000 images are
		// 3,000 steps an epoch
		epochs := max(s.Epochs, 1)
		batch := max(s.Batch, 1)
		in.TrainSteps = int(math.Ceil(s.Images * epochs / float64(batch)))
		in.Images = 0
		how := fmt.Sprintf("the training set: %s images × %s epoch(s) ÷ batch %d = %d optimizer steps", trimNum(s.Images), trimNum(epochs), batch, in.TrainSteps)
		if s.Epochs == 0 && in.TrainSteps < advisor.DefaultImageTrainSteps {
			// "SDXL LoRA on 30 images": a small set is repeated (kohya's
			// repeats) to the usual step count, not trained for 30 steps
			in.TrainSteps = advisor.DefaultImageTrainSteps
			how = fmt.Sprintf("the training set: %s images, repeated to the usual %d optimizer steps (say epochs= or steps= to change it)", trimNum(s.Images), in.TrainSteps)
		}
		a.use("images", how)
		if s.Epochs > 0 {
			a.use("epochs", "passes over the training images")
		}
	}
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
		present.WordImage(&res) // the engine returns values; present writes the words
		a.Result = res
		a.Currency = string(res.Currency)
		d := renderImage(a.Lang, res, s)
		have := s.VRAMGB
		if g, ok := b.kb.GPU(firstGPU(s)); ok && have == 0 && len(s.GPUs) == 1 && s.Budget == nil && (s.YesNo || len(s.Targets) == 0 && method != advisor.Inference && method != "") {
			have = g.VRAMGB // "does a 4090 work?": the named card's memory is the verdict's (a budget's yes/no is the money's)
		}
		if dreambooth && method != "" && method != advisor.Inference {
			d.Summary = append(d.Summary, b.dreamboothLine(ctx, a.Lang, in, res, method))
		}
		if have > 0 && res.MemoryGB > have {
			if sq, ok := advisor.SqueezeImage(in, b.market(ctx), b.kb.Images, have); ok {
				// The setting that fits, with its memory, replaces the
				// generic "Smaller: bits=8 …" hint.
				keep := []string{imageSqueezeLine(a.Lang, have, sq)}
				for _, line := range d.Summary {
					if !strings.HasPrefix(line, tr(a.Lang, "Smaller:", "缩小显存：")) {
						keep = append(keep, line)
					}
				}
				d.Summary = keep
			} else if len(sq.Steps) > 0 {
				last := sq.Steps[len(sq.Steps)-1]
				d.Summary = append([]string{tr(a.Lang,
					fmt.Sprintf("Even with %s it needs ≈%s GB: more than %s GB.", last.Change, fmtNum(last.MemoryGB), fmtNum(have)),
					fmt.Sprintf("即使用 %s 也约需 %s GB，超过 %s GB。", last.Change, fmtNum(last.MemoryGB), fmtNum(have)))}, d.Summary...)
			}
		}
		if have > 0 && res.MemoryGB > 0 {
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
		present.WordImage(&res)
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

// imageSqueezeLine states the lighter setting that holds an image job on
// the asker's card, and what each step on the way needs.
func imageSqueezeLine(lang string, have float64, sq advisor.ImageSqueeze) string {
	var tried []string
	for _, st := range sq.Steps[:len(sq.Steps)-1] {
		tried = append(tried, tr(lang, fmt.Sprintf("%s ≈%s GB", st.Change, fmtNum(st.MemoryGB)), fmt.Sprintf("%s 约 %s GB", st.Change, fmtNum(st.MemoryGB))))
	}
	line := tr(lang,
		fmt.Sprintf("What makes it fit %s GB: %s — ≈%s GB", fmtNum(have), sq.Change, fmtNum(sq.MemoryGB)),
		fmt.Sprintf("在 %s GB 上放得下的设置：%s——约 %s GB", fmtNum(have), sq.Change, fmtNum(sq.MemoryGB)))
	if len(tried) > 0 {
		line += tr(lang, " (lighter steps: "+strings.Join(tried, "; ")+")", "（较轻的设置："+strings.Join(tried, "；")+"）")
	}
	if sq.MemoryGB > 0.9*have {
		line += tr(lang, "; tight: keep batch 1", "；偏紧：batch 保持 1")
	}
	return line + tr(lang, ".", "。")
}

// dreamboothLine says which DreamBooth the answer sized (LoRA unless the
// message said full) and what the other one needs.
func (b *Bot) dreamboothLine(ctx context.Context, lang string, in advisor.ImageInput, res advisor.ImageResult, method advisor.Method) string {
	other := in
	other.Method, other.Bits, other.TextEncoder, other.Defaulted = advisor.Full, 0, "", nil
	if method == advisor.Full {
		other.Method = advisor.LoRA
	}
	o, err := advisor.Image(other, b.market(ctx), b.kb.Images)
	if err != nil {
		return ""
	}
	if method == advisor.Full {
		return tr(lang,
			fmt.Sprintf("DreamBooth sized as full fine-tuning of the backbone (diffusers train_dreambooth.py): ≈%s GB; DreamBooth-LoRA (train_dreambooth_lora.py) needs ≈%s GB.", fmtNum(res.MemoryGB), fmtNum(o.MemoryGB)),
			fmt.Sprintf("DreamBooth 按主干全参微调计（diffusers train_dreambooth.py）：约 %s GB；DreamBooth-LoRA（train_dreambooth_lora.py）约 %s GB。", fmtNum(res.MemoryGB), fmtNum(o.MemoryGB)))
	}
	return tr(lang,
		fmt.Sprintf("DreamBooth sized as DreamBooth-LoRA (diffusers train_dreambooth_lora.py): ≈%s GB; full-backbone DreamBooth (train_dreambooth.py) needs ≈%s GB — say full to size that.", fmtNum(res.MemoryGB), fmtNum(o.MemoryGB)),
		fmt.Sprintf("DreamBooth 按 DreamBooth-LoRA 计（diffusers train_dreambooth_lora.py）：约 %s GB；主干全参的 DreamBooth（train_dreambooth.py）约 %s GB——说“全参”可按它计算。", fmtNum(res.MemoryGB), fmtNum(o.MemoryGB)))
}
