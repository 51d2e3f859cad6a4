package parse

import (
	"fmt"
	"github.com/gpubot/gpubot/knowledge"
	"regexp"
	"strings"
	"time"
)

// The question frame's own passes: what people say about a latency or
// speed target, a deadline, a peak and an average load, daily users and
// chat turns, residual value, and how a quote is meant (a machine total or
// per card). They run before money is scanned, so "TTFT under 800 ms" is
// never an $800 budget and "within 10 days" never a $10 one.

var (
	// "ttft under 800 ms", "TTFT < 1s", "首字延迟 800ms 以内", "首token 1秒内", "p99 ttft 500ms"
	reTTFT = rx(`(?:ttft|time to first token|first[- ]token latency|首字延迟|首字|首token|首 token|首个token|首包延迟|首包)\s?(?:p\d\d\s?)?(?:latency|延迟|时间)?[^0-9]{0,15}?`+num+`\s?(ms|毫秒|s\b|sec\b|seconds?|秒)`+
		`|`+num+`\s?(ms|毫秒)\s?(?:的\s?)?(?:ttft|首字|首token|首 token|time to first token)`, true, "ttft", "first token", "first-token", "首字", "首token", "首 token", "首个token", "首包")
	// "30 tok/s each", "30 tokens/s per user", "每人 30 token/s", "每路20 tokens/s", "at least 20 tok/s per stream"
	rePerUserTPS = rx(num+`\s?(?:tokens?|tok|t)\s?(?:/\s?s(?:ec)?\b|per second|每秒|/秒)\s?(?:each|per user|per stream|per request|per chat|per session|/user|a user|for each user|每人|每个用户|每路|每用户)`+
		`|(?:每人|每个用户|每路|每用户|per user|each user|per stream)\s?(?:至少|不低于|要|需要|达到)?\s?`+num+`\s?(?:tokens?|tok|t)\s?(?:/\s?s|每秒|/秒)`, true, "each", "per user", "per stream", "per request", "per chat", "per session", "/user", "a user", "每人", "每个用户", "每路", "每用户")
	// deadlines: "in 30 days", "within 10 days", "within 2 weeks", "6-week deadline",
	// "两周内", "10天内", "一个月内", "deadline 3 weeks", "in under a month"
	reDeadline = rx(`(?:within|in|in under|under|inside|deadline(?: is| of)?|by|需要在|要在|得在|在)\s?`+num+`[\s-]?(days?|weeks?|wks?|months?)\b(?:\s?(?:deadline|time|or less))?`+
		`|`+num+`[\s-]?(days?|weeks?|wks?|months?)[\s-]?(?:deadline|time ?frame|budget of time|(?:[a-z-]+ )?(?:run|job|burst|window|sprint|project))\b`+
		`|`+num+`\s?(?:个\s?)?(天|周|星期|礼拜|月)\s?(?:之内|以内|内|之内完成|内完成|内搞定|内跑完|搞定|跑完|训完|完成)`+
		`|(?:ddl|deadline|截止)[^0-9]{0,24}?`+num+`\s?(天|days?\b)|`+num+`\s?(days?) (?:out|away|left)\b`, true, "day", "week", "wk", "month", "天", "周", "星期", "礼拜", "月", "ddl", "deadline", "截止", "out", "away", "left")
	// a deadline in hours: "48小时内跑得完不", "within 36 hours", "in under 48h"
	reDeadlineHours = rx(`(?:within|in under|under|inside|deadline(?: is| of)?)\s?`+num+`\s?(?:hours?|hrs?|h)\b`+
		`|`+num+`\s?(?:个\s?)?(?:小时|h)\s?(?:之内|以内|内)`, true, "hour", "hr", "h", "小时")
	// the spans Chinese writes in words: "一周内", "半个月内跑完", "一个月内"
	zhSpans      = map[string]float64{"一周": 7, "一个星期": 7, "一礼拜": 7, "两周": 14, "两个星期": 14, "半个月": 15, "一个月": 365.0 / 12, "两个月": 2 * 365.0 / 12, "三个月": 3 * 365.0 / 12, "一年": 365}
	reDeadlineZH = rx(`(一周|一个星期|一礼拜|两周|两个星期|半个月|一个月|两个月|三个月|一年)\s?(?:之内|以内|内|里|完成|跑完|训完|搞定)`, false, "周", "星期", "礼拜", "月", "年")
	// "by Dec 31", "by 12/31", "before end of year", "月底前", "年底前", "月底之前"
	reByDate   = rx(`\b(?:by|before)\s(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s?(\d{1,2})(?:st|nd|rd|th)?\b`, false, "by ", "before ")
	reEndOf    = rx(`(月底|月末|年底|年末|end of (?:the )?month|end of (?:the )?year|eom|eoy)\s?(?:之前|以前|前)?`, false, "月底", "月末", "年底", "年末", "end of", "eom", "eoy")
	reEndOfCue = rx(`(?:月底|月末|年底|年末)\s?(?:之前|以前|前|完成|搞定|跑完)|(?:by|before) (?:the )?end of (?:the )?(?:month|year)|\bby (?:eom|eoy)\b`, false, "月底", "月末", "年底", "年末", "end of", "eom", "eoy")
	// "peak 30 QPS", "峰值30 qps", "average 8", "平均 8 qps", "avg 8 rps"
	rePeakRPS = rx(`(?:peak|峰值|高峰|最高)\s?(?:load|负载|是|为|of|at|:|=)?\s?`+num+`\s?(k)?\s?(?:qps|rps|req(?:uest)?s?/s|requests? per second|次/秒|个请求每秒)?`+
		`|`+num+`\s?(k)?\s?(?:qps|rps|req(?:uest)?s?/s)\s?(?:at\s)?(?:peak|峰值)`, true, "peak", "峰值", "高峰", "最高")
	reAvgRPS = rx(`(?:average|avg|mean|平均|均值|日常|平时)\s?(?:load|负载|是|为|of|at|:|=)?\s?(?:也就|大概|约|一般|差不多|就)?\s?`+num+`\s?(k)?\s?(?:qps|rps|req(?:uest)?s?/s|requests? per second|次/秒)?(?P<end>$|[^0-9a-z%])`+
		`|(?:/|,)\s?`+num+`\s?(k)?\s?(?:qps|rps)?\s?(?:avg|average|mean)\b()`, true, "average", "avg", "mean", "平均", "均值", "日常", "平时")
	// reVolumeSplit is a load said as two volumes: "输入 5 亿、输出 1 亿",
	// "2 亿输入 token + 4000 万输出 token", "400M input + 100M output tokens"
	reVolumeSplit = regexp.MustCompile(`输入\s?` + num + `\s?(亿|千万|百万|万)\s?(?:个\s?)?(?:tokens?)?\s?[、，,+和与及/ ]*\s?输出\s?` + num + `\s?(亿|千万|百万|万)` +
		`|` + num + `\s?(亿|千万|百万|万)\s?(?:个\s?)?(?:tokens?\s?)?输入\s?(?:tokens?)?\s?[、，,+和与及/ ]*\s?` + num + `\s?(亿|千万|百万|万)\s?(?:个\s?)?(?:tokens?\s?)?输出` +
		`|` + num + `\s?([kmb])\s?(?:input|in)\s?(?:tokens?)?\s?(?:\+|and|,|/)\s?` + num + `\s?([kmb])\s?(?:output|out)\b`)
	// reTokensNext opens what follows a figure that counts tokens
	reTokensNext = regexp.MustCompile(`^\s?(?:input|output|in\b|out\b|prompt|context|tokens?|tok\b|输入|输出|上下文|token)`)
	// "日活2万", "DAU 20k", "20k daily users", "每天2万用户"
	reUsers = rx(`(?:日活|dau|daily active users?|每天|每日)\s?(?:用户)?\s?(?:是|为|有|大概|约|:|=|of)?\s?`+num+`\s?(万|千|k|m)?\s?(?:个)?\s?(?:用户|人|users?)?`+
		`|`+num+`\s?(万|千|k|m)?\s?(?:daily (?:active )?users?|users? (?:a|per) day|users?\s?/\s?day|dau|日活(?:用户)?|(?:个)?\s?(?:人|用户|同学)\s?每天(?:都)?(?:用|使用|访问|来问)|(?:个)?\s?(?:人|用户|同学)\s?[，,、]?\s?(?P<end>(?:每人|每个人|人均)每天))`, true, "日活", "dau", "daily", "每天", "每日", "users a day", "users per day", "user a day", "users/day", "user/day", "users / day")
	// "每人10轮", "人均聊10轮", "每人每天大概50次", "10 turns", "20轮对话", "10 turns per user"
	reTurns = rx(num+`\s?(?:轮对话|轮会话|轮聊天|turns?\b|rounds? of chat|messages? (?:each|per user|a day))|(?:每人|人均|每个用户|每用户|each user|per user)\s?(?:每天|一天)?\s?(?:聊|大概|约|平均|要)?\s?`+num+`\s?(?:轮|turns?|messages?|次)`, true, "轮", "turn", "round", "message", "次")
	// "每轮800 token", "800 tokens per turn", "800 tokens each"
	rePerTurn = rx(`(?:每轮|每次|每条消息|per turn|each turn|per message|per request|each request)\s?(?:大概|约|平均)?\s?`+num+`\s?(k)?\s?(?:个\s?)?(?:tokens?|tok|词元)?|`+num+`\s?(k)?\s?(?:tokens?|tok)\s?(?:per|each|a|/)\s?(?:turn|message|request|req)\b`, true, "每轮", "每次", "每条消息", "turn", "message", "request")
	// residual value: "残值10%", "residual 15%", "resale value 20%", "resell for 30%"
	reResidual = rx(`(?:残值|残值率|二手回收|回收价|residual(?: value)?|resale(?: value)?|salvage(?: value)?|resell(?: for| at)?)\s?(?:按|是|为|约|大概|:|=|of|at)?\s?`+num+`\s?(%|成)`+
		`|`+num+`\s?(%)\s?(?:residual|resale|salvage)`+`|(zero|no|0)\s?(residual|resale|salvage)`, true, "残值", "回收", "residual", "resale", "salvage", "resell")
	// a whole machine quoted: "8卡…整机", "a $280k 8x H100 server", "一台", "per server"
	reMachineQuote = rx(`整机|一台|每台|台服务器|服务器|\bserver\b|\bmachine\b|\bbox\b|\bnode\b|\bper node\b|\bhgx\b|\bdgx\b|一整台`, false, "整机", "台", "服务器", "server", "machine", "box", "node", "hgx", "dgx")
	rePerCardQuote = rx(`每卡|每张|单卡|一张卡|per card|per gpu|a card|each card|/卡|/张|/card|/gpu|每块|/hr each|/h each|an hour each|each\b`, false, "每卡", "每张", "单卡", "张卡", "per card", "per gpu", "a card", "each card", "/卡", "/张", "/card", "/gpu", "每块", "each")
	// "train a 3B on 600B tokens", "pretrain", "预训练", "继续预训练", "continued pretraining"
	rePretrain = regexp0(`pre-?train|预训练|继续训练|continued pre|continual pre|从头训|from scratch`)
	reTrainOn  = regexp0(`\btrain(?:ing)?\b[^.?!]{0,40}\bon\b|\btrain(?:ing)? (?:it |them )?(?:for|with)\b|训练|训一个|训个|训\s?\d`)
	// a count bought or rented: "买8张", "采购50张", "租16块", "procure 32"
	reBuyCount    = regexp0(`(?:买|采购|购买|租|下单|订|要买|打算买|准备买)\s?(\d+)\s?(?:张|块|片)|(?:buy|buying|procure|order|purchase|rent|renting)\s(\d+)\s?(?:x\s)?(?:of them|cards|gpus|§|units)`)
	reAuxQuestion = regexp0(`(?:^|[.?!:;,]\s*|\b(?:so|and|but|also|ok|pls|please)\s)(?:can|could|will|would|is|are|does|do|did|should|shall|has|have|am)\s[^?]*\?|(?:^|[.?!]\s*)(?:can|could|will|would|is|are|does|do|should)\s`)
	reWhQuestion  = regexp0(`^\s*(?:how|what|which|when|where|who|why)\b`)
	reAnswerEN    = regexp0(`用英文|英文回答|英文回复|英语回答|answer in english|reply in english|in english please`)
	reAnswerZH    = regexp0(`用中文|中文回答|中文回复|answer in chinese|reply in chinese|in chinese please`)
	// asking for dollars: "多少刀", "几刀", "how many bucks"
	reDollarQ = regexp0(`多少刀|几刀|多少美金|多少美元|多少 usd|how many (?:bucks|dollars)`)
)

