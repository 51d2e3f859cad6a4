package phrase

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// qkind is what a token found in text is.
type qkind uint8

const (
	kNumber qkind = iota // a quantity: 41.13 GB, ¥1,200, 70%, ×8, 13B
	kDate                // 2026-09, 2026年9月, Sep 2026, 9月15日
	kClock               // 09:30
	kName                // an identifier with digits: H100, llama-2-13b, a URL
)

// date is a calendar date; zero fields were not written.
type date struct{ y, m, d int }

func (d date) String() string {
	var parts []string
	if d.y > 0 {
		parts = append(parts, strconv.Itoa(d.y))
	}
	if d.m > 0 {
		parts = append(parts, fmt.Sprintf("%02d", d.m))
	}
	if d.d > 0 {
		parts = append(parts, fmt.Sprintf("%02d", d.d))
	}
	return strings.Join(parts, "-")
}

// qty is one token the extractor found.
type qty struct {
	kind       qkind
	raw        string // as written
	start, end int    // rune offsets in the text
	num        float64
	dec        int     // decimals written
	step0      float64 // explicit step before scale and unit (Chinese numerals)
	scale      float64
	binary     bool // scale was k/K: 1,000 or 1,024
	def        unitDef
	unit       string // the unit as written, for messages
	per        string
	hasScale   bool
	hasUnit    bool
	date       date
	name       string // normalised identifier or clock
}

// val is one reading of a quantity in base units, with the precision it was
// written to.
type val struct{ v, step float64 }

// vals lists the readings: one, or two for "32k" (32,000 or 32,768) and for
// "八折" (80% of the price, or 20% off).
func (q *qty) vals() []val {
	f := q.def.factor
	if f == 0 {
		f = 1
	}
	st := q.step0
	if st == 0 {
		st = math.Pow10(-q.dec)
	}
	out := []val{{q.num * q.scale * f, st * q.scale * f}}
	if q.binary {
		b := q.scale / 1000 * 1024
		out = append(out, val{q.num * b * f, st * b * f})
	}
	if q.def.compl {
		out = append(out, val{1 - out[0].v, out[0].step})
	}
	return out
}

// own is the number in the unit it was written in, scale applied: 41.13 for
// "41.13 GB", 70 for "70%", 12,000 for "1.2万".
func (q *qty) own() float64 { return q.num * q.scale }

// extract finds every number, date, clock time and digit-bearing name in
// text. It never panics and reads each rune a bounded number of times.
func extract(text string) []qty {
	rs := []rune(text)
	for i, r := range rs {
		rs[i] = foldWidth(r)
	}
	s := &scanner{rs: rs, curUntil: -1}
	s.run()
	s.mergeRanges()
	return s.out
}

type scanner struct {
	rs  []rune
	out []qty

	cur      string // pending currency from a prefix ($, ¥, USD)
	curUnit  string
	curStart int
	curUntil int // the currency applies to a number starting at or before this offset

	lastWord    string // last ASCII word, lower-case, for "step 1"
	lastWordEnd int
}

func isDigit(r rune) bool  { return r >= '0' && r <= '9' }
func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
func isAlnum(r rune) bool  { return isDigit(r) || isLetter(r) }
func isHan(r rune) bool    { return unicode.Is(unicode.Han, r) }
func (s *scanner) at(i int) rune {
	if i < 0 || i >= len(s.rs) {
		return 0
	}
	return s.rs[i]
}

func (s *scanner) run() {
	rs := s.rs
	for i := 0; i < len(rs); {
		r := rs[i]
		next := i + 1
		if (r == '翻' || r == '一' || r == '减' || r == '对' || r == '折') && s.cnMultiplier(i) > i {
			i = s.out[len(s.out)-1].end
			continue
		}
		switch {
		case r == '<' && (s.at(i+1) == '@' || s.at(i+1) == '#' || s.at(i+1) == '!'):
			next = s.skipMention(i)
		case r == ':' && s.emoji(i) > i:
			next = s.emoji(i)
		case isAlnum(r) && isAlnum(s.at(i-1)) && !(isDigit(r) && (s.at(i-1) == 'x' || s.at(i-1) == 'X') && isDigit(s.at(i-2))):
			// the rest of a word a number or ordinal stopped in ("#00A0A")
			for next < len(rs) && isAlnum(rs[next]) {
				next++
			}
		case r == '$' || r == '¥' || r == '€':
			s.setCurrency(r, i+1)
		case isLetter(r) && !isAlnum(s.at(i-1)):
			next = s.word(i)
		case isDigit(r):
			next = s.number(i)
		case r == '百' && s.hasPrefix(i, "百分之"):
			next = s.percentOf(i)
		case isCNNumeral(r):
			next = s.chinese(i)
		}
		if next <= i {
			next = i + 1
		}
		i = next
	}
}

