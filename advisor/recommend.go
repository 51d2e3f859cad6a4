package advisor

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// Preset is one of the cost-performance report's three workloads.
type Preset string

// The report's workloads.
const (
	// PresetFineTune is the report's LLM fine-tune: 70B LoRA, batch 4,
	// sequence 4096.
	PresetFineTune Preset = "finetune"
	// PresetDiffusion is the report's Stable Diffusion 3 training at
	// 1024×1024, batch 8, which it says fits in 24 GB.
	PresetDiffusion Preset = "diffusion"
	// PresetInference is the report's 70B serving with vLLM.
	PresetInference Preset = "inference"
)

// Presets lists the report's workloads in its order.
var Presets = []Preset{PresetFineTune, PresetDiffusion, PresetInference}

// referenceGPU scores 100, as in the report (H100 SXM5 = 100).
const referenceGPU = "h100-sxm"

// diffusionVRAMFloorGB is the memory the report says SD3 training at
// 1024×1024, batch 8 needs: 24 GB.
const diffusionVRAMFloorGB = 24

// Defaults for recommendations.
const (
	DefaultRankLimit   = 10
	DefaultPlanHours   = 100 // training hours a month, as in the report's three plans
	recommendHint      = "/gpu recommend 70b inference"
	maxRecommendBudget = 1e9
)

// RecommendInput asks for a cost-performance ranking, budget plans and
// persona advice. With no Preset and no Workload the report's three
// workloads are ranked.
type RecommendInput struct {
	Preset        Preset      `json:"preset"`          // finetune, diffusion or inference
	Workload      Workload    `json:"workload"`        // a stated workload (ParamsB > 0) instead of a preset
	Budget        Money       `json:"budget"`          // monthly budget; plans are made when given
	HoursPerMonth float64     `json:"hours_per_month"` // job hours a month the plans price; default 100
	Persona       string      `json:"persona"`         // individual, startup or enterprise
	Where         OfferFilter `json:"where"`
	Limit         int         `json:"limit"` // rows per ranking; default 10
	// Spot allows interruptible capacity to price serving ("spot",
	// "可中断"); without it serving is ranked and planned on on-demand
	// or monthly capacity and spot is set aside as the alternative.
	Spot bool `json:"spot,omitempty"`

	Currency  knowledge.Currency `json:"currency"`
	FX        float64            `json:"fx"`
	Defaulted []string           `json:"defaulted"`
}

// Ranked is one offer in a cost-performance ranking.
type Ranked struct {
	Rank          int                `json:"rank"`
	GPU           string             `json:"gpu"`
	Name          string             `json:"name"`
	Platform      string             `json:"platform"`
	Offer         string             `json:"offer"`
	Price         float64            `json:"price"`                // per card-hour, low end
	PriceHigh     float64            `json:"price_high,omitempty"` // per card-hour, high end where it is a range
	Currency      knowledge.Currency `json:"currency"`
	Interruptible bool               `json:"interruptible"`
	Score         float64            `json:"score"`                  // relative performance per card, H100 SXM = 100
	Value         float64            `json:"value"`                  // score ÷ price per card-hour
	Cards         int                `json:"cards"`                  // per job or replica
	PerMTokens    float64            `json:"per_m_tokens,omitempty"` // inference: price ÷ (tokens/s per card × 3600) × 10⁶
	Note          Text               `json:"note"`
}

// Ranking is the cost-performance order for one workload.
type Ranking struct {
	Workload string   `json:"workload"` // preset name or a description
	Title    Text     `json:"title"`
	ScoreHow Text     `json:"score_how"` // how the performance score is derived
	Rows     []Ranked `json:"rows"`      // best value first
	Excluded []Ranked `json:"excluded"`  // cards that cannot hold the workload
	// Aside are prices shown but not ranked as something to rent: market-
	// wide ranges (a range, not an offer) and, for serving, spot capacity
	// unless spot was asked for. Best value first, each with its reason.
	Aside []Ranked `json:"aside,omitempty"`
}

