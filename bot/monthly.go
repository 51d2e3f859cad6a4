package bot

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// referenceGPU answers "包月划算吗" when the question names no card and the
// team has no usage yet: the card the seed documents price most often.
const referenceGPU = "rtx4090"

func (b *Bot) monthly(ctx context.Context, msg Message, a *Answer, req parse.Request) error {
	if asksCommit(req.Text) { // "包年还是按量 A100 每月500小时" (commit.go)
		return b.commit(ctx, a, req)
	}
	s := req.Slots
	if len(s.GPUs) == 1 && len(s.Platforms) >= 2 && s.Monthly == nil && s.HoursPerMonth == 0 && s.Hours == 0 && asksPlanPrice(req.Text) {
		return b.planPrices(ctx, a, req) // "4090 包月多少钱？AutoDL 和恒源云哪个便宜？"
	}
	if asksPlanPrice(req.Text) && s.HoursPerMonth == 0 && s.Hours == 0 && s.Utilization == 0 && s.Monthly == nil && s.Price == nil && len(s.GPUs) > 0 {
		// "Tencent Cloud A100 monthly plan price?": the plan's price, as
		// "腾讯云 A100 包月多少钱" is answered, not whether it pays.
		req.Slots.Billing = "monthly"
		a.Intent = parse.Price
		return b.price(ctx, a, req)
	}
	in := advisor.MonthlyInput{
		GPU: firstGPU(s), Platform: s.Platform, HoursPerMonth: s.HoursPerMonth,
		Cards: s.Cards, Hourly: money(s.Price), Monthly: money(s.Monthly),
		Currency: b.currency(req), FX: b.fx(s),
	}
	if in.HoursPerMonth == 0 {
		in.HoursPerMonth = s.Hours
	}
	if hi, ok := hoursRange(req.Text, in.HoursPerMonth); ok {
		in.HoursPerMonthHigh = hi // "有的月200小时有的月600小时": both ends
	}
	var notes []string
	if in.HoursPerMonth == 0 {
		if u, ok := b.teamUsage(ctx, msg, in.GPU); ok {
			cards := max(u.Cards, 1)
			in.GPU = u.GPU
			in.HoursPerMonth = advisor.Round2(u.CardHours / float64(cards))
			a.Assumed["hours_per_month"] = in.HoursPerMonth
			notes = append(notes, tr(a.Lang,
				fmt.Sprintf("Hours from your team's last 30 days: %s ran %s card-hours on %d card(s), %s h per card.", gpuName(u.GPU), fmtNum(u.CardHours), cards, fmtNum(in.HoursPerMonth)),
				fmt.Sprintf("小时数取自团队最近 30 天的记账：%s 共 %s 卡时、%d 张卡，每卡 %s 小时。", gpuName(u.GPU), fmtNum(u.CardHours), cards, fmtNum(in.HoursPerMonth))))
		}
	}
	m, personaNote := b.personaMarket(ctx, a, req, b.market(ctx)) // an enterprise: contracted clouds only (price_persona.go)
	if in.GPU != "" && (s.ParamsB > 0 || s.Model != "" || s.Arch != "") {
		// "部署Qwen2.5-72B，用4090，24小时常驻": as many of the card as hold the model
		if fit, err := b.mkt.Fit(workload(s), []knowledge.GPU{b.gpuOrZero(in.GPU)}); err == nil && len(fit.Options) > 0 {
			if need := fit.Options[0].Count; need > in.Cards {
				if in.Cards > 0 {
					notes = append(notes, tr(a.Lang,
						fmt.Sprintf("%d× %s cannot hold the model (≈%s GB): priced on the %d it needs.", in.Cards, gpuName(in.GPU), fmtNum(fit.TotalGB), need),
						fmt.Sprintf("%d 张 %s 放不下这个模型（约需 %s GB）：按需要的 %d 张计算。", in.Cards, gpuName(in.GPU), fmtNum(fit.TotalGB), need)))
				} else {
					notes = append(notes, tr(a.Lang,
						fmt.Sprintf("The model needs ≈%s GB: %d× %s hold it.", fmtNum(fit.TotalGB), need, gpuName(in.GPU)),
						fmt.Sprintf("模型约需 %s GB：需要 %d 张 %s。", fmtNum(fit.TotalGB), need, gpuName(in.GPU))))
				}
				in.Cards = need
				a.use("cards", "raised to the cards that hold the model")
			}
			a.use("params_b", "the cards that hold the model")
			a.use("model", "the cards that hold the model")
			a.use("method", "the cards that hold the model")
			a.use("bits", "the cards that hold the model")
		}
	}
	if in.GPU == "" && (s.ParamsB > 0 || s.Model != "" || s.Arch != "") {
		// "阿里云上部署Qwen2.5-72B，一天24小时常驻，每月多少钱？包月更划算吗？":
		// the cards that hold the model, the cheapest month of them
		if gpu, count, need, ok := b.cardsForModel(in, s, m); ok {
			in.GPU = gpu
			if in.Cards < count {
				if in.Cards > 0 {
					notes = append(notes, tr(a.Lang,
						fmt.Sprintf("%d cards of %s cannot hold the model: priced on the %d it needs.", in.Cards, gpuName(gpu), count),
						fmt.Sprintf("%d 张 %s 放不下这个模型：按需要的 %d 张计算。", in.Cards, gpuName(gpu), count)))
				}
				in.Cards = count
			}
			a.Assumed["gpu"] = gpu
			a.use("params_b", "the cards that hold the model")
			a.use("model", "the cards that hold the model")
			a.use("method", "the cards that hold the model")
			a.use("bits", "the cards that hold the model")
			notes = append(notes, tr(a.Lang,
				fmt.Sprintf("No card named: the model needs ≈%s GB, held by %d× %s — the cheapest month of the cards that hold it; name a card to compare another.", fmtNum(need), in.Cards, gpuName(gpu)),
				fmt.Sprintf("没指定显卡：模型约需 %s GB，用 %d 张 %s 放得下——放得下的卡里这种每月最便宜；想看别的卡请写明型号。", fmtNum(need), in.Cards, gpuName(gpu))))
		}
	}
	if in.GPU == "" {
		in.GPU = referenceGPU
		a.Assumed["gpu"] = referenceGPU
		notes = append(notes, tr(a.Lang,
			"No card named, so this is for the RTX 4090, the card the catalogue prices most often. Ask precisely with: /gpu monthly h100 @autodl 120h",
			"没指定显卡，按目录里报价最多的 RTX 4090 计算。想问得更准，可以这样问：/gpu monthly h100 @autodl 120h"))
	}
	if personaNote != "" {
		notes = append(notes, personaNote)
		notePersona(a, personaNote)
	}
	res, err := nativeFirst(&advisor.OfferFilter{}, func() (advisor.MonthlyResult, error) { return advisor.Monthly(in, m) })
	var noPlan *advisor.InputError
	if errors.As(err, &noPlan) && noPlan.Field == "monthly" {
		// No plan for the card anywhere. A card named without its variant
		// ("腾讯云 A100") is answered on a variant that has a plan, said; a
		// variant named ("A100 80G") never is: the on-demand half, with
		// what a plan must cost to pay.
		if alt, r2, ok := variantPlan(in, m); ok && !variantNamed(req.Text, in.GPU) {
			res, err = r2, nil
			en, zh := "plan and on-demand price both", "包月价和按需价都是它的"
			if s.Price != nil {
				en, zh = "its plan against your rate", "用它的包月价对比你给的按需价"
			}
			notes = append(notes, tr(a.Lang,
				fmt.Sprintf("The %s was named without its variant and no plan is sourced for it: this is the %s (%s); say the memory (e.g. 80G) for the %s alone.", gpuName(in.GPU), gpuName(alt), en, gpuName(in.GPU)),
				fmt.Sprintf("没写明是哪一款，数据里也没有 %s 的包月价：这里按 %s 计算（%s）；只算 %s 请写明显存（如 80G）。", gpuName(in.GPU), gpuName(alt), zh, gpuName(in.GPU))))
		} else {
			res, err = nativeFirst(&advisor.OfferFilter{}, func() (advisor.MonthlyResult, error) { return advisor.MonthlyWithoutPlan(in, m) })
		}
	}
	if err != nil {
		return err
	}
	if res.High != nil {
		a.use("hours_per_month", fmt.Sprintf("your hours a month, %s–%s h: both ends priced", fmtNum(res.Inputs.HoursPerMonth), fmtNum(res.High.HoursPerMonth)))
	}
	defaultedValues(res.Inputs, res.Inputs.Defaulted, a.Assumed)
	if n := bareMoneyNote(a.Lang, in.Currency, s.Price, s.Monthly); n != "" {
		notes = append(notes, n)
	}
	a.Result = res
	a.Currency = string(res.Currency)
	d := renderMonthly(a.Lang, res, a.Assumed, notes)
	if fullTimeAssumed(s) {
		a.use("hours_per_month", "no hours given: full-time use, 730 h a month, for the plan's saving")
		if res.Cheaper != "" && !res.PlanMissing && res.High == nil {
			// "按量多少钱一小时？包月能省多少？": the on-demand rate and the
			// plan's saving at full-time use lead (plan_quotes.go)
			d.Headline = hourlyFirst(a.Lang, res)
		}
	}
	a.show(d)
	return nil
}

