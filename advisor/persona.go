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

// personaAliases maps the ways users name a persona to its canonical name.
var personaAliases = map[string][]string{
	PersonaIndividual: {"individual", "personal", "solo", "student", "hobbyist", "indie", "个人", "个人开发者", "学生"},
	PersonaStartup:    {"startup", "team", "small team", "small-team", "初创", "创业", "创业公司", "小团队", "中小团队", "初创团队"},
	PersonaEnterprise: {"enterprise", "company", "corporate", "research", "lab", "university", "企业", "大公司", "研究机构", "高校", "科研"},
}

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
func CanonicalPersona(s string) (string, bool) {
	k := strings.ToLower(strings.TrimSpace(s))
	for canon, names := range personaAliases {
		for _, n := range names {
			if k == n {
				return canon, true
			}
		}
	}
	return "", false
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
		if byKeyword == nil && keywordMatch(it.Keywords, personaAliases[canon]) {
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
