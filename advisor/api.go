package advisor

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// APIQuote is one hosted API's bill for the stated load.
type APIQuote struct {
	Provider   string               `json:"provider"`
	Model      string               `json:"model"`
	Input      float64              `json:"input_per_m"` // answer currency per million tokens
	Output     float64              `json:"output_per_m"`
	Blended    float64              `json:"blended_per_m"` // at the stated input:output split
	Monthly    float64              `json:"monthly"`
	Date       string               `json:"date"`
	Source     string               `json:"source"`
	Confidence knowledge.Confidence `json:"confidence"`
	// FirstParty marks the model family's own API (Qwen on 阿里云百炼,
	// DeepSeek's, Moonshot's Kimi): a different model than the one sized,
	// listed beside the hosts of the same model. Named marks the family the
	// question named ("走Kimi的API").
	FirstParty bool `json:"first_party,omitempty"`
	Named      bool `json:"named,omitempty"`
}

// firstParty maps a model family (the start of a catalogue model id, or a
// name in the question) to the provider that publishes its own API.
var firstParty = []struct{ family, provider string }{
	{"qwen", "Alibaba"}, {"deepseek", "DeepSeek (official"}, {"kimi", "Moonshot"}, {"glm", "Zhipu"},
	{"ernie", "Baidu"}, {"doubao", "ByteDance"}, {"minimax", "MiniMax"}, {"openai", "OpenAI"},
}

// providerOf is the provider publishing a family's own API.
func providerOf(family string) string {
	for _, f := range firstParty {
		if f.family == family {
			return f.provider
		}
	}
	return "\x00" // no provider starts with it
}

// familyOf is the family a model id belongs to ("" when none).
func familyOf(model string) string {
	m := strings.ToLower(model)
	for _, f := range firstParty {
		if strings.HasPrefix(m, f.family) {
			return f.family
		}
	}
	return ""
}

// familyQuotes are a family's first-party rows, one per model (the newest,
// in the answer's currency when the provider publishes both), low-
// confidence and third-party summaries left out.
func familyQuotes(family string, prices []knowledge.APIPrice, cur knowledge.Currency) []knowledge.APIPrice {
	prov := providerOf(family)
	best := map[string]knowledge.APIPrice{}
	var order []string
	for _, p := range prices {
		if !strings.HasPrefix(p.Provider, prov) || strings.Contains(p.Provider, "third-party") || strings.Contains(p.Provider, "peak") || p.Confidence == knowledge.Low {
			continue
		}
		name, _, _ := strings.Cut(p.Model, " (")
		old, seen := best[name]
		switch {
		case !seen:
			order = append(order, name)
		case (old.Currency == cur) != (p.Currency == cur):
			if old.Currency == cur {
				continue
			}
		case old.Sortable() >= p.Sortable():
			continue
		}
		best[name] = p
	}
	out := make([]knowledge.APIPrice, 0, len(order))
	for _, n := range order {
		out = append(out, best[n])
	}
	return out
}

// APIInput is "self-host or call an API?" at a load of TokensPerDay, split
// InputTokens:OutputTokens per request (the serving plan's split).
type APIInput struct {
	Model        string             `json:"model"`
	TokensPerDay float64            `json:"tokens_per_day"`
	InputTokens  int                `json:"input_tokens"`
	OutputTokens int                `json:"output_tokens"`
	Currency     knowledge.Currency `json:"currency"`
	FX           float64            `json:"fx"`
	// SelfHost is the serving plan the cost engine sized for this load.
	SelfHost *ServingPlan         `json:"-"`
	Prices   []knowledge.APIPrice `json:"-"`
	// Named is a model family the question names as the API it uses or
	// weighs ("kimi", "doubao"); its first-party prices are listed.
	Named string `json:"named,omitempty"`
}

