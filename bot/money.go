package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// referenceGPU answers "包月划算吗" when the question names no card and the
// team has no usage yet: the card the seed documents price most often.
const referenceGPU = "rtx4090"

// market is the advisor's view of cards and prices: shipped specs with the
// current offers (the live catalogue when one is attached).
func (b *Bot) market(ctx context.Context) advisor.Market {
	m := advisor.MarketOf(b.kb)
	if b.prices != nil {
		if offers, err := b.prices.Offers(ctx); err == nil && len(offers) > 0 {
			m.Offers = offers
		} else if err != nil {
			b.log.WarnContext(ctx, "live prices unavailable, using shipped catalogue", "err", err)
		}
	}
	return m
}

// currency is the answer's currency: what the user asked for, else CNY for
// Chinese questions and USD for English ones.
func (b *Bot) currency(req parse.Request) knowledge.Currency {
	switch req.Slots.Currency {
	case "CNY":
		return knowledge.CNY
	case "USD":
		return knowledge.USD
	}
	if req.Lang == "zh" {
		return knowledge.CNY
	}
	return knowledge.USD
}

func (b *Bot) fx(s parse.Slots) float64 {
	if s.FX > 0 {
		return s.FX
	}
	if b.cfg.FX > 0 {
		return b.cfg.FX
	}
	return advisor.DefaultCNYPerUSD
}

func money(m *parse.Money) advisor.Money {
	if m == nil {
		return advisor.Money{}
	}
	return advisor.Money{Amount: m.Amount, Currency: knowledge.Currency(m.Currency)}
}

func moneyPtr(m *parse.Money) *advisor.Money {
	if m == nil {
		return nil
	}
	v := money(m)
	return &v
}

func firstGPU(s parse.Slots) string {
	if len(s.GPUs) > 0 {
		return s.GPUs[0]
	}
	return ""
}

// defaultedValues turns an input struct's Defaulted list into name → value,
// reading the values from the struct's own JSON so names match the contract.
func defaultedValues(in any, names []string, into map[string]any) {
	raw, err := json.Marshal(in)
	if err != nil {
		return
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return
	}
	for _, n := range names {
		v, ok := m[n]
		if !ok || v == nil || v == "" || v == 0.0 {
			continue // filled later in the result, not in the inputs
		}
		into[n] = v
	}
}

// nativeFirst runs an engine call with offers in the answer's currency
// first (USD platforms for English questions, Chinese platforms for Chinese
// ones) and falls back to every offer when that finds no price.
func nativeFirst[T any](where *advisor.OfferFilter, call func() (T, error)) (T, error) {
	where.NativeOnly = true
	res, err := call()
	var in *advisor.InputError
	if err != nil && errors.As(err, &in) {
		where.NativeOnly = false
		if res2, err2 := call(); err2 == nil {
			return res2, nil
		}
	}
	return res, err
}

// bareMoneyNote says how amounts without a currency were read.
func bareMoneyNote(lang string, cur knowledge.Currency, ms ...*parse.Money) string {
	for _, m := range ms {
		if m != nil && m.Currency == "" {
			if cur == knowledge.CNY {
				return tr(lang, "Amounts without a currency are read as yuan; write $2.5 or add currency=usd for dollars.",
					"未写币种的金额按人民币理解；美元请写 $2.5 或加 currency=usd。")
			}
			return tr(lang, "Amounts without a currency are read as US dollars (English question); write ¥16000 or add currency=cny for yuan.",
				"未写币种的金额按美元理解；人民币请写 ¥16000 或加 currency=cny。")
		}
	}
	return ""
}

