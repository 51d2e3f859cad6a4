package bot

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

// fitName is a card with its memory when the name does not say it.
func fitName(o FitOption) string {
	if strings.Contains(o.Name, "GB") {
		return o.Name
	}
	return o.Name + " " + fmtNum(o.VRAMGB) + "GB"
}

// fitOrder is the options as people choose among them: one card before
// several, priced before unpriced, cheapest first, then the smaller card.
func fitOrder(opts []FitOption) []FitOption {
	var out []FitOption
	for _, o := range opts {
		if o.Fits || o.Count > 1 {
			out = append(out, o)
		}
	}
	price := func(o FitOption) float64 {
		switch {
		case o.Cheapest == nil:
			return -1
		case o.PerMTokens > 0: // training: the cost to finish, not the hour
			return o.PerMTokens
		}
		return o.Cheapest.Price * float64(max(o.Count, 1))
	}
	// One machine holds at most eight cards: a split that stays inside one
	// (NVLink, no network between the shards) beats a cheaper one that
	// spans several, which is how such models are actually served.
	oneMachine := func(o FitOption) bool { return o.Fits || o.Count <= 8 }
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Fits != b.Fits {
			return a.Fits
		}
		if oneMachine(a) != oneMachine(b) {
			return oneMachine(a)
		}
		pa, pb := price(a), price(b)
		if (pa >= 0) != (pb >= 0) {
			return pa >= 0
		}
		if pa != pb {
			return pa < pb
		}
		return a.VRAMGB*float64(max(a.Count, 1)) < b.VRAMGB*float64(max(b.Count, 1))
	})
	return out
}

func fitItem(lang string, o FitOption) string {
	var s string
	if o.Fits {
		s = fmt.Sprintf("%s — %s", fitName(o), tr(lang, fmtNum(o.SpareGB)+" GB spare", "余 "+fmtNum(o.SpareGB)+" GB"))
	} else {
		s = fmt.Sprintf("%s ×%d — %s", o.Name, o.Count, tr(lang, fmtNum(o.PerCardGB)+" GB per card", "每卡 "+fmtNum(o.PerCardGB)+" GB"))
	}
	return s + jobCostText(lang, o) + cheapestText(lang, o.Cheapest)
}

// jobCostText is ", $0.097 per 1M tokens trained" for a priced training
// option.
func jobCostText(lang string, o FitOption) string {
	if o.PerMTokens <= 0 || o.Cheapest == nil {
		return ""
	}
	return tr(lang, ", ", "，") + moneyStr(o.PerMTokens, o.Cheapest.Currency) + tr(lang, " per 1M tokens trained", "/百万训练 token")
}

// cheapestText is ", from ¥1.2/card-h at AutoDL" for a card with a price.
func cheapestText(lang string, p *PriceRef) string {
	if p == nil {
		return ""
	}
	return tr(lang, ", from ", "，低至 ") + moneyStr(p.Price, p.Currency) + tr(lang, "/card-h at ", "/卡时 @ ") + platformName(lang, p.Platform)
}

