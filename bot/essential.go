package bot

import "github.com/gpubot/gpubot/bot/parse"

// EssentialFigures names the result figures that are an intent's answer,
// from its row of the intent table: the rephrase guard refuses a rewording
// that drops one the headline shows (phrase.EssentialFrom).
func (b *Bot) EssentialFigures(id parse.Intent) []string {
	r, _ := b.row(id)
	return r.Essential
}
