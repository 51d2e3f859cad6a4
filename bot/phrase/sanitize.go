package phrase

import "regexp"

var (
	reSlackLink = regexp.MustCompile(`<((?:https?|mailto):[^>|]*)(?:\|([^>]*))?>`)
	reSlackRef  = regexp.MustCompile(`<[!@#][^>]*>`)
	reAtAll     = regexp.MustCompile(`(?i)@(channel|here|everyone)\b`)
)

// Sanitize takes Slack's control sequences out of a model's text before it
// is checked and posted: mentions and broadcasts (<@U123>, <!channel>,
// <!here>, <#C123>) are dropped, a link keeps only its label (or its URL,
// which the guard then checks as a name), and a bare @channel, @here or
// @everyone loses its @. The bot's own answers never ping anyone; a
// rephrase must not either. The transport still escapes &, < and > when it
// posts.
func Sanitize(text string) string {
	text = reSlackLink.ReplaceAllStringFunc(text, func(m string) string {
		sm := reSlackLink.FindStringSubmatch(m)
		if sm[2] != "" {
			return sm[2]
		}
		return sm[1]
	})
	text = reSlackRef.ReplaceAllString(text, "")
	return reAtAll.ReplaceAllString(text, "$1")
}
