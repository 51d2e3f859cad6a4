// Package parse turns what a user typed — a /gpu command or a sentence in
// Chinese or English — into an intent with typed slots. Slash commands and
// sentences share the same slot extractors, so "13b" means the same thing in
// both.
//
// The router is a linear classifier learned from a labelled corpus (see
// router.go): character n-grams of Chinese, words of English and the slots a
// message carries pick the intent. Its weights are embedded, so the same
// text always gives the same Request.
package parse

import "github.com/gpubot/gpubot/bot/intent"

// Intent is what the user wants; the names are the ask --json contract's.
// It is the leaf's intent.ID, so a table row and a parsed request name an
// intent with one type.
type Intent = intent.ID

// Intents (DESIGN.md). Subscribe and Listen come only from slash commands.
const (
	Fit       Intent = "fit"
	Cost      Intent = "cost"
	Monthly   Intent = "monthly"
	Buy       Intent = "buy"
	Price     Intent = "price"
	Compare   Intent = "compare"
	Recommend Intent = "recommend"
	Spend     Intent = "spend"
	Knowledge Intent = "knowledge"
	Help      Intent = "help"
	Unknown   Intent = "unknown"
	// Subscribe is /gpu subscribe|unsubscribe|subscriptions; Slots.Mode is
	// subscribe, unsubscribe or list and Slots.Topic is prices or recap.
	Subscribe Intent = "subscribe"
	// Listen is /gpu listen on|off|status; Slots.Mode says which.
	Listen Intent = "listen"
	// Settings is /gpu settings (the team profile) and Budget is /gpu
	// budget; their handlers read Slots.Args themselves.
	Settings Intent = "settings"
	Budget   Intent = "budget"
)

// ChannelThreshold is the confidence under which a message in a channel
// (not a DM, not a mention, not a slash command) gets no reply at all. The
// confidence is the router's probability for its intent; on the corpus's
// held-out messages the mean confidence is within a few points of the share
// routed right (TestConfidenceCalibrated). Unknown messages never answer.
const ChannelThreshold = 0.6

// Money is an amount with its currency; Currency is empty when the user gave
// a bare number (the bot picks CNY for Chinese questions, USD for English).
type Money struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency,omitempty"`
}

