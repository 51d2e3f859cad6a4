package bot

import (
	"context"
	"regexp"
	"strings"

	"github.com/gpubot/gpubot/bot/parse"
)

// Fit, then speed: "Llama-3.1-70B 4-bit on 2x RTX 4090: will it fit, and
// what tok/s?", "三张3090能不能跑70b 4bit推理？速度大概多少". Whether their
// cards hold the model is the yes/no asked first; the serving speed on
// those cards follows when they do. When they do not, the speed is not
// worked (there is nothing to run) and the answer says so.

// reFitWords ask whether a model fits or runs on the cards named.
var reFitWords = regexp.MustCompile(`\bfits?\b|塞得下|塞下|放得下|放下|装得下|能不能跑|能跑吗|能跑起来|跑得动|跑得起来|能不能放|\bsplit (?:a|it|the)\b|\bwill it run\b|\bcan (?:i|we|it) run\b`)

// fitAndSpeed reports whether a serving-speed question also asks, yes or
// no, whether its model fits on the cards it names (and nothing of a load:
// a load's own verdict is the fleet's, fleet.go).
func fitAndSpeed(req parse.Request) bool {
	s := req.Slots
	if req.Intent != parse.Cost || !s.YesNo || s.Method != "inference" || len(s.GPUs) != 1 {
		return false
	}
	if s.RequestsPerS > 0 || s.PeakRequestsPerS > 0 || s.TokensPerDay > 0 || s.UsersPerDay > 0 || s.Budget != nil {
		return false
	}
	if s.TTFTMs > 0 || s.TPSPerUser > 0 || !has(s.Targets, "tokens_per_s") {
		return false // a target to meet is the fleet's verdict (fleet.go); no speed asked, no speed answered
	}
	return reFitWords.MatchString(strings.ToLower(req.Text))
}

// fitFirst sizes the model on the user's cards. It returns the fit
// answer, and whether the cards hold it; ok is false when the fit could
// not be worked (the speed answer then stands alone).
func (b *Bot) fitFirst(ctx context.Context, a Answer, req parse.Request) (fit Answer, holds, ok bool) {
	fr := req
	fr.Intent = parse.Fit
	fr.Slots.Missing = nil
	fit = a
	fit.Intent = parse.Fit
	fit.Assumed = map[string]any{}
	if err := b.fit(ctx, &fit, fr); err != nil {
		return a, false, false
	}
	view, isFit := fit.Result.(FitResult)
	if !isFit || view.Verdict == nil {
		return a, false, false
	}
	fit.verdictAsked = true
	return fit, view.Verdict.Fits, true
}

// leadWithFit puts the fit's yes before the speed worked on the same
// cards: its verdict line first, then the speed's headline; the typed
// answer leads with the memory needed, the speed's figures after it.
func (a *Answer) leadWithFit(fit Answer) {
	view := fit.Result.(FitResult)
	d := a.Doc
	d.Headline = strings.TrimSuffix(fit.Doc.Headline, "。") + tr(a.Lang, ". ", "。") + d.Headline
	a.show(d)
	if a.Typed == nil || a.Err != "" {
		return
	}
	lead := Typed{Asked: "memory_gb", Value: val(view.MemoryGB), Unit: "GB", Verdict: verdict(true)}
	rest := append([]Typed{*a.Typed}, a.Typed.Also...)
	for i := range rest {
		rest[i].Verdict = nil
		rest[i].Also = nil
	}
	lead.Also = rest
	a.Typed = &lead
}

// speedNotWorked says why a speed asked with a fit that failed is not
// given: nothing runs on cards that cannot hold it.
func speedNotWorked(lang string) string {
	return tr(lang, "Speed not estimated: the model does not fit on these cards, so nothing runs on them.",
		"速度没有估算：这些卡放不下模型，跑不起来。")
}
