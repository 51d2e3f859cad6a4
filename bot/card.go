package bot

import (
	"strings"
	"unicode"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
	"github.com/gpubot/gpubot/knowledge"
)

// Questions about a card rather than a job ("3090 支持 bf16 吗", "what can
// a 5090 32G run?"), about a card for a named model ("3060 跑 8b 是不是必须
// 4bit"), and explain or how-to questions the guide answers ("4 张 4090
// DDP 只有 2 倍，正常吗"). They are answered under the knowledge intent
// (ask --json "knowledge"): the card's facts and what it holds come from
// the card table and the fit engine (advisor.Card, advisor.CardModel), the
// rest from the guide. The words are the lexicon's card_facts and
// info_questions.

// infoKind is what kind of card or how-to question a message is.
type infoKind int

const (
	notInfo       infoKind = iota
	infoCard               // a card's facts or capacity
	infoCardModel          // a card for a named model: which precisions fit
	infoGuide              // an explain or how-to question with a guide note about it
)

// cardOrInfoQuestion reports whether a message is a question about a card
// (its facts, what it can run, or whether it or a lower precision is
// needed for a named model) or an explain / how-to question the guide
// answers, and the intent that answers it. The planner calls it: a
// read-only question it recognises is answered as knowledge.
func cardOrInfoQuestion(req parse.Request) (parse.Intent, bool) {
	// help: "what can a 5090 run?" reads as a question about the bot
	if req.Slash || !readOnly[req.Intent] && req.Intent != parse.Help || classify(req) == notInfo {
		return "", false
	}
	return parse.Knowledge, true
}

// calcTargets are the asked figures that make a message a calculation: a
// card or how-to question asks none of them (a "which" or a memory figure
// it may).
var calcTargets = []string{"cards", "money_monthly", "money_per_m_tokens", "hours", "images_per_hour", "money_per_image",
	"concurrency", "tokens_per_s", "break_even_hours", "break_even_util", "payback_months", "money_total", "gpu_hours", "price_per_card_hour"}

// calculation reports whether a message asks or states what only a
// calculation answers: a figure, a price, a budget, a load, hours.
func calculation(s parse.Slots) bool {
	for _, t := range s.Targets {
		if has(calcTargets, t) {
			return true
		}
	}
	return moneyGiven(s) || s.Hours > 0 || s.HoursPerMonth > 0 ||
		s.Tokens > 0 || s.Samples > 0 || s.TokensPerDay > 0 || s.RequestsPerS > 0 || s.Days > 0
}

// moneyGiven reports whether a message states a price, a plan's price, a
// budget or an amount.
func moneyGiven(s parse.Slots) bool {
	return s.Price != nil || s.Monthly != nil || s.Budget != nil || s.Amount != nil
}

// classify reads what kind of card or how-to question req is.
func classify(req parse.Request) infoKind {
	s := req.Slots
	model := s.ParamsB > 0 || s.Model != "" || s.Arch != ""
	if infoWord(req.Text, "define") && !model && !moneyGiven(s) && guideFor(req) {
		return infoGuide // "whats the diff between gpu hours and wall clock": a definition, whatever hours it names
	}
	if calculation(s) || asksExport(req.Text) && !infoWord(req.Text, "explain") {
		return notInfo
	}
	card := len(s.GPUs) > 0
	switch {
	case card && !model && cardFact(req.Text) != "" && !nvlinkUse(req):
		return infoCard
	case len(s.GPUs) >= 2 && !model && infoWord(req.Text, "helps") && cardFact(req.Text) != "nvlink":
		return infoCard // "5090比4090多8g显存，对lora帮助大吗": what each holds, side by side
	case card && model && infoWord(req.Text, "card_model"):
		return infoCardModel
	case infoWord(req.Text, "explain") || cardFact(req.Text) == "nvlink":
		if guideFor(req) {
			return infoGuide
		}
	}
	return notInfo
}

// nvlinkUse is a question whether NVLink helps ("NVLink 对两张3090有用吗"),
// which the guide answers, not whether a card has it.
func nvlinkUse(req parse.Request) bool {
	return cardFact(req.Text) == "nvlink" && (infoWord(req.Text, "explain") || infoWord(req.Text, "helps"))
}

// bestGuide is the guide note a how-to question is about, when one scores
// clearly (rankGuide's retrieve.MinScore).
func bestGuide(text string) *knowledge.GuideItem {
	hits := rankGuide(knowledge.MustShipped().Guide, text, "", nil)
	if len(hits) == 0 {
		return nil
	}
	for _, it := range knowledge.MustShipped().Guide {
		if it.ID == hits[0].ID {
			return &it
		}
	}
	return nil
}

