package bot

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/gpubot/gpubot/bot/parse"
)

// Accounting: every value read from a message is either used by the
// answer (Answer.Used: how it entered) or ignored (Answer.Ignored: why),
// never dropped in silence; an ignored value is also said in the text.

// reads are the slots each intent's answer uses, by contract name, with
// how they enter it. A slot not listed for the intent answered is ignored.
// The lists follow what each handler reads from its request (fit.go,
// cost.go, … and the routed handlers' packages).
var reads = map[parse.Intent]map[string]string{
	parse.Fit: merge(workloadReads, map[string]string{
		"gpus": "the cards checked", "platform": "where the “from” prices come from", "vram_gb": "your card's memory: the verdict",
		"cards": "your card count: the verdict", "currency": "the prices' currency", "fx": "the exchange rate",
		"input_tokens": "the context each request holds (prompt + answer)", "output_tokens": "the context each request holds (prompt + answer)",
		"images": "images to make (image models)", "resolution": "image size",
	}),
	parse.Cost: merge(workloadReads, map[string]string{
		"gpus": "the card priced", "cards": "cards per job or replica", "tokens": "the data to process", "samples": "the data to process",
		"sample_tokens": "tokens per sample", "epochs": "passes over the data", "mfu": "the speed assumed", "tps": "tokens/s per card",
		"price": "the hourly price", "input_tokens": "request shape", "output_tokens": "request shape", "tokens_per_day": "the serving load",
		"requests_per_s": "the serving load", "peak_requests_per_s": "the peak the replicas are sized for", "average_load": "the rate is an average: sized for its peak", "spot": "spot offers allowed",
		"days": "the deadline: cluster size", "budget": "the budget check", "platform": "where it is priced", "currency": "the answer's currency",
		"fx": "the exchange rate", "pretrain": "a full training run", "ttft_ms": "the first-token target checked", "tps_per_user": "the per-user speed target: batch per replica",
		"users_per_day": "folded into tokens per day", "turns": "folded into tokens per day", "turn_tokens": "folded into tokens per day",
		"images": "images to make", "resolution": "image size", "model": "the model sized",
	}),
	parse.Monthly: {
		"gpus": "the card", "cards": "cards on the plan", "hours_per_month": "your hours a month", "hours": "your hours a month",
		"monthly": "the monthly price", "price": "the hourly price", "platform": "where", "currency": "the answer's currency", "fx": "the exchange rate",
		"utilization": "hours a month = utilisation × 730", "quote_per": "how the quote was meant", "billing": "the ways to pay weighed: on demand against the plan",
	},
	parse.Buy: {
		"gpus": "the card", "cards": "cards in the machine", "hours_per_month": "your usage", "utilization": "your usage",
		"price": "the purchase price", "rent": "the rent it is compared with", "ops": "operations per year", "pue": "cooling overhead",
		"power": "electricity price", "watts": "power draw", "rate": "cost of capital", "years": "depreciation years", "platform": "the rent's platform",
		"currency": "the answer's currency", "fx": "the exchange rate", "quote_per": "how the quote was meant", "residual": "resale value at the end",
	},
	parse.Price:     {"gpus": "the card", "platform": "the platform shown", "platforms": "the platforms shown", "billing": "the billing kind shown", "currency": "the answer's currency", "fx": "the exchange rate"},
	parse.Compare:   {"gpus": "the cards compared", "currency": "the answer's currency", "fx": "the exchange rate"},
	parse.Recommend: {"params_b": "the workload", "model": "the workload", "arch": "the workload", "method": "the workload", "budget": "the budget", "hours_per_month": "usage", "persona": "who is asking", "platform": "where", "spot": "spot allowed", "workload": "the workload", "currency": "the answer's currency", "fx": "the exchange rate"},
	parse.Knowledge: {"topic": "the guide topic", "gpus": "the cards asked about", "persona": "who is asking"},
	parse.Spend: {
		"mode": "what to do", "gpus": "the card", "platform": "the platform", "hours": "hours used", "cards": "cards used", "amount": "the amount",
		"project": "the project", "team": "the team", "date": "the day", "month": "the month", "id": "the entry", "billing": "billing kind", "currency": "the amount's currency",
		"gpu_hours": "card-hours used", "price": "the hourly price",
	},
	"commit": {"gpus": "the card committed to", "cards": "cards committed", "hours_per_month": "your usage", "utilization": "your usage",
		"currency": "the answer's currency", "fx": "the exchange rate", "years": "the term", "platform": "whose commitment leads"},
	"api":           nil, // the cost answer's reads and the API bill's: set in init
	"export":        {"gpus": "the cards looked up"},
	parse.Budget:    {"args": "the budget command", "project": "the budget's project", "team": "the budget's team", "month": "the month looked at", "budget": "the amount the budget is set to"},
	parse.Watch:     {"gpus": "the card watched", "platform": "the platform watched", "amount": "the threshold", "mode": "what to do"},
	parse.Subscribe: {"mode": "what to do", "topic": "what to post", "gpus": "the cards", "threshold": "the change threshold"},
	parse.Listen:    {"mode": "on, off or status"},
}

func init() {
	// self-host vs API: the self-hosted plan reads what a cost answer reads
	reads["api"] = merge(reads[parse.Cost], map[string]string{"tokens_per_day": "the load billed on each API", "quote_per": "how the price was meant"})
}

