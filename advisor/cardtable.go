package advisor

import (
	"fmt"
	"math"
	"sync"

	"github.com/gpubot/gpubot/knowledge"
)

// A ranking pass reads, for every card, figures that depend on the card
// and the workload only, never on a price: whether the card holds the
// workload and on how many cards, its score, its tokens/s per card and
// the note its rows carry. Those figures are worked out once per card set
// (a prepared market's cards and architectures) and workload, and
// every later ranking prices its offers against them: a bare recommend
// ranks three workloads over every card on each call, and without the
// table each call re-ran each card's decode roofline and score for each.
//
// A market's cache keeps one set. It records every figure of each card
// (gpuKey) and is checked against the market's slice once per call: a
// card edited in place, added or removed makes a new set, so no table
// outlives the cards it was built from.

// cardSet is the tables of one market's cards and architectures.
type cardSet struct {
	c     *cache // the cache the set belongs to (sizing, rooflines)
	gpus  []knowledge.GPU
	archs []knowledge.Arch
	keys  []gpuKey       // each card's figures when the set was made
	byID  map[string]int // a card's place by id (the last of a repeated id)

	mu     sync.Mutex
	tables map[tableKey]*cardTable
	views  map[viewKey][]callCard
}

// viewKey names one offer index priced in one currency at one rate.
type viewKey struct {
	ix *offerIndex
	normKey
}

// callCard is one card's offers: their places in the index and their
// prices normalised to one currency, parallel.
type callCard struct {
	at   []int
	norm []normPrice
}

// maxViews bounds the views a set keeps: an index per offer snapshot, in
// a currency or two at the default rate; a rate a user gives adds one.
const maxViews = 8

// tableKey is what a table depends on besides the cards: the scoring rule,
// the workload it sizes, and the reference card's figures.
type tableKey struct {
	kind string
	w    memKey
	ref  gpuKey
}

// cardTable is one workload's figures for every card of a set. It is never
// changed once made; answers copy what they hand out.
type cardTable struct {
	err      error     // the workload cannot be sized, or the reference cannot serve it
	how      Text      // the ranking's score_how
	cards    []cardFig // parallel to the set's cards
	excluded []Ranked  // the cards that cannot hold the workload, in catalogue order
}

// cardFig is one card's figures in a ranking.
type cardFig struct {
	cards   int     // per job or replica; 0: not ranked (cannot hold it, or no figures)
	score   float64 // unrounded; a row shows it rounded
	tpsCard float64 // serving: tokens/s per card
	note    Text    // the note of the card's shown rows; empty for none
}

// cardSet returns the cache's set for gpus, made afresh when any card
// differs from the figures the kept set recorded.
func (c *cache) cardSet(gpus []knowledge.GPU) *cardSet {
	c.mu.Lock()
	s := c.cards
	c.mu.Unlock()
	if s != nil && same(s.gpus, gpus) && s.matches(gpus) {
		return s
	}
	s = &cardSet{c: c, gpus: gpus, archs: c.archs, keys: make([]gpuKey, len(gpus)), byID: make(map[string]int, len(gpus)), tables: map[tableKey]*cardTable{}}
	for i := range gpus {
		s.keys[i] = keyOfGPU(gpus[i])
		s.byID[gpus[i].ID] = i
	}
	c.mu.Lock()
	c.cards = s
	c.mu.Unlock()
	return s
}

func (s *cardSet) matches(gpus []knowledge.GPU) bool {
	if len(gpus) != len(s.keys) {
		return false
	}
	for i := range gpus {
		if !s.keys[i].same(&gpus[i]) {
			return false
		}
	}
	return true
}

// tier is the tier of the card with id ("" when the set has none).
func (s *cardSet) tier(id string) knowledge.Tier {
	if i, ok := s.byID[id]; ok {
		return s.keys[i].tier
	}
	return ""
}

// view returns every card's offers in ix normalised to cur at fx, made on
// first use. An index never changes once made (an edited offer makes a new
// one), so neither does a view of it.
func (s *cardSet) view(ix *offerIndex, cur knowledge.Currency, fx float64) []callCard {
	k := viewKey{ix, normKey{cur, fx}}
	s.mu.Lock()
	v, ok := s.views[k]
	s.mu.Unlock()
	if ok {
		return v
	}
	v = make([]callCard, len(s.gpus))
	for gi, g := range s.gpus {
		if at := ix.byGPU[g.ID]; len(at) > 0 {
			v[gi] = callCard{at: at, norm: ix.normalisedFor(g.ID, cur, fx)}
		}
	}
	s.mu.Lock()
	if s.views == nil || len(s.views) >= maxViews {
		s.views = map[viewKey][]callCard{}
	}
	s.views[k] = v
	s.mu.Unlock()
	return v
}

