package bot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/bot/parse"
)

// The user's own fleet: "Is 16x H100 enough for Llama-3.3-70B at 200 rps?",
// "8卡H20 接得住吗". The count is what they have, not the size of one
// replica: the plan is sized for the load alone, and the verdict compares
// what it needs with what they have.

// haveCards is the card count a serving question says the user has and
// asks about (yes/no), or 0.
func haveCards(req parse.Request) int {
	s := req.Slots
	if !s.YesNo || s.Cards <= 0 || req.Intent != parse.Cost {
		return 0
	}
	if s.Method != "" && s.Method != "inference" {
		return 0
	}
	if s.RequestsPerS > 0 || s.PeakRequestsPerS > 0 || s.TokensPerDay > 0 || s.TPSPerUser > 0 || s.TTFTMs > 0 || s.Concurrency > 1 {
		return s.Cards
	}
	return 0
}

// fleetVerdict says whether the cards the user has hold the load: yes when
// the plan needs no more than they have. It leads the headline.
func (a *Answer) fleetVerdict(have int) {
	if a.Err != "" || a.Typed == nil {
		return
	}
	need := -1
	for _, t := range append([]Typed{*a.Typed}, a.Typed.Also...) {
		if t.Asked == "cards" && t.Value != nil {
			need = int(*t.Value)
		}
	}
	if need < 0 {
		return
	}
	yes := need <= have
	a.Typed.Verdict = verdict(yes)
	lead := tr(a.Lang,
		fmt.Sprintf("No — %d cards are not enough: the plan needs %d (%d more)", have, need, need-have),
		fmt.Sprintf("不够：%d 张卡撑不住，需要 %d 张（还差 %d 张）", have, need, need-have))
	if yes {
		lead = tr(a.Lang, fmt.Sprintf("Yes — your %d cards are enough (the plan needs %d)", have, need), fmt.Sprintf("够：你的 %d 张卡足以承载（需要 %d 张）", have, need))
	}
	d := a.Doc
	head := d.Headline
	// the plan's own "Yes:"/"No:" was about the targets, not the fleet
	for _, p := range []string{"Yes: ", "No: ", "可以：", "不行：", "能：", "不能："} {
		head = strings.TrimPrefix(head, p)
	}
	d.Headline = lead + tr(a.Lang, ". ", "。") + head
	a.show(d)
}

// cardAsked is the one card a serving yes/no names without a count ("L20够
// 用吗？要几张？"): whether that card can carry the load at all; "" when
// the question is not that.
func cardAsked(req parse.Request) string {
	s := req.Slots
	if !s.YesNo || s.Cards > 0 || len(s.GPUs) != 1 || req.Intent != parse.Cost || s.Method != "inference" {
		return ""
	}
	if s.RequestsPerS > 0 || s.PeakRequestsPerS > 0 || s.TokensPerDay > 0 {
		return s.GPUs[0]
	}
	return ""
}

// cardVerdict answers "is this card enough?" for a load: yes, with as
// many of it as the plan needs (the plan sized on it is the proof).
func (a *Answer) cardVerdict(gpu string) {
	if a.Err != "" || a.Typed == nil || a.Typed.Verdict != nil {
		return
	}
	need := -1
	for _, t := range append([]Typed{*a.Typed}, a.Typed.Also...) {
		if t.Asked == "cards" && t.Value != nil {
			need = int(*t.Value)
		}
	}
	if need <= 0 {
		return
	}
	a.Typed.Verdict = verdict(true)
	d := a.Doc
	d.Headline = tr(a.Lang, fmt.Sprintf("Yes — %s can carry it, with %d cards. ", gpuName(gpu), need),
		fmt.Sprintf("够用：%s 可以承载，需要 %d 张。", gpuName(gpu), need)) + d.Headline
	a.show(d)
}

// budgetVerdict leads with the yes/no a budget decided (typed read it from
// the job's money), unless the headline already says it.
func (a *Answer) budgetVerdict() {
	if a.overBudget == nil || a.Err != "" || a.Typed == nil || a.Typed.Verdict == nil {
		return
	}
	head := a.Doc.Headline
	for _, p := range []string{"Yes", "No", "够", "不够", "可以", "不行", "能", "不能", "超"} {
		if strings.HasPrefix(head, p) {
			return
		}
	}
	fig, _ := strconv.ParseFloat(a.overBudget[0], 64)
	budget, _ := strconv.ParseFloat(a.overBudget[1], 64)
	cur := a.overBudget[2]
	lead := tr(a.Lang, fmt.Sprintf("Yes — ≈%s, within your %s budget. ", moneyStr(fig, cur), moneyStr(budget, cur)),
		fmt.Sprintf("够：约 %s，在 %s 预算之内。", moneyStr(fig, cur), moneyStr(budget, cur)))
	overAsked := a.overBudget[3] == "over"
	switch {
	case fig > budget && overAsked:
		lead = tr(a.Lang, fmt.Sprintf("Yes, over — ≈%s, over your %s budget by %s. ", moneyStr(fig, cur), moneyStr(budget, cur), moneyStr(fig-budget, cur)),
			fmt.Sprintf("会超：约 %s，超出 %s 预算 %s。", moneyStr(fig, cur), moneyStr(budget, cur), moneyStr(fig-budget, cur)))
	case fig > budget:
		lead = tr(a.Lang, fmt.Sprintf("No — ≈%s, over your %s budget by %s. ", moneyStr(fig, cur), moneyStr(budget, cur), moneyStr(fig-budget, cur)),
			fmt.Sprintf("不够：约 %s，超出 %s 预算 %s。", moneyStr(fig, cur), moneyStr(budget, cur), moneyStr(fig-budget, cur)))
	case overAsked:
		lead = tr(a.Lang, fmt.Sprintf("No, not over — ≈%s, within your %s budget. ", moneyStr(fig, cur), moneyStr(budget, cur)),
			fmt.Sprintf("不会超：约 %s，在 %s 预算之内。", moneyStr(fig, cur), moneyStr(budget, cur)))
	}
	d := a.Doc
	d.Headline = lead + head
	a.show(d)
	a.usedAfterAccount("budget", "the yes/no: the money against it")
}

// usedAfterAccount marks a slot used by a step that runs after the
// accounting (a verdict added to the headline): used, no longer ignored.
func (a *Answer) usedAfterAccount(k, how string) {
	a.use(k, how)
	if a.Used != nil {
		a.Used[k] = how
	}
	if _, ok := a.Ignored[k]; !ok {
		return
	}
	delete(a.Ignored, k)
	// the "Not used" line was written with it: write it again without
	d := a.Doc
	d.Summary = slices.DeleteFunc(append([]string(nil), d.Summary...), func(l string) bool {
		return strings.HasPrefix(l, "Not used: ") || strings.HasPrefix(l, "未使用：")
	})
	a.show(d)
	if len(a.Ignored) > 0 {
		a.sayIgnored()
	}
}
