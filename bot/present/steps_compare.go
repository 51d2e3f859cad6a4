package present

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
)

// Card comparisons: the engine returns what each difference means and its
// assumptions as advisor.CompareNote values (Comparison.Said, .Assumed)
// and its lines by key (the card's id, a dot, the figure); the words are
// written here, in both languages.

// CompareNote is a comparison's note or assumption in both languages; a
// kind this file does not know reads as nothing.
func CompareNote(n advisor.CompareNote) advisor.Text {
	switch n.Kind {
	case advisor.CompareNVLinkGap:
		return text(
			fmt.Sprintf("%s's NVLink is %s GB/s against %s's %s GB/s: this matters for tensor parallelism (a model split across cards exchanges activations inside every layer), little for data parallelism (gradients once per step) and not at all for single-card inference",
				n.Lo, FormulaNum(n.LoValue), n.Hi, FormulaNum(n.HiValue)),
			fmt.Sprintf("%s 的 NVLink 为 %s GB/s，%s 为 %s GB/s：对张量并行影响大（模型切到多卡后每层都要交换激活值），对数据并行影响小（每步只同步一次梯度），对单卡推理没有影响",
				n.Lo, FormulaNum(n.LoValue), n.Hi, FormulaNum(n.HiValue)))
	case advisor.CompareNoNVLink:
		return text(
			fmt.Sprintf("%s has no NVLink (%s): fine for one-card jobs and data parallelism, slow for tensor parallelism and multi-card training of large models, where %s's NVLink %s GB/s helps",
				n.Lo, n.Link, n.Hi, FormulaNum(n.HiValue)),
			fmt.Sprintf("%s 没有 NVLink（%s）：单卡任务和数据并行没问题，张量并行和大模型多卡训练会慢，这时 %s 的 NVLink %s GB/s 更有优势",
				n.Lo, n.Link, n.Hi, FormulaNum(n.HiValue)))
	case advisor.CompareBandwidth:
		return text(
			fmt.Sprintf("%s reads memory %s× as fast as %s (%s vs %s GB/s): token generation at small batch scales with it",
				n.Hi, FormulaNum(n.Ratio), n.Lo, FormulaNum(n.HiValue), FormulaNum(n.LoValue)),
			fmt.Sprintf("%s 的显存带宽是 %s 的 %s 倍（%s 对 %s GB/s）：小批量生成 token 的速度随之提升",
				n.Hi, n.Lo, FormulaNum(n.Ratio), FormulaNum(n.HiValue), FormulaNum(n.LoValue)))
	case advisor.CompareCompute:
		return text(
			fmt.Sprintf("%s has %s× the dense BF16 compute of %s (%s vs %s TFLOPS): training, fine-tuning and prompt processing scale with it",
				n.Hi, FormulaNum(n.Ratio), n.Lo, FormulaNum(n.HiValue), FormulaNum(n.LoValue)),
			fmt.Sprintf("%s 的稠密 BF16 算力是 %s 的 %s 倍（%s 对 %s TFLOPS）：训练、微调和提示词预填充随之提速",
				n.Hi, n.Lo, FormulaNum(n.Ratio), FormulaNum(n.HiValue), FormulaNum(n.LoValue)))
	case advisor.CompareMemory:
		return text(
			fmt.Sprintf("%s holds %s GB more per card (%s vs %s GB): bigger models, longer contexts or larger batches on fewer cards",
				n.Hi, FormulaNum(n.HiValue-n.LoValue), FormulaNum(n.HiValue), FormulaNum(n.LoValue)),
			fmt.Sprintf("%s 每卡多 %s GB 显存（%s 对 %s GB）：更大的模型、更长的上下文或更大的批量，用更少的卡",
				n.Hi, FormulaNum(n.HiValue-n.LoValue), FormulaNum(n.HiValue), FormulaNum(n.LoValue)))
	case advisor.CompareFP8:
		return text(
			fmt.Sprintf("%s runs FP8 natively, %s does not: FP8 inference and training roughly double usable compute where supported", n.Hi, n.Lo),
			fmt.Sprintf("%s 原生支持 FP8，%s 不支持：在支持的框架里 FP8 推理和训练的可用算力约翻倍", n.Hi, n.Lo))
	case advisor.CompareStack:
		return text(
			fmt.Sprintf("%s runs a different software stack (CANN/MindSpore): CUDA code needs porting; the seed report budgets 3–6 months for a real project", n.Hi),
			fmt.Sprintf("%s 使用不同的软件栈（CANN/MindSpore）：CUDA 代码需要迁移，种子报告按 3–6 个月预估", n.Hi))
	case advisor.CompareCheaper:
		return text(
			fmt.Sprintf("per TFLOP-hour %s is %s× cheaper than %s at the catalogue's lowest prices", n.Hi, FormulaNum(n.Ratio), n.Lo),
			fmt.Sprintf("按目录最低价算，%s 每 TFLOP·小时比 %s 便宜 %s 倍", n.Hi, n.Lo, FormulaNum(n.Ratio)))
	case advisor.CompareMonthlyOnly:
		return text(
			fmt.Sprintf("%s is priced only as a monthly plan here, divided by 730 h: it costs that per hour only if used all month, so do not set it against hourly retail prices as is", n.Hi),
			fmt.Sprintf("%s 这里只有包月价，按 730 小时折算：只有整月用满才是这个小时价，不能直接和按小时零售价对比", n.Hi))
	case advisor.CompareSpotOnly:
		return text(fmt.Sprintf("%s's only prices here are spot (interruptible) capacity", n.Hi),
			fmt.Sprintf("%s 这里只有竞价（可中断）价格", n.Hi))
	case advisor.CompareNoPrice:
		return text(fmt.Sprintf("no price for %s in the catalogue", n.Hi), fmt.Sprintf("目录里没有 %s 的价格", n.Hi))
	case advisor.CompareSeed:
		if n.GPU == "h800" {
			return text(n.Seed, "种子文档写 H800 的 NVLink 为 600 GB/s；有出处的规格表为 400 GB/s，这里采用 400 GB/s（DeepSeek 报告其 H800 集群实测约 160 GB/s 可用）")
		}
		return text(n.Seed, "种子文档中的数字与有出处的规格表不一致，这里采用规格表："+n.Seed)
	case advisor.CompareSpecsSources:
		return text("specs from sourced tables (dense tensor TFLOPS, no sparsity); price range per card-hour over the card's on-demand offers (spot or monthly plans only when nothing else is listed)",
			"规格取自有出处的规格表（稠密张量算力，不含稀疏）；价格区间为该卡按需报价的每卡每小时范围（没有按需报价时才用竞价或包月）")
	case advisor.CompareWorded:
		return n.Text
	}
	return advisor.Text{}
}

