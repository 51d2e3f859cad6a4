package bot

import (
	"strings"

	"github.com/gpubot/gpubot/bot/present"
)

// renderKnowledge answers with the best guide note: its title as the
// headline, its body, and the other notes and sources in the working.
func renderKnowledge(lang string, res KnowledgeResult, srcs []string) present.Doc {
	var d present.Doc
	var wk working
	for i, h := range res.Items {
		if i == 0 {
			d.Headline, d.Body = h.Title, []string{h.Body}
			if res.Answer != "" { // a yes/no question: the verdict first
				d.Headline, d.Body = res.Answer, []string{h.Title + tr(lang, ": ", "：") + h.Body}
			}
			continue
		}
		wk.strings(present.StepNote, h.Title+": "+h.Body)
	}
	wk.strings(present.StepSource, srcs...)
	wk.strings(present.StepNote, tr(lang, "Prices in the guide notes are dated ranges: confirm on the platform.", "指南中的价格为带日期的区间，请到平台确认。"))
	if len(res.Items) > 1 {
		d.Next = tr(lang, "one more note on this: press “Show working”", "还有一条相关说明：点“计算过程”查看")
	}
	if len(res.Related) > 0 {
		// Two related titles the user can ask about next.
		d.Next = tr(lang, "related: ", "相关：") + strings.Join(res.Related, tr(lang, "; ", "；"))
	}
	d.Summary = nil
	// Source ids are for the working, not the channel.
	d.Body = append(d.Body, tr(lang, "From the guide notes; prices in them are dated ranges.", "摘自指南；其中价格为带日期的区间。"))
	d.Working = wk
	return d
}
