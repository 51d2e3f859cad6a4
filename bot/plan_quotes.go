package bot

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// Planner rules for quotes said in words (called from plan(), bot/plan.go):
// a commitment's total at the user's own rate, a machine's (node's) hourly
// rate, one card's month on the platforms named, on demand and the monthly
// plan's saving on one platform, and a commitment's price asked by name.

// Notes the planner leaves for the engines (read back by fullTimeAssumed).
const noteFullTime = "no hours given: the monthly plan weighed at full-time use, 730 h a month"

// quoteInWords moves a quote question to the calculation that answers it,
// with a note saying why ("" and false when none applies).
func quoteInWords(req parse.Request) (parse.Request, string, bool) {
	s := req.Slots
	if q, ok := readTermQuestion(req); ok {
		// "p5 on-demand vs 1-year reserved for 4 nodes", "Azure vs AWS on a
		// 1-year reservation", "how many H100s on Lambda's 1-yr rate":
		// the sourced term rates × the cards (price_terms.go)
		req.Intent, req.Slots.Billing = parse.Price, ""
		if len(s.GPUs) == 0 {
			req.Slots.GPUs = []string{q.GPU}
		}
		req.Slots.Missing = nil
		return req, "sourced term rates for the cards asked", true
	}
	if !readOnly[req.Intent] || len(s.GPUs) == 0 || s.ParamsB > 0 || s.Model != "" || s.Arch != "" || s.Budget != nil {
		return req, "", false
	}
	t := strings.ToLower(req.Text)
	first := ""
	if len(s.Targets) > 0 {
		first = s.Targets[0]
	}
	commit := asksCommit(t)
	ownOnDemand := s.Rent != nil || s.OnDemandMonthly != nil || s.Discount > 0 || s.Monthly != nil
	switch {
	case commit && s.Rent != nil && s.Price == nil && s.Committed == nil && s.Monthly == nil && s.OnDemandMonthly == nil && s.Discount == 0 &&
		s.Utilization == 0 && s.HoursPerMonth == 0 && s.Hours == 0 && !has(s.Targets, "saving") && !has(s.Targets, "break_even_util") &&
		reContractTotal.MatchString(t) && !reOnDemand.MatchString(t):
		// "我们跟 Lambda 签了一年 16 张 H100 的合约，$1.89/卡时，合同总额是多少？":
		// the one rate said is the contract's, not an on-demand rent to
		// weigh a commitment against: its total over the term (price.go)
		req.Slots.Price, req.Slots.Rent = s.Rent, nil
		req.Intent, req.Slots.Billing = parse.Price, ""
		req.Slots.Missing = nil
		return req, "a commitment's total at your rate", true
	case commit && (first == "money_total" || first == "money_monthly") && !has(s.Targets, "saving") && !has(s.Targets, "break_even_util") &&
		s.Utilization == 0 && s.HoursPerMonth == 0 && s.Hours == 0 && !ownOnDemand && (s.Committed != nil) != (s.Price != nil) && !reOnDemand.MatchString(t):
		// "a 1-year commitment of 16 H100s at $1.85/hr — total annual
		// cost?", "3年包年 8张H800 每卡时12元 一共多少钱": the rate paid for
		// every hour of the term, totalled (price.go); the market and the
		// sourced term after
		if s.Committed != nil {
			req.Slots.Price, req.Slots.Committed = s.Committed, nil
		}
		req.Intent, req.Slots.Billing = parse.Price, ""
		req.Slots.Missing = nil
		return req, "a commitment's total at your rate", true
	case (s.Price != nil) != (s.Rent != nil) && s.Monthly == nil && s.Hours == 0 && !commit && reMachineRate.MatchString(t) &&
		(s.Rent == nil || !strings.Contains(t, "买") && !reBuyWord.MatchString(t)):
		// "node rate is $16/hr for the 8xH100 node, what is that per month
		// for 2 nodes?": the machine's rate, per card ÷ its cards (price.go)
		per, nodes := machineCards(req)
		if per < 2 {
			return req, "", false
		}
		if s.Rent != nil { // "整机每小时128元": a rent read for a purchase question, nothing bought
			req.Slots.Price, req.Slots.Rent = s.Rent, nil
		}
		req.Slots.Cards, req.Slots.QuotePer = per*nodes, "machine"
		if first == "money_monthly" || s.Billing == "monthly" || reAMonth.MatchString(t) {
			req.Slots.Hours = knowledge.HoursPerMonth
			req.Slots.Notes = append(req.Slots.Notes, "one month read as 730 hours")
		}
		req.Intent, req.Slots.Billing = parse.Price, ""
		req.Slots.Missing = nil
		return req, "a machine's hourly rate", true
	case len(s.GPUs) == 1 && len(s.Platforms) >= 2 && s.Price == nil && s.Monthly == nil && s.Hours == 0 && s.HoursPerMonth == 0 && s.GPUHours == 0 &&
		!commit && s.Billing != "monthly" && !strings.Contains(t, "包月") && (has(s.Targets, "money_monthly") || reAMonth.MatchString(t)):
		// "which one is cheapest per month for 4 cards: A100 on runpod,
		// lambda or vast?": a month (730 h) of the cards on each (price.go)
		req.Slots.Hours = knowledge.HoursPerMonth
		req.Slots.Notes = append(req.Slots.Notes, "one month read as 730 hours")
		req.Intent = parse.Price
		req.Slots.Missing = nil
		return req, "a month of the cards on the platforms named", true
	case len(s.GPUs) == 1 && s.Platform != "" && len(s.Platforms) < 2 && s.Price == nil && s.Monthly == nil && s.Hours == 0 && s.HoursPerMonth == 0 && s.Utilization == 0 &&
		!commit && reOnDemand.MatchString(t) && reMonthlyPlanAsked.MatchString(t) && reSaveAsked.MatchString(t):
		// "AutoDL上4090按量多少钱一小时？包月能省多少？": the on-demand rate
		// and the plan's saving at full-time use, its break-even (monthly.go)
		req.Slots.HoursPerMonth = knowledge.HoursPerMonth
		req.Slots.Notes = append(req.Slots.Notes, noteFullTime)
		req.Slots.Targets = []string{"price_per_card_hour", "saving", "break_even_hours"}
		req.Intent, req.Slots.Billing = parse.Monthly, ""
		req.Slots.Missing = nil
		return req, "on demand and the monthly plan's saving", true
	case commit && s.Price == nil && s.Committed == nil && !ownOnDemand && s.Hours == 0 && s.HoursPerMonth == 0 && s.Utilization == 0 &&
		(first == "" || first == "price_per_card_hour" || first == "money_total" && s.Cards == 0 && reRateWord.MatchString(t)) && rePriceAsked.MatchString(t) && !reOnDemand.MatchString(t):
		// "GCP a3-highgpu-8g 3-year CUD price in europe-west4?": the
		// sourced committed rate, on demand beside it (commit.go)
		req.Slots.Targets = []string{"price_per_card_hour"}
		req.Intent, req.Slots.Billing = parse.Monthly, ""
		req.Slots.Missing = nil
		return req, "a commitment's price", true
	}
	return req, "", false
}

