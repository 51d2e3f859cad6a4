package parse

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

const cnNum = `[零〇一二两三四五六七八九十百千]+`

var (
	// Model size: "13b", "7 b", "70B参数", "1.5b", "-5b" (rejected later).
	reParams = regexp.MustCompile(`(?:^|[^a-z0-9.])(-?\d+(?:\.\d+)?)\s?b(?:参数|模型)?(?:$|[^a-z0-9])`)
	// "130亿", "七十亿", "1.3万亿"
	reParamsYi = regexp.MustCompile(`(\d+(?:\.\d+)?|` + cnNum + `)\s?(万)?亿(?:参数|个参数)?`)
	// "4bit", "4-bit", "int4", "8位", "fp16", "bf16"
	reBits    = regexp.MustCompile(`(?:^|[^a-z0-9])(?:int|fp|bf)?(4|8|16)\s?(?:-?bits?|位|比特)(?:$|[^a-z0-9])|(?:^|[^a-z0-9])(?:int|fp|bf|nf)(4|8|16)(?:$|[^a-z0-9])`)
	reContext = regexp.MustCompile(`(\d+(?:\.\d+)?)\s?k\s?(?:上下文|context|ctx|tokens? context|长度)|(?:上下文|context)\s?(\d+(?:\.\d+)?)\s?k`)
	reCards   = regexp.MustCompile(`(?:^|[^a-z0-9])(\d+)\s?[x×]\s?(?:$|[^0-9])|(?:^|[^a-z0-9])[x×]\s?(\d+)(?:$|[^0-9])|(\d+|` + cnNum + `)\s?(?:张|块)?卡`)
	reHours   = regexp.MustCompile(`(\d+(?:\.\d+)?|` + cnNum + `)\s?(?:h|hrs?|hours?|小时|个小时|卡时|机时)(?:\s?(?:/|每|per\s)\s?(?:月|month|mo))?(?:$|[^a-z])`)
	reMonthly = regexp.MustCompile(`(?:每月|一个月|每个月|月均|per month|a month|/月|/month)`)
	rePercent = regexp.MustCompile(`(\d+(?:\.\d+)?)\s?%|([一二三四五六七八九十])成`)
	reTokens  = regexp.MustCompile(`(\d+(?:\.\d+)?\s?[kmb万亿]?)\s?(?:tokens?|token|词元)`)
	reSamples = regexp.MustCompile(`(\d+(?:\.\d+)?\s?[km万]?)\s?(?:samples?|examples?|条(?:样本|数据)?|个样本|rows?)`)
	reEpochs  = regexp.MustCompile(`(\d+(?:\.\d+)?|` + cnNum + `)\s?(?:epochs?|轮|个epoch|遍)`)
	reKV      = regexp.MustCompile(`([a-z_]+)\s?=\s?([^\s,;]+)`)
	reMoney   = regexp.MustCompile(`^(?:(¥|\$|rmb|cny|usd|us\$))?(-?\d+(?:\.\d+)?)(k|万)?(¥|\$|元|块钱|块|rmb|cny|usd|美元|美金|刀)?(?:/(?:h|hr|hour|小时|时|卡时))?$`)
	reSpace   = regexp.MustCompile(`\s+`)
)