// fitVerdict is the headline's verdict on one option: fits on one card,
// needs n, or does not fit.
func fitVerdict(lang string, o FitOption, inference bool) string {
	switch {
	case o.Fits && inference: // the spare is the engine's KV room, not the card minus the total
		return tr(lang, fmt.Sprintf("fits on one %s (%s GB of KV-cache room left)", o.Name, fmtNum(o.SpareGB)),
			fmt.Sprintf("一张 %s 放得下（KV 缓存余量 %s GB）", o.Name, fmtNum(o.SpareGB)))
	case o.Fits:
		return tr(lang, fmt.Sprintf("fits on one %s (%s GB spare)", o.Name, fmtNum(o.SpareGB)),
			fmt.Sprintf("一张 %s 放得下（余 %s GB）", o.Name, fmtNum(o.SpareGB)))
	case o.Count > 1:
		return tr(lang, fmt.Sprintf("needs %d× %s (%s GB per card)", o.Count, o.Name, fmtNum(o.PerCardGB)),
			fmt.Sprintf("需要 %d 张 %s（每卡 %s GB）", o.Count, o.Name, fmtNum(o.PerCardGB)))
	}
	if !inference {
		// FSDP/ZeRO-3 shards the states, not a micro-batch's activations:
		// more cards do not shrink what each one holds
		return tr(lang, fmt.Sprintf("does not fit on %s at this micro-batch — each card keeps its micro-batch's activations whole, so more cards do not help", o.Name),
			fmt.Sprintf("%s 在这个 micro-batch 下放不下——每张卡都要存自己那份 micro-batch 的激活值，加卡也不行", o.Name))
	}
	return tr(lang, fmt.Sprintf("does not fit on %s, even split across cards", o.Name),
		fmt.Sprintf("%s 放不下，多卡拆分也不行", o.Name))
}

func renderFit(lang string, s parse.Slots, as map[string]any, v FitResult, tip string) present.Doc {
	w := v.Workload
	size := fmtNum(w.ParamsB) + "B"
	if v.Model != "" {
		size = v.Model // a named model: its catalogue id, not an approximate size
	}
	job := size + " " + methodName(lang, string(w.Method))
	need := tr(lang, fmt.Sprintf("%s needs ≈%s GB", job, fmtNum(v.MemoryGB)), fmt.Sprintf("%s约需 %s GB 显存", job, fmtNum(v.MemoryGB)))
	order := fitOrder(v.Options)
	var head string
	switch {
	case len(s.GPUs) > 0 && len(v.Options) == 1: // the asker named one card: the yes/no
		head = need + tr(lang, ": ", "：") + fitVerdict(lang, v.Options[0], w.Method == advisor.Inference)
	case len(order) == 0:
		head = need + tr(lang, ": no card in the catalogue holds it", "：目录里没有放得下的卡")
	default:
		head = need + tr(lang, ": ", "：") + fitVerdict(lang, order[0], w.Method == advisor.Inference)
		if c := order[0].Cheapest; c != nil {
			head += jobCostText(lang, order[0]) + cheapestText(lang, c)
		}
	}
	if v.kvAsked {
		head = kvHeadline(lang, v) + head
	}
	d := present.Doc{Headline: head}
	switch {
	case len(v.Variants) > 0: // "141G 和 96G 两个版本分别说一下": a count for each
		d.Headline = variantsHeadline(lang, job, v)
		d.Summary = append(d.Summary, head)
	case v.Verdict != nil:
		inference := w.Method == advisor.Inference
		d.Headline = verdictHeadline(lang, job, v)
		if v.Squeeze != nil && !squeezeLeads(*v.Verdict, v.Squeeze, inference) {
			d.Summary = append(d.Summary, squeezeLine(lang, *v.Verdict, *v.Squeeze))
		}
		if !(len(v.Options) == 1 && v.Options[0].VRAMGB != v.Verdict.VRAMGB) {
			// the catalogue card's own line, unless their card is another size
			d.Summary = append(d.Summary, head)
		}
	}
	d.Figures = append(d.Figures, present.Figure{Label: tr(lang, "total per replica", "单副本合计"), Value: fmtNum(v.MemoryGB) + " GB"})
	lines := append(v.Lines[:0:0], v.Lines...)
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].Value > lines[j].Value })
	for _, l := range lines {
		if l.Key == "total" || l.Value == 0 || len(d.Figures) == present.MaxFigures {
			continue
		}
		d.Figures = append(d.Figures, present.Figure{Label: l.Label.In(lang), Value: fmtNum(l.Value) + " GB"})
	}
	if len(order) > 1 || len(s.GPUs) == 0 {
		d.ListTitle = tr(lang, "Cards that hold it, cheapest first:", "放得下的卡（便宜的在前）：")
		if w.Method != "inference" {
			d.ListTitle = tr(lang, "Cards that hold it, cheapest per job first (cost per 1M tokens trained):", "放得下的卡（按完成任务的成本排序，每百万训练 token）：")
		}
		for _, o := range order {
			d.List = append(d.List, fitItem(lang, o))
		}
	}
	d.Assumed = assumedPairs(as)
	switch {
	case tip != "":
		d.Next = tip
	case (len(order) == 0 || !order[0].Fits) && w.Bits != 4:
		d.Next = tr(lang, "4-bit weights cut memory most: add bits=4", "4-bit 权重最省显存：加上 bits=4")
		if w.Method != "inference" {
			d.Next = tr(lang, "4-bit weights cut memory most: ask for qlora", "4-bit 权重最省显存：改用 qlora")
		}
	case len(order) == 0:
		// Already 4-bit: the weights are as small as they go; a shorter
		// sequence or more cards is what is left.
		d.Next = tr(lang, "the weights are already 4-bit: a shorter sequence (seq=512) or more cards is what is left",
			"权重已是 4-bit：只能缩短序列（seq=512）或加卡")
	default:
		d.Next = tr(lang, "for time and money: ", "算时间和费用：") + costHint(w.ParamsB, string(w.Method), order[0].GPU)
	}

	var wk working
	wk.lines(lang, v.Lines)
	for _, o := range order {
		wk.strings(present.StepItem, fitItem(lang, o))
	}
	wk.strings(present.StepAssumption, v.Assumptions...)
	_, _, none, notes := fitGroups(lang, v)
	wk.strings(present.StepNote, notes...)
	if len(none) > 0 {
		wk.strings(present.StepNote, tr(lang, "Does not fit: ", "放不下：")+strings.Join(none, ", "))
	}
	d.Working = wk
	return d
}

