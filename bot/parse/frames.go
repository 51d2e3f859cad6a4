package parse

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Question frames: what people say about a serving load, a usage pattern,
// a machine, a budget and values that cannot be right. Each pass reads one
// frame and blanks what it consumed, like the passes in slots.go.

// Periods convert a rate to per day or per month. A month is 365/12 days
// (30.42), so "每天用 12 小时" is 365 h/month and "40 hours a week" is
// 40 × 365/7/12 = 173.8 h/month.
const (
	daysPerMonth   = 365.0 / 12
	weeksPerMonth  = 365.0 / 7 / 12
	hoursPerMonth  = 24 * daysPerMonth // 730: a card that never stops
	maxHoursPerMon = 31 * 24
)

const tokUnit = `(?:个\s?)?(?:tokens?|词元|tok)`

var (
	// scientific notation is refused, never read ("1e308", "2.5e3")
	reSci = rx(`(?P<pre>^|[^a-z0-9.])(-?\d+(?:\.\d+)?e[+-]?\d+)(?P<end>$|[^a-z0-9])`, true, "e")
	// a comma with one or two digits after it, next to a currency: "¥18,50"
	reDecComma = rx(`(?:^|[^0-9,.])(\d+,\d{1,2})(?:$|[^0-9,])`, true, ",")
	// a negative figure with a unit: "-5 小时", "-3h", "¥-50", "-¥50"
	reNegative = rx(`(?P<pre>^|[\s=:(,])(-\s?[¥$]?\s?`+num+`\s?(?:小时|钟头|hours?\b|hrs?\b|h\b|天|days?\b|卡时|张|cards?\b|gpus?\b|元|块|刀|美元|usd\b|rmb\b|tokens?\b|samples?\b|条|%)|[¥$]\s?-\s?`+num+`)`, true, "-")

	periodWords    = `每天|每日|一天|日均|天均|per day|a day|each day|daily|每月|每个月|一个月|月均|per month|a month|each month|monthly|每小时|一小时|per hour|an hour|hourly|每周|一周|per week|a week|weekly`
	rePerDayTokens = rx(`(`+periodWords+`)[^0-9]{0,10}?`+num+`\s?(万亿|千万|百万|亿|万|千|[kmb])?\s?`+tokUnit, true, "token", "词元", "tok")
	reTokensPerDay = rx(num+`\s?(万亿|千万|百万|亿|万|千|[kmb])?\s?(?:output\s|input\s|输出|输入)?`+tokUnit+`\s?(/\s?(?:day|d|天|日|month|mo|月|hour|hr|h|小时|week|wk|周)\b|/\s?(?:天|日|月|小时|周)|per day|a day|每天|一天|per month|a month|每月|一个月|per hour|an hour|每小时|per week|a week|每周|daily|monthly|hourly|weekly)`, true, "token", "词元", "tok")
	// reRequestsDay is a day's requests: "每天10万次请求", "100k requests a day"
	reRequestsDay = rx(`(?:每天|一天|日均|每日)\s?(?:大概|约|有|差不多)?\s?`+num+`\s?(万|k)?\s?(?:个|次)?\s?(?:请求|调用|requests?|queries|calls)|`+num+`\s?(万|k)?\s?(?:个|次)?\s?(?:requests?|queries|calls|请求|调用)\s?(?:/\s?day|per day|a day|每天|daily)`, true, "请求", "调用", "request", "quer", "call")
	reRequests    = rx(num+`\s?(k)?\s?(?:个\s?|次\s?)?(?:requests?|reqs?|queries|query|calls?|请求|调用)\s?(/\s?s(?:ec)?\b|per second|a second|每秒|/\s?秒|/\s?min\b|per minute|a minute|每分钟)|`+num+`\s?(qps|rps)\b|(?:qps|rps)\s?(?:=|:|of|at|是|为|到|大概|约)?\s?`+num+`|(每秒|每分钟)\s?(?:大概|约|有)?\s?`+num+`\s?(?:个|次)?\s?(?:请求|调用|requests?|queries)`, true, "request", "req", "quer", "call", "请求", "调用", "qps", "rps")
	// "3:1 input:output", "输入输出比 1:3", "input:output ratio is 2:1"
	reSplit = rx(`(\d+(?:\.\d+)?)\s?[:：/比]\s?(\d+(?:\.\d+)?)\s?(?:的)?\s?(?:input\s?[:/]\s?output|in\s?[:/]\s?out|输入\s?[:：/比]?\s?输出)|(?:input\s?[:/]\s?output|input to output|in\s?[:/]\s?out|输入\s?[:：/和与跟]?\s?输出)\s?(?:ratio|比例|比)?\s?(?:is|of|=|是|为|:|：|大概|约|差不多|about|~|\s)*(\d+(?:\.\d+)?)\s?(?:[:：/比]|to)\s?(\d+(?:\.\d+)?)`, true, "input", "in", "输入")
	// "输入输出差不多各一半", "input and output half and half"
	reSplitHalf = rx(`(?:输入\s?(?:和|与|跟)?\s?输出|input and output|in and out)[^。？?]{0,8}?(?:各一半|各占一半|一半一半|五五开|各半|half and half|50\s?/\s?50)`, false, "输入", "input", "in and out")
	reInOut     = rx(num+`\s?(k)?\s?(?:tokens?\s?)?(?:in|input)\s?(?:tokens?\s?)?(?:/|,|and|\+|和|,\s?)?\s?`+num+`\s?(k)?\s?(?:tokens?\s?)?(?:out|output)\b`, true, "in", "out")
	reInput     = rx(num+`\s?(k)?\s?(?:-?\s?tokens?\s?)?(?:个\s?)?(?:input|prompt|输入)(?:\s?tokens?)?|(?:input|prompt|输入)(?:\s?tokens?)?\s?(?:长度|length|len)?\s?(?:=|:|是|为|约|大概|of|~)?\s?`+num+`\s?(k)?`+
		`|`+num+`\s?(k)\s?(?:-?\s?tokens?\s?)?(?:requests|reqs)\b`, true, "input", "prompt", "输入", "requests", "reqs")
	reOutput = rx(num+`\s?(k)?\s?(?:-?\s?tokens?\s?)?(?:个\s?)?(?:output|completion|输出|生成|out\b)(?:\s?tokens?)?|(?:output|completion|输出|生成)(?:\s?tokens?)?\s?(?:长度|length|len)?\s?(?:=|:|是|为|约|大概|of|~)?\s?`+num+`\s?(k)?`, true, "output", "completion", "输出", "生成", "out")

	// "40 个任务每个 3 小时", "40 jobs of 3 hours", "40 runs, 3h each"
	// "50 组实验，每组在 A100 上大概 3 小时": runs counted with a measure
	// word, the hours said per run
	reJobsEach = rx(`(\d+)\s?(?:组|次|个|轮|场)\s?(?:实验|任务|作业|训练|跑)?[^。？?]{0,20}?每(?:组|次|个|轮|场)[^。？?]{0,20}?`+num+`\s?`+hourUnit, true, "每组", "每次", "每个", "每轮", "每场")
	reJobs     = rx(`(\d+)\s?(?:个\s?)?(?:任务|作业|实验|jobs?|runs?|experiments?|tasks?)[^0-9]{0,12}?`+num+`\s?`+hourUnit, true, "任务", "作业", "实验", "job", "run", "experiment", "task")
	// machines: "2 nodes of 8 h100", "3 machines with 8 gpus"
	reNodes = rx(`(\d+)\s?(?:nodes?|machines?|servers?|boxes)\s?(?:of|with|x|each with)\s?(\d+)\s?(?:x\s?)?(?:gpus?|cards?|[§¶])`, true, "node", "machine", "server", "box")
)