// Recommendation answers "what should I rent?".
type Recommendation struct {
	Inputs      RecommendInput `json:"inputs"`
	Rankings    []Ranking      `json:"rankings"`
	Plans       []Plan         `json:"plans,omitempty"`
	Persona     *PersonaAdvice `json:"persona,omitempty"`
	Lines       []Line         `json:"lines"`
	Assumptions []Text         `json:"assumptions"`
	Sources     []PriceSource  `json:"sources"`
}

// Recommend ranks catalogue offers by cost-performance: a relative
// performance score per card derived from specs (H100 SXM = 100) ÷ the
// price per card-hour, sorted by that value. Cards that cannot hold the
// workload within one 8-card machine are listed as excluded. With a budget
// it adds three monthly plans; with a persona, the guide's advice.
func Recommend(in RecommendInput, m Market) (Recommendation, error) {
	in, p, err := in.normalize()
	if err != nil {
		return Recommendation{}, err
	}
	res := Recommendation{}
	m, personaNote := m.ForPersona(in.Persona, in.Spot) // an enterprise rents from contracted clouds (persona.go)
	ref, err := m.card(referenceGPU, recommendHint)
	if err != nil {
		return res, fmt.Errorf("reference card %s missing from the catalogue", referenceGPU)
	}
	var buf [3]rankJob // the report's three workloads at most
	jobs := buf[:0]
	switch {
	case in.Workload.ParamsB > 0:
		jobs = append(jobs, statedJob(in.Workload))
	case in.Preset != "":
		jobs = append(jobs, presetJob(in.Preset))
	default:
		for _, ps := range Presets {
			jobs = append(jobs, presetJob(ps))
		}
	}
	// The market's offers index is looked up once per call and read by
	// every ranking and the sources below.
	rc := newRankCall(m, in, p, ref, len(jobs))
	for i, j := range jobs {
		keep := in.Limit
		if i == 0 && in.Budget.Given() {
			keep = 0 // the plans read every row
		}
		rk, err := rc.rank(j, keep)
		if err != nil {
			return res, err
		}
		if res.Rankings == nil {
			res.Rankings = make([]Ranking, 0, len(jobs))
		}
		res.Rankings = append(res.Rankings, rk)
	}
	if in.Budget.Given() {
		res.Plans, err = plans(res.Rankings[0], in, m, p, jobs[0].kind == "infer", rc.set.tier)
		if err != nil {
			return res, err
		}
	}
	shown := 0
	for i, rk := range res.Rankings {
		if len(rk.Rows) > in.Limit {
			rk.Rows = rk.Rows[:in.Limit]
			res.Rankings[i] = rk
		}
		shown += len(rk.Rows)
	}
	if n := shown + planLineCount*len(res.Plans); n > 0 {
		res.Lines = rankLines(make([]Line, 0, n), res.Rankings, p.cur)
	}
	res.Assumptions = append(res.Assumptions, txt(
		"scores come from specs, not benchmarks: real throughput depends on drivers, framework and model; value = score ÷ price per card-hour, sorted by that value",
		"性能分由规格推算，不是实测：实际吞吐取决于驱动、框架和模型；性价比 = 性能分 ÷ 每卡每小时价格，并按此排序"))
	for _, pl := range res.Plans {
		res.Lines = append(res.Lines, pl.lines(p)...)
	}
	if in.Persona != "" {
		adv, err := Persona(in.Persona, m.Guide)
		if err != nil {
			return res, err
		}
		res.Persona = &adv
	}
	if personaNote.EN != "" {
		res.Assumptions = append(res.Assumptions, personaNote)
	}
	res.Inputs = in
	res.Sources = rc.sources()
	res.Assumptions = append(res.Assumptions, p.assumption()...)
	res.Assumptions = withConfirm(res.Assumptions, res.Sources)
	return res, nil
}

