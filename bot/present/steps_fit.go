package present

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpubot/gpubot/advisor"
)

// Fit answers: the engine returns its own assumptions as advisor.FitNote
// values (FitResult.FitNotes) and each card's remarks the same way
// (FitOption.Remarks); the sentences are written here, in both languages.

// fitNotes words each kind of fit note: English, then Chinese.
var fitNotes = map[advisor.FitNoteKind]func(n advisor.FitNote) (string, string){
	advisor.FitPrecision: func(n advisor.FitNote) (string, string) {
		if len(n.Cards) == 0 {
			return n.Precision.EN, n.Precision.ZH
		}
		cards := strings.Join(n.Cards, ", ")
		en, zh := cards+": "+n.Precision.EN, cards+"："+n.Precision.ZH
		if n.UpcastGB != 0 {
			en += " (one replica ≈ " + FormulaNum(n.UpcastGB) + " GB there)"
			zh += "（在这些卡上单副本约 " + FormulaNum(n.UpcastGB) + " GB）"
		}
		return en, zh
	},
	advisor.FitShardTraining: func(advisor.FitNote) (string, string) {
		return "several cards: FSDP/ZeRO-3 shards the weights, gradients and optimizer states evenly; each card runs its own micro-batch and keeps its activations whole (ZeRO-3 does not shard them; Megatron tensor parallel would, in part); each card keeps its own 0.8 GB overhead (and, under stack=deepspeed, ZeRO-3's buffers)",
			"多卡：FSDP/ZeRO-3 把权重、梯度和优化器状态平均切分；每张卡跑自己的 micro-batch，激活值完整保留在本卡（ZeRO-3 不切分激活值，Megatron 张量并行可部分切分）；每张卡各有 0.8 GB 固定开销（stack=deepspeed 时另有 ZeRO-3 缓冲区）"
	},
	advisor.FitShardInference: func(advisor.FitNote) (string, string) {
		return "several cards (tensor parallel, pipeline stages past 8): weights and prefill activations split evenly; the KV cache splits by KV head — past as many cards as KV heads the heads are copied, and an MLA latent (DeepSeek) is kept whole on every tensor-parallel rank (data-parallel attention, e.g. SGLang --enable-dp-attention, would split it; not assumed); each card keeps its own 0.8 GB overhead",
			"多卡（张量并行，超过 8 卡时流水线并行）：权重和预填充激活值平均切分；KV 缓存按 KV 头切分——卡数超过 KV 头数时头会复制，MLA 潜向量（DeepSeek）在每个张量并行 rank 上完整保留（数据并行注意力如 SGLang --enable-dp-attention 可切分，此处未假设）；每张卡各有 0.8 GB 固定开销"
	},
	advisor.FitMaxBatch: func(n advisor.FitNote) (string, string) {
		return fmt.Sprintf("max_batch: the largest micro-batch per card at %d tokens that still fits (each sequence adds %s GB of activations on its card); a layout with no room for one sequence is not offered", n.SeqLen, FormulaNum(n.PerSeqGB)),
			fmt.Sprintf("max_batch：在 %d token 长度下每卡还能放下的最大 micro-batch（每多一条序列本卡增加 %s GB 激活值）；放不下一条序列的布局不予推荐", n.SeqLen, FormulaNum(n.PerSeqGB))
	},
	advisor.FitCostToFinish: func(advisor.FitNote) (string, string) {
		return "cost to finish: cards are ranked by what a million training tokens cost — hourly price × cards ÷ tokens trained per hour (train_tokens_per_s: cards × 16-bit tensor peak × default MFU × multi-card efficiency ÷ training FLOPs per token). The peak is the card's real one: BF16, or FP16 where it has no BF16 (V100, T4), or FP32 without tensor cores (P40)",
			"完成任务的成本：按每百万训练 token 的花费排序——每卡时单价 × 卡数 ÷ 每小时训练的 token 数（train_tokens_per_s：卡数 × 16 位张量峰值 × 默认 MFU × 多卡效率 ÷ 每 token 训练计算量）。峰值按卡的真实支持：BF16；不支持 BF16 的（V100、T4）按 FP16；没有张量核心的（P40）按 FP32"
	},
	advisor.FitSeedSetup: func(n advisor.FitNote) (string, string) {
		return fmt.Sprintf("default workload: micro-batch %d × %d tokens, as LLaMA-Factory's and Unsloth's examples run; the cost-performance report's batch 4 × 4,096 needs about %s GB (add bs=4 seq=4096)", n.Batch, n.SeqLen, FormulaNum(n.SeedGB)),
			fmt.Sprintf("默认负载：micro-batch %d × %d token（LLaMA-Factory、Unsloth 示例的常见设置）；按性价比报告的 batch 4 × 4096 约需 %s GB（加 bs=4 seq=4096）", n.Batch, n.SeqLen, FormulaNum(n.SeedGB))
	},
	advisor.FitConcurrencyHF: func(n advisor.FitNote) (string, string) {
		return fmt.Sprintf("max_concurrency: requests of %d tokens that fit next to the weights, each with its KV cache and its prompt's activations (%s per request per replica, transformers' generate() batches them as they come); the card count is the fewest that hold %d such requests", n.SeqLen, formulaGB(n.PerSeqGB), n.Batch),
			fmt.Sprintf("max_concurrency：权重之外还能放下多少个 %d token 的请求，每个请求含 KV 缓存和提示的激活值（每副本每个 %s，transformers 的 generate() 直接批处理）；卡数取能容纳 %d 个请求的最少卡数", n.SeqLen, formulaGB(n.PerSeqGB), n.Batch)
	},
	advisor.FitConcurrency: func(n advisor.FitNote) (string, string) {
		return fmt.Sprintf("max_concurrency: requests of %d tokens the KV cache left after the weights and a full %d-token prefill chunk holds (%s per request per replica), as vLLM reports it; the card count is the fewest that hold %d such requests by the same rule", n.SeqLen, n.Chunk, formulaGB(n.PerSeqGB), n.Batch),
			fmt.Sprintf("max_concurrency：权重和 %d token 完整预填充块之外剩下的 KV 缓存能容纳多少个 %d token 的请求（每副本每个 %s），与 vLLM 的报告口径一致；卡数按同一规则取能容纳 %d 个请求的最少卡数", n.Chunk, n.SeqLen, formulaGB(n.PerSeqGB), n.Batch)
	},
	advisor.FitNoRoom: func(n advisor.FitNote) (string, string) {
		return fmt.Sprintf("does not fit even on %d cards", n.N), fmt.Sprintf("%d 张卡也放不下", n.N)
	},
	advisor.FitMultiNode: func(n advisor.FitNote) (string, string) {
		return fmt.Sprintf("needs %d machines of 8 cards (multi-node)", n.N), fmt.Sprintf("需要 %d 台 8 卡机器（多机）", n.N)
	},
	advisor.FitPCIeOnly: func(advisor.FitNote) (string, string) {
		return "PCIe only: multi-card training is slowed by card-to-card traffic", "仅 PCIe：多卡训练受卡间通信拖慢"
	},
	advisor.FitSlowFabric: func(n advisor.FitNote) (string, string) {
		return fmt.Sprintf("%s %s GB/s between cards: tensor parallel is slower than on full NVLink", n.Fabric, FormulaNum(n.LinkGBs)),
			fmt.Sprintf("卡间 %s %s GB/s：张量并行比满血 NVLink 慢", n.Fabric, FormulaNum(n.LinkGBs))
	},
	advisor.FitReducedNVLink: func(n advisor.FitNote) (string, string) {
		return fmt.Sprintf("reduced NVLink (%s GB/s): tensor parallel is slower than on the full-NVLink card", FormulaNum(n.LinkGBs)),
			fmt.Sprintf("NVLink 带宽受限（%s GB/s）：张量并行比满血卡慢", FormulaNum(n.LinkGBs))
	},
}