// rx compiles a gated pattern.
func rx(expr string, digit bool, any ...string) *regexp.Regexp {
	return gated(regexp.MustCompile(expr), digit, any...)
}

// refuse reads values that must not be guessed at: scientific notation, a
// decimal comma next to money, negative figures. Each becomes a Problem
// saying what was read, and is blanked so no later pass reads part of it.
func (x extractor) refuse(t *text, f *features) {
	t.take(reSci, 2, func(m []string, at int) bool {
		f.problem("number", "scientific notation "+q(m[2])+" is not accepted; write the figure out", "不接受科学计数法 "+q(m[2])+"，请直接写数字", "2500, 2.5k", "2500, 2.5k, 1.2万")
		return true
	})
	if t.may(reDecComma) {
		var spans [][2]int
		for _, loc := range reDecComma.FindAllStringSubmatchIndex(t.s, -1) {
			around := t.s[max(0, loc[2]-6):min(len(t.s), loc[3]+8)]
			if !containsAny(around, "¥", "$", "元", "块", "刀", "usd", "rmb", "cny", "美元", "price", "价") {
				continue
			}
			v := t.s[loc[2]:loc[3]]
			dot, plain := strings.Replace(v, ",", ".", 1), strings.Replace(v, ",", "", 1)
			f.problem("amount", fmt.Sprintf("the comma in %q could be a decimal comma or a thousands separator: %s or %s?", v, dot, plain),
				fmt.Sprintf("%q 里的逗号看不出是小数点还是千位分隔符：是 %s 还是 %s？", v, dot, plain), dot+" or "+plain, dot+" 或 "+plain)
			spans = append(spans, [2]int{loc[2], loc[3]})
		}
		t.apply(spans, nil)
	}
	t.take(reNegative, 2, func(m []string, at int) bool {
		f.problem("number", "a negative value "+q(strings.TrimSpace(m[2]))+" makes no sense here; hours, cards, tokens and amounts are 0 or more",
			"负数 "+q(strings.TrimSpace(m[2]))+" 不合理：小时、卡数、token 和金额都不能小于 0", "40 hours, 8 cards, $75", "40 小时, 8 卡, ¥75")
		return true
	})
}