// rankLines appends one line per row of the rankings to dst. The texts of
// all rows are written into one buffer and cut from the one string it
// makes (a substring shares its bytes), instead of allocating four strings
// a row.
func rankLines(dst []Line, rks []Ranking, cur knowledge.Currency) []Line {
	unit := "score per " + string(cur) + "/h"
	rows := 0
	for _, rk := range rks {
		rows += len(rk.Rows)
	}
	var b strings.Builder
	b.Grow(rows * 160)
	ends := make([]int, 0, 4*rows)
	mark := func() { ends = append(ends, b.Len()) }
	var nb [48]byte // a number's digits
	for _, rk := range rks {
		for _, r := range rk.Rows {
			b.WriteString(rk.Workload)
			b.WriteByte('.')
			b.WriteString(r.Offer)
			mark()
			rank := strconv.AppendInt(nb[:0], int64(r.Rank), 10)
			b.Write(rank)
			b.WriteString(". ")
			b.WriteString(r.Name)
			b.WriteString(" on ")
			b.WriteString(r.Platform)
			mark()
			b.Write(rank)
			b.WriteString(". ")
			b.WriteString(r.Name)
			b.WriteString("（")
			b.WriteString(r.Platform)
			b.WriteString("）")
			mark()
			b.WriteString("score ")
			b.Write(appendNum(nb[:0], r.Score))
			b.WriteString(" ÷ ")
			b.Write(appendMoney(nb[:0], r.Price, cur))
			b.WriteString("/card-hour")
			mark()
		}
	}
	all := b.String()
	at := 0
	cut := func(k int) string {
		s := all[at:ends[k]]
		at = ends[k]
		return s
	}
	k := 0
	for _, rk := range rks {
		for _, r := range rk.Rows {
			key, en, zh, how := cut(k), cut(k+1), cut(k+2), cut(k+3)
			k += 4
			dst = append(dst, Line{Key: key, Label: txt(en, zh), Value: r.Value, Unit: unit, How: how})
		}
	}
	return dst
}

// sources cites the offers the shown rows use, once each, in the
// catalogue's order. A row's offer is cited as the first of its card's
// offers with its key; the normalised price carries the published figure.
func (rc *rankCall) sources() []PriceSource {
	type at struct{ offer, card, n int }
	found := make([]at, 0, len(rc.shown))
	for _, s := range rc.shown {
		cc := &rc.cards[s.card]
		key := cc.norm[s.n].cp.Offer
		for n, i := range cc.at {
			if rc.ix.offers[i].Key == key {
				found = append(found, at{i, int(s.card), n})
				break
			}
		}
	}
	slices.SortFunc(found, func(x, y at) int { return cmp.Compare(x.offer, y.offer) })
	var out []PriceSource
	if len(found) > 0 {
		out = make([]PriceSource, 0, len(found))
	}
	for k, f := range found {
		if k > 0 && found[k-1].offer == f.offer {
			continue
		}
		if norm := rc.cards[f.card].norm[f.n]; norm.ok {
			out = append(out, rc.ix.source(f.offer, norm.cp))
		}
	}
	return out
}

func (in RecommendInput) normalize() (RecommendInput, *pricing, error) {
	in.Defaulted = nil
	switch in.Preset {
	case "", PresetFineTune, PresetDiffusion, PresetInference:
	default:
		return in, nil, inputErr("workload", fmt.Sprintf("unknown workload %q; use finetune, diffusion or inference, or give a model size", in.Preset), recommendHint)
	}
	if in.Workload.ParamsB != 0 {
		w, err := in.Workload.Normalize()
		if err != nil {
			return in, nil, withHint(err, recommendHint)
		}
		in.Workload = w
	}
	if err := checkMoney("budget", in.Budget, "/gpu recommend budget=5000"); err != nil {
		return in, nil, err
	}
	if in.Budget.Amount > maxRecommendBudget {
		return in, nil, inputErr("budget", "budget is too large", "/gpu recommend budget=5000")
	}
	if in.HoursPerMonth < 0 || in.HoursPerMonth > maxHoursPerMonth {
		return in, nil, inputErr("hours_per_month", fmt.Sprintf("hours per month must be between 0 and %d", maxHoursPerMonth), "/gpu recommend budget=5000 hours=100")
	}
	if in.Budget.Given() && in.HoursPerMonth == 0 {
		in.HoursPerMonth = DefaultPlanHours
		in.Defaulted = append(in.Defaulted, "hours_per_month")
	}
	if in.Limit < 0 {
		return in, nil, inputErr("limit", "limit must be positive", recommendHint)
	}
	if in.Limit == 0 {
		in.Limit = DefaultRankLimit
		in.Defaulted = append(in.Defaulted, "limit")
	}
	p, err := newPricing(in.Currency, in.Budget.Currency, in.FX, recommendHint, &in.Defaulted)
	if err != nil {
		return in, nil, err
	}
	in.Currency, in.FX = p.cur, p.fx
	return in, p, nil
}

