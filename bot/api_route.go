package bot

import (
	"slices"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/knowledge"
)

// apiLoadAsked reports whether a question weighs a hosted API at a load a
// day ("每天5亿tokens，DeepSeek官方API一个月多少钱？自建H20划算吗",
// "2B tokens/month on gpt-4o"): a load and an API word. The cost row
// answers it (the API's bill, or the API against self-hosting: api.go,
// api_price.go) whatever the router made of it — with a card and no
// model, the planner would send it to the card's price list. plan.go asks
// it before its frame cases.
func apiLoadAsked(req parse.Request) bool {
	return req.Slots.TokensPerDay > 0 && asksAPI(req.Text)
}

// tokensGivenMonthly reports whether the question gave its load a month
// ("2B tokens/month", "每月30亿token"): the parser read it as a day's load
// and noted so (parse/frames.go, serving).
func tokensGivenMonthly(s parse.Slots) bool {
	for _, n := range s.Notes {
		if strings.Contains(n, "tokens a month read as") {
			return true
		}
	}
	return false
}

// apiBillAsked reports whether the question asks what the API it names
// costs ("DeepSeek官方API一个月多少钱", "how much would gpt-4o cost"): the
// answer leads with that bill, then weighs self-hosting.
func apiBillAsked(text string, pick apiPick) bool {
	if pick.Family == "" {
		return false
	}
	segs := strings.Split(strings.ToLower(text), " | ")
	return hasAny(segs[len(segs)-1], apiWords().Price)
}

// closestAPIs are the sourced prices nearest an API the data lacks
// ("claude opus", "gpt-4.5"): its family's models in the data, newest
// first, at most three; none when the family has no row. They are named
// beside the answer, never billed in the unpriced one's place.
func (b *Bot) closestAPIs(pick apiPick, cur knowledge.Currency, fx float64) []advisor.APIQuote {
	if pick.Unpriced == "" || pick.Family == "" {
		return nil
	}
	res, err := advisor.APIPrice(advisor.APIPriceInput{Family: pick.Family, Currency: cur, FX: fx, Prices: b.kb.Procurement.APIs})
	if err != nil {
		return nil
	}
	// the same tier first ("claude sonnet 4.5" → claude-sonnet-4), then
	// the family's newest
	said := map[string]bool{}
	for _, w := range nameWords(pick.Unpriced) {
		said[w] = true
	}
	tier := func(q advisor.APIQuote) bool {
		for _, w := range nameWords(baseModelName(q.Model)) {
			if said[w] && w != pick.Family {
				return true
			}
		}
		return false
	}
	qs := slices.Clone(res.Quotes)
	slices.SortStableFunc(qs, func(x, y advisor.APIQuote) int {
		switch tx, ty := tier(x), tier(y); {
		case tx && !ty:
			return -1
		case ty && !tx:
			return 1
		}
		return 0
	})
	var out []advisor.APIQuote
	seen := map[string]bool{}
	for _, q := range qs {
		name := baseModelName(q.Model)
		if seen[name] || strings.Contains(q.Provider, "peak") {
			continue
		}
		seen[name] = true
		out = append(out, q)
		if len(out) == 3 {
			break
		}
	}
	return out
}

// projectIsAPI reports whether the project slot is the API named ("2B
// tokens/month on gpt-4o": the parser reads "on gpt-4o" as a project).
func (b *Bot) projectIsAPI(project string) bool {
	return project != "" && b.apiIn(strings.ToLower(project), "").Family != ""
}