// workloadReads are the workload slots fit and cost both size with.
var workloadReads = map[string]string{
	"params_b": "the model size", "model": "the model", "arch": "the architecture", "method": "what is run", "bits": "precision",
	"batch": "batch size", "seq_len": "sequence length", "concurrency": "concurrent requests", "gc": "gradient checkpointing",
	"optimizer": "optimizer", "lora_rank": "LoRA rank",
	"engine": "the serving engine's defaults", "kv_bits": "KV cache precision", "gpu_mem_util": "the engine's memory share",
	"max_seqs": "the engine's sequence cap", "stack": "the software stack sized", "text_encoder": "where the text encoders live",
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// whyIgnored gives a specific reason for slots an intent commonly leaves
// out (English, Chinese); others get the generic one.
var whyIgnored = map[string]map[string][2]string{
	"fit": {
		"requests_per_s": {"a memory fit sizes one replica; a serving plan needs the model named (ask “… at N QPS, how many cards”)", "显存估算只算单副本；要部署方案请给出模型（如“… N QPS 要几张卡”）"},
		"tokens_per_day": {"a memory fit sizes one replica; a serving plan needs the model named", "显存估算只算单副本；要部署方案请给出模型"},
		"tokens":         {"a memory fit does not depend on the data size; ask for the cost to use it", "显存与数据量无关；问成本时会用到"},
		"samples":        {"a memory fit does not depend on the data size; ask for the cost to use it", "显存与数据量无关；问成本时会用到"},
		"epochs":         {"a memory fit does not depend on the epochs; ask for the cost to use them", "显存与轮数无关；问成本时会用到"},
		"days":           {"a memory fit has no deadline; ask for the cost to size the cluster", "显存估算不涉及工期；问成本可按工期算集群规模"},
		"budget":         {"a memory fit is not priced against a budget; ask for the cost", "显存估算不对比预算；问成本时会用到"},
		"ttft_ms":        {"a memory fit does not model latency", "显存估算不计算延迟"},
	},
	"price": {
		"hours_per_month": {"a price list does not depend on usage; ask whether a monthly plan pays off", "报价列表与用量无关；可以问包月是否划算"},
		"utilization":     {"a price list does not depend on usage", "报价列表与用量无关"},
		"params_b":        {"a price list is per card, not per model", "报价按卡，不按模型"},
	},
}

// ignoredReason is why intent leaves slot k out, in lang.
func ignoredReason(lang string, intent parse.Intent, k string) string {
	if r, ok := whyIgnored[string(intent)][k]; ok {
		return tr(lang, r[0], r[1])
	}
	return tr(lang, "the "+string(intent)+" answer does not use it", "这类回答（"+string(intent)+"）用不到这一项")
}

// slotKeys are the values a message gave, by contract name (not the
// bookkeeping: missing, notes).
func slotKeys(s parse.Slots) []string {
	b, _ := json.Marshal(s)
	m := map[string]any{}
	_ = json.Unmarshal(b, &m)
	var out []string
	for k := range m {
		switch k {
		case "missing", "notes":
			continue
		}
		out = append(out, k)
	}
	if len(s.Args) > 0 {
		out = append(out, "args")
	}
	sort.Strings(out)
	return out
}

// account fills Used and Ignored for the slots of req, answered as a.Intent,
// and says the ignored ones in the text.
func (a *Answer) account(req parse.Request, planned string) {
	a.Used, a.Ignored = map[string]string{}, map[string]string{}
	r := reads[a.Intent]
	for _, k := range slotKeys(req.Slots) {
		switch k {
		case "targets":
			a.Used[k] = "what the answer answers: " + strings.Join(req.Slots.Targets, ", ")
			continue
		case "yes_no":
			a.Used[k] = "the headline says yes or no"
			continue
		case "args":
			if a.Intent == parse.Budget || a.Intent == parse.Settings || a.Intent == parse.Watch || a.Intent == parse.Subscribe || a.Intent == parse.Listen || a.Intent == parse.Recommend {
				a.Used[k] = "the command's words"
			} else {
				a.Used[k] = "the command's words, read into the other slots"
			}
			continue
		case "other_currency":
			// no sourced rate converts to it: the answer stays in USD or CNY
			// and says so, with the form that converts at their own rate
			c := req.Slots.OtherCurrency
			a.Ignored[k] = tr(a.Lang, "no sourced "+c+" exchange rate here: amounts are in USD or CNY",
				"这里没有可查来源的"+c+"汇率：金额按美元或人民币给出")
			continue
		case "quote_per":
			if how, ok := r[k]; ok {
				a.Used[k] = how
				continue
			}
		}
		if how, ok := a.alsoUsed[k]; ok { // what the handler said it did wins
			a.Used[k] = how
			continue
		}
		if how, ok := r[k]; ok {
			a.Used[k] = how
			continue
		}
		a.Ignored[k] = ignoredReason(a.Lang, a.Intent, k)
	}
	if planned != "" {
		a.Used["plan"] = planned
	}
	if a.Err != "" || len(a.Ignored) == 0 || a.Headline == "" {
		return
	}
	a.sayIgnored()
}

// sayIgnored adds one line naming what was not used, and why.
func (a *Answer) sayIgnored() {
	keys := make([]string, 0, len(a.Ignored))
	for k := range a.Ignored {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, slotLabel(a.Lang, k)+tr(a.Lang, " ("+a.Ignored[k]+")", "（"+a.Ignored[k]+"）"))
	}
	line := tr(a.Lang, "Not used: ", "未使用：") + strings.Join(parts, "; ")
	if len([]rune(line)) > 300 {
		line = string([]rune(line)[:297]) + "…"
	}
	d := a.Doc
	d.Summary = append(append([]string(nil), d.Summary...), line)
	a.show(d)
}

// slotLabel names a slot for a user.
func slotLabel(lang, k string) string {
	if lang == "zh" {
		if n, ok := fieldZH[k]; ok {
			return n
		}
	}
	return strings.ReplaceAll(k, "_", " ")
}
