package advisor

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/gpubot/gpubot/knowledge"
)

// Card facts: a question about a card rather than a job ("what can a 5090
// run?", "does the 3090 support BF16?", "is NVLink worth it on two
// 3090s?"). The facts are the card table's (knowledge/data/gpus.yaml, with
// its sources); the capacity is the fit engine's own rule (Fit), searched
// for the largest model each method holds on the cards.

// CardCapacity is the largest model one method holds on the cards.
type CardCapacity struct {
	Method Method `json:"method"`
	Bits   int    `json:"bits"`
	// MaxParamsB is the largest dense model (billions of parameters, one
	// decimal, rounded down) the cards hold with the method's default
	// workload; 0 when not even the smallest does.
	MaxParamsB float64 `json:"max_params_b"`
	// Model is the largest dense catalogue model that holds (its id) and
	// ModelParamsB its size; "" when none does.
	Model        string  `json:"model,omitempty"`
	ModelParamsB float64 `json:"model_params_b,omitempty"`
	// Note says how the precision runs on the card when it is not native
	// (FP8 weights upcast on a V100, FP16 for BF16 without BF16).
	Note Text `json:"note,omitempty"`
}

// CardFacts answers a question about one card (or n of it).
type CardFacts struct {
	GPU   string `json:"gpu"`
	Name  string `json:"name"`
	Cards int    `json:"cards"`

	VRAMGB       float64 `json:"vram_gb"` // per card
	TotalVRAMGB  float64 `json:"total_vram_gb"`
	BandwidthGBs float64 `json:"bandwidth_gbs"`
	// BF16 is a BF16 tensor path; FP16Only marks cards that have FP16
	// tensor cores but no BF16 (V100, T4): BF16 training there falls back
	// to FP16 with loss scaling, or to FP32.
	BF16     bool    `json:"bf16"`
	FP16Only bool    `json:"fp16_only,omitempty"`
	FP8      bool    `json:"fp8"`
	FP4      bool    `json:"fp4,omitempty"`
	PeakTF   float64 `json:"peak_tflops"` // the 16-bit dense tensor peak the engine uses (PeakTFLOPS)
	FP8TF    float64 `json:"fp8_tflops,omitempty"`
	NVLink   float64 `json:"nvlink_gbs"` // bidirectional per card; 0 = none in the card table
	Fabric   string  `json:"fabric,omitempty"`
	FabricGB float64 `json:"fabric_gbs,omitempty"`
	PCIeGen  int     `json:"pcie_gen,omitempty"`
	TDPWatts float64 `json:"tdp_watts,omitempty"`

	Capacity    []CardCapacity `json:"capacity"`
	Lines       []Line         `json:"lines"`
	Assumptions []Text         `json:"assumptions"`
	// Assumed is Assumptions as values, in its order; bot/present words
	// them (present.WordCard), and the lines by their keys.
	Assumed []CardNote `json:"-"`
	Sources []string   `json:"sources"`
	Notes   string     `json:"notes,omitempty"`
	// SeedDisagrees is where the seed documents give another figure.
	SeedDisagrees string `json:"seed_disagrees,omitempty"`
	Confidence    string `json:"confidence,omitempty"`
}

// CardNote is one of a card answer's assumptions; bot/present words it.
type CardNote string

// A card answer's assumptions.
const (
	CardCapacityRule CardNote = "capacity_rule" // the fit rule and defaults capacity is sized by
	CardDenseSizes   CardNote = "dense_sizes"   // sizes are for dense models
	CardNoBF16       CardNote = "no_bf16"       // training on a card without BF16
)

// cardMethods are the capacity rows, in the order an answer lists them.
var cardMethods = []struct {
	m    Method
	bits int
}{{Inference, 16}, {Inference, 8}, {Inference, 4}, {QLoRA, 4}, {LoRA, 16}, {Full, 16}}

// Card returns the facts of card g and, for n of them (n < 1 reads as 1),
// the largest model each method holds under Fit's rule with its default
// workload (inference: one 4,096-token request; training: micro-batch 1 ×
// 2,048 tokens, gradient checkpointing, AdamW).
func Card(g knowledge.GPU, n int, archs []knowledge.Arch) (CardFacts, error) {
	return cardFacts(g, n, archs, nil)
}

// Card is Card over the market's architectures, the estimates its search
// makes kept in the market's cache: cards of one size ask the same
// sizes, and a card asked about again reads them all back.
func (m Market) Card(g knowledge.GPU, n int) (CardFacts, error) {
	return cardFacts(g, n, m.Archs, m.engine())
}

