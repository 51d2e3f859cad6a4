package parse

import (
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// Parser reads messages. It is safe for concurrent use.
type Parser struct {
	x extractor
}

// New builds a parser that knows the cards and platforms in kb.
func New(kb *knowledge.Base) *Parser {
	return &Parser{x: extractor{gpus: newGPUMatcher(kb), platforms: newPlatformMatcher(kb)}}
}

// subcommands maps the first word of a /gpu command to its intent.
var subcommands = map[string]Intent{
	"fit": Fit, "vram": Fit, "mem": Fit, "memory": Fit, "显存": Fit,
	"cost": Cost, "train": Cost, "成本": Cost,
	"monthly": Monthly, "包月": Monthly,
	"buy": Buy, "买": Buy,
	"price": Price, "prices": Price, "价格": Price,
	"compare": Compare, "vs": Compare, "对比": Compare,
	"recommend": Recommend, "rec": Recommend, "推荐": Recommend,
	"spend": Spend, "记账": Spend,
	"guide": Knowledge, "kb": Knowledge, "knowledge": Knowledge, "ask": Knowledge,
	"help": Help, "?": Help, "帮助": Help, "usage": Help,
}

// Parse reads one message: a "/gpu …" command, or a sentence.
func (p *Parser) Parse(raw string) Request {
	text := Clean(raw)
	req := Request{Lang: Lang(text), Text: text}
	lower := strings.ToLower(text)
	if rest, ok := cutSlash(lower); ok {
		req.Slash, req.Confidence = true, 1
		return p.slash(req, rest)
	}
	return p.route(req, lower)
}

// ParseSlash reads the text of a /gpu slash command (without "/gpu").
func (p *Parser) ParseSlash(text string) Request {
	return p.Parse("/gpu " + text)
}

func cutSlash(lower string) (string, bool) {
	for _, prefix := range []string{"/gpu", "gpu:"} {
		if lower == prefix {
			return "", true
		}
		if strings.HasPrefix(lower, prefix+" ") {
			return strings.TrimSpace(lower[len(prefix):]), true
		}
	}
	return "", false
}

func (p *Parser) slash(req Request, rest string) Request {
	sub, args, _ := strings.Cut(rest, " ")
	if sub == "" {
		req.Intent = Help
		return req
	}
	intent, ok := subcommands[sub]
	if !ok {
		req.Intent = Help
		req.Problems = append(req.Problems, Problem{Field: "command", Reason: "unknown sub-command \"" + sub + "\"", Hint: "/gpu help"})
		return req
	}
	req.Intent = intent
	req.Slots, req.Problems = p.x.extract(args)
	req.Slots.Args = strings.Fields(args)
	if req.Lang == "en" && Lang(args) == "zh" {
		req.Lang = "zh"
	}
	return req
}