// keyAliases maps the key= spellings users type to slot names.
var keyAliases = map[string]string{
	"bs": "batch", "batch": "batch", "batch_size": "batch", "mbs": "batch",
	"seq": "seq", "seq_len": "seq", "seqlen": "seq", "ctx": "seq", "context": "seq", "len": "seq", "max_len": "seq", "cutoff_len": "seq",
	"conc": "conc", "concurrency": "conc", "concurrent": "conc", "users": "conc",
	"gpu": "gpu", "card": "gpu", "gpus": "gpu",
	"bits": "bits", "bit": "bits", "quant": "bits",
	"rank": "rank", "r": "rank", "lora_rank": "rank",
	"gc": "gc", "checkpointing": "gc", "grad_ckpt": "gc",
	"optim": "optim", "optimizer": "optim", "opt": "optim",
	"arch": "arch", "model": "arch",
	"price": "price", "rent": "rent", "monthly": "monthly", "budget": "budget",
	"tps": "tps", "mfu": "mfu", "fx": "fx", "years": "years", "year": "years",
	"util": "util", "utilization": "util", "utilisation": "util",
	"watts": "watts", "watt": "watts", "w": "watts", "pue": "pue", "power": "power", "electricity": "power",
	"ops": "ops", "rate": "rate", "hours": "hours", "h": "hours",
	"tokens": "tokens", "samples": "samples", "epochs": "epochs", "sample_tokens": "sample_tokens", "tokens_per_sample": "sample_tokens",
	"cards": "cards", "n": "cards", "count": "cards",
	"platform": "platform", "on": "platform", "currency": "currency", "cur": "currency",
	"project": "project", "proj": "project", "month": "month", "workload": "workload",
}

// kvHints shows the right form for each key.
var kvHints = map[string]string{
	"batch": "bs=8", "seq": "seq=4096 or ctx=32k", "conc": "conc=50", "bits": "bits=4", "rank": "rank=64",
	"gc": "gc=off", "optim": "optim=adamw8bit", "price": "price=1.8 or price=2.5usd", "rent": "rent=2.5usd",
	"monthly": "monthly=900", "budget": "budget=5000", "tps": "tps=3500", "mfu": "mfu=0.4 or mfu=40%", "fx": "fx=7.2",
	"years": "years=3", "util": "util=70%", "watts": "watts=700", "pue": "pue=1.4", "power": "power=1.0",
	"ops": "ops=20000", "rate": "rate=5%", "hours": "hours=200", "tokens": "tokens=100M", "samples": "samples=50k",
	"epochs": "epochs=2", "cards": "cards=8", "gpu": "gpu=h100", "platform": "platform=autodl", "sample_tokens": "sample_tokens=1024",
}

// ParseMoney reads "1.8", "¥1.8", "2.5usd", "$2.5/h", "1.2元", "25k", "1.6万".
func ParseMoney(s string) (Money, bool) {
	s = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(s, ",", "")))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "/月"), "/month")
	m := reMoney.FindStringSubmatch(s)
	if m == nil {
		return Money{}, false
	}
	v, err := strconv.ParseFloat(m[2], 64)
	if err != nil {
		return Money{}, false
	}
	switch m[3] {
	case "k":
		v *= 1e3
	case "万":
		v *= 1e4
	}
	cur := ""
	for _, c := range []string{m[1], m[4]} {
		switch c {
		case "¥", "元", "块", "块钱", "rmb", "cny":
			cur = "CNY"
		case "$", "usd", "us$", "美元", "美金", "刀":
			cur = "USD"
		}
	}
	return Money{Amount: v, Currency: cur}, true
}

// ParseFraction reads "70%", "0.7", "七成" as 0.7.
func ParseFraction(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "%") {
		v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		return v / 100, err == nil
	}
	if strings.HasSuffix(s, "成") {
		v, ok := cnNumber(strings.TrimSuffix(s, "成"))
		return v / 10, ok
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	if v > 1 { // "util=70" means 70 %
		v /= 100
	}
	return v, true
}

// extractor reads slots from cleaned, lower-cased text.
type extractor struct {
	gpus, platforms nameMatcher
}

