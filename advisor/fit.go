package advisor

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// cardCounts are the layouts tried: one card, then a single machine's common
// sizes, then whole 8-card machines (multi-node) up to 8 machines.
var cardCounts = []int{1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64, 96, 128, 192, 256, 384, 512, 768, 1024,
	1536, 2048, 3072, 4096, 6144, 8192, 12288, MaxClusterCards}

// trainCounts are the layouts tried for training: any count up to one
// machine (FSDP/ZeRO-3 shards the flat parameters evenly over however many
// ranks there are — nothing has to divide the layers or heads, so 3 cards
// are a layout like 2 or 4), then whole 8-card machines as in cardCounts.
// Inference keeps cardCounts: tensor parallelism splits the attention heads
// and vLLM requires the tensor-parallel size to divide them (64 query and 8
// KV heads for Llama 3 70B: 1, 2, 4 or 8 cards).
var trainCounts = append([]int{1, 2, 3, 4, 5, 6, 7}, cardCounts[3:]...)

// MaxClusterCards is the largest cluster the engine sizes (16,384 cards,
// the size Meta trained Llama 3 405B on).
const MaxClusterCards = 16384

// FitOption is the verdict for one card model.
type FitOption struct {
	GPU       string  `json:"gpu"`
	Name      string  `json:"name"`
	VRAMGB    float64 `json:"vram_gb"`
	Count     int     `json:"count"` // cards needed; 0 when even 64 are not enough
	Fits      bool    `json:"fits"`  // fits on a single card
	PerCardGB float64 `json:"per_card_gb"`
	SpareGB   float64 `json:"spare_gb"` // per card, at Count: memory left (training), KV room left inside the engine's fraction (inference)
	Tier      string  `json:"tier"`
	Note      Text    `json:"note"`
	// Remarks are Note as values: how the card runs the precision, then
	// what its layout costs (FitNote); bot/present words and joins them.
	Remarks []FitNote `json:"-"`
	// MaxBatch (training): the largest micro-batch per card at the
	// workload's sequence length on Count cards. MaxConcurrency
	// (inference): how many requests of the workload's context the KV
	// cache left on Count cards holds, as vLLM reports it ("Maximum
	// concurrency for N tokens per request: X").
	MaxBatch       int     `json:"max_batch,omitempty"`
	MaxConcurrency float64 `json:"max_concurrency,omitempty"`
	// UpcastGB is one replica's memory on this card when it has no kernels
	// for the FP8 weights and holds them upcast to 16 bits (Note says so);
	// 0 when the card runs the workload as asked (memory_gb).
	UpcastGB float64 `json:"upcast_gb,omitempty"`
	// TrainTokensPerS (training) is how fast the layout trains: Count ×
	// the card's 16-bit tensor peak × the default MFU × the multi-card
	// efficiency ÷ training FLOPs per token. With an hourly price it gives
	// the cost to finish a job (JobCostPerMTokens), which ranks the cards.
	TrainTokensPerS float64 `json:"train_tokens_per_s,omitempty"`
}

// JobCostPerMTokens is what a million training tokens cost on option o at
// hourly per card: hourly × cards ÷ (tokens/s × 3600) × 10⁶. 0 when the
// option has no training speed.
func JobCostPerMTokens(o FitOption, hourly float64) float64 {
	if o.TrainTokensPerS <= 0 || o.Count <= 0 {
		return 0
	}
	return hourly * float64(o.Count) / (o.TrainTokensPerS * 3600) * 1e6
}

// trainSpeed is n cards of g's training tokens/s for mem's job at the
// default MFU, with the card's real precision (PeakTFLOPS: BF16, else FP16
// tensor cores as on V100/T4, else FP32).
func trainSpeed(g knowledge.GPU, n int, mem Memory) float64 {
	w := mem.Workload
	peak := g.PeakTFLOPS()
	fpt := trainingFLOPsOnly(w.Method, mem.Shape.ComputeB*1e9, mem.Trainable, 1)
	if peak <= 0 || fpt <= 0 || n <= 0 {
		return 0
	}
	mfu := DefaultMFU(w.Method, g)
	eff := clusterScaling(g, n, w, mem, fpt, peak, mfu, 0).Efficiency
	return float64(n) * peak * 1e12 * mfu * eff / fpt
}

