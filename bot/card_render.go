package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
)

// renderCard writes a card answer: the verdict or the fact asked first,
// the card's figures, what each method holds (or how the named model fits
// at each precision), and the card table's sources in the working.
func renderCard(lang string, v CardView) present.Doc {
	var d present.Doc
	name := v.Name
	if v.Cards > 1 {
		name = fmt.Sprintf("%d × %s", v.Cards, v.Name)
	}
	if v.Model != "" {
		d.Headline = cardModelHeadline(lang, v, name)
		d.ListTitle = tr(lang, v.Model+" on "+name+", by precision:", v.Model+" 在 "+name+" 上，按精度：")
		for _, f := range v.Fits {
			d.List = append(d.List, cardFitLine(lang, f, v.Cards))
		}
	} else if v.Other != nil && (v.Fact == "" || v.Fact == "capacity") {
		d.Headline = twoCardHeadline(lang, v)
		o := *v.Other
		d.ListTitle = tr(lang, "Largest model that fits, "+v.Name+" vs "+o.Name+" (default workload):", "能放下的最大模型，"+v.Name+" 对比 "+o.Name+"（默认负载）：")
		for i, c := range v.Capacity {
			line := methodBits(lang, c.Method, c.Bits) + ": ≈" + fmtNum(c.MaxParamsB) + "B vs ≈" + fmtNum(o.Capacity[i].MaxParamsB) + "B"
			d.List = append(d.List, line)
		}
	} else {
		d.Headline = cardHeadline(lang, v, name)
		if v.Other != nil {
			o := CardView{Fact: v.Fact, CardFacts: *v.Other}
			d.Summary = append(d.Summary, cardHeadline(lang, o, v.Other.Name))
		}
		d.ListTitle = tr(lang, "Largest model that fits "+name+" (default workload):", name+" 能放下的最大模型（默认负载）：")
		for _, c := range v.Capacity {
			d.List = append(d.List, capacityLine(lang, c))
		}
	}
	d.Figures = cardFigures(lang, v)
	var wk working
	wk.result(lang, v.Lines, v.Assumptions, nil)
	for _, f := range v.Fits {
		if f.Note.EN != "" {
			wk.strings(present.StepNote, methodBits(lang, f.Method, f.Bits)+": "+f.Note.In(lang))
		}
	}
	for _, c := range v.Capacity {
		if c.Note.EN != "" && v.Model == "" {
			wk.strings(present.StepNote, methodBits(lang, c.Method, c.Bits)+": "+c.Note.In(lang))
		}
	}
	if v.Notes != "" {
		wk.strings(present.StepNote, tr(lang, "card table note: ", "卡表备注：")+v.Notes)
	}
	if v.SeedDisagrees != "" {
		wk.strings(present.StepNote, tr(lang, "the seed documents disagree: ", "与种子资料不一致：")+v.SeedDisagrees)
	}
	wk.strings(present.StepSource, v.Sources...)
	d.Working = wk
	if v.Model == "" {
		d.Next = tr(lang, "size a model on it: /gpu fit 14b lora "+v.GPU, "按具体模型算显存：/gpu fit 14b lora "+v.GPU)
	} else {
		d.Next = tr(lang, "the full breakdown: /gpu fit "+v.Model+" "+v.GPU, "完整显存明细：/gpu fit "+v.Model+" "+v.GPU)
	}
	return d
}

