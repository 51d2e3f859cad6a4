package bot

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// A fit with a fallback: "4090 24g LoRA微调 Qwen2.5-14B，bf16能跑吗？不行的话
// QLoRA呢", "just one 4090 — full fine-tune a 7b? if not, lora?", "3060 12g
// 能不能跑llama3 8b推理啊，int4的话呢", "70B BF16 on one H200? If not, FP8?".
// The question asks two fits: the way it names first, then the fallback
// (another method or precision). Both are answered, the first first.

// reAltMarker opens the fallback clause.
var reAltMarker = regexp.MustCompile(`不行的话|如果不行|要是不行|不够的话|放不下的话|跑不了的话|跑不动的话|不然的话|要不然|否则|\bif not\b|\bif it doesn'?t\b|\botherwise\b|\bor else\b`)

// reAltTail is a fallback said as "X的话呢" / "what about X" at the end.
var reAltTail = regexp.MustCompile(`[,，。.;；?？]\s*(?:那|那么|如果|要是|用|换成|改成|what about|how about|and)?\s*((?:int|fp)\s?[48]|[48]\s?bit|[48]位|q?lora|全参|全量|full(?: fine-?tune)?)\s*(?:的话)?\s*(?:呢|行吗|可以吗|\?|？)?\s*[?？]?\s*$`)

// splitAlternative returns the question before its fallback and the
// fallback's words; ok is false when there is none.
func splitAlternative(text string) (base, alt string, ok bool) {
	lower := strings.ToLower(text)
	if loc := reAltMarker.FindStringIndex(lower); loc != nil {
		return text[:loc[0]], text[loc[1]:], true
	}
	if m := reAltTail.FindStringSubmatchIndex(lower); m != nil {
		return text[:m[0]], text[m[2]:m[3]], true
	}
	return "", "", false
}

// fitWithFallback answers a fit and its fallback when req asks both; ok is
// false when it does not (or either fit cannot be worked).
func (b *Bot) fitWithFallback(ctx context.Context, a Answer, req parse.Request) (Answer, bool) {
	s := req.Slots
	if req.Slash || !(s.ParamsB > 0 || s.Model != "" || s.Arch != "") || !(s.YesNo || has(s.Targets, "memory_gb") || len(s.GPUs) > 0 || s.VRAMGB > 0) {
		return a, false
	}
	if req.Intent != parse.Fit && !(req.Intent == parse.Cost && s.Tokens == 0 && s.Samples == 0 && s.RequestsPerS == 0 && s.TokensPerDay == 0) {
		return a, false
	}
	baseText, altText, ok := splitAlternative(req.Text)
	if !ok {
		return a, false
	}
	now := b.now()
	first, second := b.parser.ParseAt(baseText, now).Slots, b.parser.ParseAt(altText, now).Slots
	if fr, ok := b.rentalFallback(ctx, a, req, first, second); ok {
		return fr, true // "不行的话租 A100 80G 跑 10 小时要多少钱"
	}
	if second.Method == "" && second.Bits == 0 {
		return a, false // "if not, how many A100s?": a fallback of cards, answered by the fit itself
	}
	with := func(method string, bits int) parse.Request {
		r := req
		r.Intent, r.Problems = parse.Fit, nil
		r.Slots.Missing = nil
		r.Slots.Method, r.Slots.Bits = cmpOr(method, s.Method), bits
		if r.Slots.Method == "qlora" && bits == 16 {
			r.Slots.Bits = 0 // QLoRA's base is 4-bit
		}
		return r
	}
	baseMethod := first.Method
	if baseMethod == "" && second.Method != "" && s.Method == second.Method {
		baseMethod = "" // the merged method was the fallback's: the first way is the default for the job
	}
	reqA := with(cmpOr(baseMethod, methodBesides(s.Method, second.Method)), first.Bits)
	reqB := with(cmpOr(second.Method, reqA.Slots.Method), second.Bits)
	fa, fb := a, a
	fa.Assumed, fb.Assumed = map[string]any{}, map[string]any{}
	if b.fit(ctx, &fa, reqA) != nil || b.fit(ctx, &fb, reqB) != nil {
		return a, false
	}
	va, okA := fa.Result.(FitResult)
	vb, okB := fb.Result.(FitResult)
	if !okA || !okB {
		return a, false
	}
	fa.Intent = parse.Fit
	d := fa.Doc
	d.Headline = strings.TrimSuffix(fa.Doc.Headline, "。") + tr(a.Lang, ". If not: ", "。退一步：") + fb.Doc.Headline
	fa.show(d)
	fa.Result = va
	fa.fallback = &vb
	fa.verdictAsked = true
	fa.use("method", "the two ways asked: the first, then the fallback")
	fa.use("bits", "the two ways asked: the first, then the fallback")
	return fa, true
}

