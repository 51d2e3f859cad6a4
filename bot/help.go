package bot

import "strings"

// usageEN and usageZH list every command with an example.
var usageEN = []string{
	"/gpu fit 13b lora — VRAM needed and which cards fit (options: bs=8 seq=4096 ctx=32k conc=50 bits=4|8 rank=64 gc=off optim=adamw8bit gpu=h20)",
	"/gpu help — this list",
}

var usageZH = []string{
	"/gpu fit 13b lora — 需要多少显存、哪些卡放得下（可选：bs=8 seq=4096 ctx=32k conc=50 bits=4|8 rank=64 gc=off optim=adamw8bit gpu=h20）",
	"/gpu help — 显示本帮助",
}

func (b *Bot) help(a *Answer) {
	a.Ephemeral = true
	lines := usageEN
	head := "gpubot answers GPU procurement questions. Commands:"
	if a.Lang == "zh" {
		lines, head = usageZH, "gpubot 回答 GPU 选型与采购问题。命令："
	}
	a.Text = head + "\n" + bullets(lines)
	a.Text = strings.TrimRight(a.Text, "\n")
	a.Blocks = textBlocks(a.Text)
	a.Result = map[string]any{"commands": lines}
}

func (b *Bot) unknown(a *Answer) {
	a.Ephemeral = true
	if a.Lang == "zh" {
		a.Text = "这个问题我答不了。我能回答 GPU 显存、成本、包月、买卡和价格相关的问题，例如：/gpu fit 13b lora。输入 /gpu help 查看全部命令。"
	} else {
		a.Text = "I can't answer that one. I answer GPU questions — memory, cost, monthly plans, buying, prices — e.g. /gpu fit 13b lora. Type /gpu help for all commands."
	}
	a.Blocks = textBlocks(a.Text)
}
