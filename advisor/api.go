package advisor

import (
	"fmt"
	"math"
	"sort"

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
}

// APIResult compares the self-hosted plan's monthly bill with hosted APIs.
type APIResult struct {
	Inputs          APIInput   `json:"inputs"`
	Quotes          []APIQuote `json:"quotes"` // cheapest first
	SelfHostMonthly float64    `json:"self_host_monthly"`
	Cheaper         string     `json:"cheaper"` // api, self_host
	// BreakevenTokensPerDay is the load at which one always-on replica
	// costs what the cheapest API bills; 0 with NoBreakeven when even a
	// fully used replica costs more per token than the API.
	BreakevenTokensPerDay float64            `json:"breakeven_tokens_per_day"`
	NoBreakeven           bool               `json:"no_breakeven"`
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
	case in.Model == "":
		return res, inputErr("model", "name the model to serve", "每天1亿token用qwen2.5-72b 自建还是调API")
	case math.IsNaN(in.TokensPerDay) || in.TokensPerDay <= 0:
		return res, inputErr("tokens_per_day", "give the load in tokens a day", "每天1亿token用qwen2.5-72b 自建还是调API")
	case in.SelfHost == nil || in.SelfHost.Replicas == 0:
		return res, inputErr("tokens_per_day", "no self-hosted serving plan for this load", "每天1亿token用qwen2.5-72b 自建还是调API")
	}
	if in.FX <= 0 {
		in.FX = DefaultCNYPerUSD
	}
	tin, tout := float64(in.InputTokens), float64(in.OutputTokens)
	if tin+tout == 0 {
		tin, tout = 1, 1
	}
	cur := in.Currency
	for _, p := range in.Prices {
		if p.ModelID != in.Model {
			continue
		}
		ip, op := Convert(p.Input, p.Currency, cur, in.FX), Convert(p.Output, p.Currency, cur, in.FX)
		bl := (tin*ip + tout*op) / (tin + tout)
		res.Quotes = append(res.Quotes, APIQuote{Provider: p.Provider, Model: p.Model, Input: round(ip, 4), Output: round(op, 4), Blended: round(bl, 4),
			Monthly: Round2(in.TokensPerDay * daysPerMonth / 1e6 * bl), Date: p.Date, Source: p.SourceTitle + " — " + p.SourceURL, Confidence: p.Confidence})
	}
	if len(res.Quotes) == 0 {
		return res, inputErr("model", fmt.Sprintf("no hosted API price is shipped for %s", in.Model), "每天1亿token用qwen2.5-72b 自建还是调API")
	}
	sort.SliceStable(res.Quotes, func(i, j int) bool { return res.Quotes[i].Monthly < res.Quotes[j].Monthly })
	best := res.Quotes[0]
	pl := in.SelfHost
	res.SelfHostMonthly = Round2(pl.MonthlyOnDemand)
	res.Cheaper = "api"
	if res.SelfHostMonthly < best.Monthly {
		res.Cheaper = "self_host"
	}
	replica := pl.MonthlyOnDemand / float64(pl.Replicas)
	capacity := pl.ReplicaRequestsPerS * (tin + tout) * 86400 / math.Max(pl.PeakFactor, 1)
	slope := daysPerMonth / 1e6 * best.Blended
	be := replica / slope
	if be <= capacity {
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
			How: fmt.Sprintf("%s a replica ÷ (%s ÷ 1e6 × %s) = %s tokens/day, above one replica's %s: the API is cheaper at any load", money(Round2(replica), c), num(round(daysPerMonth, 2)), money(best.Blended, c), num(math.Round(be)), num(math.Round(capacity)))})
	} else {
		res.Lines = append(res.Lines, Line{Key: "breakeven_tokens_per_day", Label: txt("break-even load", "打平负载"), Value: res.BreakevenTokensPerDay, Unit: "tokens/day",
			How: fmt.Sprintf("%s a replica ÷ (%s ÷ 1e6 × %s)", money(Round2(replica), c), num(round(daysPerMonth, 2)), money(best.Blended, c))})
	}
	res.Assumptions = []Text{
		txt(fmt.Sprintf("tokens split %s input : %s output per request, as the serving plan", num(tin), num(tout)),
			fmt.Sprintf("每个请求输入 %s、输出 %s token，与自建方案一致", num(tin), num(tout))),
		txt("API prices are sourced list prices (per row date and confidence), not quotes; caching, batch discounts and rate limits are not counted",
			"API 价格为有出处的公开价（见各行日期与可信度），不是报价；未计缓存、批量折扣与限流"),
		txt("self-hosting excludes engineering time, storage and egress", "自建未计工程人力、存储与流量"),
	}
	return res, nil
}
