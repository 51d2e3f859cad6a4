package watch

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

var tr = present.Tr

func money(v float64, cur string) string {
	sym := map[string]string{"USD": "$", "CNY": "¥"}[cur]
	if sym == "" {
		sym = cur + " "
	}
	return sym + strconv.FormatFloat(v, 'f', -1, 64)
}

// gpuName and platformName are the display names answers use
// (knowledge.Base.GPUName, PlatformNames): "Prime Intellect", not
// "primeintellect".
func gpuName(kb *knowledge.Base, id string) string { return kb.GPUName(id) }

func platformName(kb *knowledge.Base, id, lang string) string {
	en, zh := kb.PlatformNames(id)
	return tr(lang, en, zh)
}

// What says what a watch looks at: "H100 SXM on any platform under
// $2/card-hour".
func What(w Watch, kb *knowledge.Base) string {
	where := tr(w.Lang, "on any platform", "（所有平台）")
	if w.Platform != "" {
		where = tr(w.Lang, "on ", "（") + platformName(kb, w.Platform, w.Lang) + tr(w.Lang, "", "）")
	}
	what := gpuName(kb, w.GPU) + " " + where
	if w.Mode == Below {
		return what + tr(w.Lang, " under ", "，低于 ") + money(w.Threshold, w.Currency) + tr(w.Lang, "/card-hour", "/卡时")
	}
	return what + tr(w.Lang, ", every new low", "，每次创新低")
}

// Message is the notification for a crossing: the offer, its price, where
// it was read and how old it is.
func Message(w Watch, cp advisor.CardPrice, kb *knowledge.Base, now time.Time) string {
	o := knowledge.Offer{ObservedAt: cp.ObservedAt}
	fresh := o.FreshnessLabel(w.Lang, now)
	price := money(cp.Low, string(cp.Currency)) + tr(w.Lang, "/card-hour", "/卡时")
	head := tr(w.Lang, "Price watch #"+w.ID+": ", "价格提醒 #"+w.ID+"：")
	var what string
	if w.Mode == Below {
		what = tr(w.Lang,
			fmt.Sprintf("%s is now %s at %s, under your %s.", gpuName(kb, w.GPU), price, platformName(kb, cp.Platform, w.Lang), money(w.Threshold, w.Currency)),
			fmt.Sprintf("%s 现价 %s（%s），已低于你设的 %s。", gpuName(kb, w.GPU), price, platformName(kb, cp.Platform, w.Lang), money(w.Threshold, w.Currency)))
	} else {
		what = tr(w.Lang,
			fmt.Sprintf("new low for %s: %s at %s.", gpuName(kb, w.GPU), price, platformName(kb, cp.Platform, w.Lang)),
			fmt.Sprintf("%s 创新低：%s（%s）。", gpuName(kb, w.GPU), price, platformName(kb, cp.Platform, w.Lang)))
	}
	src := []string{cp.Original.String(), fresh}
	if cp.Source != "" {
		src = append(src, cp.Source)
	}
	return head + what + tr(w.Lang, " Offer: ", " 报价：") + strings.Join(src, "; ") +
		tr(w.Lang, ". Confirm on the platform. Stop with /gpu watch off "+w.ID, "。请到平台确认。取消：/gpu watch off "+w.ID)
}
