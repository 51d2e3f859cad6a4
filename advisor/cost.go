package advisor

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/gpubot/gpubot/knowledge"
)

// Limits on cost inputs.
const (
	MaxEpochs   = 1000
	MaxGPUs     = MaxClusterCards
	MaxTokens   = 1e16 // ten quadrillion tokens
	MaxTPS      = 1e7
	defaultGenM = 1 // million tokens priced when an inference question names no volume
)

// CostInput is a cost question. Zero values mean "use the default"; after
// Cost fills them, Defaulted names the ones that were filled.
type CostInput struct {
	Workload Workload `json:"workload"` // size and method; for inference Batch is concurrency
	GPU      string   `json:"gpu"`      // card id or alias; empty picks the card with the lowest cost
	GPUs     int      `json:"gpus"`     // cards per job or replica; 0 = the fewest that hold it (Fit)

	// Training data: Tokens (per epoch), or Samples × TokensPerSample; then
	// × Epochs. For inference Tokens is the number of tokens to generate.
	Tokens          float64 `json:"tokens"`
	Samples         float64 `json:"samples"`
	TokensPerSample float64 `json:"tokens_per_sample"`
	Epochs          float64 `json:"epochs"`

	// Inference: tokens in and out per request (defaults 1,000 and 500).
	InputTokens  int `json:"input_tokens,omitempty"`
	OutputTokens int `json:"output_tokens,omitempty"`
	// Serving plan: a load given as tokens per day (prompt + answer) or
	// requests per second, sized for its peak (PeakFactor × average,
	// default DefaultPeakFactor).
	TokensPerDay float64 `json:"tokens_per_day,omitempty"`
	RequestsPerS float64 `json:"requests_per_s,omitempty"`
	PeakFactor   float64 `json:"peak_factor,omitempty"`
	// Budget, when given, is checked against the total: within_budget, and
	// when it is not, what the budget does buy.
	Budget Money `json:"budget,omitzero"`
	// Spot allows interruptible capacity; otherwise on-demand (or monthly)
	// offers price the answer and spot is left out.
	Spot bool `json:"spot,omitempty"`

	// Days is a deadline for a training job: the answer adds the cluster
	// that finishes in that many days.
	Days float64 `json:"days,omitempty"`
	// Pretrain marks a full training run asked as (continued) pretraining:
	// the same sums, named as pretraining in the answer.
	Pretrain bool `json:"pretrain,omitempty"`
	// FP8 trains in FP8 on cards with FP8 tensor cores (peak = FP8 TFLOPS).
	FP8 bool `json:"fp8,omitempty"`

	MFU   float64 `json:"mfu"`   // 0–1: the whole job's MFU; default per method and card class
	TPS   float64 `json:"tps"`   // inference: generated tokens/s per card, replacing the model
	Price Money   `json:"price"` // rent per card-hour, replacing the catalogue
	// Utilization (inference, 0–1) is the share of the paid hours the
	// replica generates at its rate: a million tokens then costs the hourly
	// rent ÷ (tokens/s × 3600 × utilisation). 0 means fully used.
	Utilization float64     `json:"utilization,omitempty"`
	Where       OfferFilter `json:"where"` // which catalogue offers may price it

	// Hidden costs, counted only when given.
	StorageGB     float64 `json:"storage_gb"`
	StorageMonths float64 `json:"storage_months"` // default 1
	EgressGB      float64 `json:"egress_gb"`

	Currency  knowledge.Currency `json:"currency"`
	FX        float64            `json:"fx"`
	Defaulted []string           `json:"defaulted"`

	memo *memo // card-independent sizing shared across the cards one call tries
}