// costHint is the cost command for a sized job on a card.
func costHint(paramsB float64, method, gpu string) string {
	if method == "inference" {
		return fmt.Sprintf("/gpu cost %sb inference tokens=100M on %s", fmtNum(paramsB), gpu)
	}
	return fmt.Sprintf("/gpu cost %sb %s tokens=100M on %s", fmtNum(paramsB), method, gpu)
}

// fitGroups splits the options into single-card, multi-card and no-fit, and
// gathers the multi-card caveats once each with the cards they apply to.
func fitGroups(lang string, v FitResult) (one, several, none, notes []string) {
	noteCards := map[string][]string{}
	var noteOrder []string
	for _, o := range v.Options {
		switch {
		case o.Fits:
			one = append(one, fitItem(lang, o))
		case o.Count > 1:
			several = append(several, fitItem(lang, o))
			if o.Note != "" {
				if _, seen := noteCards[o.Note]; !seen {
					noteOrder = append(noteOrder, o.Note)
				}
				noteCards[o.Note] = append(noteCards[o.Note], o.Name)
			}
		default:
			none = append(none, o.Name)
		}
	}
	for _, n := range noteOrder {
		notes = append(notes, n+" ("+strings.Join(noteCards[n], ", ")+")")
	}
	return one, several, none, notes
}

