package parse

import (
	"regexp"
	"strings"
	"unicode"
)

var (
	slackUser  = regexp.MustCompile(`<[@#!][^>]*>`)
	slackLink  = regexp.MustCompile(`<(https?://[^|>]*)(?:\|([^>]*))?>`)
	spaceRuns  = regexp.MustCompile(`\s+`)
	maxMessage = 4000 // runes kept; anything longer is cut before matching
)

// halfWidth maps full-width ASCII and CJK punctuation to their ASCII forms so
// "１３ｂ，ｌｏｒａ" reads like "13b,lora".
var halfWidth = strings.NewReplacer(
	"，", ",", "。", ".", "：", ":", "；", ";", "（", "(", "）", ")",
	"？", "?", "！", "!", "＝", "=", "％", "%", "　", " ", "、", ",",
	"＄", "$", "￥", "¥", "“", "\"", "”", "\"", "‘", "'", "’", "'",
)

// Clean strips Slack markup and width differences and caps the length, so
// the extractors see plain text. It keeps case; Lower is applied by callers.
func Clean(s string) string {
	if r := []rune(s); len(r) > maxMessage {
		s = string(r[:maxMessage])
	}
	s = slackLink.ReplaceAllStringFunc(s, func(m string) string {
		sub := slackLink.FindStringSubmatch(m)
		if sub[2] != "" {
			return sub[2]
		}
		return ""
	})
	s = slackUser.ReplaceAllString(s, " ")
	s = strings.ReplaceAll(s, "`", " ")
	s = strings.ReplaceAll(s, "*", " ")
	var b strings.Builder
	for _, r := range s {
		if r >= 0xFF01 && r <= 0xFF5E {
			r -= 0xFEE0
		}
		b.WriteRune(r)
	}
	s = halfWidth.Replace(b.String())
	return strings.TrimSpace(spaceRuns.ReplaceAllString(s, " "))
}

// Lang is "zh" when the text has any Han character, else "en".
func Lang(s string) string {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return "zh"
		}
	}
	return "en"
}
