package parse

import (
	"fmt"
	"math"
	"strings"
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
	"arch": "arch", "model": "model", "date": "date", "jobs": "jobs",
	"tokens_per_day": "tpd", "tpd": "tpd", "requests_per_s": "rps", "rps": "rps", "qps": "rps",
	"input_tokens": "input", "input": "input", "in": "input", "output_tokens": "output", "output": "output", "out": "output", "days": "days", "spot": "spot",
	"price": "price", "rent": "rent", "monthly": "monthly", "budget": "budget", "amount": "amount", "cost": "amount",
	"tps": "tps", "mfu": "mfu", "fx": "fx", "years": "years", "year": "years",
	"util": "util", "utilization": "util", "utilisation": "util",
	"watts": "watts", "watt": "watts", "w": "watts", "pue": "pue", "power": "power", "electricity": "power",
	"ops": "ops", "rate": "rate", "hours": "hours", "h": "hours",
	"hpm": "hpm", "hours_per_month": "hpm", "monthly_hours": "hpm", "gpu_hours": "gpu_hours", "gpuh": "gpu_hours",
	"tokens": "tokens", "samples": "samples", "epochs": "epochs", "sample_tokens": "sample_tokens", "tokens_per_sample": "sample_tokens",
	"cards": "cards", "n": "cards", "count": "cards",
	"platform": "platform", "on": "platform", "currency": "currency", "cur": "currency",
	"project": "project", "proj": "project", "month": "month", "workload": "workload",
	"billing": "billing", "threshold": "threshold", "id": "id", "vram": "vram", "persona": "persona",
}

// kvHints shows the right form for each key.
var kvHints = map[string]string{
	"batch": "bs=8", "seq": "seq=4096 or ctx=32k", "conc": "conc=50", "bits": "bits=4", "rank": "rank=64",
	"gc": "gc=off", "optim": "optim=adamw8bit", "price": "price=1.8 or price=2.5usd", "rent": "rent=2.5usd",
	"monthly": "monthly=900", "budget": "budget=5000", "amount": "amount=¥75", "tps": "tps=3500", "mfu": "mfu=0.4 or mfu=40%", "fx": "fx=7.2",
	"years": "years=3", "util": "util=70%", "watts": "watts=700", "pue": "pue=1.4", "power": "power=1.0",
	"ops": "ops=20000", "rate": "rate=5%", "hours": "hours=200", "hpm": "hpm=200", "gpu_hours": "gpu_hours=1000",
	"tokens": "tokens=100M", "samples": "samples=50k", "epochs": "epochs=2", "cards": "cards=8", "gpu": "gpu=h100",
	"platform": "platform=autodl", "sample_tokens": "sample_tokens=1024", "currency": "currency=usd",
	"billing": "billing=monthly (on-demand, monthly, spot)", "threshold": "threshold=5%", "vram": "vram=24",
	"workload": "workload=inference (llm-finetune, diffusion, inference)", "persona": "persona=startup (individual, startup, enterprise)",
	"month": "month=2026-09", "project": "project=llm-ft", "id": "id=abc123", "arch": "arch=llama-3-70b",
}

// keyValues reads key=value settings; they win over loose mentions.
func (x extractor) keyValues(t *text, f *features, slash bool) {
	if !t.may(reKV) {
		return
	}
	t.s = reCommaKey.ReplaceAllString(t.s, " $1")
	for _, loc := range reKV.FindAllStringSubmatchIndex(t.s, -1) {
		sub := submatches(t.s, loc)
		rawKey, val := sub[1], strings.TrimRight(sub[2], ",.;:!?)")
		key, ok := keyAliases[rawKey]
		if !ok {
			if slash {
				f.probs = append(f.probs, Problem{Field: rawKey, Reason: fmt.Sprintf("unknown setting %q", rawKey), Hint: "settings look like bs=8, seq=4096, gpu=h100, price=1.8"})
				t.blank(loc[2], loc[1])
			}
			continue
		}
		if key == "date" {
			if d, pr := x.readDate(val, f.now); pr != nil {
				f.probs = append(f.probs, *pr)
			} else {
				f.s.Date, f.kvSet["date"] = d, true
			}
			t.blank(loc[2], loc[1])
			continue
		}
		if key == "model" {
			if hits := x.modelNames.find(val); len(hits) > 0 {
				f.s.Model, f.s.ParamsB, f.s.Arch = hits[0].id, x.modelSize[hits[0].id], x.archOf(hits[0].id)
				f.kvSet["model"] = true
			} else if x.archs[val] {
				f.s.Arch = val
			} else {
				f.problem("model", fmt.Sprintf("unknown model %q", val), fmt.Sprintf("不认识的模型 %q", val), "model=qwen3-30b-a3b, model=deepseek-v3, or a size: 70b")
			}
			t.blank(loc[2], loc[1])
			continue
		}
		if x.setKV(&f.s, key, val) {
			f.kvSet[key] = true
		} else {
			f.probs = append(f.probs, Problem{Field: key, Reason: fmt.Sprintf("cannot read %s=%s", rawKey, val), Hint: kvHints[key]})
		}
		t.blank(loc[2], loc[1])
	}
}

