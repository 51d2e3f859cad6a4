package parse

import (
	"regexp"
	"strconv"
	"strings"
)

// Correction is a ledger correction written in words ("不对，金额是1800元",
// "actually it was 120 hours", "change #7k2m9q's platform to 火山引擎",
// "the vast.ai entry should be dated November not December, and the
// amount is $368.40"): which entry, and the field=value pairs that
// /gpu spend edit reads.
type Correction struct {
	// ID is the entry named by its id ("#7k2m9q" → "7k2m9q"), as typed;
	// "" when none was named.
	ID string `json:"id,omitempty"`
	// About describes the entry when no id was given: a platform, card or
	// project word ("the vast.ai entry", "AutoDL 那笔"); "" means the last
	// entry the asker wrote.
	About string `json:"about,omitempty"`
	// Fields are the new values, keyed by spend edit's field names:
	// amount ("¥1800", "$368.40"), hours, cards, platform, project, team,
	// gpu, date (2026-11-28) and month (1–12: the entry's day moved to that
	// month).
	Fields map[string]string `json:"fields"`
	// Old are the values the entry has now, said to find it: amount ("$320
	// 应该是$230", "是268不是286", "6.8万录反了，改成8.6万") and month (the
	// month the entry is in: "11月那笔", "不是4月", "not December"; 1–12,
	// or "last"/"this" for 上个月/本月). The entry corrected must have them.
	Old map[string]string `json:"old,omitempty"`
}