// CompareLabel names a comparison line of the card called name by what
// follows the card's id in its key.
func CompareLabel(what, name string) advisor.Text {
	switch what {
	case "cheapest_reserved":
		return text(name+" cheapest reserved per card-hour", name+" 最低预留价（每卡每小时）")
	case "per_tflop_hour":
		return text(name+" per TFLOP-hour", name+" 每 TFLOP·小时")
	case "per_gb_hour":
		return text(name+" per GB-hour of memory", name+" 每 GB 显存·小时")
	}
	return advisor.Text{}
}

// WordCompare writes r's notes, assumptions and line names from its
// values and keys. It writes new slices.
func WordCompare(r *advisor.Comparison) {
	lines := make([]advisor.Line, len(r.Lines))
	for i, l := range r.Lines {
		for _, row := range r.Rows {
			if what, ok := strings.CutPrefix(l.Key, row.GPU+"."); ok {
				l.Label = CompareLabel(what, row.Name)
				break
			}
		}
		lines[i] = l
	}
	r.Lines = lines
	r.Notes = make([]advisor.Text, 0, len(r.Said))
	for _, n := range r.Said {
		r.Notes = append(r.Notes, CompareNote(n))
	}
	r.Assumptions = make([]advisor.Text, 0, len(r.Assumed))
	for _, n := range r.Assumed {
		r.Assumptions = append(r.Assumptions, CompareNote(n))
	}
}
