package bot

import (
	"context"
	"math"
	"strings"
	"sync"

	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/retrieve"
	"github.com/gpubot/gpubot/knowledge"
)

// GuideHit is one guide item chosen for a knowledge question.
type GuideHit struct {
	ID     string `json:"id"`
	Topic  string `json:"topic"`
	Title  string `json:"title"`
	Body   string `json:"body"`
	Source string `json:"source"`
	Score  int    `json:"score"`
}

// KnowledgeResult is the knowledge answer's result object.
type KnowledgeResult struct {
	Topic string     `json:"topic,omitempty"`
	Items []GuideHit `json:"items"`
	// Related are the titles of the next best items, for a follow-up.
	Related []string `json:"related,omitempty"`
	// Verdict answers a yes/no question the best item is written for
	// ("yes", "no"), and Answer says it in one line; nil and "" otherwise.
	Verdict *string `json:"verdict,omitempty"`
	Answer  string  `json:"answer,omitempty"`
}

// relatedItems is how many further titles a knowledge answer lists.
const relatedItems = 2

// guideIndexes caches the retrieval index of a guide (pure data, built once
// per guide slice).
var guideIndexes sync.Map // *knowledge.GuideItem -> *retrieve.Index

// rankGuide orders guide items by relevance to the question (BM25 over
// titles, keywords and bodies in both languages, package retrieve): the
// best item when it scores at least retrieve.MinScore, then up to
// relatedItems more. Ties keep the guide's order, so the same question
// always gets the same answer. topic and gpus are kept for callers; the
// question's words decide.
func rankGuide(items []knowledge.GuideItem, text, _ string, _ []string) []GuideHit {
	if len(items) == 0 {
		return nil
	}
	v, ok := guideIndexes.Load(&items[0])
	if !ok {
		v, _ = guideIndexes.LoadOrStore(&items[0], retrieve.New(items, knowledge.MustLexicon()))
	}
	found := v.(*retrieve.Index).Search(text)
	if len(found) == 0 || found[0].Score < retrieve.MinScore {
		return nil
	}
	var hits []GuideHit
	for i, h := range found {
		if i > relatedItems || i > 0 && h.Score < retrieve.MinScore/2 {
			break
		}
		hits = append(hits, GuideHit{ID: h.Item.ID, Topic: h.Item.Topic, Source: h.Item.Source, Title: h.Item.TitleEN, Body: h.Item.BodyEN, Score: int(math.Round(h.Score))})
	}
	return hits
}

func (b *Bot) knowledge(_ context.Context, a *Answer, req parse.Request) {
	// a card's facts, or a card for a named model (card.go)
	if k := classify(req); (k == infoCard || k == infoCardModel) && len(req.Slots.GPUs) > 0 {
		if err := b.card(a, req, k); err == nil {
			return
		}
	}
	hits := rankGuide(b.kb.Guide, req.Text, req.Slots.Topic, req.Slots.GPUs)
	hits = aboutTheCards(b.kb.Guide, hits, req.Slots.GPUs)
	var related []GuideHit
	if len(hits) > 1 {
		hits, related = hits[:1], hits[1:]
	}
	byID := map[string]knowledge.GuideItem{}
	for _, it := range b.kb.Guide {
		byID[it.ID] = it
	}
	res := KnowledgeResult{Topic: req.Slots.Topic}
	for _, h := range hits {
		it := byID[h.ID]
		h.Title, h.Body = it.TitleEN, it.BodyEN
		if a.Lang == "zh" {
			h.Title, h.Body = it.TitleZH, it.BodyZH
		}
		res.Items = append(res.Items, h)
	}
	if len(hits) == 0 {
		a.Ephemeral = true
		a.say(tr(a.Lang,
			"I have no guide notes on that. I can explain contracts and SLAs, hidden costs, procurement steps, OOM remedies, 信创/Ascend migration, pitfalls and advice for individuals, startups and enterprises — or run the numbers: /gpu help.",
			"这方面我没有整理好的指南。我可以讲合同与 SLA、隐藏成本、采购步骤、爆显存怎么办、信创/昇腾迁移、避坑清单，以及个人/初创/企业的建议；也可以直接算数：/gpu help。"))
		a.Result = res
		return
	}
	for _, h := range related {
		title := byID[h.ID].TitleEN
		if a.Lang == "zh" {
			title = byID[h.ID].TitleZH
		}
		res.Related = append(res.Related, title)
	}
	var srcs []string
	for _, h := range res.Items {
		srcs = appendOnce(srcs, h.Source)
	}
	top := byID[res.Items[0].ID]
	// An item written to answer a question leads with that answer; its
	// verdict counts only when the question is a yes/no one.
	yesNo := req.Slots.YesNo || infoWord(req.Text, "asks_yes_no")
	if top.AnswerEN != "" && (top.Verdict == "" || yesNo) && (itemAbout(top, req.Slots.GPUs) || len(otherCards(top, req.Slots.GPUs)) == 0) {
		res.Answer = tr(a.Lang, top.AnswerEN, top.AnswerZH)
		if top.Verdict != "" {
			res.Verdict = verdict(top.Verdict == "yes")
		}
	}
	a.Result = res
	a.Typed = &Typed{Asked: "info", Verdict: res.Verdict}
	a.show(renderKnowledge(a.Lang, res, srcs))
}

// itemAbout reports whether a guide item speaks of one of the cards a
// question names (its titles and keywords carry the card's name or an
// alias), or the question names none: an item's direct answer about the
// A800 is no answer to a question about the H20.
func itemAbout(it knowledge.GuideItem, gpus []string) bool {
	if len(gpus) == 0 {
		return true
	}
	text := strings.ToLower(it.TitleEN + " " + it.TitleZH + " " + strings.Join(it.Keywords, " "))
	kb := knowledge.MustShipped()
	for _, id := range gpus {
		g, ok := kb.GPU(id)
		if !ok {
			continue
		}
		for _, n := range append([]string{g.ID, g.Name}, g.Aliases...) {
			if n = strings.ToLower(n); len(n) >= 3 && strings.Contains(text, n) {
				return true
			}
		}
	}
	return false
}

// aboutTheCards moves after the others the hits that speak of other
// cards only (the A800/H800 note for a question about the H20), keeping
// the order otherwise; a question naming no card keeps the ranking.
func aboutTheCards(items []knowledge.GuideItem, hits []GuideHit, gpus []string) []GuideHit {
	if len(gpus) == 0 || len(hits) < 2 {
		return hits
	}
	byID := map[string]knowledge.GuideItem{}
	for _, it := range items {
		byID[it.ID] = it
	}
	var first, last []GuideHit
	for _, h := range hits {
		it := byID[h.ID]
		if !itemAbout(it, gpus) && len(otherCards(it, gpus)) > 0 {
			last = append(last, h)
			continue
		}
		first = append(first, h)
	}
	return append(first, last...)
}

// otherCards are the catalogue's cards an item's titles and keywords name,
// other than gpus.
func otherCards(it knowledge.GuideItem, gpus []string) []string {
	var out []string
	for _, g := range knowledge.MustShipped().GPUs {
		if !has(gpus, g.ID) && itemAbout(it, []string{g.ID}) { // one card at a time: never the empty list
			out = append(out, g.ID)
		}
	}
	return out
}