// rankJob is a workload to rank with its scoring rule.
type rankJob struct {
	name     string
	title    Text
	workload Workload // LLM workloads; zero for diffusion
	kind     string   // train, infer, diffusion
	memo     *memo
}

func presetJob(p Preset) rankJob {
	switch p {
	case PresetFineTune:
		return rankJob{name: string(p), kind: "train",
			title:    txt("LLM fine-tune (70B LoRA, batch 4 × 4096 tokens)", "大模型微调（70B LoRA，batch 4 × 4096 token）"),
			workload: Workload{ParamsB: 70, Method: LoRA, Batch: 4, SeqLen: 4096}}
	case PresetDiffusion:
		return rankJob{name: string(p), kind: "diffusion",
			title: txt("diffusion training (Stable Diffusion 3, 1024×1024, batch 8)", "扩散模型训练（Stable Diffusion 3，1024×1024，batch 8）")}
	default:
		return rankJob{name: string(PresetInference), kind: "infer",
			title:    txt("70B inference (vLLM serving)", "70B 推理（vLLM 部署）"),
			workload: Workload{ParamsB: 70, Method: Inference, Batch: 1, SeqLen: DefaultServeContext}}
	}
}

func statedJob(w Workload) rankJob {
	j := rankJob{name: fmt.Sprintf("%sb-%s", num(w.ParamsB), w.Method), workload: w, kind: "train"}
	if w.Method == Inference {
		j.kind = "infer"
		j.workload.Batch, j.workload.SeqLen = 1, DefaultServeContext
	}
	j.title = txt(fmt.Sprintf("your workload (%sB %s)", num(w.ParamsB), w.Method), fmt.Sprintf("你的任务（%sB %s）", num(w.ParamsB), methodZH[w.Method]))
	return j
}

// score is the relative performance per card (reference = 100). Inference
// is scored in rank from the decode roofline instead.
func (j rankJob) score(g, ref knowledge.GPU) float64 {
	switch j.kind {
	case "diffusion":
		// Diffusion training is compute bound: ∝ peak × full-training MFU.
		return 100 * g.PeakTFLOPS() * DefaultMFU(Full, g) / (ref.PeakTFLOPS() * DefaultMFU(Full, ref))
	}
	m := j.workload.Method
	return 100 * g.PeakTFLOPS() * DefaultMFU(m, g) / (ref.PeakTFLOPS() * DefaultMFU(m, ref))
}