func (s *scanner) hasPrefix(i int, p string) bool {
	for _, r := range p {
		if s.at(i) != r {
			return false
		}
		i++
	}
	return true
}

// hasPrefixFold is hasPrefix for ASCII, ignoring case.
func (s *scanner) hasPrefixFold(i int, p string) bool {
	for _, r := range p {
		c := s.at(i)
		if c != r && (c >= 128 || unicode.ToLower(c) != unicode.ToLower(r)) {
			return false
		}
		i++
	}
	return true
}

func (s *scanner) setCurrency(r rune, from int) {
	s.curStart = from - 1
	if r == '$' && s.at(from-2) == 'S' && s.at(from-3) == 'U' {
		s.curStart = from - 3
	}
	switch r {
	case '$':
		s.cur, s.curUnit = dimUSD, "$"
	case '¥':
		s.cur, s.curUnit = dimCNY, "¥"
	case '€':
		s.cur, s.curUnit = dimEUR, "€"
	}
	s.curUntil = from
	if s.at(from) == ' ' {
		s.curUntil = from + 1
	}
}

// skipMention skips Slack's <@U123>, <#C123|name> and <!here>.
func (s *scanner) skipMention(i int) int {
	for j := i; j < len(s.rs) && j < i+200; j++ {
		if s.rs[j] == '>' || s.rs[j] == '\n' {
			return j + 1
		}
	}
	return i + 1
}

// emoji returns the end of a :shortcode: starting at i, or i.
func (s *scanner) emoji(i int) int {
	for j := i + 1; j < len(s.rs) && j < i+64; j++ {
		r := s.rs[j]
		switch {
		case r == ':':
			if j > i+1 && !isDigit(s.at(i-1)) {
				return j + 1
			}
			return i
		case isAlnum(r) || r == '_' || r == '+' || r == '-':
		default:
			return i
		}
	}
	return i
}

// lineStart reports whether only blanks and list bullets precede i on its line.
func (s *scanner) lineStart(i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch s.rs[j] {
		case '\n':
			return true
		case ' ', '\t', '*', '-', '•', '>', '#', '(', '[', '_':
		default:
			return false
		}
	}
	return true
}

var ordinalWords = map[string]bool{
	"step": true, "option": true, "plan": true, "phase": true, "tier": true,
	"part": true, "no": true, "case": true, "item": true, "stage": true,
}

