package advisor

import (
	"fmt"

	"github.com/gpubot/gpubot/knowledge"
)

// How a precision actually runs on a card that has no tensor cores for it.
//
// 8-bit (FP8) weights, as DeepSeek-V3/R1 ship and as "fp8" asks for:
//   - FP8 tensor cores (Ada, Hopper, Blackwell, MI300): FP8 weights and
//     activations (W8A8), 1 byte per parameter.
//   - NVIDIA cards with BF16 but no FP8 (Ampere): the FP8 checkpoint loads
//     as is and runs weight-only (W8A16) through vLLM's FP8 Marlin kernels,
//     which dequantise to 16 bits inside the matrix multiply: 1 byte per
//     parameter, computed at the 16-bit rate (vLLM FP8 W8A8 docs; PR #5975,
//     2024-07, "Expand FP8 support to Ampere GPUs using FP8 Marlin").
//   - Everything older (Turing, Volta, Pascal) and accelerators without FP8
//     and without Marlin (Ascend): no serving engine runs the FP8 weights
//     there (vLLM's hardware table marks Marlin and FP8 W8A8 unsupported on
//     Volta; Marlin needs SM 8.0). The checkpoint is upcast to 16 bits at
//     load, 2 bytes per parameter, and the card is sized that way. A
//     demanding user wants the memory the card really needs, not a 1-byte
//     figure no engine delivers on it, so the option is sized upcast and
//     the note says why and names the 1-byte alternative (an 8-bit GGUF).
//
// 16-bit (BF16) weights on a card without BF16 (Volta, Turing, Pascal) run
// in FP16: the same 2 bytes, so memory does not change, but the answer says
// so — FP16 training needs loss scaling and a BF16-trained model can
// overflow in FP16.

// precisionOn is how workload w's weights run on g.
type precisionOn struct {
	w      Workload // the workload as sized on g (Bits 16 when upcast)
	upcast bool     // FP8 weights held in 16 bits on g
	note   Text     // empty when g runs the precision natively
}

// fp8Path names the way 8-bit weights run on g: "fp8" (W8A8), "marlin"
// (W8A16 weight-only) or "" (not at all: upcast).
func fp8Path(g knowledge.GPU) string {
	switch {
	case g.FP8TFLOPS > 0:
		return "fp8"
	case g.Vendor == "nvidia" && g.BF16TFLOPS > 0:
		return "marlin"
	}
	return ""
}

// runsOn returns w as it runs on g, with the note an answer shows.
func runsOn(w Workload, g knowledge.GPU) precisionOn {
	// The notes name no card, so that an answer lists the cards that share
	// one after it.
	p := precisionOn{w: w}
	half := "BF16"
	if g.BF16TFLOPS <= 0 {
		half = "FP16"
	}
	if w.Method == Inference && w.Bits == 8 {
		switch fp8Path(g) {
		case "fp8":
			return p
		case "marlin":
			p.note = txt("no FP8 tensor cores: the FP8 weights run weight-only (W8A16, vLLM's FP8 Marlin kernels), still 1 byte/param, computed at the BF16 rate",
				"没有 FP8 张量核心：FP8 权重以仅权重方式运行（W8A16，vLLM 的 FP8 Marlin 内核），仍是每参数 1 字节，按 BF16 算力计算")
			return p
		}
		p.w.Bits, p.w.Native, p.upcast = 16, "", true
		p.note = txt(fmt.Sprintf("no FP8 kernels (FP8 Marlin needs Ampere or newer): the FP8 weights are upcast to %s at load and sized at 2 bytes/param; an 8-bit GGUF (Q8_0, llama.cpp) would need about half, at lower speed", half),
			fmt.Sprintf("不支持 FP8（FP8 Marlin 内核需要 Ampere 及以后）：FP8 权重加载时升为 %s，按每参数 2 字节计算；改用 8 位 GGUF（Q8_0，llama.cpp）约需一半显存，但更慢", half))
		return p
	}
	if g.BF16TFLOPS > 0 || (w.Bits != 16 && !w.trains()) {
		return p
	}
	// 16-bit weights, or training (adapters and activations are 16-bit).
	switch {
	case g.FP16TFLOPS <= 0:
		p.note = txt("no tensor cores and no BF16: weights held in FP16 (the same 2 bytes), computed at the FP32 rate",
			"没有张量核心也不支持 BF16：权重按 FP16 存放（同为 2 字节），按 FP32 算力计算")
	case w.trains():
		p.note = txt("no BF16: trains in FP16 (the same memory) with loss scaling; a model pretrained in BF16 can overflow in FP16",
			"不支持 BF16：以 FP16 训练（显存相同），需要损失缩放；BF16 预训练的模型在 FP16 下可能溢出")
	default:
		p.note = txt("no BF16: served in FP16 (the same 2 bytes/param, vLLM --dtype half)",
			"不支持 BF16：以 FP16 部署（同为每参数 2 字节，vLLM --dtype half）")
	}
	return p
}

// sizedOn is c.sized for w as it runs on g: the upcast estimate where g
// has no kernels for w's FP8 weights.
func (c *memo) sizedOn(w Workload, g knowledge.GPU, archs []knowledge.Arch) (Memory, limits, precisionOn, error) {
	mem, lim, err := c.sized(w, archs)
	if err != nil {
		return mem, lim, precisionOn{}, err
	}
	on := runsOn(mem.Workload, g)
	if on.upcast {
		mem, lim, err = c.sized(on.w, archs)
	}
	return mem, lim, on, err
}