// methodBesides is the way a job is done when the fallback names the
// other: "LoRA… bf16? 不行的话 QLoRA" merged reads qlora; the first is lora.
func methodBesides(merged, fallback string) string {
	if merged == fallback && fallback == "qlora" {
		return "lora"
	}
	return merged
}

// altChoice names a fallback fit in the typed answer: its method, and its
// precision when not 16-bit ("qlora", "inference int4").
func altChoice(w advisor.Workload) string {
	c := string(w.Method)
	if w.Bits != 0 && w.Bits != 16 {
		c += " int" + strconv.Itoa(w.Bits)
	}
	return c
}

// FitRental is a fallback of renting: "两张 4090 能全参微调 7B 吗？不行的话
// 租 A100 80G 跑 10 小时要多少钱". The cards of the rented kind that hold
// the job (or more, when the asker said how many), its cheapest on-demand
// price and the stretch's total (advisor.RentalTotal).
type FitRental struct {
	GPU       string         `json:"gpu"`
	Name      string         `json:"name"`
	Cards     int            `json:"cards"`
	Hours     float64        `json:"hours"`
	PerCardGB float64        `json:"per_card_gb"`
	Price     *PriceRef      `json:"price,omitempty"`
	Total     float64        `json:"total,omitempty"`
	Currency  string         `json:"currency,omitempty"`
	Lines     []advisor.Line `json:"lines,omitempty"`
}

// rentalFallback answers a fit whose fallback rents another card for a
// stretch: the fit on the asker's own cards, then the rented cards that
// hold the same job and what the hours cost. ok is false when the
// fallback is not that or cannot be worked.
func (b *Bot) rentalFallback(ctx context.Context, a Answer, req parse.Request, first, second parse.Slots) (Answer, bool) {
	if len(second.GPUs) != 1 || second.Hours <= 0 || second.Method != "" || second.Bits != 0 || len(first.GPUs) == 0 {
		return a, false
	}
	g, ok := b.kb.GPU(second.GPUs[0])
	if !ok {
		return a, false
	}
	r := req
	r.Intent, r.Problems = parse.Fit, nil
	r.Slots.Missing = nil
	r.Slots.GPUs, r.Slots.Cards, r.Slots.VRAMGB = first.GPUs, first.Cards, first.VRAMGB
	r.Slots.Hours, r.Slots.Targets, r.Slots.YesNo = 0, nil, true
	fa := a
	fa.Assumed = map[string]any{}
	if b.fit(ctx, &fa, r) != nil {
		return a, false
	}
	view, isFit := fa.Result.(FitResult)
	if !isFit || view.Verdict == nil {
		return a, false
	}
	on, err := b.mkt.Fit(workload(r.Slots), []knowledge.GPU{g})
	if err != nil || len(on.Options) == 0 || on.Options[0].Count == 0 {
		return a, false
	}
	o := on.Options[0]
	rent := &FitRental{GPU: g.ID, Name: g.Name, Cards: max(o.Count, second.Cards), Hours: second.Hours, PerCardGB: o.PerCardGB}
	cur, fx := b.currency(r), b.fx(r.Slots)
	f := advisor.OfferFilter{NoInterruptible: true, NoMarketRange: !advisor.IsMarketRange(r.Slots.Platform), Platform: r.Slots.Platform}
	if cp, ok, err := b.market(ctx).Cheapest(g.ID, cur, fx, f); err == nil && ok {
		rt := advisor.RentalTotal(cp.Low, rent.Cards, rent.Hours)
		rent.Price = &PriceRef{Platform: cp.Platform, Price: cp.Low, Currency: string(cp.Currency), Unit: "card_hour", ObservedAt: cp.ObservedAt}
		rent.Total, rent.Currency, rent.Lines = rt.Total, string(cp.Currency), rt.Lines
	}
	view.Rental = rent
	fa.Result = view
	fa.Intent = parse.Fit
	d := fa.Doc
	d.Headline = strings.TrimSuffix(d.Headline, "。") + rentalText(fa.Lang, *rent, view.Verdict.Fits)
	fa.show(d)
	fa.verdictAsked = true
	fa.use("hours", "the rented cards' hours: the fallback's cost")
	fa.use("gpus", "your cards, then the card rented if not")
	return fa, true
}
