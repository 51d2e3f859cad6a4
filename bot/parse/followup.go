package parse

import (
	"encoding/json"
	"github.com/gpubot/gpubot/knowledge"
	"regexp"
	"strings"
	"time"
)

// Follow-ups. In a thread, or a DM soon after a question, people add or
// change one thing: "20k samples" after the bot asked how much data, "那
// qlora 呢", "and on runpod?", "每月大概 300 小时". Such a message is read
// as the previous request with its slots changed; a message that is a full
// question of its own starts over.

// followUpConfidence is the router confidence above which a message with
// nothing missing is taken as a new question even in a thread.
const followUpConfidence = 0.8

// FollowUp reads raw as the next message of a conversation whose last
// request was prev. It returns the merged request and true when raw only
// adds or changes slots; otherwise raw read on its own and false.
func (p *Parser) FollowUp(prev Request, raw string, now time.Time) (Request, bool) {
	cur := p.ParseAt(raw, now)
	if cur.Slash || prev.Intent == "" || prev.Intent == Unknown || prev.Intent == Help || p.writes[prev.Intent] {
		return cur, false
	}
	text := Clean(raw)
	lower := strings.ToLower(text)
	marked := false
	for _, m := range vocab.followUp {
		if strings.HasPrefix(lower, m) || strings.HasSuffix(strings.TrimRight(lower, "?？!！. "), strings.TrimSpace(m)) {
			marked = true
			break
		}
	}
	full := cur.Intent != Unknown && cur.Confidence >= followUpConfidence && len(cur.Slots.Missing) == 0
	if full && !marked {
		return inherit(p.writes, prev, cur) // a whole question of its own, in the conversation's context
	}
	if cur.Intent != Unknown && cur.Intent != prev.Intent && cur.Confidence >= followUpConfidence && !marked {
		return inherit(p.writes, prev, cur) // a new question: "训5万条多少钱" after a fit keeps the model
	}
	f := p.x.extract(text, false, now)
	add := f.finish(prev.Intent)
	if add.Cards == 0 {
		// "那8张呢", "what about 4 cards?": a count alone, of the
		// conversation's card
		if m := reBareCards.FindStringSubmatch(arabize(lower)); m != nil {
			if n, ok := Number(m[1] + m[2]); ok && n > 0 && n <= 100000 {
				add.Cards = int(n)
			}
		}
	}
	added := slotsJSON(add)
	for _, k := range []string{"missing", "notes", "mode"} {
		delete(added, k)
	}
	if len(added) == 0 && !(prev.Intent == Cost && namesHostedAPI(lower)) {
		return cur, false // nothing to add: "thanks", "ok"
	}
	merged := slotsJSON(prev.Slots)
	delete(merged, "missing")
	for k, v := range added {
		merged[k] = v
	}
	var s Slots
	b, _ := json.Marshal(merged)
	if err := json.Unmarshal(b, &s); err != nil {
		return cur, false
	}
	s.Notes = append(append([]string(nil), prev.Slots.Notes...), add.Notes...)
	if v, ok := added["params_b"]; ok && added["model"] == nil && v != nil {
		s.Model, s.Arch = "", "" // a new size replaces the named model
	}
	s.Missing = missing(prev.Intent, s)
	out := prev
	out.Slots = s
	out.Text = prev.Text + " | " + text
	out.Problems = cur.Problems
	out.FollowUp = true
	return out, true
}

// namesHostedAPI reports whether a message names a hosted API by the
// lexicon's apis families ("那用豆包API呢"): after a self-host-vs-API
// question it swaps the API weighed; the merged text carries the name
// (bot/api_names.go reads the last message first).
func namesHostedAPI(lower string) bool {
	for _, f := range knowledge.MustLexicon().APIs.Families {
		for _, w := range f.Words {
			if strings.Contains(lower, strings.ToLower(w)) {
				return true
			}
		}
	}
	return false
}

// reBareCards is a card count said alone in a follow-up.
var reBareCards = regexp.MustCompile(`(\d+)\s?(?:张|块|片|台)\s?(?:卡)?\s?(?:呢|的话|吧|$|[?？,，])|\b(\d+)\s?(?:cards?|gpus?)\b`)

// Missing names what intent needs and s does not have (see Slots.Missing).
func Missing(intent Intent, s Slots) []string { return missing(intent, s) }

func slotsJSON(s Slots) map[string]any {
	b, _ := json.Marshal(s)
	m := map[string]any{}
	_ = json.Unmarshal(b, &m)
	return m
}

// inherit gives a new question of a conversation what it leaves out and
// the conversation said: the model, the card, the platform, the load, the
// quote and the budget ("fit 32b lora" → "训5万条多少钱" is the cost of the
// 32B LoRA). It never overrides what the new question says, never turns
// it into a write and never takes from a write (writes: the table's). It
// reports whether it took anything.
func inherit(writes map[Intent]bool, prev, cur Request) (Request, bool) {
	if writes[cur.Intent] || writes[prev.Intent] || cur.Intent == Help || cur.Intent == Unknown {
		return cur, false
	}
	p, s := prev.Slots, &cur.Slots
	took := false
	// what each kind of question can take from the conversation: only
	// what its answer reads (a comparison names its own cards)
	sized := cur.Intent == Fit || cur.Intent == Cost || cur.Intent == Recommend
	carded := sized || cur.Intent == Monthly || cur.Intent == Buy || cur.Intent == Price
	if !carded {
		return cur, false
	}
	model := s.ParamsB > 0 || s.Model != "" || s.Arch != ""
	if sized && !model && (p.ParamsB > 0 || p.Model != "" || p.Arch != "") {
		s.ParamsB, s.Model, s.Arch = p.ParamsB, p.Model, p.Arch
		if s.Method == "" {
			s.Method = p.Method
		}
		if s.Bits == 0 {
			s.Bits = p.Bits
		}
		took = true
	}
	if len(s.GPUs) == 0 && len(p.GPUs) > 0 {
		s.GPUs = append([]string(nil), p.GPUs...)
		if s.Cards == 0 {
			s.Cards = p.Cards
		}
		took = true
	}
	takeStr := func(dst *string, v string) {
		if *dst == "" && v != "" {
			*dst, took = v, true
		}
	}
	takeNum := func(dst *float64, v float64) {
		if *dst == 0 && v != 0 {
			*dst, took = v, true
		}
	}
	takeMoney := func(dst **Money, v *Money) {
		if *dst == nil && v != nil {
			m := *v
			*dst, took = &m, true
		}
	}
	takeStr(&s.Platform, p.Platform)
	takeStr(&s.Currency, p.Currency)
	if cur.Intent == Cost {
		takeNum(&s.TokensPerDay, p.TokensPerDay)
		takeNum(&s.RequestsPerS, p.RequestsPerS)
		takeNum(&s.PeakRequestsPerS, p.PeakRequestsPerS)
	}
	if cur.Intent == Monthly || cur.Intent == Buy {
		takeNum(&s.HoursPerMonth, p.HoursPerMonth)
		takeNum(&s.Utilization, p.Utilization)
	}
	if sized {
		takeMoney(&s.Budget, p.Budget)
	}
	if cur.Intent == Monthly {
		takeMoney(&s.Monthly, p.Monthly)
	}
	if cur.Intent == Buy && prev.Intent == Buy {
		takeMoney(&s.Price, p.Price)
	}
	if !took {
		return cur, false
	}
	s.Missing = missing(cur.Intent, *s)
	cur.Text = prev.Text + " | " + cur.Text
	cur.FollowUp = true
	return cur, true
}