// extract fills slots from text. It never guesses the intent.
func (x extractor) extract(text string) (Slots, []Problem) {
	var s Slots
	var probs []Problem
	bad := func(field, reason, hint string) {
		probs = append(probs, Problem{Field: field, Reason: reason, Hint: hint})
	}
	lower := strings.ToLower(text)

	// key=value pairs first; they win over loose mentions.
	rest := reKV.ReplaceAllStringFunc(lower, func(kv string) string {
		m := reKV.FindStringSubmatch(kv)
		key, ok := keyAliases[m[1]]
		if !ok {
			bad(m[1], fmt.Sprintf("unknown setting %q", m[1]), "settings look like bs=8, seq=4096, gpu=h100, price=1.8")
			return " "
		}
		if !x.setKV(&s, key, m[2]) {
			bad(key, fmt.Sprintf("cannot read %s=%s", m[1], m[2]), kvHints[key])
		}
		return " "
	})

	if s.ParamsB == 0 {
		if m := reParams.FindStringSubmatch(rest); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			s.ParamsB = v
			rest = strings.Replace(rest, m[0], " ", 1)
		} else if m := reParamsYi.FindStringSubmatch(rest); m != nil {
			v, ok := Number(m[1])
			if ok {
				if m[2] == "万" {
					v *= 1e4
				}
				s.ParamsB = v / 10 // 亿 = 10⁸ = 0.1 B
				rest = strings.Replace(rest, m[0], " ", 1)
			}
		}
	}
	if s.Method == "" {
		s.Method = method(rest)
	}
	if s.Bits == 0 {
		if m := reBits.FindStringSubmatch(rest); m != nil {
			s.Bits, _ = strconv.Atoi(m[1] + m[2])
		}
	}
	if s.SeqLen == 0 {
		if m := reContext.FindStringSubmatch(rest); m != nil {
			v, _ := strconv.ParseFloat(m[1]+m[2], 64)
			s.SeqLen = int(v * 1024)
		}
	}
	if s.Cards == 0 {
		if m := reCards.FindStringSubmatch(rest); m != nil {
			if v, ok := Number(m[1] + m[2] + m[3]); ok {
				s.Cards = int(v)
				rest = strings.Replace(rest, m[0], " ", 1)
			}
		}
	}
	if s.Tokens == 0 {
		if m := reTokens.FindStringSubmatch(rest); m != nil {
			s.Tokens, _ = Number(strings.ReplaceAll(m[1], " ", ""))
		}
	}
	if s.Samples == 0 {
		if m := reSamples.FindStringSubmatch(rest); m != nil {
			s.Samples, _ = Number(strings.ReplaceAll(m[1], " ", ""))
		}
	}
	if s.Epochs == 0 {
		if m := reEpochs.FindStringSubmatch(rest); m != nil {
			s.Epochs, _ = Number(m[1])
		}
	}
	if s.HoursPerMonth == 0 && s.Hours == 0 {
		if m := reHours.FindStringSubmatch(rest); m != nil {
			if v, ok := Number(m[1]); ok {
				s.Hours = v
			}
		}
	}
	if s.Utilization == 0 {
		if m := rePercent.FindStringSubmatch(rest); m != nil {
			if m[1] != "" {
				v, _ := strconv.ParseFloat(m[1], 64)
				s.Utilization = v / 100
			} else if v, ok := cnNumber(m[2]); ok {
				s.Utilization = v / 10
			}
		}
	}
	_ = reMonthly

	words := strings.Fields(reSpace.ReplaceAllString(rest, " "))
	for _, id := range x.gpus.find(words) {
		if !contains(s.GPUs, id) {
			s.GPUs = append(s.GPUs, id)
		}
	}
	if s.Platform == "" {
		if ps := x.platforms.find(trimAt(words)); len(ps) > 0 {
			s.Platform = ps[0]
		}
	}
	return s, probs
}

