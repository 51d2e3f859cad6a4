package bot

import (
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
)

// Words that say how a purchase is priced. They are read from the message
// here because they change only the buy answer.
var (
	usedWords    = []string{"二手", "used", "second-hand", "secondhand", "refurb", "翻新"}
	serverWords  = []string{"服务器", "整机", "server", "一台", "machine", "node", "hgx", "dgx"}
	perCardWords = []string{"每张", "每卡", "一张", "单卡", "per card", "each", "/card", "a card"}
)

func hasAny(text string, words []string) bool {
	t := strings.ToLower(text)
	for _, w := range words {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// readPurchase sets the condition (new or used), whether a whole server is
// asked about (8 cards when no count is given), and whether a quoted price
// with cards= is per card rather than the machine's total.
func readPurchase(in *advisor.BuyInput, text string) {
	if hasAny(text, usedWords) {
		in.Condition = "used"
	}
	if hasAny(text, serverWords) {
		in.Server = true
		if in.Cards == 0 {
			in.Cards = 8
		}
	}
	if in.Purchase.Given() && in.Cards > 1 && perCardSaid(strings.ToLower(text)) {
		in.PerCardQuote = true
	}
}

// perCardSaid reports whether a price is said per card ("4090D一张1.45万",
// "$30k each"), not only a card-hour rate beside it ("按需每卡时15",
// "per card-hour"), which says nothing of how the purchase quote is meant.
func perCardSaid(t string) bool {
	for _, w := range perCardWords {
		for i := 0; ; {
			j := strings.Index(t[i:], w)
			if j < 0 {
				break
			}
			if !parse.CardHourNext(t[i+j+len(w):]) {
				return true
			}
			i += j + len(w)
		}
	}
	return false
}

// worthBuyingWords turn a price question into a buy question: "二手3090多少钱
// 值得买吗" asks the price and whether buying pays, and the buy answer
// gives both (the market price is its first assumption).
var worthBuyingWords = []string{"值得买", "值不值得买", "回本", "worth buying", "worth it to buy", "pay back", "pays back", "payback", "pay for itself", "pays for itself", "recoup"}

func asksWorthBuying(text string) bool { return hasAny(text, worthBuyingWords) }
