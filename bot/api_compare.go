package bot

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// Two or more hosted APIs weighed at one load ("豆包和通义千问 qwen-plus 的
// API 哪个便宜？一个月 10 亿 token，输入输出各一半", "gpt-4o-mini vs claude
// haiku vs deepseek for 300M tokens a month, 3:1 input:output"): every API
// named is billed at the same month and split, cheapest first — not one of
// them against a self-hosted plan nobody asked for.

// apiSplit is the share of the tokens that are input, as the question
// said it (said: its words, for the answer to say back), or the default.
type apiSplit struct {
	share float64
	said  string // "3:1", "各一半", "mostly input"; "" when assumed
	// perRequest: read from the request shape (input_tokens / output_tokens)
	perRequest bool
}

var (
	// "3:1 input:output", "3:1 in/out", "3比1的输入输出"
	reSplitBefore = regexp.MustCompile(`(\d+(?:\.\d+)?)\s?[:：/比]\s?(\d+(?:\.\d+)?)\s?(?:的)?\s?(?:\(?\s?(?:input\s?[:/]\s?output|in\s?[:/]\s?out|输入\s?[:：/比]?\s?输出))`)
	// "input:output 3:1", "输入输出比 3:1", "输入:输出 = 3:1", "ratio of input to output 3 to 1"
	reSplitAfter = regexp.MustCompile(`(?:input\s?[:/]\s?output|input to output|in\s?[:/]\s?out|输入\s?[:：/和与跟]?\s?输出)\s?(?:ratio|比例|比|的比例)?\s?(?:is|of|=|是|为|:|：|大概|约|差不多|about|~|\s)*\s?(\d+(?:\.\d+)?)\s?(?:[:：/比]|to)\s?(\d+(?:\.\d+)?)`)
	// "输入输出各一半", "输入和输出差不多一半一半", "half input, half output", "50/50 input/output"
	reSplitHalf = regexp.MustCompile(`(?:输入\s?(?:和|与|跟)?\s?输出|input and output|inputs? and outputs?|in and out)[^。？?]{0,8}?(?:各一半|各占一半|一半一半|五五开|各半|各\s?50\s?%|half and half|50\s?/\s?50|split evenly|evenly)|half input,? (?:and )?half output|50\s?/\s?50\s?(?:input|in)\s?/\s?(?:output|out)|(?:input|in)\s?/\s?(?:output|out)\s?(?:of\s)?50\s?/\s?50`)
	// "mostly input", "以输入为主", "大部分是输出"
	reSplitMostly = regexp.MustCompile(`mostly (input|output)|(input|output)[- ]heavy|(?:以|主要是|大部分是|大多是)\s?(输入|输出)|(输入|输出)(?:为主|占大头|居多)`)
)

// splitOf reads the input:output split a question states; per-request
// tokens (input_tokens= / output_tokens=) give it too. Unsaid, 2:1 (the
// serving default of 1,000 in : 500 out) is assumed.
func splitOf(text string, s parse.Slots) apiSplit {
	// a thread ("q1 | q2"): the latest message that states a split
	segs := strings.Split(text, " | ")
	for i := len(segs) - 1; i > 0; i-- {
		if sp := splitIn(strings.ToLower(segs[i])); sp.said != "" {
			return sp
		}
	}
	if sp := splitIn(strings.ToLower(segs[0])); sp.said != "" {
		return sp
	}
	if s.InputShare > 0 && s.InputShare < 1 {
		// two volumes read by the parser ("输入 5 亿、输出 1 亿"), no ratio in words
		r := math.Round(s.InputShare/(1-s.InputShare)*100) / 100
		return apiSplit{share: s.InputShare, said: fmt.Sprint(r) + ":1"}
	}
	if s.InputTokens > 0 && s.OutputTokens > 0 {
		in, out := float64(s.InputTokens), float64(s.OutputTokens)
		return apiSplit{share: in / (in + out), said: strconv.Itoa(s.InputTokens) + ":" + strconv.Itoa(s.OutputTokens), perRequest: true}
	}
	return apiSplit{share: 2.0 / 3}
}

