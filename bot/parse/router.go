package parse

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gpubot/gpubot/knowledge"
)

// The router is a multinomial logistic regression over the words of a
// message and the slots it carries. Features are hashed into a fixed table:
//   - Han text: character 1-, 2- and 3-grams of each run of Han characters;
//   - Latin text: word unigrams and bigrams, digits folded to "#";
//   - slot presence: a card, two cards, a platform, a model size, a named
//     model, the method, each kind of money, hours, a per-month usage, a
//     load per day or per second, a budget, a project, a date…
//
// It is trained from the labelled train split (data/train*.jsonl) with a
// fixed order, fixed epochs and no randomness, and its weights are embedded
// (weights.go), so the same text always gets the same intent. Confidence is
// the softmax probability of the chosen intent.

const (
	hashBits = 17
	buckets  = 1 << hashBits
	epochs   = 15
	l2       = 1e-4
	rate     = 0.5
	minGrad  = 1e-3
)

// classes are the intents a sentence can be routed to: the lexicon's
// routable intents in the order of their ids, then Unknown. The embedded
// weights name them; a change means retraining (-update), and the
// weights' decoder says so.
var classes = routableClasses(knowledge.MustLexicon())

func routableClasses(lex *knowledge.Lexicon) []Intent {
	var out []Intent
	for id, w := range lex.Intents {
		if w.Routable {
			out = append(out, Intent(id))
		}
	}
	slices.Sort(out)
	return append(out, Unknown)
}

// Classes returns the intents a sentence can be routed to.
func Classes() []Intent { return slices.Clone(classes) }

type router struct {
	w    []float32 // buckets × len(classes)
	bias []float32
}

var (
	routerOnce sync.Once
	trained    *router
	trainErr   error
)

// sharedRouter decodes the embedded weights once per process.
func sharedRouter() (*router, error) {
	routerOnce.Do(func() { trained, trainErr = decodeWeights(routerBin) })
	return trained, trainErr
}

type example struct {
	feats []uint32
	label int
}

// trainRow is one labelled message of the corpus.
type trainRow struct {
	Split  string         `json:"split"`
	Kind   string         `json:"kind"`
	Writer string         `json:"writer,omitempty"`
	Text   string         `json:"text"`
	Intent Intent         `json:"intent"`
	Lang   string         `json:"lang"`
	Slots  map[string]any `json:"slots"`
}

func readRows(data []byte) ([]trainRow, error) {
	var rows []trainRow
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var r trainRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}

func classIndex(in Intent) int {
	for i, c := range classes {
		if c == in {
			return i
		}
	}
	return -1
}

func train(x *extractor, data []byte) (*router, error) {
	rows, err := readRows(data)
	if err != nil {
		return nil, fmt.Errorf("read training data: %w", err)
	}
	var exs []example
	for _, r := range rows {
		text := Clean(r.Text)
		if _, slash := cutSlash(strings.ToLower(text)); slash {
			continue // slash commands are routed by their grammar
		}
		k := classIndex(r.Intent)
		if k < 0 {
			continue
		}
		f := x.extract(text, false, time.Time{})
		exs = append(exs, example{feats: featureHashes(&f, nil), label: k})
	}
	if len(exs) == 0 {
		return nil, fmt.Errorf("no training rows")
	}
	nc := len(classes)
	rt := &router{w: make([]float32, buckets*nc), bias: make([]float32, nc)}
	// AdaGrad on the log loss, one example at a time in file order.
	g2 := make([]float32, buckets*nc)
	b2 := make([]float32, nc)
	p := make([]float64, nc)
	for ep := 0; ep < epochs; ep++ {
		for _, ex := range exs {
			rt.probs(ex.feats, p)
			for c := 0; c < nc; c++ {
				g := p[c]
				if c == ex.label {
					g--
				}
				if math.Abs(g) < minGrad {
					continue // learned well enough: most updates after the first epochs are skipped
				}
				b2[c] += float32(g * g)
				rt.bias[c] -= float32(rate * g / math.Sqrt(float64(b2[c])+1e-8))
				for _, h := range ex.feats {
					i := int(h)*nc + c
					gi := g + l2*float64(rt.w[i])
					g2[i] += float32(gi * gi)
					rt.w[i] -= float32(rate * gi / math.Sqrt(float64(g2[i])+1e-8))
				}
			}
		}
	}
	return rt, nil
}

// probs fills p with the softmax over classes.
func (rt *router) probs(feats []uint32, p []float64) {
	nc := len(classes)
	for c := range p {
		p[c] = float64(rt.bias[c])
	}
	for _, h := range feats {
		row := rt.w[int(h)*nc : int(h)*nc+nc]
		for c := range p {
			p[c] += float64(row[c])
		}
	}
	maxv := math.Inf(-1)
	for _, v := range p {
		maxv = math.Max(maxv, v)
	}
	sum := 0.0
	for c, v := range p {
		p[c] = math.Exp(v - maxv)
		sum += p[c]
	}
	for c := range p {
		p[c] /= sum
	}
}

