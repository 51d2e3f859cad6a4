package bot

import (
	"context"
	"fmt"
	"slices"

	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// Button is a follow-up an answer offers (intent.Button, the leaf's).
type Button = intent.Button

// The buttons.
const (
	ButtonWorking  = intent.ButtonWorking
	ButtonMore     = intent.ButtonMore
	ButtonCurrency = intent.ButtonCurrency
	ButtonBits8    = intent.ButtonBits8
)

// answerFunc is one of the bot's own answers: the handler of a read-only
// intent, which needs the bot (its catalogue, knowledge and clock). Add
// binds it to the bot (own), so that every handled row's Handler is a
// Handler.
type answerFunc func(b *Bot, ctx context.Context, m Message, a *Answer, req parse.Request) error

// own is one of the bot's own answers bound to the bot. It answers for the
// asker's team (its platform policy) and notes the platforms it left out.
type own struct {
	b *Bot
	f answerFunc
}

// Handle answers one message.
func (o own) Handle(ctx context.Context, m Message, req parse.Request, a *Answer) error {
	ctx = o.b.withTeam(ctx, m)
	if err := o.f(o.b, ctx, m, a, req); err != nil {
		return err
	}
	notePlatforms(ctx, a)
	return nil
}

// Rows returns the rows of the intents the bot answers itself — the
// read-only questions, each answered by a file pair (<intent>.go,
// <intent>_render.go) — and of spend (answered by a *Spend: SpendRow) and
// bill (imported from a DM'd file by the transport), in the order help
// lists them. The other write intents export their rows from their own
// packages; cmd/bot puts all of them in one table (Bot.Add). Words, sub-words
// and settings come from the lexicon (intent.Fill).
func Rows() []intent.Row {
	return []intent.Row{
		{ID: parse.Fit, Example: "/gpu fit 13b lora",
			Help: "VRAM needed and which cards fit", HelpZH: "需要多少显存、哪些卡放得下",
			Essential: []string{"memory_gb", "options[].count"},
			Buttons:   append(intent.ReadButtons[:3:3], ButtonBits8),
			Handler: answerFunc(func(b *Bot, ctx context.Context, _ Message, a *Answer, req parse.Request) error {
				return b.fit(ctx, a, req)
			})},
		{ID: parse.Cost, Example: "/gpu cost 7b lora 50k samples on 4090",
			Help: "GPU-hours, wall time and money", HelpZH: "卡时、耗时和费用；推理按每百万 token 计",
			Essential: []string{"total", "per_m_tokens"},
			Buttons:   append(intent.ReadButtons[:3:3], ButtonBits8),
			Handler: answerFunc(func(b *Bot, ctx context.Context, _ Message, a *Answer, req parse.Request) error {
				if pick, ok := b.apiPriceAsked(req); ok { // "deepseek api 一百万token多少钱" (api_price.go)
					return b.apiPrice(a, req, pick)
				}
				if items, ok := apiEvalAsked(req); ok { // "MMLU eval of Llama-3-70B, ~14k questions: API or rent?" (api_compare.go)
					return b.apiEval(ctx, a, req, items)
				}
				if req.Slots.TokensPerDay > 0 && asksAPI(req.Text) { // "每天1亿token 自建还是调API" (api.go)
					return b.api(ctx, a, req)
				}
				return b.cost(ctx, a, req)
			})},
		{ID: parse.Monthly, Example: "/gpu monthly 4090 200h",
			Help: "monthly plan or on demand?", HelpZH: "包月还是按需：打平小时数",
			Essential: []string{"breakeven_hours_per_month", "saving"}, // the saving is the verdict's figure
			Buttons:   intent.ReadButtons,
			Handler: answerFunc(func(b *Bot, ctx context.Context, m Message, a *Answer, req parse.Request) error {
				return b.monthly(ctx, m, a, req)
			})},
		{ID: parse.Buy, Example: "/gpu buy h100 util=70%",
			Help: "rent or buy: break-even utilisation and payback", HelpZH: "租还是买：打平利用率和回本周期",
			Essential: []string{"breakeven_utilization", "payback_months"},
			Buttons:   intent.ReadButtons,
			Handler: answerFunc(func(b *Bot, ctx context.Context, m Message, a *Answer, req parse.Request) error {
				if b.routesToAPI(req) { // "is claude haiku api cheaper than renting an H100 for 50M tokens a day?" (api_price.go)
					return b.api(ctx, a, req)
				}
				return b.buy(ctx, m, a, req)
			})},
		{ID: parse.Price, Example: "/gpu price h100",
			Help: "every offer, cheapest first, with dates", HelpZH: "全部报价，从低到高，附日期",
			Essential: []string{"offers[].price"}, // the headline shows the cheapest
			Buttons:   intent.ReadButtons,
			Handler: answerFunc(func(b *Bot, ctx context.Context, m Message, a *Answer, req parse.Request) error {
				if asksExport(req.Text) { // "H20现在能买吗" (export.go)
					return b.export(a, req)
				}
				if asksWorthBuying(req.Text) { // "二手3090多少钱 值得买吗" (buy_words.go)
					a.Intent = parse.Buy
					return b.buy(ctx, m, a, req)
				}
				if purchasePriceAsked(req) { // "4060 Ti 16G 买一张多少钱" (price_purchase.go)
					if ok, err := b.purchasePrice(a, req); ok || err != nil {
						return err
					}
				}
				return b.price(ctx, a, req)
			})},
		{ID: parse.Compare, Example: "/gpu compare h100 h800 h20",
			Help: "specs and prices side by side", HelpZH: "参数与价格对比，以及差异的含义",
			Buttons: intent.ReadButtons,
			Handler: answerFunc(func(b *Bot, ctx context.Context, _ Message, a *Answer, req parse.Request) error {
				return b.compare(ctx, a, req)
			})},
		{ID: parse.Recommend, Example: "/gpu recommend 70b inference",
			Help: "best value for a workload or budget", HelpZH: "按任务或预算的性价比排行",
			Buttons: intent.ReadButtons,
			Handler: answerFunc(func(b *Bot, ctx context.Context, _ Message, a *Answer, req parse.Request) error {
				if err := b.recommend(ctx, a, req); err != nil {
					return err
				}
				b.markExport(a) // a team in China: restricted cards marked (export.go)
				return nil
			})},
		{ID: parse.Knowledge, Example: "what should a rental contract cover?", ExampleZH: "租卡合同要注意什么",
			Help: "guide notes: contracts, hidden costs, pitfalls", HelpZH: "指南：合同、隐藏成本、避坑",
			Buttons: []Button{ButtonWorking},
			Handler: answerFunc(func(b *Bot, ctx context.Context, _ Message, a *Answer, req parse.Request) error {
				if isConversion(req) { // "Convert $14,342 to CNY", marked by the planner (convert.go)
					return b.convert(a, req)
				}
				b.knowledge(ctx, a, req)
				return nil
			})},
		SpendRow(nil),
		{ID: "bill", Example: "DM a CSV bill to the bot", ExampleZH: "私信发送 CSV 账单",
			Help: "import a provider's bill (admins)", HelpZH: "导入云平台账单（管理员）", Writes: true},
	}
}

// SpendRow is the spend ledger's row, answered by h (a *Spend; nil leaves
// it unanswered until Route).
func SpendRow(h Handler) intent.Row {
	r := intent.Row{ID: parse.Spend, Example: "/gpu spend add 40h 4090 ¥75 project=llm", Writes: true,
		Help: "the team's spend ledger: add, list, report", HelpZH: "团队 GPU 记账：add、list、report、undo、delete"}
	if h != nil {
		r.Handler = h
	}
	return r
}

// fixedRows are the bot's own rows that close every table: help lists the
// rows above it, and unknown answers whatever no row does.
func fixedRows() []intent.Row {
	return []intent.Row{
		{ID: parse.Help, Example: "/gpu help",
			Help: "this list", HelpZH: "显示本帮助",
			Handler: answerFunc(func(b *Bot, _ context.Context, _ Message, a *Answer, _ parse.Request) error {
				b.help(a)
				return nil
			})},
		{ID: parse.Unknown,
			Handler: answerFunc(func(b *Bot, _ context.Context, _ Message, a *Answer, _ parse.Request) error {
				b.unknown(a)
				return nil
			})},
	}
}

// fill completes rows from the lexicon: words, sub-words and settings.
func fill(rows []intent.Row) []intent.Row {
	lex := knowledge.MustLexicon()
	return intent.Fill(rows, func(id intent.ID) intent.Lexical {
		w := lex.Intents[string(id)]
		return intent.Lexical{Words: w.Words, Sub: w.Sub, Routable: w.Routable, Settings: lex.SettingsOf(string(id))}
	})
}

// Add puts rows in the bot's intent table, before help and unknown (a row
// with an ID already there replaces it), fills their words from the
// lexicon and rebuilds the parser over the table. It refuses a table that
// breaks intent.Check or a row whose Handler the bot cannot call. Call it
// while wiring, before the bot answers: the table is read unlocked.
func (b *Bot) Add(rows ...intent.Row) error {
	table := slices.Clone(b.rows[:len(b.rows)-len(fixedRows())])
	for _, r := range rows {
		switch r.Handler.(type) {
		case nil, answerFunc, Handler:
		default:
			return fmt.Errorf("intent table: %q: handler %T is not a bot.Handler", r.ID, r.Handler)
		}
		if i := slices.IndexFunc(table, func(t intent.Row) bool { return t.ID == r.ID }); i >= 0 {
			table[i] = r
		} else {
			table = append(table, r)
		}
	}
	table = fill(append(table, fixedRows()...))
	if err := intent.Check(table); err != nil {
		return err
	}
	for i, r := range table {
		if f, ok := r.Handler.(answerFunc); ok {
			table[i].Handler = own{b, f}
		}
	}
	b.rows = table
	b.parser = parse.New(b.kb, table...)
	return nil
}

// Table returns the bot's intent table, in the order help lists it. It is
// the bot's own (the transport reads it on every answer): read, never
// modify it; Add replaces it whole.
func (b *Bot) Table() []intent.Row { return b.rows }

func (b *Bot) row(id parse.Intent) (intent.Row, bool) { return intent.Find(b.rows, id) }

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
	row, _ := b.row(a.Intent)
	if a.Ephemeral || row.Writes {
		return a
	}
	for _, btn := range row.Buttons {
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
func (b *Bot) Writes(id parse.Intent) bool {
	r, ok := b.row(id)
	return ok && r.Writes
}

// Public reports whether an intent's confirmation is meant for the whole
// channel (a subscription) rather than the asker alone.
func (b *Bot) Public(id parse.Intent) bool {
	r, ok := b.row(id)
	return ok && r.Public
}

// handler returns the handler of id's row (nil when none).
func (b *Bot) handler(id parse.Intent) any {
	r, _ := b.row(id)
	return r.Handler
}