func (j rankJob) how(ref knowledge.GPU) Text {
	switch j.kind {
	case "infer":
		return txt(fmt.Sprintf("score = 100 × tokens/s per card ÷ %s's, both from the decode roofline (memory bandwidth, KV-cache room, compute, card-to-card links) at each card's best replica size", ref.Name),
			fmt.Sprintf("性能分 = 100 × 每卡 tokens/s ÷ %s 的每卡 tokens/s，均由解码屋顶线模型（显存带宽、KV 缓存容量、算力、卡间互联）在各卡最优副本规模下算出", ref.Name))
	case "diffusion":
		return txt(fmt.Sprintf("score = 100 × BF16 TFLOPS × MFU ÷ (%s × %s) (%s), only cards with at least %d GB (the report's SD3 floor)",
			num(ref.PeakTFLOPS()), num(DefaultMFU(Full, ref)), ref.Name, diffusionVRAMFloorGB),
			fmt.Sprintf("性能分 = 100 × BF16 算力 × MFU ÷ (%s × %s)（%s），只计显存不少于 %d GB 的卡（报告给出的 SD3 门槛）",
				num(ref.PeakTFLOPS()), num(DefaultMFU(Full, ref)), ref.Name, diffusionVRAMFloorGB))
	}
	mm := j.workload.Method
	return txt(fmt.Sprintf("score = 100 × BF16 TFLOPS × %s MFU ÷ (%s × %s) (%s), × multi-card efficiency when the job needs several cards",
		mm, num(ref.PeakTFLOPS()), num(DefaultMFU(mm, ref)), ref.Name),
		fmt.Sprintf("性能分 = 100 × BF16 算力 × %s MFU ÷ (%s × %s)（%s），需要多卡时再乘多卡扩展效率",
			mm, num(ref.PeakTFLOPS()), num(DefaultMFU(mm, ref)), ref.Name))
}

// decodeOn runs the decode roofline at the card's best replica size (up to
// one machine, or the fewest cards up to limit that hold the model); ok is
// false when the model does not fit.
func (j rankJob) decodeOn(g knowledge.GPU, mem Memory, archs []knowledge.Arch, limit int) (Serving, bool) {
	if on := runsOn(mem.Workload, g); on.upcast {
		var err error
		if mem, _, err = j.memo.sized(on.w, archs); err != nil {
			return Serving{}, false
		}
	}
	need := minCards(mem, g.VRAMGB)
	if need == 0 || need > limit {
		return Serving{}, false
	}
	w := j.workload
	w.Batch = 1
	in := j.workload.SeqLen * 2 / 3
	s, _, err := bestServing(g, w, 0, need, in, j.workload.SeqLen-in, 0, archs, j.memo, 0)
	return s, err == nil
}

// rankCall is what the rankings of one recommend call share: the market's
// offers and cards each checked once against what is kept for them, each
// card's normalised offers (the set's view), and the candidate buffers,
// reused by each ranking.
type rankCall struct {
	m     Market
	in    RecommendInput
	p     *pricing
	ref   knowledge.GPU
	ix    *offerIndex
	set   *cardSet
	cards []callCard // each card's offers, parallel to m.GPUs
	rows  []cand
	aside []cand
	shown []shownOffer // the offers of the rows shown, for the sources
	// notes are the range notes written in this call, by offer: the
	// rankings of one call set aside the same ranges.
	notes []offerNote
}

type offerNote struct {
	at shownOffer
	t  Text
}

// rangeNote is rangeAsideNote for candidate c, written once per call.
func (rc *rankCall) rangeNote(c cand, r Ranked) Text {
	at := shownOffer{c.card, c.n}
	for _, n := range rc.notes {
		if n.at == at {
			return n.t
		}
	}
	t := rangeAsideNote(r, rc.m, rc.set.c)
	rc.notes = append(rc.notes, offerNote{at, t})
	return t
}

// shownOffer is the offer of one shown row: its card, and its place among
// that card's offers.
type shownOffer struct{ card, n int32 }

// newRankCall prepares the rankings of jobs workloads.
func newRankCall(m Market, in RecommendInput, p *pricing, ref knowledge.GPU, jobs int) *rankCall {
	c := m.engine()
	ix, set := c.index(m.Offers), c.cardSet(m.GPUs)
	return &rankCall{m: m, in: in, p: p, ref: ref, ix: ix, set: set, cards: set.view(ix, p.cur, p.fx),
		rows: make([]cand, 0, len(ix.offers)), shown: make([]shownOffer, 0, jobs*min(in.Limit, len(ix.offers)))}
}

