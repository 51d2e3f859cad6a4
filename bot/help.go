package bot

import "strings"

// usageEN and usageZH list every command with an example.
var usageEN = []string{
	"/gpu fit 13b lora — VRAM needed and which cards fit (options: bs=8 seq=4096 ctx=32k conc=50 bits=4|8 rank=64 gc=off optim=adamw8bit gpu=h20)",
	"/gpu cost 7b lora 50k samples 2 epochs on 4090 — GPU-hours, wall time and money (tokens=, epochs=, mfu=, price=, gpus=)",
	"/gpu cost 70b inference 100M tokens — tokens/s and $ per million tokens (tps=3500 price=2.5usd to use your own figures)",
	"/gpu monthly 4090 200h — monthly plan vs on demand, break-even hours (price=1.8 monthly=900, @autodl)",
	"/gpu buy h100 util=70% — rent vs buy: four annual cost lines, break-even utilisation, payback (price= rent= years= watts= pue= power= ops= rate=)",
	"/gpu price h100 — every offer, cheapest first, with dates and sources",
	"/gpu compare h100 h800 h20 — specs, prices, $/TFLOP-hour side by side, and what the differences mean",
	"/gpu recommend 70b inference — cost-performance ranking (also: recommend diffusion, recommend budget=5000, recommend startup)",
	"/gpu help — this list",
	"Amounts: 1.8, ¥1.8, 2.5usd, $2.5/h; bare numbers are in the answer's currency (USD in English, CNY in Chinese); currency=cny|usd, fx=7.2",
}

var usageZH = []string{
	"/gpu fit 13b lora — 需要多少显存、哪些卡放得下（可选：bs=8 seq=4096 ctx=32k conc=50 bits=4|8 rank=64 gc=off optim=adamw8bit gpu=h20）",
	"/gpu cost 7b lora 50k samples 2 epochs on 4090 — 卡时、耗时和费用（tokens=、epochs=、mfu=、price=、gpus=）",
	"/gpu cost 70b inference 100M tokens — 吞吐和每百万 token 成本（可用 tps=3500 price=2.5usd 指定自己的数字）",
	"/gpu monthly 4090 200h — 包月 vs 按需，打平小时数（price=1.8 monthly=900，@autodl）",
	"/gpu buy h100 util=70% — 租还是买：四项年成本、打平利用率、回本周期（price= rent= years= watts= pue= power= ops= rate=）",
	"/gpu price h100 — 全部报价，从低到高，附日期和来源",
	"/gpu compare h100 h800 h20 — 参数、价格、每 TFLOP 时成本对比，以及差异意味着什么",
	"/gpu recommend 70b inference — 性价比排行（也可：recommend diffusion、recommend budget=5000、recommend 初创）",
	"/gpu help — 显示本帮助",
	"金额写法：1.8、¥1.8、2.5usd、$2.5/h；不写币种时按回答语言的币种（中文为人民币，英文为美元）；currency=cny|usd，fx=7.2",
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
