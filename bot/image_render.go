package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
)

// renderImage answers an image-model question: the memory and the best
// card's speed and cost per 1,000 images first (the total for the images
// asked for, when they were), the cards that fit as the
// list, the formula lines in the working.
func renderImage(lang string, res advisor.ImageResult, askedImages bool) present.Doc {
	var d present.Doc
	in := res.Inputs
	size := fmt.Sprintf("%d×%d", in.Resolution, in.Resolution)
	d.Headline = tr(lang,
		fmt.Sprintf("%s %s at %s needs about %s GB of VRAM", res.Model, methodName(lang, string(in.Method)), size, fmtNum(res.MemoryGB)),
		fmt.Sprintf("%s %s（%s）约需 %s GB 显存", res.Model, methodName(lang, string(in.Method)), size, fmtNum(res.MemoryGB)))
	if bst := res.Best; bst != nil {
		if res.Total > 0 && askedImages {
			// "how much for 10,000 images": the figure asked for, first.
			total, n := moneyStr(res.Total, string(res.Currency)), present.Num(in.Images)
			d.Headline = tr(lang,
				fmt.Sprintf("%s images ≈ %s on %s — ", n, total, gpuName(bst.GPU)),
				fmt.Sprintf("%s 张图约 %s（%s）——", n, total, gpuName(bst.GPU))) + d.Headline
		}
		d.Headline += tr(lang,
			fmt.Sprintf(": on %s %s images/s, %s per 1,000 images", gpuName(bst.GPU), fmtNum(bst.ImagesPerS), moneyStr(bst.PerThousand, string(res.Currency))),
			fmt.Sprintf("：%s 每秒 %s 张，每千张 %s", gpuName(bst.GPU), fmtNum(bst.ImagesPerS), moneyStr(bst.PerThousand, string(res.Currency))))
		d.Figures = append(d.Figures, present.Figure{Label: tr(lang, "seconds per image", "每张耗时（秒）"), Value: fmtNum(bst.SecondsImage)})
		if res.Total > 0 {
			d.Figures = append(d.Figures, present.Figure{Label: tr(lang, "total", "总计"), Value: moneyStr(res.Total, string(res.Currency))})
		}
	}
	d.ListTitle = tr(lang, "Cards that hold it:", "放得下的显卡：")
	for _, o := range res.Options {
		if !o.Fits {
			continue
		}
		item := fmt.Sprintf("%s (%s GB)", gpuName(o.GPU), fmtNum(o.VRAMGB))
		if o.ImagesPerS > 0 { // generation speed; training answers have none
			item += fmt.Sprintf(": %s %s", fmtNum(o.ImagesPerS), tr(lang, "images/s", "张/秒"))
		} else if o.Hourly > 0 {
			item += fmt.Sprintf(tr(lang, ", %s/card-h on %s", "，%s/卡时（%s）"), moneyStr(o.Hourly, string(res.Currency)), platformName(lang, o.Platform))
		}
		if o.PerThousand > 0 {
			item += fmt.Sprintf(tr(lang, ", %s per 1,000 on %s", "，每千张 %s（%s）"), moneyStr(o.PerThousand, string(res.Currency)), platformName(lang, o.Platform))
		}
		d.List = append(d.List, item)
	}
	var wk working
	wk.result(lang, res.Lines, res.Assumptions, res.Sources)
	d.Working = wk
	return d
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