// rank prices every offer of the cards that hold the workload against the
// cards' figures (worked out once per card set and workload, see
// cardTable). keep is how many rows to write out (0: all of them, for the
// plans).
func (rc *rankCall) rank(j rankJob, keep int) (Ranking, error) {
	t := rc.set.table(j, rc.ref)
	rk := Ranking{Workload: j.name, Title: j.title, ScoreHow: t.how}
	if t.err != nil {
		return rk, t.err
	}
	in, p, ix := rc.in, rc.p, rc.ix
	rows, aside := rc.rows[:0], rc.aside[:0]
	for gi := range rc.m.GPUs {
		f := &t.cards[gi]
		if f.cards == 0 {
			continue
		}
		cc := &rc.cards[gi]
		norm := cc.norm
		for n, i := range cc.at {
			o, cp := &ix.offers[i], &norm[n].cp
			if !norm[n].ok || !in.Where.keep(o, cp, p.cur) {
				continue
			}
			if o.Currency != p.cur {
				p.converted = true
			}
			price := cp.Price()
			c := cand{value: round(f.score/price, 2), price: price, // value from the unrounded score
				interruptible: cp.Interruptible, card: int32(gi), n: int32(n)}
			switch {
			case IsMarketRange(cp.Platform) && in.Where.Platform != cp.Platform:
				aside = append(aside, c) // its note is written after the cut
			case cp.Interruptible && j.kind == "infer" && !in.Spot:
				c.spot = true
				aside = append(aside, c)
			default:
				rows = append(rows, c)
			}
		}
	}
	rc.rows, rc.aside = rows, aside // the grown buffers serve the next ranking
	if keep <= 0 {
		keep = len(rows)
	}
	rows = rc.bestValueFirst(rows, keep)
	aside = rc.bestValueFirst(aside, in.Limit)
	rk.Excluded = copyOf(t.excluded)
	if len(rows) > 0 {
		rk.Rows = make([]Ranked, len(rows))
	}
	for i, c := range rows {
		rk.Rows[i] = rc.ranked(c, t)
		rk.Rows[i].Rank = i + 1
		if i < in.Limit {
			rk.Rows[i].Note = t.cards[c.card].note
			rc.shown = append(rc.shown, shownOffer{c.card, c.n})
		}
	}
	if len(aside) > 0 {
		rk.Aside = make([]Ranked, len(aside))
	}
	for i, c := range aside {
		rk.Aside[i] = rc.ranked(c, t)
		switch {
		case IsMarketRange(rk.Aside[i].Platform):
			rk.Aside[i].Note = rc.rangeNote(c, rk.Aside[i])
		case c.spot:
			rk.Aside[i].Note = spotAsideNote
		}
	}
	return rk, nil
}

// excludedNote says why a card of vram GB is left out of a ranking (a
// card table writes it once per card).
func excludedNote(vram float64, diffusion bool) Text {
	v := num(vram)
	if diffusion {
		floor := strconv.Itoa(diffusionVRAMFloorGB)
		return txt(v+" GB is below the "+floor+" GB the workload needs", v+" GB 低于该任务需要的 "+floor+" GB")
	}
	return txt("cannot hold the workload on one 8-card machine ("+v+" GB per card)", "一台 8 卡机器也放不下（每卡 "+v+" GB）")
}

// cand is one offer of a held card: the fields the ranking sorts on, and
// where to find the rest (the card in the market, the offer among its
// normalised prices). It holds no pointer, so sorting moves plain words.
type cand struct {
	value, price  float64
	card, n       int32
	interruptible bool
	spot          bool // set aside as spot capacity
}

// cp is c's normalised price.
func (rc *rankCall) cp(c cand) *CardPrice { return &rc.cards[c.card].norm[c.n].cp }

func (rc *rankCall) ranked(c cand, t *cardTable) Ranked {
	g, f, cp := &rc.m.GPUs[c.card], &t.cards[c.card], rc.cp(c)
	r := Ranked{GPU: g.ID, Name: g.Name, Platform: cp.Platform, Offer: cp.Offer, Price: c.price, Currency: rc.p.cur,
		Interruptible: cp.Interruptible, Score: round(f.score, 2), Cards: f.cards, Value: c.value}
	if cp.High != cp.Low {
		r.PriceHigh = cp.High
	}
	if f.tpsCard > 0 {
		r.PerMTokens = round(PerMTokens(r.Price, f.tpsCard), 4)
	}
	return r
}

