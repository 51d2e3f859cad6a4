package advisor

import (
	"errors"
	"fmt"

	"github.com/gpubot/gpubot/knowledge"
	"math"
)

// SLOInput is a serving question with targets: a load (concurrent
// sequences, or requests per second through Cost's serving plan) and what
// each user must see — a decode speed per user and a time to first token.
type SLOInput struct {
	Cost        CostInput // the workload, card, price and any requests/s load
	Concurrency int       // sequences to hold at once ("300 concurrent chats")
	TPSPerUser  float64   // decode tokens/s each user must see (0 = no target)
	TTFTms      float64   // time to first token each user must see (0 = no target)
	// MonthlyBudget, when given, is checked against the monthly bill.
	MonthlyBudget Money
}

// SLOResult sizes the fleet that meets the targets: how many sequences one
// replica can serve while every user still sees the speed asked for, how
// many replicas the load needs, and the monthly bill.
type SLOResult struct {
	Replica CostResult `json:"replica"` // one replica: card, cards per replica, price
	// PerReplica is the most sequences one replica holds within the targets
	// (and its KV cache); 0 when a single sequence already misses them.
	PerReplica     int           `json:"per_replica"`
	Replicas       int           `json:"replicas"`
	Cards          int           `json:"cards"` // replicas × cards per replica
	PerSequenceTPS float64       `json:"per_sequence_tps"`
	TTFTms         float64       `json:"ttft_ms"`
	MeetsTPS       *bool         `json:"meets_tps,omitempty"`
	MeetsTTFT      *bool         `json:"meets_ttft,omitempty"`
	Feasible       bool          `json:"feasible"` // every target can be met on this card
	MonthlyTotal   float64       `json:"monthly_total"`
	Currency       string        `json:"currency"`
	Lines          []Line        `json:"lines"`
	Assumptions    []Text        `json:"assumptions"`
	Sources        []PriceSource `json:"sources"`
	Plan           *ServingPlan  `json:"plan,omitempty"` // the requests/s plan, when the load was given so
	Inputs         SLOInput      `json:"inputs"`
	// Priced is false when the card has no price: the fleet is sized and
	// MonthlyTotal is 0.
	Priced bool `json:"priced"`
	// WithinBudget compares MonthlyTotal with a monthly budget, when given.
	WithinBudget *bool `json:"within_budget,omitempty"`
}

// SLO answers a serving question with per-user targets. With a
// concurrency it finds the largest batch per replica whose decode speed
// per sequence meets TPSPerUser (the engine's decode model: one step reads
// the weights and every sequence's KV cache, so each added sequence slows
// every user) and whose KV cache holds it, then ⌈concurrency ÷ batch⌉
// replicas. With requests/s instead it runs Cost's serving plan and checks
// the targets at the plan's batch.
func SLO(in SLOInput, m Market) (SLOResult, error) {
	r, err := slo(in, m)
	if err == nil {
		checkBudget(in, &r)
	}
	return r, err
}

