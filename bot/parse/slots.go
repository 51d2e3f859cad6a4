package parse

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpubot/gpubot/bot/parse/amount"
	"github.com/gpubot/gpubot/knowledge"
)

const num = `(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)`

var (
	reCommaKey = regexp.MustCompile(`,(\s*[a-z_]+\s?=)`)
	reKV       = gated(regexp.MustCompile(`(?:^|[^a-z0-9_])([a-z_]+)\s?=\s?([^\s;]+)`), false, "=")

	reSaturated = gated(regexp.MustCompile(`常驻|一直开着|always on|non-?stop|天天跑满|一直跑满|跑满|满载|满负荷|(?:一天|每天)?\s?24\s?(?:小时|h)\s?(?:不停|不间断|运行|开着|跑|在线|常驻|服务)|全天候|7\s?[x*]\s?24|24\s?/\s?7|24x7|around the clock|full load|flat out|全年无休|不停机`), false, "满", "24", "全天", "常驻", "一直开着", "always on", "nonstop", "non-stop", "around the clock", "full load", "flat out", "不停", "7x24", "7*24", "7 x 24")
	reRate      = gated(regexp.MustCompile(`(?:资金成本|资本成本|机会成本|利率|年化|cost of capital|interest rate|interest|discount rate)\s?(?:按|是|为|=|:|of|at|约)?\s?`+num+`\s?%`), true, "成本", "利率", "年化", "capital", "interest", "discount rate")
	reMFU       = gated(regexp.MustCompile(`mfu\s?(?:按|是|为|=|:|of|at|约)?\s?`+num+`\s?(%)?|`+num+`\s?%\s?(?:的\s?)?mfu`), true, "mfu")
	reFX        = gated(regexp.MustCompile(`(?:汇率|fx|exchange rate)\s?(?:按|是|为|=|:|of|at|约)?\s?`+num), true, "汇率", "fx", "exchange rate")
	rePUE       = gated(regexp.MustCompile(`pue\s?(?:按|是|为|=|:|of|at|约)?\s?`+num), true, "pue")
	reWatts     = gated(regexp.MustCompile(num+`\s?(?:瓦|watts?\b|w\b)`), true, "瓦", "watt", "w")
	reWattsCue  = regexp.MustCompile(`功耗|power draw|tdp|draws?|瓦|watts?`)
	reTPS       = gated(regexp.MustCompile(num+`\s?(k)?\s?(?:tokens?|tok|t)\s?(?:/\s?s(?:ec)?\b|per second|每秒|/秒)|`+num+`\s?tps\b|tps\s?(?:=|:|of|at)?\s?`+num+`|每秒\s?`+num+`\s?(?:个\s?)?tokens?|吞吐\s?(?:按|是|为|:)?\s?`+num), true, "/s", "per second", "每秒", "/秒", "tps", "吞吐")
	reSampleTok = gated(regexp.MustCompile(`每条(?:样本|数据)?\s?(?:平均|大约|约)?\s?`+num+`\s?(k)?\s?(?:个\s?)?(?:tokens?|词元)|`+num+`\s?(k)?\s?tokens?\s?(?:per|/|each|every)\s?(?:sample|example|row)|(?P<pre>(?:条|samples?|examples?|rows?)[^。？?0-9]{0,6}?(?:平均|均|avg|average|averaging|each|~)\s?(?:每条)?\s?(?:约|大约|about|~)?\s?)`+num+`\s?(k)?\s?(?:个\s?)?(?:tokens?|词元)`), true, "每条", "per", "each", "every", "/", "平均", "均", "avg", "averag")
	reTokens    = gated(regexp.MustCompile(num+`\s?(万亿|千万|百万|亿|万|[kmbt])?\s?(?:个\s?)?(?:tokens?|词元)`), true, "token", "词元")
	reSamples   = gated(regexp.MustCompile(num+`\s?(千|万|[kmw])?\s?(?:个\s?)?(?:samples?|examples?|rows?|instances?|条(?:样本|数据|训练数据)?|个样本|样本)`), true, "sample", "example", "row", "instance", "条", "样本")
	reEpochs    = gated(regexp.MustCompile(num+`\s?(?:个\s?)?(?:epochs?|轮|遍)|epochs?\s?(?:=|:)?\s?`+num), true, "epoch", "轮", "遍")
	reGPUHours  = gated(regexp.MustCompile(num+`\s?(千|万|k)?\s?(?:个\s?)?(?:卡时|卡小时|gpu\s?小时|gpu[-\s]?hours?|gpu[-\s]?hrs?|gpu·h|card[-\s]?hours?)`), true, "卡时", "卡小时", "gpu", "card")
	hourUnit    = `(?:个\s?)?(?:小时|钟头|hours?\b|hrs?\b|h\b)`
	reHoursPer  = gated(regexp.MustCompile(`(每月|每个月|一个月|月均|每月大概|per month|a month|each month|monthly|每天|一天|每日|日均|per day|a day|each day|daily|每周|一周|per week|a week|weekly|每年|一年|per year|a year|yearly)[^0-9]{0,12}?`+num+`\s?`+hourUnit), true, "h", "小时", "钟头")
	reHoursPost = gated(regexp.MustCompile(num+`\s?`+hourUnit+`\s?(/\s?月|/\s?month|/\s?mo\b|每月|一个月|a month|per month|/\s?天|/\s?day|每天|一天|a day|per day|/\s?周|/\s?week|每周|a week|per week|/\s?年|/\s?year|每年|一年|a year|per year)`), true, "h", "小时", "钟头")
	reDays      = gated(regexp.MustCompile(`(跑|跑个|跑上|训练|跑了|用了|租|租个|租了|租用|for)\s?`+num+`\s?(?:个\s?)?(?:天|days?\b)`), true, "天", "day")
	// reSpan is a rental's length in weeks or months: "for 2 weeks", "租两个月",
	// "over 6 weeks", or a bare English "2 weeks" (a deadline's words —
	// "in 2 weeks", "6-week run" — are read first, as a deadline)
	reSpan = gated(regexp.MustCompile(`(?:(?:跑|跑个|跑上|租|租个|租了|租用|用|for|over)\s?`+num+`\s?(?:个\s?)?(周|星期|礼拜|weeks?\b|wks?\b|个月|months?\b)|\b`+num+`[\s-]?(weeks?|wks?)\b)`), true, "周", "星期", "礼拜", "week", "wk", "月", "month")
	// reTimesCard is a count glued to a card name ("8xa100", "4xh100"); a
	// digit after the x is a model's shape ("8x7b") and stays
	reTimesCard = regexp.MustCompile(`\b(\d{1,4})x([a-z])`)
	// reSpanOne is one week or month of a rental, said in words: "租一个月",
	// "跑一周", "for a week" (not "一天": "一天跑8小时" is a day's use)
	reSpanOne    = gated(regexp.MustCompile(`(?:跑|跑个|跑上|租|租个|租了|租用|用|撑|for|over)\s?(?:一|a|one)\s?(?:个\s?|整\s?|full\s|whole\s)?(周|星期|礼拜|week\b|月|month\b|年|year\b)`), false, "周", "星期", "礼拜", "week", "月", "month", "年", "year")
	reHours      = gated(regexp.MustCompile(num+`\s?`+hourUnit), true, "h", "小时", "钟头")
	reParams     = gated(regexp.MustCompile(num+`\s?b(?:\s?(?:参数|模型|params?|parameters?))?(?P<end>$|[^a-z0-9])`), true, "b")
	reParamsYi   = gated(regexp.MustCompile(num+`\s?(万)?亿(?:个)?(?:参数)?`), true, "亿")
	reParamsM    = gated(regexp.MustCompile(`(?P<pre>^|[^a-z0-9.])(\d+(?:\.\d+)?)\s?m\s?(?:param(?:eter)?s?|model|参数|模型|gpt-?2|gpt|bert|llm|lm\b|transformer|decoder|t5)`), true, "m")
	reParamsBn   = gated(regexp.MustCompile(num+`\s?billion(?:\s?param(?:eter)?s?)?`), true, "billion")
	reNegParams  = gated(regexp.MustCompile(`(?:^|\s)-`+num+`\s?b\b`), true, "-")
	reContextK   = gated(regexp.MustCompile(num+`\s?k\s?(?:的\s?)?(?:上下文|context|ctx|长度|序列|tokens? context|window)`), true, "k")
	reContextKey = gated(regexp.MustCompile(`(?:上下文长度|上下文|context length|context|ctx|序列长度|seq(?:uence)?[\s_]?len(?:gth)?|max[\s_]?len|cutoff[\s_]?len|长度)\s?(?:是|为|=|:|of|at|到|开到)?\s?`+num+`\s?(k)?`), true, "上下文", "context", "ctx", "序列", "seq", "len", "长度")
	reBareK      = gated(regexp.MustCompile(`(?P<pre>^|[^a-z0-9.$¥])(1|2|4|8|16|32|64|128|256)k(?P<end>$|[^a-z0-9])`), true, "k")
	reBatch      = gated(regexp.MustCompile(`(?:batch[\s_]?size|batch|bs|批大小|批次大小|批量大小|批次|批量)\s?(?:是|为|=|:|of|开到)?\s?(\d+)`), true, "batch", "bs", "批")
	// hours of each day said beside the weeks: "8 hours a day", "每天8小时"
	reHoursADay = regexp.MustCompile(`(\d+(?:\.\d+)?)\s?(?:hours?|hrs?|h)\s?(?:a|per|each)\s?day|(?:每天|一天)\s?(?:用|跑|开)?\s?(\d+(?:\.\d+)?)\s?(?:个)?\s?(?:小时|h)`)
	// weekWords are the week counts written in English words.
	weekWords = map[string]float64{"one": 1, "two": 2, "three": 3, "four": 4}
	// "about three weeks a month", "每月用三周": round the clock for those weeks
	reWeeksAMonth = gated(regexp.MustCompile(`(\d+(?:\.\d+)?|one|two|three|four)\s?weeks?\s?(?:a|per|each|every|/)\s?month|(?:每月|每个月|一个月)\s?(?:大概|约)?\s?(?:用|跑|开)?\s?(\d+(?:\.\d+)?)\s?(?:周|个星期|星期)`), false, "week", "周", "星期")
	reConc        = gated(regexp.MustCompile(`(\d+)\s?concurrency\b|\bconcurrency\s?(?:of|=|:|at)?\s?(\d+)|(\d+)\s?(?:路|个)?\s?并发|并发(?:数|量|用户)?\s?(?:是|为|=|:|到|大概|约)?\s?(\d+)|(\d+)\s?(?:concurrent|simultaneous|parallel)(?:\s?(?:users?|requests?|sessions?|streams?))?|(\d+)\s?users\b|同时\s?(\d+)\s?(?:个)?\s?(?:人|用户|请求)|(\d+)\s?(?:个)?\s?(?:人|用户|同学|学生)\s?同时(?:在线|使用|用|访问|请求|提问)|(\d+)\s?(?:ppl|people|users?|students?)\s?(?:using it\s?|on it\s?)?at once`), true, "并发", "concurrent", "concurrency", "simultaneous", "parallel", "users", "同时", "at once")
	// An image size: 1024x1024, 768×1344, 512px, 1024² (pixels per side).
	reResolution = gated(regexp.MustCompile(`(?P<pre>^|[^0-9.])(\d{3,4})\s?[x×*]\s?(\d{3,4})(?P<end>$|[^0-9])|(\d{3,4})\s?(?:px\b|像素|²|分辨率|的分辨率|resolution\b|res\b)|(?:分辨率|resolution|res)\s?(?:是|为|:|=|of|at)?\s?(\d{3,4})\b`), true, "x", "×", "*", "px", "像素", "²", "分辨率", "resolution", "res")
	// How many images: 1000 张, 1万张图, 50k images.
	reImages = gated(regexp.MustCompile(num+`\s?(千|万|k|m)?\s?(?:张(?:图|图片)?|images?\b|imgs?\b|pictures?\b|pics?\b|photos?\b)`), true, "张", "image", "img", "picture", "pic", "photo")
	reSteps  = gated(regexp.MustCompile(num+`\s?(k)?\s?(?:steps?\b|步)`), true, "step", "步")
	reRank   = gated(regexp.MustCompile(`(?:rank|秩)\s?(?:是|为|=|:)?\s?(\d+)`), true, "rank", "秩")
	reGCOff  = regexp.MustCompile(`(?:关掉|关闭|不开|不用|禁用|去掉|without|no|disable|turn off)\s?(?:梯度检查点|gradient checkpointing|grad(?:ient)? ckpt|gc)|(?:梯度检查点|gradient checkpointing|gc)\s?(?:关|off|关掉|关闭)`)
	reGCOn   = regexp.MustCompile(`(?:开启|打开|开|用|with|enable)\s?(?:梯度检查点|gradient checkpointing)`)
	reOptim8 = regexp.MustCompile(`adamw?[\s_-]?8[\s_-]?bit|8[\s_-]?bit\s?adamw?|paged[\s_-]?adamw`)
	reOptim  = regexp.MustCompile(`\badamw?\b`)
	reBits   = gated(regexp.MustCompile(`(?P<pre>^|[^a-z0-9])(?:(?:int|fp|bf)?(4|8|16)\s?(?:-?bits?|位|比特)|(?:int|fp|bf|nf)(4|8|16)|(awq|gptq|半精度))(?P<end>$|[^a-z0-9])`), false, "bit", "位", "比特", "int", "fp", "bf", "nf", "awq", "gptq", "半精度")
	reCardsX = gated(regexp.MustCompile(`(\d+)\s?[x*]\s?[§¶]|[§¶]\s*[x*]\s?(\d+)\b|(\d+)\s?(?:张|块|片)\s?(?:卡|显卡|gpu|[§¶])|[§¶]\s*(\d+)\s?(?:张|块|片)|(\d+)\s?台\s?(\d+)\s?卡|(\d+)\s?卡|(\d+)\s?(?:gpus?|cards?|nodes? of)\b|(\d+)\s?§|(?:single|one)\s?[§¶]|一张\s?[§¶]`+
		`|(\d+)\s?(?:idle|spare|old|more|extra|used)\s[§¶]|(\d+)\s(?:of them|of those)\b|(?:need|want|wants|have|has|got)\s(\d+)\s(?:for|of|to|in|on)\b|要\s?(\d+)\s?(?:张|块|台)|(\d+)\s?张的单`), false, "§", "¶", "卡", "张", "块", "片", "台", "gpu", "card", "node", "of them", "of those", "need", "want", "have", "has", "got")
	rePercent    = gated(regexp.MustCompile(num+`\s?%|(\d+)\s?成|(一半|\bhalf\b)`), false, "%", "成", "一半", "half")
	rePercentNeg = regexp.MustCompile(`(?:省|便宜|折扣|优惠|打折|降|涨|跌|off|save|saving|discount|cheaper|more|less|drop|rise|up|down)\s?(?:了|约|大概|about|by)?\s?$|(?:输出|输入|output|input|prompt)\s?(?:占|is|are|=)?\s?(?:了|约|大概|about)?\s?$`)
	reVRAM       = gated(regexp.MustCompile(`(?P<pre>^|[^a-z0-9.])`+num+`\s?(?:gb|gib|g)(?:\s?显存)?(?P<end>$|[^a-z0-9])|显存\s?(?:是|为|只有|有)?\s?`+num+`\s?(?:gb|g)\b`), true, "0g", "0 g", "1g", "1 g", "2g", "2 g", "3g", "3 g", "4g", "4 g", "5g", "5 g", "6g", "6 g", "7g", "7 g", "8g", "8 g", "9g", "9 g")
	reOneYearZH  = regexp.MustCompile(`(?:签|租|包|用|跑)一年|一年期|一年下来|一年能省|一年省|一年的总|全年`)
	reYears      = gated(regexp.MustCompile(num+`[\s-]?(?:个\s?)?(?:年|years?\b|yrs?\b|year)`), true, "年", "year", "yr")
	reMonthFull  = gated(regexp.MustCompile(`\b(20\d\d)\s?[-/.年]\s?(\d{1,2})\s?月?`), true, "20")
	reMonthNum   = regexp.MustCompile(`(?:^|[^0-9])(\d{1,2})\s?月(?:份)?`)
	reMonthName  = regexp.MustCompile(`\b(` + alternation(vocab.monthWords()) + `)\b`)
	reProject    = gated(regexp.MustCompile(`(?:项目|\bproject\b|\bproj\b)\s?(?:[:：]|是|为|叫)?\s?([a-z0-9][a-z0-9_\-.]*)|(?:项目|\bproject\b)\s?(?:[:：]|是|为|叫|\s)\s?(\p{Han}{1,10})|记到\s?([a-z0-9_\-.]+|\p{Han}{1,8}?)\s?(?:项目|下|$|[,.;!])`), false, "项目", "proj", "记到")
	reSpendID    = regexp.MustCompile(`(?:delete|remove|rm|删除|删掉|删)\s?(?:记录|entry|条|id)?\s?#?([a-z0-9][a-z0-9_\-]{2,})`)
	// reOtherCurrencyQ asks for a currency the catalogue has no sourced
	// rate for ("in EUR", "show it in euros", "用欧元算", "换成日元")
	reOtherCurrencyQ = regexp.MustCompile(`(?:用|换算成|换成|折合|按|以)\s?(欧元|英镑|日元|港币|新加坡元)|\b(?:in|to)\s(eur|euros?|gbp|pounds?|jpy|yen|sgd|hkd)\b|\b(eur|gbp|jpy)\b`)
	reCurrencyQ      = regexp.MustCompile(`(?:用|换算成|换成|折合|按|以)\s?(美元|美金|人民币|rmb|usd|dollars?)\s?(?:算|计算|计|显示|报价|来算)?|\bin\s(usd|dollars|us dollars|rmb|cny|yuan|renminbi)\b|多少(美元|美金|刀|人民币)`)
)

