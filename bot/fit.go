package bot

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// FitResult is the fit answer's result object (the ask --json contract).
type FitResult struct {
	Model       string            `json:"model,omitempty"`
	MemoryGB    float64           `json:"memory_gb"`
	Breakdown   advisor.Breakdown `json:"breakdown"`
	Options     []FitOption       `json:"options"`
	Workload    advisor.Workload  `json:"workload"`
	Shape       advisor.Shape     `json:"shape"`
	Lines       []advisor.Line    `json:"lines"`
	Assumptions []string          `json:"assumptions"`
	// Verdict answers for the asker's own cards when the message says
	// what they have (their VRAM, their card count, a named card in a
	// yes/no question); nil otherwise.
	Verdict *FitVerdict `json:"verdict,omitempty"`
	// Squeeze is, for a training job that misses the asker's cards, the
	// nearest lighter setting that holds on them (advisor.SqueezeFit);
	// nil when the job holds or nothing lighter does.
	Squeeze *advisor.Squeeze `json:"squeeze,omitempty"`
	// Lower is, for an inference that misses the asker's cards, the
	// same job at each lower weight precision on those cards.
	Lower []FitLower `json:"lower_precisions,omitempty"`
	// Variants answers "how many of this card" for each memory size the
	// question names ("141G 和 96G 两个版本").
	Variants []FitVariant `json:"variants,omitempty"`
	// Rental is the fallback "if not, rent N of X for H hours: how much?"
	// (fitalt.go): the cards that hold the job and their price.
	Rental *FitRental `json:"rental,omitempty"`
	// kvAsked: the message asks the KV cache itself ("KV cache memory
	// for…"): the headline leads with it.
	kvAsked bool
}

// FitVerdict is the yes/no for the cards the asker has.
type FitVerdict struct {
	GPU       string  `json:"gpu"`
	Name      string  `json:"name"`
	VRAMGB    float64 `json:"vram_gb"`
	Have      int     `json:"have"`  // cards the asker has (1 unless said)
	Cards     int     `json:"cards"` // cards the job needs (0: not even 64)
	Fits      bool    `json:"fits"`
	PerCardGB float64 `json:"per_card_gb"`
	SpareGB   float64 `json:"spare_gb"`
	// MaxConcurrency is, when the question asks it, how many requests of
	// the context their cards hold under tensor parallelism, and
	// MaxConcurrencyDP with data-parallel attention (more for MLA, whose
	// latent every tensor-parallel card keeps whole: advisor.Concurrency).
	MaxConcurrency   float64 `json:"max_concurrency,omitempty"`
	MaxConcurrencyDP float64 `json:"max_concurrency_dp_attention,omitempty"`
	// own is true when the asker has no more than their own consumer card
	// or stated its memory (a laptop, a modded card): the answer never
	// proposes more of it.
	own bool
}

// FitOption is one card's verdict, with its cheapest known offer.
type FitOption struct {
	GPU       string    `json:"gpu"`
	Name      string    `json:"name"`
	VRAMGB    float64   `json:"vram_gb"`
	Count     int       `json:"count"`
	Fits      bool      `json:"fits"`
	PerCardGB float64   `json:"per_card_gb"`
	SpareGB   float64   `json:"spare_gb"`
	Note      string    `json:"note,omitempty"`
	Cheapest  *PriceRef `json:"cheapest,omitempty"`
	// MaxBatch (training) and MaxConcurrency (inference) come from the
	// advisor's fit option.
	MaxBatch       int     `json:"max_batch,omitempty"`
	MaxConcurrency float64 `json:"max_concurrency,omitempty"`
	// UpcastGB is one replica's memory where the card holds FP8 weights
	// upcast to 16 bits (the advisor's fit option).
	UpcastGB float64 `json:"upcast_gb,omitempty"`
	// Training: the layout's speed and, with the cheapest price, the cost
	// of a million training tokens (advisor.JobCostPerMTokens), which
	// ranks the cards.
	TrainTokensPerS float64 `json:"train_tokens_per_s,omitempty"`
	PerMTokens      float64 `json:"cost_per_m_train_tokens,omitempty"`
}

