package present

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
)

// Card answers: the engine returns its assumptions as advisor.CardNote
// values (CardFacts.Assumed) and its lines by key, each capacity line with
// its row in CardFacts.Capacity; the words are written here.

// cardNotes words each card-answer assumption: English, Chinese.
var cardNotes = map[advisor.CardNote][2]string{
	advisor.CardCapacityRule: {"capacity: Fit's memory rule with its defaults — inference one request of 4,096 tokens in vLLM with 90 % of memory; training micro-batch 1 × 2,048 tokens with gradient checkpointing and AdamW; LoRA rank 16; several cards: FSDP/ZeRO-3 for training, tensor parallel for inference",
		"容量：用适配引擎的显存规则及其默认设置——推理按 vLLM 单个 4096 token 请求、可用显存 90%；训练按 micro-batch 1 × 2048 token、开启梯度检查点、AdamW；LoRA rank 16；多卡训练按 FSDP/ZeRO-3，多卡推理按张量并行"},
	advisor.CardDenseSizes: {"sizes are for dense models; a named model (Llama, Qwen …) uses its own architecture, a longer context or a bigger batch needs more",
		"规模按稠密模型计；具体模型按其自身结构计算，更长上下文或更大 batch 需要更多显存"},
	advisor.CardNoBF16: {"no BF16 on this card: training runs FP16 with loss scaling (or FP32), and a BF16 checkpoint is cast to FP16",
		"此卡不支持 BF16：训练需用 FP16 加 loss scaling（或 FP32），BF16 权重要转成 FP16"},
}

// cardLabels names a card answer's fixed lines by key: English, Chinese.
var cardLabels = map[string][2]string{
	"vram_gb":       {"memory per card", "单卡显存"},
	"bandwidth_gbs": {"memory bandwidth", "显存带宽"},
	"peak_tflops":   {"16-bit dense tensor peak", "16 位稠密张量峰值"},
	"total_vram_gb": {"memory on all cards", "全部卡的显存"},
}

// capacityKey starts the key of a capacity line (one per Capacity row).
const capacityKey = "max_params_b_"

// CardNote is a card answer's assumption in both languages.
func CardNote(n advisor.CardNote) advisor.Text {
	w := cardNotes[n]
	return advisor.Text{EN: w[0], ZH: w[1]}
}

// CapacityLabel names the capacity line of method m at bits on n cards.
func CapacityLabel(m advisor.Method, bits, n int) advisor.Text {
	return advisor.Text{EN: fmt.Sprintf("largest %s (%d-bit) on %d card(s)", m, bits, n),
		ZH: fmt.Sprintf("%d 张卡上 %s（%d 位）最大模型", n, m, bits)}
}

// WordCard writes f's line names and assumptions from its keys and
// values. It writes new slices: the market's cache may share the old ones.
func WordCard(f *advisor.CardFacts) {
	lines := make([]advisor.Line, len(f.Lines))
	row := 0
	for i, l := range f.Lines {
		switch w, ok := cardLabels[l.Key]; {
		case ok:
			l.Label = advisor.Text{EN: w[0], ZH: w[1]}
		case strings.HasPrefix(l.Key, capacityKey) && row < len(f.Capacity):
			c := f.Capacity[row]
			row++
			l.Label = CapacityLabel(c.Method, c.Bits, f.Cards)
		}
		lines[i] = l
	}
	f.Lines = lines
	f.Assumptions = make([]advisor.Text, 0, len(f.Assumed))
	for _, n := range f.Assumed {
		f.Assumptions = append(f.Assumptions, CardNote(n))
	}
}