// APIResult compares the self-hosted plan's monthly bill with hosted APIs.
type APIResult struct {
	Inputs          APIInput   `json:"inputs"`
	Quotes          []APIQuote `json:"quotes"` // cheapest first
	SelfHostMonthly float64    `json:"self_host_monthly"`
	Cheaper         string     `json:"cheaper"` // api, self_host
	// SavingMonthly is what the cheaper way saves a month against the
	// other: |self-hosted − cheapest API|.
	SavingMonthly float64 `json:"saving_monthly"`
	// BreakevenTokensPerDay is the load at which one always-on replica
	// costs what the cheapest API bills; 0 with NoBreakeven when even a
	// fully used replica costs more per token than the API.
	BreakevenTokensPerDay float64            `json:"breakeven_tokens_per_day"`
	NoBreakeven           bool               `json:"no_breakeven"`
	BreakevenReplicas     int                `json:"breakeven_replicas"` // the plan's replicas the break-even is for
	Currency              knowledge.Currency `json:"currency"`
	Lines                 []Line             `json:"lines"`
	Assumptions           []Text             `json:"assumptions"`
}

const daysPerMonth = knowledge.HoursPerMonth / 24 // 30.42, the 730 h month the serving plan bills

// CompareAPI bills the load on every sourced host of the same model:
//
//	blended per M = (in × input price + out × output price) ÷ (in + out)
//	API monthly   = tokens/day × 730/24 days ÷ 1e6 × blended
//
// and finds the break-even load against one replica of the self-hosted plan
// (R = monthly on-demand ÷ replicas, capacity C = replica requests/s ×
// tokens per request × 86400 ÷ peak factor tokens/day): L* = R ÷ (730/24 ÷
// 1e6 × blended), when L* ≤ C; otherwise the API is cheaper at every load.
func CompareAPI(in APIInput) (APIResult, error) {
	res := APIResult{Currency: in.Currency, Inputs: in}
	switch {
	case in.Model == "" && in.Named == "":
		// a size alone ("a 14B") is priced against the API the question
		// names ("调豆包API"); with none named there is nothing to bill
		return res, inputErr("model", "name the model to serve", "每天1亿token用qwen2.5-72b 自建还是调API")
	case math.IsNaN(in.TokensPerDay) || in.TokensPerDay <= 0:
		return res, inputErr("tokens_per_day", "give the load in tokens a day", "每天1亿token用qwen2.5-72b 自建还是调API")
	case in.SelfHost == nil || in.SelfHost.Replicas == 0:
		return res, inputErr("tokens_per_day", "no self-hosted serving plan for this load", "每天1亿token用qwen2.5-72b 自建还是调API")
	}
	quotes, same, notes, err := apiQuotes(&in)
	if err != nil {
		return res, err
	}
	res.Quotes, res.Assumptions = quotes, append(res.Assumptions, notes...)
	res.Inputs = in
	best := res.Quotes[0]
	tin, tout := apiSplit(in)
	cur := in.Currency
	pl := in.SelfHost
	res.SelfHostMonthly = Round2(pl.MonthlyOnDemand)
	res.Cheaper = "api"
	if res.SelfHostMonthly < best.Monthly {
		res.Cheaper = "self_host"
	}
	res.SavingMonthly = Round2(math.Abs(res.SelfHostMonthly - best.Monthly))
	replica := pl.MonthlyOnDemand / float64(pl.Replicas)
	capacity := pl.ReplicaRequestsPerS * (tin + tout) * 86400 / math.Max(pl.PeakFactor, 1)
	slope := daysPerMonth / 1e6 * best.Blended
	// The break-even is at the plan's own size: N replicas cost N bills
	// whatever the load they carry, so the API matches them at N × one
	// bill ÷ slope, within N replicas' capacity (one replica's break-even
	// said "self-hosting pays above 82M tokens/day" to a 100M/day question
	// whose two replicas lost to the API).
	n := float64(max(pl.Replicas, 1))
	res.BreakevenReplicas = max(pl.Replicas, 1)
	be := replica * n / slope
	if be <= capacity*n {
		res.BreakevenTokensPerDay = math.Round(be)
	} else {
		res.NoBreakeven = true
	}
	c := cur
	res.Lines = []Line{
		{Key: "api_blended", Label: txt("cheapest API per million tokens, blended", "最便宜 API 每百万 token（混合）"), Value: best.Blended, Unit: string(c),
			How: fmt.Sprintf("(%s × %s + %s × %s) ÷ %s (%s)", num(tin), money(best.Input, c), num(tout), money(best.Output, c), num(tin+tout), best.Provider)},
		{Key: "api_monthly", Label: txt("API per month", "API 每月"), Value: best.Monthly, Unit: string(c),
			How: fmt.Sprintf("%s tokens/day × %s days ÷ 1e6 × %s", num(in.TokensPerDay), num(round(daysPerMonth, 2)), money(best.Blended, c))},
		{Key: "self_host_monthly", Label: txt("self-hosted per month", "自建每月"), Value: res.SelfHostMonthly, Unit: string(c),
			How: fmt.Sprintf("%d replicas × %s a month (on demand, 730 h)", pl.Replicas, money(Round2(replica), c))},
		{Key: "replica_capacity", Label: txt("one replica's load at the peak factor", "单副本可承载负载（按峰值系数）"), Value: math.Round(capacity), Unit: "tokens/day",
			How: fmt.Sprintf("%s req/s × %s tokens × 86400 ÷ %s", num(round(pl.ReplicaRequestsPerS, 3)), num(tin+tout), num(pl.PeakFactor))},
	}
	if res.NoBreakeven {
		res.Lines = append(res.Lines, Line{Key: "breakeven_tokens_per_day", Label: txt("break-even load", "打平负载"), Value: 0, Unit: "tokens/day",
			How: fmt.Sprintf("%s × %s a replica ÷ (%s ÷ 1e6 × %s) = %s tokens/day, above %s replicas' %s: the API is cheaper at any load", num(n), money(Round2(replica), c), num(round(daysPerMonth, 2)), money(best.Blended, c), num(math.Round(be)), num(n), num(math.Round(capacity*n)))})
	} else {
		res.Lines = append(res.Lines, Line{Key: "breakeven_tokens_per_day", Label: txt("break-even load", "打平负载"), Value: res.BreakevenTokensPerDay, Unit: "tokens/day",
			How: fmt.Sprintf("%s × %s a replica ÷ (%s ÷ 1e6 × %s), within %s replicas' %s tokens/day", num(n), money(Round2(replica), c), num(round(daysPerMonth, 2)), money(best.Blended, c), num(n), num(math.Round(capacity*n)))})
	}
	res.Assumptions = append(res.Assumptions,
		txt(fmt.Sprintf("tokens split %s input : %s output per request, as the serving plan", num(tin), num(tout)),
			fmt.Sprintf("每个请求输入 %s、输出 %s token，与自建方案一致", num(tin), num(tout))),
		txt("API prices are sourced list prices (per row date and confidence), not quotes; caching, batch discounts and rate limits are not counted",
			"API 价格为有出处的公开价（见各行日期与可信度），不是报价；未计缓存、批量折扣与限流"),
		txt("self-hosting excludes engineering time, storage and egress", "自建未计工程人力、存储与流量"))
	if len(res.Quotes) > same && same > 0 {
		res.Assumptions = append(res.Assumptions, txt(
			"first-party APIs of the model family are listed after the hosts of the same model: they serve different models, so the verdict is on the same model",
			"同系列官方 API 列在同一模型的托管商之后：它们是不同的模型，结论按同一模型给出"))
	}
	return res, nil
}

