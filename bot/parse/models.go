package parse

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// Named models ("deepseek-v3", "qwen3-30b-a3b", "mixtral 8x7b", "llama 3.1
// 405b", "千问3-30B-A3B") come from the lexicon, whose ids are the model
// catalogue's (reference/model_configs.json). A named model sets Model and
// ParamsB to its catalogue size, so "mixtral 8x7b" is 46.7 B, never 56 B.

func newModelMatcher(lex *knowledge.Lexicon) (nameMatcher, map[string]float64) {
	m := nameMatcher{root: &trieNode{}}
	size := map[string]float64{}
	for _, md := range lex.Models {
		size[md.ID] = md.ParamsB
		for _, n := range append([]string{md.ID}, md.Aliases...) {
			m.add(n, md.ID)
		}
	}
	return m, size
}

// reMoE is an "NxMb" mixture the lexicon does not name: its total size
// cannot be read from the name (shared layers), so it is asked for.
var reMoE = gated(regexp.MustCompile(`(?P<pre>^|[^a-z0-9])(\d+)\s?x\s?`+num+`\s?b(?P<end>$|[^a-z0-9])`), true, "x")

// models reads the first named model and blanks every model name.
func (x extractor) models(t *text, f *features) {
	s := &f.s
	hits := x.modelNames.find(t.s)
	spans := make([][2]int, 0, len(hits))
	for _, h := range hits {
		spans = append(spans, [2]int{h.start, h.end})
		if s.Model == "" {
			s.Model = h.id
		}
	}
	t.apply(spans, nil)
	if s.Model != "" {
		if s.ParamsB == 0 {
			s.ParamsB = x.modelSize[s.Model]
		}
		if s.Arch == "" {
			s.Arch = x.archOf(s.Model)
		}
	}
	t.take(reMoE, 2, func(m []string, at int) bool {
		if s.Model != "" || s.ParamsB != 0 {
			return true
		}
		f.problem("params_b", fmt.Sprintf("%sx%sb does not say the model's total size (experts share layers)", m[2], m[3]),
			fmt.Sprintf("%sx%sb 看不出模型总参数量（专家之间共享层）", m[2], m[3]), "mixtral 8x7b, 47b, model=mixtral-8x7b", "")
		return true
	})
}

// archOf is the reference architecture of a named model, when the
// knowledge base has one ("mistral-7b-v0.1" is the base's "mistral-7b").
//
// A model the catalogue knows by its own id needs no separate
// architecture: Slots.Model carries it, so Arch stays empty.
func (x extractor) archOf(model string) string {
	if x.archs[model] {
		return ""
	}
	if i := strings.LastIndex(model, "-v0."); i > 0 && x.archs[model[:i]] {
		return model[:i]
	}
	return ""
}