var (
	// reMachineRate says an hourly price is a whole machine's.
	reMachineRate = regexp.MustCompile(`per node|a node\b|/node|node rate|node-hour|for the node|for the (?:whole )?(?:machine|server|instance)|per (?:machine|server|instance)\b|整机每小时|整机.{0,6}每小时|整机.{0,4}/(?:小时|h)|每台每小时|一台.{0,6}机器每小时|台时`)
	// reAMonth asks for a month.
	reAMonth = regexp.MustCompile(`per month|a month|each month|monthly|/mo\b|每月|每个月|一个月|一月`)
	// reSaveAsked asks what a plan saves.
	reSaveAsked = regexp.MustCompile(`省|划算|\bsave|saving|cheaper`)
	// rePriceAsked asks what something costs.
	rePriceAsked = regexp.MustCompile(`price|rate\b|cost\b|how much|多少钱|价格|什么价|报价|多少`)
	// reContractTotal asks for a contract's whole value.
	reContractTotal = regexp.MustCompile(`合同总额|总额|总价|总金额|一共|合计|总共|\btotal\b|contract value|altogether|in all`)
	// reRateWord names a rate, not a bill ("承诺价多少钱").
	reRateWord = regexp.MustCompile(`价|price|rate\b`)
	// reMachineSize is the cards in one machine: "8xH100", "8卡", "8-GPU".
	reMachineSize = regexp.MustCompile(`(\d+)\s?[x×]\s?[a-z]|(\d+)\s?(?:卡|张卡)|(\d+)[- ]?gpus?\b`)
	// reMachines is how many machines are asked about: "2 nodes", "3台".
	reMachines = regexp.MustCompile(`(\d+)\s?(?:nodes|machines|servers|instances|台)`)
)

// machineCards reads a machine's cards (those said, else the card count
// read, else 8 for a standard 8-GPU instance) and how many machines are
// asked about (1 when none is said).
func machineCards(req parse.Request) (perMachine, machines int) {
	t := strings.ToLower(req.Text)
	if m := reMachineSize.FindStringSubmatch(t); m != nil {
		for _, g := range m[1:] {
			if n, err := strconv.Atoi(g); err == nil && n > 0 {
				perMachine = n
				break
			}
		}
	}
	if perMachine == 0 {
		perMachine = cmpOrInt(req.Slots.Cards, 8)
	}
	machines = 1
	if m := reMachines.FindStringSubmatch(t); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
			machines = n
		}
	}
	return perMachine, machines
}

func cmpOrInt(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// fullTimeAssumed reports whether the planner weighed a monthly plan at
// full-time use because no hours were given.
func fullTimeAssumed(s parse.Slots) bool { return has(s.Notes, noteFullTime) }