// yourCardsHeadline is the yes/no for the asker's own cards, first.
func yourCardsHeadline(lang, job string, need float64, v FitVerdict, sq *advisor.Squeeze, inference bool) string {
	cards := func(n int) string {
		if n == 1 {
			return tr(lang, "one "+v.Name, "一张 "+v.Name)
		}
		return tr(lang, fmt.Sprintf("%d× %s", n, v.Name), fmt.Sprintf("%d 张 %s", n, v.Name))
	}
	switch {
	case v.Fits && v.Cards == 1 && inference:
		// One figure everywhere: the replica's total (the working's sum);
		// what the engine leaves is its KV room, said as such.
		return tr(lang, fmt.Sprintf("Yes: %s holds a %s (≈%s GB of %s GB; %s GB of KV-cache room left)", cards(1), job, fmtNum(need), fmtNum(v.VRAMGB), fmtNum(v.SpareGB)),
			fmt.Sprintf("可以：%s 放得下 %s（约需 %s GB，共 %s GB；KV 缓存余量 %s GB）", cards(1), job, fmtNum(need), fmtNum(v.VRAMGB), fmtNum(v.SpareGB)))
	case v.Fits && v.Cards == 1:
		return tr(lang, fmt.Sprintf("Yes: %s holds a %s (≈%s GB of %s GB, %s GB spare)", cards(1), job, fmtNum(v.PerCardGB), fmtNum(v.VRAMGB), fmtNum(v.SpareGB)),
			fmt.Sprintf("可以：%s 放得下 %s（约需 %s GB，共 %s GB，余 %s GB）", cards(1), job, fmtNum(v.PerCardGB), fmtNum(v.VRAMGB), fmtNum(v.SpareGB)))
	case sq != nil && sq.Over <= tightOver:
		return tr(lang, fmt.Sprintf("Tight: a %s needs ≈%s GB per card at %s tokens, %s GB over %s — it fits with %s (≈%s GB per card)",
			job, fmtNum(sq.NeedGB), seqOf(sq), fmtNum(sq.NeedGB-v.VRAMGB), cards(v.Have), sq.Change, fmtNum(sq.PerCardGB)),
			fmt.Sprintf("偏紧：%s在 %s token 下每卡约需 %s GB，比%s多 %s GB——改用 %s 就放得下（每卡约 %s GB）",
				job, seqOf(sq), fmtNum(sq.NeedGB), cards(v.Have), fmtNum(sq.NeedGB-v.VRAMGB), sq.Change, fmtNum(sq.PerCardGB)))
	case v.Fits:
		return tr(lang, fmt.Sprintf("Yes: %s hold a %s split across %d cards (≈%s GB per card of %s GB)", cards(v.Have), job, v.Cards, fmtNum(v.PerCardGB), fmtNum(v.VRAMGB)),
			fmt.Sprintf("可以：%s 放得下 %s，分到 %d 张卡上（每卡约 %s GB，共 %s GB）", cards(v.Have), job, v.Cards, fmtNum(v.PerCardGB), fmtNum(v.VRAMGB)))
	case v.Cards == 0 && !inference:
		return tr(lang, fmt.Sprintf("No: a %s needs ≈%s GB on each card, more than its %s GB — each card keeps its micro-batch's activations whole, so more cards do not help", job, fmtNum(need), fmtNum(v.VRAMGB)),
			fmt.Sprintf("不行：%s每张卡约需 %s GB，超过卡的 %s GB——每张卡都要存自己那份 micro-batch 的激活值，加卡也不行", job, fmtNum(need), fmtNum(v.VRAMGB)))
	case v.Cards == 0:
		return tr(lang, fmt.Sprintf("No: a %s needs ≈%s GB, more than even 64 cards of %s GB hold", job, fmtNum(need), fmtNum(v.VRAMGB)),
			fmt.Sprintf("不行：%s约需 %s GB，%s GB 的卡 64 张也放不下", job, fmtNum(need), fmtNum(v.VRAMGB)))
	}
	return tr(lang, fmt.Sprintf("No: a %s needs ≈%s GB — %s, you have %d", job, fmtNum(need), cards(v.Cards), v.Have),
		fmt.Sprintf("不行：%s约需 %s GB，需要 %s，你只有 %d 张", job, fmtNum(need), cards(v.Cards), v.Have))
}

// tightOver is how far over the asker's cards a training job may be and
// still be called tight rather than no: 10 %, what a shorter sequence or
// a lighter setting usually wins back.
const tightOver = 0.10

// seqOf is the sequence length the squeezed job was asked at.
func seqOf(sq *advisor.Squeeze) string {
	return fmtNum(float64(sq.AskedSeq))
}

