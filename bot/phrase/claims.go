package phrase

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/gpubot/gpubot/knowledge"
)

// ReasonClaim is the rejection kind for a claim the answer does not make: a
// card count, fits / does not fit, a verdict (worth it, cheaper, within
// budget, yes/no), a chosen card or platform, or a currency.
const ReasonClaim = "claim"

// CheckClaims is the claim guard, run after Check: the numbers of a
// rephrase can all be right while what it says with them is not ("fits on a
// single RTX 4090" where the engine said two). It reads the claims of
// template (the engine's answer) and of text (the rephrase) and reports each
// claim of text that template, or a fact, does not back:
//
//   - card counts: "×2", "2 H100s", "two RTX 4090s", "a single 4090",
//     "两张 H100", "八卡", "单卡", "双卡"; a count tied to a card must be one
//     the answer gives that card, an untied one ("two cards") one it gives
//     any card;
//   - fits / does not fit ("fits", "doesn't fit", "放得下", "放不下", "显存不够"),
//     per card named in the sentence, or for none;
//   - verdicts: worth it or not ("pays off", "不划算"), which option is
//     cheaper (monthly, on demand, renting, buying), within or over budget,
//     and a reply that opens with yes or no (是/不): each must be a verdict
//     the answer gives;
//   - the chosen card and platform ("go with the H800", "推荐 autodl"): one
//     the answer chooses (or heads with); every card and platform named must
//     be in the answer;
//   - currencies (¥, $, 元, 美元, USD, CNY, dollars, yuan): only the answer's.
//
// facts add backing: cheaper from result.cheaper, card counts from a gpus or
// count fact beside a gpu fact.
func CheckClaims(text, template string, facts []Fact) (ok bool, reasons []string) {
	want := readClaims(template)
	want.addFacts(facts)
	got := readClaims(text)
	add := func(format string, args ...any) {
		r := ReasonClaim + ": " + fmt.Sprintf(format, args...)
		if !slices.Contains(reasons, r) {
			reasons = append(reasons, r)
		}
	}
	for _, c := range got.cards {
		if !want.cardSet[c] {
			add("card %s is not in the answer", c)
		}
	}
	for _, p := range got.platforms {
		if !want.platformSet[p] {
			add("platform %s is not in the answer", p)
		}
	}
	for _, cc := range got.counts {
		if !want.backsCount(cc) {
			if cc.card == "" {
				add("%d cards is a count the answer does not give", cc.n)
			} else {
				add("%s ×%d is a count the answer does not give (it says %s)", cc.card, cc.n, want.countsOf(cc.card))
			}
		}
	}
	for _, f := range got.fits {
		if !want.backsFit(f) {
			what := "does not fit"
			if f.fits {
				what = "fits"
			}
			if f.card == "" {
				add("%q: the answer does not say it %s", f.raw, what)
			} else {
				add("%q: the answer does not say %s %s", f.raw, f.card, what)
			}
		}
	}
	for _, v := range got.verdicts {
		if !want.verdictSet[v.key()] {
			add("%q: the answer's verdict on %s is not %s", v.raw, v.topic, v.value)
		}
	}
	if got.yesNo != "" && !want.backsYesNo(got.yesNo) {
		add("a reply opening with %q gives a verdict the answer does not", got.yesNoRaw)
	}
	if c := got.chosenCard; c != "" && !want.backsChoice(c, want.chosenCards, want.headCards) {
		add("the answer does not choose %s", c)
	}
	if p := got.chosenPlatform; p != "" && !want.backsChoice(p, want.chosenPlatforms, want.headPlatforms) {
		add("the answer does not choose %s", p)
	}
	for _, cur := range got.currencies {
		if !want.currencySet[cur] {
			add("currency %s is not the answer's", cur)
		}
	}
	return len(reasons) == 0, reasons
}

// entity names: every spelling of every shipped card and platform, longest
// first, resolved to their ids.
type entityTable struct {
	aliases []alias
	first   map[rune][]int // aliases by first rune
}

type alias struct {
	text     []rune
	id       string
	platform bool
}

