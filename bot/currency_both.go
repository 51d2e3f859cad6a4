package bot

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// reBothCurrencies asks for an amount in dollars and in yuan at once:
// "monthly cost in USD and in CNY", "美元和人民币各多少".
var reBothCurrencies = regexp.MustCompile(`(?:usd|dollars?|美元|美金|\$)\s?(?:and|&|和|与|跟|以及|/)\s?(?:in\s)?(?:cny|rmb|yuan|renminbi|人民币|¥)|(?:cny|rmb|yuan|renminbi|人民币)\s?(?:and|&|和|与|跟|以及|/)\s?(?:in\s)?(?:usd|dollars?|美元|美金)`)

// inBothCurrencies adds the headline figure in the other currency when the
// question asks for both ("what's the monthly cost in USD and in CNY?"),
// at the rate the answer uses.
func (b *Bot) inBothCurrencies(a *Answer, req parse.Request) {
	if a.Err != "" || a.Typed == nil || a.Typed.Value == nil || !reBothCurrencies.MatchString(strings.ToLower(req.Text)) {
		return
	}
	from := knowledge.Currency(a.Typed.Currency)
	to := knowledge.CNY
	switch from {
	case knowledge.CNY:
		to = knowledge.USD
	case knowledge.USD:
	default:
		return
	}
	fx := b.fx(req.Slots)
	v := advisor.Convert(*a.Typed.Value, from, to, fx)
	d := a.Doc
	other := tr(a.Lang, fmt.Sprintf(" (≈ %s at %s CNY per USD)", moneyStr(v, string(to)), trimNum(fx)),
		fmt.Sprintf("（约 %s，按 1 美元 = %s 元）", moneyStr(v, string(to)), trimNum(fx)))
	// beside the figure it converts, else at the headline's end
	if fig := moneyStr(*a.Typed.Value, string(from)); strings.Contains(d.Headline, fig) {
		d.Headline = strings.Replace(d.Headline, fig, fig+other, 1)
	} else {
		d.Headline = strings.TrimRight(d.Headline, " ") + other
	}
	a.show(d)
	a.use("currency", "both currencies: the headline's figure converted")
}
