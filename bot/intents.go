package bot

import (
	"context"

	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

// Button is a follow-up an answer offers. Every one re-renders or re-asks a
// read-only question; write commands (spend, subscribe, listen) get none.
type Button string

// The buttons.
const (
	ButtonWorking  Button = "working"  // show the full derivation (ephemeral)
	ButtonMore     Button = "more"     // show the whole list (ephemeral)
	ButtonCurrency Button = "currency" // the same question in the other currency
	ButtonBits8    Button = "bits8"    // the same question with an 8-bit model
)

// intent is one row of the intent table: everything the bot knows about an
// intent in one place. Dispatch, /gpu help and the buttons read it; adding
// an intent is a row here and a file pair (<intent>.go, <intent>_render.go).
type intent struct {
	id parse.Intent
	// The /gpu words that run an intent, and the settings it takes, are
	// the lexicon's (knowledge/data/lexicon.yaml): help reads them there.
	example string // a command to try, shown in help
	// exampleZH replaces example in Chinese help, for rows whose example
	// is a sentence rather than a command.
	exampleZH string
	en, zh    string // what it answers, for help
	buttons   []Button
	// essential are the result figures that are the answer (JSON paths,
	// "[]" for any list element): a rephrase that drops one its headline
	// shows is refused (phrase.EssentialFrom).
	essential []string
	// write marks commands that change state: no re-run buttons, ever.
	write bool
	// handle answers the intent (nil: answered by a routed Handler, e.g.
	// the spend ledger or subscriptions wired in cmd/bot).
	handle func(b *Bot, ctx context.Context, m Message, a *Answer, req parse.Request) error
}

var readButtons = []Button{ButtonWorking, ButtonMore, ButtonCurrency}

// intents is the table, in the order help lists it. It is filled in init
// only because help reads the table it is a row of.
var intents []intent

func init() { intents = intentTable() }

func intentTable() []intent {
	return []intent{
		{id: parse.Fit, example: "/gpu fit 13b lora",
			en: "VRAM needed and which cards fit", zh: "需要多少显存、哪些卡放得下",
			essential: []string{"memory_gb", "options[].count"},
			buttons:   append(readButtons[:3:3], ButtonBits8),
			handle: func(b *Bot, ctx context.Context, _ Message, a *Answer, req parse.Request) error {
				return b.fit(ctx, a, req)
			}},
		{id: parse.Cost, example: "/gpu cost 7b lora 50k samples on 4090",
			en: "GPU-hours, wall time and money", zh: "卡时、耗时和费用；推理按每百万 token 计",
			essential: []string{"total", "per_m_tokens"},
			buttons:   append(readButtons[:3:3], ButtonBits8),
			handle: func(b *Bot, ctx context.Context, _ Message, a *Answer, req parse.Request) error {
				if req.Slots.TokensPerDay > 0 && asksAPI(req.Text) { // "每天1亿token 自建还是调API" (api.go)
					return b.api(ctx, a, req)
				}
				return b.cost(ctx, a, req)
			}},
		{id: parse.Monthly, example: "/gpu monthly 4090 200h",
			en: "monthly plan or on demand?", zh: "包月还是按需：打平小时数",
			essential: []string{"breakeven_hours_per_month", "saving"}, // the saving is the verdict's figure
			buttons:   readButtons,
			handle: func(b *Bot, ctx context.Context, m Message, a *Answer, req parse.Request) error {
				return b.monthly(ctx, m, a, req)
			}},
		{id: parse.Buy, example: "/gpu buy h100 util=70%",
			en: "rent or buy: break-even utilisation and payback", zh: "租还是买：打平利用率和回本周期",
			essential: []string{"breakeven_utilization", "payback_months"},
			buttons:   readButtons,
			handle: func(b *Bot, ctx context.Context, m Message, a *Answer, req parse.Request) error {
				return b.buy(ctx, m, a, req)
			}},
		{id: parse.Price, example: "/gpu price h100",
			en: "every offer, cheapest first, with dates", zh: "全部报价，从低到高，附日期",
			essential: []string{"offers[].price"}, // the headline shows the cheapest
			buttons:   readButtons,
			handle: func(b *Bot, ctx context.Context, m Message, a *Answer, req parse.Request) error {
				if asksExport(req.Text) { // "H20现在能买吗" (export.go)
					return b.export(a, req)
				}
				if asksWorthBuying(req.Text) { // "二手3090多少钱 值得买吗" (buy_words.go)
					a.Intent = parse.Buy
					return b.buy(ctx, m, a, req)
				}
				return b.price(ctx, a, req)
			}},
		{id: parse.Compare, example: "/gpu compare h100 h800 h20",
			en: "specs and prices side by side", zh: "参数与价格对比，以及差异的含义",
			buttons: readButtons,
			handle: func(b *Bot, ctx context.Context, _ Message, a *Answer, req parse.Request) error {
				return b.compare(ctx, a, req)
			}},
		{id: parse.Recommend, example: "/gpu recommend 70b inference",
			en: "best value for a workload or budget", zh: "按任务或预算的性价比排行",
			buttons: readButtons,
			handle: func(b *Bot, ctx context.Context, _ Message, a *Answer, req parse.Request) error {
				if err := b.recommend(ctx, a, req); err != nil {
					return err
				}
				b.markExport(a) // a team in China: restricted cards marked (export.go)
				return nil
			}},
		{id: parse.Knowledge, example: "what should a rental contract cover?", exampleZH: "租卡合同要注意什么",
			en: "guide notes: contracts, hidden costs, pitfalls", zh: "指南：合同、隐藏成本、避坑",
			buttons: []Button{ButtonWorking},
			handle: func(b *Bot, ctx context.Context, _ Message, a *Answer, req parse.Request) error {
				b.knowledge(ctx, a, req)
				return nil
			}},
		{id: parse.Spend, example: "/gpu spend add 40h 4090 ¥75 project=llm",
			en: "the team's spend ledger: add, list, report", zh: "团队 GPU 记账：add、list、report、undo、delete",
			write: true},
		{id: "bill", example: "DM a CSV bill to the bot", exampleZH: "私信发送 CSV 账单",
			en: "import a provider's bill (admins)", zh: "导入云平台账单（管理员）", write: true},
		{id: parse.Subscribe, example: "/gpu subscribe daily",
			en: "daily price post and monthly recap in this channel", zh: "在本频道订阅每日价格和月度回顾",
			write: true},
		{id: parse.Watch, example: "/gpu watch h100 < $2/h",
			en: "price alerts: below a threshold or a new low", zh: "价格提醒：跌破阈值或创新低",
			write: true},
		{id: parse.Budget, example: "/gpu budget set pretrain ¥100k/month", exampleZH: "/gpu budget",
			en: "monthly budgets with alerts", zh: "月度预算与超支提醒",
			write: true},
		{id: parse.Settings, example: "/gpu settings",
			en: "team defaults: currency, platforms, cards", zh: "团队设置：币种、平台、自有卡",
			write: true},
		{id: parse.Listen, example: "/gpu listen on",
			en: "answer GPU questions here without a mention", zh: "本频道无需 @ 也回答 GPU 问题",
			write: true},
		{id: parse.Help, example: "/gpu help",
			en: "this list", zh: "显示本帮助",
			handle: func(b *Bot, _ context.Context, _ Message, a *Answer, _ parse.Request) error {
				b.help(a)
				return nil
			}},
		{id: parse.Unknown,
			handle: func(b *Bot, _ context.Context, _ Message, a *Answer, _ parse.Request) error {
				b.unknown(a)
				return nil
			}},
	}
}

func intentRow(id parse.Intent) (intent, bool) {
	for _, r := range intents {
		if r.id == id {
			return r, true
		}
	}
	return intent{}, false
}

// finish completes an answer the same way whoever produced it: a headline
// and blocks always, the working never null, and the buttons its intent
// offers that apply to it.
func (b *Bot) finish(a Answer) Answer {
	if a.Headline == "" && a.Text != "" {
		blocks := a.Blocks
		a.say(a.Text)
		if len(blocks) > 0 {
			a.Blocks = present.Limit(blocks, 0)
		}
	}
	if a.Working == nil {
		a.Working = []present.Step{}
	}
	a.Buttons = nil
	row, _ := intentRow(a.Intent)
	if a.Ephemeral || row.write {
		return a
	}
	for _, btn := range row.buttons {
		switch btn {
		case ButtonWorking:
			if !a.Doc.HasWorking() {
				continue
			}
		case ButtonMore:
			if !a.Doc.Long() {
				continue
			}
		case ButtonCurrency:
			if a.Currency == "" {
				continue
			}
		case ButtonBits8:
			method, bits := a.Slots.Method, a.Slots.Bits
			if method == "" {
				method, _ = a.Assumed["method"].(string)
			}
			if bits == 0 {
				bits, _ = a.Assumed["bits"].(int)
			}
			// The advisor takes an 8-bit base only for inference and
			// QLoRA; LoRA, full and freeze fine-tunes train 16-bit.
			if (method != "inference" && method != "qlora") || bits == 8 {
				continue
			}
		}
		a.Buttons = append(a.Buttons, btn)
	}
	return a
}

func (b *Bot) unknown(a *Answer) {
	a.Ephemeral = true
	a.say(tr(a.Lang,
		"I can't answer that one. I answer GPU questions — memory, cost, monthly plans, buying, prices — e.g. /gpu fit 13b lora. Type /gpu help for all commands.",
		"这个问题我答不了。我能回答 GPU 显存、成本、包月、买卡和价格相关的问题，例如：/gpu fit 13b lora。输入 /gpu help 查看全部命令。"))
}

// Writes reports whether an intent changes state (spend, subscribe,
// listen, bill import): such commands are never re-run by a button.
func Writes(id parse.Intent) bool {
	r, ok := intentRow(id)
	return ok && r.write
}
