package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

// renderImage answers an image-model question: the figure asked first —
// images per hour when that was asked, the total for the images asked
// when a count was given, a fine-tune's time and cost — then the memory,
// the cards that fit as the list, the formula lines in the working.
func renderImage(lang string, res advisor.ImageResult, s parse.Slots) present.Doc {
	var d present.Doc
	in := res.Inputs
	size := fmt.Sprintf("%d×%d", in.Resolution, in.Resolution)
	job := res.Model + " " + methodName(lang, string(in.Method))
	sizeZH := size
	if how := imageSettings(lang, in); how != "" {
		job += " (" + how + ")"
		sizeZH = how + "，" + size
	}
	d.Headline = tr(lang,
		fmt.Sprintf("%s at %s needs about %s GB of VRAM", job, size, fmtNum(res.MemoryGB)),
		fmt.Sprintf("%s %s（%s）约需 %s GB 显存", res.Model, methodName(lang, string(in.Method)), sizeZH, fmtNum(res.MemoryGB)))
	cur := string(res.Currency)
	if bst := res.Best; bst != nil {
		perHour := len(s.Targets) > 0 && s.Targets[0] == "images_per_hour"
		switch {
		case perHour:
			d.Headline = tr(lang,
				fmt.Sprintf("≈ %s images an hour on %s (%s s each) — ", present.Num(bst.ImagesPerH), gpuName(bst.GPU), fmtNum(bst.SecondsImage)),
				fmt.Sprintf("%s 每小时约出 %s 张（每张 %s 秒）——", gpuName(bst.GPU), present.Num(bst.ImagesPerH), fmtNum(bst.SecondsImage))) + d.Headline
		case res.Total > 0 && s.Images > 0:
			// "how much for 10,000 images": the figure asked for, first.
			total, n := moneyStr(res.Total, cur), present.Num(in.Images)
			d.Headline = tr(lang,
				fmt.Sprintf("%s images ≈ %s and %s card-hours on %s — ", n, total, fmtNum(res.TotalHours), gpuName(bst.GPU)),
				fmt.Sprintf("%s 张图约 %s、%s 卡时（%s）——", n, total, fmtNum(res.TotalHours), gpuName(bst.GPU))) + d.Headline
		}
		d.Headline += tr(lang,
			fmt.Sprintf(": on %s %s images/s, %s per 1,000 images", gpuName(bst.GPU), fmtNum(bst.ImagesPerS), moneyStr(bst.PerThousand, cur)),
			fmt.Sprintf("：%s 每秒 %s 张，每千张 %s", gpuName(bst.GPU), fmtNum(bst.ImagesPerS), moneyStr(bst.PerThousand, cur)))
		d.Figures = append(d.Figures,
			present.Figure{Label: tr(lang, "seconds per image", "每张耗时（秒）"), Value: fmtNum(bst.SecondsImage)},
			present.Figure{Label: tr(lang, "images per hour", "每小时出图"), Value: present.Num(bst.ImagesPerH)})
		if res.Total > 0 && s.Images > 0 {
			d.Figures = append(d.Figures, present.Figure{Label: tr(lang, "total", "总计"), Value: moneyStr(res.Total, cur)})
		}
	} else if len(res.Options) > 0 && res.Options[0].Fits && res.Options[0].TrainHours > 0 {
		// A fine-tune: how long its steps take on the card cheapest to
		// finish, and what that costs.
		o := res.Options[0]
		d.Headline += tr(lang,
			fmt.Sprintf(": on %s ≈ %s h for %s steps (%s s a step)", gpuName(o.GPU), fmtNum(o.TrainHours), present.Num(float64(in.TrainSteps)), fmtNum(o.SecondsStep)),
			fmt.Sprintf("：%s 上 %s 步约 %s 小时（每步 %s 秒）", gpuName(o.GPU), present.Num(float64(in.TrainSteps)), fmtNum(o.TrainHours), fmtNum(o.SecondsStep)))
		if o.TrainCost > 0 {
			d.Headline += tr(lang, fmt.Sprintf(", ≈ %s", moneyStr(o.TrainCost, cur)), fmt.Sprintf("，约 %s", moneyStr(o.TrainCost, cur)))
			d.Figures = append(d.Figures, present.Figure{Label: tr(lang, "training cost", "训练费用"), Value: moneyStr(o.TrainCost, cur)})
		}
		d.Figures = append(d.Figures, present.Figure{Label: tr(lang, "training time", "训练耗时"), Value: fmtNum(o.TrainHours) + " h"})
	}
	if in.GPU != "" && len(res.Options) > 0 && !res.Options[0].Fits {
		// The card named does not hold it: say so first, and the settings
		// that shrink it (the working has the sizes).
		o := res.Options[0]
		d.Headline += tr(lang,
			fmt.Sprintf(": does not fit on %s (%s GB)", gpuName(o.GPU), fmtNum(o.VRAMGB)),
			fmt.Sprintf("：%s（%s GB）放不下", gpuName(o.GPU), fmtNum(o.VRAMGB)))
		if in.Bits == 16 || in.TextEncoder == "gpu" {
			d.Summary = append(d.Summary, tr(lang,
				"Smaller: bits=8 (FP8 weights) or bits=4 (NF4), offload=t5 (text encoders off the card); paste them to size it again.",
				"缩小显存：bits=8（FP8 权重）或 bits=4（NF4），offload=t5（文本编码器移出显卡）；加上这些设置再问一次。"))
		}
	}
	d.ListTitle = tr(lang, "Cards that hold it:", "放得下的显卡：")
	for _, o := range res.Options {
		if !o.Fits {
			continue
		}
		item := fmt.Sprintf("%s (%s GB)", gpuName(o.GPU), fmtNum(o.VRAMGB))
		switch {
		case o.ImagesPerS > 0: // generation speed
			item += fmt.Sprintf(": %s %s", fmtNum(o.ImagesPerS), tr(lang, "images/s", "张/秒"))
		case o.TrainHours > 0: // a fine-tune's time
			item += fmt.Sprintf(tr(lang, ": %s h", "：%s 小时"), fmtNum(o.TrainHours))
		}
		if o.ImagesPerS <= 0 && o.Hourly > 0 {
			item += fmt.Sprintf(tr(lang, ", %s/card-h on %s", "，%s/卡时（%s）"), moneyStr(o.Hourly, cur), platformName(lang, o.Platform))
		}
		if o.PerThousand > 0 {
			item += fmt.Sprintf(tr(lang, ", %s per 1,000 on %s", "，每千张 %s（%s）"), moneyStr(o.PerThousand, cur), platformName(lang, o.Platform))
		}
		if o.TrainCost > 0 {
			item += fmt.Sprintf(tr(lang, ", ≈ %s to finish", "，完成约 %s"), moneyStr(o.TrainCost, cur))
		}
		d.List = append(d.List, item)
	}
	var wk working
	wk.result(lang, res.Lines, res.Assumptions, res.Sources)
	d.Working = wk
	return d
}