// CostOption is the cost on one card, for the alternatives list.
type CostOption struct {
	GPU           string  `json:"gpu"`
	GPUs          int     `json:"gpus"`
	Hourly        float64 `json:"hourly"`
	Offer         string  `json:"offer,omitempty"`
	Interruptible bool    `json:"interruptible"`
	GPUHours      float64 `json:"gpu_hours"`
	WallHours     float64 `json:"wall_hours"`
	Total         float64 `json:"total"`
	TokensPerS    float64 `json:"tokens_per_s,omitempty"`
	PerMTokens    float64 `json:"per_m_tokens,omitempty"`
	// MarketRange marks a card priced only by a market-wide range (no
	// provider lists it): the estimate uses the range's low end, and the
	// card is ranked after every card one can actually rent.
	MarketRange bool `json:"market_range,omitempty"`
}

// CostResult answers "what will it cost?". Field names match the bot's JSON
// contract (gpu_hours, total, currency, gpu, gpus, wall_hours, hourly, and
// for inference tokens_per_s, per_m_tokens).
type CostResult struct {
	Inputs        CostInput          `json:"inputs"`
	GPU           string             `json:"gpu"`
	GPUs          int                `json:"gpus"` // cards per job or replica
	GPUHours      float64            `json:"gpu_hours"`
	WallHours     float64            `json:"wall_hours"`
	Hourly        float64            `json:"hourly"` // rent per card-hour used
	Total         float64            `json:"total"`
	Currency      knowledge.Currency `json:"currency"`
	TokensPerS    float64            `json:"tokens_per_s,omitempty"` // per replica
	PerMTokens    float64            `json:"per_m_tokens,omitempty"`
	FLOPs         float64            `json:"flops,omitempty"`
	MFU           float64            `json:"mfu"`
	Offer         *CardPrice         `json:"offer,omitempty"` // the catalogue offer priced with; nil when given
	Interruptible bool               `json:"interruptible"`
	Hidden        float64            `json:"hidden"`            // storage + egress
	TTFTms        float64            `json:"ttft_ms,omitempty"` // inference: time to first token, no queue
	// Serving plan (inference with tokens_per_day or requests_per_s).
	Replicas     int          `json:"replicas,omitempty"`
	Utilization  float64      `json:"utilization,omitempty"`   // average load ÷ capacity of the replicas
	MonthlyTotal float64      `json:"monthly_total,omitempty"` // replicas always on, on demand, per month
	Plan         *ServingPlan `json:"plan,omitempty"`
	// Budget check (with a budget): WithinBudget is nil when none was given.
	WithinBudget *bool        `json:"within_budget,omitempty"`
	BudgetCheck  *BudgetCheck `json:"budget_check,omitempty"`
	Serving      *Serving     `json:"serving,omitempty"` // inference: prefill and decode model
	Scaling      *Scaling     `json:"scaling,omitempty"` // training multi-card efficiency
	// Deadline (training with days): the cluster that finishes in time.
	Deadline     *Deadline     `json:"deadline,omitempty"`
	Alternatives []CostOption  `json:"alternatives,omitempty"` // every card tried, cheapest first, when none was named
	Lines        []Line        `json:"lines"`
	Assumptions  []Text        `json:"assumptions"`
	Sources      []PriceSource `json:"sources"`
}

// TokensPerSPerCard is a replica's tokens a second over its cards: the
// speed to compare cards by, so a bigger replica is not faster for being
// bigger. 0 without cards.
func (r CostResult) TokensPerSPerCard() float64 {
	if r.GPUs <= 0 {
		return 0
	}
	return r.TokensPerS / float64(r.GPUs)
}