// PriceRef is a price as the contract shows it.
type PriceRef struct {
	Platform   string  `json:"platform"`
	Price      float64 `json:"price"`
	Currency   string  `json:"currency"`
	Unit       string  `json:"unit"`
	ObservedAt string  `json:"observed_at,omitempty"`
}

// workload turns slots into an advisor workload.
func workload(s parse.Slots) advisor.Workload {
	w := advisor.Workload{
		ParamsB: s.ParamsB, Method: advisor.Method(s.Method), Bits: s.Bits,
		Batch: s.Batch, SeqLen: s.SeqLen, NoGC: s.GC == "off",
		Optimizer: advisor.Optimizer(s.Optimizer), LoRARank: s.LoRARank, Arch: s.Arch, Model: s.Model,
		Engine: s.Engine, KVBits: s.KVBits, MemUtil: s.MemUtil, MaxSeqs: s.MaxSeqs, Stack: s.Stack,
	}
	if w.Model == "" { // a named architecture is a model of the catalogue
		w.Model = s.Arch
	}
	if s.Concurrency > 0 && (w.Method == advisor.Inference || w.Method == "") {
		w.Batch = s.Concurrency
	}
	return w
}

// assumed lists the values the engine filled in, by contract slot name.
func assumed(w advisor.Workload, gcGiven bool) map[string]any {
	out := map[string]any{}
	for _, name := range w.Defaulted {
		switch name {
		case "method":
			out["method"] = string(w.Method)
		case "bits":
			out["bits"] = w.Bits
		case "batch":
			if w.Method == advisor.Inference {
				out["concurrency"] = w.Batch
			} else {
				out["batch"] = w.Batch
			}
		case "seq_len":
			out["seq_len"] = w.SeqLen
		case "optimizer":
			out["optimizer"] = string(w.Optimizer)
		case "lora_rank":
			out["lora_rank"] = w.LoRARank
		case "engine": // serving settings
			out["engine"] = w.Engine
		case "kv_bits":
			out["kv_bits"] = w.KVBits
		case "gpu_mem_util":
			out["gpu_mem_util"] = w.MemUtil
		case "max_seqs":
			out["max_seqs"] = w.MaxSeqs
		case "stack":
			out["stack"] = w.Stack
		}
	}
	if w.Method != advisor.Inference && w.Method != advisor.Freeze && !gcGiven {
		out["gc"] = "on"
	}
	return out
}