// variantPlan answers a monthly question on a variant of the card (the
// same chip with other memory or form factor) when the card has no plan:
// the variant's plan and its own on-demand price.
func variantPlan(in advisor.MonthlyInput, m advisor.Market) (string, advisor.MonthlyResult, bool) {
	for _, fam := range cardVariants {
		if !slices.Contains(fam, in.GPU) {
			continue
		}
		for _, v := range fam {
			if v == in.GPU {
				continue
			}
			alt := in
			alt.GPU = v
			if r, err := nativeFirst(&advisor.OfferFilter{}, func() (advisor.MonthlyResult, error) { return advisor.Monthly(alt, m) }); err == nil {
				return v, r, true
			}
		}
	}
	return "", advisor.MonthlyResult{}, false
}

// variantNamed reports whether the text names the card's variant, not
// just its chip: "A100 80G" (a100-80g), "H100 PCIe", "A10G".
func variantNamed(text, gpu string) bool {
	t := strings.ReplaceAll(strings.ToLower(text), " ", "")
	if i := strings.LastIndex(gpu, "-"); i >= 0 {
		return strings.Contains(t, gpu[i+1:])
	}
	return strings.Contains(t, gpu)
}

// planPriceWords ask what a plan costs; payWords ask whether it pays, which
// the monthly answer gives.
var (
	planPriceWords = []string{"price", "how much", "多少钱", "价格", "什么价", "报价"}
	payWords       = []string{"worth", "pay off", "pays off", "划算", "值不值", "值得", "break even", "break-even", "回本", " vs ", "还是"}
)