// rowNote is what a ranked card's note says, written only for the rows
// shown: a serving replica (conc > 0) or a multi-card training job.
type rowNote struct {
	cards, conc int
	tpsCard     float64
	eff         float64
	link        *knowledge.GPU // the card, whose interconnect a training note names
}

func (n rowNote) text() Text {
	c := strconv.Itoa(n.cards)
	if n.conc > 0 {
		t, q := num(round(n.tpsCard, 1)), strconv.Itoa(n.conc)
		return txt(c+" cards per replica, "+q+" requests at once, "+t+" tokens/s per card", "每个副本 "+c+" 张卡，并发 "+q+"，每卡 "+t+" tokens/s")
	}
	e, l := num(round(n.eff*100, 1)), n.link.Interconnect()
	return txt(c+" cards; multi-card efficiency "+e+"% over "+l, c+" 张卡；多卡扩展效率 "+e+"%（"+l+"）")
}

// bestValueFirst sorts candidates by the metric itself (value, then the
// cheaper price, then the offer key, then their order) and keeps one per
// card, platform, price and kind, the first keep of them.
func (rc *rankCall) bestValueFirst(rows []cand, keep int) []cand {
	slices.SortFunc(rows, func(x, y cand) int {
		switch {
		case x.value != y.value:
			return cmp.Compare(y.value, x.value)
		case x.price != y.price:
			return cmp.Compare(x.price, y.price)
		}
		if c := strings.Compare(rc.cp(x).Offer, rc.cp(y).Offer); c != 0 {
			return c
		}
		return cmp.Compare(int(x.card)<<20+int(x.n), int(y.card)<<20+int(y.n))
	})
	// One row per card, platform, price and kind: the catalogue can hold the
	// same quote twice (a range point and a table row), which would only
	// repeat a line in the ranking. Two such rows have the same value and
	// price, so they sit in one run of equal value and price: only that run
	// is searched.
	kept := rows[:0]
	for _, r := range rows {
		if len(kept) == keep {
			break
		}
		dup := false
		for i := len(kept) - 1; i >= 0 && kept[i].value == r.value && kept[i].price == r.price; i-- {
			k := kept[i]
			if k.card == r.card && k.interruptible == r.interruptible && rc.cp(k).Platform == rc.cp(r).Platform {
				dup = true
				break
			}
		}
		if !dup {
			kept = append(kept, r)
		}
	}
	return kept
}

var spotAsideNote = txt("spot capacity can be stopped at any time, so it does not serve traffic unless asked (add spot)",
	"竞价实例随时可能被回收，除非明确要求（加 spot / 可中断），不用于推理服务")

// rangeAsideNote says that a set-aside row is a market-wide range; the
// text is kept in the market's cache per range and platform name.
func rangeAsideNote(r Ranked, m Market, c *cache) Text {
	en, zh := r.Platform, r.Platform
	if pl, ok := m.platform(r.Platform); ok && pl.Name != "" {
		en, zh = pl.Name, pl.Name
		if pl.NameZH != "" {
			zh = pl.NameZH
		}
	}
	return c.rangeNotes.get(rangeNoteKey{en, zh, r.Price, r.PriceHigh, r.Currency}, func() Text {
		rng := money(r.Price, r.Currency)
		if r.PriceHigh > 0 {
			rng += "–" + num(r.PriceHigh)
		}
		return txt(en+": "+rng+"/card-hour is a range across the market, not an offer: no platform rents at it; get a quote",
			zh+"："+rng+"/卡时是全市场的价格区间，不是报价：没有平台按这个价出租，请询价")
	})
}

type rangeNoteKey struct {
	en, zh    string
	low, high float64
	cur       knowledge.Currency
}

// methodZH names a method in Chinese for the titles the engine writes.
var methodZH = map[Method]string{Inference: "推理", LoRA: "LoRA 微调", QLoRA: "QLoRA 微调", Full: "全参微调", Freeze: "冻结微调"}
