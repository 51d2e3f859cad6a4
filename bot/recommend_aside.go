package bot

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
)

// asideShown is how many set-aside prices one line names.
const asideShown = 3

// asideLines are a ranking's set-aside prices (advisor Ranking.Aside), one
// short line per reason: market-wide ranges, which no platform rents at,
// and spot capacity, which does not serve traffic unless asked for.
func asideLines(lang string, rk advisor.Ranking) []string {
	var ranges, spot []string
	for _, r := range rk.Aside {
		if isSupplyAside(r) {
			continue // said by supplyLines
		}
		p := moneyStr(r.Price, string(r.Currency))
		if r.PriceHigh > 0 {
			p += "–" + fmtNum(r.PriceHigh)
		}
		if advisor.IsMarketRange(r.Platform) {
			ranges = appendOnce(ranges, r.Name+" "+p+tr(lang, "/card-h", "/卡时"))
		} else {
			spot = appendOnce(spot, r.Name+" @ "+platformName(lang, r.Platform)+" "+p+tr(lang, "/card-h", "/卡时"))
		}
	}
	var out []string
	if len(ranges) > 0 {
		out = append(out, tr(lang, "Market range, not a place to rent: ", "市场区间，不是可租的报价：")+shortJoin(lang, ranges))
	}
	if len(spot) > 0 {
		out = append(out, tr(lang, "Spot, not used for serving unless you add spot: ", "竞价实例，未加 spot 时不用于推理服务：")+shortJoin(lang, spot))
	}
	out = append(out, supplyLines(lang, rk)...)
	return out
}

// shortJoin names the first asideShown items and counts the rest.
func shortJoin(lang string, items []string) string {
	if len(items) <= asideShown {
		return strings.Join(items, tr(lang, "; ", "；"))
	}
	return strings.Join(items[:asideShown], tr(lang, "; ", "；")) + tr(lang, "; …and ", "；……另有 ") + fmtNum(float64(len(items)-asideShown)) + tr(lang, " more", " 条")
}

// isSupplyAside reports a row rankSupplied set aside: an offer with its
// reason that cannot serve the plan (not a range, not spot).
func isSupplyAside(r advisor.Ranked) bool {
	return r.Note.EN != "" && !r.Interruptible && !advisor.IsMarketRange(r.Platform) && r.Rank > 0
}

// supplyLines are the offers set aside as unable to serve the plan, one
// line per reason, in the order met.
func supplyLines(lang string, rk advisor.Ranking) []string {
	var order []string
	by := map[string][]string{}
	for _, r := range rk.Aside {
		if !isSupplyAside(r) {
			continue
		}
		why := r.Note.In(lang)
		if _, ok := by[why]; !ok {
			order = append(order, why)
		}
		by[why] = appendOnce(by[why], fmt.Sprintf("%s @ %s ×%d %s%s", r.Name, platformName(lang, r.Platform), r.Cards, moneyStr(r.Price, string(r.Currency)), tr(lang, "/card-h", "/卡时")))
	}
	out := make([]string, 0, len(order))
	for _, why := range order {
		out = append(out, tr(lang, "Set aside, ", "未参与排名，")+why+tr(lang, ": ", "：")+shortJoin(lang, by[why]))
	}
	return out
}