var entities = sync.OnceValue(func() *entityTable {
	t := &entityTable{first: map[rune][]int{}}
	kb, err := knowledge.Shipped()
	if err != nil {
		return t
	}
	for _, a := range kb.GPUAliases() {
		if g, ok := kb.GPU(a); ok && len([]rune(a)) >= 2 {
			t.aliases = append(t.aliases, alias{text: []rune(a), id: g.ID})
		}
	}
	for _, a := range kb.PlatformAliases() {
		if p, ok := kb.Platform(a); ok && len([]rune(a)) >= 3 {
			t.aliases = append(t.aliases, alias{text: []rune(a), id: p.ID, platform: true})
		}
	}
	sort.SliceStable(t.aliases, func(i, j int) bool { return len(t.aliases[i].text) > len(t.aliases[j].text) })
	for i, a := range t.aliases {
		t.first[a.text[0]] = append(t.first[a.text[0]], i)
	}
	return t
})

// mention is a card or platform named in a text, at rune offsets.
type mention struct {
	id         string
	platform   bool
	start, end int
}

func asciiAlnum(r rune) bool { return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) }

// scanEntities finds card and platform names: the text is lower-cased and
// its separators dropped (as knowledge.NormalizeName does), then matched
// against every alias, longest first, at ASCII word boundaries ("H100s"
// and "4090 D" read as cards; "A10" is not inside "A100").
func scanEntities(rs []rune) []mention {
	t := entities()
	var comp []rune
	var pos []int // comp index → rs index
	for i, r := range rs {
		r = unicode.ToLower(foldWidth(r))
		switch r {
		case ' ', '-', '_', '\u3000', '.':
			continue
		}
		comp = append(comp, r)
		pos = append(pos, i)
	}
	var out []mention
	for i := 0; i < len(comp); {
		matched := false
		if i == 0 || !asciiAlnum(comp[i-1]) || !asciiAlnum(comp[i]) || pos[i]-pos[i-1] > 1 {
			for _, k := range t.first[comp[i]] {
				a := t.aliases[k]
				n := len(a.text)
				if i+n > len(comp) || !slices.Equal(comp[i:i+n], a.text) {
					continue
				}
				end := pos[i+n-1] + 1 // rune offset after the match
				if end < len(rs) && asciiAlnum(rs[end]) && asciiAlnum(rs[end-1]) {
					if !(rs[end] == 's' || rs[end] == 'S') || (end+1 < len(rs) && asciiAlnum(rs[end+1])) {
						continue // inside a longer word; a plural "s" is fine
					}
				}
				out = append(out, mention{id: a.id, platform: a.platform, start: pos[i], end: end})
				i += n
				matched = true
				break
			}
		}
		if !matched {
			i++
		}
	}
	return out
}

type countClaim struct {
	card string // "" when the count names no card ("two cards")
	n    int
}

type fitClaim struct {
	card string
	fits bool
	raw  string
}

type verdict struct {
	topic, value, raw string
}

func (v verdict) key() string { return v.topic + "=" + v.value }

// claimSet is what one text claims.
type claimSet struct {
	cards, platforms []string
	cardSet          map[string]bool
	platformSet      map[string]bool
	counts           []countClaim
	countSet         map[countClaim]bool
	fits             []fitClaim
	fitSet           map[string]bool // card+"|"+polarity, "" card too
	verdicts         []verdict
	verdictSet       map[string]bool
	yesNo, yesNoRaw  string
	chosenCard       string // the rephrase's choice (first one)
	chosenPlatform   string
	chosenCards      map[string]bool // the template's choices
	chosenPlatforms  map[string]bool
	headCards        map[string]bool // named in the first line
	headPlatforms    map[string]bool
	currencies       []string
	currencySet      map[string]bool
}