// number reads a quantity, date or clock starting at the digit at i.
func (s *scanner) number(i int) int {
	if j, ok := s.dateAt(i); ok {
		return j
	}
	if j, ok := s.clockAt(i); ok {
		return j
	}
	rs := s.rs
	j := i
	for j < len(rs) && isDigit(rs[j]) {
		j++
	}
	digits := string(rs[i:j])
	grouped := false
	if j-i <= 3 {
		for s.at(j) == ',' && isDigit(s.at(j+1)) && isDigit(s.at(j+2)) && isDigit(s.at(j+3)) && !isDigit(s.at(j+4)) {
			digits += string(rs[j+1 : j+4])
			grouped = true
			j += 4
		}
	}
	dec := 0
	if s.at(j) == '.' && isDigit(s.at(j+1)) {
		k := j + 1
		for k < len(rs) && isDigit(rs[k]) {
			k++
		}
		digits += "." + string(rs[j+1:k])
		dec = k - j - 1
		j = k
	}
	if i > 0 && rs[i-1] == '.' && !isDigit(s.at(i-2)) && dec == 0 && !grouped && !isAlnum(s.at(i-2)) && s.at(i-2) != ')' {
		// ".5 GB"
		dec = j - i
		digits = "0." + digits
	}
	// list markers: "1. ", "2) ", "3、", "(1)", "[2]" at the start of a line
	if dec == 0 && !grouped && j-i <= 2 && s.lineStart(i) {
		switch c := s.at(j); {
		case (c == '.' || c == ')' || c == '、' || c == ']') && !isDigit(s.at(j+1)):
			return j + 1
		}
	}
	// ordinals: 第3, #2, step 1, 方案2
	if p := s.prevNonSpace(i); p == '第' || p == '#' || p == '№' {
		return j
	}
	if s.lastWordEnd >= i-1 && s.lastWordEnd <= i && ordinalWords[s.lastWord] {
		return j
	}
	if i >= 2 && (s.hasPrefix(i-2, "方案") || s.hasPrefix(i-2, "步骤") || s.hasPrefix(i-2, "选项")) {
		return j
	}
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return j
	}
	// ordinals and digit-led names: 1st, 3rd, 4090D, 8xH100
	if isLetter(s.at(j)) {
		k := j
		for k < len(rs) && isLetter(rs[k]) {
			k++
		}
		w := string(rs[j:k])
		if isDigit(s.at(k)) {
			if w != "x" && w != "X" {
				return s.name(s.wordStart(i)) // "0B0", "1e9", "4090D2"
			}
			k = j // "4x4096": a product, read as two numbers
		}
		switch strings.ToLower(w) {
		case "st", "nd", "rd", "th":
			if !isDigit(s.at(k)) {
				return k
			}
		case "s":
			if dec == 0 && !grouped && v >= 1000 {
				return s.name(s.wordStart(i)) // "4090s": cards, not seconds
			}
		}
		if !s.knownSuffix(j) {
			return s.name(s.wordStart(i))
		}
	}
	q := qty{kind: kNumber, start: i, num: v, dec: dec, scale: 1, def: unitDef{factor: 1}}
	if s.curUntil >= i && s.cur != "" {
		q.def, q.unit, q.hasUnit = money(s.cur), s.curUnit, true
		q.start = s.curStart
	}
	if p := s.at(i - 1); p == '×' || ((p == 'x' || p == 'X') && !isAlnum(s.at(i-2))) {
		q.unit = "×"
	}
	s.cur = ""
	j = s.suffix(&q, j)
	q.end = j
	q.raw = string(rs[q.start:j])
	s.out = append(s.out, q)
	return j
}

// wordStart is the start of the ASCII word holding i ("4x4096" reads 4096
// after the x; a name found there starts at the 4).
func (s *scanner) wordStart(i int) int {
	for i > 0 && isAlnum(s.rs[i-1]) {
		i--
	}
	return i
}

func (s *scanner) prevNonSpace(i int) rune {
	j := i - 1
	if s.at(j) == ' ' {
		j--
	}
	return s.at(j)
}

// knownSuffix reports whether the letters at j are a unit or scale that may
// touch a number ("80GB", "13B", "4k", "8x", "2.5h").
func (s *scanner) knownSuffix(j int) bool {
	if _, n := s.matchScale(j, true); n > 0 {
		return true
	}
	if _, n := s.matchUnit(j, true); n > 0 {
		return true
	}
	return false
}

// asciiBoundary reports whether an ASCII match ending at j ends a word.
func (s *scanner) asciiBoundary(text string, j int) bool {
	last := rune(text[len(text)-1])
	if !isLetter(last) {
		return true
	}
	return !isLetter(s.at(j))
}

func (s *scanner) matchText(i int, text string, caseSensitive bool) (int, bool) {
	ok := false
	if caseSensitive {
		ok = s.hasPrefix(i, text)
	} else {
		ok = s.hasPrefixFold(i, text)
	}
	if !ok {
		return 0, false
	}
	n := len([]rune(text))
	if !s.asciiBoundary(text, i+n) {
		return 0, false
	}
	return n, true
}

func (s *scanner) matchScale(j int, adjacent bool) (scaleWord, int) {
	best, bestN := scaleWord{}, 0
	for _, w := range scaleWords {
		if w.adjacent && !adjacent {
			continue
		}
		if n, ok := s.matchText(j, w.text, w.caseSensitive); ok && n > bestN {
			best, bestN = w, n
		}
	}
	return best, bestN
}

func (s *scanner) matchUnit(j int, adjacent bool) (unitWord, int) {
	best, bestN := unitWord{}, 0
	for _, w := range unitWords {
		if w.adjacent && !adjacent {
			continue
		}
		n, ok := s.matchText(j, w.text, w.caseSensitive)
		if !ok || n <= bestN {
			continue
		}
		if !s.unitFits(w, j+n) {
			continue
		}
		best, bestN = w, n
	}
	return best, bestN
}

