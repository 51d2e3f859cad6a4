package bot

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// The planner: a question's frame (what it asks — its targets — and what
// it states: a load, a deadline, the user's own VRAM or cards, a budget)
// picks the calculation, not the router's single label. The router's
// intent is one feature of the frame and the fallback when the frame says
// nothing more.

// readOnly are the intents the planner may move a question between: it
// never turns a question into a write, nor a write into anything else.
var readOnly = map[parse.Intent]bool{
	parse.Fit: true, parse.Cost: true, parse.Price: true, parse.Compare: true, parse.Recommend: true,
	parse.Monthly: true, parse.Buy: true, parse.Knowledge: true, parse.Unknown: true,
}

// plan returns req with the intent its frame asks for, and a note saying
// why it changed ("" when it did not).
func plan(req parse.Request) (parse.Request, string) {
	s := req.Slots
	if req.Slash && !slashSentence(req) {
		return req, "" // "/gpu fit …" asked for that answer by name
	}
	if r, why, ok := ledgerInWords(req); ok { // corrections in words, budget checks with figures (bot/spend_correct.go)
		return r, why
	}
	if lower := strings.ToLower(strings.TrimSpace(req.Text)); req.Intent != parse.Spend && s.Amount == nil && s.Project != "" && reLogWrite.MatchString(lower) && !strings.ContainsAny(lower, "?？") {
		// "log $12,400 against inference-prod": an instruction to book, not
		// a question (a question never writes: it has "?" or asks)
		if m := cmp.Or(s.Budget, s.Price); m != nil {
			req.Intent, req.Slots.Mode = parse.Spend, "add"
			req.Slots.Amount, req.Slots.Budget, req.Slots.Price = m, nil, nil
			req.Slots.Method, req.Slots.Missing = "", nil
			return req, "an entry to book"
		}
	}
	if r, ok := spendStatedInWords(req); ok { // "rec 组还花了 500 美元 OpenAI API": money paid, to book (plan_ledger.go)
		return r, "money paid, to book"
	}
	if r, why, ok := conversionInWords(req); ok { // a stated figure in the other currency or per another period (bot/convert.go)
		return r, why
	}
	if lower := strings.ToLower(req.Text); s.Committed != nil && s.Rent == nil && len(s.GPUs) > 0 && s.ParamsB == 0 && s.Model == "" && readOnly[req.Intent] &&
		(hasAny(lower, purchaseWords) || reBuyWord.MatchString(lower)) {
		// "buy an HGX H100 node outright or rent at $2.50/GPU-hr over 3
		// years?": the rate over the term is the rent a purchase is weighed
		// against, the years its horizon
		req.Slots.Rent, req.Slots.Committed = s.Committed, nil
		req.Intent = parse.Buy
		req.Slots.Missing = parse.Missing(parse.Buy, req.Slots)
		return req, "a purchase against renting over the term"
	}
	if r, why, ok := quoteInWords(req); ok { // quotes in words: a commitment's total, a machine's rate, a month on the platforms named (bot/plan_quotes.go)
		return r, why
	}
	if in, args, ok := budgetInWords(req); ok && (readOnly[req.Intent] || req.Intent == parse.Spend && (s.Mode == "report" || args[0] == "set")) {
		req.Intent = in
		req.Slots.Args = args
		req.Slots.Missing = nil
		if req.Slots.Month == "" && args[0] == "show" {
			req.Slots.Month = req.MonthSaid // "上个月超预算了吗" routed from elsewhere
		}
		req.Slots.Mode = "" // a spend sentence turned budget: its ledger mode does not apply
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "alerts="); ok && trimNum(req.Slots.Utilization*100) == v {
				req.Slots.Utilization = 0 // "告警阈值90%" is the alert, not a utilisation
			}
		}
		if args[0] == "set" {
			// the amount set is the budget read; the same figure is not also
			// an entry's amount or a price
			last, _, _ := strings.Cut(args[len(args)-1], "/") // "¥90000/quarter": the amount
			if m, ok := parse.ParseMoney(last); ok {
				for _, p := range []**parse.Money{&req.Slots.Amount, &req.Slots.Monthly, &req.Slots.Price, &req.Slots.Budget} {
					if *p != nil && (*p).Amount == m.Amount {
						*p = nil
					}
				}
				req.Slots.Budget = &m
			}
		}
		return req, "a budget question"
	}
	if spendInWords(req) && (readOnly[req.Intent] || req.Intent == parse.Spend) && req.Intent != parse.Spend {
		req.Intent = parse.Spend
		req.Slots.Mode = "report"
		req.Slots.Missing = nil
		if req.Slots.Month == "" {
			req.Slots.Month = req.MonthSaid // "what did each team burn in Nov 2026?"
		}
		return req, "a question about the team's spend"
	}
	if len(s.GPUs) > 0 && s.ParamsB == 0 && s.Model == "" && s.Arch == "" && s.Price == nil && asksExport(req.Text) && !infoWord(req.Text, "explain") &&
		(readOnly[req.Intent] && req.Intent != parse.Buy || req.Intent == parse.Buy && !asksWorthBuying(req.Text)) {
		// "H20现在还能走正规渠道买到吗", "L20受不受出口管制？": the card's
		// export status (answered from the price row, export.go)
		req.Intent = parse.Price
		req.Slots.Missing = nil
		return req, "whether a card may be bought"
	}
	if lower := strings.ToLower(req.Text); len(s.GPUs) > 0 && s.Region != "" && s.ParamsB == 0 && s.Model == "" && s.Arch == "" && readOnly[req.Intent] &&
		(req.Intent == parse.Knowledge || req.Intent == parse.Unknown) && reCheapestAsk.MatchString(lower) {
		// "Compliance requires EU data residency. What's the cheapest H100
		// option in an EU region?": the card's prices in that region, not
		// the guide's page on cross-border data
		req.Intent = parse.Price
		req.Slots.Missing = parse.Missing(parse.Price, req.Slots)
		return req, "a card's price in the region asked"
	}
	if in, ok := cardOrInfoQuestion(req); ok { // a card's facts, a card for a model, or a how-to (card.go)
		req.Intent = in
		req.Slots.Missing = nil
		return req, "a question about a card, or a how-to"
	}
	if lower := strings.ToLower(req.Text); (req.Intent == parse.Spend && s.Mode == "report" || req.Intent == parse.Buy && s.Price == nil && s.Ops == nil && !asksWorthBuying(req.Text)) &&
		len(s.GPUs) > 0 && s.Hours > 0 && reRentAsk.MatchString(lower) && !reSpentWords.MatchString(lower) && !reCheckAsk.MatchString(lower) && !strings.Contains(lower, "预算") && !strings.Contains(lower, "budget") {
		// "rent 2x H100 for 6 weeks at 1.99/hr/gpu, total?": a rental to
		// price, not a report of what was spent nor a purchase
		if s.Rent != nil {
			req.Slots.Price, req.Slots.Rent = s.Rent, nil // their rate per card-hour
		}
		req.Intent, req.Slots.Mode = parse.Price, ""
		req.Slots.Missing = parse.Missing(parse.Price, req.Slots)
		return req, "a rental's price"
	}
	if r, why, ok := rentalAtTheirRate(req); ok {
		return r, why
	}
	if rate := cmp.Or(s.Price, s.Rent); rate != nil && readOnly[req.Intent] && req.Intent != parse.Price && len(s.GPUs) > 0 && s.ParamsB == 0 && s.Model == "" && s.Arch == "" &&
		s.Hours == 0 && s.GPUHours == 0 && s.HoursPerMonth == 0 && s.Utilization == 0 && s.Monthly == nil && s.Budget == nil && !(req.Intent == parse.Buy && s.Price != nil) &&
		s.Committed == nil && s.OnDemandMonthly == nil && s.Discount == 0 { // a commitment's rates are weighed, not quoted (commit.go)
		if lower := strings.ToLower(req.Text); reAsksFair.MatchString(lower) || reAsksExpensive.MatchString(lower) {
			// "H800 按量报价18块一卡时 合理吗": their quote weighed against the market
			req.Slots.Price, req.Slots.Rent = rate, nil
			req.Intent = parse.Price
			req.Slots.Missing = parse.Missing(parse.Price, req.Slots)
			return req, "a quote against the market"
		}
	}
	if m := s.Monthly; m != nil && m.Amount > 0 && s.Price == nil && s.Rent == nil && readOnly[req.Intent] && req.Intent != parse.Monthly && len(s.GPUs) > 0 &&
		s.ParamsB == 0 && s.Model == "" && s.Arch == "" && s.Hours == 0 && s.GPUHours == 0 && s.HoursPerMonth == 0 && s.Utilization == 0 && s.Budget == nil {
		if lower := strings.ToLower(req.Text); (reAsksFair.MatchString(lower) || reAsksExpensive.MatchString(lower)) && !reOnDemand.MatchString(lower) {
			// "供应商报价：8卡H100整机每月18万，划算吗？": a month's quote, per
			// card-hour over 730 h, against the market
			req.Intent = parse.Price
			req.Slots.Missing = parse.Missing(parse.Price, req.Slots)
			return req, "a monthly quote against the market"
		}
	}
	if lower := strings.ToLower(req.Text); !(s.ParamsB > 0 || s.Model != "" || s.Arch != "") && len(s.GPUs) > 0 && s.Budget != nil && s.Budget.Amount > 0 &&
		has(s.Targets, "cards") && s.Cards == 0 && readOnly[req.Intent] && req.Intent != parse.Price && !strings.Contains(lower, "买") && !reBuyWord.MatchString(lower) {
		// "季度预算300万，H800每卡时25块，能养几张卡跑满？": the cards a budget keeps running
		if s.Rent != nil && s.Price == nil {
			req.Slots.Price, req.Slots.Rent = s.Rent, nil
		}
		req.Intent = parse.Price
		req.Slots.Missing = parse.Missing(parse.Price, req.Slots)
		return req, "the cards a budget keeps running"
	}
	if lower := strings.ToLower(req.Text); req.Intent == parse.Buy && s.Price == nil && s.Ops == nil && len(s.GPUs) > 0 && reMonthlyPlanAsked.MatchString(lower) &&
		s.ParamsB == 0 && s.Model == "" && s.Arch == "" &&
		!strings.Contains(lower, "买") && !reBuyWord.MatchString(lower) {
		// "包月租8张H100，按量每天只跑10小时是不是更划算": a monthly plan
		// against on demand, nothing bought
		if s.Rent != nil && s.Price == nil {
			req.Slots.Price, req.Slots.Rent = s.Rent, nil
		}
		req.Intent = parse.Monthly
		req.Slots.Missing = parse.Missing(parse.Monthly, req.Slots)
		return req, "a monthly plan against on demand"
	}
	if req.Intent == parse.Buy && s.Hours >= 730 && s.Years == 0 && s.HoursPerMonth == 0 && s.Price != nil {
		// "64 H100s for 6 months: rent vs buy at $30k each?": the months
		// are how long the cards are needed — the purchase's horizon
		req.Slots.Years, req.Slots.Hours = s.Hours/8760, 0
		req.Slots.Notes = append(req.Slots.Notes, "the rental's length read as the horizon the purchase is weighed over")
		return req, "a purchase over the time the cards are needed"
	}
	if !readOnly[req.Intent] {
		return req, ""
	}
	if s.Tokens > 0 && s.Samples > 0 && s.SampleTokens == 0 && s.Tokens < s.Samples {
		// "20 万条，1k token": fewer tokens than samples cannot be the data's
		// total — it is each sample's length
		req.Slots.SampleTokens, req.Slots.Tokens = s.Tokens, 0
		req.Slots.Notes = append(req.Slots.Notes, fmt.Sprintf("%s tokens beside %s samples read as each sample's length", trimNum(s.Tokens), trimNum(s.Samples)))
		s = req.Slots
	}
	model := s.ParamsB > 0 || s.Arch != "" || s.Model != ""
	inference := s.Method == "" || s.Method == "inference"
	load := s.RequestsPerS > 0 || s.PeakRequestsPerS > 0 || s.TokensPerDay > 0
	slo := s.TTFTMs > 0 || s.TPSPerUser > 0 || s.Concurrency > 1 && (has(s.Targets, "cards") || has(s.Targets, "money_monthly") || s.TPSPerUser > 0)
	to := func(in parse.Intent, why string) (parse.Request, string) {
		if req.Intent == in {
			return req, ""
		}
		req.Intent = in
		req.Slots.Missing = parse.Missing(in, req.Slots)
		return req, why
	}
	if model && s.Method == "" && (has(s.Targets, "tokens_per_s") || has(s.Targets, "concurrency") || has(s.Targets, "ttft_ms") || has(s.Targets, "money_per_m_tokens") ||
		s.Concurrency > 0 || s.TTFTMs > 0 || s.TPSPerUser > 0 || load) && s.Tokens == 0 && s.Samples == 0 {
		req.Slots.Method = "inference" // a speed, latency or load is asked of serving
		s.Method = "inference"
		inference = true
	}
	if model && s.Method == "" && s.Tokens == 0 && s.Samples == 0 && reRunAsIs.MatchString(strings.ToLower(req.Text)) {
		req.Slots.Method = "inference" // "run a 7b llm at 4bit", "对话 demo": the model run as it is
		s.Method = "inference"
		inference = true
	}
	if model && inference && s.SeqLen > 0 && s.InputTokens == 0 && (s.Concurrency > 0 || load || s.TPSPerUser > 0) {
		// "32 concurrent 4k contexts", "上下文 2k, 每用户 40 tok/s": in
		// serving, the context is what each request holds
		req.Slots.InputTokens = s.SeqLen
		s.InputTokens = s.SeqLen
	}
	memoryQ := s.VRAMGB > 0 && (s.YesNo || has(s.Targets, "memory_gb")) && !has(s.Targets, "money_total") && !has(s.Targets, "hours")
	switch {
	case apiLoadAsked(req) && (req.Intent == parse.Cost || req.Intent == parse.Price || req.Intent == parse.Fit || req.Intent == parse.Unknown || req.Intent == parse.Compare || req.Intent == parse.Monthly):
		// "每天5亿tokens，DeepSeek官方API一个月多少钱？自建H20划算吗": a hosted
		// API's bill at a load, weighed against self-hosting (api_route.go)
		return to(parse.Cost, "an API's bill at your load")
	case !model && len(s.GPUs) > 0 && s.Price != nil && asksWorthBuying(req.Text) && hasAny(req.Text, purchaseWords) &&
		(req.Intent == parse.Monthly || req.Intent == parse.Price || req.Intent == parse.Knowledge || req.Intent == parse.Unknown):
		// "buying an 8-card H800 server for ¥2.1M vs a ¥120k/month plan, how
		// many months to pay back?": a purchase against renting (buy.go)
		return to(parse.Buy, "a purchase against renting")
	case model && len(s.GPUs) <= 1 && req.Intent == parse.Knowledge && isImageModel(cmpOr(s.Model, s.Arch)) && s.Method != "" && s.Method != "inference":
		// "SDXL fine-tuning with DreamBooth — does a 4090 work?": an image
		// model's fine-tune on their card, not the guide's page on 24 GB
		return to(parse.Fit, "an image model's fine-tune")
	case model && memoryQ && !load:
		return to(parse.Fit, "a question about your card's memory")
	case model && !inference && s.YesNo && len(s.GPUs) >= 1 && s.Days == 0 && s.Budget == nil && s.Price == nil &&
		!has(s.Targets, "money_total") && !has(s.Targets, "hours") && !has(s.Targets, "gpu_hours") && !has(s.Targets, "money_monthly") &&
		(req.Intent == parse.Cost || req.Intent == parse.Fit || req.Intent == parse.Unknown):
		// "3060 12g 能 qlora 7b 吗", "does it fit on a single L40S?": whether
		// their card holds the job, not what it costs
		return to(parse.Fit, "whether your card holds the job")
	case model && inference && !load && !slo && len(s.Targets) > 0 && s.Targets[0] == "tokens_per_s" && s.Samples == 0 && s.Tokens == 0 &&
		(req.Intent == parse.Fit || req.Intent == parse.Unknown || req.Intent == parse.Knowledge || req.Intent == parse.Price):
		// "how many tok/s with 8 concurrent requests on 2x A100?": the
		// serving speed at that concurrency, not the memory
		return to(parse.Cost, "a serving speed")
	case model && inference && !load && len(s.Targets) > 0 && s.Targets[0] == "money_per_m_tokens" && s.Tokens == 0 && s.Samples == 0 &&
		(req.Intent == parse.Buy || req.Intent == parse.Monthly || req.Intent == parse.Price || req.Intent == parse.Compare || req.Intent == parse.Unknown || req.Intent == parse.Fit):
		// "自建DeepSeek-V3，8卡H200、利用率按70%，每百万token成本多少？": what a
		// million tokens cost on those cards, not whether to buy them
		if req.Slots.Method == "" {
			req.Slots.Method = "inference"
		}
		return to(parse.Cost, "the cost of a million tokens")
	case model && inference && (load || slo) && req.Intent != parse.Recommend:
		// a serving load: replicas × cards, the bill, the targets checked
		if req.Slots.Method == "" {
			req.Slots.Method = "inference"
		}
		return to(parse.Cost, "a serving load")
	case model && len(s.GPUs) >= 2 && (req.Intent == parse.Compare || req.Intent == parse.Fit && len(s.Targets) > 0 && strings.HasPrefix(s.Targets[0], "money")) && (s.Method != "" || load || slo || s.Images > 0 || s.Samples > 0 || s.Tokens > 0 || s.UsersPerDay > 0):
		// "phi-4 inference for 500 users/day: l4 or a10, which is less $$?",
		// "32b lora, 4090 or a100 for 50k samples?": the job on each card,
		// not the cards' spec sheets
		if req.Slots.Method == "" && s.Images == 0 && s.Samples == 0 && s.Tokens == 0 {
			req.Slots.Method = "inference"
		}
		if len(s.Targets) > 0 && s.Targets[0] == "cards" && !load && !slo && s.Images == 0 && s.Samples == 0 && s.Tokens == 0 {
			// "H100 vs MI300X vs L40S for a 70B in bf16 — how many cards
			// each?": the cards that hold it on each, the fit's list
			return to(parse.Fit, "the cards that hold the model on each")
		}
		if req.Slots.Method == "inference" && s.Images == 0 && s.Tokens == 0 && len(s.Targets) > 0 && s.Targets[0] == "hours" {
			// "A800和H20做推理到底谁快？": with no job length, "faster"
			// in serving is tokens a second
			req.Slots.Targets = append([]string{"tokens_per_s"}, s.Targets[1:]...)
		}
		return to(parse.Cost, "the job on each card named")
	case model && s.Images > 0 && (req.Intent == parse.Buy || req.Intent == parse.Monthly || req.Intent == parse.Price || req.Intent == parse.Compare || req.Intent == parse.Unknown):
		// "SDXL 出图1万张，一张4090要跑多久": the images' time and cost, not
		// whether to buy the card
		return to(parse.Fit, "an image job")
	case model && (has(s.Targets, "images_per_hour") || has(s.Targets, "money_per_image")) && (req.Intent == parse.Price || req.Intent == parse.Compare || req.Intent == parse.Unknown):
		// "flux 4090 一小时能出多少张": an image model's speed, not the card's price
		return to(parse.Fit, "an image model's speed")
	case model && !inference && s.Hours > 0 && s.Tokens == 0 && s.Samples == 0 && s.Days == 0 && len(s.GPUs) == 1 &&
		(has(s.Targets, "money_total") || has(s.Targets, "money_monthly") || reAsksHowMuch.MatchString(strings.ToLower(req.Text))) &&
		(req.Intent == parse.Cost || req.Intent == parse.Fit || req.Intent == parse.Unknown):
		// "How much does it cost to LoRA fine-tune Llama 3.1 70B on 8x H100
		// for 20 hours?": the run's length is given — its cards × hours
		// priced; no data size is needed for that
		req.Slots.Notes = append(req.Slots.Notes, "the run's length is given: its card-hours priced")
		return to(parse.Price, "a training run of the length you gave, priced")
	case model && !inference && s.Days > 0 && (s.Tokens > 0 || s.Samples > 0):
		return to(parse.Cost, "a training deadline")
	case model && !inference && (s.Tokens > 0 || s.Samples > 0) && (has(s.Targets, "cards") || has(s.Targets, "hours") || has(s.Targets, "money_total")) && req.Intent == parse.Fit:
		return to(parse.Cost, "a training job's time and money")
	case !model && len(s.GPUs) == 1 && s.Budget != nil && s.Budget.Amount > 0 && s.Hours == 0 && s.Days == 0 && s.GPUHours == 0 && s.Cards == 0 && s.Monthly == nil && s.Price == nil &&
		!has(s.Targets, "cards") && !has(s.Targets, "money_monthly") && !has(s.Targets, "gpu_hours") && req.Intent == parse.Price:
		// "我总共只有300美元，最便宜的平台能租多少小时H100？", "预算500块，最便宜的
		// A100在哪": what the budget rents at the cheapest rate, never dropped
		req.Slots.Targets = append(append([]string(nil), s.Targets...), "gpu_hours")
		return req, "the hours a budget rents"
	case !model && len(s.GPUs) >= 1 && s.Budget != nil && s.Hours > 0 && s.Days == 0 && s.GPUHours == 0 && s.Monthly == nil && has(s.Targets, "gpu_hours") &&
		(req.Intent == parse.Cost || req.Intent == parse.Fit || req.Intent == parse.Unknown || req.Intent == parse.Price || req.Intent == parse.Recommend):
		// "$300 and 3 weeks before the deadline — how many A100 hours can I
		// get?": the card-hours the budget buys, the weeks the calendar
		// they must fit in
		req.Slots.Days, req.Slots.Hours = s.Hours/24, 0
		return to(parse.Price, "the hours a budget rents, by a deadline")
	case !model && len(s.GPUs) >= 1 && s.Budget != nil && s.Hours == 0 && s.Days == 0 && s.Monthly == nil && (has(s.Targets, "gpu_hours") || has(s.Targets, "hours")) &&
		(req.Intent == parse.Cost || req.Intent == parse.Fit || req.Intent == parse.Unknown || req.Intent == parse.Price || req.Intent == parse.Recommend):
		// "经费一共8000块，4090 2.2/h，够我跑多少卡时？": what the budget rents
		return to(parse.Price, "the hours a budget rents")
	case !model && len(s.GPUs) >= 1 && (s.Hours > 0 || s.Days > 0 && s.Price != nil) && s.Monthly == nil && (has(s.Targets, "money_total") || has(s.Targets, "money_monthly") || s.Budget != nil) &&
		(!asksCommit(req.Text) || s.Budget != nil && s.Hours > 0) && // "包年…预算150万够不够跑一整年": the year's rental against the budget
		(req.Intent == parse.Cost || req.Intent == parse.Fit || req.Intent == parse.Unknown):
		// "3090s at $0.22/hr … for 200h, what do I pay", "租一张H800做LoRA，
		// 跑5天呢": a rental, at their rate or the market's
		return to(parse.Price, "a rental at your rate")
	case len(s.GPUs) >= 1 && s.GPUHours > 0 && s.Tokens == 0 && s.Samples == 0 && s.Monthly == nil && has(s.Targets, "money_total") && !asksCommit(req.Text) &&
		(req.Intent == parse.Cost || req.Intent == parse.Fit || req.Intent == parse.Unknown):
		// "估计要100个卡时A100，租的话多少钱": their card-hours, priced
		return to(parse.Price, "the card-hours you gave, priced")
	case !model && len(s.GPUs) >= 1 && asksCommit(req.Text) && reOnDemand.MatchString(strings.ToLower(req.Text)) &&
		(req.Intent == parse.Price || req.Intent == parse.Compare || req.Intent == parse.Cost || req.Intent == parse.Fit || req.Intent == parse.Unknown):
		// "AWS上H100一年期预留比按需能便宜多少", "on-demand vs the 3-yr reserved
		// rate": a commitment weighed against on demand (monthly.go → commit.go)
		return to(parse.Monthly, "a commitment against on demand")
	case !model && len(s.GPUs) >= 1 && len(s.Platforms) >= 2 && (req.Intent == parse.Compare || req.Intent == parse.Unknown || req.Intent == parse.Price) && s.Monthly == nil:
		return to(parse.Price, "one card on the platforms named")
	case !model && len(s.GPUs) > 0 && s.Monthly != nil && (s.Price != nil || s.Hours > 0 || s.GPUHours > 0 || s.HoursPerMonth > 0) && (req.Intent == parse.Cost || req.Intent == parse.Fit || req.Intent == parse.Unknown || req.Intent == parse.Price):
		// "每月大约用300卡时A800，按量每卡时12，包月每卡7000": a plan against the hours
		if s.HoursPerMonth == 0 {
			req.Slots.HoursPerMonth = math.Max(s.Hours, s.GPUHours)
			req.Slots.Hours, req.Slots.GPUHours = 0, 0
		}
		return to(parse.Monthly, "a monthly plan against your hours")
	case !model && len(s.GPUs) > 0 && req.Intent == parse.Price && s.HoursPerMonth > 0 && s.Price == nil && s.Monthly == nil && s.Budget == nil && s.Hours == 0 &&
		(has(s.Targets, "which") || reWhichCheaper.MatchString(strings.ToLower(req.Text))):
		// "那按量呢？一个月只跑 200 小时的话哪个便宜": on demand against the
		// monthly plan at their hours, not the price list again
		return to(parse.Monthly, "a monthly plan against on demand at your hours")
	case !model && len(s.GPUs) > 0 && req.Intent == parse.Monthly && s.Monthly == nil && s.Hours == 0 && s.GPUHours == 0 && s.HoursPerMonth == 0 && s.Utilization == 0 &&
		has(s.Targets, "money_monthly") && reOnDemand.MatchString(strings.ToLower(req.Text)) && !rePlanWords.MatchString(strings.ToLower(req.Text)):
		// "GCP a3-highgpu-8g on-demand monthly cost?": a month of on demand
		// (730 h) for the cards, no plan weighed
		req.Slots.Hours = knowledge.HoursPerMonth
		return to(parse.Price, "a month of on demand")
	case !model && len(s.GPUs) > 0 && s.Hours == 0 && s.GPUHours == 0 && (req.Intent == parse.Cost || req.Intent == parse.Fit || req.Intent == parse.Unknown):
		// a card with no model to size: its plans or its price
		if s.Monthly != nil || reCommitWords.MatchString(strings.ToLower(req.Text)) {
			return to(parse.Monthly, "a card's monthly or yearly plan")
		}
		return to(parse.Price, "a card's price")
	}
	return req, ""
}

