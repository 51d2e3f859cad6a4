package bot

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"github.com/gpubot/gpubot/knowledge"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
)

// SLOAnswer is the result of a serving question with per-user targets
// (concurrent users at a speed each, a first-token deadline).
type SLOAnswer struct {
	advisor.SLOResult
	Name string `json:"name"` // the card's display name
}

// servingTargets reports whether a question asks for a fleet by per-user
// targets: a speed each user must see, a first-token deadline, or a number
// of concurrent users with no request rate.
func servingTargets(s parse.Slots) bool {
	if s.Method != "" && s.Method != "inference" {
		return false
	}
	return s.TPSPerUser > 0 || s.TTFTMs > 0 || alwaysOnBudget(s) ||
		s.Concurrency > 1 && s.RequestsPerS == 0 && s.TokensPerDay == 0 && s.PeakRequestsPerS == 0 &&
			(has(s.Targets, "cards") || has(s.Targets, "money_monthly") || has(s.Targets, "money_total"))
}

// alwaysOnBudget reports a question whether a monthly budget holds a
// service that is always on ("¥8000一个月能撑住一个14B的常驻服务吗").
func alwaysOnBudget(s parse.Slots) bool {
	return (s.Budget != nil || s.Monthly != nil) && s.HoursPerMonth >= 700 && s.RequestsPerS == 0 && s.TokensPerDay == 0
}

// slo answers a serving question with per-user targets.
func (b *Bot) slo(ctx context.Context, a *Answer, req parse.Request) error {
	s := req.Slots
	in := advisor.SLOInput{Cost: b.costInput(req), TPSPerUser: s.TPSPerUser, TTFTms: s.TTFTMs}
	in.Cost.Workload.Method = advisor.Inference
	if s.RequestsPerS == 0 && s.TokensPerDay == 0 && s.PeakRequestsPerS == 0 {
		in.Concurrency = max(s.Concurrency, 1) // an always-on service holds at least one user
		in.Cost.Workload.Batch = 0             // the batch per replica is what is solved for
	}
	switch {
	case s.Budget != nil:
		in.MonthlyBudget = money(s.Budget)
	case s.Monthly != nil && alwaysOnBudget(s):
		in.MonthlyBudget = money(s.Monthly) // "¥8000 一个月": what a month may cost
		a.use("monthly", "the monthly budget the service must fit")
	}
	if alwaysOnBudget(s) {
		a.use("hours_per_month", "always on: every replica runs 730 h a month")
	}
	in.Cost.Budget = advisor.Money{}
	m := b.market(ctx)
	res, err := nativeFirst(&in.Cost.Where, func() (advisor.SLOResult, error) { return advisor.SLO(in, m) })
	if err != nil {
		return err
	}
	a.Assumed = assumed(res.Replica.Inputs.Workload, false)
	delete(a.Assumed, "concurrency")
	defaultedValues(res.Replica.Inputs, res.Replica.Inputs.Defaulted, a.Assumed)
	delete(a.Assumed, "tokens")
	out := SLOAnswer{SLOResult: res, Name: gpuName(res.Replica.GPU)}
	a.Result = out
	a.Currency = res.Currency
	a.verdictAsked = s.TTFTMs > 0 || s.TPSPerUser > 0 || res.WithinBudget != nil
	d := renderSLO(a.Lang, out, a.Assumed)
	if res.Priced && res.Cards > 0 && asksCommit(strings.ToLower(req.Text)) {
		// "monthly bill on AWS on-demand vs 1-yr reserved" (commit.go)
		if cr, ok := b.planOnTerm(req, res.Replica.GPU, res.Cards, knowledge.Currency(res.Currency)); ok {
			d = withPlanTerm(a.Lang, d, res.MonthlyTotal, res.Currency, cr)
			a.use("years", "the commitment's term")
			a.planTerm = &cr
		} else {
			d = noPlanTerm(a.Lang, d, res.Replica.GPU, commitTerm(req.Text))
		}
	}
	if !s.YesNo && len(s.Targets) > 0 && s.Targets[0] == "cards" && res.WithinBudget == nil {
		// "How many 8x H100 nodes do we need?": the fleet leads, in nodes
		// when a node size was named
		node := 0
		if s.Cards > 1 && reNodeWord.MatchString(strings.ToLower(req.Text)) {
			node = s.Cards
			a.use("cards", "cards per node: the fleet is counted in nodes")
		}
		d = leadWithFleet(a.Lang, d, out, node)
	}
	if s.Concurrency == 0 && has(s.Targets, "concurrency") && res.PerReplica > 0 {
		// "最多能扛多少并发": the most users one replica serves at the targets leads
		d = leadWithConcurrency(a.Lang, d, out)
	}
	a.show(d)
	return nil
}

