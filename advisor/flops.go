package advisor

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// DefaultTokensPerSample is the sample length used when data is given as a
// sample count: 512 tokens, prompt plus answer of a typical instruction
// -tuning record (Alpaca-style records average a few hundred tokens, chat
// transcripts run longer). Give tokens/sample to change it.
const DefaultTokensPerSample = 512

// DefaultEpochs is one pass over the data.
const DefaultEpochs = 1

// Training compute per token, after Kaplan et al. 2020 ("Scaling Laws for
// Neural Language Models", §2.1) and Hoffmann et al. 2022 (Chinchilla,
// appendix F): a dense transformer spends 2N FLOPs per token in the forward
// pass and 4N in the backward pass, 2N for the gradients with respect to the
// activations and 2N for those with respect to the weights.
const (
	fwdFLOPsPerParam     = 2
	actGradFLOPsPerParam = 2
	wGradFLOPsPerParam   = 2
)

// trainingFLOPs is the model FLOPs of training n parameters (trainable of
// them updated) on d tokens, with the formula written out.
//
//   - full: 6·N·D — forward 2N, activation gradients 2N, weight gradients 2N.
//   - lora, qlora: 4·N·D — the frozen base still runs forward (2N) and the
//     backward pass still carries activation gradients through every frozen
//     matrix to reach the adapters below it (2N), but no weight gradient is
//     formed for frozen weights. The adapters' own FLOPs (rank r against the
//     hidden width, under 1 % at r ≤ 64) are left out.
//   - freeze: 2·N·D + 4·N_t·D — forward through everything, then backward
//     only through the trained top layers (activation and weight gradients,
//     2 + 2 per trained parameter): autograd stops at the lowest layer that
//     needs a gradient, so frozen layers below it cost nothing backward. The
//     output head's activation gradient (2 × head params per token, about
//     2 % for 7B) is left out.
func trainingFLOPs(method Method, n, trainable, d float64) (float64, string, Text) {
	f := trainingFLOPsOnly(method, n, trainable, d)
	switch method {
	case Full:
		return f, fmt.Sprintf("6 × %s params × %s tokens", sci(n), sci(d)),
			txt("full training: 6·N·D FLOPs (forward 2N + backward 4N per token; Kaplan et al. 2020)",
				"全参训练：6·N·D FLOPs（每 token 前向 2N、反向 4N；Kaplan 等 2020）")
	case LoRA, QLoRA:
		return f, fmt.Sprintf("4 × %s params × %s tokens", sci(n), sci(d)),
			txt("LoRA/QLoRA: 4·N·D FLOPs — the frozen base runs forward (2N) and passes activation gradients back (2N) but forms no weight gradients; adapter FLOPs (<1 %) left out",
				"LoRA/QLoRA：4·N·D FLOPs——冻结的基座照常前向（2N），反向仍要传递激活梯度（2N），但不计算权重梯度；适配器自身计算量（<1%）忽略")
	case Freeze:
		return f, fmt.Sprintf("2 × %s params × %s tokens + 4 × %s trained params × %s tokens", sci(n), sci(d), sci(trainable), sci(d)),
			txt("freeze tuning: 2·N·D forward + 4·N_trained·D backward — backward stops at the lowest trained layer",
				"冻结微调：前向 2·N·D + 反向 4·N_训练·D——反向传播只走到最低的可训练层")
	}
	return 0, "", Text{}
}

// trainingFLOPsOnly is the training compute of n parameters (trainable of
// them trained) over d tokens: trainingFLOPs' figure without its texts
// (NaN for a method that does not train).
func trainingFLOPsOnly(method Method, n, trainable, d float64) float64 {
	switch method {
	case Full:
		return 6 * n * d
	case LoRA, QLoRA:
		return (fwdFLOPsPerParam + actGradFLOPsPerParam) * n * d
	case Freeze:
		return fwdFLOPsPerParam*n*d + (actGradFLOPsPerParam+wGradFLOPsPerParam)*trainable*d
	}
	return math.NaN()
}