// isImageModel reports whether name is an image model of the shipped
// catalogue (SDXL, Flux…).
func isImageModel(name string) bool {
	kb, err := knowledge.Shipped()
	if name == "" || err != nil {
		return false
	}
	_, ok := knowledge.FindImageModel(kb.Images, name)
	return ok
}

// reRunAsIs are words of running a model as it is (chat, a quantized
// model, "run a 7b"), read only when no training word or data was.
var reRunAsIs = regexp.MustCompile(`chatbot|聊天机器人|对话|客服|问答|跑得动|跑起来|\brun (?:a|it|the|my|this)\b|\brunning\b|\bto run\b|\bint4\b|\bint8\b|gguf|\bawq\b|gptq|\b(?:at|in) (?:4-?bit|fp8|int4|int8)\b|量化版|\bsplit a\b`)

// rentalAtTheirRate reads a rental priced at the user's own hourly rate
// for a stated time: "We pay $2.49/hr per H100 on RunPod and run 8 of them
// 24/7 — monthly spend?", "计划租 16 张 H800，按 8.88 元/卡时，每天跑 20 小时，
// 一个月要多少", "rent 8 H100 at $2.49/hr for 730 hours, total?". Their
// cards × hours × rate is the answer, not a purchase, a spend report or a
// quote weighed against the market.
func rentalAtTheirRate(req parse.Request) (parse.Request, string, bool) {
	s := req.Slots
	lower := strings.ToLower(req.Text)
	rate := cmp.Or(s.Price, s.Rent)
	if rate == nil || !(readOnly[req.Intent] || req.Intent == parse.Spend && s.Mode == "report") || len(s.GPUs) == 0 ||
		s.ParamsB > 0 || s.Model != "" || s.Arch != "" || s.Monthly != nil || s.Budget != nil || s.Utilization > 0 ||
		s.Hours == 0 && s.HoursPerMonth == 0 || asksCommit(req.Text) || hasAny(lower, purchaseWords) || reBuyWord.MatchString(lower) ||
		reSpentWords.MatchString(lower) || !reRunsAtRate.MatchString(lower) || reCheckAsk.MatchString(lower) || reOverAsk.MatchString(lower) {
		return req, "", false
	}
	if !(has(s.Targets, "money_total") || has(s.Targets, "money_monthly") || reAsksHowMuch.MatchString(lower)) {
		return req, "", false
	}
	req.Intent, req.Slots.Mode = parse.Price, ""
	req.Slots.Price, req.Slots.Rent = rate, nil
	if s.Hours == 0 {
		// "24/7", "每天跑 20 小时": a month of that use
		req.Slots.Hours, req.Slots.HoursPerMonth = s.HoursPerMonth, 0
		if !has(s.Targets, "money_monthly") {
			req.Slots.Targets = append([]string{"money_monthly"}, s.Targets...)
		}
	}
	if s.QuotePer == "machine" && !reMachineRate.MatchString(lower) {
		// "$2.49/hr per H100", "8.88 元/卡时": a card's rate, whatever the
		// card count beside it
		req.Slots.QuotePer = ""
	}
	req.Slots.Billing = ""
	req.Slots.Missing = parse.Missing(parse.Price, req.Slots)
	return req, "a rental at your rate", true
}