// splitIn reads a split stated in one message (lower case); said is ""
// when none is.
func splitIn(t string) apiSplit {
	ratio := func(a, b string) (apiSplit, bool) {
		x, err1 := strconv.ParseFloat(a, 64)
		y, err2 := strconv.ParseFloat(b, 64)
		if err1 != nil || err2 != nil || x < 0 || y < 0 || x+y == 0 {
			return apiSplit{}, false
		}
		return apiSplit{share: x / (x + y), said: a + ":" + b}, true
	}
	if m := reSplitBefore.FindStringSubmatch(t); m != nil {
		if sp, ok := ratio(m[1], m[2]); ok {
			return sp
		}
	}
	if m := reSplitAfter.FindStringSubmatch(t); m != nil {
		if sp, ok := ratio(m[1], m[2]); ok {
			return sp
		}
	}
	if m := reSplitHalf.FindString(t); m != "" {
		return apiSplit{share: 0.5, said: strings.TrimSpace(m)}
	}
	if m := reSplitMostly.FindStringSubmatch(t); m != nil {
		// "mostly input" read as 3:1, said back so the user can correct it
		w := m[1] + m[2] + m[3] + m[4]
		if w == "input" || w == "输入" {
			return apiSplit{share: 0.75, said: m[0]}
		}
		return apiSplit{share: 0.25, said: m[0]}
	}
	return apiSplit{}
}

// lastSegment is a thread's last message ("q1 | q2" → "q2").
func lastSegment(text string) string {
	segs := strings.Split(text, " | ")
	return segs[len(segs)-1]
}

// reAPISeparators cut a message into the parts that each name one API.
var reAPISeparators = regexp.MustCompile(`\s+(?:vs\.?|versus|or|and|against|compared (?:to|with))\s+|[,，、;；/]|和|与|跟|还是|对比|比较|以及`)

// namedAPIs are the hosted APIs a message names, in order, each once:
// each part between separators read as apiIn reads a message, and a
// family's own name standing alone ("deepseek") as that family's API.
func (b *Bot) namedAPIs(text string) []apiPick {
	// a thread ("q1 | q2"): the latest message naming two or more
	segs := strings.Split(text, " | ")
	for i := len(segs) - 1; i > 0; i-- {
		if ps := b.apisIn(strings.ToLower(segs[i])); len(ps) >= 2 {
			return ps
		}
	}
	return b.apisIn(strings.ToLower(segs[0]))
}

// apisIn are the APIs one message (lower case) names.
func (b *Bot) apisIn(t string) []apiPick {
	var out []apiPick
	seen := map[string]bool{}
	for _, seg := range reAPISeparators.Split(t, -1) {
		p := b.apiIn(seg, "")
		if p.Family == "" {
			for _, f := range apiWords().Families {
				if wordIn(seg, f.Family) && len(b.familyRows(f)) > 0 {
					p = apiPick{Family: f.Family}
					break
				}
			}
		}
		if p.Family == "" {
			continue
		}
		k := p.Family + "|" + p.Model + "|" + p.Unpriced
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, p)
	}
	// "通义千问 qwen-plus": the family said, then its model — one API
	merged := out[:0]
	for _, p := range out {
		if n := len(merged); n > 0 && merged[n-1].Family == p.Family && (merged[n-1].Model == "" || p.Model == "") {
			if p.Model != "" {
				merged[n-1] = p
			}
			continue
		}
		merged = append(merged, p)
	}
	return merged
}

// familiesWorded counts the API families a message names by the
// lexicon's words, each standing as a word ("gpt-4o-mini vs claude
// haiku"): two or more is a question about APIs even without "API".
func familiesWorded(text string) int {
	t := strings.ToLower(text)
	n := 0
	for _, f := range apiWords().Families {
		for _, w := range f.Words {
			w = strings.ToLower(w)
			if i := strings.Index(t, w); i >= 0 && (i == 0 || !nameByte(t[i-1])) {
				n++
				break
			}
		}
	}
	return n
}

// apisCompared reports whether a question weighs two or more hosted APIs
// against each other at a load: two APIs named, a load, and nothing to
// self-host (no card, no self-hosting word).
func (b *Bot) apisCompared(req parse.Request) ([]apiPick, bool) {
	s := req.Slots
	t := strings.ToLower(lastSegment(req.Text))
	if s.TokensPerDay <= 0 || len(s.GPUs) > 0 || hasAny(t, apiWords().SelfHost) {
		return nil, false
	}
	picks := b.namedAPIs(req.Text)
	if len(picks) < 2 || !asksAPI(req.Text) {
		return nil, false
	}
	return picks, true
}