// features are what a message says, before the intent is known. finish
// turns them into Slots for one intent.
type features struct {
	s          Slots
	money      []moneyHit
	kvSet      map[string]bool // keys given as key=value
	weakMethod bool            // method came from "deploy"/"部署" alone
	bareHours  bool            // Hours came without a per-period word
	spanHours  bool            // Hours are a rental's weeks or months, never hours per month
	billing    string
	persona    string
	topic      string
	workload   string
	month      string
	project    string
	id         string
	saturated  bool
	langAsked  string // the language the message asks the answer in
	gpuCount   int    // GPU mentions, counting repeats
	lang       string
	now        time.Time // the caller's, for relative dates
	cueText    string    // the text with settings and names taken out, for the router
	rest       string    // what no pass consumed
	probs      []Problem
	// future is a date ahead of today ("下周五前", "by Fri"): a deadline
	// for a job, refused only for a ledger entry (finish)
	future day
}

// extractor reads slots from text.
type extractor struct {
	gpus, platforms nameMatcher
	modelNames      nameMatcher
	modelSize       map[string]float64
	archs           map[string]bool
	lex             *knowledge.Lexicon
	// reProjectLead and reBudgetBefore/After are built from the lexicon.
	reProjectLead                 *regexp.Regexp
	reBudgetBefore, reBudgetAfter *regexp.Regexp
	owners_                       ownerRes
}