var (
	// a correction cue: without one a sentence is never read as an edit
	reCorrectCue = regexp.MustCompile(`(?i)不对|错了|搞错|写错|记错|弄错|更正|纠正|应该是|应为|其实是|实际是|实际上是|改成|改为|改一下|\bactually\b|\bshould (?:be|have been)\b|\bcorrection\b|\bwrong\b|\bi meant\b|\bchange\b|\bfix\b|\bnot\s+\w+\s*,?\s*but\b`)
	// words that make the sentence something else: a budget change, a new
	// entry, a sizing question
	// — or a question: a correction states, it never asks ("would a 1yr
	// reserve save us anything, should be cheaper right")
	reCorrectNot = regexp.MustCompile(`(?i)预算|budget|记一笔|记账|再记|spend add|/gpu|推荐|recommend|\b\d+(?:\.\d+)?\s?b\b|多少钱|how much|吗|[?？]|\bwould\b|\bcould\b|\bcan (?:we|i)\b|\bshould (?:we|i)\b|\bwhether\b|\bworth\b|\bcheaper\b|\bsave\b|\bsavings?\b|划算|便宜|能省|值不值|reserve|reserved|commit`)
	// "#7k2m9q", "#abc": an entry id
	reCorrectID = regexp.MustCompile(`#([0-9A-Za-z]{3,8})\b`)
	// what entry: "the vast.ai entry", "AutoDL 那笔", "runpod的那条"
	reAboutEN = regexp.MustCompile(`(?i)\bthe\s+([a-z0-9][a-z0-9_.\-]*)\s+(?:entry|line|charge|one|bill|invoice|row)\b`)
	reAboutZH = regexp.MustCompile(`([A-Za-z0-9][A-Za-z0-9_.\-]*|[\p{Han}]{2,6}?)\s?的?(?:那笔|这笔|那条|这条|那一笔|那单)`)
	// "那笔腾讯云的6.8万": the entry's platform after 那笔
	// "刚记的那笔", "刚才那条": the asker's latest entry, not a description
	reJustNow      = regexp.MustCompile(`^(?:刚记的?|刚录的?|刚填的?|刚才|刚刚|刚|上一|最近|前面)$`)
	reAboutZHAfter = regexp.MustCompile(`(?:那笔|这笔|那条|这条)\s?([A-Za-z][A-Za-z0-9_.\-]*|[\p{Han}]{2,6}?)\s?的`)
	// "改成8.6万", "应该是 1.2万": a new figure with a magnitude, no currency
	reAmountTo = regexp.MustCompile(`(?i)(?:改成|改为|应该是|应为|其实是|实际是|\bshould be\b|\bto\b)\s?(\d[\d,]*(?:\.\d+)?\s?(?:万|k|千|w)(?:元|块)?)`)

	fixMoney    = `(?:[¥￥$]|us\$|rmb\s?|usd\s?|cny\s?)?\d[\d,]*(?:\.\d+)?\s?(?:万|k|千)?\s?(?:元|块钱|块|美元|美金|刀|rmb|usd|cny|dollars?|yuan)?`
	reAmountKey = regexp.MustCompile(`(?i)(?:金额|费用|花费|价格|总价|总额|钱|账单|\bamount\b|\bcost\b|\btotal\b|\bprice\b|\bcharge\b|\bbill\b)\s*(?:应该|应|其实|实际)?\s*(?:是|为|改成|改为|写成|=|:|\bis\b|\bwas\b|\bshould be\b|\bto\b|\bof\b)?\s*(` + fixMoney + `)`)
	// "不对，1800元", "actually it was $368.40": money with a currency mark
	reAmountBare = regexp.MustCompile(`(?i)((?:[¥￥$]|us\$|rmb\s?)\d[\d,]*(?:\.\d+)?\s?(?:万|k|千)?|\d[\d,]*(?:\.\d+)?\s?(?:万|k|千)?\s?(?:元|块钱|块|美元|美金|刀|\brmb\b|\busd\b|\bcny\b|dollars?|yuan))`)
	reFixHours   = regexp.MustCompile(`(?i)(\d+(?:\.\d+)?)\s?(?:个)?(?:小时|钟头|hours?\b|hrs?\b|h\b)`)
	reHoursTo    = regexp.MustCompile(`(?i)(?:小时数|时长|卡时数|\bhours\b)\s*(?:应该|应|其实|实际)?\s*(?:是|为|改成|改为|=|:|\bis\b|\bwas\b|\bshould be\b|\bto\b)\s*(\d+(?:\.\d+)?)`)
	reCards      = regexp.MustCompile(`(?i)(\d{1,4})\s?(?:张卡|张|块卡|卡(?:[^时]|$)|cards?\b|gpus?\b)`)
	reToValue    = `\s*(?:应该|应|其实|实际)?\s*(?:是|为|改成|改为|换成|写成|=|:|\bis\b|\bwas\b|\bshould be\b|\bto\b)\s*["'“]?([^\s,，。;；"'”]+)`
	rePlatform   = regexp.MustCompile(`(?i)(?:platform|平台)` + reToValue)
	reFixProject = regexp.MustCompile(`(?i)(?:project|项目)` + reToValue)
	reTeamField  = regexp.MustCompile(`(?i)(?:\bteam\b|团队|部门|cost[- ]?cent(?:er|re))` + reToValue)
	reCardField  = regexp.MustCompile(`(?i)(?:\bcard\b|\bgpu\b|卡型|显卡|型号)` + reToValue)
	reDate       = regexp.MustCompile(`(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?`)
	reMonthEN    = regexp.MustCompile(`(?i)(?:dated|date(?:d)?\s+(?:is|to|as)?|in|for|booked to)\s+(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b`)
	reMonthZH    = regexp.MustCompile(`(?:是|为|改成|改为|算|记在|记到|记成|日期)\s?(\d{1,2}|十[一二]?|[一二三四五六七八九])月(?:份)?(?:的)?`)
)

// The entry as it stands, said to find it ("11月那笔", "是268不是286",
// "$320应该是$230", "November not December"). pairMoney is one figure as
// written; the readers below say which of two is the new one.
const pairMoney = `((?:[¥￥$]|us\$|rmb\s?)?\d[\d,]*(?:\.\d+)?\s?(?:万|k|千)?\s?(?:元|块钱|块|美元|美金|刀|rmb\b|usd\b|dollars?\b)?)`