// Cost estimates GPU-hours, wall time and money for a training or
// fine-tuning job (FLOPs ÷ (peak × MFU)) or for generating tokens (the
// decode roofline, or a given tokens/s per card). When in.GPU is empty every
// card that fits and has a price is tried, and the cheapest is answered with
// the rest as alternatives.
func Cost(in CostInput, m Market) (CostResult, error) {
	w, err := ResolveModel(in.Workload, m.Archs)
	if err != nil {
		return CostResult{}, err
	}
	in.Workload = w
	in, p, err := in.normalize()
	if err != nil {
		return CostResult{}, err
	}
	in.memo = m.memo()
	if in.GPU != "" {
		g, err := m.card(in.GPU, in.hint())
		if err != nil {
			return CostResult{}, err
		}
		in.GPU = g.ID
		r, err := costOn(&g, in, m, p)
		if err == nil && in.Budget.Given() {
			r.checkBudget(in, m, p)
		}
		return r, err
	}
	if in.TPS > 0 || in.Price.Given() {
		if in.Workload.Method == Inference && in.TPS > 0 && in.Price.Given() {
			return costOn(nil, in, m, p) // per-card figures, the card is not needed
		}
		return CostResult{}, inputErr("gpu", "a given price or tokens/s belongs to a card: name it", in.hint())
	}
	in.Defaulted = append(in.Defaulted, "gpu")
	if in.StorageGB > 0 || in.EgressGB > 0 {
		return costEveryCardFull(in, m, p)
	}
	// Rank every card on the numbers alone (costOn, quiet: no steps or
	// texts), then price the cheapest in full: one arithmetic for both
	// (TestCostQuickRankingMatchesFull).
	all := make([]CostOption, 0, len(m.GPUs))
	in.memo.quiet = true
	for i := range m.GPUs {
		q := *p // each card's own: whether it converted a price
		if r, err := costOn(&m.GPUs[i], in, m, &q); err == nil {
			all = append(all, r.option())
		}
	}
	in.memo.quiet = false
	if len(all) == 0 {
		return CostResult{}, inputErr("gpu", "no card in the catalogue both holds this job and has a price; name one with price=", in.hint())
	}
	optKey := func(o CostOption) float64 {
		if o.PerMTokens > 0 {
			return o.PerMTokens
		}
		return o.Total
	}
	// Cards with a provider's price first: a range is not an offer.
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].MarketRange != all[j].MarketRange {
			return !all[i].MarketRange
		}
		return optKey(all[i]) < optKey(all[j])
	})
	g, err := m.card(all[0].GPU, in.hint())
	if err != nil {
		return CostResult{}, err
	}
	q := *p
	best, err := costOn(&g, in, m, &q)
	if err != nil {
		return CostResult{}, err
	}
	best.Alternatives = all
	best.Assumptions = append(best.Assumptions, txt(
		fmt.Sprintf("no card named: %s is the cheapest of the %d cards that hold the job and have a price", best.GPU, len(all)),
		fmt.Sprintf("未指定显卡：%s 是 %d 种放得下且有价格的卡里最便宜的", best.GPU, len(all))))
	if in.Budget.Given() {
		best.checkBudget(in, m, p)
	}
	return best, nil
}

// costEveryCardFull prices every card in full (used when hidden costs,
// which depend on each platform's rates, are asked for).
func costEveryCardFull(in CostInput, m Market, p *pricing) (CostResult, error) {
	var all []CostResult
	for i := range m.GPUs {
		g := m.GPUs[i]
		q := *p
		if r, err := costOn(&g, in, m, &q); err == nil {
			all = append(all, r)
		}
	}
	if len(all) == 0 {
		return CostResult{}, inputErr("gpu", "no card in the catalogue both holds this job and has a price; name one with price=", in.hint())
	}
	key := func(r CostResult) float64 {
		if r.PerMTokens > 0 {
			return r.PerMTokens
		}
		return r.Total
	}
	ranged := func(r CostResult) bool { return r.Offer != nil && IsMarketRange(r.Offer.Platform) }
	// Cards with a provider's price first: a range is not an offer.
	sort.SliceStable(all, func(i, j int) bool {
		if ranged(all[i]) != ranged(all[j]) {
			return !ranged(all[i])
		}
		return key(all[i]) < key(all[j])
	})
	best := all[0]
	for _, r := range all {
		best.Alternatives = append(best.Alternatives, r.option())
	}
	if in.Budget.Given() {
		best.checkBudget(in, m, p)
	}
	return best, nil
}