// Slots are the values found in a message. Zero means "not said".
//
// Hours are kept apart by what the text says: Hours is the length of a job
// or a usage entry ("跑了 40 小时", "8x H100 for 72 hours"); HoursPerMonth is
// usage per month, stated ("每月 200 小时", "200h/月"), converted from per day
// (×30), per week (×52/12) or per year (÷12), or — for monthly and buy, whose
// hours are monthly by definition — a bare figure ("/gpu monthly 4090 200h").
// GPUHours is total card-hours ("1000 卡时", "500 gpu hours"). Notes say
// whenever such a reading was made.
type Slots struct {
	ParamsB     float64  `json:"params_b,omitempty"`
	Method      string   `json:"method,omitempty"` // inference, full, freeze, lora, qlora
	Bits        int      `json:"bits,omitempty"`
	Batch       int      `json:"batch,omitempty"`
	SeqLen      int      `json:"seq_len,omitempty"`
	Concurrency int      `json:"concurrency,omitempty"`
	GC          string   `json:"gc,omitempty"` // on, off
	Optimizer   string   `json:"optimizer,omitempty"`
	LoRARank    int      `json:"lora_rank,omitempty"`
	Arch        string   `json:"arch,omitempty"` // a reference architecture id from knowledge
	GPUs        []string `json:"gpus,omitempty"` // canonical ids, in the order named
	Platform    string   `json:"platform,omitempty"`
	// Platforms lists every platform named, in order, when there are two or
	// more (compare); Platform is always the first.
	Platforms []string `json:"platforms,omitempty"`
	VRAMGB    float64  `json:"vram_gb,omitempty"` // memory the user says they have ("24G 显存够吗")

	HoursPerMonth float64 `json:"hours_per_month,omitempty"`
	Hours         float64 `json:"hours,omitempty"`
	GPUHours      float64 `json:"gpu_hours,omitempty"`
	Utilization   float64 `json:"utilization,omitempty"` // 0–1
	Price         *Money  `json:"price,omitempty"`       // hourly rent, or purchase price for buy
	Monthly       *Money  `json:"monthly,omitempty"`     // monthly plan price
	Rent          *Money  `json:"rent,omitempty"`        // hourly rent for buy
	// Committed is a committed (reserved, term, 包年) rate per card-hour
	// stated beside a commitment's words ("1-yr reserved at $1.85/hr",
	// "签一年每卡时18"); Price (Rent for buy) then holds the on-demand rate.
	Committed *Money `json:"committed,omitempty"`
	// OnDemandMonthly is what on demand costs a month, said beside a
	// commitment ("$38k/mo on 12 A100s on demand"): the bill for all the
	// cards unless QuotePer is "card".
	OnDemandMonthly *Money `json:"on_demand_monthly,omitempty"`
	// Discount is a commitment's discount off on demand, 0–1 ("35% off",
	// "打七折" = 0.3, "便宜30%"); such a figure is never utilisation.
	Discount     float64  `json:"discount,omitempty"`
	Budget       *Money   `json:"budget,omitempty"`
	Amount       *Money   `json:"amount,omitempty"` // spend: what the entry cost in total
	TPS          float64  `json:"tps,omitempty"`
	MFU          float64  `json:"mfu,omitempty"`
	FX           float64  `json:"fx,omitempty"` // CNY per USD
	Years        float64  `json:"years,omitempty"`
	Watts        *float64 `json:"watts,omitempty"`
	PUE          float64  `json:"pue,omitempty"`
	Power        *Money   `json:"power,omitempty"` // electricity per kWh
	Ops          *Money   `json:"ops,omitempty"`   // operations per year
	Rate         *float64 `json:"rate,omitempty"`  // cost of capital per year, 0–1
	Tokens       float64  `json:"tokens,omitempty"`
	Samples      float64  `json:"samples,omitempty"`
	SampleTokens float64  `json:"sample_tokens,omitempty"`
	Epochs       float64  `json:"epochs,omitempty"`
	Cards        int      `json:"cards,omitempty"`
	// Serving frames: a load stated per day or per second, and the request
	// shape ("500 input and 200 output tokens").
	TokensPerDay float64 `json:"tokens_per_day,omitempty"`
	RequestsPerS float64 `json:"requests_per_s,omitempty"`
	InputTokens  int     `json:"input_tokens,omitempty"`
	OutputTokens int     `json:"output_tokens,omitempty"`
	// Model is a named model's canonical id in the model catalogue
	// ("deepseek-v3", "qwen3-30b-a3b"); ParamsB then holds its size.
	Model string `json:"model,omitempty"`
	// Days is a deadline for a training job ("days=30", "一个月内",
	// "within 10 days", "两周内", "by Dec 31").
	Days float64 `json:"days,omitempty"`
	// Pretrain marks a full training run said as pretraining or "train on
	// N tokens" (Method is then full).
	Pretrain bool `json:"pretrain,omitempty"`
	// Serving targets: time to first token (ms) and the decode speed each
	// user must see (tokens/s), and a peak load beside the average
	// (RequestsPerS is then the average).
	TTFTMs           float64 `json:"ttft_ms,omitempty"`
	TPSPerUser       float64 `json:"tps_per_user,omitempty"`
	PeakRequestsPerS float64 `json:"peak_requests_per_s,omitempty"`
	// InputShare is the input part of a token load said as a split ("3:1
	// input:output" → 0.75, "输入输出各一半" → 0.5); 0 when unsaid.
	InputShare float64 `json:"input_share,omitempty"`
	// AverageLoad marks RequestsPerS said as an average ("平均 8 qps");
	// a bare rate is the load to size for.
	AverageLoad bool `json:"average_load,omitempty"`
	// A chat load: daily users × turns × tokens a turn (TokensPerDay
	// holds the product, with a note).
	UsersPerDay float64 `json:"users_per_day,omitempty"`
	Turns       float64 `json:"turns,omitempty"`
	TurnTokens  float64 `json:"turn_tokens,omitempty"`
	// Residual is the resale value at the end, 0–1 of the purchase price.
	Residual *float64 `json:"residual,omitempty"`
	// QuotePer says how a quote with a card count was meant: "machine" (a
	// total for all Cards: "8卡包月68000元") or "card".
	QuotePer string `json:"quote_per,omitempty"`
	// Targets are what the message asks for, most important first (the
	// answer contract's asked values: cards, money_monthly, hours, which …);
	// YesNo marks a yes/no question ("能不能", "够吗", "possible?").
	Targets []string `json:"targets,omitempty"`
	YesNo   bool     `json:"yes_no,omitempty"`
	// Spot asks for interruptible capacity ("spot", "可中断").
	Spot bool `json:"spot,omitempty"`
	// Serving and memory settings (engine=, kv_bits=, gpu_mem_util=,
	// max_seqs=, stack=): advisor.Workload's fields of the same names.
	Engine  string  `json:"engine,omitempty"`
	KVBits  int     `json:"kv_bits,omitempty"`
	MemUtil float64 `json:"gpu_mem_util,omitempty"`
	MaxSeqs int     `json:"max_seqs,omitempty"`
	Stack   string  `json:"stack,omitempty"`
	// TextEncoder (image models, offload=): where the text encoders live,
	// gpu, offload or cached (advisor.ImageInput.TextEncoder).
	TextEncoder string `json:"text_encoder,omitempty"`
	// Resolution and Images (image models): pixels per side and how many.
	Resolution int     `json:"resolution,omitempty"`
	Images     float64 `json:"images,omitempty"`
	// Steps are an image model's steps: optimizer steps of a fine-tune
	// ("~3000 steps", "训练3000步"), denoising steps when generating.
	Steps    int    `json:"steps,omitempty"`
	Currency string `json:"currency,omitempty"` // answer currency the user asked for ("用美元算")
	// OtherCurrency is an answer currency asked for that no sourced rate
	// converts to ("in EUR", "用欧元算"): never applied, always said.
	OtherCurrency string `json:"other_currency,omitempty"`
	// Workload (recommend only) is one of the seed's workloads:
	// llm-finetune, diffusion, inference.
	Workload string `json:"workload,omitempty"`
	// Persona (recommend and knowledge only): individual, startup, enterprise.
	Persona string `json:"persona,omitempty"`
	// Topic is the guide topic of a knowledge question (contract,
	// hidden_costs, xinchuang, oom, pricing, procurement, pitfalls,
	// platforms), or what a subscription is for (prices, recap).
	Topic string `json:"topic,omitempty"`
	// Billing (spend and price only): on-demand, monthly, spot.
	Billing string `json:"billing,omitempty"`
	// Month (spend only): "2026-09", "09" when no year was given, or the
	// relative "this" / "last".
	Month   string `json:"month,omitempty"`
	Project string `json:"project,omitempty"`
	// Team (spend) is the team or cost centre an entry belongs to (team=).
	Team string `json:"team,omitempty"`
	// Region is where the user wants the cards ("EU-only", "国内"): eu, us,
	// sg, cn.
	Region string `json:"region,omitempty"`
	// Date (spend) is the day an entry is for, YYYY-MM-DD in BOT_TIMEZONE.
	Date string `json:"date,omitempty"`
	// Mode is the sub-action: spend add|list|report|undo|delete, listen
	// on|off|status, subscribe subscribe|unsubscribe|list.
	Mode string `json:"mode,omitempty"`
	ID   string `json:"id,omitempty"` // spend delete <id>
	// Threshold is the price-change threshold of a subscription, 0–1.
	Threshold *float64 `json:"threshold,omitempty"`

	// Missing names the slots this intent needs that the message did not
	// give, most important first; "a|b" means either will do. The bot fills
	// them from defaults or the team's data, or asks.
	Missing []string `json:"missing,omitempty"`
	// Notes explain readings that were not literal ("天天跑满" read as 100 %
	// utilisation, "200h" read as hours per month).
	Notes []string `json:"notes,omitempty"`
	Args  []string `json:"-"`
}