func (b *Bot) cost(ctx context.Context, a *Answer, req parse.Request) error {
	s := req.Slots
	in := advisor.CostInput{
		Workload: workload(s), GPU: firstGPU(s), GPUs: s.Cards,
		Tokens: s.Tokens, Samples: s.Samples, TokensPerSample: s.SampleTokens, Epochs: s.Epochs,
		MFU: s.MFU, TPS: s.TPS, Price: money(s.Price),
		InputTokens: s.InputTokens, OutputTokens: s.OutputTokens,
		TokensPerDay: s.TokensPerDay, RequestsPerS: s.RequestsPerS, Spot: s.Spot, Days: s.Days, Budget: money(s.Budget),
		Where:    advisor.OfferFilter{Platform: s.Platform},
		Currency: b.currency(req), FX: b.fx(s),
	}
	if in.Workload.Bits == 8 && (in.Workload.Method == advisor.Full || in.Workload.Method == advisor.LoRA) {
		in.FP8, in.Workload.Bits = true, 0 // "full fp8": train in FP8 on cards that have it
	}
	m := b.market(ctx)
	res, err := nativeFirst(&in.Where, func() (advisor.CostResult, error) { return advisor.Cost(in, m) })
	if err != nil {
		return err
	}
	a.Assumed = assumed(res.Inputs.Workload, s.GC != "")
	defaultedValues(res.Inputs, res.Inputs.Defaulted, a.Assumed)
	for _, d := range res.Inputs.Defaulted {
		switch d {
		case "mfu":
			a.Assumed["mfu"] = res.MFU
		case "gpu":
			a.Assumed["gpu"] = res.GPU
		}
	}
	if res.Serving != nil && res.Inputs.Workload.Method == advisor.Inference && s.Concurrency == 0 {
		delete(a.Assumed, "concurrency") // the batch comes from KV-cache room, shown in the lines
	}
	a.Result = res
	a.Text, a.Blocks = renderCost(a.Lang, res, a.Assumed, bareMoneyNote(a.Lang, in.Currency, s.Price))
	return nil
}

// teamUsage is the team's last-30-day usage of gpu ("" = the most used
// card); ok is false when the ledger has none.
func (b *Bot) teamUsage(ctx context.Context, m Message, gpu string) (ledger.CardUsage, bool) {
	if b.usage == nil {
		return ledger.CardUsage{}, false
	}
	team := m.Team
	if team == "" {
		team = "local"
	}
	us, err := b.usage.Usage(ctx, team, b.now(), nil)
	if err != nil {
		b.log.WarnContext(ctx, "team usage unavailable", "err", err)
		return ledger.CardUsage{}, false
	}
	var best ledger.CardUsage
	for _, u := range us {
		if (gpu == "" || u.GPU == gpu) && u.CardHours > best.CardHours {
			best = u
		}
	}
	return best, best.CardHours > 0
}

