package parse

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpubot/gpubot/bot/parse/amount"
	"github.com/gpubot/gpubot/knowledge"
)

// keyValues reads key=value settings; they win over loose mentions.
func (x extractor) keyValues(t *text, f *features, slash bool) {
	if !t.may(reKV) {
		return
	}
	t.s = reCommaKey.ReplaceAllString(t.s, " $1")
	jobs := 0.0
	defer func() {
		// jobs=40 hours=3: forty jobs of three hours a month, the form the
		// answers suggest for "40 个任务每个 3 小时"
		if jobs > 0 && f.s.Hours > 0 && !f.kvSet["hpm"] {
			f.s.HoursPerMonth = jobs * f.s.Hours
			f.note(fmt.Sprintf("%s jobs × %s h read as %s h per month", trim(jobs), trim(f.s.Hours), trim(f.s.HoursPerMonth)))
			f.s.Hours, f.kvSet["hpm"] = 0, true
		}
	}()
	for _, loc := range reKV.FindAllStringSubmatchIndex(t.s, -1) {
		sub := submatches(t.s, loc)
		rawKey, val := sub[1], strings.TrimRight(sub[2], ",.;:!?)")
		set, ok := x.lex.Setting(rawKey)
		key := set.Key
		if !ok {
			if slash {
				f.probs = append(f.probs, Problem{Field: rawKey, Reason: fmt.Sprintf("unknown setting %q", rawKey), Hint: "settings look like bs=8, seq=4096, gpu=h100, price=1.8"})
				t.blank(loc[2], loc[1])
			}
			continue
		}
		if key == "jobs" {
			if v, ok := Number(val); ok && v > 0 {
				jobs = v
			}
			t.blank(loc[2], loc[1])
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
				f.problem("model", fmt.Sprintf("unknown model %q", val), fmt.Sprintf("不认识的模型 %q", val), "model=qwen3-30b-a3b, model=deepseek-v3, or a size: 70b", "model=qwen3-30b-a3b、model=deepseek-v3，或写大小：70b")
			}
			t.blank(loc[2], loc[1])
			continue
		}
		if pr := outOfRange(set, rawKey, val); pr != nil {
			f.probs = append(f.probs, *pr)
		} else if x.setKV(&f.s, key, val) {
			f.kvSet[key] = true
		} else {
			reason, zh := fmt.Sprintf("cannot read %s=%s", rawKey, val), fmt.Sprintf("看不懂 %s=%s", rawKey, val)
			if _, err := amount.Read(val); err != nil && set.Kind == knowledge.KindMoney {
				e := err.(*amount.Error)
				reason, zh = fmt.Sprintf("%s=%s: %s", rawKey, val, e.Reason), fmt.Sprintf("%s=%s：%s", rawKey, val, e.ReasonZH)
			}
			f.probs = append(f.probs, Problem{Field: key, Reason: reason, Hint: set.Hint, zh: zh, hintZH: set.HintZH})
		}
		t.blank(loc[2], loc[1])
	}
}

// outOfRange checks a numeric value against the lexicon's range for its
// key: "hours=-3", "util=150%", "bs=0" get a Problem naming the range.
func outOfRange(set knowledge.Setting, raw, val string) *Problem {
	if set.Min == 0 && set.Max == 0 {
		return nil
	}
	var v float64
	var ok bool
	if set.Kind == knowledge.KindFraction {
		v, ok = ParseFraction(val)
		if strings.HasPrefix(strings.TrimSpace(val), "-") {
			v, ok = -1, true
		}
	} else {
		v, ok = Number(strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(val), "h"), "w"))
	}
	if !ok || v >= set.Min && v <= set.Max {
		return nil
	}
	lo, hi := trim(set.Min), trim(set.Max)
	if set.Kind == knowledge.KindFraction {
		lo, hi = trim(set.Min*100)+"%", trim(set.Max*100)+"%"
	}
	return &Problem{Field: set.Key, Reason: fmt.Sprintf("%s=%s is outside the accepted range %s to %s", raw, val, lo, hi),
		Hint: set.Hint, zh: fmt.Sprintf("%s=%s 超出可接受范围 %s 到 %s", raw, val, lo, hi), hintZH: set.HintZH}
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
	case "res":
		return intv(&s.Resolution)
	case "images":
		v, ok := num()
		if ok {
			s.Images = v
		}
		return ok
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
		v, ok := knowledge.Fold(x.lex.Billing, strings.ReplaceAll(val, "_", "-"))
		s.Billing = v
		return ok
	case "workload":
		v, ok := knowledge.Fold(x.lex.Workloads, strings.ReplaceAll(val, "_", "-"))
		s.Workload = v
		return ok
	case "persona":
		v, ok := knowledge.Fold(x.lex.Personas, strings.ReplaceAll(val, "_", "-"))
		s.Persona = v
		return ok
	case "engine":
		switch strings.ReplaceAll(strings.ReplaceAll(val, "-", ""), "_", "") {
		case "vllm":
			s.Engine = "vllm"
		case "trtllm", "tensorrtllm", "trt", "tensorrt":
			s.Engine = "trtllm"
		default:
			return false
		}
		return true
	case "kv_bits":
		switch strings.TrimPrefix(strings.TrimPrefix(val, "fp"), "bf") {
		case "16":
			s.KVBits = 16
		case "8":
			s.KVBits = 8
		default:
			return false
		}
		return true
	case "gpu_mem_util":
		v, ok := ParseFraction(val)
		if !ok || v <= 0 || v > 1 {
			return false
		}
		s.MemUtil = v
		return true
	case "max_seqs":
		return intv(&s.MaxSeqs)
	case "stack":
		switch strings.ReplaceAll(val, "_", "-") {
		case "vllm", "engine", "sglang", "trtllm":
			s.Stack = "vllm"
		case "hf", "transformers", "peft", "huggingface", "sdpa", "flash", "fa2":
			s.Stack = "hf"
		case "hf-eager", "eager":
			s.Stack = "hf-eager"
		case "deepspeed", "ds", "zero3", "zero-3":
			s.Stack = "deepspeed"
		default:
			return false
		}
		return true
	case "text_encoder":
		switch val {
		case "gpu", "none", "no", "off", "false", "0":
			s.TextEncoder = "gpu"
		case "t5", "te", "text_encoder", "offload", "cpu", "on", "yes", "true", "1":
			s.TextEncoder = "offload"
		case "cached", "cache", "precomputed", "embeddings":
			s.TextEncoder = "cached"
		default:
			return false
		}
		return true
	case "project":
		s.Project = val
		return val != ""
	case "team":
		s.Team = val
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