// FitResult answers "will it fit, and on what?".
type FitResult struct {
	Memory
	Model   string      `json:"model,omitempty"` // catalogue id when a model was named
	Options []FitOption `json:"options"`
	// SeedSetupGB is the same training job at the cost-performance
	// report's batch 4 × 4,096 tokens, when batch and length were defaulted.
	SeedSetupGB float64 `json:"seed_setup_gb,omitempty"`
	// FitNotes are the fit's own assumptions as values, in the order they
	// follow the memory estimate's in Assumptions; bot/present words them.
	FitNotes []FitNote `json:"-"`
}

// FitNote is one of a fit's assumptions, or a remark on one card's
// layout, as a kind and the operands its sentence names; bot/present
// (present.FitNote) words it. The fields a kind does not use are zero.
type FitNote struct {
	Kind FitNoteKind
	// Precision: how the cards run the precision, worded where the rule
	// is (runsOn); Cards are the cards it is about (empty on a card's own
	// remark) and UpcastGB one replica held upcast, where it is.
	Precision Text
	Cards     []string
	UpcastGB  float64
	// SeqLen, Batch and PerSeqGB: the sequence, the batch and what each
	// more sequence needs per replica (FitMaxBatch, FitConcurrency…);
	// Chunk is the prefill chunk (FitConcurrency); SeedGB the seed setup's
	// memory (FitSeedSetup).
	SeqLen, Batch int
	PerSeqGB      float64
	Chunk         int
	SeedGB        float64
	// N is the cluster's most cards (FitNoRoom) or the machines of 8
	// (FitMultiNode); Fabric and LinkGBs the link between cards.
	N       int
	Fabric  string
	LinkGBs float64
}

// FitNoteKind names what a FitNote says.
type FitNoteKind string

// A fit's assumptions and a card's remarks.
const (
	FitPrecision      FitNoteKind = "precision"       // how (some) cards run the precision
	FitShardTraining  FitNoteKind = "shard_training"  // FSDP/ZeRO-3 over several cards
	FitShardInference FitNoteKind = "shard_inference" // tensor parallel over several cards
	FitMaxBatch       FitNoteKind = "max_batch"       // what max_batch means
	FitCostToFinish   FitNoteKind = "cost_to_finish"  // how the cards are ranked
	FitSeedSetup      FitNoteKind = "seed_setup"      // the default batch, and the report's
	FitConcurrencyHF  FitNoteKind = "concurrency_hf"  // max_concurrency under generate()
	FitConcurrency    FitNoteKind = "concurrency"     // max_concurrency as vLLM reports it
	FitNoRoom         FitNoteKind = "no_room"         // a card's remark: not even on N cards
	FitMultiNode      FitNoteKind = "multi_node"      // N machines of 8 cards
	FitPCIeOnly       FitNoteKind = "pcie_only"       // training over PCIe
	FitSlowFabric     FitNoteKind = "slow_fabric"     // a fabric under full NVLink
	FitReducedNVLink  FitNoteKind = "reduced_nvlink"  // a cut-down NVLink
)

// Fit sizes the workload and checks it against every card. A layout of n
// cards holds the job when its batch fits under the limits rule (FSDP/ZeRO-3
// for training: states sharded, activations per card; tensor parallel for
// inference: KV split by head); each card keeps its own fixed overhead.
func Fit(w Workload, gpus []knowledge.GPU, archs []knowledge.Arch) (FitResult, error) {
	return fitWith(newCache(archs), w, gpus, archs)
}

// holds is Fit's rule for one card: Fit(w, {g}, archs) holds the job on
// 1 to n cards (its option's count), worked out from quiet estimates (the
// figures only) that size makes.
func holds(w Workload, g knowledge.GPU, n int, size func(Workload) memEntry) bool {
	e := size(w)
	if e.err != nil {
		return false
	}
	lim := e.lim
	if on := runsOn(e.mem.Workload, g); on.upcast {
		u := size(on.w)
		if u.err != nil {
			return false
		}
		lim = u.lim
	}
	k := lim.minCards(g.VRAMGB, e.mem.Workload.Batch)
	return k > 0 && k <= n
}

// quietSize is sizeOf without the estimate's steps and assumptions.
func quietSize(w Workload, archs []knowledge.Arch) memEntry {
	mem, err := estimateMemory(w, archs, true)
	var lim limits
	if err == nil {
		lim, err = newLimits(mem, archs)
	}
	return memEntry{mem, lim, err}
}