// cardFacts is Card, its estimates kept in c (nil: for this call only).
func cardFacts(g knowledge.GPU, n int, archs []knowledge.Arch, c *cache) (CardFacts, error) {
	if g.ID == "" || g.VRAMGB <= 0 {
		return CardFacts{}, inputErr("gpu", "which card? name one from the card table", "what can a 4090 run?")
	}
	if n < 1 {
		n = 1
	}
	if n > MaxClusterCards {
		return CardFacts{}, inputErr("cards", fmt.Sprintf("at most %d cards, got %d", MaxClusterCards, n), "what can 2 × 4090 run?")
	}
	f := CardFacts{
		GPU: g.ID, Name: g.Name, Cards: n,
		VRAMGB: g.VRAMGB, TotalVRAMGB: g.VRAMGB * float64(n), BandwidthGBs: g.BandwidthGBs,
		BF16: g.BF16TFLOPS > 0, FP16Only: g.BF16TFLOPS == 0 && g.FP16TFLOPS > 0,
		FP8: g.FP8TFLOPS > 0, FP4: g.FP4TFLOPS > 0, PeakTF: g.PeakTFLOPS(), FP8TF: g.FP8TFLOPS,
		NVLink: g.NVLinkGBs, Fabric: g.Fabric, FabricGB: g.FabricGBs, PCIeGen: g.PCIeGen, TDPWatts: g.TDPWatts,
		Sources: g.Sources, Notes: g.Notes, SeedDisagrees: g.SeedDisagrees, Confidence: g.Confidence,
	}
	f.Lines = append(f.Lines,
		Line{Key: "vram_gb", Value: g.VRAMGB, Unit: "GB", How: "card table"},
		Line{Key: "bandwidth_gbs", Value: g.BandwidthGBs, Unit: "GB/s", How: "card table"},
		Line{Key: "peak_tflops", Value: g.PeakTFLOPS(), Unit: "TFLOPS", How: precisionHow(g)},
	)
	if n > 1 {
		f.Lines = append(f.Lines, Line{Key: "total_vram_gb", Value: f.TotalVRAMGB, Unit: "GB",
			How: fmt.Sprintf("%d × %s GB", n, num(g.VRAMGB))})
	}
	// Each probe is Fit's rule on the one card, from a quiet estimate (the
	// figures only). A bare size is shaped like one of the stand-ins
	// (ShapeFor), so its probes look through those alone.
	var dense []denseModel
	var stand []knowledge.Arch
	if c != nil {
		dense, stand = c.cardLists()
	} else {
		dense, stand = cardLists(archs)
	}
	size := func(w Workload) memEntry {
		as := archs
		if w.Model == "" && w.Arch == "" {
			as = stand
		}
		if c != nil {
			return c.quietSized(w, as)
		}
		return quietSize(w, as)
	}
	for _, cm := range cardMethods {
		c := CardCapacity{Method: cm.m, Bits: cm.bits, Note: runsOn(Workload{Method: cm.m, Bits: cm.bits}, g).note}
		bound := weightsBound(cm.bits, g.VRAMGB, n)
		probe := func(w Workload) bool {
			if w.ParamsB > bound {
				return false // the weights alone do not fit (weightsBound)
			}
			w.Method, w.Bits = cm.m, cm.bits
			return holds(w, g, n, size)
		}
		c.MaxParamsB = largestHeld(func(p float64) bool { return probe(Workload{ParamsB: p}) })
		// The catalogue's sizes rise with the list; what holds is a prefix
		// of it, up to the rule's small non-monotone steps between
		// architectures, so the largest is searched for from the top down
		// among the ones no bigger than the generic bound allows (+10 %).
		for i := len(dense) - 1; i >= 0; i-- {
			a := dense[i]
			if a.ParamsB > c.MaxParamsB*1.1+0.5 {
				continue
			}
			if probe(Workload{Model: a.ID, ParamsB: a.ParamsB}) {
				c.Model, c.ModelParamsB = a.ID, round(a.ParamsB, 2)
				break
			}
		}
		f.Capacity = append(f.Capacity, c)
		f.Lines = append(f.Lines, Line{Key: "max_params_b_" + string(cm.m) + fmt.Sprint(cm.bits),
			Value: c.MaxParamsB, Unit: "B params",
			How: "the largest size the fit rule still holds (binary search over the size, 0.1B steps)"})
	}
	f.Assumed = []CardNote{CardCapacityRule, CardDenseSizes}
	if f.FP16Only {
		f.Assumed = append(f.Assumed, CardNoBF16)
	}
	return f, nil
}

// precisionHow says which precision the 16-bit peak is.
func precisionHow(g knowledge.GPU) string {
	switch {
	case g.BF16TFLOPS > 0:
		return "BF16 dense tensor, card table"
	case g.FP16TFLOPS > 0:
		return "FP16 dense tensor (no BF16 on this card), card table"
	}
	return "FP32 (no tensor cores), card table"
}

