package parse

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// issueNow is the "today" the frame tests read relative dates against:
// Tuesday 1 December 2026, 10:00 in Asia/Shanghai.
var issueNow = time.Date(2026, 12, 1, 10, 0, 0, 0, time.FixedZone("Asia/Shanghai", 8*3600))

// frameCases are the examples of issue 13, each with the intent it asks and
// every slot it carries (notes and missing left out). Expected values are
// worked by hand: a month is 365/12 days, so 12 h a day is 12 × 365/12 =
// 365 h, 40 h a week is 40 × 365/7/12 = 173.81 h, a card that never stops
// is 24 × 365/12 = 730 h; 3亿 tokens a month is 3e8 × 12/365 = 9 863 013.7 a
// day. Model sizes are model_configs.json's params_b.
var frameCases = []struct {
	in     string
	intent Intent
	slots  string
}{
	// the misses the issue lists
	{"AutoDL 上 A100 啥价", Price, `{"gpus":["a100-80g"],"platform":"autodl"}`},
	{"H100 国内时租多少", Price, `{"gpus":["h100-sxm"]}`},
	{"4090 hourly rate on vast?", Price, `{"gpus":["rtx4090"],"platform":"vastai"}`},
	{"我预算5000块能把13b lora跑完吗", Cost, `{"params_b":13,"method":"lora","budget":{"amount":5000,"currency":"CNY"}}`},
	{"we have $2k, can we afford a full finetune of 7B?", Cost, `{"params_b":7,"method":"full","budget":{"amount":2000,"currency":"USD"}}`},
	{"70B 模型，每天大概1000万token，用H100一个月多少钱", Cost, `{"params_b":70,"gpus":["h100-sxm"],"tokens_per_day":10000000}`},
	{"4090 买一张 16000 元，每天用 12 小时", Buy, `{"gpus":["rtx4090"],"price":{"amount":16000,"currency":"CNY"},"hours_per_month":365}`},
	{"/gpu buy 8x h800 price=2100000", Buy, `{"gpus":["h800"],"cards":8,"price":{"amount":2100000}}`},
	{"记一笔 H800 两卡 30 小时 记在 pretrain 名下", Spend, `{"gpus":["h800"],"cards":2,"hours":30,"project":"pretrain","mode":"add"}`},
	{"昨天 4090 跑了 10 小时 花了 ¥1,000", Spend, `{"gpus":["rtx4090"],"hours":10,"amount":{"amount":1000,"currency":"CNY"},"date":"2026-11-30","mode":"add"}`},
	{"记一笔 4090 1,200 块", Spend, `{"gpus":["rtx4090"],"amount":{"amount":1200,"currency":"CNY"},"mode":"add"}`},
	{"记一笔 h100 $12,345,678.90", Spend, `{"gpus":["h100-sxm"],"amount":{"amount":12345678.9,"currency":"USD"},"mode":"add"}`},
	{"记一笔 h100 一万六 项目 ocr", Spend, `{"gpus":["h100-sxm"],"amount":{"amount":16000},"project":"ocr","mode":"add"}`},
	// budget
	{"预算5000 推荐什么卡", Recommend, `{"budget":{"amount":5000}}`},
	{"手上就 1 万块，推荐什么卡", Recommend, `{"budget":{"amount":10000,"currency":"CNY"}}`},
	{"老板批了 3000 刀，推荐张卡跑 7b 推理", Recommend, `{"params_b":7,"method":"inference","workload":"inference","budget":{"amount":3000,"currency":"USD"}}`},
	{"5 千预算 推荐个卡", Recommend, `{"budget":{"amount":5000}}`},
	// rates and periods
	{"10M tokens/day on h100, what does serving 70b cost", Cost, `{"params_b":70,"method":"inference","gpus":["h100-sxm"],"tokens_per_day":10000000}`},
	{"serving 70b at 20 requests/s with 500 input and 200 output tokens, cost?", Cost, `{"params_b":70,"method":"inference","requests_per_s":20,"input_tokens":500,"output_tokens":200}`},
	{"qwen3-30b-a3b 每月3亿token 推理成本", Cost, `{"params_b":30.532,"model":"qwen3-30b-a3b","method":"inference","tokens_per_day":9863013.7}`},
	{"推理 70b，输入 2000 输出 500，每秒 10 个请求，成本多少", Cost, `{"params_b":70,"method":"inference","requests_per_s":10,"input_tokens":2000,"output_tokens":500}`},
	// usage
	{"40 hours a week on a 4090, is monthly worth it?", Monthly, `{"gpus":["rtx4090"],"hours_per_month":173.81}`},
	{"h100 7x24 跑，买还是租", Buy, `{"gpus":["h100-sxm"],"hours_per_month":730}`},
	{"rent vs buy for a 4090 running 24/7", Buy, `{"gpus":["rtx4090"],"hours_per_month":730}`},
	{"4090 around the clock, buy or rent?", Buy, `{"gpus":["rtx4090"],"hours_per_month":730}`},
	{"A100 常驻，买断划算吗", Buy, `{"gpus":["a100-80g"],"hours_per_month":730}`},
	{"40 个任务每个 3 小时，4090 包月划算吗", Monthly, `{"gpus":["rtx4090"],"hours_per_month":120}`},
	{"4090 包月，每月大概 300 小时", Monthly, `{"gpus":["rtx4090"],"hours_per_month":300}`},
	// machines
	{"8x h800 多少钱一小时", Price, `{"gpus":["h800"],"cards":8}`},
	{"一台 8 卡 h800 多少钱", Price, `{"gpus":["h800"],"cards":8}`},
	{"两台 8 卡 h100 什么价", Price, `{"gpus":["h100-sxm"],"cards":16}`},
	{"price of a 4x L40S box", Price, `{"gpus":["l40s"],"cards":4}`},
	{"2 nodes of 8 h100, price per hour?", Price, `{"gpus":["h100-sxm"],"cards":16}`},
	// named models
	{"deepseek-v3 推理要几张 h20", Fit, `{"params_b":671.026,"model":"deepseek-v3","method":"inference","gpus":["h20"]}`},
	{"qwen3-30b-a3b 显存多大", Fit, `{"params_b":30.532,"model":"qwen3-30b-a3b"}`},
	{"mixtral 8x7b inference vram", Fit, `{"params_b":46.703,"model":"mixtral-8x7b","method":"inference"}`},
	{"8x7b 推理要多少显存", Fit, `{"params_b":46.703,"model":"mixtral-8x7b","method":"inference"}`},
	{"llama 3.1 405b fp8 fit", Fit, `{"params_b":405.853,"model":"llama-3.1-405b","bits":8}`},
	{"gpt-oss-120b fits on one h100?", Fit, `{"params_b":116.829,"model":"gpt-oss-120b","gpus":["h100-sxm"],"cards":1}`},
	{"千问3-30B-A3B 显存够吗", Fit, `{"params_b":30.532,"model":"qwen3-30b-a3b"}`},
	{"深度求索 V3 要几张卡", Fit, `{"params_b":671.026,"model":"deepseek-v3"}`},
	// spend: project, date
	{"记一笔 4090 3 小时 算到 ocr 项目", Spend, `{"gpus":["rtx4090"],"hours":3,"project":"ocr","mode":"add"}`},
	{"log 8 hours of h100 $20 to project search-rerank", Spend, `{"gpus":["h100-sxm"],"hours":8,"amount":{"amount":20,"currency":"USD"},"project":"search-rerank","mode":"add"}`},
	{"记一笔 上周三 h100 8 卡 5 小时 记到 search-rerank 项目", Spend, `{"gpus":["h100-sxm"],"cards":8,"hours":5,"project":"search-rerank","date":"2026-11-25","mode":"add"}`},
	{"记一笔 11月3日 4090 跑了 3 小时", Spend, `{"gpus":["rtx4090"],"hours":3,"date":"2026-11-03","mode":"add"}`},
	{"记一笔 2026-11-03 4090 3 小时 ¥30", Spend, `{"gpus":["rtx4090"],"hours":3,"amount":{"amount":30,"currency":"CNY"},"date":"2026-11-03","mode":"add"}`},
	{"/gpu spend add 4090 3h ¥30 date=2026-11-03", Spend, `{"gpus":["rtx4090"],"hours":3,"amount":{"amount":30,"currency":"CNY"},"date":"2026-11-03","mode":"add"}`},
	{"/gpu spend add 4090 3h ¥30 date=昨天", Spend, `{"gpus":["rtx4090"],"hours":3,"amount":{"amount":30,"currency":"CNY"},"date":"2026-11-30","mode":"add"}`},
	{"log 4090 3h $5 yesterday", Spend, `{"gpus":["rtx4090"],"hours":3,"amount":{"amount":5,"currency":"USD"},"date":"2026-11-30","mode":"add"}`},
	{"记一笔 前天 4090 2 小时 ¥4", Spend, `{"gpus":["rtx4090"],"hours":2,"amount":{"amount":4,"currency":"CNY"},"date":"2026-11-29","mode":"add"}`},
	// money everywhere
	{"记一笔 4090 ¥1,000", Spend, `{"gpus":["rtx4090"],"amount":{"amount":1000,"currency":"CNY"},"mode":"add"}`},
	{"记一笔 h100 1.2万", Spend, `{"gpus":["h100-sxm"],"amount":{"amount":12000},"mode":"add"}`},
	{"记一笔 h100 16k 块", Spend, `{"gpus":["h100-sxm"],"amount":{"amount":16000,"currency":"CNY"},"mode":"add"}`},
	{"记一笔 h100 3000 刀", Spend, `{"gpus":["h100-sxm"],"amount":{"amount":3000,"currency":"USD"},"mode":"add"}`},
	{"记一笔 h100 1.2萬 元", Spend, `{"gpus":["h100-sxm"],"amount":{"amount":12000,"currency":"CNY"},"mode":"add"}`},
}