var (
	// Sentences: claims bind to the cards of their own sentence. A list
	// after a colon ("Fits on one card: A; B; C") is one sentence.
	reSentence = regexp.MustCompile(`[。！？!?\n]+|\.(?:\s|$)`)

	// counts next to a card: "RTX 4090 ×2", "H100 x 8" (after), "2 H100s",
	// "two 4090s", "a single H100", "两张 H100", "8卡 A100" (before).
	reCountAfter  = regexp.MustCompile(`^\s*(?:(?:sxm\d?|pcie|nvl|\d+\s*g[bi]?b?)\s*)*[×xX*]\s*(\d+)`)
	reCountBefore = regexp.MustCompile(`(?i)(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|a single|single|a pair of|a couple of|一|二|两|兩|三|四|五|六|七|八|九|十|十六|三十二|单|單|双|雙)\s*(?:[×xX]\s*)?(?:张|張|块|塊|台|卡|片|cards?\s+of|gpus?\s+of|x)?\s*(?:the\s+|an?\s+)?$`)
	// counts with no card: "two cards", "8 GPUs", "单卡", "两张卡", "one card".
	reCountFree = regexp.MustCompile(`(?i)(?:^|[^\w.])(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|a single|single|a pair of|a couple of)[\s-]*(?:cards?|gpus?)\b|(\d+|一|二|两|兩|三|四|五|六|七|八|九|十|十六|单|單|双|雙)\s*(?:张|張|块|塊)?\s*(?:卡|显卡|GPU)`)

	reFitNo  = regexp.MustCompile(`(?i)\b(?:does not|doesn't|do not|don't|won't|will not|can't|cannot|can not|wouldn't|would not)\s+(?:\w+\s+)?(?:fit|hold|run)\b|\bnot enough (?:memory|vram)|\bout of memory\b|\btoo (?:small|little memory)\b|\bcannot hold\b|放不下|装不下|裝不下|塞不下|跑不了|跑不动|跑不起来|显存不够|显存不足|不够用|不够放|无法(?:容纳|放下|装下|运行)`)
	reFitYes = regexp.MustCompile(`(?i)\bfits?\b|\bfitting\b|\bholds? (?:it|the)\b|\bis enough\b|\benough (?:memory|vram)\b|放得下|装得下|裝得下|能放下|能装下|可以放下|可以装下|可放下|可装下|够用|能跑|可以跑|足够`)

	reWorthNo  = regexp.MustCompile(`(?i)\bnot worth\b|\bnever pays? off\b|\b(?:does not|doesn't|won't|will not|would not|wouldn't) pay off\b|不值得|不划算|不合算|回不了本|不会回本|不能回本|无法回本`)
	reWorthYes = regexp.MustCompile(`(?i)\bworth (?:it|buying|the)\b|\bpays? off\b|\bpays for itself\b|值得|划算|合算|能回本|可以回本`)

	reBudgetNo  = regexp.MustCompile(`(?i)\b(?:over|exceeds?|exceeding|above|beyond|blows?)\s+(?:the\s+|your\s+|its\s+)?(?:[$¥]?[\d.,]+[kKmM]?\s+)?budget\b|超出预算|超过预算|超预算|预算不够|预算不足|超支`)
	reBudgetYes = regexp.MustCompile(`(?i)\b(?:within|under|inside)\s+(?:the\s+|your\s+|its\s+)?(?:[$¥]?[\d.,]+[kKmM]?\s+)?budget\b|\bfits (?:the |your )?budget\b|预算(?:之)?内|没超预算|不超预算|预算够|预算足够|在预算范围`)

	// which option is cheaper: "<option> is cheaper", "cheaper to <option>",
	// "<option>更划算/更便宜/更省".
	reCheaperAfter  = regexp.MustCompile(`(?i)(monthly|month-to-month|on[- ]demand|pay[- ]as[- ]you[- ]go|hourly|renting|rent|buying|buy|owning)(?:\s+(?:plan|billing|pricing|rates?|it))?\s+(?:is|are|would be|comes out|works out|stays|remains)?\s*(?:the\s+)?(?:cheaper|less expensive|more economical|better value|the better deal|cheapest)`)
	reCheaperBefore = regexp.MustCompile(`(?i)cheaper\s+(?:to|is to)\s+(go monthly|pay monthly|pay on demand|pay by the hour|rent|buy|own)`)
	reCheaperZH     = regexp.MustCompile(`(包月|按月|按需|按量|按小时|按时|租用|租卡|租|自购|购买|买)(?:会|要|还是|反而)?(?:更|比较|更加)(?:划算|便宜|省钱|省|合算|实惠)`)

	reYesNo = regexp.MustCompile(`(?i)^\W*(yes|no|nope|yep|是的|是|对|不是|不行|不|否)(?:[\s,，.。!！:：]|$)`)

	reChoice = regexp.MustCompile(`(?i)\b(?:recommend(?:ed)?|pick|choose|go with|go for|opt for|best (?:choice|option|pick|value|bet)|top pick|cheapest(?: (?:option|card|offer|choice|platform))?(?: is)?|winner is|lowest(?: price| offer| quote)?)\b|推荐|首选|建议选|建议用|选择|选用|就选|最便宜的是|最划算的是|性价比最高的是|最低(?:报价|价格|价)?|低至`)

	reCurrency = regexp.MustCompile(`(?i)[¥￥$]|\b(?:usd|cny|rmb|dollars?|yuan|renminbi)\b|美元|美金|人民币|元|块钱`)
)

var countWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "twelve": 12, "sixteen": 16, "a single": 1, "single": 1, "a pair of": 2,
	"a couple of": 2, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
	"八": 8, "九": 9, "十": 10, "十六": 16, "三十二": 32, "单": 1, "單": 1, "双": 2, "雙": 2,
}

func countOf(s string) (int, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if n, ok := countWords[s]; ok {
		return n, true
	}
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + int(r-'0')
		if n > 100000 {
			return 0, false
		}
	}
	return n, s != ""
}

func readClaims(text string) claimSet {
	c := claimSet{cardSet: map[string]bool{}, platformSet: map[string]bool{}, countSet: map[countClaim]bool{},
		fitSet: map[string]bool{}, verdictSet: map[string]bool{}, chosenCards: map[string]bool{},
		chosenPlatforms: map[string]bool{}, headCards: map[string]bool{}, headPlatforms: map[string]bool{},
		currencySet: map[string]bool{}}
	rs := []rune(text)
	for i, r := range rs {
		rs[i] = foldWidth(r)
	}
	text = string(rs)
	all := scanEntities(rs)
	firstLine := strings.IndexRune(text, '\n')
	headEnd := len(rs)
	if firstLine >= 0 {
		headEnd = len([]rune(text[:firstLine]))
	}
	for _, m := range all {
		if m.platform {
			if !c.platformSet[m.id] {
				c.platforms = append(c.platforms, m.id)
			}
			c.platformSet[m.id] = true
			if m.start < headEnd {
				c.headPlatforms[m.id] = true
			}
		} else {
			if !c.cardSet[m.id] {
				c.cards = append(c.cards, m.id)
			}
			c.cardSet[m.id] = true
			if m.start < headEnd {
				c.headCards[m.id] = true
			}
		}
	}
	for _, sent := range sentences(rs) {
		c.readSentence(rs, sent, all)
	}
	if m := reYesNo.FindStringSubmatch(text); m != nil {
		switch strings.ToLower(m[1]) {
		case "yes", "yep", "是的", "是", "对":
			c.yesNo = "yes"
		default:
			c.yesNo = "no"
		}
		c.yesNoRaw = m[1]
	}
	for _, m := range reCurrency.FindAllString(text, -1) {
		cur := currencyOf(m)
		if !c.currencySet[cur] {
			c.currencies = append(c.currencies, cur)
		}
		c.currencySet[cur] = true
	}
	return c
}

func currencyOf(s string) string {
	switch strings.ToLower(s) {
	case "$", "usd", "dollar", "dollars", "美元", "美金":
		return "USD"
	}
	return "CNY"
}

// sentences splits rs into [start, end) rune ranges.
func sentences(rs []rune) [][2]int {
	text := string(rs)
	var out [][2]int
	start := 0
	byteToRune := func(b int) int { return len([]rune(text[:b])) }
	for _, loc := range reSentence.FindAllStringIndex(text, -1) {
		e := byteToRune(loc[0])
		if e > start {
			out = append(out, [2]int{start, e})
		}
		start = byteToRune(loc[1])
	}
	if start < len(rs) {
		out = append(out, [2]int{start, len(rs)})
	}
	return out
}