func trimAt(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = strings.TrimPrefix(w, "@")
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// method finds the training or serving method named in text.
func method(t string) string {
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(t, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("qlora", "q-lora"):
		return "qlora"
	case has("lora"):
		return "lora"
	case has("freeze", "冻结"):
		return "freeze"
	case has("full", "全参", "全量", "全参数", "sft全"):
		return "full"
	case has("inference", "infer", "serve", "serving", "推理", "部署", "deploy", "vllm"):
		return "inference"
	}
	return ""
}

// setKV stores one key=value; false when the value cannot be read.
func (x extractor) setKV(s *Slots, key, val string) bool {
	num := func() (float64, bool) { return Number(val) }
	intv := func(dst *int) bool {
		v, ok := num()
		if !ok || v != float64(int(v)) {
			return false
		}
		*dst = int(v)
		return true
	}
	money := func(dst **Money) bool {
		m, ok := ParseMoney(val)
		if ok {
			*dst = &m
		}
		return ok
	}
	switch key {
	case "batch":
		return intv(&s.Batch)
	case "seq":
		v, ok := num()
		if ok && strings.HasSuffix(strings.ToLower(val), "k") {
			v = v / 1000 * 1024 // 32k context means 32768 tokens
		}
		if !ok || v != float64(int(v)) {
			return false
		}
		s.SeqLen = int(v)
		return true
	case "conc":
		return intv(&s.Concurrency)
	case "bits":
		return intv(&s.Bits)
	case "rank":
		return intv(&s.LoRARank)
	case "cards":
		return intv(&s.Cards)
	case "gc":
		switch val {
		case "on", "true", "1", "yes", "开":
			s.GC = "on"
		case "off", "false", "0", "no", "关":
			s.GC = "off"
		default:
			return false
		}
		return true
	case "optim":
		switch strings.ReplaceAll(val, "-", "") {
		case "adamw", "adam":
			s.Optimizer = "adamw"
		case "adamw8bit", "adam8bit", "8bit", "bnb8bit":
			s.Optimizer = "adamw8bit"
		default:
			return false
		}
		return true
	case "arch":
		s.Arch = val
		return true
	case "gpu":
		for _, part := range strings.Split(val, "/") {
			ids := x.gpus.find([]string{part})
			if len(ids) == 0 {
				return false
			}
			s.GPUs = append(s.GPUs, ids...)
		}
		return true
	case "platform":
		ids := x.platforms.find([]string{strings.TrimPrefix(val, "@")})
		if len(ids) == 0 {
			return false
		}
		s.Platform = ids[0]
		return true
	case "price":
		return money(&s.Price)
	case "rent":
		return money(&s.Rent)
	case "monthly":
		return money(&s.Monthly)
	case "budget":
		return money(&s.Budget)
	case "power":
		return money(&s.Power)
	case "ops":
		return money(&s.Ops)
	case "tps":
		v, ok := num()
		s.TPS = v
		return ok
	case "mfu":
		v, ok := ParseFraction(val)
		s.MFU = v
		return ok
	case "util":
		v, ok := ParseFraction(val)
		s.Utilization = v
		return ok
	case "rate":
		v, ok := ParseFraction(val)
		if ok {
			s.Rate = &v
		}
		return ok
	case "fx":
		v, ok := num()
		s.FX = v
		return ok
	case "years":
		v, ok := num()
		s.Years = v
		return ok
	case "watts":
		v, ok := Number(strings.TrimSuffix(val, "w"))
		if ok {
			s.Watts = &v
		}
		return ok
	case "pue":
		v, ok := num()
		s.PUE = v
		return ok
	case "hours":
		v, ok := Number(strings.TrimSuffix(val, "h"))
		s.Hours = v
		return ok
	case "tokens":
		v, ok := num()
		s.Tokens = v
		return ok
	case "samples":
		v, ok := num()
		s.Samples = v
		return ok
	case "sample_tokens":
		v, ok := num()
		s.SampleTokens = v
		return ok
	case "epochs":
		v, ok := num()
		s.Epochs = v
		return ok
	case "currency":
		switch val {
		case "cny", "rmb", "¥", "元", "人民币":
			s.Currency = "CNY"
		case "usd", "$", "美元":
			s.Currency = "USD"
		default:
			return false
		}
		return true
	case "project":
		s.Project = val
		return true
	case "month":
		s.Month = val
		return true
	case "workload":
		s.Workload = val
		return true
	}
	return false
}