// squeezeLine states the lighter setting that holds on the asker's cards,
// with its memory, for a job that misses them.
func squeezeLine(lang string, v FitVerdict, sq advisor.Squeeze) string {
	on := tr(lang, "one "+v.Name, "一张 "+v.Name)
	if v.Have > 1 {
		on = tr(lang, fmt.Sprintf("%d× %s", v.Have, v.Name), fmt.Sprintf("%d 张 %s", v.Have, v.Name))
	}
	return tr(lang, fmt.Sprintf("What makes it fit on %s: %s — ≈%s GB per card, %s GB spare (the QLoRA paper fine-tuned 65B on one 48 GB GPU this way: short sequences, paged optimizers)", on, sq.Change, fmtNum(sq.PerCardGB), fmtNum(sq.SpareGB)),
		fmt.Sprintf("在%s上放得下的设置：%s——每卡约 %s GB，余 %s GB（QLoRA 论文就是这样在一张 48 GB 卡上微调 65B：短序列 + 分页优化器）", on, sq.Change, fmtNum(sq.PerCardGB), fmtNum(sq.SpareGB)))
}

// kvHeadline states the KV cache a question asks for, with its formula,
// before the whole job's memory: "KV cache ≈171.8 GB (16 × 32,768 tokens ×
// 80 layers × 2 (K, V) × 8 KV heads × 128 dims × 2 bytes). The whole job: ".
func kvHeadline(lang string, v FitResult) string {
	w, sh := v.Workload, v.Shape
	var how string
	for _, l := range v.Lines {
		if l.Key == "kv_cache" {
			how = l.How
		}
	}
	bytes := 2.0
	if w.KVBits == 8 {
		bytes = 1
	}
	if sh.KVHeads > 0 && sh.KVDim > 0 && sh.KVDim%sh.KVHeads == 0 && sh.Window == 0 && sh.Attention != "MLA" &&
		sh.KVPerToken == 2*float64(sh.Layers)*float64(sh.KVDim)*2 {
		n := func(i int) string { return fmtNum(float64(i)) }
		how = tr(lang,
			fmt.Sprintf("%s × %s tokens × %s layers × 2 (K, V) × %s KV heads × %s dims × %s bytes", n(w.Batch), n(w.SeqLen), n(sh.Layers), n(sh.KVHeads), n(sh.KVDim/sh.KVHeads), fmtNum(bytes)),
			fmt.Sprintf("%s 路 × %s token × %s 层 × 2（K、V）× %s 个 KV 头 × %s 维 × %s 字节", n(w.Batch), n(w.SeqLen), n(sh.Layers), n(sh.KVHeads), n(sh.KVDim/sh.KVHeads), fmtNum(bytes)))
	}
	if how == "" {
		return tr(lang, fmt.Sprintf("KV cache ≈%s GB. The whole job: ", fmtNum(v.Breakdown.KVCacheGB)),
			fmt.Sprintf("KV 缓存约 %s GB。整体：", fmtNum(v.Breakdown.KVCacheGB)))
	}
	return tr(lang, fmt.Sprintf("KV cache ≈%s GB (%s). The whole job: ", fmtNum(v.Breakdown.KVCacheGB), how),
		fmt.Sprintf("KV 缓存约 %s GB（%s）。整体：", fmtNum(v.Breakdown.KVCacheGB), how))
}

// squeezeLeads reports whether the lighter setting that holds is the
// headline itself ("Not at batch 4…; yes at batch 1 with gradient
// accumulation 4"): a training job well over the asker's cards (a tight
// one says "Tight").
func squeezeLeads(v FitVerdict, sq *advisor.Squeeze, inference bool) bool {
	return sq != nil && !inference && !v.Fits && sq.Over > tightOver
}