// Fit is Fit over the market's architectures, its sizing kept in the
// market's cache (the bot asks about a few dozen workloads).
func (m Market) Fit(w Workload, gpus []knowledge.GPU) (FitResult, error) {
	return fitWith(m.engine(), w, gpus, m.Archs)
}

// fitWith is Fit with its sizing kept in c.
func fitWith(c *cache, w Workload, gpus []knowledge.GPU, archs []knowledge.Arch) (FitResult, error) {
	// The estimate and its limits are the same for every card: computed
	// once.
	e := c.sized(w, archs)
	if e.err != nil {
		return FitResult{}, e.err
	}
	mem, lim := e.mem, e.lim
	res := FitResult{Memory: mem, Model: mem.Workload.Model}
	// How the precision runs, once per distinct note, with its cards: an
	// option's note is shown beside multi-card layouts only, so the
	// assumptions carry it for every card (a single named card included).
	var precNotes []Text
	precCards := map[string][]string{}
	var upcastGB float64 // one replica held upcast, where a card needs it
	// Overhead per card: the fixed part stays, the proportional part shards.
	for _, g := range gpus {
		opt := FitOption{GPU: g.ID, Name: g.Name, VRAMGB: g.VRAMGB, Tier: string(g.Tier)}
		// A card without kernels for the precision holds what it really
		// runs (FP8 upcast to 16 bits); its option says so.
		on := runsOn(mem.Workload, g)
		cLim := lim
		if on.upcast {
			u := c.sized(on.w, archs)
			if u.err != nil {
				return FitResult{}, u.err
			}
			cLim = u.lim
			opt.UpcastGB, upcastGB = u.mem.TotalGB, u.mem.TotalGB
		}
		// One rule decides the count, the per-card figure and the batch
		// left: a layout holds the job when its Batch sequences fit.
		if n := cLim.minCards(g.VRAMGB, mem.Workload.Batch); n > 0 {
			b := mem.Workload.Batch
			opt.Count, opt.PerCardGB, opt.SpareGB = n, round(cLim.perCard(n, b), 2), round(cLim.spare(g.VRAMGB, n, b), 2)
			if mem.Workload.trains() {
				opt.MaxBatch = cLim.maxBatch(g.VRAMGB, n)
				opt.TrainTokensPerS = round(trainSpeed(g, n, mem), 1)
			} else {
				opt.MaxConcurrency = cLim.maxConcurrency(g.VRAMGB, n)
			}
		}
		opt.Fits = opt.Count == 1
		remark := fitRemark(mem.Workload, g, opt.Count)
		if on.note.EN != "" {
			opt.Remarks = append(opt.Remarks, FitNote{Kind: FitPrecision, Precision: on.note})
		}
		if remark.Kind != "" {
			opt.Remarks = append(opt.Remarks, remark)
		}
		if on.note.EN != "" {
			if _, seen := precCards[on.note.EN]; !seen {
				precNotes = append(precNotes, on.note)
			}
			precCards[on.note.EN] = append(precCards[on.note.EN], g.Name)
		}
		res.Options = append(res.Options, opt)
	}
	note := func(n FitNote) {
		res.FitNotes = append(res.FitNotes, n)
	}
	for _, n := range precNotes {
		pn := FitNote{Kind: FitPrecision, Precision: n, Cards: precCards[n.EN]}
		if strings.Contains(n.EN, "upcast") {
			pn.UpcastGB = upcastGB
		}
		note(pn)
	}
	if mem.Workload.trains() {
		note(FitNote{Kind: FitShardTraining})
	} else {
		note(FitNote{Kind: FitShardInference})
	}
	w = mem.Workload
	if w.trains() {
		note(FitNote{Kind: FitMaxBatch, SeqLen: w.SeqLen, PerSeqGB: round(lim.perSeq, 2)})
		note(FitNote{Kind: FitCostToFinish})
		if slices.Contains(w.Defaulted, "batch") && slices.Contains(w.Defaulted, "seq_len") {
			seed := w
			seed.Batch, seed.SeqLen, seed.Defaulted = 4, 4096, nil
			if m4 := c.sized(seed, archs); m4.err == nil {
				res.SeedSetupGB = m4.mem.TotalGB
				note(FitNote{Kind: FitSeedSetup, Batch: w.Batch, SeqLen: w.SeqLen, SeedGB: m4.mem.TotalGB})
			}
		}
	} else if w.generate() {
		note(FitNote{Kind: FitConcurrencyHF, SeqLen: w.SeqLen, PerSeqGB: lim.perSeq, Batch: w.Batch})
	} else {
		note(FitNote{Kind: FitConcurrency, SeqLen: w.SeqLen, Chunk: inferChunkTokens, PerSeqGB: lim.perSeq, Batch: w.Batch})
	}
	return res, nil
}