// guideFor reports whether the guide has a note a how-to question is
// about: one that scores clearly and, when the question names cards,
// speaks of one of them or of no card at all ("H100 PCIe 和 SXM 区别" is
// the compare answer's, not the NVLink note's).
func guideFor(req parse.Request) bool {
	it := bestGuide(req.Text)
	return it != nil && (itemAbout(*it, req.Slots.GPUs) || len(otherCards(*it, req.Slots.GPUs)) == 0)
}

// cardFact is the fact a message asks of a card (the lexicon's
// card_facts: bf16, fp8, fp4, fp16, nvlink, capacity, specs), "" for none.
func cardFact(text string) string {
	return lexTerm(knowledge.MustLexicon().CardFacts, text)
}

// infoWord reports whether text carries one of the info_questions words of
// value v (card_model, explain, asks_yes_no).
func infoWord(text, v string) bool {
	for _, t := range knowledge.MustLexicon().InfoQuestions {
		if t.Value == v && lexWords(t.Words, text) {
			return true
		}
	}
	return false
}

// lexTerm returns the first term whose words text carries (and one of
// its With words, and none of its Unless words).
func lexTerm(terms []knowledge.Term, text string) string {
	for _, t := range terms {
		if lexWords(t.Words, text) && (len(t.With) == 0 || lexWords(t.With, text)) && !lexWords(t.Unless, text) {
			return t.Value
		}
	}
	return ""
}

// lexWords reports whether text carries one of words the way the parser
// reads the lexicon: Chinese words anywhere (spaces dropped), English ones
// as whole words in lower case (* allows a longer word).
func lexWords(words []string, text string) bool {
	low := strings.ToLower(text)
	compact := strings.ReplaceAll(low, " ", "")
	for _, w := range words {
		w = strings.ToLower(w)
		if hasHanOrWide(w) {
			if strings.Contains(compact, strings.ReplaceAll(w, " ", "")) {
				return true
			}
			continue
		}
		if wholeWord(low, w) {
			return true
		}
	}
	return false
}

func hasHanOrWide(s string) bool {
	for _, r := range s {
		if r >= 0x80 {
			return true
		}
	}
	return false
}

// wholeWord reports whether s contains w with no letter either side of
// its ends ("fp8" not in "fp80"); a trailing * allows a longer word.
func wholeWord(s, w string) bool {
	prefix := strings.HasSuffix(w, "*")
	w = strings.TrimSuffix(w, "*")
	for from := 0; from <= len(s); {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		j := i + len(w)
		letter := func(k int) bool {
			r := rune(s[k])
			return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r))
		}
		okL := i == 0 || !letter(i-1) || !isASCIIWordByte(w[0])
		okR := prefix || j == len(s) || !letter(j) || !isASCIIWordByte(w[len(w)-1])
		if okL && okR {
			return true
		}
		from = i + 1
	}
	return false
}

func isASCIIWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// CardView is the card answer's result: the card's facts and what each
// method holds on it, or, for a named model, how each precision fits.
type CardView struct {
	Fact string `json:"fact,omitempty"` // what was asked: bf16, fp8, nvlink, capacity, specs
	advisor.CardFacts
	// Model, with Fits, is the named model sized on the cards.
	Model string            `json:"model,omitempty"`
	Fits  []advisor.CardFit `json:"fits,omitempty"`
	// Verdict is the answer to a yes/no question ("yes", "no"), nil when
	// none was asked or the answer is not one.
	Verdict *string `json:"verdict,omitempty"`
	// Lead is the fit the headline is about (an index into Fits), -1 none.
	Lead int `json:"-"`
	// Other is a second card named, side by side; Method the method the
	// comparison is about ("" all).
	Other  *advisor.CardFacts `json:"other,omitempty"`
	Method advisor.Method     `json:"compared_method,omitempty"`
}

// moreRoom reports whether the card with more memory of a and b holds a
// larger catalogue model for method m (inference 16-bit when m is empty,
// QLoRA at 4 bits) than the other: a step up a model class, not only a
// few more gigabytes.
func moreRoom(a, b advisor.CardFacts, m advisor.Method) bool {
	if m == "" {
		m = advisor.Inference
	}
	pick := func(f advisor.CardFacts) float64 {
		for _, c := range f.Capacity {
			if c.Method == m {
				return c.ModelParamsB // the first row of a method is its 16-bit one (QLoRA: 4-bit)
			}
		}
		return 0
	}
	return pick(a) != pick(b)
}