// maxParamsB is the largest model size read from text, in billions.
const maxParamsB = 5000

func newExtractor(kb *knowledge.Base, lex *knowledge.Lexicon) extractor {
	x := extractor{gpus: newGPUMatcher(kb, lex.Cards), platforms: newPlatformMatcher(kb, lex.FalseFriends), archs: map[string]bool{}, lex: lex}
	x.modelNames, x.modelSize = newModelMatcher(lex)
	x.reProjectLead = gated(regexp.MustCompile(`(?:`+alternation(lex.Projects.Lead)+`)\s?(?:项目|project)?\s?[:：]?\s?(?:([a-z0-9][a-z0-9_\-.]*)|(\p{Han}{1,10}?)\s?(?:`+alternation(lex.Projects.Close)+`))`), false, lex.Projects.Lead...)
	x.reBudgetBefore = regexp.MustCompile(`(?:` + alternation(lex.Budget.Before) + `)\s?(?:就|只有|有|大概|大约|约|是|为|就是|总共|一共|只|:|=|of|only|just|about|around|roughly|~|改成|改为|调到|提到|降到|设成|设为)*\s?$`)
	x.reBudgetAfter = regexp.MustCompile(`^\s?(?:` + alternation(lex.Budget.After) + `)`)
	pj := lex.Projects
	x.owners_ = newOwnerRes(pj.Lead, pj.After, pj.LedgerLead, pj.TeamBefore, pj.TeamAfter, pj.NotNames, pj.LedgerWords)
	for _, a := range kb.Archs {
		x.archs[a.ID] = true
	}
	return x
}