// Request is a parsed message.
type Request struct {
	Intent     Intent  `json:"intent"`
	Lang       string  `json:"lang"` // zh, en
	Slots      Slots   `json:"slots"`
	Confidence float64 `json:"confidence"` // 0–1; slash commands are 1
	// Runner is the router's second choice and its probability, for a
	// clarifying question offering the two likeliest intents.
	Runner           Intent    `json:"runner_up,omitempty"`
	RunnerConfidence float64   `json:"runner_up_confidence,omitempty"`
	Slash            bool      `json:"slash"`
	Text             string    `json:"text"`               // the message after clean-up
	Problems         []Problem `json:"problems,omitempty"` // values that could not be read
	// FollowUp is true when the message only added to or changed the
	// conversation's last request, which it was merged with (Parser.FollowUp).
	FollowUp bool `json:"follow_up,omitempty"`
	// MonthSaid is the month the message named ("in December", "上个月"),
	// kept whatever the intent: Slots.Month holds it only for ledger and
	// budget intents, and the planner restores it when it turns a question
	// into one of those.
	MonthSaid string `json:"-"`
}

// Problem is a value the user gave that could not be understood; Hint shows
// the right form.
type Problem struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
	Hint   string `json:"hint"`
	// zh and hintZH are Reason and Hint in Chinese; Parse puts them in
	// Reason and Hint when the asker writes Chinese, so the user reads the
	// error and its example in their own language. Hint itself holds no
	// Chinese: an English asker gets an English example.
	zh, hintZH string
}