// largestHeld is the largest size in billions (0.1 steps, rounded down)
// for which holds is true, by bisection between 0.1B and MaxParamsB; 0
// when even 0.1B does not hold. Memory grows with the size, so what holds
// is an interval from the bottom.
func largestHeld(holds func(p float64) bool) float64 {
	lo, hi := 1, int(MaxParamsB*10) // tenths of a billion
	if !holds(0.1) {
		return 0
	}
	if holds(MaxParamsB) {
		return MaxParamsB
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if holds(float64(mid) / 10) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return float64(lo) / 10
}

// weightsBound is a size (billions) whose weights alone, at bits per
// parameter, exceed what n cards of vram GB can give a replica under any
// memory rule: no larger model holds, so the search need not size it.
// Weights take at least bits ÷ 8 bytes per parameter (embeddings kept in
// 16 bits and quantisation scales only add), and every rule leaves at most
// vram GiB per card for the fixed part (vLLM and TensorRT-LLM: a fraction
// of GiB ≤ 1; training: (vram − 0.8) ÷ 1.05). 1 % is added for rounding.
func weightsBound(bits int, vram float64, n int) float64 {
	cards := 1
	for _, k := range cardCounts {
		if k <= n {
			cards = k
		}
	}
	return 1.01 * float64(cards) * vram * gibPerGB / (float64(bits) / 8)
}

// denseCatalogue is the catalogue's dense models in 16-bit release
// formats, smallest first (a mixture of experts or an FP8 release sizes
// otherwise; the size bound covers them).
func denseCatalogue(archs []knowledge.Arch) []denseModel {
	var out []denseModel
	for _, a := range archs {
		if a.MoE() || a.ParamsB <= 0 || math.IsNaN(a.ParamsB) {
			continue
		}
		switch a.WeightFormat() {
		case "", "bf16", "fp16", "fp32":
		default:
			continue
		}
		out = append(out, denseModel{a.ID, a.ParamsB})
	}
	slices.SortStableFunc(out, func(a, b denseModel) int { return cmp.Compare(a.ParamsB, b.ParamsB) })
	return out
}

// cardLists is what a card-facts search reads from the architectures: the
// dense catalogue and the stand-ins (the architectures themselves when
// none stands in).
func cardLists(archs []knowledge.Arch) ([]denseModel, []knowledge.Arch) {
	stand := standIns(archs)
	if len(stand) == 0 {
		stand = archs
	}
	return denseCatalogue(archs), stand
}

// cardLists is cardLists over the cache's architectures, made once.
func (c *cache) cardLists() ([]denseModel, []knowledge.Arch) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dense == nil {
		c.dense, c.stand = cardLists(c.archs)
	}
	return c.dense, c.stand
}

// denseModel is a catalogue model Card searches: its id and size.
type denseModel struct {
	ID      string
	ParamsB float64
}

// CardFit is one way of running a named model on the cards.
type CardFit struct {
	Method   Method  `json:"method"`
	Bits     int     `json:"bits"`
	MemoryGB float64 `json:"memory_gb"` // one replica, all cards together
	Count    int     `json:"count"`     // fewest cards that hold it; 0: not even MaxClusterCards
	Fits     bool    `json:"fits"`      // holds on the cards given
	Note     Text    `json:"note,omitempty"`
}

// CardModel sizes workload w (its model and settings; Method and Bits
// chosen here) on n of card g for each precision its method runs at:
// inference 16/8/4-bit, LoRA 16 and QLoRA 4 for an adapter question,
// full 16. w.Method empty reads as inference.
func CardModel(g knowledge.GPU, n int, w Workload, archs []knowledge.Arch) ([]CardFit, error) {
	if g.ID == "" || g.VRAMGB <= 0 {
		return nil, inputErr("gpu", "which card? name one from the card table", "what can a 4090 run?")
	}
	if n < 1 {
		n = 1
	}
	var variants []struct {
		m    Method
		bits int
	}
	add := func(m Method, bits ...int) {
		for _, b := range bits {
			variants = append(variants, struct {
				m    Method
				bits int
			}{m, b})
		}
	}
	switch w.Method {
	case "", Inference:
		add(Inference, 16, 8, 4)
	case LoRA, QLoRA:
		add(LoRA, 16)
		add(QLoRA, 8, 4)
	default:
		add(w.Method, 16)
	}
	var out []CardFit
	for _, v := range variants {
		wv := w
		wv.Method, wv.Bits, wv.Native = v.m, v.bits, ""
		r, err := Fit(wv, []knowledge.GPU{g}, archs)
		if err != nil {
			return nil, err
		}
		o := r.Options[0]
		mem := r.TotalGB
		if o.UpcastGB > 0 { // no kernels for the precision: held upcast (Fit's rule)
			mem = o.UpcastGB
		}
		out = append(out, CardFit{Method: v.m, Bits: v.bits, MemoryGB: round(mem, 1), Count: o.Count,
			Fits: o.Count > 0 && o.Count <= n, Note: runsOn(wv, g).note})
	}
	return out, nil
}
