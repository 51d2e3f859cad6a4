package bot

import (
	"regexp"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
)

// The price of buying a card, asked as a price ("4060 Ti 16G 买一张多少钱",
// "新 4090 和二手 3090 哪个划算，预算 8000 块"): the sourced market price, new and
// used, against the budget when one is given — not the rental list.

// reBuyPriceAsk asks what a card costs to buy.
var reBuyPriceAsk = regexp.MustCompile(`买一张|买一块|买张|买块|买.{0,8}多少钱|购买价|购入价|售价|零售价|二手|全新|新卡|\bbuy (?:one|a|it)\b|to buy\b|purchase price|retail|street price|\bused\b|second-?hand`)

// reUsedBefore and reNewBefore mark the condition said before a card.
var (
	reUsedWord = regexp.MustCompile(`二手|\bused\b|second-?hand|refurb`)
	reNewWord  = regexp.MustCompile(`全新|新卡|新的?|\bnew\b|\bbrand-new\b`)
)

// PurchaseView answers a card's purchase price: each card asked, new and
// used where sourced, and the budget weighed against the one asked.
type PurchaseView struct {
	Quotes   []advisor.PurchaseQuote `json:"quotes"`
	Budget   *parse.Money            `json:"budget,omitempty"`
	Currency string                  `json:"currency"`
}

// purchasePriceAsked reports whether a price question asks what a card
// costs to buy, with no rental hours or rate to price.
func purchasePriceAsked(req parse.Request) bool {
	s := req.Slots
	return len(s.GPUs) > 0 && s.Hours == 0 && s.HoursPerMonth == 0 && s.Price == nil && s.Monthly == nil && s.Rent == nil &&
		reBuyPriceAsk.MatchString(strings.ToLower(req.Text))
}

// conditionOf is the condition said just before gpu's name in t ("二手
// 3090", "new 4090"); "" when none is.
func conditionOf(t string, name string, i int, all []string) string {
	at := strings.Index(t, name)
	if at < 0 {
		return ""
	}
	lo := 0
	if i > 0 {
		if prev := strings.Index(t, all[i-1]); prev >= 0 && prev < at {
			lo = prev + len(all[i-1])
		}
	}
	before := t[lo:at]
	switch {
	case reUsedWord.MatchString(before):
		return "used"
	case reNewWord.MatchString(before):
		return "new"
	}
	return ""
}

// purchasePrice answers a card's purchase price (knowledge's sourced
// purchase rows through advisor.MarketPurchase).
func (b *Bot) purchasePrice(a *Answer, req parse.Request) (bool, error) {
	s := req.Slots
	cur := b.currency(req)
	fx := b.fx(s)
	t := strings.ToLower(req.Text)
	var names []string
	for _, g := range s.GPUs {
		names = append(names, strings.TrimPrefix(strings.TrimPrefix(g, "rtx"), "h100-"))
	}
	view := PurchaseView{Budget: s.Budget, Currency: string(cur)}
	for i, g := range s.GPUs {
		conds := []string{"new", "used"}
		if c := conditionOf(t, names[i], i, names); c != "" {
			conds = []string{c}
		}
		for _, c := range conds {
			if q, ok := advisor.MarketPurchase(b.kb.Procurement.Purchases, g, c, false, cur, fx); ok {
				view.Quotes = append(view.Quotes, q)
			}
		}
	}
	if len(view.Quotes) == 0 {
		return false, nil
	}
	a.Result = view
	a.Currency = string(cur)
	a.use("gpus", "the cards priced to buy")
	if s.Budget != nil {
		a.use("budget", "what the card may cost")
	}
	a.show(renderPurchase(a.Lang, view, b.fx(s)))
	return true, nil
}