// extract reads every slot it can from cleaned text. It never decides the
// intent; slash says whether unknown key=value settings are errors.
func (x extractor) extract(cleaned string, slash bool, now time.Time) features {
	f := features{kvSet: map[string]bool{}, now: now}
	t := &text{s: arabize(reTimesCard.ReplaceAllString(respell(strings.ToLower(cleaned)), "${1}x ${2}"))}
	t.digits = strings.ContainsAny(t.s, "0123456789")
	x.keyValues(t, &f, slash)
	x.models(t, &f)
	x.names(t, &f)
	f.lang = langOf(t.s, slash)
	f.cueText = t.s
	x.refuse(t, &f)
	x.frame(t, &f) // before dates: "by Dec 31" is a deadline, not an entry's day
	x.dates(t, &f, now)
	f.money = x.scanMoney(t)
	x.rates(t, &f)
	x.serving(t, &f)
	x.volumes(t, &f)
	x.jobs(t, &f)
	x.hours(t, &f)
	x.model(t, &f)
	x.shape(t, &f)
	x.cards(t, &f)
	x.fractions(t, &f)
	x.misc(t, &f)
	x.owners(t, &f)
	x.words(t, &f)
	x.afterFrame(t, &f)
	x.targets(&f)
	if f.langAsked != "" {
		f.lang = f.langAsked
	}
	f.rest = t.s
	return f
}

// names marks cards and blanks platforms.
func (x extractor) names(t *text, f *features) {
	gh := x.gpus.find(t.s)
	f.gpuCount = len(gh)
	for _, id := range ids(gh) {
		if !contains(f.s.GPUs, id) {
			f.s.GPUs = append(f.s.GPUs, id)
		}
	}
	spans, marks := make([][2]int, 0, len(gh)), make([]string, 0, len(gh))
	for _, h := range gh {
		m := markAlpha
		if h.digitLed {
			m = markDigit
		}
		spans, marks = append(spans, [2]int{h.start, h.end}), append(marks, m)
	}
	t.apply(spans, marks)
	ph := x.platforms.find(t.s)
	spans = spans[:0]
	for _, h := range ph {
		start := h.start
		if start > 0 && t.s[start-1] == '@' {
			start--
		}
		spans = append(spans, [2]int{start, h.end})
	}
	t.apply(spans, nil)
	ps := ids(ph)
	if f.s.Platform == "" && len(ps) > 0 {
		f.s.Platform = ps[0]
	}
	for _, p := range ps {
		if !contains(f.s.Platforms, p) && (len(f.s.Platforms) > 0 || p != f.s.Platform || len(ps) > 1) {
			f.s.Platforms = append(f.s.Platforms, p)
		}
	}
	if len(f.s.Platforms) == 1 {
		f.s.Platforms = nil
	}
}

// rates reads MFU, FX, PUE, cost of capital, watts, tokens/s and the
// "always busy" phrases.
func (x extractor) rates(t *text, f *features) {
	s := &f.s
	t.take(reSaturated, 0, func([]string, int) bool {
		f.saturated = true
		return true
	})
	t.first(reRate, 1, func(m []string, at int) bool {
		if s.Rate != nil {
			return false
		}
		v, _ := Number(m[1])
		v /= 100
		s.Rate = &v
		return true
	})
	t.first(reMFU, 0, func(m []string, at int) bool {
		if s.MFU != 0 {
			return false
		}
		val := m[1] + m[2]
		if m[3] != "" {
			val = m[3] + "%"
		}
		v, ok := ParseFraction(val)
		if !ok || v <= 0 || v > 1 {
			return false
		}
		s.MFU = v
		return true
	})
	t.first(reFX, 1, func(m []string, at int) bool {
		v, _ := Number(m[1])
		if s.FX != 0 || v <= 0 || v > 1000 {
			return false
		}
		s.FX = v
		return true
	})
	t.first(rePUE, 1, func(m []string, at int) bool {
		v, _ := Number(m[1])
		if s.PUE != 0 || v < 1 || v > 5 {
			return false
		}
		s.PUE = v
		return true
	})
	if s.Watts == nil && t.may(reWatts) && reWattsCue.MatchString(t.s) {
		t.first(reWatts, 1, func(m []string, at int) bool {
			v, _ := Number(m[1])
			if v <= 0 || v > 100000 {
				return false
			}
			s.Watts = &v
			return true
		})
	}
	t.first(reTPS, 0, func(m []string, at int) bool {
		if s.TPS != 0 {
			return false
		}
		v, ok := Number(m[1] + m[3] + m[4] + m[5] + m[6])
		if m[2] == "k" {
			v *= 1e3
		}
		if !ok || v <= 0 {
			return false
		}
		s.TPS = v
		return true
	})
}