var (
	// reRunsAtRate are the words of renting or running cards at a rate
	reRunsAtRate = regexp.MustCompile(`\brent(?:ing)?\b|\blease\b|\bwe pay\b|\bpaying\b|\brun(?:ning)?\b|24/7|around the clock|租|跑|开着|按量|/卡时|每卡时|/hr|/h\b|per hour|an hour|/gpu|per gpu`)
	// reAsksHowMuch asks for a sum of money
	reAsksHowMuch = regexp.MustCompile(`how much|\btotal\b|what(?:'s| is| will be) (?:our|the) (?:monthly )?(?:spend|bill|cost)|monthly spend|多少钱|要多少|花多少|总共|一共|合计|预算大概|大概要`)
	// reOverAsk weighs spend against a budget ("会不会超", "还能花多少")
	reOverAsk = regexp.MustCompile(`超|还能花|还剩|budget|\bover\b|afford`)
)

// reWhichCheaper asks which of two ways to pay is cheaper.
var reWhichCheaper = regexp.MustCompile(`哪个便宜|哪个划算|哪个省|哪种便宜|哪种划算|划算吗|更便宜|更划算|which is cheaper|which one is cheaper|cheaper|worth it`)

// reCheapestAsk asks for the lowest price.
var reCheapestAsk = regexp.MustCompile(`cheapest|lowest price|best price|least expensive|how much|price|最便宜|哪家便宜|多少钱|价格|报价`)