func slo(in SLOInput, m Market) (SLOResult, error) {
	if in.Concurrency < 0 || in.TPSPerUser < 0 || in.TTFTms < 0 {
		return SLOResult{}, inputErr("concurrency", "must be 0 or more", "/gpu cost 8b inference concurrency=300 on l4")
	}
	c := in.Cost
	c.Workload.Method = Inference
	if in.Concurrency > 0 {
		// one replica, priced: the card and its tensor-parallel size
		c.TokensPerDay, c.RequestsPerS = 0, 0
		if c.Tokens <= 0 {
			c.Tokens = 1e6
		}
	}
	rep, err := Cost(c, m)
	priced := true
	var in2 *InputError
	if errors.As(err, &in2) && in2.Field == "price" && c.GPU != "" && !c.Where.NativeOnly {
		// no price for the card: the fleet is still sized, the bill is not
		rep, err = unpriced(c, m)
		priced = false
	}
	if err != nil {
		return SLOResult{}, err
	}
	out := SLOResult{Replica: rep, Inputs: in, Currency: string(rep.Currency), Sources: rep.Sources, Priced: priced}
	if !priced {
		out.Assumptions = append(out.Assumptions, txt(
			fmt.Sprintf("the catalogue has no price for %s: the fleet is sized, the monthly bill needs price= per card-hour", rep.GPU),
			fmt.Sprintf("目录里没有 %s 的价格：只算卡数，月费需要用 price= 给出每卡每小时价格", rep.GPU)))
	}

	out.Assumptions = append(out.Assumptions, txt(
		"time to first token is the engine's prefill of one prompt with no queue ahead of it; under a burst, requests waiting for a slot add to it",
		"首 token 时间按引擎对一个提示词的预填充计算，不含排队；突发流量下等待空位的请求还要再加上排队时间"))
	if in.Concurrency == 0 {
		// requests/s: the plan Cost sized, checked against the targets
		out.Plan = rep.Plan
		out.Replicas, out.Cards, out.MonthlyTotal = rep.Replicas, rep.Replicas*rep.GPUs, rep.MonthlyTotal
		if rep.Plan != nil {
			out.Cards = rep.Plan.Cards
		}
		if rep.Serving != nil {
			out.PerReplica = rep.Serving.Concurrency
			out.PerSequenceTPS, out.TTFTms = round(rep.Serving.PerSequenceTPS, 1), rep.Serving.TTFTms
		}
		out.check(in)
		return out, nil
	}
	g, err := m.card(rep.GPU, "")
	if err != nil {
		return SLOResult{}, err
	}
	w := rep.Inputs.Workload
	w.Batch = 0
	ok := func(s Serving) bool {
		return (in.TPSPerUser == 0 || s.PerSequenceTPS >= in.TPSPerUser) && (in.TTFTms == 0 || s.TTFTms <= in.TTFTms)
	}
	// best is the tensor-parallel size with the fewest cards in all: more
	// cards per replica read the weights faster (each user decodes faster)
	// and hold more KV cache, but each replica costs more.
	type layout struct {
		n, lo, limit, cards int
		s                   Serving
	}
	var best *layout
	nmin := max(rep.GPUs, 1)
	if in.Cost.GPUs > 0 {
		nmin = in.Cost.GPUs
	}
	for n := nmin; n <= max(8, nmin); n *= 2 {
		serve := func(batch int) (Serving, error) {
			return Serve(ServeInput{Workload: w, GPU: g, Cards: n,
				InputTokens: c.InputTokens, OutputTokens: c.OutputTokens, Concurrency: batch}, m.Archs)
		}
		top, err := serve(0) // as many as the KV cache holds, up to the engine cap
		if err != nil {
			return SLOResult{}, err
		}
		limit := min(max(top.ConcurrencyLimit, 0), DefaultMaxSeqs)
		// decode speed per sequence falls as the batch grows: binary search
		lo, hi := 0, limit
		for lo < hi {
			mid := (lo + hi + 1) / 2
			s, err := serve(mid)
			if err != nil {
				return SLOResult{}, err
			}
			if ok(s) {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		s, err := serve(max(lo, 1))
		if err != nil {
			return SLOResult{}, err
		}
		l := layout{n: n, lo: lo, limit: limit, s: s}
		if lo > 0 {
			l.cards = int(math.Ceil(float64(in.Concurrency)/float64(lo)-1e-9)) * n
		}
		switch {
		case best == nil:
			best = &l
		case l.lo > 0 && (best.lo == 0 || l.cards < best.cards):
			best = &l
		}
		if in.Cost.GPUs > 0 {
			break // the user fixed the cards per replica
		}
	}
	lo, limit, s := best.lo, best.limit, best.s
	rep.GPUs = best.n
	out.Replica.GPUs = best.n
	out.PerReplica = lo
	out.PerSequenceTPS, out.TTFTms = round(s.PerSequenceTPS, 1), s.TTFTms
	out.check(in)
	if lo == 0 {
		out.Feasible = false
		out.Lines = append(out.Lines, Line{Key: "per_replica", Label: txt("sequences per replica within the targets", "单副本满足目标的并发"), Value: 0, Unit: "sequences",
			How: fmt.Sprintf("even 1 sequence on %d× %s decodes at %s tokens/s with a %s ms first token", rep.GPUs, g.Name, num(round(s.PerSequenceTPS, 1)), num(s.TTFTms))})
		return out, nil
	}
	out.Replicas = int(math.Ceil(float64(in.Concurrency)/float64(lo) - 1e-9))
	out.Cards = out.Replicas * rep.GPUs
	replicaHourly := rep.Hourly * float64(rep.GPUs)
	out.MonthlyTotal = Round2(float64(out.Replicas) * replicaHourly * 730)
	cur := string(rep.Currency)
	why := "the KV cache holds"
	if lo < limit {
		why = fmt.Sprintf("the largest batch at which each sequence still decodes at ≥ %s tokens/s", num(in.TPSPerUser))
		if in.TPSPerUser == 0 {
			why = fmt.Sprintf("the largest batch whose first token comes within %s ms", num(in.TTFTms))
		}
	}
	out.Lines = append(out.Lines,
		Line{Key: "kv_limit", Label: txt("sequences the KV cache holds per replica", "单副本 KV 缓存可容纳的序列"), Value: float64(limit), Unit: "sequences",
			How: fmt.Sprintf("%d× %s, %d in + %d out tokens a request (engine cap %d)", rep.GPUs, g.Name, s.InputTokens, s.OutputTokens, DefaultMaxSeqs)},
		Line{Key: "per_replica", Label: txt("sequences per replica within the targets", "单副本满足目标的并发"), Value: float64(lo), Unit: "sequences", How: why},
		Line{Key: "per_sequence_tps", Label: txt("decode speed each user sees", "每个用户看到的生成速度"), Value: out.PerSequenceTPS, Unit: "tokens/s",
			How: fmt.Sprintf("1 ÷ %s s per decode step at batch %d", num(round(s.StepSeconds, 4)), lo)},
		Line{Key: "replicas", Label: txt("replicas", "副本数"), Value: float64(out.Replicas), Unit: "replicas",
			How: fmt.Sprintf("⌈%d concurrent ÷ %d per replica⌉; %d × %d = %d cards", in.Concurrency, lo, out.Replicas, rep.GPUs, out.Cards)},
		Line{Key: "monthly_total", Label: txt("monthly bill, on demand", "月度费用（按需）"), Value: out.MonthlyTotal, Unit: cur,
			How: fmt.Sprintf("%d replicas × %s/h × 730 h", out.Replicas, money(round(replicaHourly, 4), rep.Currency))},
	)
	out.Assumptions = append(out.Assumptions, txt(
		fmt.Sprintf("%d concurrent sequences held at all times, every replica on around the clock", in.Concurrency),
		fmt.Sprintf("始终保持 %d 个并发序列，每个副本全天运行", in.Concurrency)))
	return out, nil
}

// check sets the verdicts for the targets given.
func (r *SLOResult) check(in SLOInput) {
	r.Feasible = true
	if in.TPSPerUser > 0 {
		v := r.PerSequenceTPS >= in.TPSPerUser
		r.MeetsTPS = &v
		r.Feasible = r.Feasible && v
		r.Lines = append(r.Lines, Line{Key: "tps_target", Label: txt("per-user speed target", "每用户速度目标"), Value: in.TPSPerUser, Unit: "tokens/s",
			How: fmt.Sprintf("%s tokens/s at the batch served: %s", num(r.PerSequenceTPS), met(v))})
	}
	if in.TTFTms > 0 {
		v := r.TTFTms > 0 && r.TTFTms <= in.TTFTms
		r.MeetsTTFT = &v
		r.Feasible = r.Feasible && v
		r.Lines = append(r.Lines, Line{Key: "ttft_target", Label: txt("first-token target", "首 token 目标"), Value: in.TTFTms, Unit: "ms",
			How: fmt.Sprintf("%s ms prefill of one prompt: %s", num(r.TTFTms), met(v))})
	}
}

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "missed"
}

// checkBudget compares the monthly bill with a monthly budget.
func checkBudget(in SLOInput, out *SLOResult) {
	if !in.MonthlyBudget.Given() || !out.Priced || out.MonthlyTotal <= 0 {
		return
	}
	cur := knowledge.Currency(out.Currency)
	budget := Convert(in.MonthlyBudget.Amount, in.MonthlyBudget.Currency, cur, in.Cost.FX)
	ok := out.MonthlyTotal <= budget
	out.WithinBudget = &ok
	out.Lines = append(out.Lines, Line{Key: "budget_left", Label: txt("monthly budget left", "月预算剩余"), Value: Round2(budget - out.MonthlyTotal), Unit: out.Currency,
		How: fmt.Sprintf("%s budget − %s bill", money(Round2(budget), cur), money(out.MonthlyTotal, cur))})
}

// unpriced is one replica sized without a price: the card's tensor-
// parallel size from the fit, its throughput from the decode model, and,
// for a requests/s load, the replicas the peak needs.
func unpriced(c CostInput, m Market) (CostResult, error) {
	w, err := ResolveModel(c.Workload, m.Archs)
	if err != nil {
		return CostResult{}, err
	}
	w.Method = Inference
	g, err := m.card(c.GPU, "")
	if err != nil {
		return CostResult{}, err
	}
	if c.InputTokens <= 0 {
		c.InputTokens = DefaultServeIn
	}
	if c.OutputTokens <= 0 {
		c.OutputTokens = DefaultServeOut
	}
	fw := w
	fw.SeqLen = c.InputTokens + c.OutputTokens
	fit, err := Fit(fw, []knowledge.GPU{g}, m.Archs)
	if err != nil {
		return CostResult{}, err
	}
	n := c.GPUs
	if n <= 0 && len(fit.Options) > 0 {
		n = fit.Options[0].Count
	}
	if n <= 0 {
		return CostResult{}, inputErr("gpu", fmt.Sprintf("%s does not hold the model even on 64 cards", g.Name), "/gpu fit 70b on h100")
	}
	sv, err := Serve(ServeInput{Workload: w, GPU: g, Cards: n, InputTokens: c.InputTokens, OutputTokens: c.OutputTokens, Concurrency: 0}, m.Archs)
	if err != nil {
		return CostResult{}, err
	}
	cur := c.Currency
	if cur == "" {
		cur = knowledge.USD
	}
	c.Workload = w
	r := CostResult{Inputs: c, GPU: g.ID, GPUs: n, TokensPerS: sv.TokensPerS, TTFTms: sv.TTFTms, Serving: &sv, Currency: cur, Lines: sv.Lines, Assumptions: sv.Assumptions}
	if c.RequestsPerS > 0 || c.TokensPerDay > 0 {
		pf := c.PeakFactor
		if pf <= 0 {
			pf = DefaultPeakFactor
		}
		pl := &ServingPlan{PeakFactor: pf, Currency: cur}
		pl.AvgRequestsPerS = c.RequestsPerS
		if pl.AvgRequestsPerS == 0 {
			pl.AvgRequestsPerS = c.TokensPerDay / float64(c.InputTokens+c.OutputTokens) / 86400
		}
		pl.RequestsPerDay = pl.AvgRequestsPerS * 86400
		pl.PeakRequestsPerS = pl.AvgRequestsPerS * pf
		pl.ReplicaRequestsPerS = sv.TokensPerS / float64(c.OutputTokens)
		pl.Replicas = max(1, int(math.Ceil(pl.PeakRequestsPerS/pl.ReplicaRequestsPerS-1e-9)))
		pl.Cards = pl.Replicas * n
		pl.Utilization = round(pl.AvgRequestsPerS/(float64(pl.Replicas)*pl.ReplicaRequestsPerS), 4)
		r.Plan, r.Replicas, r.Utilization = pl, pl.Replicas, pl.Utilization
		r.Lines = append(r.Lines,
			Line{Key: "peak_requests_per_s", Label: txt("peak load", "峰值负载"), Value: round(pl.PeakRequestsPerS, 4), Unit: "requests/s", How: fmt.Sprintf("%s average × peak factor %s", num(round(pl.AvgRequestsPerS, 4)), num(pf))},
			Line{Key: "replica_requests_per_s", Label: txt("one replica sustains", "单副本可承载"), Value: round(pl.ReplicaRequestsPerS, 4), Unit: "requests/s", How: fmt.Sprintf("%s output tokens/s ÷ %d output tokens per request", num(round(sv.TokensPerS, 1)), c.OutputTokens)},
			Line{Key: "replicas", Label: txt("replicas", "副本数"), Value: float64(pl.Replicas), Unit: "replicas", How: fmt.Sprintf("⌈%s ÷ %s⌉, %d × %d = %d cards", num(round(pl.PeakRequestsPerS, 3)), num(round(pl.ReplicaRequestsPerS, 3)), pl.Replicas, n, pl.Cards)})
	}
	return r, nil
}