// volumes reads tokens, samples, tokens per sample and epochs.
func (x extractor) volumes(t *text, f *features) {
	s := &f.s
	t.first(reSampleTok, 0, func(m []string, at int) bool {
		if s.SampleTokens != 0 {
			return false
		}
		v, ok := Number(m[1] + m[2] + m[3] + m[4] + m[6] + m[7]) // m[5] is the samples' words before the figure
		if !ok || v <= 0 {
			return false
		}
		s.SampleTokens = v
		return true
	})
	t.take(reTokens, 1, func(m []string, at int) bool {
		if at > 0 {
			before := strings.TrimRight(t.s[:at], " ")
			if strings.HasSuffix(before, "每") || strings.HasSuffix(before, "per") || strings.HasSuffix(before, "/") || strings.HasSuffix(before, "$") {
				return true // "每百万 token", "$/M tokens": a unit, not a volume
			}
		}
		if s.Tokens != 0 {
			return false
		}
		v, ok := Number(m[1] + m[2])
		if !ok || v <= 0 {
			return false
		}
		s.Tokens = v
		return true
	})
	t.first(reSamples, 1, func(m []string, at int) bool {
		if s.Samples != 0 {
			return false
		}
		v, ok := Number(m[1] + m[2])
		if !ok || v <= 0 {
			return false
		}
		s.Samples = v
		return true
	})
	t.first(reEpochs, 0, func(m []string, at int) bool {
		if s.Epochs != 0 {
			return false
		}
		v, ok := Number(m[1] + m[2])
		if !ok || v <= 0 || v > 1000 {
			return false
		}
		s.Epochs = v
		return true
	})
}

// hours reads card-hours, hours per period and job hours.
func (x extractor) hours(t *text, f *features) {
	s := &f.s
	t.first(reGPUHours, 1, func(m []string, at int) bool {
		v, ok := Number(m[1] + m[2])
		if !ok || v <= 0 || s.GPUHours != 0 {
			return false
		}
		s.GPUHours = v
		return true
	})
	perPeriod := func(period, value string) bool {
		v, ok := Number(value)
		if !ok || v <= 0 || s.HoursPerMonth != 0 {
			return false
		}
		limit, per, perZH, factor := float64(maxHoursPerMon), "month", "月", 1.0
		switch {
		case containsAny(period, "天", "日", "day", "daily"):
			limit, per, perZH, factor = 24, "day", "天", daysPerMonth
			if d := reDaysAMonth.FindStringSubmatch(t.s); d != nil {
				// "一天跑 14 小时，一个月跑 26 天": those days, not every day
				if n, ok := Number(d[1] + d[2]); ok && n > 0 && n <= 31 {
					s.HoursPerMonth = v * n
					f.note(fmt.Sprintf("%s h/day × %s days a month read as %s h/month", trim(v), trim(n), trim(v*n)))
					return v <= 24
				}
			}
		case containsAny(period, "周", "week"):
			limit, per, perZH, factor = 168, "week", "周", weeksPerMonth
		case containsAny(period, "年", "year"):
			limit, per, perZH, factor = 8784, "year", "年", 1.0/12
		}
		if v > limit {
			f.problem("hours_per_month", fmt.Sprintf("%s hours a %s is more than a %s has (at most %s)", trim(v), per, per, trim(limit)),
				fmt.Sprintf("每%s %s 小时超过了一%s的总小时数（最多 %s）", perZH, trim(v), perZH, trim(limit)), "12 hours a day, 200h/month, 40 hours a week", "每天 12 小时, 200h/月, 每周 40 小时")
			return true
		}
		s.HoursPerMonth = v * factor
		if factor != 1 {
			f.note(fmt.Sprintf("%s h/%s read as %s h/month (365/12 days a month)", trim(v), per, trim(v*factor)))
		}
		return true
	}
	t.first(reWeeksAMonth, 0, func(m []string, at int) bool {
		// "we only need it about three weeks a month": whole weeks of it
		v, ok := Number(m[1] + m[2])
		if w, word := weekWords[m[1]]; word {
			v, ok = w, true
		}
		if !ok || v <= 0 || v > 4 || s.HoursPerMonth != 0 {
			return false
		}
		perDay := 24.0
		if d := reHoursADay.FindStringSubmatch(t.s); d != nil {
			// "three weeks a month, 8 hours a day": those hours of those days
			if h, ok := Number(d[1] + d[2]); ok && h > 0 && h <= 24 {
				perDay = h
			}
		}
		s.HoursPerMonth = v * 7 * perDay
		f.note(fmt.Sprintf("%s weeks a month × 7 days × %s h a day read as %s h/month", trim(v), trim(perDay), trim(s.HoursPerMonth)))
		return true
	})
	t.first(reHoursPost, 1, func(m []string, at int) bool { return perPeriod(m[2], m[1]) })
	t.first(reHoursPer, 2, func(m []string, at int) bool { return perPeriod(m[1], m[2]) })
	t.first(reDays, 2, func(m []string, at int) bool {
		before := t.s[:at]
		if s.Hours != 0 || containsAny(before[max(0, len(before)-9):], "近", "过去", "最近", "last", "past") {
			return false
		}
		v, ok := Number(m[2])
		if !ok || v <= 0 {
			return false
		}
		s.Hours = v * 24
		f.note(fmt.Sprintf("%s days read as %s hours", trim(v), trim(v*24)))
		return true
	})
	t.first(reSpan, 0, func(m []string, at int) bool {
		if s.Hours != 0 || s.Days != 0 {
			return false
		}
		v, ok := Number(m[1] + m[3])
		if !ok || v <= 0 {
			return false
		}
		unit, perUnit := m[2]+m[4], 7*24.0
		if containsAny(unit, "月", "mo") {
			perUnit = hoursPerMonth
		}
		if v*perUnit > 87600 {
			f.problem("hours", fmt.Sprintf("%s %s is more than 10 years; a rental is priced for at most 87,600 hours", trim(v), unit),
				fmt.Sprintf("%s %s 超过 10 年；租用最多按 87,600 小时计算", trim(v), unit), "for 6 weeks, for 3 months", "租两个月, 跑6周")
			return true
		}
		s.Hours, f.spanHours = v*perUnit, true
		f.note(fmt.Sprintf("%s %s read as %s hours", trim(v), unit, trim(s.Hours)))
		return true
	})
	t.first(reSpanOne, 0, func(m []string, at int) bool {
		if s.Hours != 0 || s.Days != 0 || s.HoursPerMonth != 0 {
			return false
		}
		h := map[string]float64{"周": 168, "星期": 168, "礼拜": 168, "week": 168, "月": hoursPerMonth, "month": hoursPerMonth, "年": 8760, "year": 8760}[m[1]]
		s.Hours, f.spanHours = h, true
		f.note(fmt.Sprintf("one %s read as %s hours", m[1], trim(h)))
		return true
	})
	t.first(reHours, 1, func(m []string, at int) bool {
		v, ok := Number(m[1])
		if !ok || v <= 0 || s.Hours != 0 {
			return false
		}
		s.Hours, f.bareHours = v, true
		return true
	})
	if f.saturated && s.HoursPerMonth == 0 {
		s.HoursPerMonth = hoursPerMonth
		f.note("around the clock read as 730 h/month (24 h × 365/12 days)")
	}
}

