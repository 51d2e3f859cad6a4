package parse

import (
	"regexp"
	"strings"
)

// Who a message's figures belong to — the project or team named in words
// ("set a monthly budget of $15k for rag-sg", "NLP组的月预算", "team
// llm-serving") — and the region it restricts offers to ("EU-only", "国内").
// The words live in the lexicon's projects and regions sections.

// ownerRes are the owner readers, built once from the lexicon.
type ownerRes struct {
	after, ledgerLead, teamBefore, teamAfter *regexp.Regexp
	notNames                                 map[string]bool
	ledgerWords                              []string
}

// reName is a project or team name as people write one: "rag-sg", "kb-qa",
// "llm-ft", "recsys", "eval-infra".
const reName = `([a-z][a-z0-9]*(?:[-_][a-z0-9]+)*)`

// reHyphenName is a name with a hyphen or underscore in it, the shape of a
// project id.
var reHyphenName = regexp.MustCompile(`(?:^|[^a-z0-9_.-])([a-z][a-z0-9]*(?:[-_][a-z0-9]+)+)(?:$|[^a-z0-9_-])`)

func newOwnerRes(_, after, ledgerLead, teamBefore, teamAfter, notNames, ledgerWords []string) ownerRes {
	o := ownerRes{notNames: map[string]bool{}, ledgerWords: ledgerWords}
	for _, n := range notNames {
		o.notNames[n] = true
	}
	o.after = regexp.MustCompile(reName + `\s?(?:` + alternation(after) + `)`)
	o.ledgerLead = regexp.MustCompile(`(?:^|[^a-z])(?:` + alternation(ledgerLead) + `)\s?` + reName + `(?:$|[^a-z0-9_-])`)
	o.teamBefore = regexp.MustCompile(`(?:^|[^a-z])(?:` + alternation(teamBefore) + `)\s?` + reName)
	o.teamAfter = regexp.MustCompile(reName + `\s?(?:` + alternation(teamAfter) + `)(?:$|[^a-z])`)
	return o
}

// owners reads the project, team and region named in words, when no
// project=/team= setting gave them.
func (x extractor) owners(t *text, f *features) {
	s := &f.s
	o := x.owners_
	c := compact(t.s)
	name := func(n string) bool { return len(n) >= 2 && !o.notNames[n] && !isQuarter(n) }
	if s.Team == "" {
		for _, re := range []*regexp.Regexp{o.teamBefore, o.teamAfter} {
			for _, m := range re.FindAllStringSubmatch(t.s, -1) {
				// "team llm-serving", "cn-search 团队", "nlp组", "the vision
				// team" — not "a small team", "how's the team doing"
				n := m[1]
				named := strings.ContainsAny(n, "-_") || !strings.Contains(m[0], "team") || strings.Contains(t.s, "the "+n+" team")
				if name(n) && named && f.project != n {
					s.Team = n
					break
				}
			}
			if s.Team != "" {
				break
			}
		}
	}
	ledger := anyTermWord(o.ledgerWords, t.s, c)
	if f.project == "" && s.Project == "" {
		pick := func(n string) bool {
			if name(n) && n != s.Team && !x.regionWord(n) {
				f.project = n
				return true
			}
			return false
		}
		found := false
		for _, m := range o.after.FindAllStringSubmatch(t.s, -1) {
			if found = pick(m[1]); found {
				break
			}
		}
		if !found && ledger {
			for _, m := range o.ledgerLead.FindAllStringSubmatch(t.s, -1) {
				if found = pick(m[1]); found {
					break
				}
			}
		}
		if !found && ledger {
			for _, m := range reHyphenName.FindAllStringSubmatch(t.s, -1) {
				if found = pick(m[1]); found {
					break
				}
			}
		}
	}
	if r := termOf(x.lex.Regions, t.s+" ", c); r != "" {
		s.Region = r
	}
}

// isQuarter reports whether n is a quarter's name ("q4"), not a project.
func isQuarter(n string) bool { return len(n) == 2 && n[0] == 'q' && n[1] >= '1' && n[1] <= '4' }

// regionWord reports whether n names a region ("us-east", "eu-west"), not a
// project.
func (x extractor) regionWord(n string) bool {
	for _, r := range x.lex.Regions {
		for _, w := range r.Words {
			if strings.TrimSpace(w) == n {
				return true
			}
		}
	}
	return strings.HasPrefix(n, "us-") || strings.HasPrefix(n, "eu-") || strings.HasPrefix(n, "europe-") || strings.HasPrefix(n, "asia-")
}
