package advisor

import (
	"fmt"
	"math"
	"sort"
	"strconv"
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
	// ListInput and ListOutput are the row's own prices per million
	// tokens, in ListCurrency, before any conversion.
	ListInput    float64            `json:"list_input_per_m"`
	ListOutput   float64            `json:"list_output_per_m"`
	ListCurrency knowledge.Currency `json:"list_currency"`
}

// providerOf is the provider publishing a family's own API (the lexicon's
// apis.families).
func providerOf(family string) string {
	for _, f := range knowledge.MustLexicon().APIs.Families {
		if f.Family == family {
			return f.Provider
		}
	}
	return "\x00" // no provider starts with it
}

// familyOf is the family a model id belongs to ("" when none).
func familyOf(model string) string {
	m := strings.ToLower(model)
	for _, f := range knowledge.MustLexicon().APIs.Families {
		if strings.HasPrefix(m, f.Family) {
			return f.Family
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
	// NamedModel is the family's model the question names, as the price
	// rows name it before any parenthesis ("gpt-4o-mini",
	// "claude-haiku-4-5"): its row leads, and the verdict is on it.
	Named      string `json:"named,omitempty"`
	NamedModel string `json:"named_model,omitempty"`
	// PerMonth marks a load the question gave a month ("2B tokens/month"),
	// which the parser read as TokensPerDay × 365/12: the answer says the
	// month it was given and the conversion.
	PerMonth bool `json:"per_month,omitempty"`
}

// APIModelName is a price row's model before any parenthesis
// ("kimi-k2.6 (CNY)" → "kimi-k2.6").
func APIModelName(model string) string { return baseName(model) }

func baseName(model string) string {
	name, _, _ := strings.Cut(model, " (")
	return name
}

// APIResult compares the self-hosted plan's monthly bill with hosted APIs.
type APIResult struct {
	Inputs          APIInput   `json:"inputs"`
	Quotes          []APIQuote `json:"quotes"` // cheapest first
	SelfHostMonthly float64    `json:"self_host_monthly"`
	Cheaper         string     `json:"cheaper"` // api, self_host
	// SavingMonthly is what the cheaper way saves a month against the
	// other: |self-hosted − the API weighed (Quotes[0])|.
	SavingMonthly float64 `json:"saving_monthly"`
	// Cheapest is the cheapest quote listed when it is not the one
	// weighed (a different model, or the named API is not the cheapest):
	// the answer says so, so "cheapest" is never said of a dearer one.
	Cheapest *APIQuote `json:"cheapest,omitempty"`
	// BreakevenTokensPerDay is the load at which one always-on replica
	// costs what the cheapest API bills; 0 with NoBreakeven when even a
	// fully used replica costs more per token than the API.
	BreakevenTokensPerDay float64 `json:"breakeven_tokens_per_day"`
	NoBreakeven           bool    `json:"no_breakeven"`
	BreakevenReplicas     int     `json:"breakeven_replicas"` // the plan's replicas the break-even is for
	// TokensPerMonth is the load a month (Inputs.TokensPerDay × DaysPerMonth)
	// and DaysPerMonth the month billed, 730 h ÷ 24: said when the question
	// gave its load a month (Inputs.PerMonth).
	TokensPerMonth float64 `json:"tokens_per_month"`
	DaysPerMonth   float64 `json:"days_per_month"`
	// SplitInput and SplitOutput are the tokens a request in and out the
	// bills assume (the serving plan's, 1:1 when none).
	SplitInput  float64            `json:"split_input"`
	SplitOutput float64            `json:"split_output"`
	Currency    knowledge.Currency `json:"currency"`
	Lines       []Line             `json:"lines"`
	Assumptions []Text             `json:"assumptions"`
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
	for i, q := range res.Quotes {
		if q.Monthly < best.Monthly && (res.Cheapest == nil || q.Monthly < res.Cheapest.Monthly) {
			res.Cheapest = &res.Quotes[i]
		}
	}
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
	res.DaysPerMonth = round(daysPerMonth, 2)
	res.SplitInput, res.SplitOutput = tin, tout
	res.TokensPerMonth = math.Round(in.TokensPerDay * daysPerMonth)
	res.Lines = []Line{
		{Key: "api_blended", Label: txt("the API weighed, per million tokens, blended", "所比 API 每百万 token（混合）"), Value: best.Blended, Unit: string(c),
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
	if in.PerMonth {
		// "2B tokens/month": the month given, read as a day's load
		res.Lines = append([]Line{{Key: "tokens_per_day", Label: txt("load a day", "每天负载"), Value: math.Round(in.TokensPerDay), Unit: "tokens/day",
			How: fmt.Sprintf("%s tokens/month ÷ %s days (365/12)", num(res.TokensPerMonth), num(res.DaysPerMonth))}}, res.Lines...)
	}
	res.Assumptions = append(res.Assumptions,
		txt(fmt.Sprintf("tokens split %s input : %s output per request, as the serving plan; say input_tokens= and output_tokens= to change it", num(tin), num(tout)),
			fmt.Sprintf("每个请求输入 %s、输出 %s token，与自建方案一致；可用 input_tokens= 和 output_tokens= 修改", num(tin), num(tout))),
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
			Named: in.Named != "" && strings.HasPrefix(p.Provider, providerOf(in.Named)), ListInput: p.Input, ListOutput: p.Output, ListCurrency: p.Currency})
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
				FirstParty: true, Named: fam == in.Named, ListInput: p.Input, ListOutput: p.Output, ListCurrency: p.Currency})
		}
	}
	if len(quotes) == 0 {
		return nil, 0, nil, inputErr("model", fmt.Sprintf("no hosted API price is shipped for %s", in.Model), "每天1亿token用qwen2.5-72b 自建还是调API")
	}
	// The API the question names first (the bill it pays or weighs): the
	// model it names, else the named provider's price for the same model,
	// else the named family's current model; then the same model's hosts,
	// cheapest first, then the family's own.
	rank := func(q APIQuote) int {
		switch {
		case q.Named && in.NamedModel != "" && strings.EqualFold(baseName(q.Model), in.NamedModel):
			return 0
		case q.Named && !q.FirstParty && !strings.Contains(q.Provider, "off-peak"): // the named provider's own standard price for the same model
			return 1
		case q.Named && !q.FirstParty:
			return 2
		case q.Named:
			return 3
		case !q.FirstParty:
			return 4
		}
		return 5
	}
	sort.SliceStable(quotes, func(i, j int) bool {
		a, b := quotes[i], quotes[j]
		if rank(a) != rank(b) {
			return rank(a) < rank(b)
		}
		if rank(a) == 3 { // of the named family's models, its current one
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
		if r := rank(q); r == 3 || r == 5 {
			if fam[r]++; fam[r] > 3 {
				continue
			}
		}
		kept = append(kept, q)
	}
	quotes = kept
	best := quotes[0]
	if best.Named && in.NamedModel != "" && strings.EqualFold(baseName(best.Model), in.NamedModel) {
		notes = append(notes, txt(
			fmt.Sprintf("the API named in the question is the comparison: %s %s", best.Provider, best.Model),
			fmt.Sprintf("按问题里提到的 API 对比：%s %s", best.Provider, best.Model)))
	} else if best.Named {
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

// APIPriceInput asks what a hosted API charges: the family's (Family, a
// lexicon apis family) model Model (a row's base name; "" for the
// family's current models), and the bill for Tokens tokens when given.
type APIPriceInput struct {
	Family string  `json:"family"`
	Model  string  `json:"model,omitempty"`
	Tokens float64 `json:"tokens,omitempty"`
	// TokensPerDay bills a load: for Days days when given, else a
	// month (730/24 days), at InputTokens:OutputTokens per request
	// (1000:500, the serving plan's default, when not given).
	TokensPerDay float64 `json:"tokens_per_day,omitempty"`
	Days         float64 `json:"days,omitempty"`
	// PerMonth marks a load given a month (APIInput.PerMonth).
	PerMonth     bool                 `json:"per_month,omitempty"`
	InputTokens  int                  `json:"input_tokens,omitempty"`
	OutputTokens int                  `json:"output_tokens,omitempty"`
	Currency     knowledge.Currency   `json:"currency"`
	FX           float64              `json:"fx"`
	Prices       []knowledge.APIPrice `json:"-"`
}

// APIPriceResult is an API's sourced price per million tokens: the model
// asked about first (else the family's newest), then the family's other
// current models, newest first.
type APIPriceResult struct {
	Inputs APIPriceInput `json:"inputs"`
	Quotes []APIQuote    `json:"quotes"`
	// TokensInput and TokensOutput bill Inputs.Tokens wholly as input and
	// wholly as output on Quotes[0] (0 without tokens).
	TokensInput  float64 `json:"tokens_input_cost,omitempty"`
	TokensOutput float64 `json:"tokens_output_cost,omitempty"`
	// Blended is Quotes[0]'s price per million at the request split and
	// Bill the load's bill over BillDays (0 without a load).
	Blended  float64 `json:"blended_per_m,omitempty"`
	Bill     float64 `json:"bill,omitempty"`
	BillDays float64 `json:"bill_days,omitempty"`
	// TokensPerMonth is the load a month when it was given a month
	// (Inputs.PerMonth): TokensPerDay × 730/24.
	TokensPerMonth float64 `json:"tokens_per_month,omitempty"`
	// SplitInput and SplitOutput are the request split Blended assumes.
	SplitInput  float64            `json:"split_input,omitempty"`
	SplitOutput float64            `json:"split_output,omitempty"`
	Currency    knowledge.Currency `json:"currency"`
	Lines       []Line             `json:"lines"`
	Assumptions []Text             `json:"assumptions"`
}

// apiPriceListed is how many of a family's models a price answer lists.
const apiPriceListed = 5

// APIPrice lists a family's first-party prices per million tokens, as
// sourced: every provider row of the family (peak and off-peak rows
// each their own), third-party summaries, low-confidence and legacy rows
// left out, the newest row of each provider and model (the answer's
// currency on a tie). The model asked about leads; the rest follow
// newest first (date, then version).
func APIPrice(in APIPriceInput) (APIPriceResult, error) {
	res := APIPriceResult{Inputs: in, Currency: in.Currency}
	if in.FX <= 0 {
		in.FX = DefaultCNYPerUSD
		res.Inputs.FX = in.FX
	}
	prov := providerOf(in.Family)
	best := map[string]knowledge.APIPrice{}
	for _, p := range in.Prices {
		if !strings.HasPrefix(p.Provider, prov) || strings.Contains(p.Provider, "third-party") || p.Confidence == knowledge.Low || strings.Contains(p.Model, "legacy") {
			continue
		}
		k := p.Provider + "|" + strings.ToLower(baseName(p.Model))
		old, seen := best[k]
		if seen && (old.Sortable() > p.Sortable() || old.Sortable() == p.Sortable() && (old.Currency == in.Currency || p.Currency != in.Currency)) {
			continue
		}
		best[k] = p
	}
	if len(best) == 0 {
		return res, inputErr("model", fmt.Sprintf("no first-party API price is shipped for %s", in.Family), "deepseek api 每百万token多少钱")
	}
	rows := make([]knowledge.APIPrice, 0, len(best))
	for _, p := range best {
		rows = append(rows, p)
	}
	named := func(p knowledge.APIPrice) bool {
		return in.Model != "" && strings.EqualFold(baseName(p.Model), in.Model)
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if named(a) != named(b) {
			return named(a)
		}
		if da, db := a.Sortable(), b.Sortable(); da != db {
			return da > db
		}
		if va, vb := ModelVersion(a.Model), ModelVersion(b.Model); va != vb { // "deepseek-flash (V4.1-Flash-1017)" after V4
			return va > vb
		}
		if offA, offB := strings.Contains(a.Provider, "off-peak"), strings.Contains(b.Provider, "off-peak"); offA != offB {
			return offB // the standard (or peak) price before the off-peak one
		}
		return a.Provider+a.Model < b.Provider+b.Model
	})
	if in.Model != "" && named(rows[0]) {
		// a model named: its own rows only (peak and off-peak both)
		n := 0
		for n < len(rows) && named(rows[n]) {
			n++
		}
		rows = rows[:n]
	}
	if len(rows) > apiPriceListed {
		rows = rows[:apiPriceListed]
	}
	for _, p := range rows {
		ip, op := Convert(p.Input, p.Currency, in.Currency, in.FX), Convert(p.Output, p.Currency, in.Currency, in.FX)
		res.Quotes = append(res.Quotes, APIQuote{Provider: p.Provider, Model: p.Model, Input: round(ip, 4), Output: round(op, 4),
			Date: p.Date, Source: p.SourceTitle + " — " + p.SourceURL, Confidence: p.Confidence, FirstParty: true, Named: named(p),
			ListInput: p.Input, ListOutput: p.Output, ListCurrency: p.Currency})
	}
	q, c := res.Quotes[0], in.Currency
	res.Lines = []Line{
		{Key: "input_per_m", Label: txt("input, per million tokens", "输入，每百万 token"), Value: q.Input, Unit: string(c),
			How: fmt.Sprintf("%s %s: %s (%s)", q.Provider, q.Model, money(q.ListInput, q.ListCurrency), q.Date)},
		{Key: "output_per_m", Label: txt("output, per million tokens", "输出，每百万 token"), Value: q.Output, Unit: string(c),
			How: fmt.Sprintf("%s %s: %s (%s)", q.Provider, q.Model, money(q.ListOutput, q.ListCurrency), q.Date)},
	}
	if in.Tokens > 0 && in.Tokens != 1e6 { // a million tokens is the price itself
		res.TokensInput, res.TokensOutput = Round2(in.Tokens/1e6*q.Input), Round2(in.Tokens/1e6*q.Output)
		res.Lines = append(res.Lines,
			Line{Key: "tokens_input_cost", Label: txt("the tokens, all as input", "这些 token 全按输入计"), Value: res.TokensInput, Unit: string(c),
				How: fmt.Sprintf("%s ÷ 1e6 × %s", num(in.Tokens), money(q.Input, c))},
			Line{Key: "tokens_output_cost", Label: txt("the tokens, all as output", "这些 token 全按输出计"), Value: res.TokensOutput, Unit: string(c),
				How: fmt.Sprintf("%s ÷ 1e6 × %s", num(in.Tokens), money(q.Output, c))})
	}
	if in.TokensPerDay > 0 {
		tin, tout := float64(in.InputTokens), float64(in.OutputTokens)
		if tin+tout == 0 {
			tin, tout = 1000, 500
		}
		res.Blended = round((tin*q.Input+tout*q.Output)/(tin+tout), 4)
		res.SplitInput, res.SplitOutput = tin, tout
		res.BillDays = in.Days
		if res.BillDays <= 0 {
			res.BillDays = daysPerMonth
		}
		res.Bill = Round2(in.TokensPerDay * res.BillDays / 1e6 * res.Blended)
		if in.PerMonth {
			res.TokensPerMonth = math.Round(in.TokensPerDay * daysPerMonth)
			res.Lines = append(res.Lines, Line{Key: "tokens_per_day", Label: txt("load a day", "每天负载"), Value: math.Round(in.TokensPerDay), Unit: "tokens/day",
				How: fmt.Sprintf("%s tokens/month ÷ %s days (365/12)", num(res.TokensPerMonth), num(round(daysPerMonth, 2)))})
		}
		res.Lines = append(res.Lines,
			Line{Key: "blended_per_m", Label: txt("per million tokens, blended", "每百万 token（混合）"), Value: res.Blended, Unit: string(c),
				How: fmt.Sprintf("(%s × %s + %s × %s) ÷ %s", num(tin), money(q.Input, c), num(tout), money(q.Output, c), num(tin+tout))},
			Line{Key: "bill", Label: txt("the load's bill", "这个用量的费用"), Value: res.Bill, Unit: string(c),
				How: fmt.Sprintf("%s tokens/day × %s days ÷ 1e6 × %s", num(in.TokensPerDay), num(round(res.BillDays, 2)), money(res.Blended, c))})
		res.Assumptions = append(res.Assumptions, txt(
			fmt.Sprintf("tokens split %s input : %s output per request; say input_tokens= and output_tokens= to change it", num(tin), num(tout)),
			fmt.Sprintf("每个请求按输入 %s、输出 %s token 计；可用 input_tokens= 和 output_tokens= 修改", num(tin), num(tout))))
	}
	if q.ListCurrency != c {
		res.Assumptions = append(res.Assumptions, txt(fmt.Sprintf("converted at %s CNY per USD", num(in.FX)), fmt.Sprintf("按 1 美元 = %s 元换算", num(in.FX))))
	}
	res.Assumptions = append(res.Assumptions, txt(
		"sourced list prices (per row date and confidence), not quotes: confirm on the provider's page; cached input, batch discounts and long-context tiers are not counted",
		"有出处的公开价（见各行日期与可信度），不是报价，请以官网为准；未计缓存命中、批量折扣与长上下文阶梯价"))
	return res, nil
}

// ModelVersion orders a family's model names by the numbers in them
// ("claude-haiku-4-5" 4.5 after "claude-3-5-haiku" 3.5): the first two
// numbers as major × 1000 + minor.
func ModelVersion(name string) float64 {
	var nums []float64
	cur, in := 0.0, false
	for _, r := range name + " " {
		if r >= '0' && r <= '9' {
			cur, in = cur*10+float64(r-'0'), true
			continue
		}
		if in {
			nums = append(nums, cur)
			cur, in = 0, false
		}
	}
	switch len(nums) {
	case 0:
		return 0
	case 1:
		return nums[0] * 1000
	}
	return nums[0]*1000 + nums[1]
}

// APIBillPick is one API a question names: a lexicon apis family and,
// when the question names one, its model as the price rows write it
// before any parenthesis ("qwen-plus", "claude-haiku-4-5"); "" for the
// family alone ("豆包").
type APIBillPick struct {
	Family string `json:"family"`
	Model  string `json:"model,omitempty"`
	// Tier marks a model read from a tier said without a version
	// ("claude haiku": the newest Haiku): Taken is then "tier".
	Tier bool `json:"tier,omitempty"`
}

// APIBillsInput bills a month of tokens on each API named, split
// InputShare input : 1 − InputShare output ("输入输出各一半": 0.5; "3:1
// input:output": 0.75).
type APIBillsInput struct {
	Picks          []APIBillPick        `json:"picks"`
	TokensPerMonth float64              `json:"tokens_per_month"`
	InputShare     float64              `json:"input_share"`
	Currency       knowledge.Currency   `json:"currency"`
	FX             float64              `json:"fx"`
	Prices         []knowledge.APIPrice `json:"-"`
}

// APIBill is one API's month: the model priced, why that model (Taken:
// "named", the model the question named; "tier", the newest of the tier
// it named without a version; "cheapest", the family named
// alone, so its cheapest current model at the split), and the family's
// other current models at the same split, cheapest first (at most three).
type APIBill struct {
	APIQuote
	Family string     `json:"family"`
	Taken  string     `json:"taken"`
	Others []APIQuote `json:"others,omitempty"`
}

// APIBillsResult is every API named billed at the same month and split,
// cheapest first. Difference is the second-cheapest's month minus the
// cheapest's, Ratio the one over the other.
type APIBillsResult struct {
	Inputs      APIBillsInput      `json:"inputs"`
	Bills       []APIBill          `json:"bills"`
	Difference  float64            `json:"difference"`
	Ratio       float64            `json:"ratio"`
	Currency    knowledge.Currency `json:"currency"`
	Lines       []Line             `json:"lines"`
	Assumptions []Text             `json:"assumptions"`
}

// BillAPIs prices the same month of tokens on every API named:
//
//	blended per M = share × input price + (1 − share) × output price
//	month         = tokens a month ÷ 1e6 × blended
//
// The family's first-party rows only (third-party summaries, peak and
// off-peak rows, low-confidence and legacy rows left out, the newest row
// of each model, the answer's currency on a tie: familyQuotes).
func BillAPIs(in APIBillsInput) (APIBillsResult, error) {
	res := APIBillsResult{Inputs: in, Currency: in.Currency}
	const hint = "豆包和 qwen-plus 哪个便宜，每月10亿token，输入输出各一半"
	switch {
	case len(in.Picks) < 2:
		return res, inputErr("api", "name at least two APIs to compare", hint)
	case math.IsNaN(in.TokensPerMonth) || in.TokensPerMonth <= 0:
		return res, inputErr("tokens_per_day", "give the tokens a month", hint)
	case math.IsNaN(in.InputShare) || in.InputShare < 0 || in.InputShare > 1:
		return res, inputErr("input_share", "the input share must be between 0 and 1", hint)
	}
	if in.FX <= 0 {
		in.FX = DefaultCNYPerUSD
		res.Inputs.FX = in.FX
	}
	c, sh := in.Currency, in.InputShare
	quote := func(p knowledge.APIPrice) APIQuote {
		ip, op := Convert(p.Input, p.Currency, c, in.FX), Convert(p.Output, p.Currency, c, in.FX)
		bl := sh*ip + (1-sh)*op
		return APIQuote{Provider: p.Provider, Model: p.Model, Input: round(ip, 4), Output: round(op, 4), Blended: round(bl, 4),
			Monthly: Round2(in.TokensPerMonth / 1e6 * bl), Date: p.Date, Source: p.SourceTitle + " — " + p.SourceURL, Confidence: p.Confidence,
			FirstParty: true, Named: true, ListInput: p.Input, ListOutput: p.Output, ListCurrency: p.Currency}
	}
	seen := map[string]bool{}
	for _, pk := range in.Picks {
		var qs []APIQuote
		for _, p := range familyQuotes(pk.Family, in.Prices, c) {
			if !strings.Contains(p.Model, "legacy") {
				qs = append(qs, quote(p))
			}
		}
		if len(qs) == 0 {
			return res, inputErr("api", fmt.Sprintf("no first-party API price is shipped for %s", pk.Family), hint)
		}
		sort.SliceStable(qs, func(i, j int) bool { return qs[i].Monthly < qs[j].Monthly })
		b := APIBill{Family: pk.Family, Taken: "cheapest"}
		at := 0
		if pk.Model != "" {
			at = -1
			for i, q := range qs {
				if strings.EqualFold(baseName(q.Model), pk.Model) {
					at = i
					break
				}
			}
			if at < 0 {
				return res, inputErr("api", fmt.Sprintf("no first-party API price is shipped for %s", pk.Model), hint)
			}
			b.Taken = "named"
			if pk.Tier {
				b.Taken = "tier"
			}
		}
		b.APIQuote = qs[at]
		if k := b.Provider + "|" + b.Model; seen[k] {
			continue // "qwen-plus … 通义千问": the same API said twice
		} else {
			seen[k] = true
		}
		for i, q := range qs {
			if i != at && len(b.Others) < 3 {
				b.Others = append(b.Others, q)
			}
		}
		res.Bills = append(res.Bills, b)
	}
	if len(res.Bills) < 2 {
		return res, inputErr("api", "name at least two different APIs to compare", hint)
	}
	sort.SliceStable(res.Bills, func(i, j int) bool { return res.Bills[i].Monthly < res.Bills[j].Monthly })
	lo, hi := res.Bills[0], res.Bills[1]
	res.Difference = Round2(hi.Monthly - lo.Monthly)
	if lo.Monthly > 0 {
		res.Ratio = round(hi.Monthly/lo.Monthly, 2)
	}
	for i, b := range res.Bills {
		res.Lines = append(res.Lines,
			Line{Key: fmt.Sprintf("blended_per_m_%d", i), Label: txt(b.Model+", per million tokens, blended", b.Model+" 每百万 token（混合）"), Value: b.Blended, Unit: string(c),
				How: fmt.Sprintf("%s × %s + %s × %s (%s %s)", num(sh), money(b.Input, c), num(round(1-sh, 4)), money(b.Output, c), b.Provider, b.Model)},
			Line{Key: fmt.Sprintf("monthly_%d", i), Label: txt(b.Model+", a month", b.Model+" 每月"), Value: b.Monthly, Unit: string(c),
				How: fmt.Sprintf("%s tokens ÷ 1e6 × %s", num(in.TokensPerMonth), money(b.Blended, c))})
	}
	res.Lines = append(res.Lines, Line{Key: "difference", Label: txt("difference a month", "每月差额"), Value: res.Difference, Unit: string(c),
		How: fmt.Sprintf("%s − %s (%s − %s)", money(hi.Monthly, c), money(lo.Monthly, c), hi.Model, lo.Model)})
	conv := false
	for _, b := range res.Bills {
		conv = conv || b.ListCurrency != c
	}
	if conv {
		res.Assumptions = append(res.Assumptions, txt(fmt.Sprintf("converted at %s CNY per USD", num(in.FX)), fmt.Sprintf("按 1 美元 = %s 元换算", num(in.FX))))
	}
	res.Assumptions = append(res.Assumptions, txt(
		"sourced list prices (per row date and confidence), not quotes: confirm on the provider's page; cached input, batch discounts and long-context tiers are not counted",
		"有出处的公开价（见各行日期与可信度），不是报价，请以官网为准；未计缓存命中、批量折扣与长上下文阶梯价"))
	return res, nil
}

// APIEvalInput is a batch job over a fixed set of questions (an eval:
// "MMLU of Llama-3-70B, ~14k questions"): Items questions of
// InputPerItem prompt tokens and OutputPerItem answer tokens each, billed
// on the hosts of Model, against renting cards (Rent: the cost engine's
// bill for the same items, nil when none). Budget, in Currency, is what
// the user has (0 when not said).
type APIEvalInput struct {
	Model         string               `json:"model"`
	Items         float64              `json:"items"`
	InputPerItem  float64              `json:"input_per_item"`
	OutputPerItem float64              `json:"output_per_item"`
	Budget        float64              `json:"budget,omitempty"`
	Currency      knowledge.Currency   `json:"currency"`
	FX            float64              `json:"fx"`
	Rent          *CostResult          `json:"-"`
	Prices        []knowledge.APIPrice `json:"-"`
}

// APIEvalOption is one way to run the job: a hosted API (Quote set) or
// the rental; Total its bill, Fits whether it is within the budget.
type APIEvalOption struct {
	Kind  string    `json:"kind"` // api, rent
	Quote *APIQuote `json:"quote,omitempty"`
	// Sibling marks a host of another version of the model (Llama-3.1-70B
	// for Llama-3-70B): the same size and family, not the same weights.
	Sibling   string  `json:"sibling,omitempty"`
	Total     float64 `json:"total"`
	Fits      bool    `json:"fits"`
	GPU       string  `json:"gpu,omitempty"`
	GPUs      int     `json:"gpus,omitempty"`
	WallHours float64 `json:"wall_hours,omitempty"`
}

// APIEvalResult is the job's tokens and every way to run it, cheapest
// first.
type APIEvalResult struct {
	Inputs       APIEvalInput       `json:"inputs"`
	InputTokens  float64            `json:"input_tokens"`
	OutputTokens float64            `json:"output_tokens"`
	Options      []APIEvalOption    `json:"options"`
	Currency     knowledge.Currency `json:"currency"`
	Lines        []Line             `json:"lines"`
	Assumptions  []Text             `json:"assumptions"`
}

// sizeSibling reports whether model id b is another version of a of the
// same family and size ("llama-3.1-70b" for "llama-3-70b"): the same
// name before the first digit and the same last "-NNb" part.
func sizeSibling(a, b string) bool {
	if a == "" || b == "" || a == b {
		return false
	}
	head := func(s string) string {
		return s[:strings.IndexFunc(s+"0", func(r rune) bool { return r >= '0' && r <= '9' })]
	}
	size := func(s string) string {
		i := strings.LastIndex(s, "-")
		if i < 0 || !strings.HasSuffix(s, "b") {
			return ""
		}
		return s[i+1:]
	}
	return head(a) != "" && head(a) == head(b) && size(a) != "" && size(a) == size(b)
}

// APIEval bills an eval's tokens on every sourced host of the model (or,
// when none serves it, of its other versions of the same size, said as
// such) and sets them beside the rental:
//
//	input tokens  = items × prompt tokens per item
//	output tokens = items × answer tokens per item
//	API bill      = input ÷ 1e6 × input price + output ÷ 1e6 × output price
func APIEval(in APIEvalInput) (APIEvalResult, error) {
	res := APIEvalResult{Inputs: in, Currency: in.Currency}
	const hint = "MMLU eval of llama-3-70b, 14k questions, $200: API or rent?"
	switch {
	case in.Model == "":
		return res, inputErr("model", "name the model evaluated", hint)
	case math.IsNaN(in.Items) || in.Items <= 0:
		return res, inputErr("items", "give the number of questions", hint)
	case in.InputPerItem <= 0 || in.OutputPerItem < 0:
		return res, inputErr("input_tokens", "give the tokens per question", hint)
	}
	if in.FX <= 0 {
		in.FX = DefaultCNYPerUSD
		res.Inputs.FX = in.FX
	}
	c := in.Currency
	res.InputTokens, res.OutputTokens = in.Items*in.InputPerItem, in.Items*in.OutputPerItem
	res.Lines = []Line{
		{Key: "input_tokens", Label: txt("input tokens", "输入 token"), Value: res.InputTokens, Unit: "tokens", How: fmt.Sprintf("%s questions × %s tokens", num(in.Items), num(in.InputPerItem))},
		{Key: "output_tokens", Label: txt("output tokens", "输出 token"), Value: res.OutputTokens, Unit: "tokens", How: fmt.Sprintf("%s questions × %s tokens", num(in.Items), num(in.OutputPerItem))},
	}
	fits := func(total float64) bool { return in.Budget <= 0 || total <= in.Budget }
	add := func(p knowledge.APIPrice, sibling string) {
		ip, op := Convert(p.Input, p.Currency, c, in.FX), Convert(p.Output, p.Currency, c, in.FX)
		total := Round2(res.InputTokens/1e6*ip + res.OutputTokens/1e6*op)
		q := APIQuote{Provider: p.Provider, Model: p.Model, Input: round(ip, 4), Output: round(op, 4), Monthly: 0, Date: p.Date,
			Source: p.SourceTitle + " — " + p.SourceURL, Confidence: p.Confidence, ListInput: p.Input, ListOutput: p.Output, ListCurrency: p.Currency}
		res.Options = append(res.Options, APIEvalOption{Kind: "api", Quote: &q, Sibling: sibling, Total: total, Fits: fits(total)})
		res.Lines = append(res.Lines, Line{Key: "api_total_" + strconv.Itoa(len(res.Options)-1), Label: txt("API bill, "+p.Provider, "API 费用，"+p.Provider), Value: total, Unit: string(c),
			How: fmt.Sprintf("%s ÷ 1e6 × %s + %s ÷ 1e6 × %s (%s)", num(res.InputTokens), money(round(ip, 4), c), num(res.OutputTokens), money(round(op, 4), c), p.Model)})
	}
	ok := func(p knowledge.APIPrice) bool {
		return p.Confidence != knowledge.Low && !strings.Contains(p.Provider, "peak") && !strings.Contains(p.Provider, "third-party")
	}
	for _, p := range in.Prices {
		if p.ModelID == in.Model && ok(p) {
			add(p, "")
		}
	}
	if len(res.Options) == 0 {
		for _, p := range in.Prices {
			if sizeSibling(in.Model, p.ModelID) && ok(p) {
				add(p, p.ModelID)
			}
		}
		if len(res.Options) > 0 {
			res.Assumptions = append(res.Assumptions, txt(
				fmt.Sprintf("no shipped host serves %s itself: the API prices are for other versions of the same size (%s), whose scores differ from it", in.Model, res.Options[0].Sibling),
				fmt.Sprintf("数据里没有托管 %s 本身的 API：API 价格是同尺寸其它版本（%s）的，评测分数会不同", in.Model, res.Options[0].Sibling)))
		}
	}
	if r := in.Rent; r != nil && r.Total > 0 {
		total := Round2(Convert(r.Total, r.Currency, c, in.FX))
		res.Options = append(res.Options, APIEvalOption{Kind: "rent", Total: total, Fits: fits(total), GPU: r.GPU, GPUs: r.GPUs, WallHours: r.WallHours})
		res.Lines = append(res.Lines, Line{Key: "rent_total", Label: txt("renting, the cost engine's bill", "租卡，成本引擎的费用"), Value: total, Unit: string(c),
			How: fmt.Sprintf("%s card-hours × %s (%s × %s, %s h)", num(r.GPUHours), money(Round2(Convert(r.Hourly, r.Currency, c, in.FX)), c), num(float64(r.GPUs)), r.GPU, num(r.WallHours))})
	}
	if len(res.Options) == 0 {
		return res, inputErr("model", fmt.Sprintf("no hosted API price and no rental is shipped for %s", in.Model), hint)
	}
	sort.SliceStable(res.Options, func(i, j int) bool { return res.Options[i].Total < res.Options[j].Total })
	res.Assumptions = append(res.Assumptions,
		txt(fmt.Sprintf("%s prompt tokens and %s answer tokens per question assumed; say input_tokens= and output_tokens= to change it", num(in.InputPerItem), num(in.OutputPerItem)),
			fmt.Sprintf("每题按输入 %s token、输出 %s token 假设；可用 input_tokens= 和 output_tokens= 修改", num(in.InputPerItem), num(in.OutputPerItem))),
		txt("renting counts the generation time only: downloading and loading the weights, and any minimum billing period, come on top",
			"租卡只计生成时间：下载与加载权重、平台的最短计费时长另计"),
		txt("API prices are sourced list prices (per row date and confidence), not quotes; batch discounts and rate limits are not counted",
			"API 价格为有出处的公开价（见各行日期与可信度），不是报价；未计批量折扣与限流"))
	return res, nil
}
