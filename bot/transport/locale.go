package transport

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/parse"
)

// userLookup is users.info; *slack.Client is one.
type userLookup interface {
	GetUserInfoContext(ctx context.Context, user string, options ...slack.GetUserInfoOption) (*slack.User, error)
}

// localeTTL is how long a user's locale is remembered: people rarely
// change it, and a lookup on every question would cost a round trip.
const localeTTL = 24 * time.Hour

// locales remembers users' Slack locales in this process.
type locales struct {
	mu   sync.Mutex
	seen map[string]localeEntry
}

type localeEntry struct {
	locale string
	at     time.Time
}

// locale is the asker's Slack locale, when the text leaves the language
// open (no Chinese in it) and users.info answers quickly; "" otherwise, and
// the text's own language stands.
func (a *App) locale(ctx context.Context, team, user, text string) string {
	if a.cfg.Users == nil || user == "" {
		return ""
	}
	for _, r := range text {
		if unicode.Is(unicode.Han, r) {
			return "" // the text says Chinese already
		}
	}
	key := team + ":" + user
	now := time.Now()
	a.locales.mu.Lock()
	e, ok := a.locales.seen[key]
	a.locales.mu.Unlock()
	if ok && now.Sub(e.at) < localeTTL {
		return e.locale
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	u, err := a.cfg.Users.GetUserInfoContext(ctx, user, slack.GetUserInfoOptionIncludeLocale(true))
	if err != nil {
		a.log.DebugContext(ctx, "user locale unavailable", "user", user, "err", err)
		return ""
	}
	a.locales.mu.Lock()
	if a.locales.seen == nil {
		a.locales.seen = map[string]localeEntry{}
	}
	a.locales.seen[key] = localeEntry{locale: u.Locale, at: now}
	a.locales.mu.Unlock()
	return u.Locale
}

// askerLang is the language to tell an asker something the answer did not
// say (a crash): the text's when it is Chinese, else the Slack locale's.
func askerLang(text, locale string) string {
	if parse.Lang(text) == "zh" || strings.HasPrefix(strings.ToLower(locale), "zh") {
		return "zh"
	}
	return "en"
}

// mayManage reports whether user may change a channel's settings (listen
// on|off) or acknowledge a budget alert for everyone: a workspace admin or
// owner (users.info), or one of Config.Admins. Slack tells a bot nothing
// of channel managers, so those are not recognised. Without a users.info
// client (the console) everyone may: there is nobody to ask.
func (a *App) mayManage(ctx context.Context, user string) bool {
	if slices.Contains(a.cfg.Admins, user) {
		return true
	}
	if a.cfg.Users == nil {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	u, err := a.cfg.Users.GetUserInfoContext(ctx, user)
	if err != nil {
		a.log.WarnContext(ctx, "could not check whether a user is an admin; refusing", "user", user, "err", err)
		return false
	}
	return u.IsAdmin || u.IsOwner || u.IsPrimaryOwner
}