// formulaGB is a memory figure in the working: two decimals at most, "GB".
func formulaGB(gb float64) string { return FormulaNum(math.Round(gb*100)/100) + " GB" }

// FitNote is a fit's assumption or a card's remark in both languages; a
// kind this file does not know reads as nothing.
func FitNote(n advisor.FitNote) advisor.Text {
	f, ok := fitNotes[n.Kind]
	if !ok {
		return advisor.Text{}
	}
	en, zh := f(n)
	return advisor.Text{EN: en, ZH: zh}
}

// FitRemarks is a card's remarks as one note: "; " between them ("；" in
// Chinese), nothing when there are none.
func FitRemarks(rs []advisor.FitNote) advisor.Text {
	var t advisor.Text
	for _, r := range rs {
		w := FitNote(r)
		if w.EN == "" {
			continue
		}
		if t.EN == "" {
			t = w
			continue
		}
		t.EN += "; " + w.EN
		t.ZH += "；" + w.ZH
	}
	return t
}

// WordFit writes res's words from its values: the memory estimate's
// (WordMemory), then the fit's own assumptions and each card's note. It
// writes new slices: the engine's cache may share the old ones.
func WordFit(res *advisor.FitResult) {
	WordMemory(&res.Memory)
	for _, n := range res.FitNotes {
		res.Assumptions = append(res.Assumptions, FitNote(n))
	}
	opts := make([]advisor.FitOption, len(res.Options))
	for i, o := range res.Options {
		o.Note = FitRemarks(o.Remarks)
		opts[i] = o
	}
	res.Options = opts
}