// reWhichWord asks for a choice in words, not by naming options side by
// side.
var reWhichWord = regexp.MustCompile(`which|哪|选|推荐|还是|recommend|cheapest|best|rent or buy|buy or rent|what (?:gpu|card)|什么卡|用什么|怎么选|how to choose`)

// reClauseEnd ends a clause for the 吗 test.
var reClauseEnd = regexp.MustCompile(`[?？!！。.，,；;]+`)

// regexp0 compiles an ungated pattern (the frame's cue words are few and
// cheap to test).
func regexp0(expr string) *regexp.Regexp { return regexp.MustCompile(expr) }

// frame reads the frame-only values that must come before money.
func (x extractor) frame(t *text, f *features) {
	s := &f.s
	t.first(reTTFT, 0, func(m []string, at int) bool {
		v, ok := Number(m[1] + m[3])
		if !ok || v <= 0 {
			return false
		}
		if unit := m[2] + m[4]; unit != "ms" && unit != "毫秒" {
			v *= 1000
		}
		s.TTFTMs = v
		return true
	})
	t.first(rePerUserTPS, 0, func(m []string, at int) bool {
		v, ok := Number(m[1] + m[2])
		if !ok || v <= 0 || v > 10000 {
			return false
		}
		s.TPSPerUser = v
		return true
	})
	t.take(reVolumeSplit, 0, func(m []string, at int) bool {
		// "每月输入 5 亿、输出 1 亿", "每天 2 亿输入 + 4000 万输出", "400M input +
		// 100M output tokens a day": a load's two volumes — its total and
		// its split, never a request's lengths or a model's size
		in, ok1 := Number(m[1] + m[2] + m[5] + m[6] + m[9] + m[10])
		out, ok2 := Number(m[3] + m[4] + m[7] + m[8] + m[11] + m[12])
		if !ok1 || !ok2 || in+out < 1e5 || s.TokensPerDay != 0 {
			return false
		}
		total := in + out
		// the period said next to the volumes ("每天 2 亿输入…", "… tokens a
		// month"), else per day; one said elsewhere ("API 每月多少") asks the bill's
		near := t.s[max(0, at-15):at] + " " + t.s[at+len(m[0]):min(len(t.s), at+len(m[0])+18)]
		if containsAny(near, "每月", "一个月", "每个月", "月均", "a month", "per month", "monthly", "/month") && !containsAny(near, "每天", "每日", "日均", "a day", "per day", "daily", "/day") {
			f.note(fmt.Sprintf("%s tokens a month read as %s a day (365/12 days a month)", trim(total), trim(total/daysPerMonth)))
			total /= daysPerMonth
		}
		s.TokensPerDay = total
		s.InputShare = in / (in + out)
		f.note(fmt.Sprintf("input %s and output %s read as %s%% input", trim(in), trim(out), trim(100*s.InputShare)))
		return true
	})
	x.deadline(t, f)
	x.peakAverage(t, f)
	x.chatLoad(t, f)
	t.first(reResidual, 1, func(m []string, at int) bool {
		if m[5] != "" { // "zero resale"
			v := 0.0
			s.Residual = &v
			return true
		}
		v, ok := Number(m[1] + m[3])
		if !ok || v < 0 || v >= 100 {
			return false
		}
		if m[2] == "成" { // "残值两成": tenths
			v *= 10
		}
		v /= 100
		s.Residual = &v
		return true
	})
	// "用英文回答", "answer in Chinese": the language asked for
	switch {
	case reAnswerEN.MatchString(t.s):
		f.langAsked = "en"
	case reAnswerZH.MatchString(t.s):
		f.langAsked = "zh"
	}
	if reDollarQ.MatchString(t.s) && s.Currency == "" {
		s.Currency = "USD"
	}
}