// limits is the one memory rule of every answer: what a replica needs
// apart from what grows with the batch (fixed), what each more sequence
// adds (perSeq), and how both divide over n cards.
//
// Training (FSDP / ZeRO-3): weights, gradients and optimizer states shard
// evenly, but each card runs its own micro-batch of Batch sequences and
// keeps that micro-batch's activations whole — ZeRO-3 shards states, not
// activations (Rajbhandari et al. 2020, §5; only tensor parallelism splits
// activations, in part: Korthikanti et al. 2022, §4).
//
// Inference (tensor parallel): weights and the prefill activations split
// over the cards; the KV cache splits by KV head (Shape.kvShare), which
// copies heads past tp = kv_heads and keeps an MLA latent whole.
type limits struct {
	fixed, perSeq float64
	train         bool
	shape         Shape
	// own is what each card holds whole whatever the layout: the CUDA
	// context and the stack's buffers (Memory.own).
	own float64
	// Inference: the serving engine's memory rule (Workload.Engine,
	// Workload.MemUtil).
	engine string
	util   float64
}

// gibPerGB reads a card's advertised memory in GiB, as the serving engines
// see it: HBM and GDDR come in binary sizes (an "80 GB" A100 reports
// 81,920 MiB, an H100 81,559 MiB), 1.074 × 10⁹ bytes per advertised GB.
const gibPerGB = float64(1<<30) / bytesPerGB

// newLimits measures fixed and per-sequence memory. Training memory is
// linear in the batch: fixed is the weights, gradients and optimizer
// states; perSeq one sequence's activations. For inference vLLM's rule is
// used: the KV cache gets what is left after the weights and the
// activations of a full prefill chunk, and one request of the context
// costs its KV cache.
func newLimits(mem Memory, archs []knowledge.Arch) (limits, error) {
	w := mem.Workload
	if w.generate() {
		// transformers' generate(): each request adds its KV cache and
		// its prompt's activations; nothing is preallocated, so the
		// PyTorch allocator rule of training applies (util 0).
		one := w
		one.Batch = 1
		m, err := estimateMemory(one, archs, true) // the figures only
		if err != nil {
			return limits{}, err
		}
		return limits{fixed: m.raw.WeightsGB, perSeq: m.raw.KVCacheGB + m.raw.ActivationsGB, shape: mem.Shape, own: m.own}, nil
	}
	if !w.trains() {
		full := w
		full.Batch = max(1, (inferChunkTokens+w.SeqLen-1)/w.SeqLen)
		m, err := estimateMemory(full, archs, true) // the figures only
		if err != nil {
			return limits{}, err
		}
		per := m.raw.KVCacheGB / float64(full.Batch)
		return limits{fixed: m.raw.WeightsGB + m.raw.ActivationsGB, perSeq: per, shape: mem.Shape, engine: w.Engine, util: w.MemUtil, own: m.own}, nil
	}
	return trainLimits(mem), nil
}

// trainLimits reads a training estimate's limits from its breakdown (every
// activation term is proportional to the batch).
func trainLimits(mem Memory) limits {
	b := mem.raw
	return limits{fixed: b.WeightsGB + b.GradientsGB + b.OptimizerGB, perSeq: b.ActivationsGB / float64(max(mem.Workload.Batch, 1)),
		train: true, shape: mem.Shape, own: mem.own}
}

// share is the part of one sequence's memory each of n cards holds.
func (l limits) share(n int) float64 {
	if l.train {
		return 1
	}
	return l.shape.kvShare(n)
}

