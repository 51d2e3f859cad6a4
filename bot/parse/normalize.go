package parse

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxMessage is how many runes of a message are read; anything longer is cut
// before matching, so a 40 KB paste costs no more than a long question
// (BenchmarkParseLong, < 5 ms). A thousand runes is several times the
// longest question in the corpus.
const maxMessage = 1000

var (
	// <@U123>, <@U123|name>, <#C123|general>, <!here>, <!subteam^S1|@team>
	slackRef = regexp.MustCompile(`<[@#!][^>]*>`)
	// <https://x|label>, <https://x>, <mailto:a@b|a@b>
	slackLink = regexp.MustCompile(`<((?:https?|mailto|ftp):[^|>]*)(?:\|([^>]*))?>`)
	// :rocket:, :+1:, :thumbsup::skin-tone-2:
	slackEmoji = regexp.MustCompile(`:[a-z0-9_+\-]{2,40}:`)
	spaceRuns  = regexp.MustCompile(`\s+`)
)

// markup are Slack's code and bold marks.
var markup = strings.NewReplacer("```", " ", "`", " ", "*", " ")

// halfWidth maps CJK punctuation to ASCII forms so "１３ｂ，ｌｏｒａ" reads
// like "13b, lora" (a full-width comma, colon or semicolon ends a clause,
// so "$300，13b" is never $30,013). Full-width ASCII (U+FF01–FF5E) is shifted in Clean.
var halfWidth = strings.NewReplacer(
	"，", ", ", "。", ". ", "：", ": ", "；", "; ", "（", "(", "）", ")",
	"？", "?", "！", "!", "＝", "=", "％", "%", "　", " ", "、", ", ",
	"＄", "$", "￥", "¥", "“", "\"", "”", "\"", "‘", "'", "’", "'",
	"【", "[", "】", "]", "《", "<", "》", ">", "「", "\"", "」", "\"",
	"～", "~", "—", "-", "–", "-", "·", " ", "…", " ", "×", "x",
	"&amp;", "&", "&lt;", "<", "&gt;", ">", "\u200b", "",
	"萬", "万", "億", "亿", // traditional magnitudes read like the simplified ones
)

// Clean strips Slack markup (mentions, channel refs, links, emoji codes,
// bold/code marks, HTML escapes) and width differences, and caps the length,
// so the extractors see plain text. It keeps case.
func Clean(s string) string {
	s = truncateRunes(s, maxMessage)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, " ")
	}
	s = slackRef.ReplaceAllString(s, " ")
	s = slackLink.ReplaceAllStringFunc(s, func(m string) string {
		sub := slackLink.FindStringSubmatch(m)
		return " " + sub[2] + " "
	})
	s = markup.Replace(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '，' || r == '：' || r == '；':
			// a full-width comma, colon or semicolon ends a clause: it is
			// never a thousands or decimal separator ("$300，13b")
			b.WriteRune(r - 0xFEE0)
			r = ' '
		case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
			r -= 0xFEE0
		case r == '\u3000':
			r = ' '
		case unicode.IsControl(r) && r != '\n' && r != '\t':
			r = ' '
		}
		b.WriteRune(r)
	}
	s = halfWidth.Replace(b.String())
	s = slackEmoji.ReplaceAllString(s, " ")
	return strings.TrimSpace(spaceRuns.ReplaceAllString(s, " "))
}

func truncateRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// Lang is "zh" or "en": the language to answer a message in. Chinese wins
// when Han characters outweigh English words (a Han character counts half a
// word) or when a Chinese question particle is present; product names,
// units and key=value settings count for neither language.
func Lang(s string) string {
	return langOf(strings.ToLower(s), false)
}

// langOf decides the language of lower-cased text. For slash commands the
// grammar itself is English, so any Chinese makes the answer Chinese.
func langOf(t string, slash bool) string {
	han, en := 0, 0
	for i := 0; i < len(t); {
		if c := t[i]; c >= 'a' && c <= 'z' {
			j := i
			for j < len(t) && t[j] >= 'a' && t[j] <= 'z' {
				j++
			}
			// letters glued to digits ("h100", "7b", "qwen2") are names
			glued := i > 0 && isDigit(t[i-1]) || j < len(t) && isDigit(t[j])
			if !glued && j-i >= 2 && !vocab.neutral[t[i:j]] {
				en++
			}
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(t[i:])
		if unicode.Is(unicode.Han, r) {
			han++
		}
		i += size
	}
	if han == 0 {
		return "en"
	}
	if slash || han >= 2*en {
		return "zh"
	}
	for _, p := range vocab.zhParticles {
		if strings.Contains(t, p) {
			return "zh"
		}
	}
	return "en"
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
