package bot

import (
	"regexp"
	"slices"
	"strings"

	"github.com/gpubot/gpubot/bot/parse"
)

var (
	// an alert is asked for: "alert me at 180% of the budget", "预算用到120%
	// 时提醒我", "warn us when orion passes 150% of budget"
	// ("预算用了80%了，提醒一下老板" asks nothing of the bot: 提醒 alone is not one)
	reAlertAsked = regexp.MustCompile(`(?i)\balerts?\b|\bnotify (?:me|us)\b|\bwarn (?:me|us)\b|\bping (?:me|us)\b|\blet (?:me|us) know\b|提醒我|时提醒|就提醒|告警|预警|通知我`)
	// each threshold said: "180%", "80 %", "百分之一百二" is not read (say
	// digits); "0%" and "2000%" are read so the budget command can refuse
	// them with the accepted form
	reAlertPct = regexp.MustCompile(`(\d+(?:\.\d+)?)\s?[%％]|百分之\s?(\d+(?:\.\d+)?)`)
)

// alertInWords reads alert thresholds on a budget said in words — "alert
// me at 180% of the budget", "预算用到120%时提醒我", "set orion budget to
// ¥80,000 per month with alerts at 80% and 120%" — as /gpu budget set
// arguments with every threshold said (alerts=80,120). A share above 100 %
// is an over-spend alert, not a utilisation: the parser's "utilisation
// must be between 0 and 100%" does not apply. With an amount and a budget
// change the budget is set with them (the planner's budgetInWords reads
// the amount); without one the thresholds go on the budget that exists.
func alertInWords(req parse.Request) ([]string, bool) {
	s := req.Slots
	t := strings.ToLower(parse.Clean(req.Text))
	if s.ParamsB > 0 || s.Model != "" || s.Arch != "" || len(s.GPUs) > 0 || !reBudgetAsk.MatchString(t) || !reAlertAsked.MatchString(t) {
		return nil, false // a card's budget alert is cardBudgetInWords'
	}
	var pcts []string
	for _, m := range reAlertPct.FindAllStringSubmatch(t, -1) {
		p := m[1] + m[2]
		if !slices.Contains(pcts, p) {
			pcts = append(pcts, p)
		}
	}
	if len(pcts) == 0 {
		return nil, false
	}
	alerts := "alerts=" + strings.Join(pcts, ",")
	if in, args, ok := budgetInWords(req); ok && in == parse.Budget && len(args) > 1 && args[0] == "set" && !strings.HasPrefix(args[len(args)-1], "alerts=") {
		// a budget set with its alerts: the planner's amount and scope,
		// every threshold said
		args = slices.DeleteFunc(slices.Clone(args), func(a string) bool { return strings.HasPrefix(a, "alerts=") })
		return append(args[:len(args)-1:len(args)-1], alerts, args[len(args)-1]), true
	}
	args := []string{"set"}
	switch {
	case s.Project != "" && !reNotProject.MatchString(s.Project):
		args = append(args, "project="+s.Project)
	case s.Team != "":
		args = append(args, "team="+s.Team)
	}
	return append(args, alerts), true
}