// option is r as one card of a ranking.
func (r *CostResult) option() CostOption {
	return CostOption{GPU: r.GPU, GPUs: r.GPUs, Hourly: r.Hourly, Offer: offerKey(r.Offer),
		Interruptible: r.Interruptible, GPUHours: r.GPUHours, WallHours: r.WallHours, Total: r.Total, TokensPerS: r.TokensPerS, PerMTokens: r.PerMTokens,
		MarketRange: r.Offer != nil && IsMarketRange(r.Offer.Platform)}
}

func offerKey(cp *CardPrice) string {
	if cp == nil {
		return ""
	}
	return cp.Offer
}

func (in CostInput) hint() string {
	if in.Workload.Method == Inference || in.Workload.Method == "" {
		return "/gpu cost 70b inference 100M tokens on h100"
	}
	return "/gpu cost 7b lora 50k samples 2 epochs on 4090"
}

// normalize checks the question and fills defaults.
func (in CostInput) normalize() (CostInput, *pricing, error) {
	in.Defaulted = nil
	hint := in.hint()
	for _, f := range []struct {
		name string
		v    float64
		max  float64
	}{
		{"tokens", in.Tokens, MaxTokens}, {"samples", in.Samples, MaxTokens}, {"tokens_per_sample", in.TokensPerSample, MaxSeqLen},
		{"epochs", in.Epochs, MaxEpochs}, {"mfu", in.MFU, 1}, {"tps", in.TPS, MaxTPS},
		{"storage_gb", in.StorageGB, 1e9}, {"storage_months", in.StorageMonths, 120}, {"egress_gb", in.EgressGB, 1e9},
		{"days", in.Days, 3650}, {"utilization", in.Utilization, 1},
	} {
		if math.IsNaN(f.v) || f.v < 0 || f.v > f.max {
			return in, nil, inputErr(f.name, fmt.Sprintf("must be between 0 and %s, got %s", sci(f.max), sci(f.v)), hint)
		}
	}
	if in.GPUs < 0 || in.GPUs > MaxGPUs {
		return in, nil, inputErr("gpus", fmt.Sprintf("cards must be between 1 and %d, got %d", MaxGPUs, in.GPUs), hint)
	}
	if err := checkMoney("price", in.Price, hint+" price=2.5usd"); err != nil {
		return in, nil, err
	}
	if err := checkMoney("budget", in.Budget, hint+" budget=5000"); err != nil {
		return in, nil, err
	}
	def := in.Price.Currency
	p, err := newPricing(in.Currency, def, in.FX, hint, &in.Defaulted)
	if err != nil {
		return in, nil, err
	}
	in.Currency, in.FX = p.cur, p.fx

	w := in.Workload
	if w.Method == "" || w.Method == Inference {
		if in.InputTokens < 0 || in.OutputTokens < 0 || in.InputTokens > MaxSeqLen || in.OutputTokens > MaxSeqLen {
			return in, nil, inputErr("input_tokens", fmt.Sprintf("tokens per request must be between 1 and %d, got in=%d out=%d", MaxSeqLen, in.InputTokens, in.OutputTokens), hint+" in=1000 out=500")
		}
		if in.InputTokens == 0 && w.SeqLen > 0 {
			in.InputTokens = w.SeqLen // a stated context is the prompt
		}
		if in.InputTokens == 0 {
			in.InputTokens = DefaultServeIn
			in.Defaulted = append(in.Defaulted, "input_tokens")
		}
		if in.OutputTokens == 0 {
			in.OutputTokens = DefaultServeOut
			in.Defaulted = append(in.Defaulted, "output_tokens")
		}
		w.SeqLen = in.InputTokens + in.OutputTokens
	}
	batchGiven := w.Batch != 0
	w, err = w.Normalize()
	if err != nil {
		return in, nil, withHint(err, hint)
	}
	if w.Method == Inference && !batchGiven {
		w.Batch = 0 // filled per card from the KV-cache room
	}
	in.Workload = w
	if w.Method == Inference {
		if in.Tokens == 0 {
			in.Tokens = defaultGenM * 1e6
			in.Defaulted = append(in.Defaulted, "tokens")
		}
	} else {
		if in.Tokens == 0 && in.Samples == 0 {
			return in, nil, inputErr("tokens", "say how much data: tokens (e.g. 100M tokens) or samples (e.g. 50k samples)", hint)
		}
		if in.Samples > 0 && in.Tokens == 0 && in.TokensPerSample == 0 {
			in.TokensPerSample = DefaultTokensPerSample
			in.Defaulted = append(in.Defaulted, "tokens_per_sample")
		}
		if in.Epochs == 0 {
			in.Epochs = DefaultEpochs
			in.Defaulted = append(in.Defaulted, "epochs")
		}
	}
	for _, f := range []struct {
		name string
		v    float64
		max  float64
	}{{"tokens_per_day", in.TokensPerDay, 1e15}, {"requests_per_s", in.RequestsPerS, 1e6}, {"peak_factor", in.PeakFactor, 100}} {
		if math.IsNaN(f.v) || f.v < 0 || f.v > f.max {
			return in, nil, inputErr(f.name, fmt.Sprintf("must be between 0 and %s, got %s", sci(f.max), sci(f.v)), hint)
		}
	}
	if in.PeakFactor > 0 && in.PeakFactor < 1 {
		return in, nil, inputErr("peak_factor", fmt.Sprintf("the peak is at least the average (factor ≥ 1), got %s", num(in.PeakFactor)), hint+" peak=3")
	}
	if (in.TokensPerDay > 0 || in.RequestsPerS > 0) && w.Method != Inference {
		return in, nil, inputErr("tokens_per_day", "a daily load is for serving: ask for inference", "/gpu cost 70b inference 10M tokens/day on h100")
	}
	if (in.TokensPerDay > 0 || in.RequestsPerS > 0) && in.PeakFactor == 0 {
		in.PeakFactor = DefaultPeakFactor
		in.Defaulted = append(in.Defaulted, "peak_factor")
	}
	if !in.Spot {
		in.Where.NoInterruptible = true
	}
	if !IsMarketRange(in.Where.Platform) {
		in.Where.NoMarketRange = true
	}
	if (in.StorageGB > 0) && in.StorageMonths == 0 {
		in.StorageMonths = 1
		in.Defaulted = append(in.Defaulted, "storage_months")
	}
	return in, p, nil
}