func TestFrames(t *testing.T) {
	p := newParser(t)
	for _, tt := range frameCases {
		req := p.ParseAt(tt.in, issueNow)
		if len(req.Problems) > 0 {
			t.Errorf("Parse(%q) problems = %+v", tt.in, req.Problems)
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(tt.slots), &want); err != nil {
			t.Fatalf("%q: bad want: %v", tt.in, err)
		}
		if d := slotDiff(want, slotMap(t, req.Slots)); d != "" {
			t.Errorf("Parse(%q) slots: %s", tt.in, d)
		}
	}
}

// TestFrameIntents checks that each example is routed to what it asks.
func TestFrameIntents(t *testing.T) {
	p := newParser(t)
	for _, tt := range frameCases {
		if req := p.ParseAt(tt.in, issueNow); req.Intent != tt.intent {
			t.Errorf("Parse(%q) intent = %s (%.2f), want %s", tt.in, req.Intent, req.Confidence, tt.intent)
		}
	}
}

// TestRefusals: values that must not be guessed get a Problem saying what
// was read and what is accepted, in the asker's language.
func TestRefusals(t *testing.T) {
	p := newParser(t)
	tests := []struct{ in, field, says string }{
		{"记一笔 4090 -5 小时", "number", "负数 \"-5 小时\""},
		{"log 4090 -5 hours $3", "number", "negative value \"-5 hours\""},
		{"log 4090 3h ¥-50", "number", "negative"},
		{"4090 跑 1e308 小时 多少钱", "number", "科学计数法 \"1e308\""},
		{"cost of 7b lora on 2.5e3 samples", "number", "scientific notation \"2.5e3\""},
		{"100000b 模型要几张卡", "params_b", "100000B"},
		{"how much vram for a 100000b model", "params_b", "outside the accepted range"},
		{"4090 价格 ¥18,50 贵吗", "amount", "18.50 还是 1850"},
		{"log 4090 3h $18,50", "amount", "18.50 or 1850"},
		{"每天 25 小时 4090 包月划算吗", "hours_per_month", "最多 24"},
		{"4090 200 hours a week, monthly?", "hours_per_month", "at most 168"},
		{"/gpu spend add 4090 3h ¥30 date=2026-12-05", "date", "future"},
		{"/gpu spend add 4090 3h ¥30 date=2026-02-30", "date", "not a date"},
		{"/gpu fit model=foo-13b", "model", "unknown model"},
		{"4x7b 推理显存", "params_b", "总参数量"},
	}
	for _, tt := range tests {
		req := p.ParseAt(tt.in, issueNow)
		if len(req.Problems) == 0 {
			t.Errorf("Parse(%q) gave no problem, want one on %s saying %q (slots %s)", tt.in, tt.field, tt.says, jsonOf(t, req.Slots))
			continue
		}
		pr := req.Problems[0]
		if pr.Field != tt.field || !strings.Contains(pr.Reason, tt.says) || pr.Hint == "" {
			t.Errorf("Parse(%q) problem = %+v, want field %s, a hint and a reason saying %q", tt.in, pr, tt.field, tt.says)
		}
	}
}