// cardHeadline answers the fact asked: yes or no on a precision or a
// link, else what the card holds.
func cardHeadline(lang string, v CardView, name string) string {
	yes, no := tr(lang, "Yes — ", "支持。"), tr(lang, "No — ", "不支持。")
	switch v.Fact {
	case "bf16":
		switch {
		case v.BF16:
			return yes + tr(lang, fmt.Sprintf("the %s has BF16 tensor cores (%s TFLOPS dense).", v.Name, fmtNum(v.PeakTF)),
				fmt.Sprintf("%s 有 BF16 张量核心（稠密 %s TFLOPS）。", v.Name, fmtNum(v.PeakTF)))
		case v.FP16Only:
			return no + tr(lang, fmt.Sprintf("the %s has no BF16, only FP16 tensor cores (%s TFLOPS dense): train in FP16 with loss scaling; BF16 checkpoints load as FP16.", v.Name, fmtNum(v.PeakTF)),
				fmt.Sprintf("%s 没有 BF16，只有 FP16 张量核心（稠密 %s TFLOPS）：训练用 FP16 加 loss scaling，BF16 权重按 FP16 加载。", v.Name, fmtNum(v.PeakTF)))
		}
		return no + tr(lang, fmt.Sprintf("the %s has no BF16 and no tensor cores (FP32 %s TFLOPS).", v.Name, fmtNum(v.PeakTF)),
			fmt.Sprintf("%s 既没有 BF16 也没有张量核心（FP32 %s TFLOPS）。", v.Name, fmtNum(v.PeakTF)))
	case "fp8":
		if v.FP8 {
			return yes + tr(lang, fmt.Sprintf("the %s has FP8 tensor cores (%s TFLOPS dense).", v.Name, fmtNum(v.FP8TF)),
				fmt.Sprintf("%s 有 FP8 张量核心（稠密 %s TFLOPS）。", v.Name, fmtNum(v.FP8TF)))
		}
		return no + tr(lang, fmt.Sprintf("the %s has no FP8 tensor cores (FP8 came with Ada and Hopper). %s", v.Name, eightBitNote(lang, v)),
			fmt.Sprintf("%s 没有 FP8 张量核心（FP8 从 Ada、Hopper 开始才有）。%s", v.Name, eightBitNote(lang, v)))
	case "fp4":
		if v.FP4 {
			return yes + tr(lang, fmt.Sprintf("the %s has FP4 tensor cores.", v.Name), fmt.Sprintf("%s 有 FP4 张量核心。", v.Name))
		}
		if v.FP8 { // a gap in the table, not a no
			return tr(lang, fmt.Sprintf("The card table has no FP4 figure for the %s (it has FP8, %s TFLOPS dense); check the vendor's spec sheet.", v.Name, fmtNum(v.FP8TF)),
				fmt.Sprintf("卡表里没有 %s 的 FP4 数据（FP8 稠密 %s TFLOPS）；请以厂商规格表为准。", v.Name, fmtNum(v.FP8TF)))
		}
		return no + tr(lang, fmt.Sprintf("the %s has no FP4 tensor cores (it has no FP8 either; FP4 came with Blackwell); 4-bit weights still run weight-only, saving memory, not compute.", v.Name),
			fmt.Sprintf("%s 没有 FP4 张量核心（它连 FP8 都没有，FP4 从 Blackwell 开始）；4 位权重仍可按仅权重量化运行，省显存但不提速。", v.Name))
	case "fp16":
		if v.PeakTF > 0 && (v.BF16 || v.FP16Only) {
			return yes + tr(lang, fmt.Sprintf("the %s has FP16 tensor cores (%s TFLOPS dense).", v.Name, fmtNum(v.PeakTF)),
				fmt.Sprintf("%s 有 FP16 张量核心（稠密 %s TFLOPS）。", v.Name, fmtNum(v.PeakTF)))
		}
	case "nvlink":
		switch {
		case v.NVLink > 0:
			return yes + tr(lang, fmt.Sprintf("the %s has NVLink at %s GB/s per card (both directions).", v.Name, fmtNum(v.NVLink)),
				fmt.Sprintf("%s 有 NVLink，每卡 %s GB/s（双向合计）。", v.Name, fmtNum(v.NVLink)))
		case v.FabricGB > 0:
			return yes + tr(lang, fmt.Sprintf("the %s links cards over %s at %s GB/s per card (not NVLink).", v.Name, v.Fabric, fmtNum(v.FabricGB)),
				fmt.Sprintf("%s 卡间走 %s，每卡 %s GB/s（不是 NVLink）。", v.Name, v.Fabric, fmtNum(v.FabricGB)))
		}
		return no + tr(lang, fmt.Sprintf("the card table lists no NVLink for the %s: cards talk over PCIe%s.", v.Name, pcieGen(v.PCIeGen)),
			fmt.Sprintf("卡表中 %s 没有 NVLink：卡间走 PCIe%s。", v.Name, pcieGen(v.PCIeGen)))
	}
	// what it runs
	c := map[string]float64{}
	for _, r := range v.Capacity {
		c[string(r.Method)+fmt.Sprint(r.Bits)] = r.MaxParamsB
	}
	return tr(lang,
		fmt.Sprintf("%s (%s GB, %s): inference up to ≈%sB in 16-bit, ≈%sB in 8-bit, ≈%sB in 4-bit; LoRA ≈%sB, QLoRA ≈%sB, full fine-tune ≈%sB.",
			name, fmtNum(v.TotalVRAMGB), precisions(lang, v), fmtNum(c["inference16"]), fmtNum(c["inference8"]), fmtNum(c["inference4"]), fmtNum(c["lora16"]), fmtNum(c["qlora4"]), fmtNum(c["full16"])),
		fmt.Sprintf("%s（%s GB，%s）：推理 16 位最大约 %sB，8 位约 %sB，4 位约 %sB；LoRA 约 %sB，QLoRA 约 %sB，全参微调约 %sB。",
			name, fmtNum(v.TotalVRAMGB), precisions(lang, v), fmtNum(c["inference16"]), fmtNum(c["inference8"]), fmtNum(c["inference4"]), fmtNum(c["lora16"]), fmtNum(c["qlora4"]), fmtNum(c["full16"])))
}