func (b *Bot) monthly(ctx context.Context, msg Message, a *Answer, req parse.Request) error {
	s := req.Slots
	in := advisor.MonthlyInput{
		GPU: firstGPU(s), Platform: s.Platform, HoursPerMonth: s.HoursPerMonth,
		Cards: s.Cards, Hourly: money(s.Price), Monthly: money(s.Monthly),
		Currency: b.currency(req), FX: b.fx(s),
	}
	if in.HoursPerMonth == 0 {
		in.HoursPerMonth = s.Hours
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
	if in.GPU == "" {
		in.GPU = referenceGPU
		a.Assumed["gpu"] = referenceGPU
		notes = append(notes, tr(a.Lang,
			"No card named, so this is for the RTX 4090, the card the catalogue prices most often. Ask precisely with: /gpu monthly h100 @autodl 120h",
			"没指定显卡，按目录里报价最多的 RTX 4090 计算。想问得更准，可以这样问：/gpu monthly h100 @autodl 120h"))
	}
	m := b.market(ctx)
	res, err := nativeFirst(&advisor.OfferFilter{}, func() (advisor.MonthlyResult, error) { return advisor.Monthly(in, m) })
	if err != nil {
		return err
	}
	defaultedValues(res.Inputs, res.Inputs.Defaulted, a.Assumed)
	if n := bareMoneyNote(a.Lang, in.Currency, s.Price, s.Monthly); n != "" {
		notes = append(notes, n)
	}
	if res.Cheaper == "" {
		notes = append(notes, tr(a.Lang,
			"Tell me your hours per month (e.g. 200h) for a verdict.",
			"告诉我每月用多少小时（例如 200h），我就能给出结论。"))
	}
	a.Result = res
	a.Text, a.Blocks = renderMonthly(a.Lang, res, a.Assumed, notes)
	return nil
}

// BuyView is the buy answer's result: the contract's lines are the four
// annual cost lines; every step of the calculation is in steps.
type BuyView struct {
	advisor.BuyResult
	Lines []advisor.Line `json:"lines"`
	Steps []advisor.Line `json:"steps"`
}

func (b *Bot) buy(ctx context.Context, msg Message, a *Answer, req parse.Request) error {
	s := req.Slots
	in := advisor.BuyInput{
		GPU: firstGPU(s), Purchase: money(s.Price), Rent: money(s.Rent), Years: s.Years,
		Utilization: s.Utilization, Watts: s.Watts, Power: moneyPtr(s.Power), Ops: moneyPtr(s.Ops), Rate: s.Rate,
		Cards: s.Cards, HoursPerMonth: s.HoursPerMonth,
		Where:    advisor.OfferFilter{Platform: s.Platform},
		Currency: b.currency(req), FX: b.fx(s),
	}
	if s.PUE > 0 {
		pue := s.PUE
		in.PUE = &pue
	}
	if in.GPU == "" {
		return &advisor.InputError{Field: "gpu", Reason: tr(a.Lang, "which card would you buy? name one", "想买哪张卡？请指明型号"), Hint: "/gpu buy h100 util=70%"}
	}
	var usageNote string
	if in.Utilization == 0 && in.HoursPerMonth == 0 {
		if g, ok := b.kb.GPU(in.GPU); ok {
			if u, ok := b.teamUsage(ctx, msg, g.ID); ok && u.Utilisation > 0 {
				in.Utilization = min(advisor.Round2(u.Utilisation), 1)
				a.Assumed["utilization"] = in.Utilization
				usageNote = tr(a.Lang,
					fmt.Sprintf("Utilisation measured from your team's last 30 days: %s card-hours on %d card(s) = %s%%.", fmtNum(u.CardHours), max(u.Cards, 1), fmtNum(in.Utilization*100)),
					fmt.Sprintf("利用率取自团队最近 30 天的记账：%s 卡时、%d 张卡 = %s%%。", fmtNum(u.CardHours), max(u.Cards, 1), fmtNum(in.Utilization*100)))
			}
		}
	}
	m := b.market(ctx)
	res, err := nativeFirst(&in.Where, func() (advisor.BuyResult, error) { return advisor.Buy(in, m) })
	if err != nil {
		return err
	}
	defaultedValues(res.Inputs, res.Inputs.Defaulted, a.Assumed)
	view := BuyView{BuyResult: res, Lines: res.AnnualLines(), Steps: res.Lines}
	a.Result = view
	a.Text, a.Blocks = renderBuy(a.Lang, view, a.Assumed, usageNote, bareMoneyNote(a.Lang, in.Currency, s.Price, s.Rent, s.Power, s.Ops))
	return nil
}

// PriceOffer is one offer in the price answer (the contract's keys first).
type PriceOffer struct {
	Platform      string  `json:"platform"`
	GPU           string  `json:"gpu"`
	Price         float64 `json:"price"` // per card-hour, low end
	PriceHigh     float64 `json:"price_high"`
	Currency      string  `json:"currency"`
	Unit          string  `json:"unit"`
	Billing       string  `json:"billing"`
	ObservedAt    string  `json:"observed_at"`
	AgeDays       int     `json:"age_days"` // days since observed_at
	PricingModel  string  `json:"pricing_model"`
	Interruptible bool    `json:"interruptible"`
	Monthly       bool    `json:"monthly"`
	Original      string  `json:"original"` // the figure as published
	Source        string  `json:"source"`
	Note          string  `json:"note,omitempty"`
}

// PriceView is the price answer: every offer per asked card, cheapest first.
type PriceView struct {
	GPUs        []string            `json:"gpus"`
	Currency    string              `json:"currency"`
	FX          float64             `json:"fx"`
	Offers      []PriceOffer        `json:"offers"`
	Lists       []advisor.PriceList `json:"lists"`
	Assumptions []string            `json:"assumptions"`
}

func (b *Bot) price(ctx context.Context, a *Answer, req parse.Request) error {
	s := req.Slots
	if len(s.GPUs) == 0 {
		return &advisor.InputError{Field: "gpu", Reason: tr(a.Lang, "which card? name one or more", "哪张卡？请指明型号"), Hint: "/gpu price h100"}
	}
	cur, fx := b.currency(req), b.fx(s)
	m := b.market(ctx)
	view := PriceView{GPUs: s.GPUs, Currency: string(cur), FX: fx}
	for _, g := range s.GPUs {
		list, err := advisor.Offers(g, m.Offers, cur, fx)
		if err != nil {
			return err
		}
		view.Lists = append(view.Lists, list)
		for _, cp := range list.Offers {
			if s.Platform != "" && cp.Platform != s.Platform {
				continue
			}
			view.Offers = append(view.Offers, PriceOffer{
				Platform: cp.Platform, GPU: cp.GPU, Price: cp.Low, PriceHigh: cp.High, Currency: string(cp.Currency),
				Unit: "card_hour", Billing: billingName(cp), ObservedAt: cp.ObservedAt, AgeDays: ageDays(cp.ObservedAt, b.now()),
				PricingModel: string(cp.Original.Model), Interruptible: cp.Interruptible, Monthly: cp.Monthly,
				Original: cp.Original.String(), Source: cp.Source, Note: cp.Note,
			})
		}
		for _, t := range list.Assumptions {
			view.Assumptions = appendOnce(view.Assumptions, t.In(a.Lang))
		}
	}
	a.Result = view
	a.Text, a.Blocks = renderPrice(a.Lang, b.kb, view, b.now())
	return nil
}

func billingName(cp advisor.CardPrice) string {
	switch {
	case cp.Monthly:
		return "monthly"
	case cp.Package:
		return "package"
	case cp.Interruptible:
		return "spot"
	}
	return "on_demand"
}

func appendOnce(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

func (b *Bot) compare(ctx context.Context, a *Answer, req parse.Request) error {
	gpus := req.Slots.GPUs
	if len(gpus) < 2 {
		return &advisor.InputError{Field: "gpu", Reason: tr(a.Lang, "name at least two cards to compare", "请至少给出两张卡来对比"), Hint: "/gpu compare h100 h800 h20"}
	}
	res, err := advisor.Compare(gpus, b.market(ctx), b.currency(req), b.fx(req.Slots))
	if err != nil {
		return err
	}
	a.Result = res
	a.Text, a.Blocks = renderCompare(a.Lang, res)
	return nil
}

func (b *Bot) recommend(ctx context.Context, a *Answer, req parse.Request) error {
	s := req.Slots
	in := advisor.RecommendInput{
		Budget: money(s.Budget), HoursPerMonth: s.HoursPerMonth,
		Where:    advisor.OfferFilter{Platform: s.Platform},
		Currency: b.currency(req), FX: b.fx(s),
	}
	text := strings.ToLower(req.Text)
	switch {
	case strings.Contains(text, "diffusion") || strings.Contains(text, "扩散") || strings.Contains(text, "sd3") || strings.Contains(text, "stable diffusion") || s.Workload == "diffusion":
		in.Preset = advisor.PresetDiffusion
	case s.ParamsB > 0:
		in.Workload = workload(s)
	case s.Workload == "finetune" || s.Method == "lora" || s.Method == "qlora" || s.Method == "full":
		in.Preset = advisor.PresetFineTune
	case s.Workload == "inference" || s.Method == "inference":
		in.Preset = advisor.PresetInference
	}
	for _, w := range append(strings.Fields(text), s.Args...) {
		if p, ok := advisor.CanonicalPersona(w); ok {
			in.Persona = p
			break
		}
	}
	if in.Persona == "" {
		for _, w := range []string{"个人", "初创", "创业", "小团队", "企业", "高校", "科研"} {
			if strings.Contains(text, w) {
				in.Persona, _ = advisor.CanonicalPersona(w)
				break
			}
		}
	}
	m := b.market(ctx)
	res, err := nativeFirst(&in.Where, func() (advisor.Recommendation, error) { return advisor.Recommend(in, m) })
	if err != nil {
		return err
	}
	defaultedValues(res.Inputs, res.Inputs.Defaulted, a.Assumed)
	a.Result = res
	a.Text, a.Blocks = renderRecommend(a.Lang, res, a.Assumed)
	return nil
}

// ageDays is how many whole days ago a date was (0 when unreadable).
func ageDays(observed string, now time.Time) int {
	t, err := time.Parse("2006-01-02", observed)
	if err != nil {
		if t, err = time.Parse(time.RFC3339, observed); err != nil {
			return 0
		}
	}
	return max(0, int(now.Sub(t).Hours()/24))
}