// model reads the model: size, reference architecture, method words.
func (x extractor) model(t *text, f *features) {
	s := &f.s
	t.first(reNegParams, 0, func(m []string, at int) bool {
		if s.ParamsB != 0 {
			return false
		}
		f.probs = append(f.probs, Problem{Field: "params_b", Reason: "a model size must be positive, got -" + m[1] + "b", Hint: "13b, 70B", zh: "模型大小必须是正数，读到 -" + m[1] + "b", hintZH: "13b, 70B, 130亿"})
		return true
	})
	t.first(reParams, 1, func(m []string, at int) bool {
		v, ok := Number(m[1])
		if !ok || v <= 0 || s.ParamsB != 0 {
			return false
		}
		if v > maxParamsB {
			f.problem("params_b", fmt.Sprintf("a model of %sB parameters is outside the accepted range (0.01 to %d B; the largest open models are about 1000 B)", m[1], maxParamsB),
				fmt.Sprintf("%sB 参数超出可接受范围（0.01 到 %d B；最大的开源模型约 1000 B）", m[1], maxParamsB), "13b, 70B, deepseek-v3", "13b, 70B, 130亿, deepseek-v3")
			return true
		}
		s.ParamsB = v
		return true
	})
	t.first(reParamsYi, 1, func(m []string, at int) bool {
		v, ok := Number(m[1])
		if !ok || v <= 0 || s.ParamsB != 0 {
			return false
		}
		if m[2] == "万" {
			v *= 1e4
		}
		s.ParamsB = v / 10 // 亿 = 10⁸ = 0.1 B
		return true
	})
	t.first(reParamsBn, 1, func(m []string, at int) bool {
		v, ok := Number(m[1])
		if !ok || v <= 0 || s.ParamsB != 0 {
			return false
		}
		s.ParamsB = v
		return true
	})
	// "a 125m model", "350M params": millions, in billions
	t.first(reParamsM, 2, func(m []string, at int) bool {
		v, ok := Number(m[2]) // m[1] is the boundary before the figure
		if !ok || v <= 0 || v >= 1000 || s.ParamsB != 0 {
			return false
		}
		s.ParamsB = v / 1000
		return true
	})
}

