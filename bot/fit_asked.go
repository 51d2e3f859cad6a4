package bot

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// What a fit question asks besides "does it fit": the precisions that
// would ("fp16 放得下吗？放不下该用啥量化"), the card's memory variants
// ("141G 和 96G 两个版本分别说一下"), how many requests the cards hold
// ("roughly how many concurrent sequences?"), and the KV cache's own
// precision ("and with FP8 KV cache?"). The figures come from the
// advisor; fit_render.go words them.

// FitLower is the same inference at a lower weight precision on the
// asker's own cards: whether it holds there, and its memory.
type FitLower struct {
	Bits      int     `json:"bits"`
	MemoryGB  float64 `json:"memory_gb"`
	Cards     int     `json:"cards"` // cards of their size it needs (0: not even the cluster)
	Fits      bool    `json:"fits"`  // on the cards they have
	PerCardGB float64 `json:"per_card_gb"`
}

// FitVariant is one memory size of the card a "how many" question names.
type FitVariant struct {
	GPU       string  `json:"gpu"`
	Name      string  `json:"name"`
	VRAMGB    float64 `json:"vram_gb"`
	Cards     int     `json:"cards"` // 0: not even the cluster holds it
	PerCardGB float64 `json:"per_card_gb"`
	// MaxConcurrency is the requests of the workload's context the KV room
	// left on Cards holds (inference).
	MaxConcurrency float64 `json:"max_concurrency,omitempty"`
	// InCatalogue is false for a size the catalogue has no card of: it is
	// sized as the named card with that memory.
	InCatalogue bool `json:"in_catalogue"`
}

// lowerBits are the weight precisions tried when an inference misses the
// asker's card: 8-bit (INT8/FP8), then 4-bit (AWQ/GPTQ).
var lowerBits = []int{8, 4}

// verdictGPU is the card a verdict is about, with the memory the asker
// stated (a modded or laptop card is sized at its own memory).
func (b *Bot) verdictGPU(v FitVerdict) knowledge.GPU {
	g, ok := b.kb.GPU(v.GPU)
	if !ok {
		g = knowledge.GPU{ID: v.GPU}
	}
	g.Name, g.VRAMGB = v.Name, v.VRAMGB
	return g
}

// lowerPrecisions sizes an inference that misses the asker's cards at each
// lower weight precision, on their cards; nil when the job trains, holds,
// or is already 4-bit.
func (b *Bot) lowerPrecisions(w advisor.Workload, res advisor.FitResult, v *FitVerdict) []FitLower {
	if v == nil || v.Fits || res.Workload.Method != advisor.Inference {
		return nil
	}
	g := b.verdictGPU(*v)
	var out []FitLower
	for _, bits := range lowerBits {
		if bits >= res.Workload.Bits {
			continue
		}
		lw := w
		lw.Bits, lw.Defaulted = bits, nil
		r, err := b.mkt.Fit(lw, []knowledge.GPU{g})
		if err != nil || len(r.Options) == 0 {
			continue
		}
		o := r.Options[0]
		out = append(out, FitLower{Bits: bits, MemoryGB: r.TotalGB, Cards: o.Count, Fits: o.Count > 0 && o.Count <= v.Have, PerCardGB: o.PerCardGB})
	}
	return out
}

// reVRAMSize is a card memory said as "141G", "96GB", "80 GB".
var reVRAMSize = regexp.MustCompile(`(?i)\b(\d{2,3})\s?g(?:b|ib)?\b`)

// variantSizes are the memory sizes of the one card a "how many" question
// names ("最少要几张 H20？141G 和 96G 两个版本"), in the order said; nil
// when the question is not that (a count they have, a yes/no, several
// cards). The sizes are specifications, not what the asker has.
func variantSizes(req parse.Request) []float64 {
	s := req.Slots
	if !has(s.Targets, "cards") || s.Cards > 0 || s.YesNo || len(s.GPUs) != 1 || s.VRAMGB <= 0 {
		return nil
	}
	var sizes []float64
	for _, m := range reVRAMSize.FindAllStringSubmatch(req.Text, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil && !slices.Contains(sizes, float64(n)) {
			sizes = append(sizes, float64(n))
		}
	}
	if !slices.Contains(sizes, s.VRAMGB) {
		sizes = append([]float64{s.VRAMGB}, sizes...)
	}
	return sizes
}

// fitVariants sizes w on each memory size of the card gpu: the catalogue's
// card of that size where there is one ("h20-141g"), else the named card
// with that memory (InCatalogue false).
func (b *Bot) fitVariants(w advisor.Workload, gpu string, sizes []float64) []FitVariant {
	base, ok := b.kb.GPU(gpu)
	if !ok {
		return nil
	}
	var out []FitVariant
	for _, gb := range sizes {
		g, in := base, base.VRAMGB == gb
		if !in {
			if kg, ok := b.kb.GPU(base.ID + "-" + strconv.Itoa(int(gb)) + "g"); ok && kg.VRAMGB == gb {
				g, in = kg, true
			} else {
				g.VRAMGB = gb
			}
		}
		if !strings.Contains(g.Name, "GB") {
			g.Name += " " + fmtNum(gb) + "GB"
		}
		r, err := b.mkt.Fit(w, []knowledge.GPU{g})
		if err != nil || len(r.Options) == 0 {
			continue
		}
		o := r.Options[0]
		out = append(out, FitVariant{GPU: g.ID, Name: g.Name, VRAMGB: gb, Cards: o.Count, PerCardGB: o.PerCardGB,
			MaxConcurrency: o.MaxConcurrency, InCatalogue: in})
	}
	return out
}

// reKV8 is an 8-bit KV cache: "FP8 KV cache", "kv cache in fp8", "KV 缓存用
// int8", "kv_cache_dtype fp8".
var reKV8 = regexp.MustCompile(`(?i)(?:fp8|int8|8-?bit|8\s?位)\s*(?:的)?\s*kv|kv[\s_-]*(?:cache|缓存)?[\s_-]*(?:dtype)?\s*(?:in|at|as|to|=|用|为|改成|换成|改为)?\s*(?:fp8|int8|8-?bit|8\s?位)`)

// rePrecision is any weight precision word.
var rePrecision = regexp.MustCompile(`(?i)fp8|int8|8-?bit|int4|4-?bit|fp16|bf16|awq|gptq|fp4|nf4`)

// kvBitsAsked reads an 8-bit KV cache from text: kv is true when the text
// says one; weightsSaid is true when it also names a weight precision
// apart from the KV cache ("int4 weights and fp8 kv"), so the bits read
// are the weights' own.
func kvBitsAsked(text string) (kv, weightsSaid bool) {
	loc := reKV8.FindStringIndex(text)
	if loc == nil {
		return false, false
	}
	rest := text[:loc[0]] + " " + text[loc[1]:]
	return true, rePrecision.MatchString(rest)
}

// reConcurrencyAsked asks how many requests the cards serve at once.
var reConcurrencyAsked = regexp.MustCompile(`(?i)how many (?:concurrent|simultaneous|parallel)|concurrent (?:sequences|requests|users)|max(?:imum)? concurrency|同时跑多少|同时(?:处理|服务|支持|容纳)?多少|多少(?:路|条|个)?并发|并发(?:数|多少|能到多少)`)

// concurrencyAsked reports whether a fit question asks how many requests
// of its context the cards hold ("roughly how many concurrent sequences?",
// "大概能同时跑多少条序列").
func concurrencyAsked(req parse.Request) bool {
	return has(req.Slots.Targets, "concurrency") || reConcurrencyAsked.MatchString(req.Text)
}