// room is the memory one of n cards of vram GB has for what grows with
// the batch, after its share of the fixed part and its overhead:
//
//	training (PyTorch allocator)  (vram − own) ÷ 1.05 − fixed ÷ n
//	vLLM                          util × vram GiB − own − fixed ÷ n
//	TensorRT-LLM                  util × (vram GiB − own − fixed ÷ n)
//
// own is the 0.8 GB CUDA context, plus ZeRO-3's buffers under
// stack=deepspeed; stack=hf inference (generate) takes the training rule.
// vLLM lets weights, activations and KV cache take gpu_memory_utilization
// of the whole card, the CUDA context inside it; TensorRT-LLM gives the KV
// cache free_gpu_memory_fraction of what is free after the weights. Both
// preallocate the paged cache, so no allocator margin is held back.
func (l limits) room(vram float64, n int) float64 {
	part := l.fixed / float64(n)
	switch {
	case l.train || l.util == 0:
		return (vram-l.own)/(1+overheadFrac) - part
	case l.engine == EngineTRTLLM:
		return l.util * (vram*gibPerGB - l.own - part)
	}
	return l.util*vram*gibPerGB - l.own - part
}

// perCard is one card's memory with batch sequences on n cards, overhead
// included (training: 0.8 GB and 5 % of its share; serving: the 0.8 GB
// CUDA context).
func (l limits) perCard(n, batch int) float64 {
	v := l.fixed/float64(n) + float64(batch)*l.perSeq*l.share(n)
	if l.train || l.util == 0 {
		return v*(1+overheadFrac) + l.own
	}
	return v + l.own
}

// spare is what n cards of vram GB still have with batch sequences: the
// card's memory left (training), the engine's KV room left (serving).
func (l limits) spare(vram float64, n, batch int) float64 {
	if l.train || l.util == 0 {
		return vram - l.perCard(n, batch)
	}
	return l.room(vram, n) - float64(batch)*l.perSeq*l.share(n)
}

// seqs is how many sequences of per GB (a replica's worth) n cards of vram
// GB hold next to the fixed part, under the same rule.
func (l limits) seqs(vram, per float64, n int) float64 {
	if per <= 0 {
		return 0
	}
	return l.room(vram, n) / (per * l.share(n))
}

// minCards is the fewest layout cards of vram GB that hold batch
// sequences, or 0 when even the largest does not.
func (l limits) minCards(vram float64, batch int) int {
	counts := cardCounts
	if l.train {
		counts = trainCounts
	}
	for _, n := range counts {
		if l.seqs(vram, l.perSeq, n) >= float64(max(batch, 1))-1e-9 {
			return n
		}
	}
	return 0
}

// maxBatch is the largest micro-batch per card on n cards; 0 when not one
// sequence fits (the layout does not hold the job).
func (l limits) maxBatch(vram float64, n int) int {
	return max(0, int(math.Floor(l.seqs(vram, l.perSeq, n)+1e-9)))
}

// maxConcurrency is the KV room over one request's KV cache, 2 decimals.
func (l limits) maxConcurrency(vram float64, n int) float64 {
	return math.Max(0, math.Floor(l.seqs(vram, l.perSeq, n)*100+1e-9)/100)
}

// fitRemark is what a layout of n cards of g costs the job, beyond
// holding it: no room, several machines, a slow link. Kind "": nothing.
func fitRemark(w Workload, g knowledge.GPU, n int) FitNote {
	switch {
	case n == 0:
		return FitNote{Kind: FitNoRoom, N: MaxClusterCards}
	case n > 8:
		return FitNote{Kind: FitMultiNode, N: n / 8}
	case n > 1 && g.LinkGBs() == 0 && w.trains():
		return FitNote{Kind: FitPCIeOnly}
	case n > 1 && g.NVLinkGBs == 0 && g.FabricGBs > 0 && g.FabricGBs < 600:
		return FitNote{Kind: FitSlowFabric, Fabric: g.Fabric, LinkGBs: g.FabricGBs}
	case n > 1 && g.NVLinkGBs > 0 && g.NVLinkGBs < 600:
		return FitNote{Kind: FitReducedNVLink, LinkGBs: g.NVLinkGBs}
	}
	return FitNote{}
}

// MinCards is the smallest card count that holds the workload on g, or 0.
func (r FitResult) MinCards(gpuID string) int {
	for _, o := range r.Options {
		if o.GPU == gpuID {
			return o.Count
		}
	}
	return 0
}