func (b *Bot) fit(ctx context.Context, a *Answer, req parse.Request) error {
	if name := cmpOr(req.Slots.Model, req.Slots.Arch); b.imageModel(name) {
		req.Slots.Model = name
		return b.image(ctx, a, req)
	}
	w := workload(req.Slots)
	if kv, weightsSaid := kvBitsAsked(req.Text); kv && (w.Method == "" || w.Method == advisor.Inference) {
		// "and with FP8 KV cache?": the 8 bits are the cache's; the
		// weights keep theirs unless the message names them apart
		w.KVBits = 8
		if req.Slots.Bits == 8 && !weightsSaid {
			w.Bits = 0
			a.use("bits", "the KV cache's precision (8-bit KV cache); the weights keep theirs")
		}
	}
	gpus := b.kb.GPUs
	if len(req.Slots.GPUs) > 0 { // the user named cards: answer for those only
		gpus = nil
		for _, id := range req.Slots.GPUs {
			if g, ok := b.kb.GPU(id); ok {
				gpus = append(gpus, g)
			}
		}
	}
	res, err := b.mkt.Fit(w, gpus) // sizing kept in the prepared market
	if err != nil {
		return err
	}
	present.WordFit(&res) // the engine returns values; present writes the words
	a.Assumed = assumed(res.Workload, req.Slots.GC != "")
	view := FitResult{
		Model: res.Model, MemoryGB: res.TotalGB, Breakdown: res.Breakdown, Workload: res.Workload,
		Shape: res.Shape, Lines: res.Lines,
	}
	for _, t := range res.Assumptions {
		view.Assumptions = append(view.Assumptions, t.In(a.Lang))
	}
	cur, fx := b.currency(req), b.fx(req.Slots)
	m := b.market(ctx)
	for _, o := range res.Options {
		opt := FitOption{
			GPU: o.GPU, Name: o.Name, VRAMGB: o.VRAMGB, Count: o.Count, Fits: o.Fits,
			PerCardGB: o.PerCardGB, SpareGB: o.SpareGB, Note: o.Note.In(a.Lang),
			MaxBatch: o.MaxBatch, MaxConcurrency: o.MaxConcurrency, UpcastGB: o.UpcastGB,
			TrainTokensPerS: o.TrainTokensPerS,
		}
		// The cheapest on-demand offer for the card (spot and prepaid plans
		// would understate what running the job costs), in the answer's currency.
		if cp, ok, err := m.Cheapest(o.GPU, cur, fx, advisor.OfferFilter{NoInterruptible: true, NoMarketRange: !advisor.IsMarketRange(req.Slots.Platform), Platform: req.Slots.Platform}); err == nil && ok {
			opt.Cheapest = &PriceRef{Platform: cp.Platform, Price: cp.Low, Currency: string(cp.Currency), Unit: "card_hour", ObservedAt: cp.ObservedAt}
			opt.PerMTokens = advisor.Round2(advisor.JobCostPerMTokens(o, cp.Low)*100) / 100 // 4 decimals
		}
		view.Options = append(view.Options, opt)
	}
	for _, o := range view.Options {
		if o.Cheapest != nil {
			view.Assumptions = append(view.Assumptions, tr(a.Lang,
				"“from” prices: the cheapest on-demand offer per card in the catalogue (observed "+o.Cheapest.ObservedAt+"); dated ranges, not live quotes — see /gpu price <card> and confirm on the platform",
				"“低至”价格：目录中该卡最便宜的按需报价（采集于 "+o.Cheapest.ObservedAt+"），为带日期的区间而非实时报价；详见 /gpu price <卡>，下单前请到平台确认"))
			break
		}
	}
	if sizes := variantSizes(req); len(sizes) > 0 {
		// "最少要几张 H20？141G 和 96G": the sizes are the card's variants,
		// not what the asker has; each gets its count
		view.Variants = b.fitVariants(w, req.Slots.GPUs[0], sizes)
		a.use("vram_gb", "the card's memory variants: the count on each")
	} else if v, err := b.fitVerdict(w, req.Slots, res); err != nil {
		return err
	} else {
		view.Verdict = v
		a.verdictAsked = v != nil // the asker said what they have: the answer is whether it holds
		if v != nil && !v.Fits && res.Workload.Method != advisor.Inference {
			if sq, ok := b.mkt.SqueezeFit(w, v.VRAMGB, v.Have); ok {
				view.Squeeze = &sq
			}
		}
		view.Lower = b.lowerPrecisions(w, res, v)
		if v != nil && v.Fits && concurrencyAsked(req) {
			if tp, dp, err := b.mkt.Concurrency(w, b.verdictGPU(*v), v.Have); err == nil {
				v.MaxConcurrency, v.MaxConcurrencyDP = tp, dp
			}
		}
	}
	view.kvAsked = parse.AsksKVCache(req.Text) && res.Workload.Method == advisor.Inference && res.Breakdown.KVCacheGB > 0
	tip := b.activationTip(a.Lang, res)
	if tip != "" {
		view.Assumptions = append(view.Assumptions, tip)
	}
	a.Result = view
	a.Currency = string(cur)
	a.show(renderFit(a.Lang, req.Slots, a.Assumed, view, tip))
	return nil
}