// unitFits rules out Chinese words that start like a unit: 成本 (cost) is not
// 成 (tenths), 折旧 (depreciation) is not 折, 年份 is fine.
func (s *scanner) unitFits(w unitWord, after int) bool {
	next := s.at(after)
	switch w.text {
	case "成":
		return !strings.ContainsRune("本熟功为交员长立果效型品绩分都", next)
	case "折":
		return !strings.ContainsRune("旧扣算合腾叠中", next)
	case "个":
		return !strings.ContainsRune("人性别", next)
	case "位":
		return !strings.ContainsRune("置于", next)
	case "块":
		return !strings.ContainsRune("儿", next)
	case "周":
		return !strings.ContainsRune("期边末年", next)
	case "天":
		return !strings.ContainsRune("然气花", next)
	}
	return true
}

// suffix reads what follows a number: scale, unit and rate.
func (s *scanner) suffix(q *qty, j int) int {
	// scale, touching ("1.2k", "13B") or after one space ("1.2 万", "13 billion")
	if !q.hasScale {
		if w, n := s.matchScale(j, true); n > 0 {
			j = s.setScale(q, w, j+n)
		} else if s.at(j) == ' ' || s.at(j) == '-' {
			if w, n := s.matchScale(j+1, false); n > 0 && (s.at(j) == ' ' || isLetter(s.at(j+1))) {
				j = s.setScale(q, w, j+1+n)
			}
		}
	}
	// unit
	if w, n := s.matchUnit(j, true); n > 0 {
		j = s.setUnit(q, w, j+n)
	} else if s.at(j) == ' ' && !isDigit(s.at(j+1)) {
		if w, n := s.matchUnit(j+1, false); n > 0 {
			j = s.setUnit(q, w, j+1+n)
		}
	}
	// rate: "/h", "/小时", "每小时", " per hour", " a month"
	switch {
	case s.at(j) == '/':
		if p, n := s.matchPer(j + 1); n > 0 {
			q.per, j = p, j+1+n
		}
	case s.at(j) == '每' || (s.at(j) == ' ' && s.at(j+1) == '每'):
		k := j
		if s.at(k) == ' ' {
			k++
		}
		if p, n := s.matchPer(k + 1); n > 0 && q.hasUnit {
			q.per, j = p, k+1+n
		}
	case s.at(j) == ' ':
		for _, lead := range []string{" per ", " an ", " a ", " each "} {
			if s.hasPrefixFold(j, lead) {
				if p, n := s.matchPer(j + len(lead)); n > 0 {
					q.per, j = p, j+len(lead)+n
				}
				break
			}
		}
	}
	return j
}

func (s *scanner) setScale(q *qty, w scaleWord, j int) int {
	q.scale, q.binary, q.hasScale = w.mult, w.binary, true
	return j
}

func (s *scanner) setUnit(q *qty, w unitWord, j int) int {
	q.unit = w.text
	if w.def.count {
		return j
	}
	if q.hasUnit && q.def.dim != w.def.dim {
		return j // "$12 元": keep the prefix
	}
	q.def, q.hasUnit = w.def, true
	return j
}

func (s *scanner) matchPer(j int) (string, int) {
	best, bestN := "", 0
	for _, p := range perWords {
		if n, ok := s.matchText(j, p.text, false); ok && n > bestN {
			best, bestN = p.per, n
		}
	}
	for _, w := range []string{"hours", "months", "years", "days", "cards", "gpus"} {
		if n, ok := s.matchText(j, w, false); ok && n > bestN {
			best, bestN = canonicalPer(w), n
		}
	}
	return best, bestN
}