// table returns j's figures over the set's cards against ref, made on
// first use. Two calls that race to make one both get a correct table.
func (s *cardSet) table(j rankJob, ref knowledge.GPU) *cardTable {
	k := tableKey{j.kind, keyOf(j.workload), keyOfGPU(ref)}
	s.mu.Lock()
	t := s.tables[k]
	s.mu.Unlock()
	if t != nil {
		return t
	}
	t = j.cardTable(ref, s.gpus, s.archs, s.c)
	s.mu.Lock()
	if len(s.tables) >= maxShared {
		s.tables = map[tableKey]*cardTable{}
	}
	s.tables[k] = t
	s.mu.Unlock()
	return t
}

// cardTable scores every card of gpus for j: the reference scores 100;
// a card that cannot hold the workload within one 8-card machine is
// excluded with its reason.
func (j rankJob) cardTable(ref knowledge.GPU, gpus []knowledge.GPU, archs []knowledge.Arch, c *cache) *cardTable {
	t := &cardTable{how: j.how(ref), cards: make([]cardFig, len(gpus))}
	j.memo = &memo{quiet: true, c: c} // the figures only; no step texts
	var mem Memory
	if j.kind != "diffusion" {
		var err error
		if mem, _, err = j.memo.sized(j.workload, archs); err != nil {
			t.err = err
			return t
		}
	}
	var refTPS float64
	if j.kind == "infer" {
		// The reference scores 100 even where a replica takes more than
		// one of its machines (a 405B model in BF16 on H100).
		d, ok := j.decodeOn(ref, mem, archs, MaxClusterCards)
		if !ok {
			t.err = fmt.Errorf("reference card %s cannot serve %s", ref.ID, j.name)
			return t
		}
		refTPS = d.TokensPerS / float64(d.Cards)
	}
	for gi, g := range gpus {
		if g.PeakTFLOPS() <= 0 || g.BandwidthGBs <= 0 {
			continue // no figures to score: neither ranked nor excluded
		}
		cards, score := 1, j.score(g, ref)
		var tpsCard float64
		var note rowNote
		switch {
		case j.kind == "infer":
			d, ok := j.decodeOn(g, mem, archs, MaxReplicaCards)
			if !ok {
				cards = 0
				break
			}
			cards, tpsCard = d.Cards, d.TokensPerS/float64(d.Cards)
			score = 100 * tpsCard / refTPS
			note = rowNote{cards: d.Cards, conc: d.Concurrency, tpsCard: tpsCard}
		case j.kind == "diffusion" && g.VRAMGB < diffusionVRAMFloorGB:
			cards = 0
		case j.kind != "diffusion":
			cards = minCards(mem, g.VRAMGB) // Fit's rule, on the estimate made once
			if cards > MaxReplicaCards {
				cards = 0
			}
			if cards > 1 && j.kind == "train" {
				mfu := DefaultMFU(j.workload.Method, g)
				fpt := trainingFLOPsOnly(j.workload.Method, j.workload.ParamsB*1e9, mem.Trainable, 1)
				sc := clusterScaling(g, cards, j.workload, mem, fpt, g.PeakTFLOPS(), mfu, 1)
				score *= sc.Efficiency
				note = rowNote{cards: cards, eff: sc.Efficiency, link: &gpus[gi]}
			}
		}
		if cards == 0 {
			if math.IsNaN(score) || math.IsInf(score, 0) {
				score = 0 // a card that holds nothing has no throughput to score
			}
			t.excluded = append(t.excluded, Ranked{GPU: g.ID, Name: g.Name, Score: round(score, 2), Note: excludedNote(g.VRAMGB, j.kind == "diffusion")})
			continue
		}
		f := cardFig{cards: cards, score: score, tpsCard: tpsCard}
		if note.cards > 0 {
			f.note = note.text()
		}
		t.cards[gi] = f
	}
	t.excluded = clip(t.excluded)
	return t
}