// verdictHeadline is the answer for the asker's own cards, what they asked
// first: the setting that holds leads when the job as asked does not (a
// smaller batch, a lower precision), and the requests the cards hold
// follow a yes when the question asks how many.
func verdictHeadline(lang, job string, v FitResult) string {
	vd := *v.Verdict
	inference := v.Workload.Method == advisor.Inference
	switch {
	case len(v.Lower) > 0 && vd.own:
		return lowerHeadline(lang, v)
	case len(v.Lower) > 0:
		// a datacenter fleet: the cards it needs, then the precision
		// that holds on the cards they have
		return yourCardsHeadline(lang, job, v.MemoryGB, vd, v.Squeeze, inference) + lowerFits(lang, v.Lower, vd.Have)
	case squeezeLeads(vd, v.Squeeze, inference):
		return squeezeHeadline(lang, v.Workload, vd, *v.Squeeze)
	}
	head := yourCardsHeadline(lang, job, v.MemoryGB, vd, v.Squeeze, inference)
	if vd.MaxConcurrency > 0 {
		head += concurrencyText(lang, v.Workload.SeqLen, vd, v.Shape.Attention == "MLA")
	}
	return head
}

// precisionName is a weight precision as people say it.
func precisionName(bits int) string {
	if bits == 16 {
		return "FP16"
	}
	return strconv.Itoa(bits) + "-bit"
}

// lowerHeadline answers "does it fit at this precision? if not, which
// quantisation?" on the asker's card: no at the precision asked, then the
// lower ones that hold (and those that do not), never more cards — a
// laptop or a single card they own cannot add any.
func lowerHeadline(lang string, v FitResult) string {
	vd := *v.Verdict
	yours := tr(lang, fmt.Sprintf("your card's %s GB", fmtNum(vd.VRAMGB)), fmt.Sprintf("你的 %s GB", fmtNum(vd.VRAMGB)))
	if vd.Have > 1 {
		yours = tr(lang, fmt.Sprintf("your %d× %s GB cards hold", vd.Have, fmtNum(vd.VRAMGB)), fmt.Sprintf("你的 %d 张 %s GB", vd.Have, fmtNum(vd.VRAMGB)))
	}
	head := tr(lang, fmt.Sprintf("No at %s: ≈%s GB, more than %s", precisionName(v.Workload.Bits), fmtNum(v.MemoryGB), yours),
		fmt.Sprintf("放不下：%s 约需 %s GB，超过%s", precisionName(v.Workload.Bits), fmtNum(v.MemoryGB), yours))
	var yes, no []string
	for _, l := range v.Lower {
		item := tr(lang, fmt.Sprintf("%s (≈%s GB)", precisionName(l.Bits), fmtNum(l.MemoryGB)), fmt.Sprintf("%s（约 %s GB）", precisionName(l.Bits), fmtNum(l.MemoryGB)))
		if l.Fits {
			yes = append(yes, item)
		} else {
			no = append(no, item)
		}
	}
	if len(no) > 0 {
		head += tr(lang, "; "+strings.Join(no, ", ")+" does not fit either", "；"+strings.Join(no, "、")+"也放不下")
	}
	if len(yes) > 0 {
		head += tr(lang, "; "+strings.Join(yes, " or ")+" fits", "；用 "+strings.Join(yes, " 或 ")+"可以")
	}
	return head
}

// lowerFits is the lower precisions that hold on the asker's cards, after
// a no: "; 4-bit (≈45.44 GB) fits on your cards"; "" when none does.
func lowerFits(lang string, lower []FitLower, have int) string {
	var yes []string
	for _, l := range lower {
		if l.Fits {
			yes = append(yes, tr(lang, fmt.Sprintf("%s (≈%s GB)", precisionName(l.Bits), fmtNum(l.MemoryGB)), fmt.Sprintf("%s（约 %s GB）", precisionName(l.Bits), fmtNum(l.MemoryGB))))
		}
	}
	if len(yes) == 0 {
		return ""
	}
	on := tr(lang, " fits on your card", "在你这张卡上放得下")
	if have > 1 {
		on = tr(lang, " fits on your cards", "在你的卡上放得下")
	}
	return tr(lang, "; "+strings.Join(yes, " or ")+on, "；用 "+strings.Join(yes, " 或 ")+on)
}