// deadline reads a deadline said in words as days.
func (x extractor) deadline(t *text, f *features) {
	s := &f.s
	if s.Days != 0 {
		return
	}
	t.first(reDeadlineZH, 0, func(m []string, at int) bool {
		s.Days = zhSpans[m[1]]
		f.note(fmt.Sprintf("deadline %s read as %s days", m[1], trim(s.Days)))
		return s.Days > 0
	})
	if s.Days != 0 {
		return
	}
	t.first(reDeadline, 0, func(m []string, at int) bool {
		v, ok := Number(m[1] + m[3] + m[5] + m[7] + m[9])
		if !ok || v <= 0 || v > 3650 {
			return false
		}
		unit := m[2] + m[4] + m[6] + m[8] + m[10]
		days := v
		switch {
		case strings.HasPrefix(unit, "w") || unit == "周" || unit == "星期" || unit == "礼拜":
			days = v * 7
		case strings.HasPrefix(unit, "mo") || unit == "月":
			days = v * daysPerMonth
		}
		s.Days = days
		if days != v {
			f.note(fmt.Sprintf("deadline %s %s read as %s days", trim(v), unit, trim(days)))
		}
		return true
	})
	if s.Days != 0 {
		return
	}
	t.first(reDeadlineHours, 0, func(m []string, at int) bool {
		v, ok := Number(m[1] + m[2])
		if !ok || v <= 0 || v > 24*3650 {
			return false
		}
		s.Days = v / 24
		f.note(fmt.Sprintf("deadline %s hours read as %s days", trim(v), trim(s.Days)))
		return true
	})
	if s.Days != 0 || f.now.IsZero() {
		return
	}
	t.first(reByDate, 0, func(m []string, at int) bool {
		mon, ok := monthIndex(m[1])
		d, ok2 := Number(m[2])
		if !ok || !ok2 || d < 1 || d > 31 {
			return false
		}
		now := f.now
		due := time.Date(now.Year(), time.Month(mon), int(d), 0, 0, 0, 0, now.Location())
		if !due.After(now) {
			due = due.AddDate(1, 0, 0)
		}
		days := float64(int(due.Sub(now).Hours()/24 + 0.999))
		s.Days = days
		f.note(fmt.Sprintf("deadline %s read as %s days from %s", due.Format("2006-01-02"), trim(days), now.Format("2006-01-02")))
		return true
	})
	if s.Days != 0 || !reEndOfCue.MatchString(t.s) {
		return
	}
	t.first(reEndOf, 0, func(m []string, at int) bool {
		now := f.now
		var due time.Time
		if containsAny(m[1], "年", "year", "eoy") {
			due = time.Date(now.Year()+1, 1, 1, 0, 0, 0, 0, now.Location())
		} else {
			due = time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, now.Location())
		}
		days := float64(int(due.Sub(now).Hours()/24 + 0.999))
		if days < 1 {
			days = 1
		}
		s.Days = days
		f.note(fmt.Sprintf("deadline %q read as %s days from %s", m[1], trim(days), now.Format("2006-01-02")))
		return true
	})
}