// Default MFU (model FLOPs utilisation: useful model FLOPs ÷ (time × peak)),
// with recomputation counted as overhead, not work (PaLM, Chowdhery et al.
// 2022, appendix B). It is the whole job's figure: communication, restarts
// and checkpointing are inside it, so the cost answer does not discount it
// again. Gradient checkpointing, on by default in the memory model, re-runs
// the forward pass and so lowers MFU; the figures allow for it.
//
// Datacenter cards, A100 class (A100/A800/H20, and the H200 with its larger
// memory bandwidth: peak ÷ bandwidth below 240 FLOP per byte):
//   - full 0.40: LLaMA and Llama 2 report GPU-hours on A100-80GB that imply
//     41–44 % (Touvron et al. 2023a/b); Megatron-LM reports 40–50 %.
//   - freeze and lora 0.35: the same matrix multiplies, but fine-tuning jobs
//     run smaller batches and shorter sequences, and adapters add small
//     kernels; public LoRA runs report 30–40 %.
//   - qlora 0.25: every forward and backward dequantises the NF4 weights
//     first; QLoRA runs measure 30–40 % slower than LoRA at the same batch.
//
// Compute-heavy datacenter cards (H100/H800/B200/MI300X: ≥ 240 FLOP
// per byte of memory bandwidth) reach a lower share of their much higher
// peak: Meta measured 38–43 % BF16 MFU on 16k H100 for Llama 3 405B
// (Dubey et al. 2024, table 4) with about 90 % of wall-clock spent
// training; 0.35 for full training, and the fine-tuning figures scaled
// alike. The calibration against published runs is in
// testdata/training_runs.yaml.
//
// Other cards (GeForce, workstation, legacy, domestic): three quarters of
// the A100-class figures, rounded. GeForce and workstation boards hold
// boost clocks less well under sustained load and their smaller caches and
// memory systems keep large GEMMs further from peak; domestic accelerators
// run on less-tuned software stacks (CANN).
//
// The table is read once per card in every ranking pass, so it is laid
// out by class and method position rather than hashed.
var defaultMFU = struct{ datacenter, hopper, other mfuRow }{
	datacenter: mfuRow{0.40, 0.35, 0.35, 0.25},
	hopper:     mfuRow{0.35, 0.30, 0.30, 0.22},
	other:      mfuRow{0.30, 0.26, 0.26, 0.19},
}

// mfuRow is one card class's MFU for full, freeze, LoRA and QLoRA.
type mfuRow [4]float64 // indexed by full, freeze, lora, qlora

func (r mfuRow) of(m Method) float64 {
	switch m {
	case Full:
		return r[0]
	case Freeze:
		return r[1]
	case LoRA:
		return r[2]
	case QLoRA:
		return r[3]
	}
	return 0
}

// computeHeavyFLOPPerByte is the peak-to-bandwidth ratio above which a
// datacenter card is in the "hopper" MFU class.
const computeHeavyFLOPPerByte = 240

// cardClass is the MFU class of a card.
func cardClass(g knowledge.GPU) string {
	switch {
	case g.Tier != knowledge.TierDatacenter:
		return "other"
	case g.BandwidthGBs > 0 && g.PeakTFLOPS()*1e12/(g.BandwidthGBs*1e9) >= computeHeavyFLOPPerByte:
		return "hopper"
	}
	return "datacenter"
}

// DefaultMFU is the MFU assumed for method on card g when the user gives
// none (see defaultMFU for the sources).
func DefaultMFU(method Method, g knowledge.GPU) float64 {
	switch cardClass(g) {
	case "hopper":
		return defaultMFU.hopper.of(method)
	case "datacenter":
		return defaultMFU.datacenter.of(method)
	}
	return defaultMFU.other.of(method)
}