func (c *claimSet) readSentence(rs []rune, sent [2]int, all []mention) {
	s := string(rs[sent[0]:sent[1]])
	var cards, platforms []mention
	for _, m := range all {
		if m.start >= sent[0] && m.end <= sent[1] {
			if m.platform {
				platforms = append(platforms, m)
			} else {
				cards = append(cards, m)
			}
		}
	}
	// Counts tied to a card, then the free ones; a free count binds the
	// cards of its sentence that have none of their own ("Fits on one card:
	// A; B").
	bound := map[int]bool{}
	masked := []rune(s)
	for k, m := range cards {
		after := string(rs[m.end:sent[1]])
		if mm := reCountAfter.FindStringSubmatch(after); mm != nil {
			if n, ok := countOf(mm[1]); ok {
				c.addCount(countClaim{m.id, n})
				bound[k] = true
				continue
			}
		}
		lo := max(sent[0], m.start-16)
		if k > 0 {
			lo = max(lo, cards[k-1].end)
		}
		before := string(rs[lo:m.start])
		if mm := reCountBefore.FindStringSubmatch(before); mm != nil {
			if n, ok := countOf(mm[1]); ok {
				c.addCount(countClaim{m.id, n})
				bound[k] = true
				// the count is used: keep reCountFree from reading it again
				for i := m.start - sent[0] - len([]rune(mm[0])); i < m.start-sent[0]; i++ {
					if i >= 0 {
						masked[i] = ' '
					}
				}
			}
		}
	}
	for _, mm := range reCountFree.FindAllStringSubmatch(string(masked), -1) {
		w := mm[1]
		if w == "" {
			w = mm[2]
		}
		n, ok := countOf(w)
		if !ok {
			continue
		}
		free := true
		for k, m := range cards {
			if !bound[k] {
				c.addCount(countClaim{m.id, n})
				free = false
			}
		}
		if free {
			c.addCount(countClaim{"", n})
		}
	}

	// fits / does not fit, negatives first so "doesn't fit" is not a fit
	rest := s
	var pols []bool
	if reFitNo.MatchString(rest) {
		pols = append(pols, false)
		rest = reFitNo.ReplaceAllString(rest, " ")
	}
	if reFitYes.MatchString(rest) {
		pols = append(pols, true)
	}
	for _, p := range pols {
		raw := strings.TrimSpace(s)
		if len(cards) == 0 {
			c.addFit(fitClaim{"", p, raw})
		}
		for _, m := range cards {
			c.addFit(fitClaim{m.id, p, raw})
		}
	}

	// verdicts; "X is cheaper" first, as 划算 is also a worth word
	rest = s
	for _, re := range []*regexp.Regexp{reCheaperAfter, reCheaperBefore, reCheaperZH} {
		for _, mm := range re.FindAllStringSubmatch(rest, -1) {
			c.addVerdict(verdict{"cheaper", optionOf(mm[1]), mm[0]})
		}
		rest = re.ReplaceAllString(rest, " ")
	}
	for _, v := range []struct {
		topic   string
		no, yes *regexp.Regexp
	}{{"worth", reWorthNo, reWorthYes}, {"budget", reBudgetNo, reBudgetYes}} {
		if m := v.no.FindString(rest); m != "" {
			c.addVerdict(verdict{v.topic, "no", m})
			rest = v.no.ReplaceAllString(rest, " ")
		}
		if m := v.yes.FindString(rest); m != "" {
			c.addVerdict(verdict{v.topic, "yes", m})
		}
	}

	// the first card and platform after a choice word
	for _, loc := range reChoice.FindAllStringIndex(s, -1) {
		at := sent[0] + len([]rune(s[:loc[1]]))
		card, plat := "", ""
		for _, m := range cards {
			if m.start >= at && m.start-at <= 40 {
				card = m.id
				break
			}
		}
		for _, m := range platforms {
			if m.start >= at && m.start-at <= 60 {
				plat = m.id
				break
			}
		}
		if card != "" {
			c.chosenCards[card] = true
			if c.chosenCard == "" {
				c.chosenCard = card
			}
		}
		if plat != "" {
			c.chosenPlatforms[plat] = true
			if c.chosenPlatform == "" {
				c.chosenPlatform = plat
			}
		}
	}
}

func optionOf(s string) string {
	s = strings.ToLower(s)
	switch {
	case strings.Contains(s, "month") || strings.Contains(s, "包月") || strings.Contains(s, "按月"):
		return "monthly"
	case strings.Contains(s, "demand") || strings.Contains(s, "go") || strings.Contains(s, "hour") ||
		strings.Contains(s, "按需") || strings.Contains(s, "按量") || strings.Contains(s, "按小时") || strings.Contains(s, "按时"):
		return "on_demand"
	case strings.Contains(s, "buy") || strings.Contains(s, "own") || strings.Contains(s, "买") || strings.Contains(s, "购"):
		return "buy"
	}
	return "rent"
}

func (c *claimSet) addCount(cc countClaim) {
	if !c.countSet[cc] {
		c.counts = append(c.counts, cc)
	}
	c.countSet[cc] = true
}

func (c *claimSet) addFit(f fitClaim) {
	k := f.card + "|" + fmt.Sprint(f.fits)
	if !c.fitSet[k] {
		c.fits = append(c.fits, f)
	}
	c.fitSet[k] = true
}

func (c *claimSet) addVerdict(v verdict) {
	if !c.verdictSet[v.key()] {
		c.verdicts = append(c.verdicts, v)
	}
	c.verdictSet[v.key()] = true
}

