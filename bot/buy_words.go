package bot

import (
	"regexp"
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

// ownPCWords say a card goes in the user's own computer, not a rack.
var ownPCWords = []string{"自己买", "自己用", "自用", "个人用", "我自己", "自己的电脑", "我的电脑", "家里", "在家", "台式机", "自己电脑", "my own", "my pc", "my desktop", "my computer", "my rig", "at home", "home pc", "home server", "personal use", "for myself", "gaming pc"}

// hostingWords name a hosting fee (colo, 托管): a running cost that
// includes the power and space it delivers.
var hostingWords = []string{"colo", "co-lo", "colocation", "co-location", "hosting", "hosted", "托管", "机柜", "rack space", "rack fee"}

// purchaseWords say a purchase is weighed, so a term word ("3-yr
// depreciation") does not make it a commitment question.
var purchaseWords = []string{"buy", "purchase", "bought", "depreciat", "买", "购", "折旧", "自建"}

// Questions a buy answer can lead with.
var (
	reAsksBreakevenUtil = regexp.MustCompile(`break[- ]?even utili[sz]ation|(?:what|which|minimum|how much) utili[sz]ation|utili[sz]ation (?:do|would|does) (?:i|we|it) need|盈亏平衡利用率|打平利用率|(?:多高|多少|最低|至少).{0,4}利用率|利用率.{0,6}(?:才|至少)`)
	reAsksPayback       = regexp.MustCompile(`回本|回收成本|payback|pay back|pays back|paid back|break[- ]?even|recoup|pay for itself|pays for itself|how many months|how long until|几个月|多少个月`)
	reAsksCheaper       = regexp.MustCompile(`cheaper|less expensive|costs? less|哪个(?:更)?(?:便宜|划算|省)|哪种(?:更)?(?:便宜|划算|省)|更便宜|更划算|更省钱|便宜多少|省多少`)
)

// buyAsked is the figure a buy question asks for first: the break-even
// utilisation, the payback months, or which of owning and renting is
// cheaper a year ("which"); "" when it asks none of them.
func buyAsked(text string) string {
	t := strings.ToLower(text)
	switch {
	case reAsksBreakevenUtil.MatchString(t):
		return "break_even_util"
	case reAsksPayback.MatchString(t):
		return "payback_months"
	case reAsksCheaper.MatchString(t):
		return "which"
	}
	return ""
}