// withHint points a workload error's example at the command being asked,
// keeping its field and reason.
func withHint(err error, hint string) error {
	var in *InputError
	if errors.As(err, &in) {
		c := *in
		c.Hint = hint
		return &c
	}
	return err
}

// costOn prices the job on card g (nil: per-card figures given, no card).
// With in.memo quiet (the pass that ranks every card) it works out the
// figures only: no steps, assumptions or sources are written.
func costOn(g *knowledge.GPU, in CostInput, m Market, p *pricing) (CostResult, error) {
	res := CostResult{Inputs: in, Currency: p.cur}
	res.Inputs.memo = nil // the call's state stays with the call
	quiet := in.memo != nil && in.memo.quiet
	if !quiet {
		res.Inputs.Defaulted = slices.Clone(in.Defaulted)
	}
	if g != nil {
		res.GPU = g.ID
	}
	var err error
	if in.Workload.Method == Inference {
		err = res.inference(g, in, m)
	} else {
		err = res.training(*g, in, m)
	}
	if err != nil {
		return CostResult{}, err
	}
	if err := res.price(g, in, m, p); err != nil {
		return CostResult{}, err
	}
	if quiet {
		return res, nil
	}
	if in.TokensPerDay > 0 || in.RequestsPerS > 0 {
		res.servingPlan(g, in, m, p)
	}
	res.Assumptions = append(res.Assumptions, p.assumption()...)
	res.Assumptions = withConfirm(res.Assumptions, res.Sources)
	return res, nil
}