// reRentAsk and reSpentWords tell a rental asked about ("rent 4 A100 for
// 3 months, total?") from spend looked back on ("what did the H100s cost
// us last month?").
var (
	reRentAsk    = regexp.MustCompile(`\brent(?:ing)?\b|\blease\b|租`)
	reSpentWords = regexp.MustCompile(`\bspent\b|\bpaid\b|\bbill(?:ed)?\b|\bburn|\binvoice|ledger|last (?:month|week|quarter)|花了|花掉|账单|账本|记账|记一|上个月|上周|上季度`)
)

// reBuyWord is buying hardware said in English.
var reBuyWord = regexp.MustCompile(`\bbuy(?:ing)?\b|\bpurchas|\bown(?:ing)?\b|\bcapex\b`)

// reOnDemand names on-demand pricing, the other side of a commitment.
var reOnDemand = regexp.MustCompile(`按需|按量|on-demand|on demand|ondemand|pay-as-you-go|payg`)

// reLogWrite opens an instruction to book spend ("log $12,400 against
// inference-prod", "记一笔…").
var reLogWrite = regexp.MustCompile(`^(?:please\s+)?(?:log|record|book)\b|^(?:帮我|请)?(?:记一笔|记账|记一下)`)

// rePlanWords name a plan or a commitment itself (not a month's bill).
var rePlanWords = regexp.MustCompile(`包月|包年|月租|年租|预留|框架协议|reserved|reservation|commit|savings plan|monthly plan|plan\b`)