// reNodeWord names a machine of several cards: "8x H100 nodes", "8卡机器".
var reNodeWord = regexp.MustCompile(`\bnodes?\b|\bservers?\b|\bmachines?\b|\bboxes\b|节点|台|整机|机器|服务器`)

// OptionsAnswer answers "X vs Y vs Z" for one workload: every named card
// costed the same way, best first.
type OptionsAnswer struct {
	Asked    string         `json:"asked"` // the figure ranked by
	Unit     string         `json:"unit"`
	Currency string         `json:"currency"`
	Rows     []OptionRow    `json:"rows"`
	Failed   []OptionFailed `json:"failed,omitempty"` // cards that could not be costed, and why
}

// OptionRow is one card's figure.
type OptionRow struct {
	GPU string `json:"gpu"`
	// Platform is set when the options are platforms ("runpod or vast?").
	Platform string             `json:"platform,omitempty"`
	Name     string             `json:"name"`
	Value    float64            `json:"value"`
	Result   advisor.CostResult `json:"result"`
}

// OptionFailed is a named card the engine could not answer for.
type OptionFailed struct {
	GPU      string `json:"gpu"`
	Platform string `json:"platform,omitempty"`
	Reason   string `json:"reason"`
}

// options costs the workload on every named card and ranks them by the
// figure asked: $ per million tokens for serving, the total for a job, the
// monthly bill for a serving load.
func (b *Bot) options(ctx context.Context, a *Answer, req parse.Request) error {
	s := req.Slots
	m := b.market(ctx)
	var out OptionsAnswer
	type pick struct{ gpu, platform string }
	var picks []pick
	if len(s.GPUs) >= 2 {
		for _, id := range s.GPUs {
			picks = append(picks, pick{id, s.Platform})
		}
	} else {
		// "runpod or vast?": the job on each platform named, its
		// cheapest card there (or the card named)
		for _, p := range s.Platforms {
			picks = append(picks, pick{firstGPU(s), p})
		}
	}
	for _, pk := range picks {
		id := pk.gpu
		one := req
		one.Slots.GPUs = nil
		if id != "" {
			one.Slots.GPUs = []string{id}
		}
		one.Slots.Platform = pk.platform
		in := b.costInput(one)
		if in.Workload.Method == "" {
			in.Workload.Method = advisor.Inference
		}
		if in.Workload.Method == advisor.Inference && in.Tokens == 0 && in.TokensPerDay == 0 && in.RequestsPerS == 0 {
			in.Tokens = 1e6 // a price per million tokens needs no volume
			if s.Concurrency == 0 && firstTarget(s, "money_monthly", "money_per_m_tokens") == "money_monthly" {
				// a month of the cards that hold it, with no load said:
				// one request at a time, the fewest cards (the fit's count)
				in.Workload.Batch = 1
			}
		}
		res, err := nativeFirst(&in.Where, func() (advisor.CostResult, error) { return advisor.Cost(in, m) })
		if err != nil {
			out.Failed = append(out.Failed, OptionFailed{GPU: id, Platform: pk.platform, Reason: errReason(a.Lang, err)})
			continue
		}
		if out.Currency == "" {
			out.Currency = string(res.Currency)
			a.Assumed = assumed(res.Inputs.Workload, s.GC != "")
			defaultedValues(res.Inputs, res.Inputs.Defaulted, a.Assumed)
			delete(a.Assumed, "gpu")
		}
		row := OptionRow{GPU: res.GPU, Name: gpuName(res.GPU), Result: res}
		if len(s.GPUs) < 2 {
			row.Platform = pk.platform
			row.Name = optionName(a.Lang, res.GPU, pk.platform)
		}
		switch {
		case res.Plan != nil && firstTarget(s, "money_per_m_tokens", "money_monthly") == "money_per_m_tokens":
			// "cheapest per 1M tokens … L4, L40S or H100?": ranked by what a
			// million tokens cost at this load
			out.Asked, out.Unit, row.Value = "money_per_m_tokens", "M tokens", res.Plan.PerMTokens
		case res.Plan != nil:
			out.Asked, out.Unit, row.Value = "money_monthly", "month", res.Plan.MonthlyOnDemand
		case res.Inputs.Workload.Method == advisor.Inference && firstTarget(s, "money_monthly", "money_per_m_tokens") == "money_monthly" && res.GPUs > 0:
			// "cost per month for each?": the replica's cards rented round
			// the clock, a month of 730 h
			out.Asked, out.Unit, row.Value = "money_monthly", "month", advisor.RentalTotal(res.Hourly, res.GPUs, knowledge.HoursPerMonth).Total
		case res.Inputs.Workload.Method == advisor.Inference && firstTarget(s, "tokens_per_s", "money_per_m_tokens") == "tokens_per_s" && res.GPUs > 0:
			// "A800和H20做推理到底谁快？": ranked by tokens/s per card, so
			// a replica of four cards is not faster for being bigger
			out.Asked, out.Unit, row.Value = "tokens_per_s", "tok/s per card", res.TokensPerSPerCard()
		case res.Inputs.Workload.Method == advisor.Inference:
			out.Asked, out.Unit, row.Value = "money_per_m_tokens", "M tokens", res.PerMTokens
		case firstTarget(s, "gpu_hours", "money_total") == "gpu_hours":
			// "GPU-hours on A10G vs L4?": ranked by the GPU-hours the job takes
			out.Asked, out.Unit, row.Value = "gpu_hours", "GPU-h", res.GPUHours
		case firstTarget(s, "hours", "money_total") == "hours":
			// "which finishes first?": ranked by wall-clock
			out.Asked, out.Unit, row.Value = "hours", "h", res.WallHours
		default:
			out.Asked, out.Unit, row.Value = "money_total", "job", res.Total
		}
		out.Rows = append(out.Rows, row)
	}
	if len(out.Rows) == 0 {
		if len(out.Failed) > 0 {
			return &advisor.InputError{Field: "gpu", Reason: out.Failed[0].Reason, Hint: "/gpu cost 13b inference on h100"}
		}
		return &advisor.InputError{Field: "gpu", Reason: "no card could be costed", Hint: "/gpu cost 13b inference on h100"}
	}
	sort.SliceStable(out.Rows, func(i, j int) bool {
		if out.Asked == "tokens_per_s" { // the fastest first
			return out.Rows[i].Value > out.Rows[j].Value
		}
		return out.Rows[i].Value < out.Rows[j].Value
	})
	if len(s.GPUs) < 2 {
		a.use("platforms", "each platform named is costed as an option")
		a.use("platform", "each platform named is costed as an option")
	}
	if out.Rows[0].Result.BudgetCheck != nil {
		a.verdictAsked = true // "budget $100 — runpod or vast?": the best option against it
	}
	a.Result = out
	a.Currency = out.Currency
	a.show(renderOptions(a.Lang, out, a.Assumed))
	return nil
}

// errReason is an engine error's reason for a user, or a generic one.
func errReason(lang string, err error) string {
	if in, ok := err.(*advisor.InputError); ok {
		return in.Reason
	}
	return tr(lang, "could not be costed", "无法计算")
}

// firstTarget is whichever of the targets a or b the message asks first
// ("" when it asks neither).
func firstTarget(s parse.Slots, a, b string) string {
	for _, t := range s.Targets {
		if t == a || t == b {
			return t
		}
	}
	return ""
}