// serving reads a load per day or per second and the request shape.
func (x extractor) serving(t *text, f *features) {
	s := &f.s
	perDay := func(period, value, mag string) bool {
		v, ok := Number(value + mag)
		if !ok || v <= 0 || s.TokensPerDay != 0 {
			return false
		}
		switch {
		case containsAny(period, "月", "month", "/mo"):
			f.note(fmt.Sprintf("%s tokens a month read as %s a day (365/12 days a month)", trim(v), trim(v/daysPerMonth)))
			v /= daysPerMonth
		case containsAny(period, "小时", "hour", "/h", "/hr"):
			f.note(fmt.Sprintf("%s tokens an hour read as %s a day", trim(v), trim(v*24)))
			v *= 24
		case containsAny(period, "周", "week", "/wk"):
			v /= 7
		}
		s.TokensPerDay = v
		return true
	}
	t.first(reTokensPerDay, 1, func(m []string, at int) bool { return perDay(m[3], m[1], m[2]) })
	t.first(rePerDayTokens, 2, func(m []string, at int) bool { return perDay(m[1], m[2], m[3]) })
	t.first(reRequests, 0, func(m []string, at int) bool {
		if s.RequestsPerS != 0 {
			return false
		}
		v, ok := Number(m[1] + m[4] + m[6] + m[8])
		if !ok || v <= 0 {
			return false
		}
		if m[2] == "k" {
			v *= 1e3
		}
		if containsAny(m[3]+m[7], "min", "分钟") {
			v /= 60
		}
		s.RequestsPerS = v
		return true
	})
	t.first(reRequestsDay, 0, func(m []string, at int) bool {
		if s.RequestsPerS != 0 || s.PeakRequestsPerS != 0 {
			return false
		}
		v, ok := Number(m[1] + m[2] + m[3] + m[4]) // the figure with its 万 or k
		if !ok || v <= 0 {
			return false
		}
		s.RequestsPerS, s.AverageLoad = v/86400, true // a day's requests: an average, peaks above it
		f.note(fmt.Sprintf("%s requests a day read as %s requests/s on average", trim(v), trim(v/86400)))
		return true
	})
	tokens := func(dst *int, v string, k string) bool {
		n, ok := Number(v)
		if k == "k" {
			n *= 1024
		}
		if !ok || n <= 0 || n > 1<<22 || *dst != 0 {
			return false
		}
		*dst = int(n)
		return true
	}
	t.take(reSplit, 0, func(m []string, at int) bool {
		x, ok1 := Number(m[1] + m[3])
		y, ok2 := Number(m[2] + m[4])
		if !ok1 || !ok2 || x+y <= 0 {
			return false
		}
		s.InputShare = x / (x + y)
		f.note(fmt.Sprintf("input:output %s:%s read as %s%% input", trim(x), trim(y), trim(100*s.InputShare)))
		return true
	})
	t.take(reSplitHalf, 0, func(m []string, at int) bool {
		s.InputShare = 0.5
		f.note("input and output half each read as 50% input")
		return true
	})
	t.first(reInOut, 1, func(m []string, at int) bool {
		return tokens(&s.InputTokens, m[1], m[2]) && tokens(&s.OutputTokens, m[3], m[4])
	})
	t.first(reInput, 0, func(m []string, at int) bool {
		return tokens(&s.InputTokens, m[1]+m[3]+m[5], m[2]+m[4]+m[6])
	})
	t.first(reOutput, 0, func(m []string, at int) bool {
		// "生成1万张图" counts images, not one output token
		if rest := strings.TrimLeft(t.s[at+len(m[0]):], " "); strings.HasPrefix(rest, "万") || strings.HasPrefix(rest, "千") || strings.HasPrefix(rest, "张") {
			return false
		}
		return tokens(&s.OutputTokens, m[1]+m[3], m[2]+m[4])
	})
}

// jobs reads "N jobs of H hours" as N×H hours a month.
func (x extractor) jobs(t *text, f *features) {
	s := &f.s
	t.first(reJobs, 1, func(m []string, at int) bool {
		n, ok1 := Number(m[1])
		h, ok2 := Number(m[2])
		if !ok1 || !ok2 || n <= 0 || h <= 0 || s.HoursPerMonth != 0 {
			return false
		}
		s.HoursPerMonth = n * h
		f.note(fmt.Sprintf("%s jobs × %s h read as %s h per month", trim(n), trim(h), trim(n*h)))
		return true
	})
	t.first(reJobsEach, 1, func(m []string, at int) bool {
		n, ok1 := Number(m[1])
		h, ok2 := Number(m[2])
		if !ok1 || !ok2 || n <= 0 || h <= 0 || s.HoursPerMonth != 0 || s.Hours != 0 {
			return false
		}
		s.Hours = n * h
		f.note(fmt.Sprintf("%s runs × %s h read as %s h in all", trim(n), trim(h), trim(n*h)))
		return true
	})
}

// problem adds a Problem in both languages; hintZH is the hint for a
// Chinese asker, "" when hint reads the same in both.
func (f *features) problem(field, en, zh, hint, hintZH string) {
	f.probs = append(f.probs, Problem{Field: field, Reason: en, Hint: hint, zh: zh, hintZH: hintZH})
}

func q(s string) string { return strconv.Quote(s) }
