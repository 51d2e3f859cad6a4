package advisor

import (
	"fmt"

	"github.com/gpubot/gpubot/knowledge"
)

// BudgetCheck compares a cost answer with a stated budget.
type BudgetCheck struct {
	Budget       float64            `json:"budget"`
	Currency     knowledge.Currency `json:"currency"`
	WithinBudget bool               `json:"within_budget"`
	Left         float64            `json:"left"` // budget − total (negative when over)
	// AffordableShare is the share of the asked job the budget pays for
	// on the answered card (1 when within budget); AffordableTokens the
	// training tokens (or generated tokens) that share is.
	AffordableShare  float64 `json:"affordable_share"`
	AffordableTokens float64 `json:"affordable_tokens"`
	// Cheaper is a cheaper way that fits the budget when the asked one does
	// not: another method or card, with its total.
	Cheaper *CheaperOption `json:"cheaper,omitempty"`
}

// CheaperOption is an alternative that the budget covers.
type CheaperOption struct {
	Method Method  `json:"method"`
	GPU    string  `json:"gpu"`
	GPUs   int     `json:"gpus"`
	Total  float64 `json:"total"`
	Why    Text    `json:"why"`
}

// checkBudget sets WithinBudget and, when the job is over budget, what the
// budget does buy: the share of the job, and the cheapest method or card
// that fits.
func (r *CostResult) checkBudget(in CostInput, m Market, p *pricing) {
	budget := p.money(in.Budget)
	bc := &BudgetCheck{Budget: Round2(budget), Currency: p.cur, Left: Round2(budget - r.Total), AffordableShare: 1}
	bc.WithinBudget = r.Total <= budget
	tokens := in.Tokens * max(in.Epochs, 1)
	if in.Tokens == 0 {
		tokens = in.Samples * in.TokensPerSample * max(in.Epochs, 1)
	}
	if in.Workload.Method == Inference {
		tokens = in.Tokens
	}
	if !bc.WithinBudget && r.Total > 0 {
		bc.AffordableShare = round(budget/r.Total, 4)
	}
	bc.AffordableTokens = round(tokens*bc.AffordableShare, 0)
	r.Lines = append(r.Lines, Line{Key: "within_budget", Label: txt("budget left", "预算余额"), Value: bc.Left, Unit: string(p.cur),
		How: fmt.Sprintf("budget %s − total %s", money(bc.Budget, p.cur), money(r.Total, p.cur))})
	if !bc.WithinBudget {
		r.Lines = append(r.Lines, Line{Key: "affordable_tokens", Label: txt("what the budget covers", "预算能覆盖的量"), Value: bc.AffordableTokens, Unit: "tokens",
			How: fmt.Sprintf("%s tokens × %s ÷ %s", sci(tokens), money(bc.Budget, p.cur), money(r.Total, p.cur))})
		bc.Cheaper = cheaperWithin(in, m, budget, r.Total)
	}
	ok := bc.WithinBudget
	r.WithinBudget, r.BudgetCheck = &ok, bc
}

// cheaperWithin tries, in order, a lighter method on any card (full →
// lora → qlora) and any card for the asked method, and returns the
// cheapest that the budget covers.
func cheaperWithin(in CostInput, m Market, budget, total float64) *CheaperOption {
	var tries []CostInput
	base := in
	base.Budget, base.TokensPerDay, base.RequestsPerS = Money{}, 0, 0
	base.Workload.Defaulted = nil
	if in.GPU != "" {
		t := base
		t.GPU, t.GPUs = "", 0
		tries = append(tries, t)
	}
	switch in.Workload.Method {
	case Full:
		for _, meth := range []Method{LoRA, QLoRA} {
			t := base
			t.GPU, t.GPUs = "", 0
			t.Workload.Method, t.Workload.Bits = meth, 0
			tries = append(tries, t)
		}
	case LoRA, Freeze:
		t := base
		t.GPU, t.GPUs = "", 0
		t.Workload.Method, t.Workload.Bits = QLoRA, 0
		tries = append(tries, t)
	}
	var best *CheaperOption
	for _, t := range tries {
		t.Workload.Batch, t.Workload.SeqLen = in.Workload.Batch, in.Workload.SeqLen
		r, err := Cost(t, m)
		if err != nil || r.Total > budget || r.Total >= total {
			continue
		}
		if best == nil || r.Total < best.Total {
			why := txt(fmt.Sprintf("%s on %d × %s costs %s", r.Inputs.Workload.Method, r.GPUs, r.GPU, money(r.Total, r.Currency)),
				fmt.Sprintf("%s，%d × %s，约 %s", r.Inputs.Workload.Method, r.GPUs, r.GPU, money(r.Total, r.Currency)))
			best = &CheaperOption{Method: r.Inputs.Workload.Method, GPU: r.GPU, GPUs: r.GPUs, Total: r.Total, Why: why}
		}
	}
	return best
}