// TestDates resolves relative dates against a given now; without one they
// are not guessed.
func TestDates(t *testing.T) {
	p := newParser(t)
	tests := []struct{ in, want string }{
		{"记一笔 4090 3h ¥3 昨天", "2026-11-30"},
		{"记一笔 4090 3h ¥3 今天", "2026-12-01"},
		{"记一笔 4090 3h ¥3 大前天", "2026-11-28"},
		{"记一笔 4090 3h ¥3 上周三", "2026-11-25"},
		{"记一笔 4090 3h ¥3 上周日", "2026-11-29"},
		{"记一笔 4090 3h ¥3 周一", "2026-11-30"},
		{"记一笔 4090 3h ¥3 本周二", "2026-12-01"},
		{"记一笔 4090 3h ¥3 3天前", "2026-11-28"},
		{"记一笔 4090 3h ¥3 十一月三日", "2026-11-03"},
		{"记一笔 4090 3h ¥3 12月25日", "2025-12-25"}, // the most recent 25 December
		{"记一笔 4090 3h ¥3 2026/11/03", "2026-11-03"},
		{"记一笔 4090 3h ¥3 2026年11月3日", "2026-11-03"},
		{"log 4090 3h $3 on nov 3", "2026-11-03"},
		{"log 4090 3h $3 3rd november", "2026-11-03"},
		{"log 4090 3h $3 last wednesday", "2026-11-25"},
		{"log 4090 3h $3 2 days ago", "2026-11-29"},
	}
	for _, tt := range tests {
		if got := p.ParseAt(tt.in, issueNow).Slots.Date; got != tt.want {
			t.Errorf("ParseAt(%q, %s) date = %q, want %q", tt.in, issueNow.Format("2006-01-02 Mon"), got, tt.want)
		}
	}
	// a day that is already 2 December in Shanghai but 1 December in UTC
	late := time.Date(2026, 12, 1, 17, 30, 0, 0, time.UTC).In(time.FixedZone("Asia/Shanghai", 8*3600))
	if got := p.ParseAt("记一笔 4090 3h ¥3 昨天", late).Slots.Date; got != "2026-12-01" {
		t.Errorf("昨天 at %s = %q, want 2026-12-01 (the caller's zone decides the day)", late, got)
	}
	if got := p.Parse("记一笔 4090 3h ¥3 昨天").Slots.Date; got != "" {
		t.Errorf("昨天 without a now = %q, want no date", got)
	}
}

