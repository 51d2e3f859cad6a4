package parse

import "strings"

// route guesses the intent of a sentence from keyword cues and the slots it
// carries. It is deterministic: the same text always routes the same way.
func (p *Parser) route(req Request, lower string) Request {
	req.Slots, req.Problems = p.x.extract(lower)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(lower, w) {
				return true
			}
		}
		return false
	}
	s := req.Slots
	switch {
	case has("help", "帮助", "怎么用", "what can you do", "你能做什么"):
		req.Intent, req.Confidence = Help, 0.9
	case has("显存", "vram", "fit", "放得下", "装得下", "跑得动", "能跑", "oom", "memory") && s.ParamsB > 0:
		req.Intent, req.Confidence = Fit, 0.9
	case s.ParamsB > 0 && s.Method != "":
		req.Intent, req.Confidence = Fit, 0.7
	default:
		req.Intent, req.Confidence = Unknown, 0.2
	}
	return req
}