// monthIndex is 1–12 for an English month abbreviation.
func monthIndex(abbr string) (int, bool) {
	i := strings.Index("janfebmaraprmayjunjulaugsepoctnovdec", abbr[:min(3, len(abbr))])
	if i < 0 || i%3 != 0 {
		return 0, false
	}
	return i/3 + 1, true
}

// peakAverage reads a peak and an average load: the plan is sized for the
// peak and billed by the average.
func (x extractor) peakAverage(t *text, f *features) {
	s := &f.s
	// the number and its "k" are in the first alternative that matched
	// ("peak 30", "30 rps peak"; "avg 8", "/ 8 avg")
	read := func(m []string) (float64, bool) {
		for i := 1; i+1 < len(m); i++ {
			if m[i] == "" {
				continue
			}
			v, ok := Number(m[i])
			if m[i+1] == "k" {
				v *= 1e3
			}
			return v, ok && v > 0
		}
		return 0, false
	}
	// only with a load word somewhere: "峰值 30" alone could be anything
	if !containsAny(t.s, "qps", "rps", "req", "请求", "调用", "queries", "负载", "load") {
		return
	}
	t.first(rePeakRPS, 1, func(m []string, at int) bool {
		v, ok := read(m)
		if ok {
			s.PeakRequestsPerS = v
		}
		return ok
	})
	t.first(reAvgRPS, 1, func(m []string, at int) bool {
		if !strings.ContainsAny(m[0][len(m[0])-1:], ",;，；、") && reTokensNext.MatchString(t.s[at+len(m[0]):]) {
			return false // "avg 1k input / 300 output tokens": a request's length, not a rate
		}
		v, ok := read(m)
		if ok && s.RequestsPerS == 0 {
			s.RequestsPerS, s.AverageLoad = v, true
			return true
		}
		return false
	})
}