// apiCompare bills every API named at the question's month and split.
func (b *Bot) apiCompare(a *Answer, req parse.Request, picks []apiPick) error {
	s := req.Slots
	cur := b.currency(req)
	sp := splitOf(req.Text, s)
	if s.InputShare > 0 {
		a.use("input_share", "the input:output split billed")
	}
	month := s.TokensPerDay * 730 / 24 // a day's load billed over the 730 h month
	if tokensGivenMonthly(s) {
		month = math.Round(s.TokensPerDay * 365 / 12) // the month as given
	}
	var in []advisor.APIBillPick
	var unpriced []apiPick
	for _, p := range picks {
		if p.Unpriced != "" {
			unpriced = append(unpriced, p) // named, no row: said, not billed
			continue
		}
		// "claude haiku" priced as the newest Haiku: said as the tier's, not as named
		said := strings.ToLower(req.Text) // a thread's earlier message may name it
		hy := strings.NewReplacer(" ", "-", "_", "-").Replace(said)
		tier := p.Model != "" && !wordIn(hy, p.Model) && !wordIn(said, p.Model)
		in = append(in, advisor.APIBillPick{Family: p.Family, Model: p.Model, Tier: tier})
	}
	res, err := advisor.BillAPIs(advisor.APIBillsInput{Picks: in, TokensPerMonth: month, InputShare: sp.share,
		Currency: cur, FX: b.fx(s), Prices: b.kb.Procurement.APIs})
	if err != nil {
		return err
	}
	a.Intent = "api"
	a.Result = res
	a.use("tokens_per_day", "the month billed on each API")
	if sp.said != "" && !sp.perRequest {
		// "3:1 input:output" is a split, not a 1-token request; "各一半" a
		// split, not utilisation
		for _, k := range []string{"input_tokens", "output_tokens"} {
			a.use(k, "read as the "+sp.said+" input:output split")
		}
		if strings.Contains(sp.said, "一半") || strings.Contains(sp.said, "half") || strings.Contains(sp.said, "50") {
			a.use("utilization", "read as the "+sp.said+" input:output split")
		}
	} else {
		a.use("input_tokens", "the input:output split")
		a.use("output_tokens", "the input:output split")
	}
	for k, how := range map[string]string{"model": "the API named", "arch": "the API named", "params_b": "the API named", "project": "the API named",
		"currency": "the answer's currency", "fx": "the answer's currency"} {
		a.use(k, how)
	}
	lo := res.Bills[0]
	also := []Typed{}
	for _, bl := range res.Bills[1:] {
		also = append(also, Typed{Asked: "money_monthly", Value: val(bl.Monthly), Unit: "month", Currency: string(cur), Choice: baseModelName(bl.Model)})
	}
	also = append(also, Typed{Asked: "saving", Value: val(res.Difference), Unit: "month", Currency: string(cur), Choice: baseModelName(lo.Model)})
	a.Typed = &Typed{Asked: "money_monthly", Value: val(lo.Monthly), Unit: "month", Currency: string(cur), Choice: baseModelName(lo.Model), Also: also}
	a.show(renderAPICompare(a.Lang, res, sp, unpriced, tokensGivenMonthly(s), a.Assumed))
	return nil
}

// Evals: a fixed set of questions run once ("MMLU eval of Llama-3-70B,
// ~14k questions, $200 of credits: API or rent GPUs?"): the eval's tokens
// billed on the model's hosts, beside renting cards for the same
// questions, cheapest first, against the budget.

var (
	reEvalWords = regexp.MustCompile(`\b(?:evals?|evaluat\w*|benchmark\w*|mmlu\w*|gsm8k|humaneval|ceval|c-eval|cmmlu|arc|hellaswag)\b|评测|测评|跑分|评估`)
	// "~14k questions", "1.4万道题", "14000 prompts"
	reEvalItems = regexp.MustCompile(`(\d+(?:\.\d+)?)\s?(k|万|千)?\s?(?:个|道|条)?\s?(?:questions|prompts|items|problems|examples|samples|题|问题|样本)`)
)

