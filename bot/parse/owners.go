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
	name := func(n string) bool { return len(n) >= 2 && !o.notNames[n] && !isQuarter(n) && !functionWords[n] }
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
	if s.Team == "" && ledger {
		t.first(reTeamZH, 0, func(m []string, _ int) bool {
			// "推理组这个季度预算30万", "算法组上个月的账单": the group's name
			// with its word, so "推理组" is a team, not a method
			n := strings.TrimLeft(m[1], zhLeadWords)
			if len([]rune(n)) < 2 || zhNotTeams[n] {
				return false
			}
			s.Team = n + m[2]
			return true
		})
	}
	if f.project == "" && s.Project == "" {
		// a name in quotes next to 项目/project ('给项目"星火"', 'project
		// "Atlas East"'), and one marked as a project by 把/给 … 项目 ("把
		// eval 项目加进预算": a word that is a workload elsewhere)
		if m := reQuotedProject.FindStringSubmatch(t.s); m != nil {
			if n := strings.TrimSpace(m[1] + m[2]); n != "" {
				f.project = n
			}
		} else if m := reMarkedProject.FindStringSubmatch(t.s); m != nil && !grammarWords[m[1]] && !functionWords[m[1]] {
			f.project = m[1]
		}
	}
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

// reTeamZH is a group named in Chinese: "推理组", "大模型团队", "平台部门".
// Read only in a ledger or budget message, and never "组个两卡机" (to build).
var reTeamZH = regexp.MustCompile(`(\p{Han}{2,5}?)(小组|团队|部门|组)(?:的|这|上个|本|今年|预算|账|月|季|年度|花|用了|超|还剩|一个季|1个季|一季|每季|每月|每年)`)

// zhLeadWords are words a Chinese team name does not start with ("给推理组",
// "把算法组"); zhNotTeams are pronouns and quantities before 组 ("我们组").
const zhLeadWords = "的给把让和跟是说这那每各该帮替为对"

var zhNotTeams = map[string]bool{"我们": true, "你们": true, "他们": true, "咱们": true, "整个": true, "各个": true, "每个": true, "这个": true, "那个": true, "一个": true, "两个": true, "几个": true, "同一": true}

// functionWords are English grammar words that stand where a name would
// ("the cap is ¥12,000", "how far over budget"). They are grammar, not
// vocabulary: the lexicon's words are also the router's features, and
// these would only blur them.
var functionWords = map[string]bool{"is": true, "was": true, "are": true, "at": true, "of": true, "to": true, "on": true, "in": true,
	"over": true, "under": true, "so": true, "far": true, "now": true, "left": true, "per": true, "be": true}

// reQuotedProject is a project's name in quotes beside 项目/project;
// reMarkedProject one between 把/给/为/将 and 项目.
var (
	reQuotedProject = regexp.MustCompile(`(?:项目|project)\s?[:：]?\s?["“「『']([^"”」』'\n]{1,24})["”」』']|["“「『]([^"”」』\n]{1,24})["”」』]\s?(?:项目|project)`)
	reMarkedProject = regexp.MustCompile(`(?:^|[^a-z])(?:把|给|为|将)\s?([a-z][a-z0-9_-]*)\s?项目`)
)

// grammarWords stand where a project's name would ("给 the 项目"); a
// workload word there ("eval") is the name.
var grammarWords = map[string]bool{"the": true, "our": true, "a": true, "an": true, "this": true, "that": true, "my": true, "your": true,
	"their": true, "each": true, "every": true, "all": true, "new": true, "old": true, "same": true, "other": true, "whole": true, "entire": true}

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