// Squeeze is a training job that misses n cards of a size by a little,
// made to fit by a lighter setting.
type Squeeze struct {
	// NeedGB is one card's memory for the job as asked on the n cards.
	NeedGB float64 `json:"need_gb"`
	// Over is how far NeedGB is over the card: NeedGB ÷ VRAM − 1.
	Over float64 `json:"over"`
	// AskedSeq is the sequence length the job was asked at.
	AskedSeq int `json:"asked_seq"`
	// Workload is the lighter setting (gradient checkpointing on, batch 1,
	// then the sequence halved, down to 256 tokens), PerCardGB its memory
	// per card and SpareGB what it leaves; Change names what changed as
	// the command's words ("seq=512").
	Workload  Workload `json:"workload"`
	PerCardGB float64  `json:"per_card_gb"`
	SpareGB   float64  `json:"spare_gb"`
	Change    string   `json:"change"`
}

// squeezeMinSeq is the shortest sequence Squeeze tries: below 256 tokens
// a chat or instruction sample no longer fits whole.
const squeezeMinSeq = 256

// SqueezeFit sizes a training job that does not hold on n cards of vram
// GB and finds the nearest lighter setting that does: gradient
// checkpointing on, micro-batch 1, then the sequence halved until it
// holds (not below 256 tokens). ok is false for inference, for a job that
// already holds, and when no such setting holds. The QLoRA paper's 65B
// run on one 48 GB card is this case: it holds at short sequences
// (Dettmers et al. 2023, §4: 48 GB with paged optimizers, 512-token
// OASST1 samples).
func (m Market) SqueezeFit(w Workload, vram float64, n int) (Squeeze, bool) {
	c := m.engine()
	e := c.sized(w, m.Archs)
	if e.err != nil || !e.mem.Workload.trains() || n < 1 || vram <= 0 {
		return Squeeze{}, false
	}
	w = e.mem.Workload
	b := max(w.Batch, 1)
	if e.lim.maxBatch(vram, n) >= b {
		return Squeeze{}, false // it holds as asked
	}
	need := e.lim.perCard(n, b)
	sq := Squeeze{NeedGB: round(need, 2), Over: round(need/vram-1, 3), AskedSeq: w.SeqLen}
	alt := w
	alt.Defaulted = nil
	var change []string
	try := func() bool {
		a := c.sized(alt, m.Archs)
		if a.err != nil || a.lim.maxBatch(vram, n) < max(alt.Batch, 1) {
			return false
		}
		sq.Workload, sq.PerCardGB = a.mem.Workload, round(a.lim.perCard(n, max(alt.Batch, 1)), 2)
		sq.SpareGB = round(vram-sq.PerCardGB, 2)
		sq.Change = strings.Join(change, " ")
		return true
	}
	if alt.NoGC {
		alt.NoGC = false
		change = append(change, "gc=on")
		if try() {
			return sq, true
		}
	}
	if alt.Batch > 1 {
		alt.Batch = 1
		change = append(change, "bs=1")
		if try() {
			return sq, true
		}
	}
	base := len(change)
	for seq := alt.SeqLen / 2; seq >= squeezeMinSeq; seq /= 2 {
		alt.SeqLen = seq
		change = append(change[:base], fmt.Sprintf("seq=%d", seq))
		if try() {
			return sq, true
		}
	}
	return Squeeze{}, false
}

// Concurrency is how many requests of w's context n cards of g hold in the
// KV cache left after the weights, under the serving rule of Fit (vLLM's
// "Maximum concurrency for N tokens per request"). tp is tensor parallel
// over the n cards, where an MLA latent has no heads to split and every
// card keeps it whole (Shape.kvShare); dp is data-parallel attention
// (SGLang --enable-dp-attention), where each card caches only its own
// requests: n × tp for MLA, tp for every other attention (its heads
// already split). Both 0 for training, or when not one request fits.
func (m Market) Concurrency(w Workload, g knowledge.GPU, n int) (tp, dp float64, err error) {
	e := m.engine().sized(w, m.Archs)
	if e.err != nil {
		return 0, 0, e.err
	}
	if e.mem.Workload.trains() || n < 1 {
		return 0, 0, nil
	}
	tp = e.lim.maxConcurrency(g.VRAMGB, n)
	dp = tp
	if e.mem.Shape.Attention == "MLA" && n > 1 {
		dp = math.Max(0, math.Floor(e.lim.seqs(g.VRAMGB, e.lim.perSeq, n)*float64(n)*100+1e-9)/100)
	}
	return tp, dp, nil
}