// eightBitNote says how 8-bit weights run on a card without FP8.
func eightBitNote(lang string, v CardView) string {
	for _, c := range v.Capacity {
		if c.Method == advisor.Inference && c.Bits == 8 && c.Note.EN != "" {
			return c.Note.In(lang) + tr(lang, ".", "。")
		}
	}
	return ""
}

func pcieGen(g int) string {
	if g > 0 {
		return fmt.Sprintf(" Gen%d", g)
	}
	return ""
}

// precisions names the card's tensor precisions.
func precisions(lang string, v CardView) string {
	var ps []string
	switch {
	case v.BF16:
		ps = append(ps, "BF16")
	case v.FP16Only:
		ps = append(ps, tr(lang, "FP16 (no BF16)", "FP16（无 BF16）"))
	}
	if v.FP8 {
		ps = append(ps, "FP8")
	}
	if v.FP4 {
		ps = append(ps, "FP4")
	}
	if len(ps) == 0 {
		return tr(lang, "no tensor cores", "无张量核心")
	}
	return strings.Join(ps, " + ")
}

func methodBits(lang string, m advisor.Method, bits int) string {
	return fmt.Sprintf("%s %d%s", methodName(lang, string(m)), bits, tr(lang, "-bit", " 位"))
}

func capacityLine(lang string, c advisor.CardCapacity) string {
	s := methodBits(lang, c.Method, c.Bits) + ": "
	if c.MaxParamsB == 0 {
		return s + tr(lang, "nothing fits", "放不下")
	}
	s += tr(lang, "up to ≈"+fmtNum(c.MaxParamsB)+"B", "最大约 "+fmtNum(c.MaxParamsB)+"B")
	if c.Model != "" {
		s += tr(lang, " (e.g. "+c.Model+")", "（如 "+c.Model+"）")
	}
	return s
}

func cardFitLine(lang string, f advisor.CardFit, n int) string {
	s := methodBits(lang, f.Method, f.Bits) + ": " + fmtNum(f.MemoryGB) + " GB — "
	switch {
	case f.Fits && f.Count == 1:
		return s + tr(lang, "fits one card", "单卡放得下")
	case f.Fits:
		return s + tr(lang, fmt.Sprintf("fits on %d of the %d cards", f.Count, n), fmt.Sprintf("%d 张中用 %d 张放得下", n, f.Count))
	case f.Count > 0:
		return s + tr(lang, fmt.Sprintf("does not fit; needs %d cards", f.Count), fmt.Sprintf("放不下，需要 %d 张", f.Count))
	}
	return s + tr(lang, "does not fit", "放不下")
}