// shape reads context, batch, concurrency, rank, checkpointing, optimizer
// and bits.
func (x extractor) shape(t *text, f *features) {
	s := &f.s
	seq := func(v float64, k bool) bool {
		if k {
			v *= 1024
		}
		if s.SeqLen != 0 || v < 16 || v > 1<<22 || v != math.Trunc(v) {
			return false
		}
		s.SeqLen = int(v)
		return true
	}
	t.first(reContextK, 1, func(m []string, at int) bool { v, _ := Number(m[1]); return seq(v, true) })
	t.first(reContextKey, 1, func(m []string, at int) bool { v, _ := Number(m[1]); return seq(v, m[2] != "") })
	t.first(reBareK, 2, func(m []string, at int) bool { v, _ := Number(m[2]); return seq(v, true) })
	intSlot := func(dst *int, limit int) func(m []string, at int) bool {
		return func(m []string, _ int) bool {
			if *dst != 0 {
				return false
			}
			v, err := strconv.Atoi(strings.Join(m[1:], ""))
			if err != nil || v <= 0 || v > limit {
				return false
			}
			*dst = v
			return true
		}
	}
	t.first(reBatch, 1, intSlot(&s.Batch, 1<<16))
	conc := intSlot(&s.Concurrency, 1<<20)
	t.first(reConc, 0, func(m []string, at int) bool {
		// "500 users/day", "500 users a day" are daily users, not users at once
		rest := strings.TrimLeft(t.s[at+len(m[0]):], " ")
		if strings.HasPrefix(rest, "/day") || strings.HasPrefix(rest, "/ day") || strings.HasPrefix(rest, "a day") || strings.HasPrefix(rest, "per day") || strings.HasPrefix(rest, "each day") || strings.HasPrefix(rest, "daily") {
			return false
		}
		return conc(m, at)
	})
	t.first(reRank, 1, intSlot(&s.LoRARank, 1<<16))
	t.first(reResolution, 0, func(m []string, _ int) bool {
		if s.Resolution != 0 {
			return false
		}
		side := func(x string) int { v, _ := Number(x); return int(v) }
		w, h := side(m[2]), side(m[3]) // groups: pre, w, h, end, then the single side
		if m[5] != "" {
			w, h = side(m[5]), side(m[5])
		}
		if len(m) > 6 && m[6] != "" { // "分辨率 1024", "resolution 768"
			w, h = side(m[6]), side(m[6])
		}
		if w < 64 || h < 64 || w > 4096 || h > 4096 {
			return false
		}
		// The advisor sizes a square image: a w×h one costs what a
		// square of the same pixel count does.
		s.Resolution = int(math.Round(math.Sqrt(float64(w * h))))
		if w != h {
			f.note(fmt.Sprintf("%d×%d read as %d×%d (the same pixel count)", w, h, s.Resolution, s.Resolution))
		}
		return true
	})
	t.first(reImages, 1, func(m []string, at int) bool {
		v, ok := Number(m[1])
		// 张 also counts cards ("两张 4090"): images only where the
		// message is about pictures, and never "一张4090" (a card named
		// right after the count)
		if !ok || v <= 0 || s.Images != 0 || !containsAny(t.s, "图", "image", "img", "picture", "pic", "photo") && !x.imageTalk(t.s+" "+s.Model) {
			return false
		}
		if next := strings.TrimLeft(t.s[at+len(m[0]):], " "); m[2] == "" && strings.HasSuffix(m[0], "张") &&
			(strings.HasPrefix(next, "§") || strings.HasPrefix(next, "¶") || strings.HasPrefix(next, "卡") || strings.HasPrefix(next, "显卡")) {
			return false
		}
		switch m[2] {
		case "千", "k":
			v *= 1e3
		case "万":
			v *= 1e4
		case "m":
			v *= 1e6
		}
		s.Images = v
		return true
	})
	t.first(reSteps, 1, func(m []string, _ int) bool {
		v, ok := Number(m[1])
		if m[2] == "k" {
			v *= 1e3
		}
		if !ok || v < 1 || v > 1e6 || s.Steps != 0 {
			return false
		}
		s.Steps = int(v)
		return true
	})
	if s.GC == "" && containsAny(t.s, "检查点", "checkpoint", "ckpt", "gc") {
		if reGCOff.MatchString(t.s) {
			s.GC = "off"
		} else if reGCOn.MatchString(t.s) {
			s.GC = "on"
		}
	}
	if s.Optimizer == "" && strings.Contains(t.s, "adam") {
		if reOptim8.MatchString(t.s) {
			s.Optimizer = "adamw8bit"
		} else if reOptim.MatchString(t.s) {
			s.Optimizer = "adamw"
		}
	}
	kvAt := reKVBits8.FindStringIndex(t.s)
	if kvAt != nil && s.KVBits == 0 {
		s.KVBits = 8 // "FP8 KV cache": the cache's bits
	}
	t.first(reBits, 0, func(m []string, at int) bool {
		if s.Bits != 0 {
			return false
		}
		if kvAt != nil && at < kvAt[1] && at+len(m[0]) > kvAt[0] {
			return false // that 8 is the cache's, not the weights'
		}
		switch {
		case m[4] == "半精度":
			s.Bits = 16
		case m[4] != "":
			s.Bits = 4 // AWQ and GPTQ checkpoints are 4-bit
		default:
			s.Bits, _ = strconv.Atoi(m[2] + m[3])
		}
		return true
	})
}

// cards reads how many cards: "8x h100", "h100 x2", "8张卡", "两台8卡",
// "8 gpus", "two h100s", "a single 4090".
func (x extractor) cards(t *text, f *features) {
	s := &f.s
	t.first(reNodes, 1, func(m []string, at int) bool {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		if s.Cards != 0 || a <= 0 || b <= 0 || a*b > 100000 {
			return false
		}
		s.Cards = a * b
		return true
	})
	t.first(reCardsX, 0, func(m []string, at int) bool {
		if s.Cards != 0 {
			return false
		}
		n := 0
		switch {
		case m[5] != "" && m[6] != "":
			a, _ := strconv.Atoi(m[5])
			b, _ := strconv.Atoi(m[6])
			n = a * b
		case strings.HasPrefix(m[0], "single") || strings.HasPrefix(m[0], "one") || strings.HasPrefix(m[0], "一张"):
			n = 1
		default:
			n, _ = strconv.Atoi(strings.Join(m[1:], ""))
		}
		if n <= 0 || n > 100000 {
			return false
		}
		s.Cards = n
		return true
	})
}

// fractions reads utilisation from percentages, 成 and "half".
func (x extractor) fractions(t *text, f *features) {
	s := &f.s
	t.take(rePercent, 0, func(m []string, at int) bool {
		if rePercentNeg.MatchString(t.s[max(0, at-12):at]) {
			return true // "省 30%", "save 20%" is not utilisation
		}
		if s.Utilization != 0 {
			return false
		}
		var v float64
		switch {
		case m[1] != "":
			v, _ = Number(m[1])
			v /= 100
		case m[2] != "":
			v, _ = Number(m[2])
			v /= 10
		default:
			v = 0.5
		}
		if v <= 0 || v > 1 {
			f.probs = append(f.probs, Problem{Field: "utilization", Reason: "utilisation must be between 0 and 100%, got " + m[0], Hint: "util=70%", zh: "利用率必须在 0 到 100% 之间，读到 " + m[0], hintZH: "util=70% 或 七成"})
			return true
		}
		if end := at + len(m[0]); reIdleAfter.MatchString(t.s[end:min(len(t.s), end+48)]) {
			// "60%的时间都闲着", "40% idle": the share of time not used
			v = 1 - v
			f.note(fmt.Sprintf("%s idle read as %s utilisation", m[0], trim(v*100)+"%"))
		}
		s.Utilization = v
		return true
	})
}

// reIdleAfter says a share just read is idle time, not use.
var reIdleAfter = regexp.MustCompile(`^\s?(?:的时间)?\s?(?:都|是|在)?\s?(?:闲着|闲置|空闲|空着|没用|idle|unused|of the time idle|sitting idle)`)

