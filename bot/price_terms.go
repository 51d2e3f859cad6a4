package bot

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// Questions about sourced term rates (on demand, 1-year, 3-year) said in
// words, for whole nodes or cards, on the platforms named:
//
//	"monthly difference between p5 on-demand and a 1-year reserved for 4 nodes"
//	"Azure ND H100 v5 vs AWS p5 — which is cheaper on a 1-year reservation for 2 nodes?"
//	"H100 SXM on AWS: on-demand vs 1-yr vs 3-yr, per month for 8 cards"
//	"$500k monthly budget … how many H100s on a 1-yr reserved at Lambda's rate?"
//	"us-east-1 + eu-west-1: monthly on-demand cost of 2x p5.48xlarge per region"
//
// Each is the provider's own sourced row (advisor.SourcedTermRate) ×
// cards × hours; the planner moves them to price (plan_quotes.go) and
// price answers them here.

// cloudInstance is an instance type named in words: its platform, card and
// cards in one instance (reserved_prices.csv's instance rows).
type cloudInstance struct {
	re       *regexp.Regexp
	platform string
	gpu      string
	cards    int
}

var cloudInstances = []cloudInstance{
	{regexp.MustCompile(`\bp5(?:\.48xlarge)?(?:[^a-z0-9.]|$)`), "aws", "h100-sxm", 8},
	{regexp.MustCompile(`\bp4de(?:\.24xlarge)?\b`), "aws", "a100-80g", 8},
	{regexp.MustCompile(`\bp4d(?:\.24xlarge)?(?:[^a-z0-9]|$)`), "aws", "a100-40g", 8},
	{regexp.MustCompile(`\bnd\s?h100\s?v5\b|\bnd96isr`), "azure", "h100-sxm", 8},
	{regexp.MustCompile(`\ba3-(?:high|mega)gpu-8g\b`), "gcp", "h100-sxm", 8},
	{regexp.MustCompile(`\bbm\.gpu\.h100\.8\b`), "oracle", "h100-sxm", 8},
}

var (
	reTermOnDemand = regexp.MustCompile(`on[- ]?demand|按需|按量`)
	reTerm1y       = regexp.MustCompile(`\b1[- ]?(?:year|yr)\b|\bone[- ]year\b|一年|1年|包年`)
	reTerm3y       = regexp.MustCompile(`\b3[- ]?(?:years?|yrs?)\b|\bthree[- ]years?\b|三年|3年`)
	reReservedWord = regexp.MustCompile(`reserved|reservation|commit|savings plan|预留|承诺|包年|合约`)
	// reNodes is how many machines: "4 nodes", "4台", "4 instances".
	reNodes = regexp.MustCompile(`(\d+)\s?(?:nodes?|machines?|servers?|instances?|台|个节点|节点)`)
	// reNodesX is "2x p5.48xlarge": machines before an instance name.
	reNodesX = regexp.MustCompile(`(\d+)\s?[x×]\s?(?:aws\s+)?(?:p5|p4d|nd|a3-|bm\.)`)
	// rePerRegion says machines are counted in each region named.
	rePerRegion = regexp.MustCompile(`per region|each region|in each|every region|每个区域|每个地域|每个区|每区|各区域|各地域`)
	// reMoneyAsked asks what something costs or which is cheaper.
	reMoneyAsked = regexp.MustCompile(`cost|price|cheaper|difference|how much|how many|spend|bill|per month|monthly|a month|多少|便宜|差|省|费用|花|贵`)
	// reHowMany asks how many cards a budget keeps.
	reHowMany = regexp.MustCompile(`how many|多少张|几张|多少块|多少台|能养|能租`)
	// reYearAsked asks for a year's figure ("annualized", "每年").
	reYearAsked = regexp.MustCompile(`annuali[sz]ed|annual (?:cost|spend|bill|total)|per year|a year\b|each year|yearly|/\s?yr\b|每年|一年呢|一年多少|全年|年化|一年下来|一年要|一年花|一年共`)
)

// TermQuestion is a question about sourced term rates, as read.
type TermQuestion struct {
	Kind      string            `json:"kind"` // terms, platforms, budget, regions
	GPU       string            `json:"gpu"`
	Asks      []advisor.TermAsk `json:"asks"`
	Cards     int               `json:"cards"`
	Nodes     int               `json:"nodes,omitempty"` // machines said (0: cards said)
	PerNode   int               `json:"per_node,omitempty"`
	Hours     float64           `json:"hours"` // 730 a month, 8,760 a year
	Regions   []string          `json:"regions,omitempty"`
	Platforms []string          `json:"platforms"`
}