// card answers a question about a card, or about a card for a model.
func (b *Bot) card(a *Answer, req parse.Request, kind infoKind) error {
	s := req.Slots
	g, ok := b.kb.GPU(s.GPUs[0])
	if !ok {
		return &advisor.InputError{Field: "gpu", Reason: tr(a.Lang, "unknown card "+s.GPUs[0], "不认识的卡 "+s.GPUs[0]), Hint: "what can a 4090 run?"}
	}
	n := max(s.Cards, 1)
	facts, err := b.mkt.Card(g, n) // the prepared market keeps the search's estimates
	if err != nil {
		return err
	}
	present.WordCard(&facts) // the engine returns values; present writes the words
	a.use("gpus", "the card asked about")
	if s.Cards > 0 {
		a.use("cards", "the cards the model may use")
	}
	view := CardView{CardFacts: facts, Lead: -1}
	yesNo := s.YesNo || infoWord(req.Text, "asks_yes_no")
	if kind == infoCardModel {
		w := workload(s)
		fits, err := advisor.CardModel(g, n, w, b.kb.Archs)
		if err != nil {
			return err
		}
		for _, k := range []string{"params_b", "model", "arch", "method", "bits", "batch", "seq_len", "lora_rank", "concurrency"} {
			a.use(k, "the model sized on the card")
		}
		view.Model, view.Fits = cmpOr(s.Model, s.Arch), fits
		if view.Model == "" {
			view.Model = fmtNum(s.ParamsB) + "B" // a size without a name: "70b"
		}
		view.Lead, view.Verdict = cardModelVerdict(fits, s.Bits, infoWord(req.Text, "card_model") && mustWords(req.Text))
		if !yesNo && !mustWords(req.Text) {
			view.Verdict = nil
		}
	} else {
		view.Fact = cardFact(req.Text)
		if s.Bits > 0 {
			a.use("bits", "the precision asked about")
		}
		if len(s.GPUs) > 1 {
			if g2, ok := b.kb.GPU(s.GPUs[1]); ok {
				other, err := b.mkt.Card(g2, n)
				if err != nil {
					return err
				}
				present.WordCard(&other)
				view.Other = &other
				a.use("gpus", "the two cards compared")
				if s.VRAMGB > 0 {
					a.use("vram_gb", "the memory gap named; the cards' own figures are used")
				}
			}
		}
		if view.Other != nil && (view.Fact == "" || view.Fact == "capacity") {
			view.Method = advisor.Method(s.Method)
			if s.Method != "" {
				a.use("method", "the method compared")
			}
			if yesNo {
				view.Verdict = verdict(moreRoom(view.CardFacts, *view.Other, view.Method))
			}
		}
		if yesNo {
			switch view.Fact {
			case "bf16":
				view.Verdict = verdict(facts.BF16)
			case "fp8":
				view.Verdict = verdict(facts.FP8)
			case "fp4":
				// FP4 tensor cores came after FP8: a card without FP8 has
				// none; one with FP8 but no FP4 figure is a gap in the table
				if facts.FP4 || !facts.FP8 {
					view.Verdict = verdict(facts.FP4)
				}
			case "fp16":
				view.Verdict = verdict(facts.PeakTF > 0 && (facts.BF16 || facts.FP16Only))
			case "nvlink":
				view.Verdict = verdict(facts.NVLink > 0 || facts.FabricGB > 0)
			}
		}
	}
	a.Result = view
	a.Typed = cardTyped(view)
	a.show(renderCard(a.Lang, view))
	return nil
}

// mustWords: the question is whether a lower precision is required
// ("是不是必须4bit", "do I need to quantize"), not whether the card runs it.
func mustWords(text string) bool {
	for _, t := range knowledge.MustLexicon().InfoQuestions {
		if t.Value == "card_model" {
			for _, w := range t.Words {
				if w != "legit" && lexWords([]string{w}, text) {
					return true
				}
			}
		}
	}
	return false
}

// cardModelVerdict picks the fit the headline is about and the verdict.
// A "must I use N bits" question is answered yes when nothing above N
// bits fits and N bits does, no when more bits fit or not even N does;
// otherwise the lead is the first (highest-precision) fit
// that holds, and the verdict whether any does.
func cardModelVerdict(fits []advisor.CardFit, bits int, must bool) (int, *string) {
	if len(fits) == 0 {
		return -1, nil
	}
	if must && bits > 0 {
		for i, f := range fits {
			if f.Fits && f.Bits > bits {
				return i, verdict(false) // a higher precision already fits: not required
			}
		}
		for i, f := range fits {
			if f.Bits == bits {
				return i, verdict(f.Fits) // required, if it is enough at all
			}
		}
	}
	for i, f := range fits {
		if f.Fits {
			return i, verdict(true)
		}
	}
	return len(fits) - 1, verdict(false)
}

// cardTyped is the card answer as a value: a model's memory when one was
// sized, else "info"; the verdict when a yes/no was asked.
func cardTyped(v CardView) *Typed {
	t := &Typed{Asked: "info", Verdict: v.Verdict}
	if v.Lead >= 0 {
		f := v.Fits[v.Lead]
		t.Asked, t.Value, t.Unit = "memory_gb", val(f.MemoryGB), "GB"
	}
	return t
}