// evalPerItem is a multiple-choice eval question's tokens, assumed: a
// 5-shot MMLU prompt is five worked questions plus the one asked (≈600
// tokens), and the answer a letter (a few tokens with the stop).
const (
	evalInputPerItem  = 600
	evalOutputPerItem = 5
)

// apiEvalAsked reads an eval's questions: an eval word and a count of
// questions (the parser's samples, else the count said), ok false when
// the question is no eval.
func apiEvalAsked(req parse.Request) (items float64, ok bool) {
	t := strings.ToLower(lastSegment(req.Text))
	if !reEvalWords.MatchString(t) {
		return 0, false
	}
	if m := req.Slots.Method; m != "" && m != "inference" {
		return 0, false // "lora … 2万条 … 外加跑eval": a fine-tune's data, the eval beside it
	}
	if req.Slots.Samples > 0 {
		return req.Slots.Samples, true
	}
	m := reEvalItems.FindStringSubmatch(t)
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseFloat(m[1], 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	switch m[2] {
	case "k", "千":
		n *= 1e3
	case "万":
		n *= 1e4
	}
	return n, true
}

// apiEval answers an eval: the rental from the cost engine (the same
// questions as output tokens at the per-question split, so the prompts'
// prefill is in its time), and every host's bill for the tokens.
func (b *Bot) apiEval(ctx context.Context, a *Answer, req parse.Request, items float64) error {
	s := req.Slots
	model := cmpOr(s.Model, s.Arch)
	inTok, outTok := float64(evalInputPerItem), float64(evalOutputPerItem)
	given := s.InputTokens > 0 || s.OutputTokens > 0
	if s.InputTokens > 0 {
		inTok = float64(s.InputTokens)
	}
	if s.OutputTokens > 0 {
		outTok = float64(s.OutputTokens)
	}
	rent := req
	rent.Slots.Method = string(advisor.Inference)
	rent.Slots.InputTokens, rent.Slots.OutputTokens = int(inTok), max(int(outTok), 1)
	rent.Slots.Tokens = items * math.Max(outTok, 1)
	rent.Slots.Budget = nil // the budget is weighed over every option below
	var cr *advisor.CostResult
	if err := b.cost(ctx, a, rent); err == nil {
		if r, ok := a.Result.(advisor.CostResult); ok && r.Total > 0 {
			cr = &r
		}
	}
	cur := b.currency(req)
	budget := 0.0
	if s.Budget != nil && s.Budget.Amount > 0 {
		budget = advisor.Convert(s.Budget.Amount, knowledge.Currency(cmpOr(s.Budget.Currency, string(cur))), cur, b.fx(s))
	}
	res, err := advisor.APIEval(advisor.APIEvalInput{Model: model, Items: items, InputPerItem: inTok, OutputPerItem: outTok, Budget: budget,
		Currency: cur, FX: b.fx(s), Rent: cr, Prices: b.kb.Procurement.APIs})
	if err != nil {
		return err
	}
	a.Intent = "api"
	a.Result = res
	delete(a.Assumed, "tokens") // the cost engine's tokens are the eval's answers, said in the lines
	if !given {
		a.Assumed["input_tokens"], a.Assumed["output_tokens"] = int(inTok), int(outTok)
	}
	for k, how := range map[string]string{"budget": "the budget each option is checked against", "model": "the model evaluated",
		"params_b": "the model evaluated", "arch": "the model evaluated", "samples": "the questions evaluated",
		"input_tokens": "tokens per question", "output_tokens": "tokens per question"} {
		a.use(k, how)
	}
	best := res.Options[0]
	var also []Typed
	for _, o := range res.Options[1:] {
		also = append(also, Typed{Asked: "money_total", Value: val(o.Total), Unit: "total", Currency: string(cur), Choice: evalChoice(o)})
	}
	a.Typed = &Typed{Asked: "which", Value: val(best.Total), Unit: "total", Currency: string(cur), Choice: evalChoice(best), Also: also}
	a.show(renderAPIEval(a.Lang, res, a.Assumed))
	return nil
}

// evalChoice names an option for the typed answer: "api" or "rent".
func evalChoice(o advisor.APIEvalOption) string { return o.Kind }