// readTermQuestion reads a term question; ok is false when the text is
// not one (own rates given, no platform, no term or cost asked).
func readTermQuestion(req parse.Request) (TermQuestion, bool) {
	s := req.Slots
	var q TermQuestion
	if !readOnly[req.Intent] || s.Price != nil || s.Rent != nil || s.Committed != nil || s.Monthly != nil || s.OnDemandMonthly != nil || s.Discount > 0 ||
		s.ParamsB > 0 || s.Model != "" || s.Arch != "" || s.Utilization > 0 || s.HoursPerMonth > 0 && s.HoursPerMonth < knowledge.HoursPerMonth {
		// a commitment weighed at a stated use is the commit answer's
		return q, false
	}
	t := strings.ToLower(req.Text)
	if !reMoneyAsked.MatchString(t) {
		return q, false
	}
	var inst *cloudInstance
	var instPlatforms []string
	for i := range cloudInstances {
		if cloudInstances[i].re.MatchString(t) {
			if inst == nil {
				inst = &cloudInstances[i]
			}
			instPlatforms = append(instPlatforms, cloudInstances[i].platform)
		}
	}
	switch {
	case len(s.GPUs) > 0:
		q.GPU = s.GPUs[0]
	case inst != nil:
		q.GPU = inst.gpu
	default:
		return q, false
	}
	q.Platforms = slices.Clone(s.Platforms)
	if len(q.Platforms) < 2 && s.Platform != "" && !slices.Contains(q.Platforms, s.Platform) {
		q.Platforms = append(q.Platforms, s.Platform)
	}
	for _, p := range instPlatforms {
		if !slices.Contains(q.Platforms, p) {
			q.Platforms = append(q.Platforms, p)
		}
	}
	if len(q.Platforms) == 0 {
		return q, false
	}
	var terms []string
	if reTermOnDemand.MatchString(t) {
		terms = append(terms, "on_demand")
	}
	if reTerm1y.MatchString(t) {
		terms = append(terms, "1y")
	}
	if reTerm3y.MatchString(t) {
		terms = append(terms, "3y")
	}
	commitTerms := slices.DeleteFunc(slices.Clone(terms), func(x string) bool { return x == "on_demand" })
	if len(commitTerms) == 0 && reReservedWord.MatchString(t) {
		commitTerms, terms = []string{"1y"}, append(terms, "1y") // "reserved" alone: a year
	}
	regions := uniq(reCloudRegion.FindAllString(t, -1))
	q.PerNode = 8
	if inst != nil {
		q.PerNode = inst.cards
	}
	if m := reNodesX.FindStringSubmatch(t); m != nil {
		q.Nodes, _ = strconv.Atoi(m[1])
	} else if m := reNodes.FindStringSubmatch(t); m != nil {
		q.Nodes, _ = strconv.Atoi(m[1])
	}
	switch {
	case s.Budget != nil && len(commitTerms) == 1 && len(q.Platforms) == 1 && reHowMany.MatchString(t):
		q.Kind = "budget"
		q.Asks = []advisor.TermAsk{{Platform: q.Platforms[0], Term: commitTerms[0]}}
	case s.Budget != nil:
		return q, false
	case len(regions) >= 2 && len(commitTerms) == 0 && len(q.Platforms) == 1:
		q.Kind, q.Regions = "regions", regions
		q.Asks = []advisor.TermAsk{{Platform: q.Platforms[0], Term: "on_demand"}}
	case len(q.Platforms) == 1 && len(terms) >= 2 && (len(terms) >= 3 || q.Nodes > 0):
		// on demand against one term for cards said stays the commit
		// answer's pair (its break-even); nodes, or all three terms, are
		// priced here
		q.Kind = "terms"
		for _, tm := range terms {
			q.Asks = append(q.Asks, advisor.TermAsk{Platform: q.Platforms[0], Term: tm})
		}
	case len(q.Platforms) >= 2 && len(commitTerms) == 1 && !slices.Contains(terms, "on_demand"):
		q.Kind = "platforms"
		for _, p := range q.Platforms {
			q.Asks = append(q.Asks, advisor.TermAsk{Platform: p, Term: commitTerms[0]})
		}
	default:
		return q, false
	}
	switch {
	case q.Nodes > 0:
		if q.Kind == "regions" && rePerRegion.MatchString(t) {
			q.Nodes *= len(q.Regions)
		}
		q.Cards = q.Nodes * q.PerNode
	case s.Cards > 0 && q.Kind != "regions":
		q.Cards = s.Cards
	case q.Kind == "budget":
	default:
		return q, false // no size said: the commit answer weighs one card
	}
	q.Hours = knowledge.HoursPerMonth
	if q.Kind == "platforms" && !reAMonth.MatchString(t) {
		q.Hours = 12 * knowledge.HoursPerMonth // a year's reservation, a year of it: 8,760 h
	}
	return q, true
}