// cardModelHeadline answers a card-for-a-model question: the verdict, the
// precision that decides it and its memory.
func cardModelHeadline(lang string, v CardView, name string) string {
	if v.Lead < 0 {
		return ""
	}
	f := v.Fits[v.Lead]
	mb := methodBits(lang, f.Method, f.Bits)
	mem := fmtNum(f.MemoryGB) + " GB"
	cap := fmtNum(v.TotalVRAMGB) + " GB"
	where := tr(lang, fmt.Sprintf("one %s (%s)", name, cap), fmt.Sprintf("一张 %s（%s）", name, cap))
	if v.Cards > 1 {
		where = tr(lang, fmt.Sprintf("%d of the %s", max(f.Count, 1), name), fmt.Sprintf("%s 中的 %d 张", name, max(f.Count, 1)))
	}
	// the next precision up that does not fit, for the contrast
	var above string
	for i := v.Lead - 1; i >= 0; i-- {
		if g := v.Fits[i]; !g.Fits && g.Method == f.Method {
			above = tr(lang, fmt.Sprintf("; %s needs %s and does not.", methodBits(lang, g.Method, g.Bits), fmtNum(g.MemoryGB)+" GB"),
				fmt.Sprintf("；%s要 %s，放不下。", methodBits(lang, g.Method, g.Bits), fmtNum(g.MemoryGB)+" GB"))
			break
		}
	}
	if above == "" {
		above = tr(lang, ".", "。")
	}
	yes := v.Verdict != nil && *v.Verdict == "yes"
	switch {
	case f.Fits && v.Verdict != nil && !yes: // "must I go to 4 bits?" — no, this fits
		return tr(lang, fmt.Sprintf("No — %s %s needs about %s and fits %s%s", v.Model, mb, mem, where, above),
			fmt.Sprintf("不必须。%s %s约需 %s，%s放得下%s", v.Model, mb, mem, where, above))
	case f.Fits:
		lead := tr(lang, "Yes — ", "能。")
		if v.Verdict == nil {
			lead = ""
		}
		return lead + tr(lang, fmt.Sprintf("%s %s needs about %s and fits %s%s", v.Model, mb, mem, where, above),
			fmt.Sprintf("%s %s约需 %s，%s放得下%s", v.Model, mb, mem, where, above))
	}
	need := ""
	if f.Count > 0 {
		need = tr(lang, fmt.Sprintf(" (needs %d cards)", f.Count), fmt.Sprintf("（需要 %d 张）", f.Count))
	}
	lead := tr(lang, "No — ", "不能。")
	if v.Verdict == nil {
		lead = ""
	}
	return lead + tr(lang, fmt.Sprintf("even %s %s needs about %s, more than %s holds%s.", v.Model, mb, mem, name, need),
		fmt.Sprintf("%s 即使用%s也要约 %s，超出 %s%s。", v.Model, mb, mem, name, need))
}

// cardFigures are the card's key figures.
func cardFigures(lang string, v CardView) []present.Figure {
	figs := []present.Figure{
		{Label: tr(lang, "memory per card", "单卡显存"), Value: fmtNum(v.VRAMGB) + " GB"},
		{Label: tr(lang, "bandwidth", "带宽"), Value: fmtNum(v.BandwidthGBs) + " GB/s"},
		{Label: tr(lang, "16-bit tensor", "16 位张量算力"), Value: fmtNum(v.PeakTF) + " TFLOPS"},
	}
	if v.FP8 {
		figs = append(figs, present.Figure{Label: "FP8", Value: fmtNum(v.FP8TF) + " TFLOPS"})
	}
	link := tr(lang, "PCIe"+pcieGen(v.PCIeGen)+" only", "仅 PCIe"+pcieGen(v.PCIeGen))
	switch {
	case v.NVLink > 0:
		link = "NVLink " + fmtNum(v.NVLink) + " GB/s"
	case v.FabricGB > 0:
		link = v.Fabric + " " + fmtNum(v.FabricGB) + " GB/s"
	}
	return append(figs, present.Figure{Label: tr(lang, "card-to-card", "卡间互联"), Value: link})
}

// twoCardHeadline compares what two cards hold: the method asked, or
// 16-bit inference, LoRA and QLoRA.
func twoCardHeadline(lang string, v CardView) string {
	o := *v.Other
	max := func(f advisor.CardFacts, m advisor.Method) float64 {
		for _, c := range f.Capacity {
			if c.Method == m {
				return c.MaxParamsB
			}
		}
		return 0
	}
	methods := []advisor.Method{advisor.Inference, advisor.LoRA, advisor.QLoRA}
	if v.Method != "" {
		methods = []advisor.Method{v.Method}
	}
	var parts []string
	for _, m := range methods {
		parts = append(parts, tr(lang, fmt.Sprintf("%s up to ≈%sB vs ≈%sB", methodName(lang, string(m)), fmtNum(max(v.CardFacts, m)), fmtNum(max(o, m))),
			fmt.Sprintf("%s最大约 %sB 对 %sB", methodName(lang, string(m)), fmtNum(max(v.CardFacts, m)), fmtNum(max(o, m)))))
	}
	lead := ""
	if v.Verdict != nil {
		lead = tr(lang, "Yes — ", "有帮助。")
		if *v.Verdict == "no" {
			lead = tr(lang, "Not much — ", "帮助不大。")
		}
	}
	return lead + tr(lang,
		fmt.Sprintf("%s (%s GB) vs %s (%s GB): %s.", v.Name, fmtNum(v.VRAMGB), o.Name, fmtNum(o.VRAMGB), strings.Join(parts, "; ")),
		fmt.Sprintf("%s（%s GB）对比 %s（%s GB）：%s。", v.Name, fmtNum(v.VRAMGB), o.Name, fmtNum(o.VRAMGB), strings.Join(parts, "；")))
}