// Pretraining at cluster scale: the MFU of a dense model on a
// compute-heavy card falls with the work each card does per layer. A
// pretraining run spreads over thousands of cards at a fixed micro-batch,
// so a small model's matrix multiplies are small next to the per-layer
// communication, kernel launches and pipeline bubbles that do not shrink
// with it. Meta's Llama 3 / 3.1 model cards give, on H100-80GB at 15T
// tokens, GPU-hours that imply (6·N·D ÷ (989 TFLOPS × hours)) MFU 0.14–0.16
// for 8B, 0.26–0.28 for 70B and 0.35 for 405B. Fitted on those five tune
// rows by least squares in log space, with the active parameters per layer
// p = N ÷ layers (8B 0.25B, 70B 0.88B, 405B 3.2B):
//
//	MFU = 0.35 × min(1, (p ÷ 3.2B)^0.3), at least 0.10
//
// It applies to full training of ≥ 10B tokens (pretraining scale) of dense
// models on compute-heavy cards. A100-class runs (LLaMA, Llama 2, Pythia,
// held out) show no such trend and keep their class figure; mixtures of
// experts keep it too (DeepSeek-V3's run matches 0.35: its experts are
// grouped GEMMs over many tokens, not one thin layer); so do fine-tuning
// jobs on a few cards, whose per-card work is large.
const (
	pretrainMFURefParamsPerLayerB = 3.2
	pretrainMFUExponent           = 0.3
	pretrainMFUFloor              = 0.10
	pretrainTokens                = 1e10
)

// mfuFor is the default MFU for method on g for a job on shape over d
// tokens, with the text that explains it.
func mfuFor(method Method, g knowledge.GPU, sh Shape, d float64) (float64, Text) {
	mfu := mfuValue(method, g, sh, d)
	base := DefaultMFU(method, g)
	if mfu == base {
		return mfu, classText(method, g)
	}
	p := sh.ComputeB / float64(sh.Layers)
	return mfu, txt(
		fmt.Sprintf("pretraining-scale default on a compute-heavy card: %s × (%sB params per layer ÷ 3.2B)^0.3 = %s — small dense models keep cluster-scale cards less busy (fitted on Meta's Llama 3/3.1 8B, 70B, 405B H100 GPU-hours)", num(base), num(round(p, 3)), num(mfu)),
		fmt.Sprintf("预训练规模、高算力卡上的默认值：%s × (每层 %sB 参数 ÷ 3.2B)^0.3 = %s——小的稠密模型在大集群上利用率更低（按 Meta Llama 3/3.1 8B、70B、405B 的 H100 GPU 小时拟合）", num(base), num(round(p, 3)), num(mfu)))
}

// mfuValue is mfuFor's figure without its text (the ranking pass).
func mfuValue(method Method, g knowledge.GPU, sh Shape, d float64) float64 {
	mfu := DefaultMFU(method, g)
	if method != Full || d < pretrainTokens || sh.MoE() || sh.Layers <= 0 || cardClass(g) != "hopper" {
		return mfu
	}
	f := math.Pow(sh.ComputeB/float64(sh.Layers)/pretrainMFURefParamsPerLayerB, pretrainMFUExponent)
	if f >= 1 {
		return mfu
	}
	return math.Max(pretrainMFUFloor, round(mfu*f, 3))
}

// classText explains which default MFU applied.
func classText(method Method, g knowledge.GPU) Text {
	switch cardClass(g) {
	case "datacenter":
		return txt(fmt.Sprintf("default for %s on an A100-class datacenter card", method), fmt.Sprintf("A100 级数据中心卡上 %s 的默认值", method))
	case "hopper":
		return txt(fmt.Sprintf("default for %s on a compute-heavy datacenter card (H100 class): whole-job MFU incl. communication and restarts", method),
			fmt.Sprintf("H100 级数据中心卡上 %s 的默认值：含通信与重启的整体 MFU", method))
	}
	return txt(fmt.Sprintf("default for %s on a consumer, workstation or domestic card: ¾ of the A100-class figure", method),
		fmt.Sprintf("消费级/工作站/国产卡上 %s 的默认值：A100 级的 ¾", method))
}

// sci prints a large figure for formulas: 1.434e18, or plain below 10⁶.
func sci(f float64) string {
	if math.Abs(f) < 1e6 {
		return num(f)
	}
	s := strconv.FormatFloat(f, 'e', 3, 64)
	mant, exp, _ := strings.Cut(s, "e")
	mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	e, _ := strconv.Atoi(exp)
	return fmt.Sprintf("%se%d", mant, e)
}