var (
	// "11月那笔", "上个月那笔", "12月账里": the month the entry is in
	reEntryMonth = regexp.MustCompile(`(上个?月|本月|这个月|(\d{1,2}|十[一二]?|[一二三四五六七八九])\s?月份?)\s?的?\s?(那笔|这笔|那条|这条|那一笔|那单|账里|账上|的账)`)
	// "应该是3月，不是4月" (new, old); "不是4月，是3月" (old, new)
	reMonthIsNot = regexp.MustCompile(`(\d{1,2}|十[一二]?|[一二三四五六七八九])\s?月份?\s*,?\s*(?:而)?不是\s*(\d{1,2}|十[一二]?|[一二三四五六七八九])\s?月`)
	reMonthNotIs = regexp.MustCompile(`不是\s*(\d{1,2}|十[一二]?|[一二三四五六七八九])\s?月份?\s*,?\s*(?:而)?(?:是|应该是)\s*(\d{1,2}|十[一二]?|[一二三四五六七八九])\s?月`)
	// "November not December": the month it has now, after "not"
	reMonthNotEN = regexp.MustCompile(`(?i)\b(?:not|instead of|rather than|from)\s+(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b`)
	// "是268不是286", "$230, not $320" (new, old)
	reAmountIsNot = regexp.MustCompile(`(?i)` + pairMoney + `\s*,?\s*(?:而)?(?:不是|并非|\bnot\b)\s*` + pairMoney)
	// "不是286，是268", "not $320 but $230" (old, new)
	reAmountNotIs = regexp.MustCompile(`(?i)(?:不是|\bnot\b)\s*` + pairMoney + `\s*,?\s*(?:而)?(?:是|应该是|应为|\bbut\b)\s*` + pairMoney)
	// "$320应该是$230", "6.8万录反了，改成8.6万", "$320 should be $230" (old, new)
	reAmountTo2 = regexp.MustCompile(`(?i)` + pairMoney + `\s*的?\s*(?:(?:录反了|写反了|写错了|记错了|打错了|录错了|错了)\s*,?\s*)?(?:应该是|应为|应是|其实是|实际是|改成|改为|\bshould (?:be|have been)\b|→|->)\s*` + pairMoney)
	// "小时数是", "cards": a bare pair after these counts hours or cards
	reNotMoneyBefore = regexp.MustCompile(`(?i)(?:小时数?|时长|卡时数?|卡数|张数|hours?|cards?|gpus?)\s*(?:应该|应|其实|实际)?\s*(?:是|为|=|:|\bis\b|\bwas\b|\bshould be\b)?\s*$`)
	// "/hr", "每小时", "per card-hour": the figure before is a rate
	reRateAfter = regexp.MustCompile(`(?i)^\s*(?:/|per\b|an? (?:hour|hr|month)\b|每|一小时|一个月|一张|一台|a card|each)`)
	// "张", "hours", "90": a figure that counts cards or hours, or a card's name
	reUnitAfter = regexp.MustCompile(`(?i)^\s*(?:张|块卡|台|卡|个|小时|钟头|h\b|hours?\b|hrs?\b|cards?\b|gpus?\b|x\b|d\b|ti\b|\d)`)
	// "那笔AWS $320": a platform in Latin letters right after 那笔
	reAboutLatin = regexp.MustCompile(`(?:那笔|这笔|那条|这条)\s?([A-Za-z][A-Za-z0-9_.\-]*)`)
)

// marked reports whether a figure as written carries a currency or a
// magnitude: "$320", "6.8万", not "3" (a bare number may be a month or a
// count unless the sentence pairs it with 是/不是).
func marked(s string) bool {
	return strings.ContainsAny(s, "$¥￥万千kK元块刀") || strings.Contains(strings.ToLower(s), "usd") || strings.Contains(strings.ToLower(s), "rmb")
}

// zhMonth reads "3", "十一" as a month number, 0 when it is none.
func zhMonth(s string) int {
	mo, err := strconv.Atoi(s)
	if err != nil {
		mo = zhMonths[s]
	}
	if mo < 1 || mo > 12 {
		return 0
	}
	return mo
}

// pairArgs writes a pair of figures the way spend edit reads them, a
// bare one taking the other's currency ("是268不是¥286").
func pairArgs(nw, old string) (string, string) {
	n, ok1 := ParseMoney(strings.TrimSpace(nw))
	o, ok2 := ParseMoney(strings.TrimSpace(old))
	if !ok1 || !ok2 {
		return "", ""
	}
	if n.Currency == "" {
		n.Currency = o.Currency
	}
	if o.Currency == "" {
		o.Currency = n.Currency
	}
	return moneyArgOf(n), moneyArgOf(o)
}