// activationTip points out, when activations are most of a training job's
// memory, what batch 1 (or gradient checkpointing) would need instead.
func (b *Bot) activationTip(lang string, res advisor.FitResult) string {
	w := res.Workload
	if w.Method == advisor.Inference || res.TotalGB == 0 || res.Breakdown.ActivationsGB < 0.3*res.TotalGB {
		return ""
	}
	alt := w
	alt.Defaulted = nil
	var change []string
	if w.Batch > 1 {
		alt.Batch = 1
		change = append(change, "bs=1")
	}
	if w.NoGC {
		alt.NoGC = false
		change = append(change, "gc=on")
	}
	if len(change) == 0 {
		return ""
	}
	m, err := advisor.EstimateMemory(alt, b.kb.Archs)
	if err != nil || m.TotalGB >= res.TotalGB {
		return ""
	}
	opts := strings.Join(change, " ")
	return tr(lang,
		fmt.Sprintf("activations are %s GB of the %s GB; with %s the job needs about %s GB (add %s to the command)", fmtNum(res.Breakdown.ActivationsGB), fmtNum(res.TotalGB), opts, fmtNum(m.TotalGB), opts),
		fmt.Sprintf("激活值占了 %s GB（共 %s GB）；改用 %s 约需 %s GB（在命令后加 %s）", fmtNum(res.Breakdown.ActivationsGB), fmtNum(res.TotalGB), opts, fmtNum(m.TotalGB), opts))
}

// reNameGB is the memory in a card's name ("RTX 3060 12GB").
var reNameGB = regexp.MustCompile(`\d+(?:\.\d+)?GB`)

// fitVerdict checks the job against the asker's own cards: a VRAM they
// state ("24g够不", "2080ti 22g魔改"), a card count ("两张3090"), or the
// one card a yes/no question names ("3060 能 qlora 7b 吗"). A stated VRAM
// replaces the named card's (a modded 22 GB 2080 Ti is sized as 22 GB).
func (b *Bot) fitVerdict(w advisor.Workload, s parse.Slots, res advisor.FitResult) (*FitVerdict, error) {
	if s.VRAMGB <= 0 && s.Cards <= 0 && !(s.YesNo && len(s.GPUs) == 1) {
		return nil, nil
	}
	have := max(s.Cards, 1)
	var g knowledge.GPU
	if len(s.GPUs) > 0 {
		if kg, ok := b.kb.GPU(s.GPUs[0]); ok {
			g = kg
		}
	}
	if g.ID == "" && s.VRAMGB <= 0 {
		return nil, nil // "8 cards" of no card named: the list answers
	}
	if s.VRAMGB > 0 && s.VRAMGB != g.VRAMGB {
		if g.ID == "" {
			g = knowledge.GPU{ID: "your-card", Name: fmtNum(s.VRAMGB) + " GB"}
		} else if reNameGB.MatchString(g.Name) {
			g.Name = reNameGB.ReplaceAllString(g.Name, fmtNum(s.VRAMGB)+"GB") // a laptop "3060 6G": RTX 3060 6GB
		} else {
			g.Name = g.Name + " (" + fmtNum(s.VRAMGB) + " GB)"
		}
		g.VRAMGB = s.VRAMGB
	}
	var opt advisor.FitOption
	found := false
	for _, o := range res.Options {
		if o.GPU == g.ID && o.VRAMGB == g.VRAMGB {
			opt, found = o, true
		}
	}
	if !found {
		one, err := b.mkt.Fit(w, []knowledge.GPU{g})
		if err != nil {
			return nil, err
		}
		if len(one.Options) == 0 {
			return nil, nil
		}
		opt = one.Options[0]
	}
	v := &FitVerdict{GPU: g.ID, Name: g.Name, VRAMGB: g.VRAMGB, Have: have, Cards: opt.Count, Fits: opt.Count > 0 && opt.Count <= have,
		PerCardGB: opt.PerCardGB, SpareGB: opt.SpareGB,
		own: s.VRAMGB > 0 || g.Tier == knowledge.TierConsumer}
	return v, nil
}