// chatLoad reads daily users × turns × tokens per turn as a load per day.
func (x extractor) chatLoad(t *text, f *features) {
	s := &f.s
	t.first(reUsers, 0, func(m []string, at int) bool {
		v, ok := Number(m[1] + m[3])
		if !ok || v <= 0 {
			return false
		}
		switch m[2] + m[4] {
		case "万":
			v *= 1e4
		case "千", "k":
			v *= 1e3
		case "m":
			v *= 1e6
		}
		// "每天 2 小时" is no user count: need a user word or 日活/DAU
		if strings.HasPrefix(m[0], "每天") || strings.HasPrefix(m[0], "每日") {
			if !containsAny(m[0], "用户", "人", "user") {
				return false
			}
		}
		s.UsersPerDay = v
		return true
	})
	t.first(reTurns, 0, func(m []string, at int) bool {
		v, ok := Number(m[1] + m[2])
		if !ok || v <= 0 || v > 10000 {
			return false
		}
		s.Turns = v
		return true
	})
	t.first(rePerTurn, 0, func(m []string, at int) bool {
		v, ok := Number(m[1] + m[3])
		if m[2]+m[4] == "k" {
			v *= 1000
		}
		if !ok || v <= 0 || v > 1<<22 {
			return false
		}
		s.TurnTokens = v
		return true
	})
}