// squeezeHeadline answers a training job that misses the asker's cards
// with the setting that holds: "Not at batch 4 (≈24.25 GB of 12 GB); yes
// at batch 1 with gradient accumulation 4 (same effective batch, ≈11.55
// GB)". Gradient accumulation keeps the batch the optimizer sees.
func squeezeHeadline(lang string, asked advisor.Workload, v FitVerdict, sq advisor.Squeeze) string {
	of := tr(lang, "of "+fmtNum(v.VRAMGB)+" GB", "，卡只有 "+fmtNum(v.VRAMGB)+" GB")
	if v.Have > 1 {
		of = tr(lang, "per card of "+fmtNum(v.VRAMGB)+" GB", "每卡，卡只有 "+fmtNum(v.VRAMGB)+" GB")
	}
	at := tr(lang, fmt.Sprintf("batch %d", asked.Batch), fmt.Sprintf("batch %d", asked.Batch))
	if asked.NoGC {
		at += tr(lang, " without gradient checkpointing", "、不开梯度检查点")
	}
	alt := sq.Workload
	var yes []string
	if alt.Batch < asked.Batch {
		accum := asked.Batch / max(alt.Batch, 1)
		yes = append(yes, tr(lang, fmt.Sprintf("batch %d with gradient accumulation %d", alt.Batch, accum),
			fmt.Sprintf("batch %d + 梯度累积 %d", alt.Batch, accum)))
	}
	if asked.NoGC && !alt.NoGC {
		yes = append(yes, tr(lang, "gradient checkpointing on", "开启梯度检查点"))
	}
	if alt.SeqLen < asked.SeqLen {
		yes = append(yes, tr(lang, fmt.Sprintf("sequences of %s tokens", fmtNum(float64(alt.SeqLen))), fmt.Sprintf("序列缩到 %s token", fmtNum(float64(alt.SeqLen)))))
	}
	why := tr(lang, "", "")
	if alt.Batch < asked.Batch {
		why = tr(lang, "same effective batch, ", "等效 batch 不变，")
	}
	return tr(lang, fmt.Sprintf("Not at %s (≈%s GB %s); yes at %s (%s≈%s GB, %s GB spare)", at, fmtNum(sq.NeedGB), of, strings.Join(yes, ", "), why, fmtNum(sq.PerCardGB), fmtNum(sq.SpareGB)),
		fmt.Sprintf("%s 不行（约需 %s GB%s）；%s 可以（%s约 %s GB，余 %s GB）", at, fmtNum(sq.NeedGB), of, strings.Join(yes, "、"), why, fmtNum(sq.PerCardGB), fmtNum(sq.SpareGB)))
}

// concurrencyText is the requests of the context the asker's cards hold in
// their KV room, for "roughly how many concurrent sequences?": under
// tensor parallelism, and with data-parallel attention where that holds
// more (an MLA latent is kept whole on every tensor-parallel card).
func concurrencyText(lang string, seq int, v FitVerdict, mla bool) string {
	n := fmtNum(math.Floor(v.MaxConcurrency))
	tokens := fmtNum(float64(seq))
	if mla && v.MaxConcurrencyDP > v.MaxConcurrency {
		dp := fmtNum(math.Floor(v.MaxConcurrencyDP))
		return tr(lang, fmt.Sprintf("; about %s concurrent %s-token sequences fit in the KV room with tensor parallelism (every card keeps the whole MLA cache), about %s with data-parallel attention (SGLang --enable-dp-attention)", n, tokens, dp),
			fmt.Sprintf("；KV 缓存余量约可同时容纳 %s 条 %s token 的序列（张量并行：每张卡都存完整的 MLA 缓存），开数据并行注意力（SGLang --enable-dp-attention）约 %s 条", n, tokens, dp))
	}
	return tr(lang, fmt.Sprintf("; about %s concurrent %s-token sequences fit in the KV room", n, tokens),
		fmt.Sprintf("；KV 缓存余量约可同时容纳 %s 条 %s token 的序列", n, tokens))
}