// word reads an ASCII word at i: a name with digits (H100, llama-2-13b), a
// currency code before a number, a month name starting a date, an English
// number word, or plain text.
func (s *scanner) word(i int) int {
	rs := s.rs
	j := i
	for j < len(rs) && isAlnum(rs[j]) {
		j++
	}
	w := string(rs[i:j])
	lw := strings.ToLower(w)
	if (lw == "http" || lw == "https") && s.hasPrefix(j, "://") {
		return s.url(i)
	}
	hasDigit := strings.IndexFunc(w, isDigit) >= 0
	if hasDigit {
		if (w[0] == 'x' || w[0] == 'X') && len(w) > 1 && strings.IndexFunc(w[1:], func(r rune) bool { return !isDigit(r) }) < 0 {
			return s.number(i + 1) // x8
		}
		return s.name(i)
	}
	if s.chainHasDigit(j) {
		return s.name(i)
	}
	s.lastWord, s.lastWordEnd = lw, j
	switch lw {
	case "usd", "us", "cny", "rmb", "cn", "eur":
		k := j
		if s.at(k) == '$' || s.at(k) == '¥' {
			s.setCurrency(s.at(k), k+1)
			return k + 1
		}
		switch lw {
		case "usd":
			s.cur, s.curUnit = dimUSD, w
		case "cny", "rmb":
			s.cur, s.curUnit = dimCNY, w
		case "eur":
			s.cur, s.curUnit = dimEUR, w
		default:
			return j
		}
		s.curStart, s.curUntil = i, j
		if s.at(j) == ' ' {
			s.curUntil = j + 1
		}
		return j
	}
	if m, ok := monthNames[lw]; ok {
		if end, ok := s.englishDate(i, j, m); ok {
			return end
		}
	}
	if end, ok := s.multiplier(i, j, lw); ok {
		return end
	}
	if end, ok := s.englishNumber(i); ok {
		return end
	}
	return j
}

// chainHasDigit reports whether a word ending at j continues with "-" or "."
// into a word with digits (llama-2-13b, GPT-4o, ZeRO-3, Qwen2.5).
func (s *scanner) chainHasDigit(j int) bool {
	for (s.at(j) == '-' || s.at(j) == '.') && isAlnum(s.at(j+1)) {
		k := j + 1
		for isAlnum(s.at(k)) {
			if isDigit(s.at(k)) {
				return true
			}
			k++
		}
		j = k
	}
	return false
}

// name reads a digit-bearing identifier chain at i and records it.
func (s *scanner) name(i int) int {
	j := i
	for {
		for isAlnum(s.at(j)) {
			j++
		}
		if (s.at(j) == '-' || s.at(j) == '.' || s.at(j) == '_') && isAlnum(s.at(j+1)) {
			j++
			continue
		}
		break
	}
	raw := string(s.rs[i:j])
	s.out = append(s.out, qty{kind: kName, start: i, end: j, raw: raw, name: normName(raw)})
	s.lastWord, s.lastWordEnd = strings.ToLower(raw), j
	return j
}

func (s *scanner) url(i int) int {
	j := i
	for j < len(s.rs) && !unicode.IsSpace(s.rs[j]) && s.rs[j] != '>' && s.rs[j] != '|' && s.rs[j] != ')' && s.rs[j] != '）' && !isHan(s.rs[j]) {
		j++
	}
	raw := strings.TrimRight(string(s.rs[i:j]), ".,;")
	s.out = append(s.out, qty{kind: kName, start: i, end: i + len([]rune(raw)), raw: raw, name: normName(raw)})
	return j
}

// normName lower-cases and keeps letters and digits only, so "RTX 4090",
// "rtx4090" and "RTX-4090" compare equal.
func normName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if isAlnum(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// mergeRanges lets both ends of a range share a unit, scale and rate:
// "1.8–2.5 元/小时", "$1.8-2.5/h", "20–30%", "1.2–1.5万".
func (s *scanner) mergeRanges() {
	for k := 0; k+1 < len(s.out); k++ {
		a, b := &s.out[k], &s.out[k+1]
		if a.kind != kNumber || b.kind != kNumber || a.end > b.start {
			continue
		}
		between := strings.TrimSpace(string(s.rs[a.end:b.start]))
		switch between {
		case "-", "–", "—", "~", "至", "到", "to", "-$", "–$", "~$", "-¥", "–¥", "~¥":
		default:
			continue
		}
		if !a.hasUnit && b.hasUnit {
			a.def, a.unit, a.hasUnit = b.def, b.unit, true
		} else if a.hasUnit && !b.hasUnit && strings.ContainsAny(between, "$¥") {
			b.def, b.hasUnit = a.def, true
		} else if a.hasUnit && !b.hasUnit && (a.def.dim == dimCNY || a.def.dim == dimUSD || a.def.dim == dimEUR) && !a.hasScale {
			b.def, b.unit, b.hasUnit = a.def, a.unit, true // "$1.8–2.5"
		}
		if !a.hasScale && b.hasScale && a.num < b.num*1000 {
			a.scale, a.binary, a.hasScale = b.scale, b.binary, true
		}
		if a.per == "" {
			a.per = b.per
		}
		if b.per == "" {
			b.per = a.per
		}
	}
}
