package parse

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// benchMessages mixes intents, languages and slash commands.
var benchMessages = []string{
	"13B 模型 LoRA 微调要多大显存",
	"how much to fine-tune a 70B with QLoRA?",
	"包月划算吗",
	"4090 包月 1000 块，按需 1.9 一小时，我一个月跑 400 小时，哪个省",
	"H100 和 H800 选哪个",
	"4090 现在多少钱",
	"记一笔：4090 跑了 40 小时 75 块 项目 aigc",
	"租卡合同里要写清楚哪些条款",
	"should we buy H100s or keep renting at $2.2/h? we use them ~60% of the time",
	"/gpu cost 7b lora 50k samples 2 epochs on 4090",
	"/gpu monthly 4090 200h price=1.8 monthly=900",
	"<@U024BE7LH> 七十亿参数 qlroa 单卡3090能跑吗",
	"今天天气怎么样",
	"预算一万块，想微调 7B，推荐什么卡",
}

// BenchmarkParse routes one typical message (the mix above, in turn).
func BenchmarkParse(b *testing.B) {
	p := New(knowledge.MustShipped())
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p.Parse(benchMessages[i%len(benchMessages)])
		i++
	}
}

// BenchmarkParseLong is a 40 KB paste, cut to maxMessage runes.
func BenchmarkParseLong(b *testing.B) {
	p := New(knowledge.MustShipped())
	msg := strings.Repeat("4090 包月划算吗，每月 200 小时，七十亿参数 lora 两轮 ¥1.8/h ", 700)
	b.ReportAllocs()
	for b.Loop() {
		p.Parse(msg)
	}
}
