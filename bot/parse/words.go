package parse

import (
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// compact drops spaces, so Chinese cues match across the gaps people type
// ("包月 多少钱").
func compact(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' {
			return -1
		}
		return r
	}, s)
}

// hasWord reports whether s contains w with no ASCII letter either side of
// its ASCII ends ("rent" is not in "current"). A trailing * in w allows a
// longer word ("rent*" matches "renting").
func hasWord(s, w string) bool {
	prefix := strings.HasSuffix(w, "*")
	w = strings.TrimSuffix(w, "*")
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		j := i + len(w)
		okL := i == 0 || !isLetter(s[i-1]) || !isLetter(w[0])
		okR := prefix || j == len(s) || !isLetter(s[j]) || !isLetter(w[len(w)-1])
		if okL && okR {
			return true
		}
		from = i + 1
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// anyWord is hasWord over several words.
func anyWord(s string, words ...string) bool {
	for _, w := range words {
		if hasWord(s, w) {
			return true
		}
	}
	return false
}

// method finds the training or serving method; weak is true when it rests
// only on "deploy"/"部署", which count only next to a model size.
func method(s, c string) (m string, weak bool) {
	switch {
	case anyWord(s, "qlora", "q-lora", "q lora", "qlroa", "qloar", "qlrao"):
		return "qlora", false
	case anyWord(s, "lora", "lroa", "loar", "lora-"):
		return "lora", false
	case anyWord(s, "freeze", "frozen") || strings.Contains(c, "冻结"):
		return "freeze", false
	case containsAny(c, "全参", "全量", "预训练", "从头训练", "从零训练") ||
		anyWord(s, "full fine-tun*", "full finetun*", "full-param*", "full param*", "full ft", "full sft", "full training", "full-finetun*", "full fine tun*", "pretrain*", "pre-train*", "from scratch") ||
		hasWord(s, "full") && anyWord(s, "fine-tun*", "finetun*", "train*", "sft"):
		return "full", false
	case hasWord(s, "full") && !anyWord(s, "full precision", "full load", "full speed"):
		return "full", true // "/gpu fit 7b full": only next to a model size
	case containsAny(c, "推理", "在线服务") || anyWord(s, "inference", "infer", "serving", "vllm", "tgi", "sglang", "llama.cpp", "ollama"):
		return "inference", false
	case containsAny(c, "部署", "上线") || anyWord(s, "deploy*", "serve", "host*"):
		return "inference", true
	}
	return "", false
}

// termOf returns the first term whose words the text carries: Chinese
// words anywhere in the compacted text c, English ones as whole words of s.
func termOf(terms []knowledge.Term, s, c string) string {
	for _, t := range terms {
		for _, w := range t.Words {
			if containsNonASCII(w) && strings.Contains(c, w) || !containsNonASCII(w) && hasWord(s, w) {
				return t.Value
			}
		}
	}
	return ""
}

func containsNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// topic picks the guide topic of a knowledge question, most specific first.
func topic(s, c string) string {
	switch {
	case containsAny(c, "信创", "国产化", "国产卡", "国产替代", "迁移", "迁到", "迁往") ||
		anyWord(s, "migrat*", "domestic accelerator*", "xinchuang", "cann", "mindspore"):
		return "xinchuang"
	case containsAny(c, "爆显存", "显存不够", "显存溢出", "显存不足", "outofmemory") || anyWord(s, "oom", "out of memory"):
		return "oom"
	case containsAny(c, "合同", "条款", "赔", "宕机", "退款", "能退", "退吗", "发票", "专票", "开票", "数据安全", "销毁", "数据删除", "违约") ||
		anyWord(s, "sla", "contract*", "invoice*", "refund*", "uptime", "compensation", "data deletion", "terms"):
		return "contract"
	case containsAny(c, "隐藏", "隐性", "隐形", "额外费用", "额外收费", "流量费", "存储费", "出口流量", "快照", "公网ip", "弹性ip", "除了卡钱") ||
		anyWord(s, "hidden cost*", "hidden fee*", "egress", "storage cost*", "snapshot*", "extra fee*", "extra cost*"):
		return "hidden_costs"
	case containsAny(c, "计费", "按秒", "关机", "停机", "收费吗") || anyWord(s, "per-second", "per second billing", "billing", "granularity", "stopped instance*"):
		return "pricing"
	case containsAny(c, "采购流程", "采购步骤", "流程", "步骤", "从哪开始", "怎么采购") || anyWord(s, "procurement", "process", "checklist"):
		return "procurement"
	case containsAny(c, "坑", "误区", "注意事项") || anyWord(s, "pitfall*", "mistake*", "gotcha*", "avoid"):
		return "pitfalls"
	case containsAny(c, "平台怎么选", "怎么选平台", "选平台", "哪个平台", "选哪家平台") || anyWord(s, "provider*", "which platform", "choose a platform", "choose a cloud"):
		return "platforms"
	}
	return ""
}

// workload is the seed workload a sentence is about: its words, else the
// method (serving is inference, LoRA is a fine-tune).
func workload(terms []knowledge.Term, s, c, method string) string {
	if w := termOf(terms, s, c); w != "" {
		return w
	}
	switch method {
	case "inference":
		return "inference"
	case "lora", "qlora":
		return "llm-finetune"
	}
	return ""
}