func asksPlanPrice(text string) bool {
	return hasAny(text, planPriceWords) && !hasAny(" "+text+" ", payWords)
}

// cardsForModel picks, for a monthly question that names a model and no
// card, the cards that hold the model (the fit engine's count) whose month
// costs least at the hours given — on demand or on the plan, whichever is
// cheaper for each. ok is false when no card that holds it has a price.
func (b *Bot) cardsForModel(in advisor.MonthlyInput, s parse.Slots, m advisor.Market) (gpu string, count int, needGB float64, ok bool) {
	fit, err := b.mkt.Fit(workload(s), b.kb.GPUs)
	if err != nil {
		return "", 0, 0, false
	}
	// a platform named: its own cards first (a card it does not sell is
	// priced elsewhere, which only answers when none of its cards does)
	type pick struct {
		gpu   string
		count int
		month float64
	}
	var on, any *pick
	for _, o := range fit.Options {
		if o.Count <= 0 {
			continue
		}
		try := in
		try.GPU, try.Cards = o.GPU, max(in.Cards, o.Count) // their count when it holds the model, else what it needs
		r, err := advisor.Monthly(try, m)
		if err != nil {
			continue
		}
		month := r.MonthlyCost
		if r.OnDemandCost > 0 && r.OnDemandCost < month {
			month = r.OnDemandCost
		}
		p := &pick{o.GPU, o.Count, month}
		if any == nil || month < any.month {
			any = p
		}
		if in.Platform != "" && pricedOn(r, in.Platform) && (on == nil || month < on.month) {
			on = p
		}
	}
	if on != nil {
		any = on
	}
	if any == nil {
		return "", 0, 0, false
	}
	return any.gpu, any.count, fit.TotalGB, true
}