// reCommitWords are the words of a monthly, yearly or reserved plan.
var reCommitWords = regexp.MustCompile(`包月|包年|月租|年租|预留|框架协议|reserved|reservation|commit|savings plan|monthly plan|per month|a month|/month`)

// slashSentence reports whether a slash command was a sentence the router
// read ("/gpu 13b lora"), not a sub-command.
func slashSentence(req parse.Request) bool {
	if len(req.Slots.Args) == 0 {
		return false
	}
	switch strings.ToLower(req.Slots.Args[0]) {
	case "fit", "cost", "monthly", "buy", "price", "compare", "recommend", "spend", "budget", "help", "watch", "subscribe", "settings", "listen", "unsubscribe", "subscriptions":
		return false
	}
	return true
}

func has(list []string, v string) bool { return slices.Contains(list, v) }

// contextFromRequests sizes a memory fit's KV cache by the requests the
// message describes: "32 concurrent 8k requests", "4k in / 500 out" hold
// prompt + answer tokens each, the sequence length the fit reads.
func contextFromRequests(req parse.Request) parse.Request {
	s := &req.Slots
	if req.Intent != parse.Fit || s.Method != "inference" || s.SeqLen > 0 || s.InputTokens+s.OutputTokens == 0 {
		return req
	}
	s.SeqLen = s.InputTokens + s.OutputTokens
	s.Notes = append(s.Notes, fmt.Sprintf("each request holds %d tokens of context (prompt + answer)", s.SeqLen))
	return req
}