// setKV stores one key=value; false when the value cannot be read.
func (x extractor) setKV(s *Slots, key, val string) bool {
	num := func() (float64, bool) {
		v, ok := Number(val)
		return v, ok && v >= 0
	}
	intv := func(dst *int) bool {
		v, ok := num()
		if !ok || v != math.Trunc(v) || v <= 0 || v > 1<<24 {
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
	pos := func(dst *float64) bool {
		v, ok := num()
		if !ok || v <= 0 {
			return false
		}
		*dst = v
		return true
	}
	switch key {
	case "batch":
		return intv(&s.Batch)
	case "seq":
		v, ok := num()
		if ok && strings.HasSuffix(strings.ToLower(val), "k") {
			v = v / 1000 * 1024 // 32k context means 32768 tokens
		}
		if !ok || v != math.Trunc(v) || v <= 0 || v > 1<<24 {
			return false
		}
		s.SeqLen = int(v)
		return true
	case "conc":
		return intv(&s.Concurrency)
	case "bits":
		if !intv(&s.Bits) || s.Bits != 4 && s.Bits != 8 && s.Bits != 16 {
			s.Bits = 0
			return false
		}
		return true
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
		switch strings.ReplaceAll(strings.ReplaceAll(val, "-", ""), "_", "") {
		case "adamw", "adam":
			s.Optimizer = "adamw"
		case "adamw8bit", "adam8bit", "8bit", "bnb8bit", "pagedadamw8bit":
			s.Optimizer = "adamw8bit"
		default:
			return false
		}
		return true
	case "arch":
		s.Arch = val
		return true
	case "gpu":
		for _, part := range strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == '/' || r == '+' }) {
			hits := x.gpus.find(part)
			if len(hits) == 0 {
				return false
			}
			for _, id := range ids(hits) {
				if !contains(s.GPUs, id) {
					s.GPUs = append(s.GPUs, id)
				}
			}
		}
		return len(s.GPUs) > 0
	case "platform":
		hits := x.platforms.find(strings.TrimPrefix(val, "@"))
		if len(hits) == 0 {
			return false
		}
		s.Platform = hits[0].id
		return true
	case "price":
		return money(&s.Price)
	case "rent":
		return money(&s.Rent)
	case "monthly":
		return money(&s.Monthly)
	case "budget":
		return money(&s.Budget)
	case "amount":
		return money(&s.Amount)
	case "power":
		return money(&s.Power)
	case "ops":
		return money(&s.Ops)
	case "tps":
		return pos(&s.TPS)
	case "fx":
		return pos(&s.FX)
	case "years":
		return pos(&s.Years)
	case "pue":
		return pos(&s.PUE)
	case "hours":
		return pos(&s.Hours)
	case "hpm":
		return pos(&s.HoursPerMonth)
	case "gpu_hours":
		return pos(&s.GPUHours)
	case "tokens":
		return pos(&s.Tokens)
	case "samples":
		return pos(&s.Samples)
	case "sample_tokens":
		return pos(&s.SampleTokens)
	case "epochs":
		return pos(&s.Epochs)
	case "tpd":
		return pos(&s.TokensPerDay)
	case "rps":
		return pos(&s.RequestsPerS)
	case "input":
		return intv(&s.InputTokens)
	case "output":
		return intv(&s.OutputTokens)
	case "days":
		return pos(&s.Days)
	case "spot":
		switch val {
		case "on", "true", "1", "yes":
			s.Spot = true
		case "off", "false", "0", "no":
			s.Spot = false
		default:
			return false
		}
		return true
	case "vram":
		v, ok := Number(strings.TrimSuffix(strings.TrimSuffix(val, "b"), "g"))
		if !ok || v <= 0 {
			return false
		}
		s.VRAMGB = v
		return true
	case "mfu", "util", "rate", "threshold":
		v, ok := ParseFraction(val)
		if !ok || v > 1 || key == "mfu" && v == 0 {
			return false
		}
		switch key {
		case "mfu":
			s.MFU = v
		case "util":
			s.Utilization = v
		case "rate":
			s.Rate = &v
		case "threshold":
			s.Threshold = &v
		}
		return true
	case "watts":
		v, ok := 0.0, false
		switch {
		case strings.HasSuffix(val, "kw"):
			v, ok = Number(strings.TrimSuffix(val, "kw"))
			v *= 1000
		default:
			v, ok = Number(strings.TrimSuffix(val, "w"))
		}
		if !ok || v < 0 {
			return false
		}
		s.Watts = &v
		return true
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
	case "billing":
		switch strings.ReplaceAll(val, "_", "-") {
		case "on-demand", "ondemand", "hourly", "按需", "按量", "payg":
			s.Billing = "on-demand"
		case "monthly", "month", "包月", "月租":
			s.Billing = "monthly"
		case "spot", "竞价", "preemptible":
			s.Billing = "spot"
		default:
			return false
		}
		return true
	case "workload":
		switch val {
		case "inference", "推理", "serving":
			s.Workload = "inference"
		case "diffusion", "sd", "sdxl", "文生图", "stable-diffusion":
			s.Workload = "diffusion"
		case "llm-finetune", "finetune", "fine-tune", "ft", "lora", "sft", "微调":
			s.Workload = "llm-finetune"
		default:
			return false
		}
		return true
	case "persona":
		switch val {
		case "individual", "personal", "student", "个人":
			s.Persona = "individual"
		case "startup", "team", "初创":
			s.Persona = "startup"
		case "enterprise", "企业":
			s.Persona = "enterprise"
		default:
			return false
		}
		return true
	case "project":
		s.Project = val
		return val != ""
	case "month":
		s.Month = val
		return val != ""
	case "id":
		s.ID = val
		return val != ""
	}
	return false
}