// pricedOn reports whether every catalogue price a monthly answer used is
// the platform's own.
func pricedOn(r advisor.MonthlyResult, platform string) bool {
	n := 0
	for _, src := range r.Sources {
		if src.Given {
			continue
		}
		if src.Platform != platform {
			return false
		}
		n++
	}
	return n > 0
}

// gpuOrZero is the catalogue card for id (a zero GPU with just the id when
// unknown: the fit then says nothing).
func (b *Bot) gpuOrZero(id string) knowledge.GPU {
	if g, ok := b.kb.GPU(id); ok {
		return g
	}
	return knowledge.GPU{ID: id}
}

// Ranges of monthly use, low end first: "有的月200小时有的月600小时",
// "200到600小时", "200-600h", "between 200 and 600 hours".
var reHoursRange = []*regexp.Regexp{
	regexp.MustCompile(`有的月[^\d]{0,6}(\d+(?:\.\d+)?)\s*个?\s*(?:小时|h)[^\d]{0,12}有的月[^\d]{0,6}(\d+(?:\.\d+)?)\s*个?\s*(?:小时|h)`),
	regexp.MustCompile(`(\d+(?:\.\d+)?)\s*(?:个?小时|h|hrs?|hours?)?\s*(?:到|至|~|～|-|–|—|\bto\b)\s*(\d+(?:\.\d+)?)\s*(?:个?小时|h\b|hrs?\b|hours?\b)`),
	regexp.MustCompile(`between\s+(\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?)?\s+and\s+(\d+(?:\.\d+)?)\s*(?:h\b|hrs?\b|hours?\b)`),
	regexp.MustCompile(`some months?[^\d]{0,8}(\d+(?:\.\d+)?)\s*(?:h\b|hrs?\b|hours?\b)[^\d]{0,24}(?:others?|other months?)[^\d]{0,8}(\d+(?:\.\d+)?)\s*(?:h\b|hrs?\b|hours?\b)`),
}

// hoursRange reads the high end of a range of monthly use whose low end
// the parser read as the hours a month (low); ok is false without one.
func hoursRange(text string, low float64) (float64, bool) {
	if low <= 0 {
		return 0, false
	}
	t := strings.ToLower(text)
	for _, re := range reHoursRange {
		m := re.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		a, err1 := strconv.ParseFloat(m[1], 64)
		b, err2 := strconv.ParseFloat(m[2], 64)
		if err1 != nil || err2 != nil || a != low || b <= a || b > 744 {
			continue
		}
		return b, true
	}
	return 0, false
}

// planPrices answers what a card's monthly plan costs on two or more
// platforms and which is cheaper ("4090 包月多少钱？AutoDL 和恒源云哪个便宜？"),
// saying which of them no sourced plan prices.
func (b *Bot) planPrices(ctx context.Context, a *Answer, req parse.Request) error {
	s := req.Slots
	m, personaNote := b.personaMarket(ctx, a, req, b.market(ctx))
	res, err := advisor.PlanPrices(s.GPUs[0], s.Platforms, b.currency(req), b.fx(s), m)
	if err != nil {
		return err
	}
	a.use("platform", "the platforms compared")
	a.use("platforms", "the platforms compared")
	a.use("billing", "monthly plans compared")
	a.Result = res
	a.Currency = string(res.Currency)
	var notes []string
	if personaNote != "" {
		notes = append(notes, personaNote)
		notePersona(a, personaNote)
	}
	a.show(renderPlanPrices(a.Lang, res, notes))
	return nil
}
