package bot

import (
	"math"
	"strings"

	"github.com/gpubot/gpubot/bot/present"
)

// askedLabels name the figures a question asks for, for a headline that
// answers around the asked one ("多久回本" answered with the break-even
// utilisation first, "what TTFT" with the cost per million tokens): the
// asked figure is put first, named.
var askedLabels = map[string][2]string{
	"ttft_ms": {"First token (TTFT)", "首 token 延迟"}, "payback_months": {"Payback", "回本"},
	"break_even_util": {"Break-even utilisation", "打平利用率"}, "break_even_hours": {"Break-even", "打平"},
	"tokens_per_s": {"Speed", "速度"}, "concurrency": {"Concurrency", "并发"}, "cards": {"Cards", "卡数"},
	"memory_gb": {"Memory", "显存"}, "hours": {"Time", "耗时"}, "money_total": {"Total", "合计"},
	"money_monthly": {"A month", "每月"}, "price_per_card_hour": {"Price", "价格"},
	"money_per_m_tokens": {"Per million tokens", "每百万 token"}, "images_per_hour": {"Images an hour", "每小时出图"},
	"money_per_image": {"Per image", "每张图"}, "gpu_hours": {"Card-hours", "卡时"}, "saving": {"Saving", "节省"},
}

// askedText writes a typed figure as a headline would.
func askedText(lang string, t Typed) string {
	v := *t.Value
	if t.Currency != "" {
		s := moneyStr(v, t.Currency)
		switch t.Unit {
		case "card_hour":
			return s + tr(lang, "/card-hour", "/卡时")
		case "month", "card_month":
			return s + tr(lang, " a month", "/月")
		case "year":
			return s + tr(lang, " a year", "/年")
		}
		return s
	}
	switch t.Unit {
	case "ms":
		return "≈" + fmtNum(math.Round(v)) + " ms"
	case "months":
		return fmtNum(v) + tr(lang, " months", " 个月")
	case "share":
		return present.Pct(v)
	case "h":
		return fmtNum(v) + tr(lang, " h", " 小时")
	case "cards":
		return fmtNum(v) + tr(lang, " cards", " 张")
	case "GB", "GPU-h", "tok/s":
		return fmtNum(v) + " " + t.Unit
	}
	return fmtNum(v)
}

// leadWithAsked puts the asked figure first when the headline does not
// state it: the first line answers what was asked. A verdict-led answer,
// an error or a list keeps its own first line.
func (a *Answer) leadWithAsked() {
	if a.Err != "" || a.Typed == nil || a.Typed.Value == nil || a.Typed.Verdict != nil || a.Doc.Headline == "" {
		return
	}
	t := *a.Typed
	label, ok := askedLabels[t.Asked]
	if !ok {
		return
	}
	head := a.Doc.Headline
	v := *t.Value
	for _, s := range []string{fmtNum(v), fmtNum(math.Round(v)), moneyStr(v, t.Currency), present.Pct(v), fmtNum(math.Round(v*10) / 10)} {
		if s != "" && strings.Contains(head, s) && (t.Unit != "share" || strings.Contains(s, "%")) {
			return // already said
		}
	}
	d := a.Doc
	d.Headline = tr(a.Lang, label[0]+": "+askedText(a.Lang, t)+". ", label[1]+"："+askedText(a.Lang, t)+"。") + head
	a.show(d)
}
