package bot

import (
	"context"
	"fmt"
	"github.com/gpubot/gpubot/bot/present"
	"math"
	"regexp"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// Words that make a buy or monthly question a commitment question.
var commitWords = []string{"reserved", "reservation", "savings plan", "committed use", "commit ", "commitment", "包年", "预留", "1-yr", "3-yr", "1yr", "3yr", "1-year", "3-year", "1 year", "3 year",
	"包一年", "包三年", "三年承诺", "一年承诺", "承诺价", "承诺使用", " cud ", "yearly plan", "yearly commitment", "annual plan", "annual commitment", "annual contract", "一年期",
	"one-year", "three-year", "one year", "three year", "1 yr", "3 yr", "三年期", "签一年", "签三年", "签1年", "签3年", "签了一年", "签了三年", "一年的合约", "一年合约", "三年的合约", "三年合约", "年度合约", "1-year contract", "one-year contract", "1 year contract", "3-year contract"}

func asksCommit(text string) bool { return hasAny(text+" ", commitWords) }

// commitTerm reads the term: three years, else one year (包年, 1-yr,
// reserved), else monthly (包月 asked beside a commitment).
func commitTerm(text string) string {
	t := strings.ToLower(text)
	switch {
	case hasAny(t, []string{"3-yr", "3yr", "3 yr", "3-year", "3 year", "3 years", "three-year", "three year", "3年", "三年"}):
		return "3y"
	case hasAny(t, []string{"包年", "1-yr", "1yr", "1 yr", "1-year", "1 year", "one-year", "one year", "1年", "一年", "yearly", "annual", "reserved", "savings plan", "committed use", "commit"}):
		return "1y"
	case strings.Contains(t, "包月"):
		return "monthly"
	}
	return ""
}

// CommitView is the commit answer's result. Per and Asked say what the
// question asked first: the saving over a month, a year or the term
// (SavingMonthly, SavingYearly, Saving), or the break-even utilisation.
type CommitView struct {
	advisor.CommitResult
	Per   string `json:"saving_per,omitempty"` // month, year or term
	Asked string `json:"asked,omitempty"`      // saving, break_even_util, or "" (the choice)
}

func (b *Bot) commit(ctx context.Context, a *Answer, req parse.Request) error {
	s := req.Slots
	in := advisor.CommitInput{
		GPU: firstGPU(s), Cards: s.Cards, Term: commitTerm(req.Text), Utilization: s.Utilization, HoursPerMonth: s.HoursPerMonth,
		Currency: b.currency(req), FX: b.fx(s), Reserved: b.kb.Procurement.Reserved, CN: b.kb.Procurement.CNCloud,
		PreferCN: preferCN(req), Platform: s.Platform,
	}
	used := givenCommitPrices(&in, s)
	ownRates := in.OnDemand.Given() || in.OnDemandMonthly.Given()
	ownRates = ownRates && (in.Committed.Given() || in.CommittedHourly.Given() || in.Discount > 0)
	var fullUse string
	if ownRates && in.Utilization == 0 && in.HoursPerMonth >= 720 {
		// "for 30 days", "24/7": every hour of the month, a 730-hour
		// month (8,760 h ÷ 12) as the term is counted in
		fullUse = tr(a.Lang,
			fmt.Sprintf("%s h a month read as full use: every hour, counted as 730-hour months (8,760 h a year ÷ 12).", fmtNum(in.HoursPerMonth)),
			fmt.Sprintf("每月 %s 小时按满负荷计：每小时都在用，按每月 730 小时（一年 8,760 小时 ÷ 12）计算。", fmtNum(in.HoursPerMonth)))
		in.HoursPerMonth, in.Utilization = 0, 1
	}
	if in.Utilization == 0 && in.HoursPerMonth == 0 && s.GPUHours > 0 && reYearlyUsage.MatchString(strings.ToLower(req.Text)) {
		// "我们一年大概用5000卡时": card-hours a year over the cards committed
		in.HoursPerMonth = s.GPUHours / float64(max(s.Cards, 1)) / 12
		a.use("gpu_hours", "your card-hours a year ÷ 12 ÷ cards = hours a month per card")
	}
	if in.GPU == "" && !ownRates {
		// both rates the user's own are the whole sum: no card needed
		return &advisor.InputError{Field: "gpu", Reason: tr(a.Lang, "which card would you commit to? name one", "想包哪张卡？请指明型号"), Hint: "/gpu buy h100 cards=16 util=70% 1y reserved"}
	}
	if g, ok := b.kb.GPU(in.GPU); ok {
		in.GPU = g.ID
	}
	res, err := advisor.Commit(in)
	var note string
	if in.PreferCN && (err != nil || !res.Chosen.CN) {
		// A team in China asking about "A100": a Chinese platform that
		// sells only the 40GB card answers from its own rows.
		for _, fam := range cardVariants {
			for _, v := range fam {
				if v == in.GPU || !containsStr(fam, in.GPU) {
					continue
				}
				alt := in
				alt.GPU = v
				if r2, err2 := advisor.Commit(alt); err2 == nil && r2.Chosen.CN {
					note = tr(a.Lang, fmt.Sprintf("No Chinese platform prices %s with a plan; %s is used.", gpuName(in.GPU), gpuName(v)),
						fmt.Sprintf("国内平台没有 %s 的包月/包年价，改用 %s。", gpuName(in.GPU), gpuName(v)))
					res, err = r2, nil
				}
			}
		}
	}
	if err != nil && len(res.Pairs) == 0 && !in.OnDemand.Given() && !in.OnDemandMonthly.Given() && (in.Committed.Given() || in.CommittedHourly.Given()) {
		// your committed price and no on-demand one, none sourced beside
		// it: the market's cheapest on-demand offer is the other side, said
		if od, ok := b.cheapestOnDemand(ctx, in); ok {
			alt := in
			alt.OnDemand = advisor.Money{Amount: od.Low, Currency: alt.Currency}
			if r2, err2 := advisor.Commit(alt); err2 == nil {
				in, res, err = alt, r2, nil
				note = tr(a.Lang,
					fmt.Sprintf("No on-demand price given: the market's cheapest on-demand offer is used, %s/card-h (%s, %s).", moneyStr(od.Low, string(res.Currency)), platformName(a.Lang, od.Platform), od.ObservedAt),
					fmt.Sprintf("没给按需价：用市场上最便宜的按需报价 %s/卡时（%s，%s）。", moneyStr(od.Low, string(res.Currency)), platformName(a.Lang, od.Platform), od.ObservedAt))
			}
		}
	}
	if err != nil && len(res.Pairs) == 0 && !in.OnDemand.Given() && !in.Committed.Given() && !in.CommittedHourly.Given() && !in.OnDemandMonthly.Given() {
		// No sourced term price for the card (H20, A800, H200 1-year):
		// said plainly, with what on demand costs over the term.
		if gap, ok := b.commitGap(ctx, in, res); ok {
			a.Intent = "commit"
			for k, how := range used {
				a.use(k, how)
			}
			a.Result = gap
			a.Currency = string(gap.Currency)
			a.show(renderCommitGap(a.Lang, gap, a.Assumed))
			return nil
		}
	}
	if err != nil {
		return err
	}
	if in.Platform != "" && res.Chosen.Provider != "" && res.Chosen.Provider != "given" && !advisor.OnPlatform(res.Chosen, in.Platform) && note == "" {
		// "Azure … 3-yr reserved": no sourced Azure pair for this card and
		// term; the nearest sourced one answers, and says whose it is
		note = tr(a.Lang, fmt.Sprintf("No sourced %s term for %s on %s; %s's is used.", res.Inputs.Term, gpuName(in.GPU), platformName(a.Lang, in.Platform), res.Chosen.Provider),
			fmt.Sprintf("%s 上没有 %s 的 %s 期限价（有出处的），改用 %s 的。", platformName(a.Lang, in.Platform), gpuName(in.GPU), res.Inputs.Term, res.Chosen.Provider))
	}
	a.Intent = "commit"
	for _, d := range res.Inputs.Defaulted {
		switch d {
		case "term":
			a.Assumed["term"] = res.Inputs.Term
		case "cards":
			a.Assumed["cards"] = 1
		case "utilization":
			a.Assumed["utilization"] = 1
		}
	}
	for k, how := range used {
		a.use(k, how)
	}
	ask := askedOfCommit(req)
	view := CommitView{CommitResult: res, Per: ask.per}
	if len(s.Targets) > 0 && s.Targets[0] == "price_per_card_hour" && res.Chosen.Provider != "given" {
		// "GCP a3-highgpu-8g 3-year CUD price in europe-west4?": the
		// committed rate first, on demand and the other term beside it, and
		// the region it is sourced for
		cp := b.commitPrice(a, req, in, res)
		a.Result = view
		a.Currency = string(res.Currency)
		a.show(renderCommitPrice(a.Lang, res, cp, a.Assumed, note))
		return nil
	}
	switch {
	case ask.breakeven:
		view.Asked = "break_even_util"
	case ask.per != "term" || ask.total:
		view.Asked = "saving" // "save per month", "annual difference", "total commitment and savings"
	}
	a.Result = view
	a.Currency = string(res.Currency)
	a.show(renderCommit(a.Lang, res, a.Assumed, ask, note, fullUse))
	return nil
}

// reYearlyUsage says usage is counted a year ("一年大概用5000卡时").
var reYearlyUsage = regexp.MustCompile(`一年|每年|全年|a year|per year|/yr|annually|yearly`)

func containsStr(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// givenCommitPrices reads the user's own prices into a commitment: the
// on-demand rent (rent=, or price= beside a monthly figure or a committed
// rate) per card-hour, the committed price (monthly=) per card-month, the
// committed rate per card-hour, the on-demand bill a month and the
// discount off on demand. A buy question reads "包年折合每卡每月 ¥2,900" as
// price=: a figure under 1.5 × a full month of the stated hourly rent is a
// monthly price, not a purchase. Prices quoted per machine ("¥200/台时",
// "8卡包月5.6万") are divided by its cards.
func givenCommitPrices(in *advisor.CommitInput, s parse.Slots) map[string]string {
	used := map[string]string{}
	in.OnDemand, in.Committed = money(s.Rent), money(s.Monthly)
	in.CommittedHourly, in.OnDemandMonthly, in.Discount = money(s.Committed), money(s.OnDemandMonthly), s.Discount
	if in.OnDemand.Given() {
		used["rent"] = "the on-demand price"
	}
	if in.Committed.Given() {
		used["monthly"] = "the committed price per month"
	}
	if in.CommittedHourly.Given() {
		used["committed"] = "the committed rate per card-hour, paid for every hour of the term"
		if in.Committed.Given() {
			in.Committed = advisor.Money{} // the rate per card-hour wins: monthly is reported not used
			delete(used, "monthly")
		}
	}
	if !in.OnDemand.Given() && s.Price != nil && (s.Monthly != nil || s.Committed != nil || s.Discount > 0) {
		in.OnDemand = money(s.Price)
		used["price"] = "the on-demand price"
	}
	if !in.Committed.Given() && !in.CommittedHourly.Given() && s.Price != nil && in.OnDemand.Given() && s.Price != s.Rent &&
		s.Price.Amount <= 1.5*knowledge.HoursPerMonth*in.OnDemand.Amount && s.Price.Amount > in.OnDemand.Amount {
		in.Committed = money(s.Price)
		used["price"] = "the committed price per month"
	}
	if in.OnDemandMonthly.Given() {
		if in.OnDemand.Given() {
			in.OnDemandMonthly = advisor.Money{} // the rate per card-hour wins: the bill is reported not used
		} else {
			used["on_demand_monthly"] = "the on-demand bill a month, ÷ the cards and their hours = the on-demand rate"
			if s.QuotePer == "card" && s.Cards > 1 {
				in.OnDemandMonthly.Amount *= float64(s.Cards) // a card's month, for all of them
			}
		}
	}
	if in.Discount > 0 {
		if in.Committed.Given() || in.CommittedHourly.Given() {
			in.Discount = 0 // your committed price wins: the discount is reported not used
		} else {
			used["discount"] = "the committed price: on demand × (1 − the discount)"
		}
	}
	switch {
	case s.QuotePer == "machine" && s.Cards > 1 && len(used) > 0 && (in.Committed.Given() || s.Monthly != nil):
		// normalizeQuotes already made a machine's month per card (and its
		// hourly, when it is the machine's too): dividing here again made
		// "8x H100 node at $14,000 a month … $2.50 per GPU-hour" $0.3/card-h
		used["quote_per"] = "a machine's prices, per card (see the notes)"
	case s.QuotePer != "" && len(used) > 0:
		used["quote_per"] = "prices per card"
	}
	return used
}

// CommitGap is a commitment asked about a card no sourced row prices under
// that term: the on-demand price instead, and what it comes to over the
// term at the stated usage.
type CommitGap struct {
	GPU        string             `json:"gpu"`
	Term       string             `json:"term"` // 1y, 3y, monthly
	NoTerm     bool               `json:"no_term_price"`
	OnDemand   advisor.CardPrice  `json:"on_demand"` // the cheapest uninterruptible on-demand offer
	Cards      int                `json:"cards"`
	Hours      float64            `json:"hours_per_month"` // per card
	Months     int                `json:"months"`
	TermCost   float64            `json:"on_demand_over_term"`
	Currency   knowledge.Currency `json:"currency"`
	Defaulted  []string           `json:"defaulted,omitempty"`
	HowCounted string             `json:"how"`
}

// commitGap prices the term on demand when no term price is sourced; ok is
// false when the card has no uninterruptible on-demand offer either.
func (b *Bot) commitGap(ctx context.Context, in advisor.CommitInput, res advisor.CommitResult) (CommitGap, bool) {
	cur, fx := in.Currency, in.FX
	if cur == "" {
		cur = knowledge.USD
	}
	if fx <= 0 {
		fx = advisor.DefaultCNYPerUSD
	}
	od, found := b.cheapestOnDemand(ctx, in)
	if !found {
		return CommitGap{}, false
	}
	g := CommitGap{GPU: in.GPU, Term: cmpOr(in.Term, "1y"), NoTerm: true, Cards: max(in.Cards, 1), Currency: cur, OnDemand: od}
	if in.Term == "" {
		g.Defaulted = append(g.Defaulted, "term")
	}
	if in.Cards == 0 {
		g.Defaulted = append(g.Defaulted, "cards")
	}
	switch {
	case in.HoursPerMonth > 0:
		g.Hours = in.HoursPerMonth
	case in.Utilization > 0:
		g.Hours = advisor.Round2(in.Utilization * knowledge.HoursPerMonth)
	default:
		g.Hours = knowledge.HoursPerMonth
		g.Defaulted = append(g.Defaulted, "utilization")
	}
	g.Months = map[string]int{"1y": 12, "3y": 36, "monthly": 1}[g.Term]
	// on demand over the term = price per card-hour × hours a month × cards × months
	g.TermCost = advisor.Round2(g.OnDemand.Low * g.Hours * float64(g.Cards) * float64(g.Months))
	g.HowCounted = fmt.Sprintf("%s × %s h × %d cards × %d months", fmtNum(g.OnDemand.Low), fmtNum(g.Hours), g.Cards, g.Months)
	return g, true
}

// cheapestOnDemand is the card's cheapest uninterruptible on-demand
// offer (no plan, no package, no market range) in the commitment's
// currency; ok is false when it has none.
func (b *Bot) cheapestOnDemand(ctx context.Context, in advisor.CommitInput) (advisor.CardPrice, bool) {
	cur, fx := in.Currency, in.FX
	if cur == "" {
		cur = knowledge.USD
	}
	if fx <= 0 {
		fx = advisor.DefaultCNYPerUSD
	}
	m := b.market(ctx)
	// the sourced rows no catalogue offer carries (优云智算's H20) count too
	list, err := advisor.Offers(in.GPU, append(append([]knowledge.Offer(nil), m.Offers...), m.Rows...), cur, fx)
	if err != nil {
		return advisor.CardPrice{}, false
	}
	for _, cp := range list.Offers { // cheapest first
		if !cp.Interruptible && !cp.Monthly && !cp.Package && !advisor.IsMarketRange(cp.Platform) {
			return cp, true
		}
	}
	return advisor.CardPrice{}, false
}

// planOnTerm prices a serving plan's cards on a sourced commitment (the
// term the question names, 1 year when it names none), busy every hour
// as an always-on service is. ok is false when no term is sourced.
func (b *Bot) planOnTerm(req parse.Request, gpu string, cards int, cur knowledge.Currency) (advisor.CommitResult, bool) {
	s := req.Slots
	in := advisor.CommitInput{
		GPU: gpu, Cards: cards, Term: cmpOr(commitTerm(req.Text), "1y"), Utilization: 1,
		Currency: cur, FX: b.fx(s), Reserved: b.kb.Procurement.Reserved, CN: b.kb.Procurement.CNCloud,
		PreferCN: preferCN(req), Platform: s.Platform,
	}
	if in.Term == "monthly" {
		in.Term = "1y" // "包月" beside a commitment word: the year's plans
	}
	cr, err := advisor.Commit(in)
	return cr, err == nil
}

// withPlanTerm adds the plan's cards on the commitment to its headline:
// the month committed, weighed against the on-demand month the answer
// shows (whichever is cheaper, by how much). Whose term it is is said: a
// term from another provider than the on-demand price is a different
// sheet.
func withPlanTerm(lang string, d present.Doc, onDemandMonthly float64, cur string, cr advisor.CommitResult) present.Doc {
	term := map[string][2]string{"1y": {"a 1-year commitment", "包年（1 年）"}, "3y": {"a 3-year commitment", "3 年承诺"}}[cr.Inputs.Term]
	pt := advisor.WeighPlanTerm(onDemandMonthly, cr)
	who := tr(lang, fmt.Sprintf("%s's term, %s/card-h", cr.Chosen.Provider, moneyStr(cr.Chosen.Committed, cur)),
		fmt.Sprintf("%s 的条款，%s/卡时", cr.Chosen.Provider, moneyStr(cr.Chosen.Committed, cur)))
	if pt.Cheaper == "commit" {
		d.Headline += tr(lang,
			fmt.Sprintf("; on %s (%s) %s a month, %s a month less than on demand above", term[0], who, moneyStr(pt.CommittedMonthly, cur), moneyStr(pt.Difference, cur)),
			fmt.Sprintf("；%s（%s）每月 %s，比上面的按需每月省 %s", term[1], who, moneyStr(pt.CommittedMonthly, cur), moneyStr(pt.Difference, cur)))
	} else {
		d.Headline += tr(lang,
			fmt.Sprintf("; on %s (%s) %s a month, %s a month more than on demand above — stay on demand", term[0], who, moneyStr(pt.CommittedMonthly, cur), moneyStr(pt.Difference, cur)),
			fmt.Sprintf("；%s（%s）每月 %s，比上面的按需每月还贵 %s——继续按需", term[1], who, moneyStr(pt.CommittedMonthly, cur), moneyStr(pt.Difference, cur)))
	}
	if same := advisor.TermMonthly(cr); same.OnDemandMonthly > 0 && math.Abs(same.OnDemandMonthly-pt.OnDemandMonthly) > 0.2*same.OnDemandMonthly {
		// the term's own sheet prices on demand otherwise: said, with the
		// difference on that one sheet
		en, zh := "saves %s a month", "每月省 %s"
		if same.Cheaper == "on_demand" {
			en, zh = "costs %s a month more", "每月多花 %s"
		}
		diff := moneyStr(same.Difference, cur)
		d.Summary = append([]string{tr(lang,
			fmt.Sprintf("%s's term sheet lists on demand at %s/card-h (%s a month for these cards): on that one sheet the commitment "+fmt.Sprintf(en, diff)+".", cr.Chosen.Provider, moneyStr(cr.Chosen.OnDemand, cur), moneyStr(same.OnDemandMonthly, cur)),
			fmt.Sprintf("%s 的条款表里按需为 %s/卡时（这些卡每月 %s）：按同一张表，承诺"+fmt.Sprintf(zh, diff)+"。", cr.Chosen.Provider, moneyStr(cr.Chosen.OnDemand, cur), moneyStr(same.OnDemandMonthly, cur)))}, d.Summary...)
	}
	var wk working
	wk.result(lang, cr.Lines, cr.Assumptions, nil)
	d.Working = append(d.Working, wk...)
	return d
}

// noPlanTerm says a commitment asked beside a serving plan has no sourced
// price for the card, so the month on demand stands alone.
func noPlanTerm(lang string, d present.Doc, gpu, term string) present.Doc {
	name := map[string][2]string{"3y": {"3-year", "3 年"}}[term]
	if name[0] == "" {
		name = [2]string{"1-year", "包年（1 年）"}
	}
	d.Summary = append([]string{tr(lang,
		fmt.Sprintf("No sourced %s price for %s, so the commitment is not weighed: ask the platform for its committed price and give it as monthly= (per card-month).", name[0], gpuName(gpu)),
		fmt.Sprintf("数据里没有 %s 的%s价（有出处的），所以没有比较承诺价：请向平台要报价，用 monthly=（每卡每月）给出。", gpuName(gpu), name[1]))}, d.Summary...)
	return d
}

// preferCN reports whether a commitment question is a Chinese team's (its
// Chinese clouds' terms first).
func preferCN(req parse.Request) bool { return present.LangOf(req.Lang) == present.ZH }

// reMonthlyPlanAsked asks whether a monthly plan (包月) is cheaper for a
// service that runs all month.
var reMonthlyPlanAsked = regexp.MustCompile(`包月|monthly plan|monthly deal|monthly reserved|month-to-month plan`)

// planOnMonthly prices a serving plan's cards on the card's monthly plan
// for every hour of the month (the plan's own platform first, else the
// cheapest plan anywhere). ok is false when no plan is sourced.
func (b *Bot) planOnMonthly(req parse.Request, m advisor.Market, gpu string, cards int, cur knowledge.Currency) (advisor.MonthlyResult, bool) {
	in := advisor.MonthlyInput{GPU: gpu, Cards: cards, HoursPerMonth: knowledge.HoursPerMonth, Platform: req.Slots.Platform, Currency: cur, FX: b.fx(req.Slots)}
	r, err := advisor.Monthly(in, m)
	if err != nil && in.Platform != "" {
		in.Platform = ""
		r, err = advisor.Monthly(in, m)
	}
	return r, err == nil && r.MonthlyCost > 0
}

// withPlanMonthly adds the plan's cards on a monthly plan to its headline,
// weighed against the on-demand month the answer shows.
func withPlanMonthly(lang string, d present.Doc, onDemandMonthly float64, cur string, r advisor.MonthlyResult) present.Doc {
	pt := advisor.WeighPlanTerm(onDemandMonthly, advisor.CommitResult{CommittedMonthly: r.MonthlyCost})
	if pt.Cheaper == "commit" {
		d.Headline += tr(lang,
			fmt.Sprintf("; on monthly plans (%s a card-month) %s a month, %s less than on demand above", moneyStr(r.MonthlyPrice, cur), moneyStr(r.MonthlyCost, cur), moneyStr(pt.Difference, cur)),
			fmt.Sprintf("；包月（每卡每月 %s）每月 %s，比上面的按需每月省 %s", moneyStr(r.MonthlyPrice, cur), moneyStr(r.MonthlyCost, cur), moneyStr(pt.Difference, cur)))
	} else {
		d.Headline += tr(lang,
			fmt.Sprintf("; on monthly plans (%s a card-month) %s a month, %s more than on demand above — stay on demand", moneyStr(r.MonthlyPrice, cur), moneyStr(r.MonthlyCost, cur), moneyStr(pt.Difference, cur)),
			fmt.Sprintf("；包月（每卡每月 %s）每月 %s，比上面的按需每月还贵 %s——继续按需", moneyStr(r.MonthlyPrice, cur), moneyStr(r.MonthlyCost, cur), moneyStr(pt.Difference, cur)))
	}
	var wk working
	wk.result(lang, r.Lines, r.Assumptions, r.Sources)
	d.Working = append(d.Working, wk...)
	return d
}

// CommitPrice is what a commitment's price question is answered with
// besides the result: the other term's sourced rate on the same platform,
// and the region asked against the region the rate is sourced for.
type CommitPrice struct {
	Other       *advisor.CommitPair // the other term (1y beside 3y, 3y beside 1y), nil when none
	RegionAsked string              // as written ("europe-west4"), "" when none
	RegionRow   string              // the sourced row's region ("us-central1")
	Asked       string              // the term asked: 1y or 3y
	// Platform is the platform asked when it has no sourced pair for the
	// term asked (the chosen pair is another's); OnPlatform is its pair
	// for the other term, nil when none.
	Platform   string
	OnPlatform *advisor.CommitPair
}

// reCloudRegion is a cloud region as written: "europe-west4", "us-east-1".
var reCloudRegion = regexp.MustCompile(`\b(?:us|europe|asia|me|africa|australia|northamerica|southamerica|eu|ap|sa|ca|cn)-[a-z]+-?\d\b`)

// commitPrice finds the other term's rate and the regions for a
// commitment's price question.
func (b *Bot) commitPrice(a *Answer, req parse.Request, in advisor.CommitInput, res advisor.CommitResult) CommitPrice {
	cp := CommitPrice{Asked: cmpOr(in.Term, res.Inputs.Term)}
	other := map[string]string{"1y": "3y", "3y": "1y"}[res.Chosen.Term]
	if in.Platform != "" && !advisor.OnPlatform(res.Chosen, in.Platform) {
		// "AWS p5 3-year price?" with no AWS 3-year row: said, and AWS's
		// other term when it has one
		cp.Platform = in.Platform
		alt := in
		alt.Term = other
		if r2, err := advisor.Commit(alt); err == nil && advisor.OnPlatform(r2.Chosen, in.Platform) {
			cp.OnPlatform = &r2.Chosen
		}
	} else if other != "" {
		alt := in
		alt.Term = other
		if r2, err := advisor.Commit(alt); err == nil && r2.Chosen.Term == other && r2.Chosen.Provider == res.Chosen.Provider {
			cp.Other = &r2.Chosen
		}
	}
	for _, row := range b.kb.Procurement.Reserved {
		if row.Provider == res.Chosen.Provider && row.Instance == res.Chosen.Instance && row.Term == res.Chosen.Term {
			cp.RegionRow = row.Region
			break
		}
	}
	cp.RegionAsked = reCloudRegion.FindString(strings.ToLower(req.Text))
	if cp.RegionAsked == "" && req.Slots.Region != "" {
		n := areaName(req.Slots.Region)
		cp.RegionAsked = tr(a.Lang, n[0], n[1])
	}
	if cp.RegionAsked != "" {
		a.use("region", "said: the region the sourced rate is for")
	}
	return cp
}