// TestLoadsInUsersWords: loads as users say them — people online at once,
// the usual rate beside the peak, weeks of a month.
func TestLoadsInUsersWords(t *testing.T) {
	p := newParser(t)
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in    string
		check func(s Slots) bool
		want  string
	}{
		{"客户那边500人同时在线，模型Qwen2.5-14B，A10够不够？", func(s Slots) bool { return s.Concurrency == 500 }, "concurrency 500"},
		{"50个同学同时在线，qwen2.5-14b一张l40s扛得住吗？", func(s Slots) bool { return s.Concurrency == 50 }, "concurrency 50"},
		{"host deepseek-r1-distill-qwen-32b for my demo? like 5 ppl using it at once", func(s Slots) bool { return s.Concurrency == 5 }, "concurrency 5"},
		{"Qwen2.5-72B 峰值40 QPS，平时也就10左右，H20要几张？", func(s Slots) bool { return s.PeakRequestsPerS == 40 && s.RequestsPerS == 10 }, "peak 40, average 10"},
		// 30 people a day × 20 turns × the 1,500-token default turn = 900,000 tokens a day
		{"想做个20轮对话的chatbot demo，qwen2.5-7b，组里大概30个人每天用，一张3090够不够", func(s Slots) bool { return s.UsersPerDay == 30 && s.TokensPerDay == 900000 }, "30 users a day, 900,000 tokens"},
		{"phi-4 (14b) inference for ~500 users/day: l4 or a10", func(s Slots) bool { return s.Concurrency == 0 }, "no concurrency (500 a day is not 500 at once)"},
		// 500 users × 1 turn × the 1,500-token default turn = 750,000 tokens a day
		{"phi-4 (14b) inference for ~500 users/day: l4 or a10", func(s Slots) bool { return s.UsersPerDay == 500 && s.TokensPerDay == 750000 }, "500 users a day, 750,000 tokens"},
		// "300人，每人每天50次": 300 users × 50 requests × (3,000 + 500) tokens = 52,500,000 a day
		{"DeepSeek-V3做内部编码助手，研发300人，每人每天大概50次请求，每次输入3000、输出500 token，H200要几张？", func(s Slots) bool {
			return s.UsersPerDay == 300 && s.Turns == 50 && s.TokensPerDay == 52500000
		}, "300 users × 50 requests × 3,500 tokens = 52.5M a day"},
		{"团队10人，每天跑2小时的A100", func(s Slots) bool { return s.UsersPerDay == 0 }, "no users a day (a team's size without each person's daily use)"},
		// 3 × 168 h; and "three weeks" is no "3w" (30,000) of money
		{"8x H100 $14,400 a month vs $23.92/hr on demand. We only need it about three weeks a month.", func(s Slots) bool { return s.HoursPerMonth == 504 && s.Monthly != nil && s.Monthly.Amount == 14400 }, "504 h a month, $14,400 a month"},
		{"预算3w块，4090能跑多久", func(s Slots) bool { return s.Budget != nil && s.Budget.Amount == 30000 }, "a 30,000 budget (3w = 3万)"},
		// 3 weeks × 7 days × 8 h = 168 h; "每个月大概用3周", "3 weeks/month" round the clock: 504 h
		{"H100 monthly plan worth it, three weeks a month, 8 hours a day", func(s Slots) bool { return s.HoursPerMonth == 168 }, "168 h a month"},
		{"H100 包月划算吗？每个月大概用3周", func(s Slots) bool { return s.HoursPerMonth == 504 }, "504 h a month"},
		{"h100 monthly plan, 3 weeks/month?", func(s Slots) bool { return s.HoursPerMonth == 504 }, "504 h a month"},
	} {
		if s := p.ParseAt(c.in, at).Slots; !c.check(s) {
			t.Errorf("Parse(%q): want %s; got concurrency %d rps %v/%v h/month %v monthly %+v budget %+v", c.in, c.want, s.Concurrency, s.PeakRequestsPerS, s.RequestsPerS, s.HoursPerMonth, s.Monthly, s.Budget)
		}
	}
}