// variantsHeadline gives the fewest cards for each memory size of the card
// asked, the size asked first, then the job's memory.
func variantsHeadline(lang, job string, v FitResult) string {
	var parts []string
	for _, x := range v.Variants {
		var p string
		switch {
		case x.Cards == 0:
			p = tr(lang, fmt.Sprintf("%s: does not fit even on %d", x.Name, advisor.MaxClusterCards), fmt.Sprintf("%s：%d 张也放不下", x.Name, advisor.MaxClusterCards))
		case v.Workload.Method == advisor.Inference && x.MaxConcurrency > 0:
			p = tr(lang, fmt.Sprintf("%s ×%d (≈%s GB per card, KV room for ≈%s requests of %s tokens)", x.Name, x.Cards, fmtNum(x.PerCardGB), fmtNum(math.Floor(x.MaxConcurrency)), fmtNum(float64(v.Workload.SeqLen))),
				fmt.Sprintf("%s %d 张（每卡约 %s GB，KV 余量约够 %s 路 %s token 请求）", x.Name, x.Cards, fmtNum(x.PerCardGB), fmtNum(math.Floor(x.MaxConcurrency)), fmtNum(float64(v.Workload.SeqLen))))
		default:
			p = tr(lang, fmt.Sprintf("%s ×%d (≈%s GB per card)", x.Name, x.Cards, fmtNum(x.PerCardGB)), fmt.Sprintf("%s %d 张（每卡约 %s GB）", x.Name, x.Cards, fmtNum(x.PerCardGB)))
		}
		if !x.InCatalogue {
			p += tr(lang, fmt.Sprintf(" — not in the catalogue: sized as an %s with %s GB", gpuName(x.GPU), fmtNum(x.VRAMGB)),
				fmt.Sprintf("——目录里没有这个版本，按 %s 换成 %s GB 显存估算", gpuName(x.GPU), fmtNum(x.VRAMGB)))
		}
		parts = append(parts, p)
	}
	return tr(lang, "Fewest cards: "+strings.Join(parts, "; ")+fmt.Sprintf(". A %s needs ≈%s GB", job, fmtNum(v.MemoryGB)),
		"最少张数："+strings.Join(parts, "；")+fmt.Sprintf("。%s约需 %s GB", job, fmtNum(v.MemoryGB)))
}

// rentalText is the fallback of renting, after the verdict on the asker's
// own cards: "; renting A100 80GB for 10 h: ≈$23.4 (2 cards × 10 h × $1.17
// per card-hour at X)".
func rentalText(lang string, r FitRental, fits bool) string {
	lead := tr(lang, "; renting ", "；租 ")
	if fits {
		lead = tr(lang, "; renting instead ", "；若改租 ")
	}
	hours := fmtNum(r.Hours)
	if r.Price == nil {
		return lead + tr(lang, fmt.Sprintf("%s for %s h needs %d cards (no on-demand price in the catalogue)", r.Name, hours, r.Cards),
			fmt.Sprintf("%s 跑 %s 小时需要 %d 张（目录里没有按需价格）", r.Name, hours, r.Cards))
	}
	p := r.Price
	return lead + tr(lang, fmt.Sprintf("%s for %s h: ≈%s (%d cards × %s h × %s/card-h at %s)", r.Name, hours, moneyStr(r.Total, r.Currency), r.Cards, hours, moneyStr(p.Price, p.Currency), platformName(lang, p.Platform)),
		fmt.Sprintf("%s 跑 %s 小时约 %s（%d 张 × %s 小时 × %s/卡时 @ %s）", r.Name, hours, moneyStr(r.Total, r.Currency), r.Cards, hours, moneyStr(p.Price, p.Currency), platformName(lang, p.Platform)))
}