// cards picks how many cards hold the workload: the user's count (checked)
// or the fewest that fit.
func cards(w Workload, g knowledge.GPU, given int, m Market, c *memo, hint string) (int, error) {
	mem, _, _, err := c.sizedOn(w, g, m.Archs)
	if err != nil {
		return 0, err
	}
	need := minCards(mem, g.VRAMGB)
	if c != nil && c.quiet && (need == 0 || given > 0 && given < need) {
		return 0, errSkip
	}
	switch {
	case need == 0:
		return 0, inputErr("gpu", fmt.Sprintf("the job does not fit even on %d × %s", cardCounts[len(cardCounts)-1], g.Name), hint)
	case given > 0 && given < need:
		return 0, inputErr("gpus", fmt.Sprintf("%d × %s is too small: the job needs at least %d", given, g.Name, need), hint)
	case given > 0:
		return given, nil
	}
	return need, nil
}

// training fills GPU-hours and wall time from FLOPs.
func (r *CostResult) training(g knowledge.GPU, in CostInput, m Market) error {
	w := in.Workload
	hint := in.hint()
	if g.PeakTFLOPS() <= 0 {
		return inputErr("gpu", fmt.Sprintf("no compute figure for %s", g.Name), hint)
	}
	mem, _, err := in.memo.sized(w, m.Archs)
	if err != nil {
		return err
	}
	quiet := in.memo != nil && in.memo.quiet
	// Tokens seen: D = tokens × epochs, or samples × tokens/sample × epochs.
	d := in.Tokens * in.Epochs
	if in.Tokens == 0 {
		d = in.Samples * in.TokensPerSample * in.Epochs
	}
	// FLOPs use the parameters a token's matrix multiplies touch: all of a
	// dense model, the active ones of a mixture of experts.
	n := mem.Shape.ComputeB * 1e9
	flops := trainingFLOPsOnly(w.Method, n, mem.Trainable, d)
	r.FLOPs = flops
	peak := g.PeakTFLOPS()
	if in.FP8 {
		if g.FP8TFLOPS <= 0 {
			return inputErr("fp8", fmt.Sprintf("%s has no FP8 tensor cores; drop fp8 or pick an FP8 card (H100, H800, H20, H200, B200, L40S, RTX 4090)", g.Name), hint)
		}
		peak = g.FP8TFLOPS
	}
	r.MFU = in.MFU
	if r.MFU == 0 {
		r.MFU = mfuValue(w.Method, g, mem.Shape, d)
		if !quiet {
			r.Inputs.Defaulted = append(r.Inputs.Defaulted, "mfu")
		}
	}
	r.GPUs, err = cards(w, g, in.GPUs, m, in.memo, hint)
	if err != nil {
		return err
	}
	// GPU-hours = FLOPs ÷ (peak TFLOPS × 10¹² × MFU × 3600 s/h). The MFU is
	// the whole job's, communication included; the exposed part of
	// communication is added only where it cannot hide behind compute.
	ideal := flops / (peak * 1e12 * r.MFU * 3600)
	sc := clusterScaling(g, r.GPUs, w, mem, flops/d, peak, r.MFU, d)
	r.GPUHours = ideal / sc.Efficiency
	if in.MFU > 0 {
		r.GPUHours = ideal // a given MFU already is the whole job's
	}
	r.WallHours = r.GPUHours / float64(r.GPUs)
	if quiet {
		return nil
	}
	r.Scaling = &sc
	// The steps: how each figure above was worked out.
	dHow := fmt.Sprintf("%s tokens × %s epochs", sci(in.Tokens), num(in.Epochs))
	if in.Tokens == 0 {
		dHow = fmt.Sprintf("%s samples × %s tokens/sample × %s epochs", sci(in.Samples), num(in.TokensPerSample), num(in.Epochs))
	}
	_, fHow, why := trainingFLOPs(w.Method, n, mem.Trainable, d)
	peakHow := "dense BF16/FP16"
	if in.FP8 {
		peakHow = "dense FP8 (FP8 training, e.g. Transformer Engine / DeepSeek-V3's recipe)"
	}
	mfuHow := txt("given: the whole job's MFU (PaLM's definition), not discounted again", "用户给定：整个任务的 MFU（PaLM 定义），不再另行折算")
	if in.MFU == 0 {
		_, mfuHow = mfuFor(w.Method, g, mem.Shape, d)
	}
	r.Lines = append(r.Lines,
		Line{Key: "tokens", Label: txt("training tokens", "训练 token 数"), Value: d, Unit: "tokens", How: dHow},
		Line{Key: "flops", Label: txt("training compute", "训练计算量"), Value: flops, Unit: "FLOP", How: fHow},
		Line{Key: "mfu", Label: txt("model FLOPs utilisation", "算力利用率 MFU"), Value: r.MFU, Unit: "", How: mfuHow.EN},
		Line{Key: "compute_hours", Label: txt("GPU-hours at that MFU", "该 MFU 下的 GPU 小时"), Value: round(ideal, 2), Unit: "GPU-h",
			How: fmt.Sprintf("%s FLOP ÷ (%s TFLOPS × 10¹² × %s MFU × 3600 s)", sci(flops), num(peak), num(r.MFU))},
		Line{Key: "gpus", Label: txt("cards per job", "每个任务的卡数"), Value: float64(r.GPUs), Unit: "cards",
			How: fmt.Sprintf("fewest %s that hold the job (fit: %s GB per replica, sharded)", g.Name, num(mem.TotalGB))},
	)
	gpuHow := fmt.Sprintf("%s GPU-h", num(round(ideal, 2)))
	if r.GPUs > 1 {
		r.Lines = append(r.Lines, sc.line(g))
		if in.MFU == 0 && sc.Efficiency < 1 {
			gpuHow = fmt.Sprintf("%s GPU-h ÷ %s (communication that does not hide behind compute)", num(round(ideal, 2)), num(round(sc.Efficiency, 3)))
		}
	}
	r.Lines = append(r.Lines,
		Line{Key: "gpu_hours", Label: txt("GPU-hours", "GPU 小时"), Value: round(r.GPUHours, 2), Unit: "GPU-h", How: gpuHow},
		Line{Key: "wall_hours", Label: txt("wall-clock time", "实际耗时"), Value: round(r.WallHours, 2), Unit: "h",
			How: fmt.Sprintf("%s GPU-h ÷ %d cards", num(round(r.GPUHours, 2)), r.GPUs)},
	)
	if in.Days > 0 {
		r.Deadline = deadline(g, in.Days, r.GPUHours, r.GPUs, w, mem, flops/d, peak, r.MFU, d, in.MFU > 0)
		r.Lines = append(r.Lines, r.Deadline.Lines...)
	}
	r.Assumptions = append(r.Assumptions, why,
		txt(fmt.Sprintf("MFU %s (%s); peak %s TFLOPS %s for %s", num(r.MFU), mfuHow.EN, num(peak), peakHow, g.Name),
			fmt.Sprintf("MFU %s（%s）；%s 峰值按 %s TFLOPS（%s）", num(r.MFU), mfuHow.ZH, g.Name, num(peak), peakHow)),
		txt("several cards: tensor parallel inside a machine, data parallel (ZeRO/FSDP sharding) across machines, communication overlapped with compute; billing rounding of the last hour is not added",
			"多卡：机内张量并行、机间数据并行（ZeRO/FSDP 分片），通信与计算重叠；未计入最后一小时的计费取整"))
	if mem.Shape.MoE() {
		r.Assumptions = append(r.Assumptions, txt(
			fmt.Sprintf("mixture of experts: training FLOPs from the %sB active parameters (6·N_active·D); memory holds all %sB", num(round(mem.Shape.ComputeB, 2)), num(round(mem.Shape.ParamsB, 2))),
			fmt.Sprintf("混合专家：训练计算量按激活参数 %sB（6·N_active·D）；显存按全部 %sB", num(round(mem.Shape.ComputeB, 2)), num(round(mem.Shape.ParamsB, 2)))))
	}
	return nil
}
