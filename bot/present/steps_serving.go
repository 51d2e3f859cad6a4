package present

import (
	"fmt"

	"github.com/gpubot/gpubot/advisor"
)

// Serving estimates: the engine returns its assumptions as
// advisor.ServeNote values (Serving.Notes) and its lines by key; the words
// are written here, in both languages.

// ServeNote is a serving estimate's assumption in both languages; a kind
// this file does not know reads as nothing.
func ServeNote(n advisor.ServeNote) advisor.Text {
	switch n.Kind {
	case advisor.ServeKernel:
		return text(fmt.Sprintf("kernel class %s on %s: %s%% of memory bandwidth in decode, %s%% of the %s tensor peak in prefill and %s%% in batched decode (calibrated on published TensorRT-LLM, llama.cpp, MLC-LLM and ExLlama results)",
			n.Class, n.GPU, FormulaNum(n.BWPct), FormulaNum(n.PrefillPct), n.Peak, FormulaNum(n.DecodePct)),
			fmt.Sprintf("内核类别 %s（%s）：解码达到显存带宽的 %s%%，预填充达到 %s 峰值的 %s%%，批量解码 %s%%（按公开的 TensorRT-LLM、llama.cpp、MLC-LLM、ExLlama 结果校准）",
				n.Class, n.GPU, FormulaNum(n.BWPct), n.Peak, FormulaNum(n.PrefillPct), FormulaNum(n.DecodePct)))
	case advisor.ServeBatching:
		return text(fmt.Sprintf("%d tokens in and %d out per request; continuous batching of %d sequences; TTFT is the prompt's own prefill with no queue", n.In, n.Out, n.Concurrency),
			fmt.Sprintf("每个请求输入 %d、输出 %d token；连续批处理 %d 条序列；首 token 延迟按无排队时该请求自身的预填充计算", n.In, n.Out, n.Concurrency))
	case advisor.ServeMoE:
		return text(fmt.Sprintf("mixture of experts: FLOPs from the %sB active parameters; each step reads the shared weights and the experts the batch selects (uniform routing)", FormulaNum(n.ActiveB)),
			fmt.Sprintf("混合专家：计算量按激活参数 %sB；每步读取共享权重和本批次选中的专家（按均匀路由估计）", FormulaNum(n.ActiveB)))
	case advisor.ServeMoERouting:
		return text(fmt.Sprintf("each decode step also pays expert routing (%s µs per MoE layer) and a fixed %s µs per expert a card touches, calibrated on SGLang v0.5.7 serving DeepSeek-R1 on 8 × H200 (InferenceX, 2026-03); engines from before 2025 measured up to 5× slower at small batch", FormulaNum(n.RoutingUS), FormulaNum(n.ExpertUS)),
			fmt.Sprintf("每个解码步还要付出专家路由开销（每个 MoE 层 %s µs）和每张卡每触及一个专家 %s µs 的固定开销，按 SGLang v0.5.7 在 8 × H200 上部署 DeepSeek-R1 的实测校准（InferenceX，2026-03）；2025 年以前的引擎在小批量下实测慢到 5 倍", FormulaNum(n.RoutingUS), FormulaNum(n.ExpertUS)))
	case advisor.ServeWorded:
		return n.Text
	}
	return advisor.Text{}
}

// servingLabels names each serving line by key: English, Chinese.
var servingLabels = map[string][2]string{
	"concurrency":      {"concurrent sequences", "并发序列数"},
	"prefill":          {"prefill, one request", "单请求预填充"},
	"ttft_ms":          {"time to first token", "首 token 延迟"},
	"step_memory":      {"decode step, bandwidth bound", "解码单步（带宽瓶颈）"},
	"step_compute":     {"decode step, compute bound", "解码单步（算力瓶颈）"},
	"step_comm":        {"decode step, all-reduces", "解码单步（卡间通信）"},
	"step_moe":         {"decode step, expert routing", "解码单步（专家路由）"},
	"step":             {"decode step", "解码单步"},
	"per_sequence_tps": {"decode speed per user", "单用户解码速度"},
	"tokens_per_s":     {"output tokens/s per replica", "单副本输出 tokens/s"},
}

// ServingLabel names a serving line by its key.
func ServingLabel(key string) advisor.Text {
	l := servingLabels[key]
	return advisor.Text{EN: l[0], ZH: l[1]}
}

// WordServing writes s's line names and assumptions from its keys and
// notes. It writes new slices.
func WordServing(s *advisor.Serving) {
	lines := make([]advisor.Line, len(s.Lines))
	for i, l := range s.Lines {
		l.Label = ServingLabel(l.Key)
		lines[i] = l
	}
	s.Lines = lines
	s.Assumptions = make([]advisor.Text, 0, len(s.Notes))
	for _, n := range s.Notes {
		s.Assumptions = append(s.Assumptions, ServeNote(n))
	}
}