func containsQuote(qs []APIQuote, p knowledge.APIPrice) bool {
	for _, q := range qs {
		if q.Provider == p.Provider && q.Model == p.Model {
			return true
		}
	}
	return false
}

// apiSplit is a request's input and output tokens (1:1 when not given).
func apiSplit(in APIInput) (tin, tout float64) {
	tin, tout = float64(in.InputTokens), float64(in.OutputTokens)
	if tin+tout == 0 {
		tin, tout = 1, 1
	}
	return tin, tout
}

// apiQuotes prices the request split on every sourced host of the model
// and on the family's (or the named) first-party API, ranked: the API the
// question names first, then the same model's hosts, cheapest first, then
// the family's own. same counts the hosts of the same model. Monthly is
// the month at in.TokensPerDay (0 without a load).
func apiQuotes(in *APIInput) (quotes []APIQuote, same int, notes []Text, err error) {
	if in.FX <= 0 {
		in.FX = DefaultCNYPerUSD
	}
	tin, tout := apiSplit(*in)
	cur := in.Currency
	for _, p := range in.Prices {
		if in.Model == "" || p.ModelID != in.Model {
			continue // no model named: only the named API's own prices (below)
		}
		ip, op := Convert(p.Input, p.Currency, cur, in.FX), Convert(p.Output, p.Currency, cur, in.FX)
		bl := (tin*ip + tout*op) / (tin + tout)
		quotes = append(quotes, APIQuote{Provider: p.Provider, Model: p.Model, Input: round(ip, 4), Output: round(op, 4), Blended: round(bl, 4),
			Monthly: Round2(in.TokensPerDay * daysPerMonth / 1e6 * bl), Date: p.Date, Source: p.SourceTitle + " — " + p.SourceURL, Confidence: p.Confidence,
			Named: in.Named != "" && strings.HasPrefix(p.Provider, providerOf(in.Named))})
	}
	same = len(quotes)
	// The family's own API (a different model: compare quality too), and
	// the API the question names.
	for _, fam := range []string{in.Named, familyOf(in.Model)} {
		if fam == "" {
			continue
		}
		for _, p := range familyQuotes(fam, in.Prices, cur) {
			if in.Model != "" && p.ModelID == in.Model || containsQuote(quotes, p) {
				continue
			}
			ip, op := Convert(p.Input, p.Currency, cur, in.FX), Convert(p.Output, p.Currency, cur, in.FX)
			bl := (tin*ip + tout*op) / (tin + tout)
			quotes = append(quotes, APIQuote{Provider: p.Provider, Model: p.Model, Input: round(ip, 4), Output: round(op, 4), Blended: round(bl, 4),
				Monthly: Round2(in.TokensPerDay * daysPerMonth / 1e6 * bl), Date: p.Date, Source: p.SourceTitle + " — " + p.SourceURL, Confidence: p.Confidence,
				FirstParty: true, Named: fam == in.Named})
		}
	}
	if len(quotes) == 0 {
		return nil, 0, nil, inputErr("model", fmt.Sprintf("no hosted API price is shipped for %s", in.Model), "每天1亿token用qwen2.5-72b 自建还是调API")
	}
	// The API the question names first (the bill it pays or weighs),
	// then the same model's hosts, cheapest first, then the family's own.
	rank := func(q APIQuote) int {
		switch {
		case q.Named && !q.FirstParty && !strings.Contains(q.Provider, "off-peak"): // the named provider's own standard price for the same model
			return 0
		case q.Named && !q.FirstParty:
			return 1
		case q.Named:
			return 2
		case !q.FirstParty:
			return 3
		}
		return 4
	}
	sort.SliceStable(quotes, func(i, j int) bool {
		a, b := quotes[i], quotes[j]
		if rank(a) != rank(b) {
			return rank(a) < rank(b)
		}
		if rank(a) == 2 { // of the named family's models, its current one
			da, db := (knowledge.Provenance{Date: a.Date}).Sortable(), (knowledge.Provenance{Date: b.Date}).Sortable()
			if da != db {
				return da > db
			}
		}
		return a.Monthly < b.Monthly
	})
	// At most three of a family's other models are listed.
	kept, fam := quotes[:0], map[int]int{}
	for _, q := range quotes {
		if r := rank(q); r == 2 || r == 4 {
			if fam[r]++; fam[r] > 3 {
				continue
			}
		}
		kept = append(kept, q)
	}
	quotes = kept
	best := quotes[0]
	if best.Named {
		notes = append(notes, txt(
			fmt.Sprintf("the API named in the question is the comparison: %s %s (its newest model in the data; name the model if you use another)", best.Provider, best.Model),
			fmt.Sprintf("按问题里提到的 API 对比：%s %s（数据里它最新的模型；用的是别的型号请说明）", best.Provider, best.Model)))
	} else if same == 0 {
		notes = append(notes, txt(
			fmt.Sprintf("no shipped host serves %s itself: the comparison is the first-party API %s %s, a different model — compare quality as well as price", in.Model, best.Provider, best.Model),
			fmt.Sprintf("数据里没有托管 %s 本身的 API：对比的是官方 API %s %s，不是同一个模型——除价格外也要比较效果", in.Model, best.Provider, best.Model)))
	}
	return quotes, same, notes, nil
}