// chatTokens turns daily users × turns × tokens a turn into tokens a day,
// after the request shape is read: a turn is the tokens said for it, else
// the request's input + output ("每轮输入600、输出200"), else the default.
func chatTokens(f *features) {
	s := &f.s
	if s.UsersPerDay <= 0 || s.TokensPerDay != 0 {
		return
	}
	turns, per := s.Turns, s.TurnTokens
	if turns == 0 {
		turns = 1
	}
	if per == 0 {
		per = float64(s.InputTokens + s.OutputTokens)
	}
	if per == 0 {
		per = DefaultTurnTokens
	}
	s.TokensPerDay = s.UsersPerDay * turns * per
	f.note(fmt.Sprintf("%s users × %s turns × %s tokens a turn = %s tokens a day", trim(s.UsersPerDay), trim(turns), trim(per), trim(s.TokensPerDay)))
}

// DefaultTurnTokens is the prompt + answer tokens of one chat turn when a
// message gives daily users but not the turn's size (1,000 in + 500 out,
// the engine's default request).
const DefaultTurnTokens = 1500

// afterFrame applies what the frame says about readings made by the other
// passes: a quote for a whole machine, training said as "train on N
// tokens".
func (x extractor) afterFrame(t *text, f *features) {
	s := &f.s
	chatTokens(f)
	if s.Cards > 1 && len(f.money) > 0 && s.QuotePer == "" {
		switch {
		case perCardQuote(f.cueText):
			s.QuotePer = "card"
		case reMachineQuote.MatchString(f.cueText) || cardsBeforeMoney(f):
			s.QuotePer = "machine"
		}
	}
	if s.Tokens > 0 && (s.ParamsB > 0 || s.Model != "") && (s.Method == "" || f.weakMethod) {
		if rePretrain.MatchString(f.cueText) || reTrainOn.MatchString(f.cueText) && !containsAny(f.cueText, "lora", "微调", "fine-tun", "finetun", "sft") {
			s.Method, f.weakMethod = "full", false
			s.Pretrain = true
			f.note("\"train on N tokens\" read as pretraining (a full training run)")
		}
	} else if (s.Method == "full" || s.Method == "") && (s.ParamsB > 0 || s.Model != "") && rePretrain.MatchString(f.cueText) && !containsAny(f.cueText, "lora", "微调", "fine-tun", "finetun", "sft") {
		s.Method, s.Pretrain = "full", true
	}
	// "4090D一张1.45万，买8张": the cards bought, not the unit of the price
	if m := reBuyCount.FindStringSubmatch(f.cueText); m != nil {
		if n, ok := Number(m[1] + m[2]); ok && n >= 2 && n <= 100000 && int(n) > s.Cards {
			s.Cards = int(n)
		}
	}
}