var monthNames = map[string]int{"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
	"september": 9, "october": 10, "november": 11, "december": 12, "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7,
	"aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}

var zhMonths = map[string]int{"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10, "十一": 11, "十二": 12}

// ReadCorrection reads a correction of a ledger entry written in words.
// ok is false unless the sentence has a correction cue ("不对", "应该是",
// "actually", "should be", "change … to") and at least one field with a
// new value; a budget change, a new entry or a question is never one.
func ReadCorrection(text string) (Correction, bool) {
	t := Clean(text)
	if !reCorrectCue.MatchString(t) || reCorrectNot.MatchString(strings.TrimSpace(t)) {
		return Correction{}, false
	}
	c := Correction{Fields: map[string]string{}, Old: map[string]string{}}
	rest := t
	// the entry as it stands: its month and the figures said wrong
	if m := reEntryMonth.FindStringSubmatchIndex(rest); m != nil {
		switch said := rest[m[2]:m[3]]; {
		case strings.HasPrefix(said, "上"):
			c.Old["month"] = "last"
		case said == "本月" || said == "这个月":
			c.Old["month"] = "this"
		default:
			if mo := zhMonth(rest[m[4]:m[5]]); mo > 0 {
				c.Old["month"] = strconv.Itoa(mo)
			}
		}
		rest = rest[:m[0]] + " " + rest[m[6]:]
	}
	for i, re := range []*regexp.Regexp{reMonthIsNot, reMonthNotIs} {
		if m := re.FindStringSubmatchIndex(rest); m != nil {
			nw, old := zhMonth(rest[m[2]:m[3]]), zhMonth(rest[m[4]:m[5]])
			if i == 1 {
				nw, old = old, nw
			}
			if nw > 0 && old > 0 {
				c.Fields["month"], c.Old["month"] = strconv.Itoa(nw), strconv.Itoa(old)
				rest = rest[:m[0]] + " " + rest[m[1]:]
				break
			}
		}
	}
	for i, re := range []*regexp.Regexp{reAmountIsNot, reAmountNotIs, reAmountTo2} {
		m := re.FindStringSubmatchIndex(rest)
		if m == nil {
			continue
		}
		nw, old := strings.TrimRight(rest[m[2]:m[3]], ", ."), strings.TrimRight(rest[m[4]:m[5]], ", .")
		if i > 0 {
			nw, old = old, nw
		}
		if reRateAfter.MatchString(rest[m[1]:]) || reRateAfter.MatchString(rest[m[3]:m[4]]) || reUnitAfter.MatchString(rest[m[1]:]) || reUnitAfter.MatchString(rest[m[3]:m[4]]) {
			continue // "$2.10/hr not $2.49": rates, not the entry's amount
		}
		if !marked(nw) && !marked(old) && (i == 2 || reNotMoneyBefore.MatchString(rest[:m[0]])) {
			continue // "3 should be 4", "小时数是410不是340": no figure says it is money
		}
		nw, old = pairArgs(nw, old)
		if nw != "" && old != "" && nw != old {
			c.Fields["amount"], c.Old["amount"] = nw, old
			rest = rest[:m[0]] + " " + rest[m[1]:]
			break
		}
	}
	if m := reCorrectID.FindStringSubmatch(rest); m != nil {
		c.ID = strings.ToLower(m[1])
		rest = strings.Replace(rest, m[0], " ", 1)
	} else if m := reAboutEN.FindStringSubmatch(rest); m != nil {
		c.About = strings.ToLower(m[1])
		rest = strings.Replace(rest, m[0], " ", 1)
	} else if m := reAboutZH.FindStringSubmatch(rest); m != nil && !strings.ContainsAny(m[1], "不对错改") && !reJustNow.MatchString(m[1]) {
		c.About = strings.ToLower(m[1])
		rest = strings.Replace(rest, m[0], " ", 1)
	} else if m := reAboutZHAfter.FindStringSubmatch(rest); m != nil && !reJustNow.MatchString(m[1]) {
		c.About = strings.ToLower(m[1])
		rest = strings.Replace(rest, m[0], " ", 1)
	} else if m := reAboutLatin.FindStringSubmatch(rest); m != nil {
		c.About = strings.ToLower(m[1]) // "刚记的那笔AWS"
		rest = strings.Replace(rest, m[0], " ", 1)
	}
	take := func(re *regexp.Regexp, field string) {
		if m := re.FindStringSubmatchIndex(rest); m != nil {
			c.Fields[field] = strings.TrimRight(rest[m[2]:m[3]], ".")
			rest = rest[:m[0]] + " " + rest[m[1]:]
		}
	}
	take(rePlatform, "platform")
	take(reFixProject, "project")
	take(reTeamField, "team")
	take(reCardField, "gpu")
	if m := reDate.FindStringSubmatch(rest); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		if mo >= 1 && mo <= 12 && d >= 1 && d <= 31 {
			c.Fields["date"] = strconv.Itoa(y) + "-" + pad2(mo) + "-" + pad2(d)
			rest = strings.Replace(rest, m[0], " ", 1)
		}
	}
	if m := reMonthNotEN.FindStringSubmatch(rest); m != nil && c.Old["month"] == "" {
		c.Old["month"] = strconv.Itoa(monthNames[strings.ToLower(m[1])]) // "dated November not December"
		rest = strings.Replace(rest, m[0], " ", 1)
	}
	_, monthSet := c.Fields["month"]
	if _, ok := c.Fields["date"]; !ok && !monthSet {
		if m := reMonthEN.FindStringSubmatch(rest); m != nil {
			c.Fields["month"] = strconv.Itoa(monthNames[strings.ToLower(m[1])])
			rest = strings.Replace(rest, m[0], " ", 1)
		} else if m := reMonthZH.FindStringSubmatch(rest); m != nil {
			mo, err := strconv.Atoi(m[1])
			if err != nil {
				mo = zhMonths[m[1]]
			}
			if mo >= 1 && mo <= 12 {
				c.Fields["month"] = strconv.Itoa(mo)
				rest = strings.Replace(rest, m[0], " ", 1)
			}
		}
	}
	if _, ok := c.Fields["amount"]; ok {
		// read above, with the figure it replaces
	} else if m := reAmountKey.FindStringSubmatchIndex(rest); m != nil && strings.TrimSpace(rest[m[2]:m[3]]) != "" {
		c.Fields["amount"] = moneyArg(rest[m[2]:m[3]])
		rest = rest[:m[0]] + " " + rest[m[1]:]
	} else if m := reAmountTo.FindStringSubmatchIndex(rest); m != nil {
		c.Fields["amount"] = moneyArg(rest[m[2]:m[3]])
		rest = rest[:m[0]] + " " + rest[m[1]:]
	} else if m := reAmountBare.FindStringSubmatchIndex(rest); m != nil {
		c.Fields["amount"] = moneyArg(rest[m[2]:m[3]])
		rest = rest[:m[0]] + " " + rest[m[1]:]
	}
	if m := reHoursTo.FindStringSubmatchIndex(rest); m != nil { // "小时数是410不是340"
		c.Fields["hours"] = rest[m[2]:m[3]]
		rest = rest[:m[0]] + " " + rest[m[1]:]
	} else if m := reFixHours.FindStringSubmatchIndex(rest); m != nil {
		c.Fields["hours"] = rest[m[2]:m[3]]
		rest = rest[:m[0]] + " " + rest[m[1]:]
	}
	if m := reCards.FindStringSubmatch(rest); m != nil {
		c.Fields["cards"] = m[1]
	}
	if c.Fields["amount"] == "" {
		delete(c.Fields, "amount")
	}
	if len(c.Fields) == 0 {
		return Correction{}, false
	}
	if len(c.Old) == 0 {
		c.Old = nil
	}
	return c, true
}

// moneyArg writes money the way spend edit reads it: "¥1800", "$368.40",
// "¥50000" for "5万元"; a bare figure keeps no currency (the entry's own).
func moneyArg(s string) string {
	m, ok := ParseMoney(strings.TrimSpace(s))
	if !ok {
		return ""
	}
	return moneyArgOf(m)
}

// moneyArgOf writes parsed money the way spend edit reads it.
func moneyArgOf(m Money) string {
	v := strconv.FormatFloat(m.Amount, 'f', -1, 64)
	switch m.Currency {
	case "USD":
		return "$" + v
	case "CNY":
		return "¥" + v
	}
	return v
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// Deletion is a ledger entry to remove, said in words: "把12月那笔腾讯云
// ¥52,000 删掉吧，重复记了", "delete the duplicate RunPod entry". About
// describes the entry (a platform, card, project); Amount and Month narrow
// it when given.
type Deletion struct {
	About  string `json:"about,omitempty"`
	Amount string `json:"amount,omitempty"`
	Month  string `json:"month,omitempty"`
}

var (
	reDeleteCue = regexp.MustCompile(`(?i)删掉|删除|删了|去掉|撤掉|\bdelete\b|\bremove\b|\bdrop\b`)
	reDeleteNot = regexp.MustCompile(`(?i)预算|budget|/gpu|记一笔|watch|订阅|subscri|提醒`)
	reDelMonth  = regexp.MustCompile(`(\d{1,2})\s?月`)
	// "刚才那笔", "the last one": the asker's latest entry
	reJustNowAny = regexp.MustCompile(`(?i)刚记|刚录|刚填|刚才|刚刚|上一笔|上一条|最后一笔|\bthe last (?:one|entry)\b|\bthat last\b`)
	reDelAfter   = regexp.MustCompile(`(?:那笔|这笔|那条|这条)\s?([A-Za-z][A-Za-z0-9_.\-]*|\p{Han}{2,6}?)(?:\s|[¥$￥\d，,的]|$)`)
	reDelAmount  = regexp.MustCompile(`(?i)([¥$￥]?\s?\d[\d,]*(?:\.\d+)?\s?(?:万|k)?(?:\s?(?:元|块|美元))?)`)
)

// ReadDeletion reads a removal of a ledger entry in words; ok is false for
// anything else (a budget removal, a watch, a question).
func ReadDeletion(text string) (Deletion, bool) {
	t := Clean(text)
	if !reDeleteCue.MatchString(t) || reDeleteNot.MatchString(t) {
		return Deletion{}, false
	}
	var d Deletion
	rest := reDeleteCue.ReplaceAllString(t, " ") // "删掉刚才那笔": the verb is not the entry's name
	if m := reDelMonth.FindStringSubmatchIndex(rest); m != nil {
		d.Month = rest[m[2]:m[3]]
		rest = rest[:m[0]] + " " + rest[m[1]:]
	}
	switch m := reAboutZH.FindStringSubmatch(rest); {
	case m != nil && !reJustNow.MatchString(m[1]):
		d.About = strings.ToLower(m[1])
	default:
		if m := reAboutEN.FindStringSubmatch(rest); m != nil {
			d.About = strings.ToLower(m[1])
		} else if m := reAboutZHAfter.FindStringSubmatch(rest); m != nil && !reJustNow.MatchString(m[1]) {
			d.About = strings.ToLower(m[1])
		} else if m := reDelAfter.FindStringSubmatch(rest); m != nil {
			d.About = strings.ToLower(m[1]) // "那笔腾讯云 ¥52,000"
		}
	}
	for _, m := range reDelAmount.FindAllString(rest, -1) {
		m = strings.ReplaceAll(strings.TrimSpace(m), " ", "")
		if v, ok := ParseMoney(m); ok && v.Amount >= 10 { // "其中一笔" and counts are no amounts
			d.Amount = m // as written; the ledger reads it with ParseMoney
			break
		}
	}
	if d.About == "" && d.Amount == "" && d.Month == "" && !reJustNowAny.MatchString(rest) {
		return Deletion{}, false // "删掉吧" alone: nothing says which entry
	}
	return d, true
}
