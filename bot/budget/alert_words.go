package budget

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/present"
)

// alertHint is the accepted form of alert thresholds, in words and as a
// command.
const (
	alertHint   = "alert me at 80% and 150% of the budget · /gpu budget set atlas ¥80k/month alerts=80,100,150"
	alertHintZH = "预算用到80%和150%时提醒我 · /gpu budget set atlas ¥80k/month alerts=80,100,150"
)

// alertsError says why thresholds were refused, naming the one that is
// not a whole percentage from 1 to 1000 ("0%", "2000%", "92.5%").
func alertsError(lang, v string, err error) error {
	bad := v
	for _, p := range strings.Split(strings.TrimSuffix(strings.TrimSpace(v), "%"), ",") {
		p = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(p), "%"))
		if n, e := strconv.Atoi(p); e != nil || n < 1 || n > 1000 {
			bad = p
			break
		}
	}
	return &advisor.InputError{Field: "alerts",
		Reason: present.Tr(lang,
			fmt.Sprintf("%s%% is not an alert threshold: thresholds are whole percentages of the budget from 1 to 1000 (above 100 alerts on over-spend, e.g. 150)", bad),
			fmt.Sprintf("%s%% 不是可用的提醒阈值：阈值是预算的整数百分比，1 到 1000（超过 100 即超支提醒，例如 150）", bad)),
		Hint: present.Tr(lang, alertHint, alertHintZH)}
}

// onlyBudget is the budget "the budget" means when an alert names none:
// the team's, else the one budget there is. With none, or several and no
// team budget, the error says which to name.
func (h *Handler) onlyBudget(ctx context.Context, team, lang string) (string, error) {
	bs, err := h.alerts.st.List(ctx, team)
	if err != nil {
		return "", err
	}
	var names, namesZH []string
	for _, b := range bs {
		if b.Project == Team {
			return Team, nil
		}
		names, namesZH = append(names, name(b.Project, "en")), append(namesZH, name(b.Project, "zh"))
	}
	switch len(bs) {
	case 0:
		return Team, nil // setAlerts says there is no budget and how to set one
	case 1:
		return bs[0].Project, nil
	}
	return "", &advisor.InputError{Field: "budget",
		Reason: present.Tr(lang,
			fmt.Sprintf("there are %d budgets (%s) and no team budget: say which one the alert is for", len(bs), strings.Join(names, ", ")),
			fmt.Sprintf("有 %d 个预算（%s），没有整个团队的预算：请说明提醒加在哪个预算上", len(bs), strings.Join(namesZH, "、"))),
		Hint: "alert me when atlas hits 150% of its budget · /gpu budget set atlas alerts=80,150"}
}

// overAlertText spells out the thresholds above 100 %: an over-spend
// alert at 150 % of ¥80,000.00 fires at ¥120,000.00 spent, ¥40,000.00
// over.
func overAlertText(b Budget, lang string) string {
	var en, zh []string
	for _, t := range b.thresholds() {
		if t <= 100 {
			continue
		}
		at := b.AlertAt(t)
		over := ledger.Money{Minor: at.Minor - b.Amount.Minor, Currency: at.Currency}
		en = append(en, fmt.Sprintf("%d %% = %s spent, %s over", t, at, over))
		zh = append(zh, fmt.Sprintf("%d%% = 已花 %s，超出 %s", t, at, over))
	}
	if len(en) == 0 {
		return ""
	}
	return present.Tr(lang, "Above 100 % the alert is on over-spend: "+strings.Join(en, "; ")+".\n",
		"超过 100% 的是超支提醒："+strings.Join(zh, "；")+"。\n")
}

// AlertAt is the spend at which threshold t (%) of b is reached: the
// budget × t ÷ 100, rounded to the minor unit.
func (b Budget) AlertAt(t int) ledger.Money {
	return ledger.Money{Minor: (b.Amount.Minor*int64(t) + 50) / 100, Currency: b.Amount.Currency}
}