// cardsBeforeMoney reports whether a card count is said right before the
// first money figure ("8卡包月68000元", "8x H100 server $280k"): a quote
// for all of them.
func cardsBeforeMoney(f *features) bool {
	if len(f.money) == 0 {
		return false
	}
	first := f.money[0].start
	lo := max(0, first-24)
	before := f.cueText[lo:min(first, len(f.cueText))]
	return reCardsX.MatchString(before) || strings.Contains(before, "卡") || strings.Contains(before, "x ")
}

// targets reads what the message asks for, in the order it asks (the
// lexicon's targets), and whether it asks yes or no.
func (x extractor) targets(f *features) {
	s := &f.s
	t := f.cueText
	c := compact(t)
	type hit struct {
		value string
		at    int
	}
	var hits []hit
	for i, term := range vocab.targets {
		if !termIn(term, t, c) {
			continue
		}
		at := len(t) + i // found only in the compacted text: after the others
		for _, w := range term.Words {
			w = strings.TrimSuffix(w, "*")
			if j := strings.Index(t, strings.TrimSpace(w)); j >= 0 && j < at {
				at = j
			}
		}
		dup := false
		for _, h := range hits {
			dup = dup || h.value == term.Value
		}
		if !dup {
			hits = append(hits, hit{term.Value, at})
		}
	}
	// "which" needs two options, or a ranking word, to be a choice
	options := len(s.GPUs) >= 2 || len(s.Platforms) >= 2
	for i := 0; i < len(hits); i++ {
		if hits[i].value == "which" && !options && !containsAny(t, "推荐", "哪", "which", "best", "cheapest", "recommend", "什么卡", "用什么", "cheaper", "更省", "更便宜", "还是", " vs ", "rent or", "buy or", "reserve or", "-vs-") {
			hits = append(hits[:i], hits[i+1:]...)
			i--
		}
	}
	sortStable(len(hits), func(i, j int) bool { return hits[i].at < hits[j].at }, func(i, j int) { hits[i], hits[j] = hits[j], hits[i] })
	// "A vs B", "X or Y" mark a choice, but when no word asks for one
	// ("which", "哪", "还是") the figure asked of each option leads ("A100
	// vs H100: $/M tokens each")
	for i, h := range hits {
		if h.value == "which" && len(hits) > 1 && !reWhichWord.MatchString(t) {
			hits = append(append(hits[:i:i], hits[i+1:]...), h)
			break
		}
	}
	// "每月多少钱" asks the monthly bill, not a total besides it
	monthlyAt := -1
	for _, h := range hits {
		if h.value == "money_monthly" {
			monthlyAt = h.at
		}
	}
	if monthlyAt >= 0 {
		for i := 0; i < len(hits); i++ {
			if hits[i].value == "money_total" && hits[i].at >= monthlyAt && hits[i].at <= monthlyAt+12 {
				hits = append(hits[:i], hits[i+1:]...)
				i--
			}
		}
	}
	for i := 0; i < len(hits); i++ {
		if (hits[i].value == "money_monthly" || hits[i].value == "price_per_card_hour") && onlyPriceUnit(vocab.targets, hits[i].value, t) {
			// "$14,000 a month reserved", "$2.50 per GPU-hour": the unit of a
			// price said, not a monthly bill or a market price asked for
			hits = append(hits[:i], hits[i+1:]...)
			i--
		}
	}
	for _, h := range hits {
		// a latency or per-user speed the message states ("TTFT < 800ms",
		// "每路不低于25 tokens/s") is a target to meet, not a figure it
		// asks for — unless it also asks one ("首token多少毫秒")
		if h.value == "ttft_ms" && s.TTFTMs > 0 && !reAsksLatency.MatchString(t) ||
			h.value == "tokens_per_s" && s.TPSPerUser > 0 && !reAsksSpeed.MatchString(t) {
			continue
		}
		s.Targets = append(s.Targets, h.value)
	}
	yes := anyTermWord(vocab.yesNo, t, c)
	// an English question that opens with an auxiliary: "Can Llama-3.1-70B
	// run on 4x A100?", "Is 16x H100 enough?", "Would a 1-yr RI save us money?"
	if !yes && reAuxQuestion.MatchString(t) && !reWhQuestion.MatchString(t) {
		yes = true
	}
	if !yes {
		// a clause that ends in 吗 and asks no figure: "H20现在还能买到吗？听说又被卡了。"
		for _, cl := range reClauseEnd.Split(t, -1) {
			cl = strings.TrimSpace(cl)
			if (strings.HasSuffix(cl, "吗") || strings.HasSuffix(cl, "了没有") || strings.HasSuffix(cl, "了没")) && !containsAny(cl, "多少", "几", "多久", "哪") {
				// "…吗？", "比9月涨了没有？": a clause asking yes or no
				yes = true
				break
			}
		}
	}
	s.YesNo = yes
}