// APIPerMResult weighs a self-hosted cost per million output tokens
// against the APIs' price for the same requests.
type APIPerMResult struct {
	Quotes []APIQuote `json:"quotes"` // ranked as CompareAPI's
	// Best is the quote weighed (the named API, else the cheapest host);
	// PerMOutput is its bill per million output tokens at the request
	// split: (in × input price + out × output price) ÷ out.
	Best       APIQuote `json:"best"`
	PerMOutput float64  `json:"api_per_m_output"`
	SelfPerM   float64  `json:"self_per_m_output"`
	// Ratio is self-hosted ÷ API per million output tokens (2 = twice the
	// API's price); Cheaper is "api" or "self_host".
	Ratio       float64            `json:"ratio"`
	Cheaper     string             `json:"cheaper"`
	SavingPerM  float64            `json:"saving_per_m"` // |self-hosted − API| per million output tokens
	APIRatio    float64            `json:"api_ratio"`    // API ÷ self-hosted (the ratio the other way round)
	Currency    knowledge.Currency `json:"currency"`
	Lines       []Line             `json:"lines"`
	Assumptions []Text             `json:"assumptions"`
}

// CompareAPIPerM weighs selfPerM — what a million generated tokens cost on
// the user's own cards (CostResult.PerMTokens: the replica's hourly rent ÷
// its output tokens per hour) — against the APIs for the same requests. An
// API bills the prompt too, so its price per million output tokens is
// (in × input + out × output) ÷ out.
func CompareAPIPerM(in APIInput, selfPerM float64) (APIPerMResult, error) {
	res := APIPerMResult{Currency: in.Currency, SelfPerM: selfPerM}
	switch {
	case in.Model == "" && in.Named == "":
		return res, inputErr("model", "name the model to serve", "自建DeepSeek-V3 8卡H200 每百万token成本 跟官方API比")
	case math.IsNaN(selfPerM) || selfPerM <= 0:
		return res, inputErr("per_m_tokens", "no self-hosted cost per million tokens to weigh", "自建DeepSeek-V3 8卡H200 每百万token成本 跟官方API比")
	}
	quotes, _, notes, err := apiQuotes(&in)
	if err != nil {
		return res, err
	}
	res.Quotes, res.Assumptions, res.Best = quotes, notes, quotes[0]
	tin, tout := apiSplit(in)
	if in.InputTokens+in.OutputTokens == 0 {
		tin, tout = 0, 1 // no split given: output tokens only
	}
	b := res.Best
	res.PerMOutput = round((tin*b.Input+tout*b.Output)/tout, 4)
	res.Ratio = round(selfPerM/res.PerMOutput, 4)
	res.SavingPerM = round(math.Abs(selfPerM-res.PerMOutput), 4)
	res.APIRatio = round(res.PerMOutput/selfPerM, 2)
	res.Cheaper = "api"
	if selfPerM < res.PerMOutput {
		res.Cheaper = "self_host"
	}
	c := in.Currency
	res.Lines = []Line{
		{Key: "api_per_m_output", Label: txt("API per million output tokens", "API 每百万输出 token"), Value: res.PerMOutput, Unit: string(c) + "/M tokens",
			How: fmt.Sprintf("(%s × %s + %s × %s) ÷ %s (%s %s: the prompt is billed too)", num(tin), money(b.Input, c), num(tout), money(b.Output, c), num(tout), b.Provider, b.Model)},
		{Key: "self_per_m_output", Label: txt("self-hosted per million output tokens", "自建每百万输出 token"), Value: round(selfPerM, 4), Unit: string(c) + "/M tokens",
			How: "the replica's rent per hour ÷ its output tokens per hour"},
		{Key: "ratio", Label: txt("self-hosted ÷ API", "自建 ÷ API"), Value: res.Ratio, Unit: "×",
			How: fmt.Sprintf("%s ÷ %s", money(round(selfPerM, 4), c), money(res.PerMOutput, c))},
	}
	res.Assumptions = append(res.Assumptions, txt(
		"API prices are sourced list prices (per row date and confidence), not quotes; caching and batch discounts are not counted",
		"API 价格为有出处的公开价（见各行日期与可信度），不是报价；未计缓存与批量折扣"))
	return res, nil
}