// route picks the intent of a sentence and its probability, and the
// runner-up (for a clarifying question).
func (rt *router) route(f *features) (Intent, float64, Intent, float64) {
	var buf [256]uint32
	feats := featureHashes(f, buf[:0])
	p := make([]float64, len(classes))
	rt.probs(feats, p)
	best, second := 0, -1
	for c := 1; c < len(p); c++ {
		if p[c] > p[best] {
			best, second = c, best
		} else if second < 0 || p[c] > p[second] {
			second = c
		}
	}
	return classes[best], round2(p[best]), classes[second], round2(p[second])
}

func hashOf(prefix byte, s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte{prefix})
	h.Write([]byte(s))
	return h.Sum32() & (buckets - 1)
}

// featureHashes appends the hashed features of a message to dst.
func featureHashes(f *features, dst []uint32) []uint32 {
	t := f.cueText
	// Han runs: 1-3 grams
	var run []rune
	flush := func() {
		for n := 1; n <= 3; n++ {
			for i := 0; i+n <= len(run); i++ {
				dst = append(dst, hashOf('h', string(run[i:i+n])))
			}
		}
		run = run[:0]
	}
	// Latin words: unigrams and bigrams
	prev := ""
	word := func(w string) {
		dst = append(dst, hashOf('w', w))
		// character trigrams carry typos and word forms ("lroa", "finetuning")
		if len(w) >= 4 {
			pw := "<" + w + ">"
			for i := 0; i+3 <= len(pw); i++ {
				dst = append(dst, hashOf('c', pw[i:i+3]))
			}
		}
		if prev != "" {
			dst = append(dst, hashOf('b', prev+" "+w))
		}
		prev = w
	}
	for i := 0; i < len(t); {
		r, size := utf8.DecodeRuneInString(t[i:])
		switch {
		case unicode.Is(unicode.Han, r):
			run = append(run, r)
			prev = ""
			i += size
		case r < utf8.RuneSelf && (isLetter(byte(r)) || isDigit(byte(r)) || r == '$' || r == '?' || r == '/'):
			flush()
			j := i
			for j < len(t) && t[j] < utf8.RuneSelf && (isLetter(t[j]) || isDigit(t[j]) || t[j] == '-' || t[j] == '\'' || t[j] == '$' || t[j] == '/') {
				j++
			}
			if j == i {
				j = i + 1
			}
			w := strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' {
					return '#'
				}
				return r
			}, t[i:j])
			if w == "?" {
				dst = append(dst, hashOf('p', "?"))
			} else {
				word(w)
			}
			i = j
		default:
			if r == '?' || r == '？' {
				dst = append(dst, hashOf('p', "?"))
			}
			if r != ' ' {
				flush()
			}
			i += size
		}
	}
	flush()
	return slotFeatures(f, dst)
}

// slotFeatures are the presence of each kind of slot.
func slotFeatures(f *features, dst []uint32) []uint32 {
	s := &f.s
	add := func(name string, on bool) {
		if on {
			dst = append(dst, hashOf('s', name))
		}
	}
	add("gpu", len(s.GPUs) >= 1)
	add("gpu2", len(s.GPUs) >= 2 || f.gpuCount >= 2)
	add("platform", s.Platform != "")
	add("platforms2", len(s.Platforms) >= 2)
	add("params", s.ParamsB > 0)
	add("model", s.Model != "")
	if s.Method != "" && !f.weakMethod {
		add("method:"+s.Method, true)
	}
	add("vram", s.VRAMGB > 0)
	add("shape", s.Concurrency > 0 || s.SeqLen > 0 || s.Bits > 0 || s.Batch > 0 || s.LoRARank > 0 || s.GC != "" || s.Optimizer != "")
	add("job", s.Tokens > 0 || s.Samples > 0 || s.Epochs > 0 || s.SampleTokens > 0)
	add("serving", s.TokensPerDay > 0 || s.RequestsPerS > 0 || s.InputTokens > 0 || s.OutputTokens > 0)
	add("gpuhours", s.GPUHours > 0)
	add("tps", s.TPS > 0 || s.MFU > 0)
	add("hours", s.Hours > 0)
	add("hpm", s.HoursPerMonth > 0)
	add("saturated", f.saturated)
	add("util", s.Utilization > 0)
	add("years", s.Years > 0)
	add("buyinputs", s.Watts != nil || s.PUE > 0 || s.Rate != nil)
	add("cards", s.Cards > 0)
	for _, h := range f.money {
		add(fmt.Sprintf("money:%d", h.kind), true)
		add("money", true)
	}
	add("billing:"+f.billing, f.billing != "")
	add("persona", f.persona != "")
	add("topic", f.topic != "")
	add("workload", f.workload != "")
	add("project", f.project != "" || s.Project != "")
	add("month", f.month != "")
	add("id", f.id != "")
	add("bias", true)
	return dst
}

// newRouter returns the shared router.
func newRouter(x *extractor) *router {
	rt, err := sharedRouter()
	if err != nil {
		panic("parse: router: " + err.Error()) // embedded, tested data
	}
	return rt
}