func uniq(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// TermView is the answer to a term question.
type TermView struct {
	Question TermQuestion      `json:"question"`
	Currency string            `json:"currency"`
	Sheet    advisor.TermSheet `json:"sheet"`
	Budget   *TermBudget       `json:"budget,omitempty"`
	Closest  *advisor.TermRate `json:"closest,omitempty"` // the rate used when the platform asked has none
	Note     string            `json:"-"`
}

// TermBudget is the fleet a budget keeps on a sourced term rate, at the
// rate's high and low ends.
type TermBudget struct {
	Budget float64            `json:"budget"`
	Months float64            `json:"months"`
	Per    string             `json:"per"`
	AtHigh advisor.Affordable `json:"at_high"`
	AtLow  advisor.Affordable `json:"at_low"`
	Rate   advisor.TermRate   `json:"rate"`
}

// termAnswer answers a term question (readTermQuestion); ok is false when
// req is none.
func (b *Bot) termAnswer(_ context.Context, a *Answer, req parse.Request) (bool, error) {
	q, ok := readTermQuestion(req)
	if !ok {
		return false, nil
	}
	s := req.Slots
	cur, fx := b.currency(req), b.fx(s)
	v := TermView{Question: q, Currency: string(cur)}
	a.use("gpus", "the card")
	if q.Kind == "budget" {
		ask := q.Asks[0]
		r, found := advisor.SourcedTermRate(b.kb.Procurement.Reserved, q.GPU, ask.Term, ask.Platform, cur, fx)
		if !found {
			// none for the platform asked: the closest sourced, said
			cl, any := advisor.SourcedTermRate(b.kb.Procurement.Reserved, q.GPU, ask.Term, "", cur, fx)
			if !any {
				return false, nil
			}
			r, v.Closest = cl, &cl
		}
		budget := s.Budget.Amount
		if bc := knowledge.Currency(s.Budget.Currency); bc != "" && bc != cur {
			budget = advisor.Convert(budget, bc, cur, fx)
		}
		months, per := budgetMonths(req.Text)
		hi, lo := advisor.CardsForRange(budget, r.Low, r.High, knowledge.HoursPerMonth, months)
		v.Budget = &TermBudget{Budget: budget, Months: months, Per: per, AtHigh: hi, AtLow: lo, Rate: r}
		a.use("budget", "what the cards cost a month on the term, against it")
		a.use("platform", "whose sourced term rate")
		a.use("years", "the term whose sourced rate is used")
		a.use("targets", "the cards the budget keeps running")
		a.use("yes_no", "the cards the budget keeps running")
	} else {
		v.Sheet = advisor.PriceTerms(b.kb.Procurement.Reserved, q.GPU, q.Asks, q.Cards, q.Hours, cur, fx)
		a.use("cards", "the cards priced: nodes × cards in one, or the cards said")
		a.use("platform", "the platforms priced")
		a.use("platforms", "the platforms priced")
		a.use("years", "the term priced")
		a.use("targets", "the terms or platforms compared")
		a.use("hours", "every hour of the month")
		a.use("hours_per_month", "every hour of the month")
		a.use("billing", "the terms priced")
		if q.Nodes > 0 && s.Samples == float64(q.Nodes) {
			// "4 instances" is read as samples by the parser; here they are machines
			a.use("samples", "the machines: nodes × cards in one")
		}
		if q.Kind == "regions" {
			a.use("region", "the regions named: the sourced rate's region said")
		}
	}
	a.Intent = "price"
	a.Result = v
	a.Currency = string(cur)
	a.show(renderTerms(a.Lang, v))
	return true, nil
}