// TestAroundTheClockInWords: "24小时在线推理" is a service always on (730 h a
// month), not 24 hours a month.
func TestAroundTheClockInWords(t *testing.T) {
	p := newParser(t)
	s := p.ParseAt("阿里云A10做24小时在线推理，按量 ¥8.9/小时，包年折合每月 ¥2,600，一年能省多少？", time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)).Slots
	if s.HoursPerMonth != 730 {
		t.Errorf("hours a month %v, want 730 (24 h a day × 365/12 days)", s.HoursPerMonth)
	}
}

// TestZeroMoneyRefused: a price, plan or budget of 0 prices nothing: it is
// refused with what was read, never replaced by the catalogue's.
func TestZeroMoneyRefused(t *testing.T) {
	p := newParser(t)
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct{ in, field string }{
		{"H100 at $1,800 a card-month reserved vs $0/hr on demand, break-even hours?", "price"},
		{"budget $0 for 7b lora", "budget"},
	} {
		r := p.ParseAt(c.in, at)
		if len(r.Problems) == 0 || r.Problems[0].Field != c.field || !strings.Contains(r.Problems[0].Reason, "of 0") {
			t.Errorf("Parse(%q) problems %+v, want %s of 0 refused", c.in, r.Problems, c.field)
		}
	}
	// a minus sign is refused, a range's dash is not
	if r := p.ParseAt("经费-8000块，4090 2.2/h，够跑多少卡时", at); len(r.Problems) == 0 || !strings.Contains(r.Problems[0].Reason, "负数") {
		t.Errorf("经费-8000块: problems %+v, want the negative amount refused", r.Problems)
	}
	if r := p.ParseAt("RTX 4090 ¥1.8-2.5/h 包月划算吗 200h", at); len(r.Problems) > 0 {
		t.Errorf("a price range refused: %+v", r.Problems)
	}
	if r := p.ParseAt("/gpu spend add 4090 10h ¥0", at); len(r.Problems) > 0 && r.Problems[0].Field == "price" {
		t.Errorf("a ¥0 ledger entry is the ledger's to judge: %+v", r.Problems)
	}
}
