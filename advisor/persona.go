package advisor

import (
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/knowledge"
)

// Personas the guide gives advice for.
const (
	PersonaIndividual = "individual"
	PersonaStartup    = "startup"
	PersonaEnterprise = "enterprise"
)

// PersonaAdvice is the guide's advice for one kind of buyer.
type PersonaAdvice struct {
	Persona string `json:"persona"` // individual, startup or enterprise
	ID      string `json:"id"`      // guide item id
	Title   Text   `json:"title"`
	Body    Text   `json:"body"`
	Source  string `json:"source"`
}

// CanonicalPersona folds a user's word for a persona to individual, startup
// or enterprise; ok is false when it names none of them.
// The words come from the shared lexicon (knowledge/data/lexicon.yaml).
func CanonicalPersona(s string) (string, bool) {
	return knowledge.MustLexicon().Persona(s)
}

// Persona returns the guide item with topic "persona" for the named kind of
// buyer: the item whose id names the persona, else the first whose keywords
// contain one of its names.
func Persona(kind string, guide []knowledge.GuideItem) (PersonaAdvice, error) {
	canon, ok := CanonicalPersona(kind)
	if !ok {
		return PersonaAdvice{}, inputErr("persona", fmt.Sprintf("unknown persona %q; use individual, startup or enterprise", kind), "/gpu recommend persona=startup")
	}
	var byKeyword *knowledge.GuideItem
	for i, it := range guide {
		if it.Topic != "persona" {
			continue
		}
		if strings.Contains(it.ID, canon) {
			return adviceOf(canon, it), nil
		}
		if byKeyword == nil && keywordMatch(it.Keywords, knowledge.Names(knowledge.MustLexicon().Personas, canon)) {
			byKeyword = &guide[i]
		}
	}
	if byKeyword != nil {
		return adviceOf(canon, *byKeyword), nil
	}
	return PersonaAdvice{}, fmt.Errorf("guide has no persona item for %s", canon)
}

func adviceOf(canon string, it knowledge.GuideItem) PersonaAdvice {
	return PersonaAdvice{Persona: canon, ID: it.ID, Title: txt(it.TitleEN, it.TitleZH), Body: txt(it.BodyEN, it.BodyZH), Source: it.Source}
}

func keywordMatch(keywords, names []string) bool {
	for _, k := range keywords {
		for _, n := range names {
			if strings.EqualFold(k, n) {
				return true
			}
		}
	}
	return false
}

// ForPersona narrows the market an enterprise is priced on: on-demand,
// monthly or reserved capacity from providers that sign contracts
// (hyperscalers, the Chinese clouds, dedicated GPU clouds), never spot or
// a marketplace listing unless spot is asked. Other personas, or an
// enterprise market with nothing left, keep every offer; note says what
// was done (empty when nothing was).
func (m Market) ForPersona(persona string, spot bool) (Market, Text) {
	if canon, _ := CanonicalPersona(persona); canon != PersonaEnterprise {
		return m, Text{}
	}
	kept := make([]knowledge.Offer, 0, len(m.Offers))
	for _, o := range m.Offers {
		interruptible := o.Interruptible || o.Model == knowledge.Spot || o.Model == knowledge.Bid
		if m.contracted(o.Platform) && (spot || !interruptible) && o.Model != knowledge.Member {
			kept = append(kept, o)
		}
	}
	if len(kept) == 0 {
		return m, txt("no contracted cloud in the catalogue prices these cards: marketplaces and retail platforms are shown, check their terms before an enterprise contract",
			"目录里没有签约型云厂商的报价：以下包含算力市场和零售平台，企业采购前请确认其合同条款")
	}
	m.Offers = kept
	return m, txt("enterprise: priced on on-demand, monthly or reserved capacity from hyperscalers, Chinese clouds and dedicated GPU clouds (contracts, invoices, SLAs); marketplaces, retail platforms and spot are left out unless asked",
		"企业：只按超大规模云、国内云厂商和专业 GPU 云的按需、包月或预留价格计算（可签合同、开票、有 SLA）；算力市场、零售平台和竞价实例除非指明否则不计")
}
