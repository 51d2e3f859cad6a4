package slackpost

import (
	"context"
	"errors"
)

// responseURLKey carries the response_url of the request being answered.
type responseURLKey struct{}

// WithResponseURL returns ctx carrying the response_url of the slash
// command or click being answered, for Tell.
func WithResponseURL(ctx context.Context, url string) context.Context {
	if url == "" {
		return ctx
	}
	return context.WithValue(ctx, responseURLKey{}, url)
}

// ResponseURL is the response_url ctx carries (WithResponseURL), "" if none.
func ResponseURL(ctx context.Context) string {
	u, _ := ctx.Value(responseURLKey{}).(string)
	return u
}

// Tell shows text to user alone, later, about the request ctx belongs to
// (the settled outcome of a "⏳ checking…" ledger write). Through the
// request's response_url when ctx carries one: Slack takes it for 30
// minutes in any conversation the command ran in, where
// chat.postEphemeral gets not_in_channel or channel_not_found when the
// bot is not a member. Otherwise (a DM, a mention: conversations the bot
// is in) as an ephemeral message in channel.
func (p *Poster) Tell(ctx context.Context, channel, user, text string) error {
	if u := ResponseURL(ctx); u != "" {
		err := p.Respond(ctx, u, Response{ResponseType: Ephemeral, Text: text})
		if err == nil || channel == "" {
			return err
		}
		// Expired or used up (30 minutes, 5 posts): try the channel.
		if eerr := p.Ephemeral(ctx, Message{Channel: channel, Text: text}, user); eerr != nil {
			return errors.Join(err, eerr)
		}
		return nil
	}
	return p.Ephemeral(ctx, Message{Channel: channel, Text: text}, user)
}