// imageSettings names the precision and text-encoder placement when they
// are not the defaults (16-bit, encoders on the card).
func imageSettings(lang string, in advisor.ImageInput) string {
	var parts []string
	switch in.Bits {
	case 8:
		parts = append(parts, "FP8")
	case 4:
		parts = append(parts, "NF4")
	}
	switch in.TextEncoder {
	case "offload":
		parts = append(parts, tr(lang, "text encoders offloaded", "文本编码器卸载"))
	case "cached":
		parts = append(parts, tr(lang, "cached text embeddings", "缓存文本嵌入"))
	}
	return strings.Join(parts, tr(lang, ", ", "，"))
}

// imageOthers names every card asked about with its cost per 1,000 images,
// or that it does not hold the model.
func imageOthers(lang string, best advisor.ImageResult, all []advisor.ImageResult) string {
	var parts []string
	for _, r := range all {
		if r.Best == nil {
			name := ""
			if len(r.Options) > 0 {
				name = gpuName(r.Options[0].GPU)
			}
			parts = append(parts, tr(lang, name+": does not hold it", name+"：放不下"))
			continue
		}
		parts = append(parts, tr(lang,
			fmt.Sprintf("%s: %s per 1,000 images", gpuName(r.Best.GPU), moneyStr(r.Best.PerThousand, string(r.Currency))),
			fmt.Sprintf("%s：每千张 %s", gpuName(r.Best.GPU), moneyStr(r.Best.PerThousand, string(r.Currency)))))
	}
	return tr(lang, "Compared: ", "对比：") + strings.Join(parts, tr(lang, "; ", "；"))
}
