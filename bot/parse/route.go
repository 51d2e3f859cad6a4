package parse

import (
	"strings"
)

// minScore is the least evidence for an intent; below it a sentence is
// Unknown.
const minScore = 2.0

// nlIntents are the intents a sentence can have, in tie-break order.
var nlIntents = []Intent{Spend, Knowledge, Fit, Cost, Monthly, Buy, Price, Compare, Recommend, Help}

// scores adds up the cues in a message and the evidence of its slots.
func scores(f *features, cueText string) map[Intent]float64 {
	sc := map[Intent]float64{}
	c := compact(cueText)
	s := &f.s
	// comparing needs two cards or platforms; without them only the
	// explicit words (对比, compare, vs) count in full
	entities := len(s.GPUs) >= 2 || len(s.Platforms) >= 2
	for _, cu := range cues {
		var hit bool
		if containsNonASCII(cu.p) {
			hit = strings.Contains(c, cu.p)
		} else {
			hit = hasWord(cueText, cu.p)
		}
		switch {
		case !hit:
		case cu.i == Compare && cu.w < 3 && !entities:
			sc[cu.i] += cu.w / 2
		default:
			sc[cu.i] += cu.w
		}
	}
	// "help" said alone, or to the bot
	if w := strings.Fields(strings.Trim(cueText, " ?!.,")); len(w) > 0 && len(w) <= 2 && (w[0] == "help" || w[0] == "/help") {
		sc[Help] += 6
	}
	if entities {
		sc[Compare] += 3
	}
	hasParams := s.ParamsB > 0 || s.Arch != ""
	job := s.Tokens > 0 || s.Samples > 0 || s.Epochs > 0 || s.SampleTokens > 0
	// fit: a model with a shape, or a card with a model
	if hasParams {
		sc[Fit] += 1.5
	}
	if s.Method != "" && !f.weakMethod {
		sc[Fit] += 0.5
	}
	if s.VRAMGB > 0 {
		sc[Fit] += 1.5
	}
	shape := 0.0
	for _, set := range []bool{s.Concurrency > 0, s.SeqLen > 0, s.Bits > 0, s.Batch > 0, s.LoRARank > 0, s.GC != "", s.Optimizer != ""} {
		if set {
			shape += 0.5
		}
	}
	sc[Fit] += min(shape, 1.5)
	if len(s.GPUs) == 1 && hasParams && !job {
		sc[Fit]++
	}
	// cost: a job's volume or rates
	if job {
		sc[Cost] += 2
	}
	if s.GPUHours > 0 {
		sc[Cost] += 3
	}
	if s.TPS > 0 || s.MFU > 0 {
		sc[Cost] += 2
	}
	// "多少钱" / "how much": a job's cost when a job is described, else a
	// card's price
	if moneyQuestion(c, cueText) {
		switch {
		case hasParams || job || s.GPUHours > 0 || s.Hours > 0:
			sc[Cost] += 3
		case len(s.GPUs) > 0 || s.Platform != "":
			sc[Price] += 3
		default:
			sc[Cost]++
		}
	}
	// monthly and buy: usage and money of their kind
	if s.HoursPerMonth > 0 {
		sc[Monthly] += 1.5
	}
	for _, h := range f.money {
		switch h.kind {
		case kindMonthly:
			sc[Monthly] += 2
		case kindPurchase, kindPower, kindOps, kindYearly:
			sc[Buy] += 2
		case kindBudget:
			sc[Recommend] += 2.5
		case kindSpent:
			sc[Spend] += 2
		}
	}
	if f.saturated {
		sc[Buy] += 1.5
		sc[Monthly]++
	}
	if s.Utilization > 0 && !f.saturated {
		sc[Buy]++
	}
	if s.Years > 0 && s.Years <= 15 {
		sc[Buy] += 1.5
	}
	if s.Watts != nil || s.PUE > 0 || s.Rate != nil {
		sc[Buy] += 2
	}
	if f.billing == "spot" {
		sc[Price]++
	}
	if f.persona != "" {
		sc[Recommend]++
	}
	if f.project != "" || s.Project != "" {
		sc[Spend] += 2
	}
	if f.month == "this" || f.month == "last" {
		sc[Spend]++
	}
	if f.id != "" {
		sc[Spend]++
	}
	return sc
}

func containsNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// moneyQuestion reports "多少钱", "how much" and the like, but not "how much
// VRAM".
func moneyQuestion(c, s string) bool {
	if containsAny(c, "多少钱", "花多少", "要多少钱", "几块钱", "多少费用") {
		return true
	}
	if hasWord(s, "how much") && !anyWord(s, "vram", "memory", "ram") {
		return true
	}
	return false
}

// route picks the intent of a sentence and its confidence.
func route(f *features, cueText string) (Intent, float64) {
	sc := scores(f, cueText)
	best, bestScore, second := Unknown, 0.0, 0.0
	for _, in := range nlIntents {
		v := sc[in]
		switch {
		case v > bestScore:
			second = bestScore
			best, bestScore = in, v
		case v > second:
			second = v
		}
	}
	off := sc[offTopic]
	if bestScore-off < minScore {
		switch {
		case off > 0:
			return Unknown, 0.9
		case bestScore == 0:
			return Unknown, 0.8
		default:
			return Unknown, 0.5
		}
	}
	score := bestScore - off
	conf := score / (score + 2)
	if second > 0 {
		conf *= 1 - 0.5*second/bestScore
	}
	return best, round2(conf)
}

func round2(v float64) float64 { return float64(int(v*100+0.5)) / 100 }