// sortStable is an insertion sort (a handful of targets).
func sortStable(n int, less func(i, j int) bool, swap func(i, j int)) {
	for i := 1; i < n; i++ {
		for j := i; j > 0 && less(j, j-1); j-- {
			swap(j, j-1)
		}
	}
}

// reAsksLatency and reAsksSpeed ask for a latency or a speed, beside one
// the message states.
var (
	reAsksLatency = regexp.MustCompile(`多少毫秒|多少\s?ms|多久出首|what(?:'s| is| would be)? (?:the )?(?:p\d+ )?(?:ttft|latency)|how (?:fast|long|quick)\b[^?]{0,30}first token`)
	reAsksSpeed   = regexp.MustCompile(`多少\s?(?:token|tok)|速度(?:大概|能有|有)?多少|能到多少|how many (?:tok|token)|what (?:tok|token)s?/s|tokens? per second (?:would|do|can|will)`)
)

// perCardQuote reports whether a price is said per card ("每张1.45万",
// "$2.49/hr each") — not a card-hour rate ("每卡时15", "per card-hour"),
// which says nothing of how a machine's quote is meant.
func perCardQuote(t string) bool {
	for _, loc := range rePerCardQuote.FindAllStringIndex(t, -1) {
		if CardHourNext(t[loc[1]:]) {
			continue
		}
		return true
	}
	return false
}

// CardHourNext reports whether what follows a per-card word makes it a
// card-hour rate ("每卡时15", "per card-hour", "每卡 ¥20/小时"), not a price
// per card. The buy answer reads its own per-card words with it.
func CardHourNext(after string) bool {
	rest := strings.TrimLeft(after, " ")
	for _, p := range []string{"时", "小时", "每小时", "一小时", "-h", "-hour", "hour", "-hr"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return reHourlyNext.MatchString(rest)
}

// reHourlyNext is an hourly price right after a per-card word ("每卡 ¥20/小时"):
// the card-hour rate's unit, not a per-card quote.
var reHourlyNext = regexp.MustCompile(`^(?:[¥$￥]\s?)?\d[\d,]*(?:\.\d+)?\s?(?:元|块|美元|刀)?\s?(?:/\s?(?:小时|h\b|hr\b|hour)|一小时|每小时|an hour|per hour|/gpu-?h)`)

// reFigureBefore is a figure or an hours unit ending right before a word
// ("$14,000 a month", "6000/月", "4.6万每月", "how many hours a month").
var reFigureBefore = regexp.MustCompile(`(?:\d[\d,.]*\s?(?:k|万|千|元|块|美元|刀)?\s?(?:/\s?)?|\bhours?\s?|\bhrs?\s?|小时\s?)$`)

// onlyPriceUnit reports whether every place a target's words occur in t is
// right after a figure: the unit of a price said, not the figure asked.
func onlyPriceUnit(terms []knowledge.Term, value, t string) bool {
	found := false
	for _, term := range terms {
		if term.Value != value {
			continue
		}
		for _, w := range term.Words {
			w = strings.TrimSpace(strings.TrimSuffix(w, "*"))
			for i := 0; w != ""; {
				j := strings.Index(t[i:], w)
				if j < 0 {
					break
				}
				found = true
				if !reFigureBefore.MatchString(t[:i+j]) {
					return false
				}
				i += j + len(w)
			}
		}
	}
	return found
}
