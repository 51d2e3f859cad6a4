package parse

import (
	"regexp"
	"strings"
	"time"
)

// Watch is /gpu watch …, a price watch (issue 17). Slots.Mode is "below"
// (tell me when the cheapest price first goes under Slots.Amount), "low"
// (tell me on every new low), "list" or "off" (Slots.Args: an id or "all");
// Slots.GPUs and Slots.Platform say what to watch.
const Watch Intent = "watch"

// watchExample is shown when a watch command cannot be read.
const watchExample = "/gpu watch h100 < $2/h · /gpu watch 4090 @autodl 降价 · /gpu watch list · /gpu watch off 3"

// reWatchBelow finds the threshold: an operator then a price ("< $2/h",
// "below 1.5 usd", "低于2元", "≤ ¥1.8").
var reWatchBelow = regexp.MustCompile(`(?:<=?|≤|＜|below|under|低于|小于|不到|跌破)\s*([$¥￥]?\s*\d[\d.,]*\s*(?:usd|cny|rmb|元|块|美元|dollars?)?(?:\s*/\s*(?:h|hr|hour|小时|时|卡时))?)`)

// reWatchLow finds "tell me when it drops" without a figure.
var reWatchLow = regexp.MustCompile(`降价|新低|便宜了|drops?|new low|cheaper|lower`)

// watch reads a /gpu watch command's arguments.
func (p *Parser) watch(req Request, args string, now time.Time) Request {
	req.Intent = Watch
	w, rest := firstWord(args)
	if mode, ok := p.sub[Watch][w]; ok {
		req.Slots.Mode = mode
		req.Slots.Args = strings.Fields(rest)
		req.Lang = langOf(args, true)
		if hasHan(w) {
			req.Lang = "zh"
		}
		return req
	}
	f := p.x.extract(args, true, now)
	req.Lang = f.lang
	s := f.finish(Price) // card and platform, read as a price question reads them
	req.Slots.GPUs, req.Slots.Platform = s.GPUs, s.Platform
	req.Slots.Args = strings.Fields(args)
	lower := strings.ToLower(args)
	switch m := reWatchBelow.FindStringSubmatch(lower); {
	case m != nil:
		money, ok := ParseMoney(strings.ReplaceAll(m[1], " ", ""))
		if !ok || money.Amount <= 0 {
			req.Problems = append(req.Problems, Problem{Field: "threshold", Reason: "could not read the price in \"" + m[0] + "\"", Hint: watchExample})
			break
		}
		req.Slots.Mode, req.Slots.Amount = "below", &money
	case reWatchLow.MatchString(lower):
		req.Slots.Mode = "low"
	default:
		req.Problems = append(req.Problems, Problem{Field: "threshold",
			Reason: "say when to tell you: a price (\"< $2/h\") or \"降价\" / \"drop\" for every new low", Hint: watchExample})
	}
	if len(req.Slots.GPUs) == 0 {
		req.Problems = append(req.Problems, Problem{Field: "gpu", Reason: "name the card to watch", Hint: watchExample})
	}
	return req
}
