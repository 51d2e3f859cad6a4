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