// normalizeQuotes makes a quote per card what the monthly engine reads: a
// monthly plan quoted for a whole machine ("8卡包月68000元") is divided by
// its cards, with a note. (The buy engine reads a machine total or a
// per-card quote itself: BuyInput.PerCardQuote.)
func normalizeQuotes(req parse.Request) parse.Request {
	s := &req.Slots
	n := s.Cards
	if n <= 1 || s.QuotePer == "" {
		return req
	}
	switch {
	case (req.Intent == parse.Monthly || req.Intent == parse.Buy && asksCommit(strings.ToLower(req.Text)) || req.Intent == parse.Cost && s.Price == nil) && s.Monthly != nil && s.QuotePer == "machine":
		m := *s.Monthly
		per := m.Amount / float64(n)
		s.Notes = append(s.Notes, fmt.Sprintf("the monthly quote %s is for %d cards: %s per card-month", trimNum(m.Amount), n, trimNum(per)))
		// "8卡，按量95.84一小时，包月4.6万": an hourly price on the same
		// basis as the machine's month (the month is 150–800 of its hours)
		// is the machine's too
		if s.Price != nil && s.Price.Amount > 0 {
			if h := m.Amount / s.Price.Amount; h >= 150 && h <= 800 {
				p := *s.Price
				p.Amount /= float64(n)
				s.Notes = append(s.Notes, fmt.Sprintf("the hourly price %s is for the %d cards too: %s per card-hour", trimNum(s.Price.Amount), n, trimNum(p.Amount)))
				s.Price = &p
			}
		}
		m.Amount = per
		s.Monthly = &m
	case req.Intent == parse.Buy && s.Ops != nil && s.QuotePer == "machine":
		// "8卡整机 160万，托管每年12万": the machine's running cost; the
		// engine reads operations per card (the buy handler divides it, the
		// slot keeps what was said)
		per := s.Ops.Amount / float64(n)
		s.Notes = append(s.Notes, fmt.Sprintf("the yearly running cost %s is for the %d-card machine: %s per card a year", trimNum(s.Ops.Amount), n, trimNum(per)))
	}
	return req
}

func trimNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