// misc reads VRAM, years, months, projects, ids and the answer currency.
func (x extractor) misc(t *text, f *features) {
	s := &f.s
	t.first(reVRAM, 2, func(m []string, at int) bool {
		v, ok := Number(m[2] + m[4])
		if !ok || v < 2 || v > 1024 || s.VRAMGB != 0 {
			return false
		}
		s.VRAMGB = v
		return true
	})
	t.first(reYears, 1, func(m []string, at int) bool {
		v, ok := Number(m[1])
		after := strings.TrimLeft(t.s[at+len(m[0]):], " ")
		if !ok || v <= 0 || v > 15 || s.Years != 0 || strings.HasPrefix(after, "前") || strings.HasPrefix(after, "ago") || strings.HasPrefix(after, "old") {
			return false
		}
		s.Years = v
		return true
	})
	// a term or horizon of one year said in words: "签一年", "租一年",
	// "一年期", "一年下来", "全年"
	if s.Years == 0 && reOneYearZH.MatchString(t.s) {
		s.Years = 1
	}
	// months, for the ledger
	t.first(reMonthFull, 0, func(m []string, at int) bool {
		mo, _ := strconv.Atoi(m[2])
		if mo < 1 || mo > 12 {
			return false
		}
		f.month = fmt.Sprintf("%s-%02d", m[1], mo)
		return true
	})
	if f.month == "" {
		if m := reMonthNum.FindStringSubmatch(t.s); m != nil {
			if mo, _ := strconv.Atoi(m[1]); mo >= 1 && mo <= 12 {
				f.month = fmt.Sprintf("%02d", mo)
			}
		}
	}
	if f.month == "" {
		if f.month = termOf(vocab.monthBack, t.s, compact(t.s)); f.month == "" {
			if m := reMonthName.FindStringSubmatch(t.s); m != nil && (m[1] != "may" && m[1] != "mar" || containsAny(t.s, "spend", "spent", "paid", "budget", "log ", "in "+m[1], "for "+m[1], "during "+m[1])) {
				f.month = fmt.Sprintf("%02d", vocab.months[m[1]])
			}
		}
	}
	if t.may(x.reProjectLead) {
		if m := x.reProjectLead.FindStringSubmatch(t.s); m != nil && f.project == "" {
			if p := strings.TrimRight(m[1]+m[2], ".-"); p != "" {
				f.project = p
			}
		}
	}
	t.first(reProject, 0, func(m []string, at int) bool {
		if f.project != "" {
			return false
		}
		p := m[1] + m[2] + m[3]
		if p == "" || containsAny(p, "的", "下面") || notAProject[strings.ToLower(p)] {
			return false
		}
		f.project = strings.TrimRight(p, ".-")
		return true
	})
	if m := reSpendID.FindStringSubmatch(t.s); m != nil && strings.ContainsAny(m[1], "0123456789") {
		f.id = m[1]
	}
	if m := reCurrencyQ.FindStringSubmatch(t.s); m != nil && s.Currency == "" {
		s.Currency = amount.Currency(m[1] + m[2] + m[3])
	}
	if m := reOtherCurrencyQ.FindStringSubmatch(t.s); m != nil && s.Currency == "" {
		s.OtherCurrency = otherCurrency[strings.ToLower(m[1]+m[2]+m[3])]
	}
}

// notAProject are words a project pattern catches that name no project
// ("per project last month", "how much budget").
var notAProject = map[string]bool{"last": true, "this": true, "next": true, "each": true, "every": true, "per": true, "all": true, "much": true, "many": true}

// reDaysAMonth is the days a month the cards run: "一个月跑 26 天", "每月 22
// 天", "22 days a month", "22 working days".
var reDaysAMonth = regexp.MustCompile(`(?:一个月|每个月|每月|一月|月)\s?(?:跑|用|开|工作|上班)?\s?(?:大概|约|差不多)?\s?(\d{1,2})\s?(?:个)?\s?(?:天|工作日)|(\d{1,2})\s?(?:working |work |business )?days? (?:a|per|each) month`)

// reKVBits8 is an 8-bit KV cache said in words: "FP8 KV cache", "kv cache
// in fp8", "KV 缓存用 int8".
var reKVBits8 = regexp.MustCompile(`(?:fp8|int8|8-?bit|8\s?位)\s*(?:的)?\s*kv|kv[\s_-]*(?:cache|缓存)?[\s_-]*(?:dtype)?\s*(?:in|at|as|to|=|用|为|改成|换成|改为)?\s*(?:fp8|int8|8-?bit|8\s?位)`)

// otherCurrency names the currencies reOtherCurrencyQ reads by their code.
var otherCurrency = map[string]string{
	"欧元": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR", "英镑": "GBP", "gbp": "GBP", "pound": "GBP", "pounds": "GBP",
	"日元": "JPY", "jpy": "JPY", "yen": "JPY", "港币": "HKD", "hkd": "HKD", "新加坡元": "SGD", "sgd": "SGD",
}

// words reads the slots that come from words rather than figures: method,
// billing, persona, knowledge topic, workload.
func (x extractor) words(t *text, f *features) {
	s := &f.s
	c := compact(t.s)
	if s.Method == "" {
		s.Method, f.weakMethod = method(t.s, c)
	}
	if s.Method == "" && s.Model != "" && x.imageTalk(s.Model) {
		// "finetune flux", "SDXL DreamBooth": an image model's fine-tune
		// that names no method is LoRA, and stays one in a thread
		s.Method, _ = ImageTraining(t.s)
	}
	f.billing = termOf(x.lex.Billing, t.s, c)
	if f.billing == "spot" && reNoSpot.MatchString(t.s) {
		f.billing, s.Spot = "", false // "deadline-driven so no spot", "不要竞价"
	}
	f.persona = termOf(x.lex.Personas, t.s, c)
	f.topic = topic(t.s, c)
	f.workload = workload(x.lex.Workloads, t.s, c, s.Method)
}

// reNoSpot is spot capacity refused: a negation before the word.
var reNoSpot = regexp.MustCompile(`(?:\bno|\bnot|\bwithout|\bnon-?|\bavoid|\bnever|不要|不用|别用|不能用|不考虑|不接受)\s?(?:spot|竞价|抢占)`)

func (f *features) note(n string) { f.s.Notes = append(f.s.Notes, n) }

func trim(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }

// alternation is a regexp alternation of words, longest first so a longer
// phrase wins over its prefix.
func alternation(words []string) string {
	ws := append([]string(nil), words...)
	sort.Slice(ws, func(i, j int) bool { return len(ws[i]) > len(ws[j]) })
	for i, w := range ws {
		ws[i] = regexp.QuoteMeta(strings.ToLower(w))
	}
	return strings.Join(ws, "|")
}

// imageTalk reports whether the message (with the model read from it,
// whose name is no longer in the text) is about generating images: the
// diffusion workload's words, where "50万张" counts pictures.
func (x extractor) imageTalk(t string) bool {
	c := compact(t)
	for _, w := range x.lex.Workloads {
		if w.Value == "diffusion" && termIn(w, t, c) {
			return true
		}
	}
	return false
}
