// Package parse turns what a user typed — a /gpu command or a sentence in
// Chinese or English — into an intent with typed slots. Slash commands and
// sentences share the same slot extractors, so "13b" means the same thing in
// both.
package parse

// Intent is what the user wants; the names are the ask --json contract's.
type Intent string

// Intents (DESIGN.md).
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
)

// Money is an amount with its currency; Currency is empty when the user gave
// a bare number.
type Money struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency,omitempty"`
}

// Slots are the values found in a message. Zero means "not said".
type Slots struct {
	ParamsB     float64  `json:"params_b,omitempty"`
	Method      string   `json:"method,omitempty"`
	Bits        int      `json:"bits,omitempty"`
	Batch       int      `json:"batch,omitempty"`
	SeqLen      int      `json:"seq_len,omitempty"`
	Concurrency int      `json:"concurrency,omitempty"`
	GC          string   `json:"gc,omitempty"` // on, off
	Optimizer   string   `json:"optimizer,omitempty"`
	LoRARank    int      `json:"lora_rank,omitempty"`
	Arch        string   `json:"arch,omitempty"`
	GPUs        []string `json:"gpus,omitempty"` // canonical ids, in the order named
	Platform    string   `json:"platform,omitempty"`

	HoursPerMonth float64  `json:"hours_per_month,omitempty"`
	Hours         float64  `json:"hours,omitempty"`
	Utilization   float64  `json:"utilization,omitempty"` // 0–1
	Price         *Money   `json:"price,omitempty"`       // hourly rent, or purchase price for buy
	Monthly       *Money   `json:"monthly,omitempty"`     // monthly plan price
	Rent          *Money   `json:"rent,omitempty"`        // hourly rent for buy
	Budget        *Money   `json:"budget,omitempty"`
	TPS           float64  `json:"tps,omitempty"`
	MFU           float64  `json:"mfu,omitempty"`
	FX            float64  `json:"fx,omitempty"` // CNY per USD
	Years         float64  `json:"years,omitempty"`
	Watts         *float64 `json:"watts,omitempty"`
	PUE           float64  `json:"pue,omitempty"`
	Power         *Money   `json:"power,omitempty"` // electricity per kWh
	Ops           *Money   `json:"ops,omitempty"`   // operations per year
	Rate          *float64 `json:"rate,omitempty"`  // cost of capital per year, 0–1
	Tokens        float64  `json:"tokens,omitempty"`
	Samples       float64  `json:"samples,omitempty"`
	SampleTokens  float64  `json:"sample_tokens,omitempty"`
	Epochs        float64  `json:"epochs,omitempty"`
	Cards         int      `json:"cards,omitempty"`
	Currency      string   `json:"currency,omitempty"` // asked answer currency
	Workload      string   `json:"workload,omitempty"` // recommend: llm-finetune, diffusion, inference
	Month         string   `json:"month,omitempty"`
	Project       string   `json:"project,omitempty"`
	Mode          string   `json:"mode,omitempty"` // sub-mode: listen on/off, spend add/list …
	Args          []string `json:"-"`
}

// Request is a parsed message.
type Request struct {
	Intent     Intent    `json:"intent"`
	Lang       string    `json:"lang"` // zh, en
	Slots      Slots     `json:"slots"`
	Confidence float64   `json:"confidence"` // 0–1; slash commands are 1
	Slash      bool      `json:"slash"`
	Text       string    `json:"text"`               // the message after clean-up
	Problems   []Problem `json:"problems,omitempty"` // values that could not be read
}

// Problem is a value the user gave that could not be understood; Hint shows
// the right form.
type Problem struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
	Hint   string `json:"hint"`
}
