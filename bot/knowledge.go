package bot

import (
	"context"
	"sort"
	"strings"

	"github.com/gpubot/gpubot/bot/parse"
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
}

// Scores of the deterministic relevance ranking: the router's topic counts
// most, then each keyword the question contains (longer keywords are more
// specific, so they count more), then named cards in the item's text.
const (
	topicScore    = 6
	keywordScore  = 2
	longKeyword   = 4 // runes; a keyword this long or longer scores double
	cardMention   = 1
	maxGuideItems = 2
	minGuideScore = 4
)

// rankGuide orders guide items by relevance to the question. Ties go to the
// item listed first in the guide, so the same question always gets the same
// answer.
func rankGuide(items []knowledge.GuideItem, text, topic string, gpus []string) []GuideHit {
	lower := strings.ToLower(text)
	var hits []GuideHit
	for i, it := range items {
		score := 0
		if topic != "" && it.Topic == topic {
			score += topicScore
		}
		for _, k := range it.Keywords {
			k = strings.ToLower(strings.TrimSpace(k))
			if k == "" || !strings.Contains(lower, k) {
				continue
			}
			score += keywordScore
			if len([]rune(k)) >= longKeyword {
				score += keywordScore
			}
		}
		body := strings.ToLower(it.BodyEN + it.TitleEN)
		for _, g := range gpus {
			if strings.Contains(body, strings.ReplaceAll(g, "-", " ")) || strings.Contains(body, g) {
				score += cardMention
			}
		}
		if score >= minGuideScore {
			hits = append(hits, GuideHit{ID: it.ID, Topic: it.Topic, Score: score, Source: it.Source, Title: it.TitleEN, Body: it.BodyEN})
			hits[len(hits)-1].Score = score*1000 - i // stable tie-break by guide order
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].Score > hits[b].Score })
	for i := range hits {
		hits[i].Score = (hits[i].Score + 999) / 1000
	}
	return hits
}

func (b *Bot) knowledge(_ context.Context, a *Answer, req parse.Request) {
	hits := rankGuide(b.kb.Guide, req.Text, req.Slots.Topic, req.Slots.GPUs)
	if len(hits) > maxGuideItems {
		hits = hits[:maxGuideItems]
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
	var srcs []string
	for _, h := range res.Items {
		srcs = appendOnce(srcs, h.Source)
	}
	a.Result = res
	a.show(renderKnowledge(a.Lang, res, srcs))
}
