package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// renderPurchase writes a card's purchase price: each card and condition
// with its range and date, the budget's verdict first when one is given.
func renderPurchase(lang string, v PurchaseView, fx float64) present.Doc {
	var d present.Doc
	var parts []string
	for _, q := range v.Quotes {
		cond := tr(lang, "new", "新卡")
		if q.Condition == "used" {
			cond = tr(lang, "used", "二手")
		}
		fig := moneyStr(q.Low, string(q.Currency))
		if q.High > q.Low {
			fig += "–" + moneyStr(q.High, string(q.Currency))
		}
		parts = append(parts, tr(lang, fmt.Sprintf("%s %s %s (%s)", gpuName(q.GPU), cond, fig, q.Newest),
			fmt.Sprintf("%s %s %s（%s）", cond, gpuName(q.GPU), fig, q.Newest)))
	}
	head := tr(lang, "To buy, one card: ", "买一张的市场价：") + strings.Join(parts, tr(lang, "; ", "；"))
	if b := v.Budget; b != nil && b.Amount > 0 {
		budget := b.Amount
		if bc := knowledge.Currency(b.Currency); bc != "" && bc != knowledge.Currency(v.Currency) {
			budget = advisor.Convert(budget, bc, knowledge.Currency(v.Currency), fx)
		}
		var within, over []string
		for _, q := range v.Quotes {
			name := gpuName(q.GPU)
			if q.Condition == "used" {
				name = tr(lang, "used ", "二手 ") + name
			}
			if q.Low <= budget {
				within = append(within, name)
			} else {
				over = append(over, name)
			}
		}
		verdict := ""
		switch {
		case len(over) == 0:
			verdict = tr(lang, "All within your "+moneyStr(budget, v.Currency)+" budget. ", "都在 "+moneyStr(budget, v.Currency)+" 预算之内。")
		case len(within) == 0:
			verdict = tr(lang, "None fits your "+moneyStr(budget, v.Currency)+" budget. ", "都超出 "+moneyStr(budget, v.Currency)+" 预算。")
		default:
			verdict = tr(lang, fmt.Sprintf("Within your %s budget: %s; over it: %s. ", moneyStr(budget, v.Currency), strings.Join(within, ", "), strings.Join(over, ", ")),
				fmt.Sprintf("%s 预算之内：%s；超预算：%s。", moneyStr(budget, v.Currency), strings.Join(within, "、"), strings.Join(over, "、")))
		}
		head = verdict + head
	}
	d.Headline = head
	for _, q := range v.Quotes {
		for _, r := range q.Rows {
			d.Summary = append(d.Summary, fmt.Sprintf("• %s — %s (%s, %s, %s)", gpuName(q.GPU), r.Figure, r.Item, r.Date, r.Confidence))
		}
	}
	d.Next = tr(lang, "Buy or rent for your hours? /gpu buy "+v.Quotes[0].GPU+" util=50%", "买还是租？/gpu buy "+v.Quotes[0].GPU+" util=50%")
	return d
}