// addFacts backs claims with the engine's structured values: the names of
// text facts (cards, platforms), result.cheaper, and card counts (a gpus or
// count fact beside a gpu fact in the same object).
func (c *claimSet) addFacts(facts []Fact) {
	gpuAt := map[string]string{} // object path → card id
	for _, f := range facts {
		if f.Text == "" || f.Name == AnswerFact {
			continue
		}
		for _, m := range scanEntities([]rune(f.Text)) {
			if m.platform {
				c.platformSet[m.id] = true
			} else {
				c.cardSet[m.id] = true
			}
		}
		obj, key := splitPath(f.Name)
		switch key {
		case "cheaper":
			v := strings.ToLower(f.Text)
			if v == "monthly" || v == "on_demand" {
				c.verdictSet["cheaper="+v] = true
			}
		case "gpu":
			if ms := scanEntities([]rune(f.Text)); len(ms) > 0 {
				gpuAt[obj] = ms[0].id
				if obj == "" || obj == "result" {
					c.chosenCards[ms[0].id] = true
				}
			}
		}
	}
	for _, f := range facts {
		if f.Text != "" {
			continue
		}
		obj, key := splitPath(f.Name)
		if key != "gpus" && key != "count" && key != "cards" {
			continue
		}
		n := int(f.Value)
		if float64(n) != f.Value || n <= 0 {
			continue
		}
		if card, ok := gpuAt[obj]; ok {
			c.countSet[countClaim{card, n}] = true
		} else {
			c.countSet[countClaim{"", n}] = true
		}
	}
	for _, f := range facts {
		u := strings.ToUpper(f.Unit)
		if strings.HasPrefix(u, "USD") {
			c.currencySet["USD"] = true
		}
		if strings.HasPrefix(u, "CNY") {
			c.currencySet["CNY"] = true
		}
	}
}

// splitPath splits "result.options[rtx4090].count" into its object path and
// last key.
func splitPath(name string) (string, string) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", name
	}
	return name[:i], name[i+1:]
}

func (c *claimSet) countsOf(card string) string {
	var ns []string
	for cc := range c.countSet {
		if cc.card == card {
			ns = append(ns, fmt.Sprintf("×%d", cc.n))
		}
	}
	sort.Strings(ns)
	if len(ns) == 0 {
		return "no count for it"
	}
	return strings.Join(ns, ", ")
}

// backsCount: a card's count must be one the answer gives that card (or,
// when it gives that card none, one it gives without a card); a free count
// one it gives anything.
func (c *claimSet) backsCount(cc countClaim) bool {
	if c.countSet[cc] {
		return true
	}
	if cc.card == "" {
		for k := range c.countSet {
			if k.n == cc.n {
				return true
			}
		}
		return false
	}
	for k := range c.countSet {
		if k.card == cc.card {
			return false // the answer counts this card, differently
		}
	}
	return c.countSet[countClaim{"", cc.n}]
}

// backsFit: a card's fit must not contradict the answer's for that card.
// Said of a card the answer gives no verdict for, "fits" is backed when the
// answer counts cards for it (it fits on that many; the count is checked on
// its own) and "does not fit" when every such count is above one; said of
// no card, the answer must say it of something.
func (c *claimSet) backsFit(f fitClaim) bool {
	pol := fmt.Sprint(f.fits)
	if f.card == "" {
		for k := range c.fitSet {
			if strings.HasSuffix(k, "|"+pol) {
				return true
			}
		}
		return false
	}
	if c.fitSet[f.card+"|"+pol] {
		return true
	}
	if c.fitSet[f.card+"|"+fmt.Sprint(!f.fits)] {
		return false
	}
	counted, single := false, false
	for k := range c.countSet {
		if k.card == f.card {
			counted = true
			single = single || k.n == 1
		}
	}
	if counted {
		return f.fits || !single
	}
	return c.fitSet["|"+pol]
}

// backsYesNo: the answer's verdicts (fit, worth, budget) must all lean the
// way the reply opens.
func (c *claimSet) backsYesNo(yn string) bool {
	yes, no := false, false
	for k := range c.verdictSet {
		switch {
		case strings.HasSuffix(k, "=yes"):
			yes = true
		case strings.HasSuffix(k, "=no"):
			no = true
		}
	}
	for k := range c.fitSet {
		if strings.HasSuffix(k, "|true") {
			yes = true
		} else {
			no = true
		}
	}
	if c.yesNo != "" {
		return c.yesNo == yn
	}
	if yn == "yes" {
		return yes && !no
	}
	return no && !yes
}

func (c *claimSet) backsChoice(id string, chosen, head map[string]bool) bool {
	if len(chosen) > 0 {
		return chosen[id]
	}
	return head[id]
}
